"""Browser tests: Playwright driving Debian's Chromium (it cannot download its own here)."""

from __future__ import annotations

import os
import shutil
import threading
from datetime import date

import pytest
from django.test.testcases import QuietWSGIRequestHandler

from games import services as game_services
from games.payouts import RuleSet
from ledger import services

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NAMES = ("田中", "Aki", "Ben", "小林", "Chloé", "Dmitri", "Eun-ji", "Farouk")


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test-browser does).")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in the test's thread; the ORM calls the
    # tests make around it are ordinary synchronous ones. Only for these tests, never inherited.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield browser
            browser.close()


def new_page(browser, width, height, **options):
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-GB", **options
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    page.script_errors = errors
    return page


def touch_screen(browser, width, height):
    """A page of that size with touch, checked for script errors when the test ends."""
    page = new_page(browser, width, height, has_touch=True)
    yield page
    assert not page.script_errors, page.script_errors
    page.goto("about:blank")  # no timer or late request of the page outlives the test's data
    page.context.close()


@pytest.fixture
def phone(browser):
    """A small phone: 360 × 740."""
    yield from touch_screen(browser, 360, 740)


@pytest.fixture
def tablet(browser):
    yield from touch_screen(browser, 1024, 768)


@pytest.fixture
def night(host, live_server):
    """An open shoe of a new event, with eight guests on the list and nobody seated."""
    event = game_services.event_create(
        name="Browser night", date=date(2026, 11, 22), rules=RuleSet(), by=host
    )
    for name in NAMES:
        services.event_guest_add(event=event, name=name, by=host)
    shoe = game_services.shoe_start(event=event, by=host)
    return live_server.url, shoe


@pytest.fixture
def full_table(night, host):
    """The night with seven guests seated, seat n holding the n-th name."""
    base_url, shoe = night
    for seat, name in enumerate(NAMES[:7], start=1):
        guest = shoe.event.guests.get(name=name)
        services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return base_url, shoe


def choose_language(page, base_url, language):
    """The site's language, chosen as the header's switch does (its cookie). The context's
    locale decides the Accept-Language header, whatever extra headers say."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


class Wifi:
    """The bar's Wi-Fi for the browser: ``drop(page)`` takes it away, ``restore(page)`` brings it
    back. See the ``wifi`` fixture."""

    def __init__(self):
        self.down = threading.Event()

    def drop(self, page):
        self.down.set()
        page.context.set_offline(True)

    def restore(self, page):
        self.down.clear()
        page.context.set_offline(False)


@pytest.fixture
def wifi(live_server, monkeypatch):
    """An outage as a device has one: the page is told it is offline (``navigator.onLine``, the
    ``offline`` and ``online`` events) and nothing it or its service worker sends reaches the
    server.

    Playwright's offline mode alone leaks: Chromium keeps ``navigator.onLine``'s override per
    renderer process and lifts it for a moment while a reload swaps documents, so the page being
    left gets an ``online`` event, and what it sends then reaches the server, unseen by
    Playwright's events and routes. While the Wi-Fi is down the test server therefore also drops
    every request unanswered, which the browser sees as a network error.
    """
    wifi = Wifi()
    answer = QuietWSGIRequestHandler.parse_request

    def parse_request(handler):
        if wifi.down.is_set():
            handler.close_connection = True
            return False  # no reply at all: the connection just ends
        return answer(handler)

    monkeypatch.setattr(QuietWSGIRequestHandler, "parse_request", parse_request)
    return wifi


def log_in(page, base_url, username):
    page.goto(f"{base_url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests")
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/events/")


def open_table(page, base_url, shoe, host):
    log_in(page, base_url, host.username)
    page.goto(f"{base_url}/shoes/{shoe.pk}/")


def slow_network(page, latency_ms):
    """Every request takes ``latency_ms`` more (Chromium's own network emulation)."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": latency_ms, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    return session
