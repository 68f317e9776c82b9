"""Review of issue 15's coup pipeline on the ledger side: each test states what the rules (seed
002, RULES.md, the issue) or the ledger's own promises require and fails on what it does now."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.kinds import Game
from games.models import Event
from ledger import services
from ledger.models import Bet, Coup, Hand
from tests.ledger.test_coups import coup_entry, play

D = Decimal


@pytest.fixture
def banque_table(event, shoe, seated):
    Event.objects.filter(pk=event.pk).update(
        game=Game.BACCARA_BANQUE, table_min=D(100), taxe=Event.Cut.CAPITAL
    )
    shoe.refresh_from_db()
    return shoe


def correct(hand, host, *bets, **terms):
    return services.hand_correct(
        hand=hand, entry=coup_entry(*bets, **terms), reason="misread", by=host
    )


# --- a Punto Banco event and a coup ------------------------------------------------------------


def test_a_punto_banco_event_refuses_an_entry_that_carries_a_coup(event, shoe, seated, host):
    """The brief: a Punto Banco event receiving a coup entry is refused with a reason. Today
    ``_settle`` hands it to ``settle_hand``, which ignores ``entry.coup``: the hand is recorded
    as Punto Banco and the bank, banker and move typed are dropped without a word."""
    entry = HandEntry(
        result="B",
        bets=(BetEntry(2, "banker", "100"),),
        coup=CoupTerms(banker_seat=1, bank="200", move="keep"),
    )
    with pytest.raises(ValidationError):
        services.hand_record(shoe=shoe, number=1, entry=entry, by=host)
    assert not Hand.objects.exists()


# --- corrections that break the coups after them -----------------------------------------------


def test_a_correction_that_takes_away_a_suivi_used_on_the_next_coup_is_refused(table, host):
    """Coup 1: Ben's banco solo loses, so Ben may call suivi on coup 2, and does. Correcting
    coup 1 so that Chie played the banco leaves coup 2 with a suivi nobody was entitled to:
    ``check_next_coup`` only checks the bank's continuity, so the correction goes through."""
    first = play(table, host, (2, "banco_solo", "200"), result="B")  # keeps 390, suivi: seat 2
    play(table, host, (2, "suivi", "390"), result="P", bank="390")
    with pytest.raises(ValidationError):
        correct(first, host, (3, "banco_solo", "200"), result="B")
    assert Bet.objects.get(hand=first, seat=2).cover_kind == "banco_solo"


def test_a_correction_of_who_gave_the_suite_is_refused_while_a_later_coup_rotates_from_it(
    table, host
):
    """Coup 1: Aki (seat 1) banks, wins, gives a suite; Dai (seat 4) takes it and loses coup 2.
    Corrected to "Ben (seat 2) banked", coup 2's bank would pass from seat 2's right, not seat
    1's: coup 2 would settle differently, so the correction is refused and nothing changes."""
    first = play(table, host, (3, "ordinary", "100"), result="B", move="suite", suite_seat=4)
    second = play(table, host, (5, "ordinary", "195"), result="P", banker_seat=4, bank="195")
    with pytest.raises(ValidationError):
        correct(
            first, host, (3, "ordinary", "100"), result="B", move="suite", suite_seat=4,
            banker_seat=2,
        )  # fmt: skip
    assert Coup.objects.get(hand=first).banker_seat == 1
    assert Coup.objects.get(hand=second).rotation_seat == 1
    # the shoe goes on from seat 1's right, as recorded
    play(table, host, (5, "ordinary", "100"), result="B", banker_seat=2, bank="100")
    assert Coup.objects.count() == 3


