"""Writes of a series: made from a night, its schedule and usual guests edited, its next night
made in one tap, its calendar links issued and revoked. Each locks the series first (above its
nights in the one lock order, as a tournament is), or the night it is made from."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Collection
from dataclasses import dataclass
from datetime import date, time, timedelta
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import services as game_services
from games.locks import lock_night, lock_series
from games.messages import refused_character
from games.models import Event, Series
from games.payouts import RuleSet
from ledger.locks import hold_guests
from ledger.models import AuditEntry, CountSetup, EventGuest, Guest, SeriesGuest
from ledger.series.recurrence import Rule, next_date
from shoebook.base.roles import Actor

MSG_NOT_A_CASH_NIGHT = _("Only a cash night can start a series.")
MSG_ALREADY_IN_SERIES = _("This night is already part of the series “{series}”.")
MSG_CHOOSE_A_DATE = _("This series recurs by hand: choose the next night's date.")
MSG_NIGHT_ON_DATE = _("The series already has a night on {date}: {event}.")
MSG_KEY_OTHER_SERIES = _("This tap made a night of another series: reload the page.")
MSG_NOT_A_USUAL_GUEST = _("{guest} is not a usual guest of this series.")
MSG_ONE_LINE = _("This is one line with no invisible or control character (found {code}).")
MSG_DATE_OUT_OF_REACH = _(
    "A night of the series is dated from {first} to {last} (a year back, two years ahead): "
    "got {date}."
)

# How far from today a night of a series may be dated: past nights entered late, the season
# after next planned; a typo's year 2062 or 9999 is refused.
DAYS_BACK, DAYS_AHEAD = 366, 2 * 366

# What a new night takes from its series besides its name, date and venue: every setting
# ``games.services.event_create`` takes from the host's form.
SETTING_FIELDS = tuple(
    name for name in game_services.EVENT_FIELDS if name not in ("name", "date", "venue")
)
DECIMAL_SETTINGS = frozenset(
    {"money_per_chip", "table_min", "table_max", "taxe_rate", "shoe_charge", "smallest_chip"}
)
INT_SETTINGS = frozenset({"decks", "hands_per_shoe"})
SCHEDULE_FIELDS = (
    "name",
    "recurrence",
    "weekday",
    "week_of_month",
    "day_of_month",
    "starts_at",
    "time_zone",
    "venue",
)


def night_settings_of(event: Event) -> dict[str, Any]:
    """A night's settings as a series keeps them (JSON: amounts as text)."""
    kept: dict[str, Any] = {}
    for name in SETTING_FIELDS:
        value = getattr(event, name)
        kept[name] = value if name in INT_SETTINGS or name == "rules" else str(value)
    return kept


def event_arguments(settings: dict[str, Any]) -> dict[str, Any]:
    """A series' kept settings as ``games.services.event_create`` takes them."""
    arguments: dict[str, Any] = {}
    for name, value in settings.items():
        if name == "rules":
            arguments[name] = RuleSet.from_dict(value)
        elif name in DECIMAL_SETTINGS:
            arguments[name] = Decimal(value)
        else:
            arguments[name] = value
    return arguments


def count_setup_of(event: Event) -> dict[str, Any] | None:
    setup = CountSetup.objects.filter(event=event).first()
    if setup is None:
        return None
    return {
        "denominations": list(setup.denominations),
        "opening_float": str(setup.opening_float),
        "count_only": setup.count_only,
    }


def _usual_guest(series: Series, guest_id: int) -> SeriesGuest:
    """A usual guest's row, with their own calendar link from the start."""
    return SeriesGuest(series=series, guest_id=guest_id, calendar_token=secrets.token_urlsafe(32))


def rule_of(series: Series) -> Rule:
    return Rule(series.recurrence, series.weekday, series.week_of_month, series.day_of_month)


def _check_one_line(series: Series) -> None:
    """A series' name and venue are one line each: a feed writes them on a line of their own."""
    errors = {}
    for name in ("name", "venue"):
        text = getattr(series, name)
        code = refused_character(text) or next(
            (f"U+{ord(char):04X}" for char in text if char in "\t\n\r"), None
        )
        if code is not None:
            errors[name] = MSG_ONE_LINE.format(code=code)
    if errors:
        raise ValidationError(errors)


def check_night_date(on: date, *, today: date) -> None:
    first, last = today - timedelta(days=DAYS_BACK), today + timedelta(days=DAYS_AHEAD)
    if not first <= on <= last:
        message = MSG_DATE_OUT_OF_REACH.format(
            first=first.isoformat(), last=last.isoformat(), date=on.isoformat()
        )
        raise ValidationError({"date": message})


