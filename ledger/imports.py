"""Scoresheet import: a night kept on paper or in a spreadsheet, one row per bet.

All or nothing. Every row is checked with the rules core (cards, drawing rules, result, bets) and
every problem is reported with its data row, file line and column; only a sheet without a single
problem is written, in one transaction, with bulk inserts.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.chips import to_cents
from games.entry import (
    BetEntry,
    EntryRejected,
    Field,
    HandEntry,
    SettledHand,
    TableRules,
    read_seat,
    settle_hand,
)
from games.models import Event, Hand, Shoe
from ledger.models import AuditEntry, Bet, EventGuest, Guest, Seating
from ledger.names import InvalidName, clean_name, name_key
from ledger.services import (
    MSG_GUEST_AMBIGUOUS,
    candidate_names,
    guests_matching,
    results_refresh,
)
from shoebook.roles import Actor

if TYPE_CHECKING:
    from openpyxl import Workbook

COLUMNS = (
    "shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
    "seat", "guest", "bet", "stake",
)  # fmt: skip
MAX_PROBLEMS = 200
# A night is at most a few tens of thousands of bets; a file past these is refused, unread.
MAX_ROWS = 20_000
MAX_COLUMNS = 40
MAX_UNPACKED_BYTES = 100_000_000  # a workbook's parts, unpacked: past this it is refused unread


class ScoresheetUnreadable(Exception):
    """The file is not a CSV or XLSX scoresheet at all (encoding, format)."""


@dataclass(frozen=True)
class SheetProblem:
    row: int  # data row, 1 = the first row under the header; 0 = the file itself
    line: int  # line of the CSV file / row of the sheet
    column: str
    reason: str

    def __str__(self) -> str:
        if self.row == 0:
            return _("{column}: {reason}").format(column=self.column, reason=self.reason)
        return _("Row {row} (line {line}), {column}: {reason}").format(
            row=self.row, line=self.line, column=self.column, reason=self.reason
        )


class ScoresheetInvalid(Exception):
    def __init__(self, problems: list[SheetProblem]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s)")


# --- reading --------------------------------------------------------------------------------


def read_rows(name: str, content: bytes) -> Iterator[tuple[int, dict[str, str]]]:
    """(file line, {column: text}) for every data row of a .csv or .xlsx scoresheet."""
    if name.lower().endswith(".xlsx"):
        return _xlsx_rows(content)
    return _csv_rows(content)


def _csv_rows(content: bytes) -> Iterator[tuple[int, dict[str, str]]]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ScoresheetUnreadable(
            _("The file is not UTF-8 text (CSV) or an .xlsx workbook.")
        ) from error
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader, None)
    if header is None:
        raise ScoresheetUnreadable(_("The file is empty."))
    names = [column.strip().lower() for column in header[:MAX_COLUMNS]]
    _check_columns(names)
    for count, row in enumerate(reader, start=1):
        _check_size(count)
        if not any(cell.strip() for cell in row):
            continue
        yield reader.line_num, dict(zip(names, (cell.strip() for cell in row), strict=False))


def _check_size(rows_read: int) -> None:
    if rows_read > MAX_ROWS:
        raise ScoresheetUnreadable(
            _("The file has more than {rows:,} rows: import one night at a time.").format(
                rows=MAX_ROWS
            )
        )


def _xlsx_rows(content: bytes) -> Iterator[tuple[int, dict[str, str]]]:
    """The rows of the first sheet with the scoresheet's columns (in a workbook exported by
    Shoebook, Summary comes first), else of the first sheet. Read as a stream, and no further
    than :data:`MAX_ROWS` rows of :data:`MAX_COLUMNS` cells: a junk file is refused early."""
    from openpyxl import load_workbook

    # A workbook comes from outside: whatever its parser trips on (a broken zip, bad XML, a
    # missing part) means the file is unreadable, never a server error.
    unreadable = _("The file is not a readable .xlsx workbook.")
    try:
        sized = _with_declared_sizes(content)
        workbook = load_workbook(io.BytesIO(sized), read_only=True, data_only=True)
    except ScoresheetUnreadable:
        raise
    except Exception as error:
        raise ScoresheetUnreadable(unreadable) from error
    try:
        names, rows = _scoresheet_in(workbook)
        _check_columns(names)
        for line, row in enumerate(rows, start=2):
            _check_size(line - 1)
            cells = ["" if cell is None else _as_text(cell) for cell in row]
            if any(cells):
                yield line, dict(zip(names, cells, strict=False))
    except (ScoresheetUnreadable, ScoresheetInvalid):
        raise
    except Exception as error:
        raise ScoresheetUnreadable(unreadable) from error
    finally:
        workbook.close()


def _with_declared_sizes(content: bytes) -> bytes:
    """The workbook, each sheet declaring a size. openpyxl reads a whole sheet that declares
    none (our own exports, many tools) before its first row, however large; a declared size,
    even a wrong one, lets it start at once — and the rows are then read whatever was declared
    (``reset_dimensions``), up to :data:`MAX_ROWS`."""
    source = zipfile.ZipFile(io.BytesIO(content))
    if sum(part.file_size for part in source.infolist()) > MAX_UNPACKED_BYTES:
        _check_size(MAX_ROWS + 1)
    sheets = [part for part in source.infolist() if part.filename.startswith("xl/worksheets/")]
    undeclared = [part for part in sheets if not _declares_size(source, part)]
    if not undeclared:
        return content
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as sized:
        for part in source.infolist():
            data = source.read(part)
            if part in undeclared:
                data = data.replace(b"<sheetData", b'<dimension ref="A1"/><sheetData', 1)
            sized.writestr(part, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    return out.getvalue()


def _declares_size(source: zipfile.ZipFile, part: zipfile.ZipInfo) -> bool:
    with source.open(part) as stream:
        head = stream.read(65536)
    return b"<dimension" in head.split(b"<sheetData", 1)[0]


def _scoresheet_in(workbook: Workbook) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """The header and the rows still to read of the sheet that holds the scoresheet."""
    for sheet in workbook.worksheets:
        _check_size((sheet.max_row or 1) - 1)  # the size the file declares, if it does
        sheet.reset_dimensions()  # then read every row there is, whatever was declared
        rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
        names = _header(next(rows, None))
        if all(column in names for column in COLUMNS):
            return names, rows
    rows = workbook.worksheets[0].iter_rows(values_only=True, max_col=MAX_COLUMNS)
    header = next(rows, None)
    if header is None:
        raise ScoresheetUnreadable(_("The file is empty."))
    return _header(header), rows


def _header(cells: tuple[object, ...] | None) -> list[str]:
    return [str(cell or "").strip().lower() for cell in cells or ()]


def _as_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _check_columns(names: list[str]) -> None:
    missing = [column for column in COLUMNS if column not in names]
    if missing:
        raise ScoresheetInvalid(
            [SheetProblem(0, 1, column, _("missing column")) for column in missing]
        )


# --- checking -------------------------------------------------------------------------------

# Where a problem of the rules core shows in the sheet.
COLUMN_OF_FIELD = {Field.CARDS: "player_cards/banker_cards"}


@dataclass
class BetRow:
    row: int
    line: int
    guest: str  # the name as kept (``ledger.names.clean_name``)
    bet: BetEntry
    seat: int | None  # the seat as read, to match guests and seats within the hand
    # Who the row's guest is: the ``name_key`` of the one known guest the name (or alias) means,
    # else the name's own key (a new guest, or a name that could be several: refused).
    key: str


@dataclass
class ParsedHand:
    shoe: int
    number: int
    first_row: int
    line: int
    facts: tuple[str, ...]  # cards, result and pair flags, as typed
    rows: list[BetRow] = field(default_factory=list)
    settled: SettledHand | None = None

    def entry(self) -> HandEntry:
        player, banker, result, player_pair, banker_pair = self.facts
        return HandEntry(
            player_cards=player,
            banker_cards=banker,
            result=result,
            player_pair=player_pair,
            banker_pair=banker_pair,
            bets=tuple(row.bet for row in self.rows),
        )


class Checker:
    """Reads rows into hands, noting every problem instead of stopping at the first. What a
    hand is and what its bets pay is the rules core's to say (``games.entry.settle_hand``, as
    at the table); this reads the file's layout and who sat where."""

    def __init__(self, table: TableRules, identity: dict[str, str] | None = None) -> None:
        self.table = table
        self.identity = identity or {}  # a name's key → the key of the guest it means
        self.problems: list[SheetProblem] = []
        self.hands: dict[tuple[int, int], ParsedHand] = {}

    def problem(self, row: int, line: int, column: str, reason: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(SheetProblem(row, line, column, reason))

    def check(self, rows: Iterator[tuple[int, dict[str, str]]]) -> list[ParsedHand]:
        for row_number, (line, row) in enumerate(rows, start=1):
            self._row(row_number, line, row)
        hands = sorted(self.hands.values(), key=lambda hand: (hand.shoe, hand.number))
        self._numbering(hands)
        for hand in hands:
            self._settle(hand)
        return hands

    def _number(
        self, row: int, line: int, column: str, text: str, low: int, high: int
    ) -> int | None:
        value = int(text) if text.isascii() and text.isdigit() else None
        if value is None or not low <= value <= high:
            self.problem(
                row,
                line,
                column,
                _("“{text}” is not a whole number from {low} to {high}.").format(
                    text=text, low=low, high=high
                ),
            )
            return None
        return value

    def _row(self, row: int, line: int, cells: dict[str, str]) -> None:
        shoe = self._number(row, line, "shoe", cells.get("shoe", ""), 1, 999)
        number = self._number(row, line, "hand", cells.get("hand", ""), 1, 999)
        if shoe is None or number is None:
            return
        facts = tuple(
            cells.get(name, "")
            for name in ("player_cards", "banker_cards", "result", "player_pair", "banker_pair")
        )
        hand = self.hands.get((shoe, number))
        if hand is None:
            hand = self.hands[(shoe, number)] = ParsedHand(shoe, number, row, line, facts)
        elif facts != hand.facts:
            self.problem(
                row,
                line,
                "player_cards/banker_cards/result",
                _("this row's cards or result differ from row {row} of the same hand.").format(
                    row=hand.first_row
                ),
            )
            return
        self._bet(row, line, cells, hand)

    def _bet(self, row: int, line: int, cells: dict[str, str], hand: ParsedHand) -> None:
        seat_text, guest, bet_text, stake_text = (
            cells.get(name, "") for name in ("seat", "guest", "bet", "stake")
        )
        if not (seat_text or guest or bet_text or stake_text):
            return  # a hand without bets
        try:
            guest = clean_name(guest)
        except InvalidName as error:
            self.problem(row, line, "guest", str(error))
            return
        seat = read_seat(seat_text)
        key = self.identity.get(name_key(guest), name_key(guest))
        for other in hand.rows:
            other_seat = other.seat
            if seat is None or other_seat is None:
                continue
            if other_seat == seat and other.key != key:
                reason = _("seat {seat} already has {guest} in this hand.")
                self.problem(row, line, "guest", reason.format(seat=seat, guest=other.guest))
                return
            if other_seat != seat and other.key == key:
                reason = _("{guest} already sits in seat {seat} in this hand.")
                self.problem(row, line, "seat", reason.format(guest=guest, seat=other_seat))
                return
        entry = BetEntry(seat_text, bet_text, stake_text)
        hand.rows.append(BetRow(row, line, guest, entry, seat, key))

    def _numbering(self, hands: list[ParsedHand]) -> None:
        shoes: dict[int, list[ParsedHand]] = defaultdict(list)
        for hand in hands:
            shoes[hand.shoe].append(hand)
        for expected, shoe in enumerate(sorted(shoes), start=1):
            if shoe != expected:
                first = shoes[shoe][0]
                self.problem(
                    first.first_row,
                    first.line,
                    "shoe",
                    _("shoes are numbered 1, 2, 3…: shoe {expected} is missing.").format(
                        expected=expected
                    ),
                )
                return
            for position, hand in enumerate(shoes[shoe], start=1):
                if hand.number != position:
                    self.problem(
                        hand.first_row,
                        hand.line,
                        "hand",
                        _(
                            "hands are numbered 1, 2, 3… in each shoe: hand {expected} of "
                            "shoe {shoe} is missing."
                        ).format(expected=position, shoe=shoe),
                    )
                    break

    def _settle(self, hand: ParsedHand) -> None:
        try:
            hand.settled = settle_hand(hand.entry(), self.table)
        except EntryRejected as rejected:
            for found in rejected.problems:
                where = hand.rows[found.bet] if found.bet is not None else None
                self.problem(
                    where.row if where else hand.first_row,
                    where.line if where else hand.line,
                    COLUMN_OF_FIELD.get(found.field, found.field.value),
                    found.message(_),
                )


def check_scoresheet(name: str, content: bytes, table: TableRules) -> list[ParsedHand]:
    """The scoresheet's hands, or ``ScoresheetInvalid`` listing every problem."""
    try:
        rows = list(read_rows(name, content))
    except csv.Error as error:
        raise ScoresheetUnreadable(
            _("The CSV file is malformed: {error}").format(error=error)
        ) from error
    matches = guests_matching({key for _line, cells in rows if (key := _guest_key(cells))})
    identity = {key: found[0].name_key for key, found in matches.items() if len(found) == 1}
    checker = Checker(table, identity)
    hands = checker.check(iter(rows))
    if not hands and not checker.problems:
        checker.problem(0, 1, "file", _("no hands in the file."))
    for row, names in _ambiguous_names(hands, matches):
        checker.problem(row.row, row.line, "guest", str(MSG_GUEST_AMBIGUOUS).format(
            name=row.guest, names=names))  # fmt: skip
    if checker.problems:
        raise ScoresheetInvalid(sorted(checker.problems, key=lambda p: (p.row, p.column)))
    return hands


# --- writing --------------------------------------------------------------------------------


@dataclass
class Imported:
    event: Event
    created_guests: list[str]
    hands: int
    bets: int


@transaction.atomic
def scoresheet_import(
    *, hands: list[ParsedHand], name: str, on: date, table: TableRules, by: Actor,
    yen_per_chip: Decimal = Decimal(100),
) -> Imported:  # fmt: skip
    """Write a checked scoresheet as an event whose shoes are closed, in bulk."""
    event = game_services.event_create(
        name=name, date=on, rules=table.rules, by=by, decks=table.decks,
        yen_per_chip=yen_per_chip, table_min=table.table_min, table_max=table.table_max,
        hands_per_shoe=max(hand.number for hand in hands),
    )  # fmt: skip
    names: dict[str, str] = {}  # key → the name as first written in the sheet
    for row in (row for hand in hands for row in hand.rows):
        names.setdefault(row.key, row.guest)
    guests, created = _guests_by_key(names)
    EventGuest.objects.bulk_create(EventGuest(event=event, guest=g) for g in guests.values())
    now = timezone.now()
    shoes = {
        number: Shoe(event=event, number=number, opened_by=by, closed_at=now, closed_by=by)
        for number in sorted({hand.shoe for hand in hands})
    }
    Shoe.objects.bulk_create(shoes.values())
    settled = [(hand, hand.settled) for hand in hands if hand.settled is not None]
    if len(settled) != len(hands):
        raise ValueError("Only a checked scoresheet is written.")
    rows = [
        Hand(shoe=shoes[hand.shoe], number=hand.number, logged_by=by, logged_at=now,
             player_cards=done.player_cards, banker_cards=done.banker_cards,
             winner=done.outcome.winner.value, player_pair=done.outcome.player_pair,
             banker_pair=done.outcome.banker_pair)
        for hand, done in settled
    ]  # fmt: skip
    Hand.objects.bulk_create(rows, batch_size=2000)
    bets: list[BetValues] = [
        (row.pk, event.pk, bet.seat, guests[hand.rows[bet.index].key].pk,
         bet.bet_type.value, to_cents(bet.stake), to_cents(bet.result.gross),
         to_cents(bet.result.commission), to_cents(bet.result.net))
        for (hand, done), row in zip(settled, rows, strict=True)
        for bet in done.bets
    ]  # fmt: skip
    _insert_bets(bets)
    Seating.objects.bulk_create(_seatings(settled, shoes, guests, by), batch_size=2000)
    results_refresh(event_id=event.pk, guest_ids={guest.pk for guest in guests.values()})
    AuditEntry.objects.create(
        action=AuditEntry.Action.IMPORT,
        event=event,
        by=by,
        summary=str(event),
        after={"hands": len(rows), "bets": len(bets), "new_guests": created},
    )
    return Imported(event=event, created_guests=created, hands=len(rows), bets=len(bets))


BET_COLUMNS = (
    "hand_id", "event_id", "seat", "guest_id", "bet_type", "stake", "gross", "commission", "net",
)  # fmt: skip
# A bet as a row of BET_COLUMNS, money in cents.
BetValues = tuple[int, int, int, int, str, int, int, int, int]


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


def _guests_by_key(names: dict[str, str]) -> tuple[dict[str, Guest], list[str]]:
    """The guests the sheet names (key → guest), creating the new ones; and their names."""
    found = {guest.name_key: guest for guest in Guest.objects.filter(name_key__in=list(names))}
    new = [Guest(name=names[key], name_key=key) for key in sorted(names) if key not in found]
    Guest.objects.bulk_create(new)
    found |= {guest.name_key: guest for guest in new}
    return found, sorted(guest.name for guest in new)


def _guest_key(cells: dict[str, str]) -> str:
    """The key of a row's guest, or "" when the name is not one (the checker says why)."""
    try:
        return name_key(clean_name(cells.get("guest", "")))
    except InvalidName:
        return ""


def _ambiguous_names(
    hands: list[ParsedHand], matches: dict[str, list[Guest]]
) -> list[tuple[BetRow, str]]:
    """Rows whose name could be more than one guest, with the candidates."""
    rows = [row for hand in hands for row in hand.rows]
    return [(row, candidate_names(matches[row.key])) for row in rows
            if len(matches.get(row.key, ())) > 1]  # fmt: skip


@dataclass
class _Run:
    """A guest in one seat of a shoe, from one hand to another."""

    guest: Guest
    first: int
    last: int


def _seatings(settled: list[tuple[ParsedHand, SettledHand]], shoes: dict[int, Shoe],
              guests: dict[str, Guest], by: Actor) -> Iterator[Seating]:  # fmt: skip
    """Who sat where, from the bets: a run per guest and seat within a shoe, ended when another
    guest bets in that seat or the guest bets from another seat."""
    runs: dict[tuple[int, int], _Run] = {}  # (shoe, seat) -> run
    seat_of: dict[tuple[int, int], int] = {}  # (shoe, guest id) -> seat

    def close(key: tuple[int, int]) -> Seating:
        run = runs.pop(key)
        del seat_of[(key[0], run.guest.pk)]
        return Seating(shoe=shoes[key[0]], seat=key[1], guest=run.guest, from_hand=run.first,
                       to_hand=run.last, seated_by=by)  # fmt: skip

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


TEMPLATE_ROWS = (
    COLUMNS,
    ("1", "1", "9 7", "J J 10", "P", "", "", "1", "Aki", "player", "100"),
    ("1", "1", "9 7", "J J 10", "P", "", "", "2", "Ben", "banker", "50"),
    ("1", "2", "", "", "B", "no", "yes", "1", "Aki", "banker_pair", "10"),
    ("1", "2", "", "", "B", "no", "yes", "2", "Ben", "banker", "50"),
)


def template_csv() -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(TEMPLATE_ROWS)
    return buffer.getvalue()
