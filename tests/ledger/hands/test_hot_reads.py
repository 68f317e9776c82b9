"""The save's reads written in SQL (ledger/hands/hot_reads.py) say what the ORM's queries say."""

from __future__ import annotations

import uuid
from decimal import Decimal as D

import pytest

from games import services as game_services
from games.models import Hand
from ledger.hands import hot_reads
from ledger.hands import services as hand_services
from ledger.models import Bet, Seating
from ledger.money.amounts import money_sum
from tests.conftest import bet, entry

pytestmark = pytest.mark.django_db


def test_the_shoe_for_a_save_is_read_as_it_stands(seated, shoe, host):
    key = uuid.uuid4()
    found, last, repeat = hot_reads.shoe_for_save(shoe.pk, key)
    assert (found, found.event, last, repeat) == (shoe, shoe.event, 0, None)
    assert found.event.table_rules == shoe.event.table_rules
    hand_services.record_hand(
        shoe=shoe, number=1, entry=entry("9 7", "J J 10"), by=host, idempotency_key=key
    )
    hand_services.record_hand(shoe=shoe, number=2, entry=entry("9 7", "J J 10"), by=host)
    found, last, repeat = hot_reads.shoe_for_save(shoe.pk, key)
    assert last == 2 and repeat == Hand.objects.get(number=1).pk
    assert hot_reads.shoe_for_save(shoe.pk, None)[2] is None  # keyless hands are no repeat
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    found, _last, _repeat = hot_reads.shoe_for_save(shoe.pk, uuid.uuid4())
    assert found.closed_at is not None and not found.is_open
    assert found.opened_at == shoe.opened_at  # times converted as the ORM converts them


def test_who_sits_where_as_seatings_say_at_every_hand(seated, shoe, host, guests):
    hand_services.record_hand(shoe=shoe, number=1, entry=entry("9 7", "J J 10"), by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=guests[7], by=host)  # Hana takes seat 2
    hand_services.seat_clear(shoe=shoe, seat=5, by=host)
    for number in (1, 2, 3):
        expected = {
            s.seat: s.guest for s in Seating.objects.at(shoe, number).select_related("guest")
        }
        found = hot_reads.seated_at(shoe.pk, number)
        assert found == expected
        assert {seat: g.name for seat, g in found.items()} == {
            seat: g.name for seat, g in expected.items()
        }
    assert (
        5 not in hot_reads.seated_at(shoe.pk, 2) and hot_reads.seated_at(shoe.pk, 2)[2] == guests[7]
    )


def test_each_guests_net_over_the_shoe_as_the_orm_sums_it(seated, shoe, host):
    first = entry("9 7", "J J 10", [bet(1, "banker", 10), bet(2, "player", 25)])  # Player 6–0
    second = entry("8 K", "9 K", [bet(1, "banker", 20), bet(3, "tie", 10)])  # Banker 9–8
    hand_services.record_hand(shoe=shoe, number=1, by=host, entry=first)
    hand_services.record_hand(shoe=shoe, number=2, by=host, entry=second)
    sums = Bet.objects.filter(hand__shoe=shoe).values_list("guest_id").annotate(n=money_sum("net"))
    assert hot_reads.shoe_nets(shoe.pk) == dict(sums.values_list("guest_id", "n"))
    aki, ben, chie = seated[1].pk, seated[2].pk, seated[3].pk
    assert hot_reads.shoe_nets(shoe.pk) == {aki: D("9.00"), ben: D("25.00"), chie: D("-10.00")}
