from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from games import services as game_services
from games.models import Hand
from games.payouts import RuleSet
from ledger import services
from ledger.models import Bet
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night(host, live_server):
    event = game_services.event_create(
        name="Browser night", date=date(2026, 11, 22), rules=RuleSet(), by=host
    )
    for name in ("Aki", "Ben"):
        services.event_guest_add(event=event, name=name, by=host)
    shoe = game_services.shoe_start(event=event, by=host)
    return live_server.url, shoe


def log_in(page, base_url, username):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/events/")


def test_a_host_seats_two_guests_logs_a_hand_by_taps_and_sees_the_payouts(phone, host, night):
    base_url, shoe = night
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/shoes/{shoe.pk}/")
    phone.evaluate("window.pageWasNotReloaded = true")

    for seat, name in ((1, "Aki"), (2, "Ben")):
        phone.select_option(f"#seat-{seat}", label=name)
        phone.tap(f"#seat-{seat} ~ button")
        phone.get_by_text(f"{name} sits in seat {seat}.").wait_for()

    phone.tap("input[name=stake_1_banker]")
    phone.tap("button.chip[data-chip='100']")
    phone.tap("input[name=stake_2_player]")
    phone.tap("button.chip[data-chip='50']")
    for rank in ("9", "J", "7", "J", "10"):  # P1 B1 P2 B2, then the Banker's third card
        phone.tap(f".keypad [data-rank='{rank}']")
        phone.wait_for_load_state("networkidle")  # each tap is answered before the next
    phone.get_by_text("Player wins 6–0.").wait_for()

    phone.tap("button.save")
    phone.get_by_text("Hand 1 saved: Player wins 6–0.").wait_for()

    assert phone.inner_text("[data-seat-result='1']") == "−100"
    assert phone.inner_text("[data-seat-result='2']") == "+50"
    assert phone.evaluate("window.pageWasNotReloaded") is True  # htmx swapped a partial
    hand = Hand.objects.get()
    assert (hand.player_cards, hand.banker_cards) == ("9 7", "J J 10")
    assert sorted(Bet.objects.values_list("seat", "net")) == [
        (1, Decimal("-100.00")),
        (2, Decimal("50.00")),
    ]


def test_keyboard_shortcuts_enter_a_result_and_save(browser, host, night):
    base_url, shoe = night
    services.seat_guest(shoe=shoe, seat=3, guest=shoe.event.guests.get(name="Aki"), by=host)
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    log_in(page, base_url, host.username)
    page.goto(f"{base_url}/shoes/{shoe.pk}/")
    page.fill("input[name=stake_3_tie]", "10")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("t")
    assert page.is_checked("input[name=result][value=tie]")
    page.keyboard.press("Enter")
    page.get_by_text("Hand 1 saved: Tie.").wait_for()
    assert Bet.objects.get().net == Decimal("80.00")
    page.close()


def test_every_host_page_fits_a_360_pixel_phone(phone, host, night, record):
    base_url, shoe = night
    services.seat_guest(shoe=shoe, seat=1, guest=shoe.event.guests.get(name="Aki"), by=host)
    hand = record(shoe, "9 7", "J J 10")
    log_in(phone, base_url, host.username)
    aki = shoe.event.guests.get(name="Aki")
    token = services.guest_link_issue(guest=aki)
    for path in (
        "/events/",
        "/events/new/",
        f"/events/{shoe.event_id}/",
        f"/events/{shoe.event_id}/results/",
        f"/shoes/{shoe.pk}/",
        f"/hands/{hand.pk}/",
        "/guests/",
        f"/guests/{aki.pk}/",
        f"/g/{aki.pk}/{token}/",
        "/standings/",
        "/house/",
        "/rules/",
    ):
        for language in ("en", "ja"):
            phone.context.set_extra_http_headers({"Accept-Language": language})
            phone.goto(base_url + path)
            width = phone.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, f"{path} ({language}) is {width} px wide"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def test_the_table_display_screenshot_shows_each_new_hand(browser, host, night, record):
    base_url, shoe = night
    services.seat_guest(shoe=shoe, seat=1, guest=shoe.event.guests.get(name="Aki"), by=host)
    for player, banker in (("9 7", "J J 10"), ("8 K", "9 K"), ("8 K", "9 K")):
        record(shoe, player, banker, [bet(1, "banker", 10)])
    token = game_services.event_display_link_issue(event=shoe.event)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{base_url}/display/{shoe.event_id}/{token}/")
    before = page.screenshot()
    assert png_size(before) == (1280, 720)
    assert page.locator("g.big-banker").count() == 2
    assert page.locator("g.big-player").count() == 1
    # Marks are drawn in their colours, as a TV across the room shows them.
    colour = page.eval_on_selector("g.big-banker circle", "c => getComputedStyle(c).stroke")
    assert colour == "rgb(198, 40, 40)"
    record(shoe, "8 K", "8 Q", [])  # a tie: a slash on the last Banker mark
    page.wait_for_selector("line.tie-slash", timeout=10_000)  # the page refreshed itself
    after = page.screenshot()
    assert after != before
    page.close()
