"""The night's lock: the one row every write of a night's rows locks first.

A night (an ``Event``) is written by many services: hands, coups, undos and corrections, seat
changes, the count and its count-only switch, chips and adjustments and their voids,
settlements, transfers, the close and the reopen. Each first locks the night's row (FOR NO KEY
UPDATE, the row itself: a foreign-key check never waits on it) and then reads what it decides
on, so that two of them at one night take turns and each sees what the other committed. The
order every lock is taken in is in ``docs/developers.md`` ("Locks in one order") and
``tests/test_locks.py`` reads the services for it: tournament, round, the night (nights in id
order), shoe, guests in id order, then the one row being changed.

On SQLite the write transaction begins IMMEDIATE and holds the database's write lock: the lock
is a read there.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connection

from games.models import Event, Series, Shoe


def lock_night(event: Event | int) -> Event:
    """The night's row locked until the transaction ends, read afresh (its close as it stands
    now, never as a page or a caller read it)."""
    pk = event if isinstance(event, int) else event.pk
    return Event.objects.select_for_update(of=("self",), no_key=True).get(pk=pk)


def lock_series(series: Series | int) -> Series:
    """A series' row locked until the transaction ends, read afresh: taken before any of its
    nights, as a tournament is (its next night made once however many taps ask for it)."""
    pk = series if isinstance(series, int) else series.pk
    return Series.objects.select_for_update(of=("self",), no_key=True).get(pk=pk)


def lock_open_night(event: Event | int, refused: object) -> Event:
    """``lock_night``, then refused with ``refused`` (its message) once the night is closed: read
    under the lock, so a page older than the close, or a write racing it, sees the close."""
    locked = lock_night(event)
    if not locked.is_open:
        raise ValidationError({NON_FIELD_ERRORS: refused})
    return locked


def lock_nights(events: Iterable[Event | int]) -> dict[int, Event]:
    """Several nights (a round's tables) locked in id order, by id."""
    ids = sorted({event if isinstance(event, int) else event.pk for event in events})
    rows = Event.objects.select_for_update(of=("self",), no_key=True).filter(pk__in=ids)
    return {event.pk: event for event in rows.order_by("pk")}


def lock_night_of_shoe(shoe: Shoe | int) -> None:
    """The night of this shoe locked, before the shoe (a hand's save: one statement, none on
    SQLite, whose write transaction holds the database already)."""
    if not connection.features.has_select_for_update:
        return
    nights = Event.objects.select_for_update(of=("self",), no_key=True)
    if isinstance(shoe, Shoe):
        nights = nights.filter(pk=shoe.event_id)
    else:
        nights = nights.filter(shoes__pk=shoe)
    list(nights.values_list("pk"))


def advisory_lock(number: int) -> None:
    """Where the row to lock does not exist yet (a night being imported, a login being made): a
    PostgreSQL advisory lock on ``number``, held to the end of the transaction. SQLite's one
    writer at a time needs none."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [number])
