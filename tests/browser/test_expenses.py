"""A night's expenses on a phone at 360 px: the panel loads in place on the night's page, pizza
paid by the house for everyone is recorded through htmx and counted in every guest's line, a
refusal answers in place, and a mistake is voided."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.models import Expense
from tests.browser.conftest import log_in
from tests.browser.look import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def open_expenses(page, base_url, event, host):
    log_in(page, base_url, host.username)
    page.goto(f"{base_url}/events/{event.pk}/")
    page.locator("#expenses form.expense-form").wait_for()  # loaded in place by htmx
    return page.locator("#expenses")


def test_pizza_for_everyone_paid_by_the_house_then_voided(phone, host, night):
    base_url, shoe = night
    panel = open_expenses(phone, base_url, shoe.event, host)
    fits(phone)
    assert problems(phone) == []
    panel.get_by_label("What").fill("Pizza 🍕")
    panel.get_by_label("How much (chips)").fill("60")
    panel.get_by_label("Everyone at the night").check()
    panel.get_by_role("button", name="Record the expense").tap()
    phone.get_by_text("Recorded: an expense of $60 (Pizza 🍕).").wait_for()
    expense = Expense.objects.get()
    assert expense.paid_by is None and expense.shares.count() == 8
    assert {share.amount for share in expense.shares.all()} == {Decimal("7.50")}
    listed = phone.locator("table.settlement-list tbody tr", has_text="田中").inner_text()
    assert "−$7.50" in listed
    panel = phone.locator("#expenses")
    panel.locator("form.expense-form").wait_for()
    fits(phone)
    panel.get_by_text("Void…").tap()
    panel.get_by_label("Why void it?").fill("typed on the wrong night")
    panel.get_by_role("button", name="Void it").tap()
    phone.get_by_text(
        "Voided: an expense of $60 (Pizza 🍕). Reason: typed on the wrong night"
    ).wait_for()
    assert Expense.objects.filter(voids=expense).count() == 1


def test_a_refused_expense_answers_in_place_and_by_shares_it_splits_2_1(phone, host, night):
    base_url, shoe = night
    panel = open_expenses(phone, base_url, shoe.event, host)
    guests = {guest.name: guest for guest in shoe.event.guests.all()}
    panel.get_by_label("What").fill("Drinks")
    panel.get_by_label("How much (chips)").fill("0")
    panel.get_by_label("Aki").fill("1")
    panel.get_by_role("button", name="Record the expense").tap()
    phone.locator("#expenses .errorlist").get_by_text("above zero", exact=False).wait_for()
    assert not Expense.objects.exists()
    fits(phone)
    panel = phone.locator("#expenses")
    panel.get_by_label("How much (chips)").fill("10.01")
    panel.get_by_label("By shares").check()
    panel.get_by_label("Who paid").select_option(label="Ben")
    panel.get_by_label("Aki").fill("2")
    panel.get_by_label("Ben").fill("1")
    panel.get_by_role("button", name="Record the expense").tap()
    phone.get_by_text("Recorded: an expense of $10.01 (Drinks).").wait_for()
    shares = {s.guest_id: s.amount for s in Expense.objects.get().shares.all()}
    assert shares == {guests["Aki"].pk: Decimal("6.67"), guests["Ben"].pk: Decimal("3.34")}
