"""Browser tests: Playwright driving Debian's Chromium (it cannot download its own here).

Most tests run against pytest-django's live server (in this process). ``production_server`` is
the production configuration (gunicorn, DEBUG off, WhiteNoise's hashed static files) over the same
test database; ``bar_wifi`` puts a ``Proxy`` (tests/browser/network.py) in front of it, to slow
the network or cut it as a phone at the bar sees it.
"""

from __future__ import annotations

import os
import re
import shutil
import threading
from collections.abc import Iterator
from datetime import date
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connections
from django.test.testcases import QuietWSGIRequestHandler

from games import services as game_services
from games.models import Shoe
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from shoebook.base import live
from tests.browser.network import Proxy
from tests.production import Server
from tests.production import production_server as start_production_server

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


@pytest.fixture(autouse=True)
def live_listening(django_db_setup):
    """The live server is this process: on PostgreSQL it listens before the test's pages are
    drawn, as a production worker does from its start (shoebook.asgi), so that a page's stream
    starts without a resync (a fetch of the page's parts that would redraw them under the test)."""
    live.start_listening(wait=5)


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


def open_night(host) -> Shoe:
    """An open shoe of a new event, with eight guests on the list and nobody seated."""
    event = game_services.event_create(
        name="Browser night", date=date(2026, 11, 22), rules=RuleSet(), by=host
    )
    for name in NAMES:
        guest_services.event_guest_add(event=event, name=name, by=host)
    return game_services.shoe_start(event=event, by=host)


def seat_seven(shoe, host) -> None:
    """Seat n takes the n-th name."""
    for seat, name in enumerate(NAMES[:7], start=1):
        guest = shoe.event.guests.get(name=name)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)


@pytest.fixture
def night(host, live_server):
    """An open shoe of a new event, with eight guests on the list and nobody seated."""
    return live_server.url, open_night(host)


@pytest.fixture
def full_table(night, host):
    """The night with seven guests seated, seat n holding the n-th name."""
    base_url, shoe = night
    seat_seven(shoe, host)
    return base_url, shoe


def choose_language(page, base_url, language):
    """The site's language, chosen as the header's switch does (its cookie). The context's
    locale decides the Accept-Language header, whatever extra headers say."""
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base_url}])


class Wifi:
    """The bar's Wi-Fi for the browser: ``drop(page)`` takes it away, ``restore(page)`` brings it
    back: the page is told (``navigator.onLine``, the ``offline`` and ``online`` events) and,
    with a ``proxy`` (the ``bar_wifi`` fixture), every connection through it is cut too. See the
    ``wifi`` fixture for the live server."""

    def __init__(self, proxy: Proxy | None = None):
        self.down = threading.Event()
        self.proxy = proxy

    @property
    def url(self) -> str:
        """The server's address through this Wi-Fi (only with a proxy)."""
        assert self.proxy is not None, "the live server's Wi-Fi has no address of its own"
        return self.proxy.url

    def drop(self, page):
        self.down.set()
        if self.proxy is not None:
            self.proxy.offline = True
        page.context.set_offline(True)

    def restore(self, page):
        self.down.clear()
        if self.proxy is not None:
            self.proxy.offline = False
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


