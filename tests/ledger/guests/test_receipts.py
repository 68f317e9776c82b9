"""Receipts are statements (ledger.guests.receipts): for every guest at every night of the demo
data — the reference night, the tournament, the Chemin de fer night — with settlements, a void
and transfers recorded on top, the lines add up from the balance carried in to the balance
carried, and that is the balance the ledger holds."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from games.models import Event
from ledger.guests.receipts import MSG_SETTLEMENT_VOID, guest_receipt
from ledger.models import Charge, EventGuest, Guest, Settlement, Transfer
from ledger.money import services as money_services
from ledger.money import transfers
from ledger.money.results import guest_balance_through
from tests.conftest import demo_snapshot, insert_as_made

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


night_rows = demo_snapshot("load_demo", "load_demo_tournament", "load_demo_chemin")


@pytest.fixture
def every_kind_of_night(db, night_rows):
    insert_as_made(night_rows)
    host = User.objects.get(username="host")
    night = Event.objects.get(name="Reference night")
    guest = night.guests.order_by("pk").first()
    paid = money_services.settlement_record(
        guest=guest, event=night, amount=Decimal(100), method="cash", by=host
    )
    money_services.settlement_void(settlement=paid, reason="typed twice", by=host)
    money_services.settlement_record(
        guest=guest, event=night, amount=Decimal("-20.50"), method="tab", by=host
    )
    chemin = Event.objects.filter(game="chemin_de_fer").first()
    owed = next(  # a line between two guests
        line
        for line in transfers.proposed_transfers(chemin)
        if line.payer.guest_id and line.payee.guest_id
    )
    payer, payee = (Guest.objects.get(pk=party.guest_id) for party in (owed.payer, owed.payee))
    transfers.transfer_record(event=chemin, payer=payer, payee=payee, amount=owed.amount, by=host)
    return host


def test_every_receipt_adds_up_to_the_balance_the_ledger_holds(every_kind_of_night):
    kinds = set()
    receipts = 0
    for listed in EventGuest.objects.select_related("event", "guest").exclude(
        event__kind=Event.Kind.TOURNAMENT_TABLE
    ):
        receipt = guest_receipt(listed.guest, listed.event)
        assert receipt.carried_in + receipt.moved == receipt.balance, (listed.guest, listed.event)
        assert receipt.balance == guest_balance_through(
            guest_id=listed.guest.pk, event=listed.event
        )
        kinds |= {line.kind for line in receipt.lines}
        receipts += 1
    assert receipts > 30
    assert kinds == {"result", "charge", "settlement", "transfer"}  # every kind was on one


def test_a_tournament_night_lists_its_fees_and_prizes(every_kind_of_night):
    prize = Charge.objects.filter(kind=Charge.Kind.PRIZE).select_related("guest", "event").first()
    receipt = guest_receipt(prize.guest, prize.event)
    charged = Charge.objects.filter(guest=prize.guest, event=prize.event)
    assert [line.amount for line in receipt.lines if line.kind == "charge"] == [
        charge.amount for charge in charged.order_by("recorded_at", "id")
    ]
    assert receipt.moved == sum(charge.amount for charge in charged)


def test_a_void_reads_as_a_void_of_the_payment_it_reverses(every_kind_of_night):
    void = Settlement.objects.get(voids__isnull=False)
    receipt = guest_receipt(void.guest, void.event)
    settlements = [line for line in receipt.lines if line.kind == "settlement"]
    assert [line.mark for line in settlements] == ["voided", "void", ""]
    assert settlements[1].words == MSG_SETTLEMENT_VOID.format(
        number=void.voids_id, method=void.get_method_display()
    )
    assert [line.amount for line in settlements] == [Decimal(100), Decimal(-100), Decimal("-20.50")]


def test_a_transfer_is_a_line_on_both_receipts(every_kind_of_night):
    transfer = Transfer.objects.select_related("payer", "payee", "event").get()
    paid = guest_receipt(transfer.payer, transfer.event)
    received = guest_receipt(transfer.payee, transfer.event)
    assert [line.amount for line in paid.lines if line.kind == "transfer"] == [transfer.amount]
    assert [line.amount for line in received.lines if line.kind == "transfer"] == [-transfer.amount]
    line = next(line for line in paid.lines if line.kind == "transfer")
    assert transfer.payee.name in line.words
