"""A night or a season for other tools: the same tables as CSV files (one per table, in a zip,
or one table alone) and as one JSON document, with stable ids.

Every row is named by the database's own ids (``night_id``, ``guest_id``, ``hand_id``,
``bet_id``; a money row's ``row_id`` is its kind and its row's id). They do not change from one
export to the next (a renamed guest keeps theirs) and survive ``manage.py backup`` and
``restore``, which write the ledger's rows with their primary keys. The formats, column by
column, are in docs/operations.md ("Exports for other tools").

Text a spreadsheet would read as a formula (a cell starting with ``=``, ``+``, ``-``, ``@``, a
tab or a carriage return) is written with a ``'`` before it in the CSV files, as the workbook
keeps such text as text; numbers are written as numbers. JSON keeps every text as it is, and
every amount as a decimal string ("-12.50"): a float could not hold it exactly.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import Event, Hand
from ledger.count.selectors import night_count
from ledger.models import (
    Adjustment,
    Bet,
    Charge,
    ChipMove,
    CountSetup,
    EventGuest,
    Guest,
    GuestEventResult,
    Settlement,
    Transfer,
)
from ledger.money.figures import nights_figures

FORMAT = "shoebook-ledger"
VERSION = 1
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

Value = str | int | bool | Decimal | date | datetime | dict[str, Any] | list[Any] | None
Rows = Iterator[tuple[Value, ...]]


@dataclass(frozen=True)
class Table:
    """One table of an export: its name (the CSV file's, the JSON key), its columns, and a
    function that writes its rows (each a tuple in the columns' order)."""

    name: str
    columns: tuple[str, ...]
    rows: Callable[[Sequence[Event]], Rows]


def _ids(events: Sequence[Event]) -> list[int]:
    return [event.pk for event in events]


def _row_id(kind: str, pk: int | None) -> str | None:
    return None if pk is None else f"{kind}-{pk}"


NIGHTS = ("night_id", "name", "date", "venue", "kind", "game", "rules", "decks", "table_min",
          "table_max", "currency_symbol", "money_per_chip", "currency", "count_only",
          "closed_at")  # fmt: skip


def night_rows(events: Sequence[Event]) -> Rows:
    count_only = set(
        CountSetup.objects.filter(event__in=_ids(events), count_only=True).values_list(
            "event_id", flat=True
        )
    )
    for event in events:
        yield (
            event.pk, event.name, event.date, event.venue, event.kind, event.game, event.rules,
            event.decks, event.table_min, event.table_max, event.currency_symbol,
            event.money_per_chip, event.currency, event.pk in count_only, event.closed_at,
        )  # fmt: skip


GUESTS = ("guest_id", "name")


def guest_rows(events: Sequence[Event]) -> Rows:
    """Every guest on the nights' lists or in their money rows, by name. One query."""
    ids = _ids(events)
    guests = Guest.objects.filter(
        Q(pk__in=EventGuest.objects.filter(event__in=ids).values("guest_id"))
        | Q(pk__in=GuestEventResult.objects.filter(event__in=ids).values("guest_id"))
        | Q(pk__in=Settlement.objects.filter(event__in=ids).values("guest_id"))
        | Q(pk__in=Transfer.objects.filter(event__in=ids).values("payer_id"))
        | Q(pk__in=Transfer.objects.filter(event__in=ids).values("payee_id"))
        | Q(pk__in=ChipMove.objects.filter(event__in=ids).values("guest_id"))
    )
    yield from guests.order_by("name_key", "pk").values_list("pk", "name")


RESULTS = ("night_id", "guest_id", "guest", "hands", "wagered", "gross", "commission", "net")


def result_rows(events: Sequence[Event]) -> Rows:
    """Each guest's result at each night, as every other output shows it
    (``ledger.money.figures``): ``gross`` and ``commission`` blank where they are not known (a
    night kept by its count alone), ``net`` with adjustments, a count and a tournament's charges."""
    figures = {
        (night.event.pk, guest.guest_id): guest
        for night in nights_figures(events)
        for guest in night.guests
    }
    rows = GuestEventResult.objects.filter(event__in=_ids(events)).order_by(
        "event__date", "event_id", "guest__name_key", "guest_id"
    )
    for event_id, guest_id, name, hands, wagered in rows.values_list(
        "event_id", "guest_id", "guest__name", "hands", "stake"
    ):
        guest = figures[(event_id, guest_id)]
        yield event_id, guest_id, name, hands, wagered, guest.gross, guest.commission, guest.net


HANDS = ("hand_id", "night_id", "shoe", "hand", "player_cards", "banker_cards", "result",
         "player_pair", "banker_pair")  # fmt: skip
_ORDER = ("shoe__event__date", "shoe__event_id", "shoe__number", "number")


def hand_rows(events: Sequence[Event]) -> Rows:
    """Every hand (a guest-banked night's coups too: the ponte's cards are ``player_cards``);
    a hand entered by its result alone has no cards and no pairs (empty)."""
    hands = Hand.objects.filter(shoe__event__in=_ids(events)).order_by(*_ORDER)
    for pk, event, shoe, number, player, banker, winner, player_pair, banker_pair in (
        hands.values_list(
            "pk", "shoe__event_id", "shoe__number", "number", "player_cards", "banker_cards",
            "winner", "player_pair", "banker_pair",
        ).iterator(chunk_size=5000)
    ):  # fmt: skip
        noted = bool(player)
        yield (pk, event, shoe, number, player, banker, winner,
               player_pair if noted else None, banker_pair if noted else None)  # fmt: skip


BETS = ("bet_id", "hand_id", "night_id", "shoe", "hand", "seat", "guest_id", "guest", "bet",
        "cover_kind", "stake", "gross", "commission", "net")  # fmt: skip


def bet_rows(events: Sequence[Event]) -> Rows:
    bets = Bet.objects.filter(event__in=_ids(events)).order_by(
        *(f"hand__{field}" for field in _ORDER), "seat", "id"
    )
    yield from bets.values_list(
        "pk", "hand_id", "event_id", "hand__shoe__number", "hand__number", "seat", "guest_id",
        "guest__name", "bet_type", "cover_kind", "stake", "gross", "commission", "net",
    ).iterator(chunk_size=5000)  # fmt: skip


MONEY = ("row_id", "night_id", "kind", "detail", "guest_id", "guest", "other_id", "other",
         "amount", "in_balance", "recorded_at", "note", "voids")  # fmt: skip


def money_rows(events: Sequence[Event]) -> Rows:
    """Every row that moves money, one per guest it moves, signed as that guest's balance reads
    it: the guest's result at the night (``result``), settlements, and each transfer twice (for
    its payer, plus; for its payee, minus; the house is no row). These are ``in_balance``: a
    guest's balance is their sum. Then what a result is made of, for the record: a tournament's
    charges, the count's adjustments and chips (``in_balance`` false). A void is a row of its
    own, the amount the other way, naming the row it voids. One query per kind."""
    ids = _ids(events)
    order = ("event__date", "event_id", "recorded_at", "id")
    for event_id, guest_id, name, net in (
        GuestEventResult.objects.filter(event__in=ids)
        .order_by("event__date", "event_id", "guest__name_key", "guest_id")
        .values_list("event_id", "guest_id", "guest__name", "net")
    ):
        yield (f"result-{event_id}-{guest_id}", event_id, "result", "", guest_id, name, None,
               None, net, True, None, "", None)  # fmt: skip
    settlements = Settlement.objects.filter(event__in=ids).order_by(*order)
    for pk, event_id, guest_id, name, amount, method, at, note, voids in settlements.values_list(
        "pk", "event_id", "guest_id", "guest__name", "amount", "method", "recorded_at", "note",
        "voids_id",
    ):  # fmt: skip
        yield (f"settlement-{pk}", event_id, "settlement", method, guest_id, name, None, None,
               amount, True, at, note, _row_id("settlement", voids))  # fmt: skip
    transfers = Transfer.objects.filter(event__in=ids).order_by(*order)
    for pk, event_id, payer, payer_name, payee, payee_name, amount, in_chips, at, note, voids in (
        transfers.values_list(
            "pk", "event_id", "payer_id", "payer__name", "payee_id", "payee__name", "amount",
            "in_chips", "recorded_at", "note", "voids_id",
        )
    ):  # fmt: skip
        how = "in_chips" if in_chips else ""
        for side, guest_id, name, other_id, other, signed in (
            ("payer", payer, payer_name, payee, payee_name, amount),
            ("payee", payee, payee_name, payer, payer_name, -amount),
        ):
            if guest_id is not None:
                voided = None if voids is None else f"transfer-{voids}-{side}"
                yield (f"transfer-{pk}-{side}", event_id, "transfer", how or side, guest_id,
                       name, other_id, other, signed, True, at, note, voided)  # fmt: skip
    charges = Charge.objects.filter(event__in=ids).order_by(*order)
    for pk, event_id, guest_id, name, kind, amount, at, note in charges.values_list(
        "pk", "event_id", "guest_id", "guest__name", "kind", "amount", "recorded_at", "note"
    ):
        yield (f"charge-{pk}", event_id, "charge", kind, guest_id, name, None, None, amount,
               False, at, note, None)  # fmt: skip
    adjustments = Adjustment.objects.filter(event__in=ids).order_by(*order)
    for pk, event_id, guest_id, name, amount, at, reason, voids in adjustments.values_list(
        "pk", "event_id", "guest_id", "guest__name", "amount", "recorded_at", "reason", "voids_id"
    ):
        yield (f"adjustment-{pk}", event_id, "adjustment", "", guest_id, name, None, None,
               amount, False, at, reason, _row_id("adjustment", voids))  # fmt: skip
    chips = ChipMove.objects.filter(event__in=ids).order_by(*order)
    for pk, event_id, guest_id, name, kind, source, amount, at, note, voids in chips.values_list(
        "pk", "event_id", "guest_id", "guest__name", "kind", "source", "chips", "recorded_at",
        "note", "voids_id",
    ):  # fmt: skip
        detail = f"{kind}:{source}" if source else kind
        yield (f"chips-{pk}", event_id, "chips", detail, guest_id, name, None, None, amount,
               False, at, note, _row_id("chips", voids))  # fmt: skip


COUNT = ("night_id", "line", "guest_id", "guest", "taken", "paid_by", "result", "adjustments",
         "expected", "counted", "difference", "kept_by")  # fmt: skip


def count_rows(events: Sequence[Event]) -> Rows:
    """The count of each night that counted its chips, as its page and the workbook's Count
    sheet show it: a line per guest, then the house's tray (``taken``: the tray at the open)."""
    counted = set(
        ChipMove.objects.filter(event__in=_ids(events)).values_list("event_id", flat=True)
    )
    for event in events:
        if event.pk not in counted:
            continue
        night = night_count(event)
        kept_by = "count_only" if night.setup.count_only else "hands"
        for line in night.guests:
            count = line.count
            yield (event.pk, "guest", line.guest.pk, line.guest.name, count.taken,
                   ", ".join(line.bought_by), count.net, count.adjusted, count.expected,
                   count.counted, count.difference, kept_by)  # fmt: skip
        tray = night.reconciliation.tray
        yield (event.pk, "tray", None, "", tray.opening_float, "", tray.house_net, tray.adjusted,
               tray.expected, tray.counted, tray.difference, kept_by)  # fmt: skip


TABLES = (
    Table("nights", NIGHTS, night_rows),
    Table("guests", GUESTS, guest_rows),
    Table("results", RESULTS, result_rows),
    Table("hands", HANDS, hand_rows),
    Table("bets", BETS, bet_rows),
    Table("money", MONEY, money_rows),
    Table("count", COUNT, count_rows),
)
TABLE_NAMES = tuple(table.name for table in TABLES)


def table_named(name: str) -> Table | None:
    return next((table for table in TABLES if table.name == name), None)


# --- CSV ------------------------------------------------------------------------------------


def csv_cell(value: Value) -> str:
    """A value as a CSV cell: numbers and dates as they are, text that a spreadsheet would run
    as a formula behind a ``'``."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return moment(value)
    if isinstance(value, (dict, list)):
        return neutralised(json.dumps(value, sort_keys=True))
    if isinstance(value, str):
        return neutralised(value)
    return str(value)


def moment(value: datetime) -> str:
    """A moment in the site's time zone, to the millisecond: a backup keeps no finer, and an
    export after a restore is the same export."""
    return timezone.localtime(value).isoformat(timespec="milliseconds")


def neutralised(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def table_csv(table: Table, events: Sequence[Event]) -> Iterator[str]:
    return rows_csv(table.columns, table.rows(events))


def rows_csv(columns: Sequence[str], rows: Iterable[Sequence[Value]]) -> Iterator[str]:
    """A header and rows as CSV text, a row at a time (UTF-8 with a byte-order mark, so a
    spreadsheet reads the names right; rows end in CRLF as RFC 4180 has them)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    yield "\ufeff" + buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([csv_cell(value) for value in row])
        yield buffer.getvalue()


def csv_zip(events: Sequence[Event]) -> bytes:
    """Every table as its CSV file (``nights.csv``, ``guests.csv`` …) in one zip."""
    output = io.BytesIO()
    with zipfile.ZipFile(output, "w", zipfile.ZIP_DEFLATED) as archive:
        for table in TABLES:
            with archive.open(f"{table.name}.csv", "w") as file:
                for text in table_csv(table, events):
                    file.write(text.encode())
    return output.getvalue()


# --- JSON -----------------------------------------------------------------------------------


def json_value(value: Value) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        return moment(value)
    if isinstance(value, date):
        return value.isoformat()
    return value


def export_json(events: Sequence[Event], scope: dict[str, Any]) -> Iterator[str]:
    """The export as one JSON document, a piece at a time: the format's name and version, when
    and of what (``scope``), then each table as a list of objects keyed by its columns."""
    head = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.localtime().isoformat(),
        "scope": scope,
    }
    yield json.dumps(head, ensure_ascii=False)[:-1]
    for table in TABLES:
        yield f', "{table.name}": ['
        first = True
        for row in table.rows(events):
            record = {
                column: json_value(value) for column, value in zip(table.columns, row, strict=True)
            }
            yield ("" if first else ", ") + json.dumps(record, ensure_ascii=False)
            first = False
        yield "]"
    yield "}"
