"""Bar Wi-Fi drops, on the production server (gunicorn, DEBUG off, WhiteNoise's hashed static
files; tests/browser/conftest.py ``production_server``) behind a proxy that cuts every connection,
the service worker's included (``bar_wifi``):

- a table page seen once online opens offline, its scripts and styles with it;
- the app opened offline (its start page, or any page) shows the offline page, which lists the
  tables this device keeps, each a link to its kept copy;
- hands saved without a connection wait on the device and are sent, in order, each recorded
  once, when it returns — even after the page was reloaded offline.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.models import Hand
from ledger.guests import services as guest_services
from ledger.models import Bet
from ledger.nights import services as night_services
from tests.browser.conftest import (
    UNTIL_THE_PAGE_IS_KEPT,
    log_in,
    log_in_without_a_page,
    open_night,
    open_table,
    seat_seven,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HANDS = (  # seat 1's Banker stake, then the cards tapped in deal order
    ("100", ("9", "J", "7", "J", "10")),  # Player wins 6–0: −100
    ("50", ("8", "9", "K", "K")),  # Banker wins 9–8 (natural): +47.50
    ("20", ("K", "K", "8", "8")),  # a tie: Banker pushed, 0
)


@pytest.fixture
def open_shoe(host):
    """A new night's open shoe, seven guests seated (seat n: the n-th name)."""
    shoe = open_night(host)
    seat_seven(shoe, host)
    return shoe


NOT_IN_THE_WORKERS_CACHE = """async () => {
  const loaded = document.querySelectorAll("script[src], link[rel~=stylesheet], link[rel~=icon]");
  const urls = [location.href, ...Array.from(loaded, (element) => element.src || element.href)];
  const missing = [];
  for (const url of urls) {
    if (!(await caches.match(url, { ignoreVary: true }))) missing.push(url);
  }
  return missing;
}"""


def log_hand(page, stake, taps):
    page.tap("input[name=stake_1_banker]")
    page.fill("input[name=stake_1_banker]", stake)
    for rank in taps:
        page.tap(f".keypad [data-rank='{rank}']")
    page.tap("button.save")


def first_visit(page, base_url, shoe, host):
    """The table page as the first page of a visit, before any service worker is installed: one
    load, no reload; then wait until the worker says it keeps the page."""
    log_in_without_a_page(page.context, base_url, host.username)
    failed = []
    page.on("requestfailed", lambda request: failed.append(request.url))
    page.goto(f"{base_url}/shoes/{shoe.pk}/")
    expect(page.locator("html")).to_have_attribute("data-offline-copy", "kept", timeout=15_000)
    assert failed == []
    # Kept by the worker, not only in the browser's HTTP cache (which a phone may empty): the
    # page and every script, style sheet and icon it loaded.
    assert page.evaluate(NOT_IN_THE_WORKERS_CACHE) == []
    return failed  # from now on: what the page could not load


def test_a_table_page_seen_once_online_opens_offline(phone, host, open_shoe, bar_wifi):
    table_url = f"{bar_wifi.url}/shoes/{open_shoe.pk}/"
    failed = first_visit(phone, bar_wifi.url, open_shoe, host)
    phone.goto("about:blank")

    bar_wifi.drop(phone)
    phone.goto(table_url)
    expect(phone.locator(f"#table[data-shoe='{open_shoe.pk}']")).to_be_visible()
    expect(phone.locator("[data-hand-number]")).to_have_text("1")
    expect(phone.locator("[data-theme-switch]")).to_be_visible()  # site.js ran
    assert phone.evaluate("typeof htmx") == "object"
    log_hand(phone, *HANDS[0])  # table.js ran: the hand waits on the device
    expect(phone.locator("[data-outbox-list] li")).to_have_text(["Hand 1: waiting to send."])
    assert [url for url in failed if "/static/" in url] == []
    assert Hand.objects.count() == 0


def test_the_app_opened_offline_lists_the_tables_this_device_keeps(
    phone, host, open_shoe, bar_wifi
):
    table_url = f"{bar_wifi.url}/shoes/{open_shoe.pk}/"
    first_visit(phone, bar_wifi.url, open_shoe, host)
    phone.goto("about:blank")

    bar_wifi.drop(phone)
    phone.goto(f"{bar_wifi.url}/events/")  # the installed app's start page
    expect(phone.locator("h1")).to_have_text("No connection")
    tables = phone.locator("[data-offline-tables] li")
    expect(tables).to_have_count(1)
    expect(tables.locator("a")).to_have_text("Browser night · shoe 1")
    tables.locator("a").click()
    expect(phone).to_have_url(table_url)
    expect(phone.locator(f"#table[data-shoe='{open_shoe.pk}']")).to_be_visible()

    phone.goto(f"{bar_wifi.url}/guests/")  # any page: the same
    expect(phone.locator("h1")).to_have_text("No connection")
    expect(phone.locator("[data-offline-tables] a")).to_have_attribute(
        "href", f"/shoes/{open_shoe.pk}/"
    )
    bar_wifi.restore(phone)  # the page asked for comes by itself
    expect(phone.locator("h1")).to_have_text("Guests")