def test_a_correction_to_a_retire_leaves_the_next_bank_untaxed(banque_table, host):
    """Baccara banque, taxe on capital: a banker bringing a bank in pays 5% of it on its first
    coup. Coup 1 kept, coup 2 played on (no taxe). Corrected, coup 1 ended in a retire: coup 2
    is now a bank brought in and owes 5% of 190 — the correction is accepted (continuity after
    a retire always holds) and coup 2 stays untaxed."""
    first = play(
        banque_table, host, (2, "tableau_1", "50"), (6, "tableau_2", "60"), result="B",
        second_result="P", banker_seat=4,
    )  # fmt: skip  # 200 - 10 (taxe) ... bank after 190
    second = play(
        banque_table, host, (2, "tableau_1", "50"), result="B", second_result="T",
        banker_seat=4, bank="190",
    )  # fmt: skip
    assert Coup.objects.get(hand=second).house_cut == 0
    try:
        correct(
            first, host, (2, "tableau_1", "50"), (6, "tableau_2", "60"), result="B",
            second_result="P", banker_seat=4, move="retire",
        )  # fmt: skip
    except ValidationError:
        return  # refused: fine
    assert Coup.objects.get(hand=second).house_cut == D("9.50")


# --- corrections refused as "nothing changed" --------------------------------------------------


def test_correcting_only_a_covers_kind_is_a_change(table, host):
    """Chie's 200 was a banco solo, not an ordinary stake: the stored bet's kind differs, but
    ``_same_hand`` compares (seat, guest, bet type, stake) only and the coup rows are equal (a
    Player win leaves no suivi), so the correction is refused as "nothing changed"."""
    first = play(table, host, (3, "ordinary", "200"), result="P")
    correct(first, host, (3, "banco_solo", "200"), result="P")
    assert Bet.objects.get(hand=first, seat=3).cover_kind == "banco_solo"


# --- banks the ledger accepts and then cannot continue --------------------------------------


def test_a_kept_shared_bank_with_an_odd_cent_can_play_on(chemin, table, host):
    """Aki and Ben share a bank of 200 (banco double); Chie's 101 loses: 5.05 taxe, 196.95 on
    the table, kept. The next coup must play 196.95 with the same co-banker (continuity), but
    a new bank's check refuses 196.95 as "two equal halves" and continuity refuses anything else:
    the shoe is stuck after a coup the ledger accepted."""
    Event.objects.filter(pk=chemin.pk).update(table_min=D(10))
    play(table, host, (3, "ordinary", "101"), result="B", co_banker_seat=2)
    assert Coup.objects.get().bank_after == D("196.95")
    play(table, host, (3, "ordinary", "100"), result="B", co_banker_seat=2, bank="196.95")
    assert Coup.objects.count() == 2


def test_a_kept_bank_below_the_minimum_banco_can_play_on(table, host):
    """Minimum banco 100; Aki's bank of 200 is covered for 20 only and wins: 39 on the table,
    kept (the default). Continuity then demands 39 and the minimum banco refuses 39: no next
    coup can be recorded. Either the keep is refused (the bank must be given up) or the kept
    bank plays on."""
    try:
        play(table, host, (3, "ordinary", "20"), result="B")
    except ValidationError:
        return  # the keep refused with a reason: fine
    play(table, host, (3, "ordinary", "20"), result="B", bank="39")
    assert Coup.objects.count() == 2


# --- who the entry screen saw in the banker's seat ---------------------------------------------


def test_a_coup_whose_bankers_seat_changed_since_the_page_was_drawn_is_refused(
    table, host, seated, guests
):
    """``seen_seating`` guards against money landing on someone the person entering did not
    see; ``_check_seen_seating`` looks only at the bets' seats, so when Aki leaves seat 1 and
    Hana sits there, the coup typed for Aki's bank books the bank's result on Hana."""
    seen = {seat: guest.pk for seat, guest in seated.items()}
    services.seat_guest(shoe=table, seat=1, guest=guests[7], by=host)  # Hana takes seat 1
    with pytest.raises(services.SeatingChanged):
        services.hand_record(
            shoe=table, number=1, by=host, seen_seating=seen,
            entry=coup_entry((3, "ordinary", "100"), result="B"),
        )  # fmt: skip
    assert not Coup.objects.exists()
