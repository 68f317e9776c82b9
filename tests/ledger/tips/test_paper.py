"""The tips and the tab on paper: the receipt (page and PDF) lists each tip and says a balance
was settled against the tab; the workbook says it too and carries both through an export and an
import again."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from openpyxl import load_workbook
from pypdf import PdfReader

from games.models import Event
from ledger.guests.receipts import guest_receipt
from ledger.integrity import ledger_problems
from ledger.models import Settlement, Tip
from ledger.money import services as money_services
from ledger.tips import services
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.imports.night_workbook import (
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.pdf import receipt_pdf
from shoebook.base.roles import HOSTS
from tests.conftest import bet, make_user

D = Decimal
pytestmark = pytest.mark.django_db


def fresh_database() -> None:
    """Every table emptied, inside the test's transaction (PostgreSQL: its foreign-key checks
    run first, as it truncates no table with checks pending)."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


@pytest.fixture
def night(event, guests, seated, shoe, host, record):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.tip_record(
        event=event, guest=guests[0], amount=D(10), source="hand_win", hand=hand, by=host
    )
    wrong = services.tip_record(event=event, guest=guests[0], amount=D(4), source="chips", by=host)
    services.tip_void(tip=wrong, reason="typed twice", by=host)
    money_services.settlement_record(
        guest=guests[0], event=event, amount=D(-90), method="tab", tab_reference="Tab 7", by=host
    )
    return event


def test_the_receipt_lists_the_tips_and_the_tab_and_adds_up(night, guests):
    receipt = guest_receipt(guests[0], night)
    words = [(line.kind, line.words, line.amount) for line in receipt.lines]
    assert ("result", "Result of the hands", D(100)) in words
    assert ("tip", "Tip to the dealers (From a hand's win)", D(-10)) in words
    assert [line.amount for line in receipt.lines if line.kind == "tip"] == [D(-10), D(-4), D(4)]
    assert (
        "settlement",
        "Received from the house (Settled against the tab Tab 7)",
        D(-90),
    ) in words
    assert receipt.carried_in + receipt.moved == receipt.balance == 0
    text = "".join(
        page.extract_text() for page in PdfReader(io.BytesIO(receipt_pdf(receipt))).pages
    )
    assert "Settled against the tab Tab 7" in text and "Tip to the dealers" in text


def test_the_workbook_says_settled_against_the_tab_and_keeps_the_tips_through_an_import(night):
    content = workbook_bytes([night])
    book = load_workbook(io.BytesIO(content), data_only=True)
    settlements = [list(row) for row in book["Settlements"].iter_rows(values_only=True)]
    assert any("Settled against the tab Tab 7" in row for row in settlements)
    records = [list(row) for row in book["Chips and settlements"].iter_rows(values_only=True)]
    assert sum(1 for row in records if row[1] == "tip") == 3
    # The Guests sheet: the tips (10 kept, 4 voided) in a column of their own, the row adding up.
    header, *rows = [list(row) for row in book["Guests"].iter_rows(values_only=True)]
    column = {name: header.index(name) for name in header}
    (tipper,) = [row for row in rows if row[column["Tips"]]]
    assert tipper[column["Tips"]] == -10
    parts = ("Balance before", "Net", "Expenses", "Tips", "Settlements")
    assert sum(D(str(tipper[column[name]] or 0)) for name in parts) == D(
        str(tipper[column["Balance after"]])
    )
    fresh_database()
    nights = read_night_workbook("night.xlsx", content)
    assert nights is not None
    (again,) = night_workbook_import(
        nights=check_night_workbook(nights), by=make_user("importer", HOSTS)
    ).events
    assert sorted(Tip.objects.filter(event=again).values_list("amount", flat=True)) == [
        D(-4),
        D(4),
        D(10),
    ]
    assert Settlement.objects.get(event=again).tab_reference == "Tab 7"
    assert Event.objects.count() == 1
    assert ledger_problems() == []
