"""Settling up: settlements asked first past the balance, voids as reversing rows,
credit limits, and the workbook's settlement times."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal as D
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError

from ledger.guests import services as guest_services
from ledger.guests.services import MSG_CREDIT_LIMIT
from ledger.integrity import check_ledger
from ledger.models import AuditEntry, Guest, Settlement
from ledger.money import services as money_services
from ledger.money.amounts import format_chips
from ledger.money.results import (
    event_settlement,
    event_settlement_rows,
    event_shoe_rows,
    guest_balance_through,
    guest_history,
    seated_over_limit,
)
from ledger.money.services import (
    MSG_ALREADY_VOIDED,
    MSG_ASK_GROWS_DEBT,
    MSG_ASK_PAST_BALANCE,
    MSG_NOTE_CHARACTER,
    MSG_SETTLEMENT_AMOUNT,
    MSG_SETTLEMENT_NOTE,
    MSG_VOID_OF_VOID,
    MSG_VOID_REASON,
    MSG_VOID_REASON_CHARACTER,
    SettlementQuestion,
)
from ledger.workbook.exports import workbook_bytes
from tests.ledger.workbook.sheets import sheet_rows

pytestmark = pytest.mark.django_db


def balances(event):
    return {line.name: line.after for line in event_settlement(event)}


def changes():
    """What a refused write must leave as it was."""
    return (Settlement.objects.count(), AuditEntry.objects.count())


def message(error: ValidationError) -> str:
    return " ".join(error.messages)


# --- recording -------------------------------------------------------------------------------


def test_settling_toward_square_asks_nothing(played, seated, host):
    aki, ben = seated[1], seated[2]
    money_services.settlement_record(
        guest=aki, event=played, amount=D("-100"), method="cash", by=host, ask_first=True
    )
    money_services.settlement_record(
        guest=ben, event=played, amount=D("20"), method="tab", by=host, ask_first=True
    )
    assert balances(played)["Aki"] == D("0.00")
    assert balances(played)["Ben"] == D("-30.00")  # a partial payment: the rest stays


@pytest.mark.parametrize(
    ("seat", "amount", "question", "balance", "after"),
    [
        (1, "-150", MSG_ASK_PAST_BALANCE, "$100", "−$50"),  # the house pays Aki more than owed
        (2, "80", MSG_ASK_PAST_BALANCE, "−$50", "$30"),  # Ben pays more than he owes
        (1, "40", MSG_ASK_GROWS_DEBT, "$100", "$140"),  # Aki pays the house, which owes him
        (2, "-10", MSG_ASK_GROWS_DEBT, "−$50", "−$60"),  # the house pays Ben, who owes it
        (3, "5", MSG_ASK_GROWS_DEBT, "$0", "$5"),  # Chie is square
    ],
)
def test_past_the_balance_or_the_other_way_is_asked_first(
    played, seated, host, seat, amount, question, balance, after
):
    guest, before = seated[seat], changes()
    with pytest.raises(SettlementQuestion) as asked:
        money_services.settlement_record(
            guest=guest, event=played, amount=D(amount), method="cash", by=host, ask_first=True
        )
    wanted = str(question).format(
        guest=guest.name, balance=balance, amount="$" + amount.lstrip("-"), after=after
    )
    assert message(asked.value) == wanted
    assert changes() == before
    # Confirmed, it is recorded.
    money_services.settlement_record(
        guest=guest, event=played, amount=D(amount), method="cash", by=host
    )
    assert changes() == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize(
    ("amount", "note", "field", "wanted"),
    [
        (D("1e30"), "", "amount", MSG_SETTLEMENT_AMOUNT),
        (D("NaN"), "", "amount", MSG_SETTLEMENT_AMOUNT),
        (D("Infinity"), "", "amount", MSG_SETTLEMENT_AMOUNT),
        (D("0.001"), "", "amount", MSG_SETTLEMENT_AMOUNT),
        (D("5"), "bell \u0007", "note", MSG_NOTE_CHARACTER),
        (D("5"), "two\nlines", "note", MSG_NOTE_CHARACTER),
        (D("5"), "zero\u200bwidth", "note", MSG_NOTE_CHARACTER),
    ],
)
def test_bad_settlements_are_refused_and_change_nothing(
    played, seated, host, amount, note, field, wanted
):
    before = changes()
    with pytest.raises(ValidationError) as refused:
        money_services.settlement_record(
            guest=seated[2], event=played, amount=amount, method="cash", note=note, by=host
        )
    assert list(refused.value.message_dict) == [field]
    assert message(refused.value).startswith(str(wanted).split("{")[0])
    assert changes() == before


def test_other_needs_a_note(played, seated, host):
    with pytest.raises(ValidationError, match=str(MSG_SETTLEMENT_NOTE)):
        money_services.settlement_record(
            guest=seated[2], event=played, amount=D(5), method="other", by=host
        )


# --- voiding ---------------------------------------------------------------------------------


def test_a_void_is_a_reversing_row_and_balances_stay_sums(played, seated, host):
    aki = seated[1]
    paid = money_services.settlement_record(
        guest=aki, event=played, amount=D("-100"), method="cash", by=host
    )
    assert balances(played)["Aki"] == D("0.00")
    void = money_services.settlement_void(settlement=paid, reason="paid the wrong guest", by=host)
    assert (void.amount, void.voids, void.event, void.method, void.note) == (
        D("100.00"),
        paid,
        played,
        "cash",
        "paid the wrong guest",
    )
    assert balances(played)["Aki"] == D("100.00")
    assert guest_balance_through(guest_id=aki.pk, event=played) == D("100.00")
    assert Settlement.objects.filter(guest=aki).count() == 2  # both rows stay
    entry = AuditEntry.objects.get(action=AuditEntry.Action.SETTLEMENT_VOIDED)
    assert (entry.before["id"], entry.after["id"]) == (paid.pk, void.pk)
    assert (entry.before["amount"], entry.after["amount"]) == ("-100.00", "100.00")
    rows = event_settlement_rows(played)
    assert [(r.settlement, r.voided_by, r.void_of, r.can_void) for r in rows] == [
        (paid, void, None, False),
        (void, None, paid, False),
    ]
    assert guest_history(aki).voided == {paid.pk}
    assert check_ledger(played).ok


def test_a_settlement_is_voided_once_and_a_void_never(played, seated, host):
    paid = money_services.settlement_record(
        guest=seated[2], event=played, amount=D("50"), method="tab", by=host
    )
    void = money_services.settlement_void(settlement=paid, reason="typed twice", by=host)
    before = changes()
    with pytest.raises(ValidationError) as twice:
        money_services.settlement_void(settlement=paid, reason="again", by=host)
    assert message(twice.value).startswith(str(MSG_ALREADY_VOIDED).split("{")[0])
    assert "hostess" in message(twice.value)
    with pytest.raises(ValidationError, match=str(MSG_VOID_OF_VOID)):
        money_services.settlement_void(settlement=void, reason="undo the void", by=host)
    assert changes() == before


@pytest.mark.parametrize(
    ("reason", "wanted"),
    [("", MSG_VOID_REASON), ("   ", MSG_VOID_REASON), ("oops\u0000", MSG_VOID_REASON_CHARACTER)],
)
def test_a_void_says_why(played, seated, host, reason, wanted):
    paid = money_services.settlement_record(
        guest=seated[2], event=played, amount=D("50"), method="tab", by=host
    )
    before = changes()
    with pytest.raises(ValidationError) as refused:
        money_services.settlement_void(settlement=paid, reason=reason, by=host)
    assert message(refused.value).startswith(str(wanted).split("{")[0])
    assert changes() == before


def test_the_night_still_balances_after_settlements_and_voids(played, seated, host):
    for seat, amount in ((1, "-60"), (2, "50"), (1, "-40")):
        money_services.settlement_record(
            guest=seated[seat], event=played, amount=D(amount), method="cash", by=host
        )
    money_services.settlement_void(settlement=Settlement.objects.first(), reason="wrong", by=host)
    _rows, totals = event_shoe_rows(played)
    assert totals.figures.net + totals.figures.house_net == 0
    # Each guest's line is the sum of their rows; settlements only move money between them.
    lines = event_settlement(played)
    assert sum(line.after for line in lines) == totals.figures.net + sum(
        s.amount for s in Settlement.objects.all()
    )
    assert check_ledger(played).ok


# --- credit limits ---------------------------------------------------------------------------


def test_a_credit_limit_is_set_cleared_and_checked(played, seated, host):
    ben = seated[2]
    guest_services.guest_credit_limit_set(guest=ben, credit_limit=D("30"), by=host)
    assert Guest.objects.get(pk=ben.pk).credit_limit == D("30.00")
    line = next(line for line in event_settlement(played) if line.name == "Ben")
    assert (line.over_limit, line.credit_limit_money) == (True, D("3000"))
    assert seated_over_limit(played, list(Guest.objects.all())) == [
        (Guest.objects.get(pk=ben.pk), D("-50.00"))
    ]
    guest_services.guest_credit_limit_set(guest=ben, credit_limit=D("50"), by=host)
    assert seated_over_limit(played, [Guest.objects.get(pk=ben.pk)]) == []  # at it, not past
    guest_services.guest_credit_limit_set(guest=ben, credit_limit=None, by=host)
    assert Guest.objects.get(pk=ben.pk).credit_limit is None
    assert not any(line.over_limit for line in event_settlement(played))


@pytest.mark.parametrize("limit", [D("-1"), D("NaN"), D("0.001"), D("1e30"), D("Infinity")])
def test_a_bad_credit_limit_is_refused(seated, host, limit):
    with pytest.raises(ValidationError) as refused:
        guest_services.guest_credit_limit_set(guest=seated[1], credit_limit=limit, by=host)
    assert message(refused.value).startswith(str(MSG_CREDIT_LIMIT).split("{")[0])
    assert Guest.objects.get(pk=seated[1].pk).credit_limit is None


# --- the workbook ----------------------------------------------------------------------------


def test_the_workbook_has_real_times_and_both_rows_of_a_void(played, seated, host):
    paid = money_services.settlement_record(
        guest=seated[1], event=played, amount=D("-100"), method="cash", by=host
    )
    at = datetime(2026, 11, 20, 13, 34, tzinfo=ZoneInfo("UTC"))  # 22:34 in Tokyo
    Settlement.objects.filter(pk=paid.pk).update(recorded_at=at)
    void = money_services.settlement_void(settlement=paid, reason="wrong guest", by=host)
    rows = sheet_rows(workbook_bytes([played]), "Settlements")
    assert rows[0][-3:] == ("Number", "Voids number", "Date")
    first, second = rows[1:]
    assert first[0] == datetime(2026, 11, 20, 22, 34)
    night = datetime(2026, 11, 20)  # a past night's: dated to the night, the void as its row
    assert first[2:] == ("Aki", -100, "Cash", None, paid.pk, None, night)
    assert second[2:] == ("Aki", 100, "Cash", "wrong guest", void.pk, paid.pk, night)
    assert isinstance(second[0], datetime)
    # A guest's own statement has their rows only.
    ben_rows = sheet_rows(workbook_bytes([played], guest=seated[2]), "Settlements")
    assert ben_rows[1:] == []


def test_a_settlement_key_is_bound_to_its_guest_and_night(played, seated, host, make_event):
    key = uuid.uuid4()
    first = money_services.settlement_record(
        guest=seated[1], event=played, amount=D(-7), method="cash", by=host, idempotency_key=key
    )
    again = money_services.settlement_record(
        guest=seated[1],
        event=played,
        amount=D("-7.00"),
        method="cash",
        by=host,
        idempotency_key=key,
    )
    assert again.pk == first.pk  # a resend of the same form: the same row
    later = make_event(name="Next week", date=played.date.replace(day=27))
    guest_services.event_guest_add(event=later, name="Aki", by=host)
    for other in ({"event": later}, {"guest": seated[2]}, {"method": "transfer"}):
        sent = {"guest": seated[1], "event": played, "amount": D(-7), "method": "cash"} | other
        with pytest.raises(ValidationError) as refused:
            money_services.settlement_record(**sent, by=host, idempotency_key=key)
        assert refused.value.messages == [
            money_services.MSG_KEY_USED_FOR.format(
                what=f"a settlement of {format_chips(D(-7), '$', signed=True)} for Aki at "
                f"{played.name}"
            )
        ]
    assert Settlement.objects.count() == 1
