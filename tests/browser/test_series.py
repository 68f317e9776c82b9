"""A series on a phone, on the production server: the host makes a series from a night, taps
"Next night" once, and the new night carries the rules, the venue, the chips and the count's
setup and the guests; a guest's calendar link opens in a calendar program's parser."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from icalendar import Calendar
from playwright.sync_api import expect

from games import services as game_services
from games.models import Event, Series
from games.payouts import RuleSet
from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.models import CountSetup, EventGuest
from ledger.series import services as series_services
from ledger.series.recurrence import WEEKLY, Rule, next_date
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GUESTS = ("田中", "Aki", "Chloé")


def test_a_series_made_from_a_night_and_its_next_night_in_one_tap(phone, host, production_server):
    night_day = date(2026, 11, 27)  # a Friday
    night = game_services.event_create(
        name="Friday club", date=night_day, venue="The back room", decks=6,
        hands_per_shoe=60, rules=RuleSet(tie_pays=9), by=host,
    )  # fmt: skip
    count_services.count_setup_save(
        event=night, by=host, denominations=["1", "5", "25", "100"], opening_float=Decimal(5000)
    )
    for name in GUESTS:
        guest_services.event_guest_add(event=night, name=name, by=host)
    base = production_server.url
    assert phone.viewport_size["width"] == 360

    log_in(phone, base, host.username)
    phone.goto(f"{base}/events/{night.pk}/")
    phone.get_by_role("link", name="Make this a series").click()
    expect(phone.get_by_role("heading", name="Make this a series")).to_be_visible()
    phone.fill("input[name=name]", "Fridays")
    phone.get_by_role("button", name="Make the series").click()
    expect(phone.get_by_role("heading", name="Fridays")).to_be_visible()
    series = Series.objects.get(name="Fridays")

    phone.locator("[data-next-night]").first.click()
    expect(phone.locator(".messages").filter(has_text="series' settings")).to_be_visible()
    made = Event.objects.exclude(pk=night.pk).get(series=series)
    expected = next_date(
        Rule(WEEKLY, weekday=4), max(night_day, timezone.localdate() - timedelta(days=1))
    )
    assert made.date == expected
    phone.wait_for_url(f"{base}/events/{made.pk}/")
    assert (made.venue, made.decks, made.hands_per_shoe) == ("The back room", 6, 60)
    assert made.rule_set.tie_pays == 9
    setup = CountSetup.objects.get(event=made)
    assert (setup.denominations, setup.opening_float) == (["1", "5", "25", "100"], Decimal(5000))
    on_list = EventGuest.objects.filter(event=made).values_list("guest__name", flat=True)
    assert sorted(on_list) == sorted(GUESTS)
    for name in GUESTS:
        expect(phone.locator("main")).to_contain_text(name)

    phone.goto(f"{base}/series/{series.pk}/")
    phone.locator("details.usual-guest summary", has_text="Aki").click()
    link = phone.locator("details.usual-guest[open] input[data-guest-feed]").input_value()
    expect(phone.locator("details.usual-guest[open] [data-share-text]")).to_contain_text(
        "The back room"
    )
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360  # no page wider
    answer = phone.context.browser.new_context().request.get(link)  # nobody logged in
    assert answer.status == 200
    assert answer.headers["content-type"].startswith("text/calendar")
    calendar = Calendar.from_ical(answer.body())
    days = [event.decoded("dtstart").date() for event in calendar.walk("VEVENT")]
    assert days[:2] == [night_day, made.date]
    assert {str(event["location"]) for event in calendar.walk("VEVENT")} == {"The back room"}
    for name in GUESTS:
        assert name.encode() not in answer.body()
    start, _token, end = link.rsplit("/", 2)
    wrong = phone.context.browser.new_context().request.get(f"{start}/{'x' * 43}/{end}")
    assert wrong.status == 404


def test_a_series_named_with_eighty_letters_and_no_space_fits_a_phone(
    phone, host, production_server
):
    night = game_services.event_create(
        name="W" * 80, date=date(2026, 11, 27), venue="V" * 80, rules=RuleSet(), by=host
    )
    series = series_services.series_from_night(
        event=night, by=host, name="W" * 80, recurrence="weekly", weekday=4
    )
    base = production_server.url
    log_in(phone, base, host.username)
    for path in ("/events/", f"/series/{series.pk}/"):
        phone.goto(f"{base}{path}")
        expect(phone.locator("main")).to_contain_text("W" * 80)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, path
