"""Settling up on a phone: the house pays a winner, a loser pays part, a settlement past the
balance is asked first, and a mistake is voided — all at 360 px."""

from __future__ import annotations

import pytest

from ledger.models import Settlement
from tests.browser.conftest import log_in
from tests.browser.look import problems
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def settled_night(full_table, record):
    """田中 (seat 1) won 100 on Player; 小林 (seat 4) lost 50 on Banker."""
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(4, "banker", 50)])
    return base_url, shoe.event


def open_event(page, base_url, event, host):
    log_in(page, base_url, host.username)
    page.goto(f"{base_url}/events/{event.pk}/")


def line(page, name):
    return page.locator("table.settlement-list tbody tr", has_text=name)


def fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def test_the_house_pays_a_winner_in_two_taps(phone, host, settled_night):
    base_url, event = settled_night
    open_event(phone, base_url, event, host)
    fits(phone)
    settle = line(phone, "田中").get_by_role("link", name="Settle")
    box = settle.bounding_box()  # in sight in its row, no sideways scrolling first
    assert box and box["x"] + box["width"] <= 360, box
    settle.tap()
    panel = phone.locator("#settle")
    assert "House pays 田中 $100 / ¥10,000" in panel.inner_text()
    assert phone.get_by_label("House paid the guest").is_checked()
    fits(phone)
    panel.get_by_role("button", name="Cash", exact=True).tap()
    phone.wait_for_url("**/#settlement")
    assert "Recorded: the house paid 田中 $100 (¥10,000) · Cash." in phone.inner_text("body")
    assert "square" in line(phone, "田中").inner_text()
    assert Settlement.objects.get().amount == -100


def test_a_loser_pays_part_and_the_rest_carries(phone, host, settled_night):
    base_url, event = settled_night
    open_event(phone, base_url, event, host)
    line(phone, "小林").get_by_role("link", name="Settle").tap()
    panel = phone.locator("#settle")
    assert "小林 pays the house $50 / ¥5,000" in panel.inner_text()
    assert phone.get_by_label("Guest paid the house").is_checked()
    phone.get_by_label("Amount ($)").fill("20")
    panel.get_by_role("button", name="Offset against the tab at the venue").tap()
    phone.wait_for_url("**/#settlement")
    body = phone.inner_text("body")
    assert (
        "Recorded: 小林 paid the house $20 (¥2,000) · Offset against the tab at the venue." in body
    )
    assert "−$30" in line(phone, "小林").inner_text()


def test_more_than_the_balance_is_asked_first(phone, host, settled_night):
    base_url, event = settled_night
    open_event(phone, base_url, event, host)
    line(phone, "小林").get_by_role("link", name="Settle").tap()
    phone.get_by_label("Amount ($)").fill("80")
    phone.locator("#settle").get_by_role("button", name="Cash", exact=True).tap()
    ask = phone.locator(".settle-ask")
    assert "is more than that and leaves $30" in ask.inner_text()
    assert not Settlement.objects.exists()
    fits(phone)
    assert problems(phone) == []  # the panel and its question pass axe
    phone.get_by_label("Record it anyway").check()
    phone.locator("#settle").get_by_role("button", name="Cash", exact=True).tap()
    phone.wait_for_url("**/#settlement")
    assert "Recorded: 小林 paid the house $80" in phone.inner_text("body")
    assert Settlement.objects.get().amount == 80


def test_a_mistake_is_voided_with_a_reason(phone, host, settled_night):
    base_url, event = settled_night
    open_event(phone, base_url, event, host)
    line(phone, "田中").get_by_role("link", name="Settle").tap()
    phone.locator("#settle").get_by_role("button", name="Cash", exact=True).tap()
    phone.wait_for_url("**/#settlement")
    rows = phone.locator(".settlement-rows li")
    rows.first.locator("summary").tap()
    phone.get_by_label("Why void it?").fill("paid the wrong guest")
    phone.get_by_role("button", name="Void this settlement").tap()
    phone.wait_for_url("**/#settlements-recorded")
    assert rows.count() == 2
    assert "voided" in rows.nth(0).inner_text()
    assert "Reason: paid the wrong guest" in rows.nth(1).inner_text()
    assert "the house owes" in line(phone, "田中").inner_text()
    assert phone.locator(".settlement-rows summary").count() == 0  # neither can be voided again
    fits(phone)
    assert problems(phone) == []