def series_today(series: Series) -> date:
    """Today where the series plays: a New York series' evening is still today there when it
    is already tomorrow in Tokyo."""
    return timezone.localdate(timezone=ZoneInfo(series.time_zone))


def series_next_date(series: Series, *, last: date | None, today: date) -> date | None:
    """The recurrence's next date after the series' last night, and never before today."""
    after = today - timedelta(days=1)
    if last is not None and last > after:
        after = last
    return next_date(rule_of(series), after)


def _audit(
    series: Series,
    by: Actor,
    summary: str,
    *,
    event: Event | None = None,
    action: str = AuditEntry.Action.SERIES,
    before: Any = None,
    after: Any = None,
) -> None:
    AuditEntry.objects.create(
        action=action, event=event, by=by, summary=summary[:200], before=before, after=after
    )


def _schedule(series: Series) -> dict[str, str]:
    return {name: str(getattr(series, name)) for name in SCHEDULE_FIELDS}


@transaction.atomic
def series_from_night(
    *,
    event: Event,
    by: Actor,
    name: str,
    recurrence: str,
    weekday: int = 4,
    week_of_month: int = 1,
    day_of_month: int = 1,
    starts_at: time = time(19, 0),
    time_zone: str = "",
) -> Series:
    """A series made from a night: its settings, count setup, venue and guests, and the night
    the first of its nights."""
    event = lock_night(event)
    if event.kind != Event.Kind.CASH:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_A_CASH_NIGHT})
    if event.series_id is not None:
        held = Series.objects.get(pk=event.series_id)
        raise ValidationError({NON_FIELD_ERRORS: MSG_ALREADY_IN_SERIES.format(series=held)})
    series = Series(
        name=name,
        recurrence=recurrence,
        weekday=weekday,
        week_of_month=week_of_month,
        day_of_month=day_of_month,
        starts_at=starts_at,
        venue=event.venue,
        night_settings=night_settings_of(event),
        count_setup=count_setup_of(event),
        created_by=by,
    )
    if time_zone:
        series.time_zone = time_zone
    _check_one_line(series)
    series.full_clean()
    series.save()
    guests = list(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
    hold_guests(guests)
    SeriesGuest.objects.bulk_create([_usual_guest(series, pk) for pk in sorted(guests)])
    event.series = series
    event.save(update_fields=["series"])
    _audit(series, by, f"{series.name}: {event}", event=event, after=_schedule(series))
    return series


@transaction.atomic
def series_edit(*, series: Series, by: Actor, **changes: Any) -> Series:
    """The series' name, schedule, start time, time zone and venue."""
    unknown = sorted(set(changes).difference(SCHEDULE_FIELDS))
    if unknown:
        raise TypeError(f"series_edit does not change {', '.join(unknown)}")
    series = lock_series(series)
    before = _schedule(series)
    for name, value in changes.items():
        setattr(series, name, value)
    _check_one_line(series)
    series.full_clean()
    series.save()
    after = _schedule(series)
    changed = sorted(name for name in after if after[name] != before[name])
    if changed:
        _audit(
            series,
            by,
            series.name,
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )
    return series


@transaction.atomic
def series_settings_from(*, series: Series, event: Event, by: Actor) -> Series:
    """The series takes a night's settings and count setup again (the host changed them on a
    night and wants the next nights to keep the change)."""
    series = lock_series(series)
    series.night_settings = night_settings_of(event)
    series.count_setup = count_setup_of(event)
    series.save(update_fields=["night_settings", "count_setup"])
    _audit(series, by, f"{series.name}: {event}", after={"settings_from": event.pk})
    return series


@transaction.atomic
def series_guests_set(*, series: Series, by: Actor, guests: Collection[Guest]) -> Series:
    """The series' usual guests become ``guests`` (their calendar links kept)."""
    series = lock_series(series)
    wanted = {guest.pk for guest in guests}
    hold_guests(wanted)
    rows = SeriesGuest.objects.filter(series=series)
    had = set(rows.values_list("guest_id", flat=True))
    rows.exclude(guest_id__in=wanted).delete()
    SeriesGuest.objects.bulk_create([_usual_guest(series, pk) for pk in sorted(wanted - had)])
    if wanted != had:
        before, after = {"guests": sorted(had)}, {"guests": sorted(wanted)}
        _audit(series, by, series.name, before=before, after=after)
    return series


@dataclass(frozen=True)
class NextNight:
    event: Event
    new: bool  # False: the key had made it already (a second tap)


@transaction.atomic
def series_next_night(
    *, series: Series, by: Actor, idempotency_key: uuid.UUID, on: date | None = None
) -> NextNight:
    """The series' next night, on ``on`` or the recurrence's next date, with every setting of
    the series, its count setup and its usual guests. The series is locked first: two taps at
    once make one night, and a repeated key answers with the night it made."""
    series = lock_series(series)
    made = Event.objects.filter(series_key=idempotency_key).first()
    if made is not None:
        if made.series_id != series.pk:
            raise ValidationError({NON_FIELD_ERRORS: MSG_KEY_OTHER_SERIES})
        return NextNight(made, new=False)
    nights = Event.objects.filter(series=series)
    today = series_today(series)
    if on is None:
        last = nights.order_by("-date").values_list("date", flat=True).first()
        on = series_next_date(series, last=last, today=today)
        if on is None:
            raise ValidationError({"date": MSG_CHOOSE_A_DATE})
    check_night_date(on, today=today)
    taken = nights.filter(date=on).first()
    if taken is not None:
        message = MSG_NIGHT_ON_DATE.format(date=on.isoformat(), event=taken.name)
        raise ValidationError({"date": message})
    event = game_services.event_create(
        name=series.name,
        date=on,
        venue=series.venue,
        by=by,
        **event_arguments(series.night_settings),
    )
    event.series = series
    event.series_key = idempotency_key
    event.save(update_fields=["series", "series_key"])
    if series.count_setup is not None:
        setup = series.count_setup
        CountSetup.objects.create(
            event=event,
            denominations=list(setup["denominations"]),
            opening_float=Decimal(setup["opening_float"]),
            count_only=bool(setup["count_only"]),
        )
    guests = list(SeriesGuest.objects.filter(series=series).values_list("guest_id", flat=True))
    hold_guests(guests)
    EventGuest.objects.bulk_create([EventGuest(event=event, guest_id=pk) for pk in sorted(guests)])
    _audit(
        series,
        by,
        str(event),
        event=event,
        action=AuditEntry.Action.SERIES_NIGHT,
        after={"series": series.pk, "date": on.isoformat(), "guests": len(guests)},
    )
    return NextNight(event, new=True)


@transaction.atomic
def series_feed_link_issue(*, series: Series, by: Actor) -> str:
    """A new calendar link for the hosts (256 random bits), replacing any earlier one."""
    series = lock_series(series)
    series.feed_token = secrets.token_urlsafe(32)
    series.save(update_fields=["feed_token"])
    _audit(series, by, series.name, action=AuditEntry.Action.CALENDAR_LINK_ISSUED)
    return series.feed_token


@transaction.atomic
def series_feed_link_revoke(*, series: Series, by: Actor) -> None:
    series = lock_series(series)
    series.feed_token = ""
    series.save(update_fields=["feed_token"])
    _audit(series, by, series.name, action=AuditEntry.Action.CALENDAR_LINK_REVOKED)


def _usual(series: Series, guest: Guest) -> SeriesGuest:
    row = (
        SeriesGuest.objects.select_for_update(of=("self",), no_key=True)
        .filter(series=series, guest=guest)
        .first()
    )
    if row is None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_A_USUAL_GUEST.format(guest=guest.name)})
    return row


def _whose(guest: Guest) -> dict[str, Any]:
    """A guest's calendar link in the audit: the guest, never the link (it is the key)."""
    return {"guest": guest.name, "guest_id": guest.pk}


@transaction.atomic
def series_calendar_link_issue(*, series: Series, guest: Guest, by: Actor) -> str:
    """A usual guest's own calendar link (256 random bits), replacing any earlier one."""
    series = lock_series(series)
    row = _usual(series, guest)
    row.calendar_token = secrets.token_urlsafe(32)
    row.save(update_fields=["calendar_token"])
    _audit(
        series, by, series.name, action=AuditEntry.Action.CALENDAR_LINK_ISSUED, after=_whose(guest)
    )
    return row.calendar_token


@transaction.atomic
def series_calendar_link_revoke(*, series: Series, guest: Guest, by: Actor) -> None:
    series = lock_series(series)
    row = _usual(series, guest)
    row.calendar_token = ""
    row.save(update_fields=["calendar_token"])
    _audit(
        series,
        by,
        series.name,
        action=AuditEntry.Action.CALENDAR_LINK_REVOKED,
        before=_whose(guest),
    )
