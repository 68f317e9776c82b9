"""The one reversal: a settlement and a transfer between guests are taken back the same way — a
row the other way that points at the original, once, with a reason — and the balances come back
to what they were."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledger.models import AuditEntry
from ledger.money import services as money_services
from ledger.money.forms import VoidForm
from ledger.money.results import guest_balances
from ledger.money.reversal import line_character
from ledger.money.services import MSG_VOID_REASON
from ledger.money.transfers import MSG_TRANSFER_VOID_REASON, transfer_record, transfer_void
from tests.ledger.banked_nights import SEVEN, play_debts, seven_guest_night

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def banked_night(make_event, host):
    event, shoe, guests = seven_guest_night(make_event, host)
    seat_of = {name: seat for seat, name in enumerate(SEVEN, start=1)}
    play_debts(shoe, host, seat_of, [("A", "B", "30.00")])
    return event, guests


def settlement(banked_night, host):
    event, guests = banked_night
    row = money_services.settlement_record(
        guest=guests["C"], event=event, amount=D(40), method="cash", by=host
    )

    def void(reason, of=row):
        return money_services.settlement_void(settlement=of, reason=reason, by=host)

    return row, void


def transfer(banked_night, host):
    event, guests = banked_night
    row = transfer_record(event=event, payer=guests["A"], payee=guests["B"], amount=D(30), by=host)

    def void(reason, of=row):
        return transfer_void(transfer=of, reason=reason, by=host)

    return row, void


def owing() -> dict[int, Decimal]:
    return {guest: amount for guest, amount in guest_balances().items() if amount}


KINDS = [pytest.param(settlement, id="settlement"), pytest.param(transfer, id="transfer")]


@pytest.mark.parametrize("recorded", KINDS)
def test_a_void_is_a_row_the_other_way_and_the_balances_come_back(banked_night, host, recorded):
    before = owing()
    row, void = recorded(banked_night, host)
    assert owing() != before
    voided = void("typed twice")
    assert voided.voids_id == row.pk and voided.note == "typed twice"
    assert owing() == before
    assert type(row).objects.filter(pk=row.pk).exists()  # nothing edited or deleted
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.SETTLEMENT_VOIDED).get()
    assert entry.before["id"] == row.pk and entry.after["id"] == voided.pk


@pytest.mark.parametrize("recorded", KINDS)
def test_a_row_is_voided_once_a_void_never_and_never_without_a_reason(banked_night, host, recorded):
    row, void = recorded(banked_night, host)
    model = type(row)
    for reason in ("", "   ", "line\nbreak", "zero\u200bwidth", "para\u2029graph"):
        with pytest.raises(ValidationError) as refused:
            void(reason)
        assert "reason" in refused.value.message_dict
    assert not model.objects.filter(voids=row).exists()
    voided = void("wrong guest")
    with pytest.raises(ValidationError, match="already voided"):
        void("again")
    with pytest.raises(ValidationError, match="void"):
        void("undo the undo", of=voided)
    assert model.objects.filter(voids__isnull=False).count() == 1


def test_a_one_line_note_refuses_breaks_and_invisible_characters():
    assert line_character("Paid in cash") is None
    assert line_character("two\nlines") == "U+000A"
    assert line_character("a\u2028b") == "U+2028"
    assert line_character("zero\u200bwidth") == "U+200B"


def test_one_void_form_says_each_kind_s_own_words_for_a_missing_reason():
    assert VoidForm({"reason": ""}).errors["reason"] == [str(MSG_VOID_REASON)]
    for_transfer = VoidForm({"reason": ""}, required=MSG_TRANSFER_VOID_REASON)
    assert for_transfer.errors["reason"] == [str(MSG_TRANSFER_VOID_REASON)]
    assert VoidForm({"reason": "typed twice"}).is_valid()
