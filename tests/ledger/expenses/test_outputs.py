"""Expenses in what a guest reads: their own page, the receipt's page and PDF (lines that add up
to the balance carried), and the workbook."""

from __future__ import annotations

from decimal import Decimal
from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from ledger.expenses import services
from ledger.guests import services as guest_services
from ledger.guests.receipts import guest_receipt
from ledger.money import services as money_services
from ledger.money.results import guest_balance_now
from ledger.workbook.pdf import receipt_pdf

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def night(event, guests, host):
    aki, ben, chie = guests[:3]
    pizza = services.expense_record(
        event=event, what="Pizza", amount=D(90), paid_by=aki,
        sharers=[(aki, 1), (ben, 1), (chie, 1)], by=host,
    )  # fmt: skip
    drinks = services.expense_record(
        event=event, what="Drinks", amount=D(40), paid_by=None, sharers=[(ben, 1), (None, 1)],
        by=host,
    )  # fmt: skip
    wrong = services.expense_record(
        event=event, what="Cigars", amount=D(15), paid_by=None, sharers=[(ben, 1)], by=host
    )
    services.expense_void(expense=wrong, reason="not tonight", by=host)
    money_services.settlement_record(guest=ben, event=event, amount=D(20), method="cash", by=host)
    return pizza, drinks


def test_the_receipt_lists_each_expense_and_its_lines_add_up_to_the_balance(event, guests, night):
    aki, ben = guests[:2]
    receipt = guest_receipt(ben, event)
    expense_lines = [line for line in receipt.lines if line.kind == "expense"]
    assert [line.amount for line in expense_lines] == [D(-30), D(-20), D(-15), D(15)]
    assert "Pizza: your share (paid by Aki)" in expense_lines[0].words
    assert [line.mark for line in expense_lines[2:]] == ["voided", "void"]
    assert receipt.carried_in + receipt.moved == receipt.balance == D(-30)
    assert receipt.balance == guest_balance_now(guest_id=ben.pk)
    payer = guest_receipt(aki, event)
    assert [line.words for line in payer.lines if line.kind == "expense"] == [
        "Pizza: paid $90, your share $30"
    ]
    assert payer.balance == D(60)
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(receipt_pdf(receipt))).pages)
    assert "Pizza: your share (paid by Aki)" in text and "Drinks" in text


def test_a_guest_s_own_page_shows_what_they_paid_or_share(client, event, guests, night):
    aki, ben, daisuke = guests[0], guests[1], guests[3]
    for guest in (aki, ben, daisuke):
        guest_services.guest_link_issue(guest=guest)
        guest.refresh_from_db()
    page = client.get(reverse("ledger:guest_page", args=[ben.pk, ben.access_token]))
    text = page.content.decode()
    assert 'id="expenses"' in text and "Pizza" in text and "Cigars" in text
    assert "paid by Aki" in text and "paid by the house" in text
    assert (
        "Pizza"
        in client.get(
            reverse("ledger:guest_page", args=[aki.pk, aki.access_token])
        ).content.decode()
    )
    other = client.get(reverse("ledger:guest_page", args=[daisuke.pk, daisuke.access_token]))
    assert 'id="expenses"' not in other.content.decode()


def sheet(content: bytes, title: str) -> list[tuple]:
    from openpyxl import load_workbook

    return list(load_workbook(BytesIO(content), read_only=True)[title].iter_rows(values_only=True))


def test_the_workbook_has_a_row_per_share_and_the_guests_sheet_adds_up(event, guests, night):
    from ledger.workbook.exports import workbook_bytes

    ben = guests[1]
    rows = sheet(workbook_bytes([event]), "Expenses")[1:]
    pizza = [row for row in rows if row[2] == "Pizza"]
    assert [(row[4], row[6], row[8]) for row in pizza] == [
        ("Aki", "Aki", 30),
        ("Aki", "Ben", 30),
        ("Aki", "Chie", 30),
    ]
    assert sum(row[8] for row in rows) == 90 + 40  # the cigars and their void cancel out
    guests_rows = {row[1]: row for row in sheet(workbook_bytes([event]), "Guests")[1:]}
    for name, expenses in (("Aki", 60), ("Ben", -50)):
        row = guests_rows[name]
        assert row[13] == expenses
        assert row[8] + row[6] + row[13] + row[9] == row[10]  # before + net + expenses + settled
    # A guest's own workbook: only the shares of what they did not pay.
    mine = sheet(workbook_bytes([event], guest=ben), "Expenses")[1:]
    assert {row[6] for row in mine} == {"Ben"}
