"""The reads on a hand's save, written out in SQL.

A save reads the shoe, who sits where and each seat's total over the shoe. Each statement takes
SQLite about 0.05 ms; building it with the ORM took 0.6–1.2 ms (`bench/save.py`): most of a save.
So these few are written once, in SQL that SQLite and PostgreSQL both read, with the tables' and
columns' names taken from the models; ``Manager.raw`` turns their rows into models with the same
conversions as the ORM. ``tests/ledger/hands/test_hot_reads.py`` holds each to the ORM query it
stands
for.
"""

from __future__ import annotations

import uuid
from decimal import Decimal
from functools import cache

from django.db import connection
from django.db.models import Field, Model

from games.chips import from_cents
from games.models import Event, Hand, Shoe
from ledger.models import Bet, CountSetup, Guest, Seating


def _table(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(model: type[Model], name: str) -> str:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.column
    return connection.ops.quote_name(field.column)


@cache
def _shoe_sql() -> str:
    hand, number, key = _table(Hand), _column(Hand, "number"), _column(Hand, "idempotency_key")
    shoe_of = _column(Hand, "shoe")
    count_only, event_of = _column(CountSetup, "count_only"), _column(CountSetup, "event")
    return (
        f"SELECT s.*, (SELECT MAX(h.{number}) FROM {hand} h WHERE h.{shoe_of} = s.id)"
        f" AS last_number, (SELECT h.id FROM {hand} h WHERE h.{key} = %s) AS repeat_id,"
        f" (SELECT c.{count_only} FROM {_table(CountSetup)} c WHERE c.{event_of} ="
        f" s.{_column(Shoe, 'event')}) AS count_only FROM {_table(Shoe)} s WHERE s.id = %s"
    )


def shoe_with_event(shoe_id: int) -> Shoe | None:
    """The shoe with its event (as ``select_related("event")``), or ``None``."""
    shoes = Shoe.objects.raw(f"SELECT * FROM {_table(Shoe)} WHERE id = %s", [shoe_id])
    shoe = next(iter(shoes), None)
    if shoe is not None:
        _with_event(shoe)
    return shoe


def _with_event(shoe: Shoe) -> None:
    events = Event.objects.raw(f"SELECT * FROM {_table(Event)} WHERE id = %s", [shoe.event_id])
    shoe.event = next(iter(events))


def shoe_for_save(shoe_id: int, key: uuid.UUID | None) -> tuple[Shoe, int, int | None]:
    """The shoe with its event, as they stand; the number of its last hand (0 for none); and
    the hand recorded under idempotency ``key``, if any. The shoe's ``count_only`` says whether
    its night is kept by its count alone (``ledger.count``: no hand is logged there)."""
    key_field = Hand._meta.get_field("idempotency_key")
    prepared = key_field.get_db_prep_value(key, connection)
    shoe = next(iter(Shoe.objects.raw(_shoe_sql(), [prepared, shoe_id])))
    _with_event(shoe)
    last_number: int | None = getattr(shoe, "last_number", None)
    repeat_id: int | None = getattr(shoe, "repeat_id", None) if key is not None else None
    return shoe, last_number or 0, repeat_id


@cache
def _seated_sql() -> str:
    seating = _table(Seating)
    shoe_of, guest_of = _column(Seating, "shoe"), _column(Seating, "guest")
    first, last = _column(Seating, "from_hand"), _column(Seating, "to_hand")
    return (
        f"SELECT g.*, s.{_column(Seating, 'seat')} AS seat_number FROM {_table(Guest)} g"
        f" JOIN {seating} s ON s.{guest_of} = g.id WHERE s.{shoe_of} = %s AND s.{first} <= %s"
        f" AND (s.{last} IS NULL OR s.{last} >= %s)"
    )


def seated_at(shoe_id: int, number: int) -> dict[int, Guest]:
    """Who sat where for hand ``number`` of the shoe: seat → guest (``Seating.objects.at``)."""
    guests = Guest.objects.raw(_seated_sql(), [shoe_id, number, number])
    return {getattr(guest, "seat_number"): guest for guest in guests}  # noqa: B009


@cache
def _nets_sql() -> str:
    bet, hand = _table(Bet), _table(Hand)
    guest_of, hand_of, net = _column(Bet, "guest"), _column(Bet, "hand"), _column(Bet, "net")
    return (
        f"SELECT b.{guest_of}, SUM(b.{net}) FROM {bet} b JOIN {hand} h ON h.id = b.{hand_of}"
        f" WHERE h.{_column(Hand, 'shoe')} = %s GROUP BY b.{guest_of}"
    )


def shoe_nets(shoe_id: int) -> dict[int, Decimal]:
    """Each guest's net over the shoe so far, by guest id."""
    with connection.cursor() as cursor:
        cursor.execute(_nets_sql(), [shoe_id])
        return {guest_id: from_cents(cents) for guest_id, cents in cursor.fetchall()}
