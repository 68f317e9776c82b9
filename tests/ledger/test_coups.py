"""Coups of a guest-banked night through the ledger's one pipeline: recorded, followed from the
coup before, corrected with their history kept, undone — and every chip accounted for."""

from __future__ import annotations

import uuid
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
from games.kinds import BankerMove
from games.models import Event
from ledger import services
from ledger.coups import MSG_NEXT_COUP_BREAKS, coup_row, coup_snapshot, stored_entry
from ledger.models import AuditEntry, Bet, Coup, GuestEventResult, HandRevision, Seating

D = Decimal


def coup_entry(*bets, result="B", player="", banker="", **terms):
    terms.setdefault("banker_seat", 1)
    terms.setdefault("bank", "200")
    return HandEntry(
        player_cards=player,
        banker_cards=banker,
        result=result if not player else None,
        bets=tuple(BetEntry(*bet) for bet in bets),
        coup=CoupTerms(**terms),
    )


def play(shoe, host, *bets, **terms):
    return services.hand_record(
        shoe=shoe,
        number=services.next_hand_number(shoe),
        entry=coup_entry(*bets, **terms),
        by=host,
        idempotency_key=uuid.uuid4(),
    )


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
    assert MSG_PASSED_TO.format(seat=2) in messages(skipped.value)
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
    services.hand_undo(shoe=table, by=host)
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
        services.hand_correct(
            hand=first, entry=coup_entry((2, "ordinary", "100"), result="P"), reason="misread",
            by=host,
        )  # fmt: skip
    assert str(MSG_NEXT_COUP_BREAKS).split("{problem}")[0].format(number=2) in messages(
        broken.value
    )
    assert Coup.objects.get(hand=first).bank_after == D(195)  # nothing changed
    # The same 100 covered by two stakes instead of one: the next coup still follows.
    services.hand_correct(
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
    services.hand_correct(
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
    play(table, host, (2, "ordinary", "60"), (3, "ordinary", "40"), player="5 K", banker="7 K",
         ponte_choice="stand")  # fmt: skip
    play(table, host, (2, "banco_solo", "195"), result="B", bank="195")  # keeps 380.25
    play(table, host, (2, "suivi", "380.25"), result="P", bank="380.25")  # passes to seat 2
    play(table, host, (4, "avec_la_table", "100"), (5, "ordinary", "100"), result="T",
         banker_seat=2, bank="200", co_banker_seat=3, move="suite")  # fmt: skip
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
