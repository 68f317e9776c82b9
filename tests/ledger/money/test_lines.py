"""The one balance: every balance a page shows is the sum of the guest's ledger lines, and the
lines are the rows themselves, signed as the balance reads them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db.models import Sum

from games.models import Event
from ledger.models import Guest, GuestEventResult, Settlement, Transfer
from ledger.money import services as money_services
from ledger.money.lines import LineKind, balances, ledger_lines
from ledger.money.results import (
    event_settlement,
    guest_balance_now,
    guest_balance_through,
    guest_balances,
    guest_history,
    guest_nights,
)
from ledger.money.transfers import night_balances, transfer_record, transfer_void
from tests.ledger.banked_nights import SEVEN, play_debts, seven_guest_night

pytestmark = pytest.mark.django_db
D = Decimal


def from_the_rows(guest_id: int) -> Decimal:
    """A balance by its definition, read from each table on its own."""

    def total(rows, column: str) -> Decimal:
        return rows.aggregate(n=Sum(column))["n"] or D(0)

    return (
        total(GuestEventResult.objects.filter(guest_id=guest_id), "net")
        + total(Settlement.objects.filter(guest_id=guest_id), "amount")
        + total(Transfer.objects.filter(payer_id=guest_id), "amount")
        - total(Transfer.objects.filter(payee_id=guest_id), "amount")
    )


def every_reader_agrees(guest_ids) -> None:
    shown = guest_balances()
    latest = Event.objects.order_by("date", "pk").last()
    settlement_list = {line.guest_id: line.after for line in event_settlement(latest)}
    for guest_id in guest_ids:
        expected = from_the_rows(guest_id)
        assert shown.get(guest_id, D(0)) == expected
        assert guest_balance_now(guest_id=guest_id) == expected
        assert guest_balance_through(guest_id=guest_id, event=latest) == expected
        assert settlement_list[guest_id] == expected
        guest = Guest.objects.get(pk=guest_id)
        assert guest_history(guest).balance == expected
        nights = guest_nights(guest)
        assert (nights[-1].balance if nights else D(0)) == expected


def test_a_house_banked_night_s_balances_are_its_lines_with_settlements_and_a_void(
    demo_night, host
):
    guests = list(demo_night.guests.order_by("pk")[:3])
    paid = money_services.settlement_record(
        guest=guests[0], event=demo_night, amount=D(100), method="cash", by=host
    )
    money_services.settlement_record(
        guest=guests[1], event=demo_night, amount=D("-50.50"), method="cash", by=host
    )
    money_services.settlement_void(settlement=paid, reason="typed twice", by=host)
    every_reader_agrees([guest.pk for guest in demo_night.guests.all()])
    lines = ledger_lines(guests=[guests[0].pk])
    assert sorted((line.kind, line.amount) for line in lines) == sorted(
        [
            (LineKind.RESULT, GuestEventResult.objects.get(guest=guests[0]).net),
            (LineKind.SETTLEMENT, D(0)),  # the payment and its void, summed at the event
        ]
    )


def test_a_transfer_is_a_line_for_its_payer_and_the_opposite_line_for_its_payee(make_event, host):
    event, shoe, guests = seven_guest_night(make_event, host)
    seat_of = {name: seat for seat, name in enumerate(SEVEN, start=1)}
    play_debts(shoe, host, seat_of, [("A", "B", "30.00"), ("C", "D", "15.00")])
    a, b, c, d = (guests[name] for name in "ABCD")
    wrong = transfer_record(event=event, payer=c, payee=d, amount=D(15), by=host)
    transfer_void(transfer=wrong, reason="not yet", by=host)
    transfer_record(event=event, payer=a, payee=b, amount=D(20), by=host)
    tonight = Event.objects.filter(pk=event.pk)
    moved = balances(ledger_lines(events=tonight, kinds={LineKind.TRANSFER}))
    assert (moved[a.pk], moved[b.pk], moved[c.pk], moved[d.pk]) == (D(20), D(-20), D(0), D(0))
    night = night_balances(event)
    for guest in guests.values():
        assert night.of(guest.pk) == from_the_rows(guest.pk)
    assert night.of(None) == -sum(from_the_rows(guest.pk) for guest in guests.values())
    every_reader_agrees([guest.pk for guest in guests.values()])


def test_summed_per_rate_the_lines_come_to_the_same_balances(demo_night, host):
    per_event = balances(ledger_lines())
    per_rate = balances(ledger_lines(per_rate=True))
    assert per_event == per_rate and per_event
    assert {line.event_id for line in ledger_lines(per_rate=True)} == {None}
