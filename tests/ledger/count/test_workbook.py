"""The count in the settlement workbook: a Count sheet per guest and the tray, a count-only night
and adjustments in the Summary, names that stay text."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from ledger.count import services
from ledger.models import Guest
from ledger.workbook.exports import workbook_bytes
from tests.conftest import bet

D = Decimal
pytestmark = pytest.mark.django_db


def rows_of(content: bytes, title: str) -> list[tuple]:
    sheet = load_workbook(io.BytesIO(content), data_only=True)[title]
    return [tuple(row) for row in sheet.iter_rows(values_only=True)]


def test_the_count_sheet_has_each_guest_and_the_tray(event, guests, seated, shoe, host, record):
    aki = guests[0]
    services.count_setup_save(event=event, by=host, opening_float=D(1000))
    services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="marker", by=host
    )
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.chips_record(event=event, guest=aki, kind="count", chips=D(620), by=host)
    services.chips_record(event=event, guest=None, kind="tray", chips=D(900), by=host)
    rows = rows_of(workbook_bytes([event]), "Count")
    assert rows[0][:3] == ("Event", "Guest", "Chips taken")
    by_who = {row[1]: row for row in rows[1:]}
    assert by_who["Aki"][2:9] == (500, "Credit (a marker)", 100, 0, 600, 620, 20)
    assert by_who["The house's tray"][4:9] == (-100, 0, 900, 900, 0)
    guest_only = rows_of(workbook_bytes([event], guest=aki), "Count")
    assert [row[1] for row in guest_only[1:]] == ["Aki"]


def test_the_tips_box_is_beside_the_tray_and_the_chips_add_up(event, guests, seated, shoe, host):
    from ledger.tips import services as tip_services

    aki = guests[0]
    services.count_setup_save(event=event, by=host, opening_float=D(1000))
    services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    tip_services.tip_record(event=event, guest=aki, amount=D(30), source="chips", by=host)
    services.chips_record(event=event, guest=aki, kind="count", chips=D(470), by=host)
    services.chips_record(event=event, guest=None, kind="tray", chips=D(1000), by=host)
    rows = rows_of(workbook_bytes([event]), "Count")[1:]
    assert [row[1] for row in rows[-2:]] == ["The house's tray", "Tips box"]
    assert rows[-1][6:9] == (30, 30, 0)
    assert sum(row[2] or 0 for row in rows) == sum(row[7] or 0 for row in rows) == 1500
    guest_only = rows_of(workbook_bytes([event], guest=aki), "Count")
    assert [row[1] for row in guest_only[1:]] == ["Aki"]


def test_a_night_without_a_count_has_no_count_sheet(event, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    assert "Count" not in load_workbook(io.BytesIO(workbook_bytes([event]))).sheetnames


def test_a_count_only_night_and_an_adjustment_in_the_summary(event, make_event, guests, host):
    services.count_setup_save(event=event, by=host, count_only=True, commission_total=D(12))
    services.chips_record(
        event=event, guest=guests[0], kind="buy_in", chips=D(500), source="cash", by=host
    )
    services.chips_record(event=event, guest=guests[0], kind="count", chips=D(420), by=host)
    summary = rows_of(workbook_bytes([event]), "Summary")
    assert "count only" in summary[1][3]
    totals = summary[-1]
    assert (totals[5], totals[9], totals[10], totals[11]) == ("Total", 12, -80, 80)
    assert totals[8] == -68  # the guests' gross: their net before the commission they paid


def test_a_name_in_the_count_sheet_is_text_not_a_formula(event, guests, host):
    Guest.objects.filter(pk=guests[0].pk).update(name='=HYPERLINK("http://x","y")')
    services.chips_record(
        event=event, guest=guests[0], kind="buy_in", chips=D(500), source="cash", by=host
    )
    content = workbook_bytes([event])
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        xml = "".join(
            archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/")
        )
    assert "HYPERLINK" in xml and "<f>HYPERLINK" not in xml
    assert rows_of(content, "Count")[1][1] == '=HYPERLINK("http://x","y")'
