"""Pushed live, as deployed (the production server: ASGI, uvicorn workers, DEBUG off): a TV
display shows a hand saved from another browser context without a reload, as soon as the
stream says so, long before its fallback poll would have fetched it."""

from __future__ import annotations

import re
import uuid
from datetime import date

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from tests.browser.conftest import log_in_without_a_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
# Well under the display's fallback poll (DISPLAY_REFRESH_SECONDS, 5 s): only the push is this
# quick. Playwright waits on the page's change and gives up after this long.
PUSHED_WITHIN_MS = 3000


@pytest.fixture
def tv_night(host):
    event = game_services.event_create(
        name="Live night", date=date(2026, 11, 22), rules=RuleSet(), by=host
    )
    shoe = game_services.shoe_start(event=event, by=host)
    token = game_services.event_display_link_issue(event=event)
    return shoe, token


def test_the_tv_display_shows_a_hand_saved_elsewhere_without_a_reload(
    browser, production_server, tv_night, host
):
    shoe, token = tv_night
    base = production_server.url
    tv_context = browser.new_context(viewport={"width": 1280, "height": 720})
    phone = browser.new_context()
    try:
        tv = tv_context.new_page()
        tv.goto(f"{base}/display/{shoe.event_id}/{token}/")
        expect(tv.locator("html[data-live=open]")).to_have_count(1)  # its stream is open
        tv.evaluate("() => { document.body.dataset.sameLoad = 'yes'; }")
        banker = tv.locator("#display .stats span.winner-banker")
        expect(banker).to_contain_text("0 (")

        log_in_without_a_page(phone, base, host.username)
        table = phone.request.get(f"{base}/shoes/{shoe.pk}/")
        csrf = CSRF_FIELD.search(table.text()).group(1)
        saved = phone.request.post(
            f"{base}/shoes/{shoe.pk}/hands/",
            form={
                "number": "1",
                "idempotency_key": str(uuid.uuid4()),
                "result": "banker",
                "seating": "",
                "csrfmiddlewaretoken": csrf,
            },
            headers={"Referer": f"{base}/shoes/{shoe.pk}/", "HX-Request": "true"},
        )
        assert saved.status == 200, saved.text()

        expect(banker).to_contain_text("1 (", timeout=PUSHED_WITHIN_MS)
        assert tv.evaluate("() => document.body.dataset.sameLoad") == "yes"  # not reloaded
        expect(tv.locator("html[data-live=open]")).to_have_count(1)
    finally:
        for context in (tv_context, phone):
            for page in context.pages:
                page.goto("about:blank")  # close the stream before the server goes away
            context.close()


UNTIL_THE_WORKER_CONTROLS = """() => navigator.serviceWorker.ready.then(() =>
  navigator.serviceWorker.controller ? true : new Promise((resolve) =>
    navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true))))"""

STREAMS_KEPT = """() => caches.keys().then((names) => Promise.all(names.map((name) =>
  caches.open(name).then((cache) => cache.keys())))).then((lists) =>
  lists.flat().map((request) => request.url).filter((url) => url.includes("/live/")))"""


def test_a_guest_page_under_the_service_worker_gets_its_changes_and_keeps_no_stream(
    browser, production_server, tv_night, host
):
    shoe, _token = tv_night
    base = production_server.url
    guest = guest_services.event_guest_add(event=shoe.event, name="Aki", by=host)
    link = guest_services.guest_link_issue(guest=guest)
    context, desk = browser.new_context(), browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{base}/g/{guest.pk}/{link}/")
        page.evaluate(UNTIL_THE_WORKER_CONTROLS)
        page.reload()  # now through the worker
        expect(page.locator("html[data-live=open]")).to_have_count(1)
        balance = page.locator("#guest-live .balance strong")
        before = balance.inner_text()

        # The host records a settlement at the desk, through the server (on SQLite another
        # process's save reaches no stream: the server's own does).
        log_in_without_a_page(desk, base, host.username)
        event_page = desk.request.get(f"{base}/events/{shoe.event_id}/")
        csrf = CSRF_FIELD.search(event_page.text()).group(1)
        settled = desk.request.post(
            f"{base}/events/{shoe.event_id}/settlements/",
            form={
                "guest": str(guest.pk),
                "direction": "house_paid",
                "amount": "25",
                "method": "cash",
                "confirm": "on",
                "idempotency_key": str(uuid.uuid4()),
                "csrfmiddlewaretoken": csrf,
            },
            headers={"Referer": f"{base}/events/{shoe.event_id}/"},
            max_redirects=0,
        )
        assert settled.status == 302, settled.text()

        expect(balance).not_to_have_text(before, timeout=PUSHED_WITHIN_MS)
        assert page.evaluate(STREAMS_KEPT) == []  # the worker kept no stream
    finally:
        for each in (context, desk):
            for open_page in each.pages:
                open_page.goto("about:blank")
            each.close()
