"""How the bank of Chemin de fer goes round the table, coup after coup: a bank that came in turn
continues from its holder when it loses; a bank taken out of turn (a suite taken or bought)
returns to the right of the banker it came from; passing a winning bank offers it as a suite, and
when nobody takes it the next in turn banks at the minimum. Each coup here is settled through the
pipeline from the coup before, with the bank :func:`next_bank` says comes next."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from games.entry import BetEntry, EntryRejected, HandEntry
from games.guest_banked.bank import (
    MSG_HELD_BY,
    MSG_PASSED_TO,
    MSG_SUITE_BOUGHT,
    MSG_SUITE_IN_TURN,
    MSG_SUITE_TO,
    next_bank,
)
from games.guest_banked.chemin_money import seat_order
from games.guest_banked.pipeline import settle_coup_entry
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup
from games.kinds import BankerMove, BankRotation, Game, SuiteReturn, SuiteWay

D = Decimal
CHEMIN = BankRules(Game.CHEMIN_DE_FER, minimum_banco=D(100))
SEATED = {seat: f"guest {seat}" for seat in range(1, 8)}
BANK_WINS, BANK_LOSES = "B", "P"


def play(
    previous: PreviousCoup | None,
    result: str,
    *,
    move: str = "",
    suite_seat: int | None = None,
    suite_amount: str = "",
    rules: BankRules = CHEMIN,
    seated: dict[int, str] = SEATED,
) -> tuple[PreviousCoup, int, str]:
    """One coup with the bank the coup before leaves (a new bank at the minimum), one ponte
    covering 100 from the banker's right; the coup's state for the next, who banked, and the
    template of the note that said so."""
    bank = next_bank(Game.CHEMIN_DE_FER, previous, seated)
    assert bank.banker_seat is not None
    ponte = seat_order(bank.banker_seat, seated)[0]
    entry = HandEntry(
        result=result,
        bets=(BetEntry(ponte, "ordinary", "100"),),
        coup=CoupTerms(
            banker_seat=bank.banker_seat,
            bank=str(bank.amount or rules.minimum_banco),
            move=move,
            suite_seat=suite_seat,
            suite_amount=suite_amount,
        ),
    )
    settled = settle_coup_entry(entry, rules, seated, previous=previous)
    assert settled.coup is not None
    why = bank.why.template if bank.why is not None else ""
    return settled.coup.next_state, bank.banker_seat, why


def test_the_bank_goes_round_as_the_table_passes_it():
    # Seat 1 banks first, wins and gives a suite that seat 4 takes out of turn.
    state, banker, _ = play(None, BANK_WINS, move="suite", suite_seat=4)
    assert banker == 1
    # Seat 4 banks the suite and loses: back to the right of seat 1, the banker it came from.
    state, banker, why = play(state, BANK_LOSES)
    assert (banker, why, state.rotation_seat) == (4, MSG_SUITE_TO, 1)
    # Seat 2 banks in turn, wins and passes the bank: nobody takes it, so seat 3 (next in turn)
    # banks at the minimum.
    state, banker, why = play(state, BANK_WINS, move="pass")
    assert (banker, why) == (2, MSG_PASSED_TO)
    assert (state.move, state.suite_way, state.suite_seat) == (
        BankerMove.SUITE,
        SuiteWay.NEXT_IN_TURN,
        3,
    )
    # Seat 3's bank came in turn: when it loses it goes on to seat 4, never back to seat 3.
    state, banker, why = play(state, BANK_LOSES)
    assert (banker, why, state.rotation_seat) == (3, MSG_SUITE_IN_TURN, 3)
    # Seat 4 wins and keeps, then gives a suite bought at auction by seat 6.
    state, banker, why = play(state, BANK_WINS)
    assert (banker, why) == (4, MSG_PASSED_TO)
    state, banker, why = play(state, BANK_WINS, move="suite", suite_seat=6, suite_amount="500")
    assert (banker, why) == (4, MSG_HELD_BY)
    # Seat 6 wins too and gives a suite of the suite, taken by seat 1.
    state, banker, why = play(state, BANK_WINS, move="suite", suite_seat=1)
    assert (banker, why, state.rotation_seat) == (6, MSG_SUITE_BOUGHT, 4)
    # Seat 1 loses: the bank returns to the right of seat 6, the banker it came from.
    state, banker, why = play(state, BANK_LOSES)
    assert (banker, why, state.rotation_seat) == (1, MSG_SUITE_TO, 6)
    # Seat 7 banks, wins and retires: a new bank, from his right.
    state, banker, why = play(state, BANK_WINS, move="retire")
    assert (banker, why) == (7, MSG_PASSED_TO)
    assert next_bank(Game.CHEMIN_DE_FER, state, SEATED).banker_seat == 1


def test_an_event_may_return_a_suite_of_a_suite_to_the_last_banker_in_turn():
    rules = replace(CHEMIN, suite_returns=SuiteReturn.IN_TURN)
    state, _, _ = play(None, BANK_LOSES, rules=rules)  # seat 1 loses: seat 2 banks in turn
    state, banker, _ = play(state, BANK_WINS, move="suite", suite_seat=5, rules=rules)
    state, banker, _ = play(state, BANK_WINS, move="suite", suite_seat=7, rules=rules)
    assert banker == 5
    state, banker, _ = play(state, BANK_LOSES, rules=rules)
    assert (banker, state.rotation_seat) == (7, 2)
    assert next_bank(Game.CHEMIN_DE_FER, state, SEATED).banker_seat == 3


def test_a_suite_nobody_takes_from_a_bank_held_out_of_turn_goes_to_the_next_in_turn():
    state, _, _ = play(None, BANK_WINS, move="suite", suite_seat=5)  # seat 1's rotation
    state, banker, _ = play(state, BANK_WINS, move="pass")
    assert banker == 5
    # The bank would have gone to seat 2 had it lost: seat 2 is next in turn, not seat 6.
    assert (state.suite_seat, state.suite_way, state.suite_amount) == (
        2,
        SuiteWay.NEXT_IN_TURN,
        D(100),
    )


@pytest.mark.parametrize("seats", [(3, 6), (3, 5, 6), (2, 3, 6)])
def test_a_lost_bank_never_goes_back_to_the_banker_who_lost_it(seats):
    seated = {seat: SEATED[seat] for seat in seats}
    first, second = seats[0], seats[1]  # the first bank, and the next seat at its right
    state, _, _ = play(None, BANK_WINS, move="suite", suite_seat=6, seated=seated)
    state, banker, _ = play(state, BANK_LOSES, seated=seated)
    assert (banker, state.rotation_seat) == (6, first)
    after = next_bank(Game.CHEMIN_DE_FER, state, seated)
    assert after.banker_seat == (first if second == 6 else second)


def test_a_bank_that_skips_the_banker_who_lost_it_says_so():
    state, _, _ = play(None, BANK_WINS, move="suite", suite_seat=2)  # seat 2 at seat 1's right
    state, banker, _ = play(state, BANK_LOSES)
    assert banker == 2
    after = next_bank(Game.CHEMIN_DE_FER, state, SEATED)
    assert after.banker_seat == 3 and after.why is not None
    assert str(after.why) == (
        "The bank of seat 2 lost the last coup: it passes to seat 3, the next to the right of "
        "seat 1 after seat 2, who just lost it."
    )


def test_the_note_names_both_seats():
    state, _, _ = play(None, BANK_WINS, move="suite", suite_seat=4)
    state, _, _ = play(state, BANK_LOSES)
    after = next_bank(Game.CHEMIN_DE_FER, state, SEATED)
    assert after.why is not None
    assert str(after.why) == (
        "The bank of seat 4 lost the last coup: it passes to seat 2, to the right of seat 1."
    )


# --- a night keeps the reading it was played under (games.kinds.BankRotation) ----------------

ORIGINAL = replace(CHEMIN, rotation=BankRotation.ORIGINAL)


def coup_at(
    previous: PreviousCoup | None, banker: int, bank: str, result: str, rules: BankRules, **terms
):
    """A coup whose banker is given (not the one next_bank says), covered by seat 7."""
    entry = HandEntry(
        result=result,
        bets=(BetEntry(7, "ordinary", bank),),
        coup=CoupTerms(banker_seat=banker, bank=bank, **terms),
    )
    return settle_coup_entry(entry, rules, SEATED, previous=previous)


def test_a_suite_lost_at_its_givers_right_went_back_to_its_loser_under_the_original_reading():
    # Seat 1 wins and gives a suite to seat 2, at his right; seat 2 loses it.
    given = coup_at(None, 1, "100", BANK_WINS, CHEMIN, move="suite", suite_seat=2).coup
    assert given is not None
    lost = {}
    for rules in (CHEMIN, ORIGINAL):
        coup = coup_at(given.next_state, 2, "195", BANK_LOSES, rules).coup
        assert coup is not None and coup.rotation_seat == 1
        lost[rules.rotation] = coup.next_state
    # Today: never back to the seat that lost it. The original reading: seat 1's right, seat 2.
    assert next_bank(Game.CHEMIN_DE_FER, lost[BankRotation.SKIPS_LOSER], SEATED).banker_seat == 3
    original = next_bank(Game.CHEMIN_DE_FER, lost[BankRotation.ORIGINAL], SEATED, ORIGINAL.rotation)
    assert original.banker_seat == 2
    # So seat 2 banking again settles under the original reading and is refused under today's.
    assert coup_at(lost[BankRotation.ORIGINAL], 2, "150", BANK_WINS, ORIGINAL).coup is not None
    with pytest.raises(EntryRejected):
        coup_at(lost[BankRotation.SKIPS_LOSER], 2, "150", BANK_WINS, CHEMIN)


def test_a_suite_nobody_took_returned_to_its_givers_right_under_the_original_reading():
    given = coup_at(None, 4, "100", BANK_WINS, CHEMIN, move="suite").coup
    assert given is not None and (given.suite_seat, given.suite_way) == (5, SuiteWay.NEXT_IN_TURN)
    today = coup_at(given.next_state, 5, "100", BANK_LOSES, CHEMIN).coup
    original = coup_at(given.next_state, 5, "100", BANK_LOSES, ORIGINAL).coup
    assert today is not None and original is not None
    assert (today.rotation_seat, original.rotation_seat) == (5, 4)
    assert next_bank(Game.CHEMIN_DE_FER, today.next_state, SEATED).banker_seat == 6
    after = next_bank(Game.CHEMIN_DE_FER, original.next_state, SEATED, BankRotation.ORIGINAL)
    assert after.banker_seat == 5
