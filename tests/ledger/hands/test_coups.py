"""Coups of a guest-banked night through the ledger's one pipeline: recorded, followed from the
coup before, corrected with their history kept, undone — and every chip accounted for."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db.models import Sum
from django.urls import reverse
from django.utils.html import escape

from games.entry import BetEntry, HandEntry
from games.guest_banked.bank import MSG_HELD_BY, MSG_PASSED_TO
from games.guest_banked.chemin_money import MSG_NO_MONEY_OUT, MSG_STAKE_EXCEEDS
from games.guest_banked.pipeline import settle_coup_entry
from games.guest_banked.terms import CoupTerms
from games.kinds import BankerMove, Game
from games.models import Event
from ledger.hands import services as hand_services
from ledger.hands.coups import MSG_NEXT_COUP_BREAKS, coup_row, coup_snapshot, stored_entry
from ledger.models import AuditEntry, Bet, Coup, GuestEventResult, Hand, HandRevision, Seating
from tests.ledger.hands.coup_entries import coup_entry, play

D = Decimal


def messages(error: ValidationError) -> str:
    return " ".join(message for messages in error.message_dict.values() for message in messages)


def guests_net(**filters) -> Decimal:
    return Bet.objects.filter(**filters).aggregate(total=Sum("net"))["total"] or D(0)


def house_cut(**filters) -> Decimal:
    cut = Coup.objects.filter(**filters).aggregate(total=Sum("house_cut"))["total"]
    return cut or D(0)


def test_a_coup_is_stored_with_its_bank_covers_and_cut(table, host, seated):
    hand = play(table, host, (3, "banco_solo", "200"), result="B")
    coup = Coup.objects.get(hand=hand)
    assert (coup.banker, coup.bank, coup.covered) == (seated[1], D(200), D(200))
    assert coup.holder_seat == 3  # the banco holds the cards
    assert (coup.house_cut, coup.move, coup.bank_after) == (D(10), BankerMove.KEEP, D(390))
    bets = {bet.seat: bet for bet in Bet.objects.filter(hand=hand)}
    assert set(bets) == {1, 3}
    assert bets[3].cover_kind == "banco_solo" and bets[3].net == D(-200)
    assert (bets[1].bet_type, bets[1].gross, bets[1].commission) == ("bank", D(200), D(10))


def test_every_coup_and_the_night_are_zero_sum(table, host, chemin):
    play(table, host, (2, "ordinary", "150"), (3, "ordinary", "50"), result="B")
    play(table, host, (4, "banco_solo", "390"), result="P", bank="390")
    play(table, host, (3, "ordinary", "100"), result="T", banker_seat=2, bank="100")
    for coup in Coup.objects.select_related("hand"):
        assert guests_net(hand=coup.hand) + coup.house_cut == 0
    assert guests_net(event=chemin) + house_cut(event=chemin) == 0
    results = GuestEventResult.objects.filter(event=chemin).aggregate(total=Sum("net"))
    assert results["total"] == guests_net(event=chemin)


def test_the_next_coup_follows_from_the_one_before(table, host):
    play(table, host, (2, "ordinary", "100"), result="B")  # seat 1 keeps 195
    with pytest.raises(ValidationError) as less:
        play(table, host, (2, "ordinary", "100"), result="B", bank="150")
    assert MSG_NO_MONEY_OUT.format(amount="45") in messages(less.value)
    with pytest.raises(ValidationError) as other:
        play(table, host, (3, "ordinary", "100"), result="B", banker_seat=2, bank="195")
    assert MSG_HELD_BY.format(seat=1) in messages(other.value)
    play(table, host, (2, "ordinary", "195"), result="P", bank="195")  # lost: passes
    with pytest.raises(ValidationError) as skipped:
        play(table, host, (2, "ordinary", "100"), result="B", banker_seat=3, bank="100")
    assert MSG_PASSED_TO.format(banker=1, seat=2, rotation=1) in messages(skipped.value)
    assert Coup.objects.count() == 2


def test_a_refused_coup_stores_nothing(table, host):
    before = (Bet.objects.count(), Coup.objects.count(), AuditEntry.objects.count())
    with pytest.raises(ValidationError) as refused:
        play(table, host, (2, "ordinary", "150"), (3, "ordinary", "100"), result="B")
    assert MSG_STAKE_EXCEEDS.format(guest="Chie", amount="100", left="50") in messages(
        refused.value
    )
    assert (Bet.objects.count(), Coup.objects.count(), AuditEntry.objects.count()) == before


def test_undo_takes_the_coup_back_and_keeps_it_in_the_journal(table, host):
    play(table, host, (2, "ordinary", "100"), result="B")
    hand_services.hand_undo(shoe=table, by=host)
    assert not Coup.objects.exists()
    revision = HandRevision.objects.get()
    assert revision.before["coup"]["bank"] == "200.00"
    assert revision.before["coup"]["move"] == "keep"
    assert {bet.get("kind") for bet in revision.before["bets"]} == {"ordinary", None}
    # After the undo the first coup may be played again by anyone.
    play(table, host, (1, "ordinary", "100"), result="B", banker_seat=5, bank="300")


def test_a_correction_keeps_the_history_and_refuses_to_break_the_next_coup(table, host):
    first = play(table, host, (2, "ordinary", "100"), result="B")  # keeps 195
    play(table, host, (2, "ordinary", "100"), result="B", bank="195")
    with pytest.raises(ValidationError) as broken:
        hand_services.hand_correct(
            hand=first,
            entry=coup_entry((2, "ordinary", "100"), result="P"),
            reason="misread",
            by=host,
        )
    assert str(MSG_NEXT_COUP_BREAKS).split("{problem}")[0].format(number=2) in messages(
        broken.value
    )
    assert Coup.objects.get(hand=first).bank_after == D(195)  # nothing changed
    # The same 100 covered by two stakes instead of one: the next coup still follows.
    hand_services.hand_correct(
        hand=first,
        entry=coup_entry((2, "ordinary", "60"), (3, "ordinary", "40"), result="B"),
        reason="Chie had a stake too",
        by=host,
    )
    assert set(Bet.objects.filter(hand=first).values_list("seat", flat=True)) == {1, 2, 3}
    assert HandRevision.objects.filter(kind=HandRevision.Kind.CORRECTION).count() == 1


def test_a_correction_that_keeps_the_next_coup_whole_is_recorded_with_its_history(table, host):
    first = play(table, host, (2, "ordinary", "100"), result="B", move="retire")
    play(table, host, (1, "ordinary", "100"), result="B", banker_seat=3, bank="100")
    hand_services.hand_correct(
        hand=first,
        entry=coup_entry((2, "ordinary", "100"), result="T", move="retire"),
        reason="it was an égalité",
        by=host,
    )
    coup = Coup.objects.get(hand=first)
    assert (coup.house_cut, coup.taken) == (D(0), D(100))
    revision = HandRevision.objects.get(kind=HandRevision.Kind.CORRECTION)
    assert revision.before["coup"]["house_cut"] == "5.00"
    assert revision.after["coup"]["house_cut"] == "0.00"
    assert guests_net(hand=first) + coup.house_cut == 0


def test_every_stored_coup_settles_again_to_what_was_recorded(table, host):
    """The entry kept with each coup (``stored_entry``) gives back the same stakes and record:
    what corrections and the integrity check rely on."""
    play(
        table,
        host,
        (2, "ordinary", "60"),
        (3, "ordinary", "40"),
        player="5 K",
        banker="7 K",
        ponte_choice="stand",
    )
    play(table, host, (2, "banco_solo", "195"), result="B", bank="195")  # keeps 380.25
    play(table, host, (2, "suivi", "380.25"), result="P", bank="380.25")  # passes to seat 2
    play(
        table,
        host,
        (4, "avec_la_table", "100"),
        (5, "ordinary", "100"),
        result="T",
        banker_seat=2,
        bank="200",
        co_banker_seat=3,
        move="suite",
    )
    coups = Coup.objects.select_related("hand").order_by("hand__number")
    previous = None
    for coup in coups:
        bets = list(Bet.objects.filter(hand=coup.hand))
        seated = {s.seat: s.guest for s in Seating.objects.at(table, coup.hand.number)}
        entry = stored_entry(coup.hand, coup, bets)
        settled = settle_coup_entry(entry, table.event.bank_rules, seated, previous=previous)
        again = coup_row(coup.hand, table.event, settled.coup, seated)
        assert coup_snapshot(again) == coup_snapshot(coup)
        assert sorted((b.seat, b.result.net) for b in settled.bets) == sorted(
            (b.seat, b.net) for b in bets
        )
        previous = settled.coup.next_state
    assert coups.count() == 4


@pytest.mark.parametrize(
    ("fields", "line"),
    [
        ({"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": D("0.04")},
         "Chemin de fer · the house takes 4% of each winning bank"),
        ({"game": "chemin_de_fer", "taxe": "per_shoe", "shoe_charge": D(30)},
         "Chemin de fer · a table charge of 30.00 a shoe"),
        ({"game": "baccara_banque", "taxe": "winnings", "banco": "ouverte"},
         "Baccara banque · Banque ouverte · the house takes a share of the bank's winnings"),
    ],
)  # fmt: skip
def test_the_event_page_states_the_game_and_its_cut_not_punto_bancos_payouts(
    client, host, event, fields, line
):
    Event.objects.filter(pk=event.pk).update(**fields)
    client.force_login(host)
    page = client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    assert escape(line) in page
    assert "Tie 8:1" not in page


# --- what the rules and the ledger's promises require of corrections, banks and seats ------


@pytest.fixture
def banque_table(event, shoe, seated):
    Event.objects.filter(pk=event.pk).update(
        game=Game.BACCARA_BANQUE, table_min=D(100), taxe=Event.Cut.CAPITAL
    )
    shoe.refresh_from_db()
    return shoe


def correct(hand, host, *bets, **terms):
    return hand_services.hand_correct(
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
        hand_services.record_hand(shoe=shoe, number=1, entry=entry, by=host)
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
            first,
            host,
            (3, "ordinary", "100"),
            result="B",
            move="suite",
            suite_seat=4,
            banker_seat=2,
        )
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
        banque_table,
        host,
        (2, "tableau_1", "50"),
        (6, "tableau_2", "60"),
        result="B",
        second_result="P",
        banker_seat=4,
    )  # 200 - 10 (taxe) ... bank after 190
    second = play(
        banque_table,
        host,
        (2, "tableau_1", "50"),
        result="B",
        second_result="T",
        banker_seat=4,
        bank="190",
    )
    assert Coup.objects.get(hand=second).house_cut == 0
    try:
        correct(
            first,
            host,
            (2, "tableau_1", "50"),
            (6, "tableau_2", "60"),
            result="B",
            second_result="P",
            banker_seat=4,
            move="retire",
        )
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
    ``_bank_problem`` refuses 196.95 as "two equal halves" and continuity refuses anything else:
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
    hand_services.seat_guest(shoe=table, seat=1, guest=guests[7], by=host)  # Hana takes seat 1
    with pytest.raises(hand_services.SeatingChanged):
        hand_services.record_hand(
            shoe=table,
            number=1,
            by=host,
            seen_seating=seen,
            entry=coup_entry((3, "ordinary", "100"), result="B"),
        )
    assert not Coup.objects.exists()
