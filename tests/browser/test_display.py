"""The table display (games/views.py ``table_display``) fills a TV, a laptop or a phone: every
road whole in the viewport, the newest hand in view however long the shoe."""

from __future__ import annotations

from datetime import date

import pytest

from games import services as game_services
from games.payouts import RuleSet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# 70 hands: a Banker streak of ten (its dragon tail runs along the bottom row), then Player and
# Banker by turns — 60 big-road columns, twice what the display's big road shows — and a tie.
LONG_SHOE = "B" * 10 + "PB" * 29 + "PT"
NEWEST_DECIDED = 69  # the tie is drawn on hand 69's mark

ROADS = ("Bead plate", "Big road", "Big Eye Boy", "Small Road", "Cockroach Pig")


@pytest.fixture
def display(host, live_server, record):
    """A long shoe's display link, and a way to record one more hand."""
    event = game_services.event_create(
        name="Long night", date=date(2026, 11, 22), rules=RuleSet(), by=host
    )
    shoe = game_services.shoe_start(event=event, by=host)

    def hand(result: str) -> None:
        record(shoe, result=result, player_pair=False, banker_pair=False)

    for result in LONG_SHOE:
        hand(result)
    token = game_services.event_display_link_issue(event=event)
    return f"{live_server.url}/display/{event.pk}/{token}/", hand


@pytest.fixture
def screen(browser):
    """Open the display on a screen of a given size: ``screen(url, 1920, 1080)``."""
    contexts = []

    def open_display(url, width, height, language="en"):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            extra_http_headers={"Accept-Language": language},
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(url)
        return page

    yield open_display
    for context in contexts:
        for page in context.pages:
            page.goto("about:blank")  # stop the page's polling before the server goes away
        context.close()


def box(page, selector):
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


def inside(page, selector, *, vertically=True) -> bool:
    """Whether the element is whole inside the viewport (``vertically``: its height too)."""
    width, height = page.evaluate("[innerWidth, innerHeight]")
    b = box(page, selector)
    across = b["x"] >= 0 and b["x"] + b["width"] <= width + 0.5
    down = b["y"] >= 0 and b["y"] + b["height"] <= height + 0.5
    return across and (down or not vertically)


def road(name: str) -> str:
    return f"figure.road:has(figcaption:text-is('{name}'))"


def no_horizontal_overflow(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize(
    ("width", "height", "language"),
    [(1920, 1080, "en"), (1280, 720, "en"), (1280, 720, "ja")],
)
def test_a_screen_shows_every_road_whole_and_the_newest_hand(
    screen, display, width, height, language
):
    url, _hand = display
    page = screen(url, width, height, language)
    assert no_horizontal_overflow(page)
    assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
    assert inside(page, ".scoreboard .stats") and inside(page, "table.predictions")
    assert page.locator("figure.road").count() == 5
    for index in range(5):
        assert inside(page, f"figure.road >> nth={index}"), ROADS[index]
        svg = box(page, f"figure.road >> nth={index} >> svg")
        assert svg["width"] > width / 5 and svg["height"] > height / 12, ROADS[index]
    newest = f'g.big[data-hand="{NEWEST_DECIDED}"]'
    assert inside(page, newest)
    assert page.locator(newest + " line.tie-slash").count() == 1
    # The big road shows its newest columns: the first hands have scrolled off to the left.
    assert page.locator('g.big[data-hand="1"]').count() == 0


def test_a_phone_shows_every_road_across_its_width(screen, display):
    url, _hand = display
    page = screen(url, 360, 740)
    assert no_horizontal_overflow(page)
    for name in ROADS:
        assert inside(page, road(name), vertically=False), name
    assert inside(page, f'g.big[data-hand="{NEWEST_DECIDED}"]', vertically=False)


def test_each_new_hand_appears_in_view_as_the_display_refreshes_itself(screen, display):
    url, hand = display
    page = screen(url, 1280, 720)
    hand("B")  # hand 71
    newest = page.locator('g.big[data-hand="71"]')
    newest.wait_for(timeout=15_000)
    assert inside(page, 'g.big[data-hand="71"]')
    assert no_horizontal_overflow(page)