REMEMBERED = "() => JSON.parse(localStorage.getItem('shoebook-tables'))"


def test_the_device_remembers_its_ten_latest_open_tables_newest_first(
    phone, host, open_shoe, production_server
):
    base_url = production_server.url
    log_in(phone, base_url, host.username)
    earlier = [
        {"url": f"/shoes/{900 + n}/", "title": f"Table {n}", "seen": "2026-11-20T21:00:00Z"}
        for n in range(10)
    ]
    phone.evaluate(
        "(tables) => localStorage.setItem('shoebook-tables', JSON.stringify(tables))", earlier
    )
    phone.goto(f"{base_url}/shoes/{open_shoe.pk}/")
    remembered = phone.evaluate(REMEMBERED)
    this_table = f"/shoes/{open_shoe.pk}/"
    assert [table["url"] for table in remembered] == [this_table] + [t["url"] for t in earlier[:9]]
    assert remembered[0]["title"] == "Browser night · shoe 1"

    night_services.shoe_close(shoe=open_shoe, by=host)  # closed: no longer a table to open offline
    phone.reload()
    assert [table["url"] for table in phone.evaluate(REMEMBERED)] == [t["url"] for t in earlier[:9]]


def test_the_worker_and_each_roles_manifest_come_from_the_production_server(
    phone, host, open_shoe, production_server
):
    base_url = production_server.url
    guest = open_shoe.event.guests.get(name="Aki")
    token = guest_services.guest_link_issue(guest=guest)
    phone.goto(f"{base_url}/g/{guest.pk}/{token}/")
    served = phone.evaluate(
        """async () => {
          const answer = async (url) => {
            const response = await fetch(url);
            return [response.status, response.headers.get("content-type"), await response.text()];
          };
          const manifest = document.querySelector("link[rel=manifest]").href;
          return {
            worker: await answer("/service-worker.js"),
            guest: await answer(manifest),
            host: await answer("/manifest.webmanifest"),
            active: (await navigator.serviceWorker.ready).active.scriptURL,
          };
        }"""
    )
    assert served["worker"][:2] == [200, "text/javascript; charset=utf-8"]
    assert served["active"] == f"{base_url}/service-worker.js"
    for role in ("guest", "host"):
        assert served[role][:2] == [200, "application/manifest+json"], role
    guest_page = f"/g/{guest.pk}/{token}/"
    guests_app = json.loads(served["guest"][2])
    assert (guests_app["start_url"], guests_app["scope"]) == (guest_page, guest_page)
    assert json.loads(served["host"][2])["start_url"] == "/events/"

    # Chromium reads the guest's manifest without a complaint.
    cdp = phone.context.new_cdp_session(phone)
    read = cdp.send("Page.getAppManifest")
    assert read["url"].endswith(f"{guest_page}manifest.webmanifest")
    assert read["errors"] == []


def test_three_hands_offline_survive_a_reload_and_are_recorded_once_in_order(
    phone, host, open_shoe, bar_wifi
):
    base_url = bar_wifi.url
    open_table(phone, base_url, open_shoe, host)
    phone.evaluate(UNTIL_THE_PAGE_IS_KEPT)

    bar_wifi.drop(phone)
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

    bar_wifi.restore(phone)
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
    phone, host, open_shoe, record, bar_wifi
):
    base_url = bar_wifi.url
    open_table(phone, base_url, open_shoe, host)
    bar_wifi.drop(phone)
    log_hand(phone, *HANDS[0])
    record(open_shoe, "8 K", "9 K")  # meanwhile another device logs hand 1
    bar_wifi.restore(phone)
    held = phone.locator("[data-held]")  # kept on the device, as an entry of its own
    expect(held).to_contain_text("Hand 1 from this phone was refused")
    expect(held).to_contain_text("Hand 1 was already recorded")
    expect(held.locator("[data-other-hand='1']")).to_contain_text("8 K")  # side by side
    expect(phone.get_by_role("button", name="Save mine as hand 2")).to_be_visible()
    expect(phone.locator("[data-outbox]")).to_be_hidden()
    assert phone.input_value("input[name=number]") == "2"  # the next free: the host decides
    assert Hand.objects.count() == 1
