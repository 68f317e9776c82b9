import uuid
from datetime import UTC, date, datetime, time
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from icalendar import Calendar

from games.models import Event, Series
from ledger.models import Guest, SeriesGuest
from ledger.series import services as series_services
from ledger.series.calendar import night_uid

TODAY = date(2027, 3, 20)


@pytest.fixture(autouse=True)
def today():
    with mock.patch("django.utils.timezone.localdate", return_value=TODAY):
        yield


def feed_of(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return response, Calendar.from_ical(response.content)


def guest_feed_url(series, name):
    row = SeriesGuest.objects.get(series=series, guest__name=name)
    return reverse("ledger:series_guest_feed", args=[series.pk, row.guest_id, row.calendar_token])


def test_a_guest_s_feed_lists_the_nights_past_and_to_come_across_daylight_saving(
    client, club, host
):
    spring = date(2027, 3, 26)  # the last Friday before Paris moves its clocks on (28 March)
    series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4(), on=spring)
    response, calendar = feed_of(client, guest_feed_url(club, "Aki"))
    events = calendar.walk("VEVENT")
    days = [event.decoded("dtstart").date() for event in events]
    # The night it was made from, the night made, then four Fridays to come.
    assert days == [
        date(2026, 11, 27),
        spring,
        date(2027, 4, 2),
        date(2027, 4, 9),
        date(2027, 4, 16),
        date(2027, 4, 23),
    ]
    assert [str(event["uid"]) for event in events] == [night_uid(club, day) for day in days]
    starts = {event.decoded("dtstart").date(): event.decoded("dtstart") for event in events}
    paris = ZoneInfo("Europe/Paris")
    assert starts[spring] == datetime(2027, 3, 26, 20, 30, tzinfo=paris)
    assert starts[spring].astimezone(UTC).time() == time(19, 30)  # winter time, UTC+1
    assert starts[date(2027, 4, 2)].astimezone(UTC).time() == time(18, 30)  # summer, UTC+2
    assert {str(event["location"]) for event in events} == {"Le Salon"}
    assert calendar.walk("VTIMEZONE")  # the zone is in the feed for the calendar program
    for name in ("Aki", "Ben", "Chie"):
        assert name.encode() not in response.content  # nobody on the nights is named


def test_a_date_to_come_keeps_its_uid_once_its_night_is_made(client, club, host):
    url = guest_feed_url(club, "Ben")
    _response, before = feed_of(client, url)
    to_come = {str(event["uid"]) for event in before.walk("VEVENT")}
    series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    _response, after = feed_of(client, url)
    assert to_come <= {str(event["uid"]) for event in after.walk("VEVENT")}


def test_a_wrong_revoked_or_another_guest_s_token_is_refused(client, club, host):
    aki = SeriesGuest.objects.get(series=club, guest__name="Aki")
    ben = SeriesGuest.objects.get(series=club, guest__name="Ben")
    wrong = [
        (club.pk, aki.guest_id, "x" * 43),
        (club.pk, aki.guest_id, ben.calendar_token),  # Ben's token does not open Aki's feed
        (club.pk + 1, aki.guest_id, aki.calendar_token),
    ]
    for args in wrong:
        assert client.get(reverse("ledger:series_guest_feed", args=args)).status_code == 404
    series_services.series_calendar_link_revoke(
        series=club, guest=Guest.objects.get(pk=aki.guest_id), by=host
    )
    args = [club.pk, aki.guest_id, aki.calendar_token]
    assert client.get(reverse("ledger:series_guest_feed", args=args)).status_code == 404
    ben_args = [club.pk, ben.guest_id, ben.calendar_token]
    assert client.get(reverse("ledger:series_guest_feed", args=ben_args)).status_code == 200


def test_the_hosts_feed_opens_by_its_token_only(client, club, host):
    assert client.get(reverse("ledger:series_feed", args=[club.pk, "none"])).status_code == 404
    token = series_services.series_feed_link_issue(series=club, by=host)
    _response, calendar = feed_of(client, reverse("ledger:series_feed", args=[club.pk, token]))
    assert len(calendar.walk("VEVENT")) == 5
    assert (
        client.get(
            reverse(
                "ledger:series_feed",
                args=[club.pk, token[:-1] + ("B" if token.endswith("A") else "A")],
            )
        ).status_code
        == 404
    )
    series_services.series_feed_link_revoke(series=club, by=host)
    assert client.get(reverse("ledger:series_feed", args=[club.pk, token])).status_code == 404


def test_a_feed_is_a_private_link_s_answer(client, club):
    response = client.get(guest_feed_url(club, "Chie"))
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-cache" in response["Cache-Control"]


def test_a_name_with_a_line_break_stays_on_its_line_in_the_feed(client, club):
    # Typed before the series' own check, or into a night's name: the feed still opens, and no
    # line of it starts what the name smuggled.
    smuggled = "Club\rBEGIN:VEVENT\rUID:evil@x\rEND:VEVENT"
    Series.objects.filter(pk=club.pk).update(name=smuggled, venue="Le\nSalon")
    Event.objects.filter(series=club).update(name=smuggled)
    response, calendar = feed_of(client, guest_feed_url(club, "Aki"))
    lines = response.content.decode().splitlines()
    assert lines.count("BEGIN:VEVENT") == len(calendar.walk("VEVENT")) == 5
    assert not any(line.startswith("UID:evil") for line in lines)
    assert str(calendar["x-wr-calname"]) == "Club BEGIN:VEVENT UID:evil@x END:VEVENT"
    assert {str(event["location"]) for event in calendar.walk("VEVENT")} == {"Le Salon"}


def test_a_night_at_the_end_of_the_calendar_breaks_no_page(client, club, host, make_event):
    # Moved there by its own Edit form: the dates to come stop where the calendar does.
    Event.objects.filter(series=club).update(date=date(9999, 12, 30))
    _response, calendar = feed_of(client, guest_feed_url(club, "Aki"))
    assert [event.decoded("dtstart").date() for event in calendar.walk("VEVENT")] == [
        date(9999, 12, 30),
        date(9999, 12, 31),  # a Friday: the one date to come
    ]
    client.force_login(host)
    assert client.get(reverse("ledger:series_detail", args=[club.pk])).status_code == 200


def test_a_feed_answers_head_as_calendar_programs_ask_first(client, club):
    response = client.head(guest_feed_url(club, "Aki"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
