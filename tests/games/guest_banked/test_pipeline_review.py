"""A review of the coup pipeline (games.guest_banked.pipeline and its modules): each test states
what the rules (docs/rules.md) or the pipeline's own promises require; its docstring tells the
fault it was written against, since mended."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.entry import EntryRejected, Field
from games.guest_banked.banque_coup import holders
from games.guest_banked.banque_money import BanqueTaxe, BanqueTaxeKind
from games.guest_banked.chemin_money import MSG_STAKE_BELOW_MINIMUM
from games.guest_banked.pipeline import settle_coup_entry
from games.guest_banked.terms import BankRules, PreviousCoup
from games.kinds import BancoKind, BankerMove, Game
from games.payouts import BankedBet
from games.rules import Winner
from tests.games.guest_banked.test_pipeline import BANQUE, CHEMIN, SEATED, coup

D = Decimal
SEVEN = {1: "Aki", 2: "Ben", 3: "Chie", 4: "Dai", 5: "Emi", 6: "Fumio", 7: "Goro"}


def problems(entry, rules=CHEMIN, seated=SEATED, previous=None):
    with pytest.raises(EntryRejected) as caught:
        settle_coup_entry(entry, rules, seated, previous=previous)
    return caught.value.problems


def bank_rows(settled):
    return {bet.seat: bet for bet in settled.bets if bet.bet_type is BankedBet.BANK}


# --- the suite: its taker and amount as typed --------------------------------------------------


def test_a_suite_named_for_a_seat_with_an_amount_of_zero_is_refused_not_given_to_another():
    """Seat 4 is typed as the suite's taker with 0: ``_suite`` reads 0 as "no bid" and the bank
    goes silently to seat 2, next in turn, at the minimum banco. A suite of 0 is no amount a
    bank plays: refused with a reason, never handed to a seat nobody typed."""
    entry = coup((3, "ordinary", "100"), result="B", move="suite", suite_seat=4, suite_amount="0")
    assert {problem.field for problem in problems(entry)} & {Field.SUITE_AMOUNT, Field.SUITE_SEAT}


def test_a_suite_amount_without_its_taker_is_refused_not_dropped():
    """An amount typed for the suite with no seat taking it: ``_suite`` drops the amount and
    gives the bank to the next in turn at the minimum banco (100, not the 150 typed)."""
    entry = coup((3, "ordinary", "100"), result="B", move="suite", suite_amount="150")
    assert {problem.field for problem in problems(entry)} & {Field.SUITE_AMOUNT, Field.SUITE_SEAT}


# --- strange input -----------------------------------------------------------------------------


def test_no_banker_seat_is_refused_with_a_reason_not_an_assertion_error():
    """``banker_seat=None`` (nothing chosen, as ``co_banker_seat`` takes): ``read_bank`` checks
    ``plain(str(None))`` — "None", not empty — so no problem is raised, no bank is read, and
    ``settle_coup_entry`` trips its ``assert settled is not None``."""
    entry = coup((3, "ordinary", "100"), result="B", banker_seat=None)
    assert Field.BANKER_SEAT in {problem.field for problem in problems(entry)}


def test_a_refused_stake_is_reported_on_its_own_row():
    """Chie stakes 5 (below the 10 minimum) then 100: the refusal of the 5 is reported on bet 0,
    where it was typed. ``settle_chemin`` maps refusals back by guest (``by_guest`` keeps the
    last index), so the message lands on the 100's row."""
    entry = coup((3, "ordinary", "5"), (3, "ordinary", "100"), result="B")
    [problem] = [p for p in problems(entry) if p.template == MSG_STAKE_BELOW_MINIMUM]
    assert problem.bet == 0


# --- Baccara banque ----------------------------------------------------------------------------


def test_banque_a_retire_with_a_wrong_amount_taken_is_refused():
    """Chemin de fer refuses a banker giving the bank up who takes other than all it holds
    (MSG_TAKES_ALL); ``settle_banque`` reads ``taken`` and ignores it unless the move is keep:
    5 typed as taken out of a bank of 190 is stored as 190 taken, without a word."""
    entry = coup(
        (2, "tableau_1", "50"),
        (6, "tableau_2", "60"),
        result="B",
        second_result="P",
        banker_seat=4,
        move="retire",
        taken="5",
    )
    assert Field.TAKEN in {problem.field for problem in problems(entry, BANQUE, SEVEN)}


def test_banque_a_co_banker_joining_a_kept_bank_pays_the_taxe_on_the_capital_he_brings():
    """The taxe is "5 % des eingebrachten Kapitals" (docs/rules.md). Emi joins Dai's kept bank of
    190 with 190 of her own (banco double, 380): that capital is brought in and owes 9.50; the
    coup charges nothing (``settle_banque`` taxes capital only on a new bank)."""
    previous = PreviousCoup(4, None, D(190), BankerMove.KEEP, 4)
    settled = settle_coup_entry(
        coup(
            (2, "tableau_1", "50"),
            result="B",
            second_result="T",
            banker_seat=4,
            co_banker_seat=5,
            bank="380",
        ),
        BANQUE,
        SEVEN,
        previous=previous,
    )
    assert settled.coup.house_cut == D("9.50")


def test_banque_the_taxe_on_a_shared_banks_capital_is_shared():
    """Banco double: the co-banker brings half the capital and shares "zu gleichen Teilen am
    Gewinn, aber auch am Verlust". The 5% on the 200 brought in by Dai and Emi together is
    charged to Dai alone (10.00 of commission on Dai's row, 0 on Emi's)."""
    settled = settle_coup_entry(
        coup(
            (2, "tableau_1", "50"),
            (6, "tableau_2", "60"),
            result="B",
            second_result="P",
            banker_seat=4,
            co_banker_seat=5,
        ),
        BANQUE,
        SEVEN,
    )
    rows = bank_rows(settled)
    assert settled.coup.house_cut == D(10)
    assert rows[4].result.commission == rows[5].result.commission == D(5)


def test_banque_the_cards_of_a_losing_tableau_pass_to_the_holders_neighbour():
    """The rules: "Verliert er jedoch, so bekommt sein Nachbar die Karten". Dai banks in seat 4;
    tableau 1's half is seats 3, 2, 1 and its cards start with seat 3 (nearest the banker).
    Seat 3 loses: his neighbour in that half is seat 2, but ``holders`` (``cards_next`` goes to
    the next seat *up*) jumps over him to seat 1, the far end of the half."""
    previous = PreviousCoup(
        4,
        None,
        D(100),
        BankerMove.KEEP,
        4,
        holder_seats=(3, 5),
        winners=(Winner.BANKER, Winner.PLAYER),
    )
    assert holders(4, set(SEVEN), previous) == (2, 5)


def test_banque_limitee_refuses_stakes_beyond_the_bank_but_ouverte_takes_them():
    """A control the other tests lean on (passes today): limitée caps both tableaux together
    at the bank; ouverte lets its holder answer beyond it."""
    ouverte = BankRules(
        Game.BACCARA_BANQUE,
        D(100),
        banque_taxe=BanqueTaxe(BanqueTaxeKind.WINNINGS, BancoKind.OUVERTE),
    )
    entry = coup(
        (2, "tableau_1", "150"),
        (6, "tableau_2", "60"),
        result="P",
        second_result="P",
        banker_seat=4,
    )
    assert problems(entry, BANQUE, SEVEN)
    settled = settle_coup_entry(entry, ouverte, SEVEN)
    assert settled.coup.bank_after == D(-10)
    assert sum(bet.result.net for bet in settled.bets) + settled.coup.house_cut == 0
