"""Writing a checked sheet as a night: all or nothing, in one transaction, with bulk inserts."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import ngettext_lazy

from games import services as game_services
from games.chips import to_cents
from games.entry import (
    SettledHand,
    TableRules,
)
from games.locks import advisory_lock
from games.models import Event, Hand, Shoe
from ledger.guests.names import name_key
from ledger.hands.coups import coup_row
from ledger.locks import hold_guests
from ledger.models import AuditEntry, Bet, Coup, EventGuest, Guest, Seating
from ledger.money.services import results_refresh
from ledger.workbook.imports.coup_sheet import BankedGame, ParsedCoup, seat_runs
from ledger.workbook.imports.punto_banco_sheet import ParsedHand
from shoebook.base.roles import Actor

# What an import wrote, counted (in every language's plural).
MSG_HANDS = ngettext_lazy("%(count)s hand", "%(count)s hands", "count")
MSG_COUPS = ngettext_lazy("%(count)s coup", "%(count)s coups", "count")
MSG_BETS = ngettext_lazy("%(count)s bet", "%(count)s bets", "count")
MSG_NIGHTS = ngettext_lazy("%(count)s night", "%(count)s nights", "count")
MSG_GUESTS = ngettext_lazy("%(count)s guest", "%(count)s guests", "count")


@dataclass
class Imported:
    event: Event
    created_guests: list[str]
    hands: int
    bets: int


@transaction.atomic
def scoresheet_import(
    *,
    hands: list[ParsedHand],
    name: str,
    on: date,
    table: TableRules,
    by: Actor,
    money_per_chip: Decimal = Decimal(100),
    terms: Mapping[str, object] | None = None,
) -> Imported:
    """Write a checked scoresheet as an event whose shoes are closed, in bulk."""
    settled = [(hand, hand.settled) for hand in hands if hand.settled is not None]
    if len(settled) != len(hands):
        raise ValueError("Only a checked scoresheet is written.")
    names: dict[str, str] = {}  # key → the name as first written in the sheet
    for row in (row for hand in hands for row in hand.rows):
        names.setdefault(row.key, row.guest)
    night = _night(
        name=name,
        on=on,
        table=table,
        by=by,
        money_per_chip=money_per_chip,
        numbers=[(hand.shoe, hand.number) for hand in hands],
        names=names,
        terms=terms,
    )
    rows = _hands(night, [(hand.shoe, hand.number, done) for hand, done in settled])
    guests = night.guests
    bets: list[BetValues] = [
        (
            row.pk,
            night.event.pk,
            bet.seat,
            guests[hand.rows[bet.index].key].pk,
            bet.bet_type.value,
            bet.kind,
            to_cents(bet.stake),
            to_cents(bet.result.gross),
            to_cents(bet.result.commission),
            to_cents(bet.result.net),
        )
        for (hand, done), row in zip(settled, rows, strict=True)
        for bet in done.bets
    ]
    _insert_bets(bets)
    Seating.objects.bulk_create(_seatings(settled, night.shoes, guests, by), batch_size=2000)
    return _imported(night, hands=len(rows), bets=len(bets))


@transaction.atomic
def coup_sheet_import(
    *,
    coups: list[ParsedCoup],
    name: str,
    on: date,
    table: TableRules,
    game: BankedGame,
    by: Actor,
    money_per_chip: Decimal = Decimal(100),
    terms: Mapping[str, object] | None = None,
) -> Imported:
    """Write a checked guest-banked scoresheet as an event of its game whose shoes are closed:
    each coup a hand, its bets (the pontes' and the bank's) and its :class:`Coup` row."""
    settled = [(coup, coup.settled) for coup in coups if coup.settled is not None]
    if len(settled) != len(coups):
        raise ValueError("Only a checked scoresheet is written.")
    names: dict[str, str] = {}
    for person in (person for coup in coups for person in coup.appearances()):
        names.setdefault(person.key, person.name)
    night = _night(
        name=name,
        on=on,
        table=table,
        by=by,
        money_per_chip=money_per_chip,
        numbers=[(coup.shoe, coup.number) for coup in coups],
        names=names,
        game=game,
        terms=terms,
    )
    event, guests = night.event, night.guests
    rows = _hands(night, [(coup.shoe, coup.number, done) for coup, done in settled])
    bets: list[BetValues] = [
        (
            row.pk,
            event.pk,
            bet.seat,
            guests[coup.seated[bet.seat]].pk,
            bet.bet_type.value,
            bet.kind,
            to_cents(bet.stake),
            to_cents(bet.result.gross),
            to_cents(bet.result.commission),
            to_cents(bet.result.net),
        )
        for (coup, done), row in zip(settled, rows, strict=True)
        for bet in done.bets
    ]
    _insert_bets(bets)
    Coup.objects.bulk_create(
        [
            coup_row(
                row, event, done.coup, {seat: guests[key] for seat, key in coup.seated.items()}
            )
            for (coup, done), row in zip(settled, rows, strict=True)
            if done.coup is not None
        ],
        batch_size=2000,
    )
    Seating.objects.bulk_create(
        [
            Seating(
                shoe=night.shoes[run.shoe],
                seat=run.seat,
                guest=guests[run.key],
                from_hand=run.first,
                to_hand=run.last,
                seated_by=by,
            )
            for run in seat_runs(coups)
        ],
        batch_size=2000,
    )
    return _imported(night, hands=len(rows), bets=len(bets))


@dataclass
class _Night:
    event: Event
    guests: dict[str, Guest]  # key → guest
    created: list[str]
    shoes: dict[int, Shoe]
    by: Actor
    now: datetime


def _night(
    *,
    name: str,
    on: date,
    table: TableRules,
    by: Actor,
    money_per_chip: Decimal,
    numbers: list[tuple[int, int]],
    names: dict[str, str],
    game: BankedGame | None = None,
    terms: Mapping[str, object] | None = None,
) -> _Night:
    """The event, its guests (the new ones created) and its shoes, closed. ``terms``: more of
    the event's fields (venue, currency…), as a night's workbook gives them."""
    fields: dict[str, object] = {
        "hands_per_shoe": max((number for _shoe, number in numbers), default=40),
        **(game.fields() if game is not None else {}),
        **(terms or {}),
    }
    event = game_services.event_create(
        name=name,
        date=on,
        rules=table.rules,
        by=by,
        decks=table.decks,
        money_per_chip=money_per_chip,
        table_min=table.table_min,
        table_max=table.table_max,
        rounding=table.rounding.way.value,
        smallest_chip=table.rounding.chip,
        **fields,  # type: ignore[arg-type]
    )
    guests, created = guests_by_key(names)
    EventGuest.objects.bulk_create(EventGuest(event=event, guest=g) for g in guests.values())
    now = timezone.now()
    shoes = {
        number: Shoe(event=event, number=number, opened_by=by, closed_at=now, closed_by=by)
        for number in sorted({shoe for shoe, _number in numbers})
    }
    Shoe.objects.bulk_create(shoes.values())
    return _Night(event, guests, created, shoes, by, now)


def _hands(night: _Night, settled: list[tuple[int, int, SettledHand]]) -> list[Hand]:
    rows = [
        Hand(
            shoe=night.shoes[shoe],
            number=number,
            logged_by=night.by,
            logged_at=night.now,
            player_cards=done.player_cards,
            banker_cards=done.banker_cards,
            winner=done.outcome.winner.value,
            player_pair=done.outcome.player_pair,
            banker_pair=done.outcome.banker_pair,
        )
        for shoe, number, done in settled
    ]
    Hand.objects.bulk_create(rows, batch_size=2000)
    return rows


def _imported(night: _Night, *, hands: int, bets: int) -> Imported:
    event = night.event
    results_refresh(event_id=event.pk, guest_ids={guest.pk for guest in night.guests.values()})
    AuditEntry.objects.create(
        action=AuditEntry.Action.IMPORT,
        event=event,
        by=night.by,
        summary=str(event),
        after={"hands": hands, "bets": bets, "new_guests": night.created},
    )
    return Imported(event=event, created_guests=night.created, hands=hands, bets=bets)


BET_COLUMNS = (
    "hand_id", "event_id", "seat", "guest_id", "bet_type", "cover_kind", "stake", "gross",
    "commission", "net",
)  # fmt: skip
# A bet as a row of BET_COLUMNS, money in cents.
BetValues = tuple[int, int, int, int, str, str, int, int, int, int]


def _insert_bets(rows: list[BetValues]) -> None:
    """Insert bets as plain rows (money in cents, as MoneyField stores it). The ORM's bulk_create
    spends more on preparing each field than the rest of an import together; the database's own
    checks (stake > 0, net = gross − commission, one bet type per seat) still hold every row."""
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(Bet._meta.db_table),
        ", ".join(quote(column) for column in BET_COLUMNS),
        ", ".join(["%s"] * len(BET_COLUMNS)),
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[start : start + 5000])


def guests_by_key(names: dict[str, str]) -> tuple[dict[str, Guest], list[str]]:
    """The guests the sheet names (key → guest), creating the new ones; and their names. The
    guests found are held until the import commits (``ledger.locks.hold_guests``): a merge on
    another device meanwhile waits, or, done first, is seen (its guest read again, gone)."""
    for attempt in (1, 2):
        found = {guest.name_key: guest for guest in Guest.objects.filter(name_key__in=list(names))}
        try:
            hold_guests([guest.pk for guest in found.values()])
            break
        except ValidationError:  # one was merged away between the read and the hold
            if attempt == 2:
                raise
    new = [Guest(name=names[key], name_key=key) for key in sorted(names) if key not in found]
    Guest.objects.bulk_create(new)
    found |= {guest.name_key: guest for guest in new}
    return found, sorted(guest.name for guest in new)


@dataclass
class _Run:
    """A guest in one seat of a shoe, from one hand to another."""

    guest: Guest
    first: int
    last: int


def _seatings(
    settled: list[tuple[ParsedHand, SettledHand]],
    shoes: dict[int, Shoe],
    guests: dict[str, Guest],
    by: Actor,
) -> Iterator[Seating]:
    """Who sat where, from the bets: a run per guest and seat within a shoe, ended when another
    guest bets in that seat or the guest bets from another seat."""
    runs: dict[tuple[int, int], _Run] = {}  # (shoe, seat) -> run
    seat_of: dict[tuple[int, int], int] = {}  # (shoe, guest id) -> seat

    def close(key: tuple[int, int]) -> Seating:
        run = runs.pop(key)
        del seat_of[(key[0], run.guest.pk)]
        return Seating(
            shoe=shoes[key[0]],
            seat=key[1],
            guest=run.guest,
            from_hand=run.first,
            to_hand=run.last,
            seated_by=by,
        )

    for hand, done in settled:
        for bet in done.bets:
            key, guest = (hand.shoe, bet.seat), guests[hand.rows[bet.index].key]
            run = runs.get(key)
            if run is not None and run.guest == guest:
                run.last = hand.number
                continue
            if run is not None:
                yield close(key)
            moved_from = seat_of.get((hand.shoe, guest.pk))
            if moved_from is not None:
                yield close((hand.shoe, moved_from))
            runs[key] = _Run(guest, hand.number, hand.number)
            seat_of[(hand.shoe, guest.pk)] = bet.seat
    for key in list(runs):
        yield close(key)


def _night_key(name: str) -> str:
    return " ".join(name_key(name).split())  # as guests' names compare, spaces collapsed


class NightTaken(ValidationError):
    """The night is in the ledger already: another import of it, sent at the same moment,
    wrote it first (the form's check ran before either had)."""

    def __init__(self, event: Event) -> None:
        super().__init__(f"{event.name} of {event.date:%Y-%m-%d} is in the ledger already.")
        self.event = event


def claim_night(name: str, on: date) -> None:
    """Inside an import's transaction, before it writes the night: refuse it if the ledger has
    it already, as the import's own check would have had the two not run at once. On PostgreSQL
    a lock on the night's name and day (held to the commit) makes a second import of it wait
    for the first and then see its night; SQLite's one writer does that already."""
    key = f"{on:%Y-%m-%d}\x1f{_night_key(name)}".encode()
    advisory_lock(int.from_bytes(hashlib.sha256(key).digest()[:8], "big", signed=True))
    existing = night_already_in(name, on)
    if existing is not None:
        raise NightTaken(existing)


def night_already_in(name: str, on: date) -> Event | None:
    """The night of this name on this day already in the ledger, if any: names compared as
    guests' are (NFKC, case folded) with their spaces collapsed, so that an import sent again,
    retyped or renamed only in case or width, is not a second night."""
    key = _night_key(name)
    same_day = Event.objects.filter(date=on).only("pk", "name", "date").order_by("pk")
    return next((event for event in same_day if _night_key(event.name) == key), None)
