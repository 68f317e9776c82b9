"""A settlement or a count for a past night is dated to that night (or the day the host gives),
shown by that date on the pages and in the workbook, while ``recorded_at`` keeps when it was
typed, for the audit."""

from __future__ import annotations

import datetime as dt
import io
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.models import MSG_DATED_BEFORE, MSG_DATED_LATER, ChipMove, Settlement, dated_default
from ledger.money import services as money_services
from ledger.workbook.exports import workbook_bytes

D = Decimal
pytestmark = pytest.mark.django_db


def settle(client, event, guest, **extra):
    data = {
        "guest": guest.pk, "direction": "guest_paid", "amount": "50", "method": "cash",
        "idempotency_key": uuid.uuid4(), "confirm": "on",
    }  # fmt: skip
    return client.post(reverse("ledger:settlement_record", args=[event.pk]), data | extra)


def test_a_past_night_s_rows_are_dated_to_the_night_unless_the_host_says(
    client, host, make_event, guests
):
    today = timezone.localdate()
    past = make_event(date=today - dt.timedelta(days=9))
    tonight = make_event(name="Tonight", date=today)
    assert (dated_default(past), dated_default(tonight)) == (past.date, today)
    aki = guests[0]
    guest_services.event_guest_add(event=past, name="Aki", by=host)
    paid = money_services.settlement_record(
        guest=aki, event=past, amount=D(20), method="cash", by=host
    )
    assert paid.dated == past.date and timezone.localdate(paid.recorded_at) == today
    count = count_services.chips_record(
        event=past, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    assert count.dated == past.date
    client.force_login(host)
    later = past.date + dt.timedelta(days=2)
    assert settle(client, past, aki, dated=later.isoformat()).status_code == 302
    assert Settlement.objects.order_by("pk").last().dated == later
    for wrong, message in (
        (today + dt.timedelta(days=1), MSG_DATED_LATER),
        (past.date - dt.timedelta(days=1), MSG_DATED_BEFORE.format(night=f"{past.date:%Y-%m-%d}")),
    ):
        refused = settle(client, past, aki, dated=wrong.isoformat())
        assert refused.status_code == 400
        assert str(message) in refused.content.decode()
    counted = client.post(
        reverse("ledger:chips_add", args=[past.pk]),
        {"kind": "count", "guest": aki.pk, "total": "480", "dated": later.isoformat(),
         "idempotency_key": uuid.uuid4()},
    )  # fmt: skip
    assert counted.status_code == 302
    assert ChipMove.objects.get(kind="count").dated == later
    page = client.get(reverse("ledger:count_guest", args=[past.pk, aki.pk])).content.decode()
    assert f"{past.date:%Y-%m-%d}" in page and f"{later:%Y-%m-%d}" in page
    event_page = client.get(reverse("ledger:event_detail", args=[past.pk])).content.decode()
    assert f"{later:%Y-%m-%d}" in event_page
    guest_page = client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode()
    assert f"{later:%Y-%m-%d}" in guest_page
    workbook = load_workbook(io.BytesIO(workbook_bytes([past])))
    sheet = workbook["Settlements"]
    header = [cell.value for cell in sheet[1]]
    dates = [row[header.index("Date")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert [value.date() for value in dates] == [past.date, later]
    count_sheet = workbook["Count"]
    header = [cell.value for cell in count_sheet[1]]
    aki_row = next(row for row in count_sheet.iter_rows(min_row=2, values_only=True)
                   if row[1] == "Aki")  # fmt: skip
    assert aki_row[header.index("Counted on")].date() == later