# --- the production server ------------------------------------------------------------------


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix, tmp_path_factory):
    """On SQLite, the browser suite's test database is a file (pytest-django's is in memory), so
    that the production server, another process, opens the same database. (On PostgreSQL it is
    the server's ``test_<name>`` database already.) Runs before the database is set up."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "browser.sqlite3")


def database_url(database: dict) -> str:
    """A DATABASE_URL (as the settings read it) for the database the tests use."""
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    user = quote(database["USER"] or "", safe="")
    password = f":{quote(database['PASSWORD'], safe='')}" if database["PASSWORD"] else ""
    where = f"{database['HOST'] or 'localhost'}:{database['PORT'] or 5432}"
    return f"postgres://{user}{password}@{where}/{quote(database['NAME'], safe='')}"


@pytest.fixture(scope="session")
def production_server(django_db_setup, tmp_path_factory) -> Iterator[Server]:
    """gunicorn with DEBUG off and WhiteNoise's hashed, compressed static files (collected for
    it), over the test database the browser tests use; ``.url`` is its address. Production's
    settings, but for the hasher of the suite's passwords (tests/browser/server_settings.py).
    Tests that use it need ``django_db(transaction=True)``: it sees only what is committed.

    Production cookies are Secure; Chromium keeps them on http://127.0.0.1, a secure context.
    Stopped before the test database is removed (PostgreSQL refuses to drop it while the
    server's connections are open)."""
    database = connections["default"].settings_dict  # now the test database
    if database["ENGINE"] == "django.db.backends.sqlite3":
        assert not connections["default"].creation.is_in_memory_db(database["NAME"]), (
            "the browser suite's SQLite test database must be a file: run the browser suite on "
            "its own (make test-browser); here it was set up in memory before it was asked for"
        )
    with start_production_server(
        database_url=database_url(database),
        workdir=tmp_path_factory.mktemp("production"),
        settings_module="tests.browser.server_settings",
    ) as server:
        yield server


@pytest.fixture
def network_proxy():
    """``network_proxy(base_url, latency_ms=…)``: a ``Proxy`` in front of any server (the live
    server's URL, the production server's), stopped when the test ends."""
    proxies = []

    def start(base_url: str, *, latency_ms: float = 0) -> Proxy:
        proxies.append(Proxy(base_url, latency_ms=latency_ms))
        return proxies[-1]

    yield start
    for proxy in proxies:
        proxy.close()


@pytest.fixture
def bar_wifi(production_server, network_proxy) -> Wifi:
    """The production server through the bar's Wi-Fi: ``bar_wifi.url`` is its address, and
    ``drop(page)`` / ``restore(page)`` cut and bring back the connection for everything the
    browser sends, its service worker's requests included (``bar_wifi.proxy.latency_ms`` slows
    it)."""
    return Wifi(network_proxy(production_server.url))


CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def log_in_without_a_page(context, base_url, username):
    """Log the browser context in through its request API: its cookies, but no page opened, so
    the next page opened is the first one of the visit (no service worker installed yet)."""
    form = context.request.get(f"{base_url}/accounts/login/")
    token = CSRF_FIELD.search(form.text()).group(1)
    answer = context.request.post(
        f"{base_url}/accounts/login/",
        form={"username": username, "password": "pw-for-tests", "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base_url}/accounts/login/"},
        max_redirects=0,
    )
    assert answer.status == 302 and answer.headers["location"] == "/events/", answer.text()


# Until the worker keeps a copy of this page: the page asked for it (site.js), or the worker
# answered its load (and kept it). Whether the worker controls the page is no sign: installed
# during the log-in, it may never control a page whose load overlapped its activation
# (``clients.claim()`` misses a page still loading), yet a reload goes through it. A promise,
# not a polled expression (polling evaluates a string, which the CSP refuses); given up after
# 10 s (an evaluation has no timeout of its own).
UNTIL_THE_PAGE_IS_KEPT = """() => new Promise((resolve, reject) => {
  const started = Date.now();
  (function look() {
    caches.match(location.href, { ignoreVary: true }).then((kept) => {
      if (kept) return resolve(true);
      if (Date.now() - started > 10000) return reject(new Error("the worker keeps no copy"));
      setTimeout(look, 100);
    }, reject);
  })();
})"""


# Until the table's outbox has sent everything and nothing is on its way (the page's own state:
# the outbox section's visibility says nothing while the first request is still leaving).
UNTIL_THE_OUTBOX_IS_EMPTY = """() => new Promise((resolve, reject) => {
  const started = Date.now();
  (function look() {
    const state = window.shoebookTableState();
    if (state && !state.queue.length && !state.flight) return resolve(true);
    if (Date.now() - started > 20000) return reject(new Error("the outbox did not empty"));
    setTimeout(look, 50);
  })();
})"""


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
