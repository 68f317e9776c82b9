"""Bar Wi-Fi drops: hands saved without a connection wait on the device and are sent, in order,
each recorded once, when it returns — even after the page was reloaded offline."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Hand
from ledger.models import Bet
from tests.browser.conftest import open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = (  # seat 1's Banker stake, then the cards tapped in deal order
    ("100", ("9", "J", "7", "J", "10")),  # Player wins 6–0: −100
    ("50", ("8", "9", "K", "K")),  # Banker wins 9–8 (natural): +47.50
    ("20", ("K", "K", "8", "8")),  # a tie: Banker pushed, 0
)


def log_hand(page, stake, taps):
    page.tap("input[name=stake_1_banker]")
    page.fill("input[name=stake_1_banker]", stake)
    for rank in taps:
        page.tap(f".keypad [data-rank='{rank}']")
    page.tap("button.save")


def test_three_hands_offline_survive_a_reload_and_are_recorded_once_in_order(
    phone, host, full_table, wifi
):
    base_url, shoe = full_table
    open_table(phone, base_url, shoe, host)
    phone.wait_for_function("navigator.serviceWorker.controller !== null")  # the page is kept
    phone.reload()  # the worker keeps this visit's copy of the page

    wifi.drop(phone)
    for number, (stake, taps) in enumerate(HANDS[:2], start=1):
        log_hand(phone, stake, taps)
        expect(phone.locator("[data-outbox-list] li")).to_have_count(number)
    expect(phone.locator("[data-hand-number]")).to_have_text("3")

    phone.reload()  # offline: the worker shows the page it kept; the outbox is on the device
    expect(phone.locator("[data-outbox-list] li")).to_have_count(2)
    expect(phone.locator("[data-hand-number]")).to_have_text("3")
    log_hand(phone, *HANDS[2])
    expect(phone.locator("[data-outbox-list] li")).to_have_text(
        ["Hand 1: waiting to send.", "Hand 2: waiting to send.", "Hand 3: waiting to send."]
    )
    assert Hand.objects.count() == 0

    wifi.restore(phone)
    expect(phone.locator("[data-outbox]")).to_be_hidden(timeout=15_000)
    hands = list(Hand.objects.order_by("number"))
    assert [(h.number, h.player_cards, h.banker_cards) for h in hands] == [
        (1, "9 7", "J J 10"),
        (2, "8 K", "9 K"),
        (3, "K 8", "K 8"),
    ]
    assert [h.logged_at for h in hands] == sorted(h.logged_at for h in hands)  # sent in order
    nets = list(Bet.objects.order_by("hand__number").values_list("hand__number", "net"))
    assert nets == [(1, Decimal("-100.00")), (2, Decimal("47.50")), (3, Decimal("0.00"))]
    expect(phone.locator("[data-hand-number]")).to_have_text("4")


def test_a_hand_whose_number_another_device_took_is_shown_to_be_renumbered(
    phone, host, full_table, record, wifi
):
    base_url, shoe = full_table
    open_table(phone, base_url, shoe, host)
    wifi.drop(phone)
    log_hand(phone, *HANDS[0])
    record(shoe, "8 K", "9 K")  # meanwhile another device logs hand 1
    wifi.restore(phone)
    expect(phone.locator(".errorlist.summary")).to_contain_text("Hand 1 was already recorded")
    expect(phone.locator("[data-outbox]")).to_be_hidden()
    assert phone.input_value("input[name=stake_1_banker]") == "100"  # kept, to save deliberately
    assert phone.input_value("input[name=number]") == "2"
    assert Hand.objects.count() == 1
