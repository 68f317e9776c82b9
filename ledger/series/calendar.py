"""A series' nights as an iCalendar feed (RFC 5545), written by the ``icalendar`` library.

Each night's UID is the series and the date, so that a date to come keeps its UID once its
night is made. The feed names the nights, when and where they are: nobody on them."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.http import HttpRequest
from django.urls import reverse
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from games.models import Event, Series
from ledger.models import SeriesGuest
from ledger.series.selectors import starts

LENGTH = timedelta(hours=5)  # a night's planned length: calendars need an end
PRODUCT = "-//Shoebook//Series calendar//EN"


def guest_feed_path(row: SeriesGuest) -> str:
    """A usual guest's own feed: the series, the guest and their calendar link's token."""
    return reverse(
        "ledger:series_guest_feed", args=[row.series_id, row.guest_id, row.calendar_token]
    )


def feed_links(request: HttpRequest, path: str) -> dict[str, str]:
    """A feed's address as a calendar program subscribes to it (webcal) and as a page (https)."""
    https = request.build_absolute_uri(path)
    return {"https": https, "webcal": "webcal://" + https.split("://", 1)[1]}


def one_line(text: str) -> str:
    """A name or venue as one line: a feed's property is a line (names typed before the series'
    own check, or an event's, may hold a line break)."""
    return " ".join(text.split())


def _end(start: datetime) -> datetime:
    """When a night ends, for a calendar: its planned length, or the calendar's last second."""
    try:
        return start + LENGTH
    except OverflowError:  # a night on 31 December 9999
        return start.replace(hour=23, minute=59, second=59)


def night_uid(series: Series, day: date) -> str:
    return f"series-{series.pk}-{day:%Y%m%d}@shoebook"


def series_calendar(
    series: Series, nights: list[Event], upcoming: list[date], *, stamp: datetime
) -> bytes:
    """The feed: every night of the series, then the dates to come from its recurrence."""
    calendar = Calendar()
    calendar.add("prodid", PRODUCT)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", one_line(series.name))
    calendar.add("x-wr-timezone", series.time_zone)
    planned = [(night.date, night.name, night.venue) for night in nights]
    planned += [(day, series.name, series.venue) for day in upcoming]
    for day, name, venue in planned:
        entry = CalendarEvent()
        start = starts(series, day)
        entry.add("uid", night_uid(series, day))
        entry.add("dtstamp", stamp.astimezone(ZoneInfo("UTC")))
        entry.add("dtstart", start)
        entry.add("dtend", _end(start))
        entry.add("summary", one_line(name))
        if venue:
            entry.add("location", one_line(venue))
        calendar.add_component(entry)
    calendar.add_missing_timezones()
    feed: bytes = calendar.to_ical()
    return feed
