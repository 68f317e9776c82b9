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
