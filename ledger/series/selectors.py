"""Reads of a series: its nights, the dates to come, its usual guests, its standings and the
calendar links that open its feed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Max, QuerySet
from django.http import Http404
from django.utils.crypto import constant_time_compare

from games.models import Event, Series
from ledger.models import SeriesGuest
from ledger.money.results import Standing, standings
from ledger.series.recurrence import dates_after
from ledger.series.services import rule_of, series_next_date, series_today

UPCOMING = 4  # the dates to come a series' page and its feeds list


def series_for_list() -> QuerySet[Series]:
    return Series.objects.all()


def next_dates(every: list[Series]) -> dict[int, date | None]:
    """Each series' next date by its recurrence (None by hand), in one query: what its "Next
    night" button names and sends, on the events list as on its page."""
    last = dict(
        Event.objects.filter(series__in=every)
        .values("series_id")
        .annotate(last=Max("date"))
        .values_list("series_id", "last")
        .order_by()
    )
    return {
        series.pk: series_next_date(series, last=last.get(series.pk), today=series_today(series))
        for series in every
    }


def series_nights(series: Series) -> QuerySet[Event]:
    return Event.objects.nights().filter(series=series).order_by("date", "id")


def upcoming_dates(series: Series, nights: list[Event], *, today: date | None = None) -> list[date]:
    """The recurrence's next dates, after its last night and from today on, with no night yet."""
    today = series_today(series) if today is None else today
    after = today - timedelta(days=1)
    if nights and nights[-1].date > after:
        after = nights[-1].date
    return dates_after(rule_of(series), after, UPCOMING)


def next_open_night(series: Series, nights: list[Event]) -> Event | None:
    """The series' night to come (or tonight's where the series plays), the one an invitation
    is for."""
    today = series_today(series)
    return next((night for night in nights if night.date >= today and night.is_open), None)


def usual_guests(series: Series) -> list[SeriesGuest]:
    return list(
        SeriesGuest.objects.filter(series=series).select_related("guest").order_by("guest__name")
    )


def series_standings(series: Series) -> list[Standing]:
    """Each guest's net over the series' nights: the season's standings, over these nights."""
    return standings(series_nights(series))


def starts(series: Series, day: date) -> datetime:
    """When a night of the series starts, in the series' time zone (daylight saving kept)."""
    return datetime.combine(day, series.starts_at, tzinfo=ZoneInfo(series.time_zone))


@dataclass(frozen=True)
class GuestCalendar:
    series: Series
    row: SeriesGuest


def series_by_feed_or_404(series_id: int, token: str) -> Series:
    series = Series.objects.filter(pk=series_id).exclude(feed_token="").first()
    if series is None or not constant_time_compare(series.feed_token, token):
        raise Http404
    return series


def guest_calendar_or_404(series_id: int, guest_id: int, token: str) -> GuestCalendar:
    row = (
        SeriesGuest.objects.filter(series_id=series_id, guest_id=guest_id)
        .exclude(calendar_token="")
        .select_related("series", "guest")
        .first()
    )
    if row is None or not constant_time_compare(row.calendar_token, token):
        raise Http404
    return GuestCalendar(row.series, row)


def guest_calendars(guest_id: int) -> list[SeriesGuest]:
    """The series a guest is a usual guest of, with a calendar link (their own page's)."""
    return list(
        SeriesGuest.objects.filter(guest_id=guest_id)
        .exclude(calendar_token="")
        .select_related("series")
        .order_by("series__name", "series_id")
    )
