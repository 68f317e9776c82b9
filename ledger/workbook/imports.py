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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Protocol

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
)
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup
from games.kinds import BancoKind, Game
from games.models import Event, Hand, Shoe
from games.settle import GuestBankedTable, PuntoBancoTable, settle
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import MSG_GUEST_AMBIGUOUS, candidate_names, guests_matching
from ledger.hands.coups import coup_row
from ledger.models import AuditEntry, Bet, Coup, EventGuest, Guest, Seating
from ledger.money.services import results_refresh
from shoebook.base.roles import Actor

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


def read_rows(
    name: str, content: bytes, required: tuple[str, ...] = COLUMNS
) -> Iterator[tuple[int, dict[str, str]]]:
    """(file line, {column: text}) for every data row of a .csv or .xlsx scoresheet whose header
    has the ``required`` columns (Punto Banco's, or a guest-banked game's)."""
    if name.lower().endswith(".xlsx"):
        return _xlsx_rows(content, required)
    return _csv_rows(content, required)


def _csv_rows(content: bytes, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
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
    _check_columns(names, required)
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


def _xlsx_rows(content: bytes, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
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
        names, rows = _scoresheet_in(workbook, required)
        _check_columns(names, required)
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


def _scoresheet_in(
    workbook: Workbook, required: tuple[str, ...]
) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """The header and the rows still to read of the sheet that holds the scoresheet."""
    for sheet in workbook.worksheets:
        _check_size((sheet.max_row or 1) - 1)  # the size the file declares, if it does
        sheet.reset_dimensions()  # then read every row there is, whatever was declared
        rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
        names = _header(next(rows, None))
        if all(column in names for column in required):
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


def _check_columns(names: list[str], required: tuple[str, ...]) -> None:
    missing = [column for column in required if column not in names]
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
    guest: str  # the name as kept (``ledger.guests.names.clean_name``)
    bet: BetEntry
    seat: int | None  # the seat as read, to match guests and seats within the hand
    # Who the row's guest is: the ``name_key`` of the one known guest the name (or alias) means,
    # else the name's own key (a new guest, or a name that could be several: refused).
    key: str


class Numbered(Protocol):
    """A hand or a coup of a scoresheet: where it is in the night, and where in the file."""

    shoe: int
    number: int
    first_row: int
    line: int


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
    hand is and what its bets pay is the rules core's to say (``games.settle.settle``, as
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

    def _numbering(self, hands: Sequence[Numbered], column: str = "hand") -> None:
        """Shoes numbered 1, 2, 3…, and the hands (or coups) of each shoe too."""
        shoes: dict[int, list[Numbered]] = defaultdict(list)
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
                    missing = (
                        _(
                            "hands are numbered 1, 2, 3… in each shoe: hand {expected} of "
                            "shoe {shoe} is missing."
                        )
                        if column == "hand"
                        else _(
                            "coups are numbered 1, 2, 3… in each shoe: coup {expected} of "
                            "shoe {shoe} is missing."
                        )
                    )
                    self.problem(
                        hand.first_row,
                        hand.line,
                        column,
                        missing.format(expected=position, shoe=shoe),
                    )
                    break

    def _settle(self, hand: ParsedHand) -> None:
        try:
            hand.settled = settle(hand.entry(), PuntoBancoTable(self.table))
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
        checker.problem(
            row.row, row.line, "guest", str(MSG_GUEST_AMBIGUOUS).format(name=row.guest, names=names)
        )
    if checker.problems:
        raise ScoresheetInvalid(sorted(checker.problems, key=lambda p: (p.row, p.column)))
    return hands


# --- a guest-banked night: one row per stake, the coup's columns repeated ---------------------

# Chemin de fer's and Baccara banque's scoresheet. A coup's columns are the same on each of its
# rows; the stake's (seat, guest, stake_kind, stake) are each ponte's. The cards and choices are
# the ponte's hand (Chemin de fer) or tableau 1's (``ponte_cards``) and tableau 2's.
COUP_SHEET_COLUMNS = (
    "shoe", "coup", "banker", "banker_seat", "bank", "co_banker", "co_banker_seat",
    "seat", "guest", "stake_kind", "stake",
    "ponte_cards", "banker_cards", "result", "tableau_2_cards", "result_2",
    "ponte_choice", "banker_choice", "choice_2",
    "move", "taken", "suite_taker", "suite_seat", "suite_amount",
)  # fmt: skip
# What a sheet must have; a column left out is blank on every row.
COUP_SHEET_REQUIRED = (
    "shoe", "coup", "banker", "banker_seat", "bank", "seat", "guest", "stake_kind", "stake",
)  # fmt: skip
STAKE_COLUMNS = ("seat", "guest", "stake_kind", "stake")
COUP_COLUMNS = tuple(
    column for column in COUP_SHEET_COLUMNS if column not in ("shoe", "coup", *STAKE_COLUMNS)
)
# Who a coup names besides its pontes: (name column, seat column).
COUP_PEOPLE = (
    ("banker", "banker_seat"), ("co_banker", "co_banker_seat"), ("suite_taker", "suite_seat"),
)  # fmt: skip
NAME_COLUMNS = ("guest", *(name for name, _seat in COUP_PEOPLE))

# Where a problem of the pipeline shows in the sheet.
COLUMN_OF_COUP_FIELD = {
    Field.PLAYER_CARDS: "ponte_cards",
    Field.BANKER_CARDS: "banker_cards",
    Field.RESULT: "result",
    Field.SEAT: "seat",
    Field.BET: "stake_kind",
    Field.STAKE: "stake",
    Field.BANKER_SEAT: "banker_seat",
    Field.BANK: "bank",
    Field.CO_BANKER_SEAT: "co_banker_seat",
    Field.PONTE_CHOICE: "ponte_choice",
    Field.BANKER_CHOICE: "banker_choice",
    Field.SECOND_CARDS: "tableau_2_cards",
    Field.SECOND_RESULT: "result_2",
    Field.SECOND_CHOICE: "choice_2",
    Field.MOVE: "move",
    Field.TAKEN: "taken",
    Field.SUITE_SEAT: "suite_seat",
    Field.SUITE_AMOUNT: "suite_amount",
}
CARDS_COLUMNS = {
    Game.CHEMIN_DE_FER: "ponte_cards/banker_cards",
    Game.BACCARA_BANQUE: "ponte_cards/tableau_2_cards/banker_cards",
}


@dataclass(frozen=True)
class BankedGame:
    """A guest-banked night's game, its cut and how it settles: the event's fields of the same
    names (see ``games.models.Event``)."""

    game: Game
    taxe: str = Event.Cut.PERCENT.value
    taxe_rate: Decimal = Decimal("0.05")
    shoe_charge: Decimal = Decimal(0)
    banco: str = BancoKind.LIMITEE.value
    clearing: str = Event.Clearing.DIRECT.value

    def fields(self) -> dict[str, object]:
        return {
            "game": self.game.value,
            "taxe": self.taxe,
            "taxe_rate": self.taxe_rate,
            "shoe_charge": self.shoe_charge,
            "banco": self.banco,
            "clearing": self.clearing,
        }

    def bank_rules(self, table: TableRules) -> BankRules:
        """What the rules core checks a coup against: the event's own reading of its fields."""
        event = Event(decks=table.decks, table_min=table.table_min, **self.fields())
        return event.bank_rules


@dataclass(frozen=True)
class Person:
    """Someone a row names, in a seat: a ponte, or the coup's banker, co-banker, suite taker."""

    column: str  # where the name is
    name: str  # as kept (``ledger.guests.names.clean_name``)
    key: str  # who it is (see :attr:`BetRow.key`)
    seat: int | None  # as read; ``None`` when it is not a seat (the pipeline says why)


@dataclass
class StakeRow:
    row: int
    line: int
    ponte: Person
    bet: BetEntry


@dataclass
class ParsedCoup:
    shoe: int
    number: int
    first_row: int
    line: int
    cells: dict[str, str]  # the coup's columns, as typed on its first row
    people: list[Person] = field(default_factory=list)  # banker, co-banker, suite taker
    rows: list[StakeRow] = field(default_factory=list)
    seated: dict[int, str] = field(default_factory=dict)  # seat → guest key, at this coup
    settled: SettledHand | None = None
    usable: bool = True  # its rows agree on who sits where

    def entry(self) -> HandEntry:
        cells = self.cells
        return HandEntry(
            player_cards=cells["ponte_cards"],
            banker_cards=cells["banker_cards"],
            result=cells["result"],
            bets=tuple(row.bet for row in self.rows),
            coup=CoupTerms(
                banker_seat=cells["banker_seat"],
                bank=cells["bank"],
                co_banker_seat=cells["co_banker_seat"],
                ponte_choice=cells["ponte_choice"],
                banker_choice=cells["banker_choice"],
                second_cards=cells["tableau_2_cards"],
                second_result=cells["result_2"],
                second_choice=cells["choice_2"],
                move=cells["move"],
                taken=cells["taken"],
                suite_seat=cells["suite_seat"],
                suite_amount=cells["suite_amount"],
            ),
        )

    def appearances(self) -> list[Person]:
        return [*self.people, *(row.ponte for row in self.rows)]


@dataclass(frozen=True)
class SeatRun:
    """A guest in one seat of a shoe, from the first coup that names them there to the last."""

    shoe: int
    seat: int
    key: str
    first: int
    last: int


def seat_runs(coups: Sequence[ParsedCoup]) -> list[SeatRun]:
    """Who sat where, from the names in each coup (in shoe and coup order): a guest sits in a
    seat from the first coup that names them there to the last, until another guest is named in
    that seat or they are named in another."""
    runs: dict[tuple[int, int], list[int | str]] = {}  # (shoe, seat) → [key, first, last]
    seat_of: dict[tuple[int, str], int] = {}  # (shoe, key) → seat
    done: list[SeatRun] = []

    def close(shoe: int, seat: int) -> None:
        key, first, last = runs.pop((shoe, seat))
        assert isinstance(key, str) and isinstance(first, int) and isinstance(last, int)
        del seat_of[(shoe, key)]
        done.append(SeatRun(shoe, seat, key, first, last))

    for coup in coups:
        for person in coup.appearances():
            if person.seat is None:
                continue
            run = runs.get((coup.shoe, person.seat))
            if run is not None and run[0] == person.key:
                run[2] = coup.number
                continue
            if run is not None:
                close(coup.shoe, person.seat)
            moved_from = seat_of.get((coup.shoe, person.key))
            if moved_from is not None:
                close(coup.shoe, moved_from)
            runs[(coup.shoe, person.seat)] = [person.key, coup.number, coup.number]
            seat_of[(coup.shoe, person.key)] = person.seat
    for shoe, seat in list(runs):
        close(shoe, seat)
    return sorted(done, key=lambda run: (run.shoe, run.first, run.seat))


class CoupChecker(Checker):
    """Reads a guest-banked night's rows into coups and settles each through the one pipeline
    (``games.settle.settle``), the coup before chained in memory as the table's
    services chain it from the database."""

    def __init__(
        self, table: TableRules, rules: BankRules, identity: dict[str, str] | None = None
    ) -> None:
        super().__init__(table, identity)
        self.rules = rules
        self.coups: dict[tuple[int, int], ParsedCoup] = {}
        self.names: dict[str, str] = {}  # a guest's key → their name as first written

    def check_coups(self, rows: Iterator[tuple[int, dict[str, str]]]) -> list[ParsedCoup]:
        for row_number, (line, row) in enumerate(rows, start=1):
            self._coup_row(row_number, line, row)
        coups = sorted(self.coups.values(), key=lambda coup: (coup.shoe, coup.number))
        self._numbering(coups, "coup")
        by_shoe: dict[tuple[int, int], dict[int, str]] = defaultdict(dict)
        for run in seat_runs([coup for coup in coups if coup.usable]):
            for number in range(run.first, run.last + 1):
                by_shoe[(run.shoe, number)][run.seat] = run.key
        previous: PreviousCoup | None = None
        for index, coup in enumerate(coups):
            if index == 0 or coups[index - 1].shoe != coup.shoe:
                previous = None  # each shoe starts a new bank
            coup.seated = by_shoe[(coup.shoe, coup.number)]
            # A coup that cannot be settled leaves the next one to be checked on its own.
            previous = self._settle_coup(coup, previous) if coup.usable else None
        return coups

    def _person(
        self, row: int, line: int, cells: dict[str, str], name_column: str, seat_column: str
    ) -> Person | None:
        """Who a row names in ``name_column``, seated as ``seat_column`` says (``None``: nobody,
        or a problem noted)."""
        text, seat_text = cells.get(name_column, ""), cells.get(seat_column, "")
        if not text and not seat_text:
            return None
        if not text or not seat_text:
            reason = _("{name} and {seat} go together: give both or neither.").format(
                name=name_column, seat=seat_column
            )
            self.problem(row, line, name_column if not text else seat_column, reason)
            return None
        try:
            name = clean_name(text)
        except InvalidName as error:
            self.problem(row, line, name_column, str(error))
            return None
        key = self.identity.get(name_key(name), name_key(name))
        self.names.setdefault(key, name)
        return Person(name_column, name, key, read_seat(seat_text))

    def _coup_row(self, row: int, line: int, cells: dict[str, str]) -> None:
        shoe = self._number(row, line, "shoe", cells.get("shoe", ""), 1, 999)
        number = self._number(row, line, "coup", cells.get("coup", ""), 1, 999)
        if shoe is None or number is None:
            return
        terms = {column: cells.get(column, "") for column in COUP_COLUMNS}
        coup = self.coups.get((shoe, number))
        if coup is None:
            coup = self.coups[(shoe, number)] = ParsedCoup(shoe, number, row, line, terms)
            for name_column, seat_column in COUP_PEOPLE:
                person = self._person(row, line, cells, name_column, seat_column)
                if person is not None and not self._seat_person(coup, person, row, line):
                    coup.usable = False
                elif person is not None:
                    coup.people.append(person)
        else:
            for column in COUP_COLUMNS:
                if not _same_cell(column, terms[column], coup.cells[column]):
                    reason = _("not the same as in row {row} of the same coup.")
                    self.problem(row, line, column, reason.format(row=coup.first_row))
                    coup.usable = False
                    return
        if not any(cells.get(column, "") for column in STAKE_COLUMNS):
            return  # a row of the coup with no stake on it
        ponte = self._person(row, line, cells, "guest", "seat")
        if ponte is None:
            if not cells.get("guest", "") and not cells.get("seat", ""):
                self.problem(row, line, "guest", _("a stake needs its guest and seat."))
            coup.usable = False
            return
        if not self._seat_person(coup, ponte, row, line):
            coup.usable = False
            return
        bet = BetEntry(cells.get("seat", ""), cells.get("stake_kind", ""), cells.get("stake", ""))
        coup.rows.append(StakeRow(row, line, ponte, bet))

    def _seat_person(self, coup: ParsedCoup, person: Person, row: int, line: int) -> bool:
        """Whether ``person`` fits the coup: one guest to a seat and one seat to a guest."""
        for other in coup.appearances():
            if person.seat is None or other.seat is None:
                continue
            if other.seat == person.seat and other.key != person.key:
                reason = _("seat {seat} already has {guest} in this coup.")
                self.problem(
                    row, line, person.column, reason.format(seat=person.seat, guest=other.name)
                )
                return False
            if other.seat != person.seat and other.key == person.key:
                reason = _("{guest} already sits in seat {seat} in this coup.")
                self.problem(
                    row,
                    line,
                    _seat_column(person),
                    reason.format(guest=person.name, seat=other.seat),
                )
                return False
        return True

    def _settle_coup(self, coup: ParsedCoup, previous: PreviousCoup | None) -> PreviousCoup | None:
        # The pipeline names guests in its messages: each by the name the sheet gave first.
        seated = {seat: self.names[key] for seat, key in coup.seated.items()}
        try:
            settled = settle(coup.entry(), GuestBankedTable(self.rules, seated, previous))
        except EntryRejected as rejected:
            for found in rejected.problems:
                where = coup.rows[found.bet] if found.bet is not None else None
                column = (
                    CARDS_COLUMNS[self.rules.game]
                    if found.field is Field.CARDS
                    else COLUMN_OF_COUP_FIELD.get(found.field, found.field.value)
                )
                self.problem(
                    where.row if where else coup.first_row,
                    where.line if where else coup.line,
                    column,
                    found.message(_),
                )
            return None
        coup.settled = settled
        assert settled.coup is not None  # the pipeline's answer for a coup
        return settled.coup.next_state


def _same_cell(column: str, text: str, first: str) -> bool:
    if column in NAME_COLUMNS:
        return name_key(" ".join(text.split())) == name_key(" ".join(first.split()))
    return text == first


def _seat_column(person: Person) -> str:
    return dict(COUP_PEOPLE).get(person.column, "seat")


def check_coup_sheet(
    name: str, content: bytes, table: TableRules, game: BankedGame
) -> list[ParsedCoup]:
    """A guest-banked night's coups, or ``ScoresheetInvalid`` listing every problem."""
    try:
        rows = list(read_rows(name, content, COUP_SHEET_REQUIRED))
    except csv.Error as error:
        raise ScoresheetUnreadable(
            _("The CSV file is malformed: {error}").format(error=error)
        ) from error
    keys = {
        key
        for _line, cells in rows
        for column in NAME_COLUMNS
        if (key := _guest_key(cells, column))
    }
    matches = guests_matching(keys)
    identity = {key: found[0].name_key for key, found in matches.items() if len(found) == 1}
    checker = CoupChecker(table, game.bank_rules(table), identity)
    coups = checker.check_coups(iter(rows))
    if not coups and not checker.problems:
        checker.problem(0, 1, "file", _("no coups in the file."))
    named = {
        (person.key, person.name, coup.first_row, coup.line, person.column)
        for coup in coups
        for person in coup.people
    }
    named |= {
        (row.ponte.key, row.ponte.name, row.row, row.line, "guest")
        for coup in coups
        for row in coup.rows
    }
    for key, name_, row, line, column in sorted(named, key=lambda n: (n[2], n[4])):
        if len(matches.get(key, ())) > 1:
            checker.problem(
                row,
                line,
                column,
                str(MSG_GUEST_AMBIGUOUS).format(name=name_, names=candidate_names(matches[key])),
            )
    if checker.problems:
        raise ScoresheetInvalid(sorted(checker.problems, key=lambda p: (p.row, p.column)))
    return coups


# --- writing --------------------------------------------------------------------------------


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
    yen_per_chip: Decimal = Decimal(100),
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
        yen_per_chip=yen_per_chip,
        numbers=[(hand.shoe, hand.number) for hand in hands],
        names=names,
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
    yen_per_chip: Decimal = Decimal(100),
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
        yen_per_chip=yen_per_chip,
        numbers=[(coup.shoe, coup.number) for coup in coups],
        names=names,
        game=game,
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
    yen_per_chip: Decimal,
    numbers: list[tuple[int, int]],
    names: dict[str, str],
    game: BankedGame | None = None,
) -> _Night:
    """The event, its guests (the new ones created) and its shoes, closed."""
    event = game_services.event_create(
        name=name,
        date=on,
        rules=table.rules,
        by=by,
        decks=table.decks,
        yen_per_chip=yen_per_chip,
        table_min=table.table_min,
        table_max=table.table_max,
        hands_per_shoe=max(number for _shoe, number in numbers),
        **(game.fields() if game is not None else {}),  # type: ignore[arg-type]
    )
    guests, created = _guests_by_key(names)
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


def _guests_by_key(names: dict[str, str]) -> tuple[dict[str, Guest], list[str]]:
    """The guests the sheet names (key → guest), creating the new ones; and their names."""
    found = {guest.name_key: guest for guest in Guest.objects.filter(name_key__in=list(names))}
    new = [Guest(name=names[key], name_key=key) for key in sorted(names) if key not in found]
    Guest.objects.bulk_create(new)
    found |= {guest.name_key: guest for guest in new}
    return found, sorted(guest.name for guest in new)


def _guest_key(cells: dict[str, str], column: str = "guest") -> str:
    """The key of the name in a row's ``column``, or "" when it is not one (the checker says
    why, or the column is blank)."""
    try:
        return name_key(clean_name(cells.get(column, "")))
    except InvalidName:
        return ""


def _ambiguous_names(
    hands: list[ParsedHand], matches: dict[str, list[Guest]]
) -> list[tuple[BetRow, str]]:
    """Rows whose name could be more than one guest, with the candidates."""
    rows = [row for hand in hands for row in hand.rows]
    return [
        (row, candidate_names(matches[row.key]))
        for row in rows
        if len(matches.get(row.key, ())) > 1
    ]


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


TEMPLATE_ROWS = (
    COLUMNS,
    ("1", "1", "9 7", "J J 10", "P", "", "", "1", "Aki", "player", "100"),
    ("1", "1", "9 7", "J J 10", "P", "", "", "2", "Ben", "banker", "50"),
    ("1", "2", "", "", "B", "no", "yes", "1", "Aki", "banker_pair", "10"),
    ("1", "2", "", "", "B", "no", "yes", "2", "Ben", "banker", "50"),
)


# A short night of each guest-banked game, every column filled where the coup has it.
COUP_TEMPLATES: dict[Game, tuple[dict[str, str], ...]] = {
    Game.CHEMIN_DE_FER: (
        # Aki banks 100; Ben and Chie cover it; the bank wins and Aki keeps it.
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "1", "bank": "100",
         "seat": "2", "guest": "Ben", "stake": "60", "result": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "1", "bank": "100",
         "seat": "3", "guest": "Chie", "stake": "40", "result": "B"},
        # Ben calls banco solo; standing on 5 he wins: the bank passes to his seat.
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "1", "bank": "195",
         "seat": "2", "guest": "Ben", "stake_kind": "banco_solo", "stake": "195",
         "ponte_cards": "3 2", "banker_cards": "10 4 K", "result": "P",
         "ponte_choice": "stand"},
        # Ben banks 50, wins and gives a suite, which Daisuke takes.
        {"shoe": "1", "coup": "3", "banker": "Ben", "banker_seat": "2", "bank": "50",
         "seat": "3", "guest": "Chie", "stake": "30", "result": "B", "move": "suite",
         "suite_taker": "Daisuke", "suite_seat": "4"},
        {"shoe": "1", "coup": "3", "banker": "Ben", "banker_seat": "2", "bank": "50",
         "seat": "4", "guest": "Daisuke", "stake": "20", "result": "B", "move": "suite",
         "suite_taker": "Daisuke", "suite_seat": "4"},
        # An égalité, then Daisuke retires with the bank.
        {"shoe": "1", "coup": "4", "banker": "Daisuke", "banker_seat": "4", "bank": "97.50",
         "seat": "1", "guest": "Aki", "stake": "50", "result": "T", "move": "retire"},
        {"shoe": "1", "coup": "4", "banker": "Daisuke", "banker_seat": "4", "bank": "97.50",
         "seat": "3", "guest": "Chie", "stake": "47.50", "result": "T", "move": "retire"},
    ),
    Game.BACCARA_BANQUE: (
        # Aki banks 500 in seat 4: seats 1–3 play tableau 1, seats 5–7 tableau 2.
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "3", "guest": "Ben", "stake_kind": "tableau_1", "stake": "100",
         "result": "P", "result_2": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "2", "guest": "Daisuke", "stake_kind": "tableau_1", "stake": "50",
         "result": "P", "result_2": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "5", "guest": "Chie", "stake_kind": "tableau_2", "stake": "100",
         "result": "P", "result_2": "B"},
        # With the cards: tableau 1 wins on a natural 9, tableau 2 loses; Aki retires.
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "4", "bank": "450",
         "seat": "3", "guest": "Ben", "stake_kind": "tableau_1", "stake": "100",
         "ponte_cards": "9 K", "tableau_2_cards": "3 3", "banker_cards": "8 K",
         "result": "P", "result_2": "B", "move": "retire"},
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "4", "bank": "450",
         "seat": "5", "guest": "Chie", "stake_kind": "tableau_2", "stake": "200",
         "ponte_cards": "9 K", "tableau_2_cards": "3 3", "banker_cards": "8 K",
         "result": "P", "result_2": "B", "move": "retire"},
    ),
}  # fmt: skip


def template_csv(game: Game = Game.PUNTO_BANCO) -> str:
    """The downloadable template of a game's scoresheet: its header and a short night."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if game is Game.PUNTO_BANCO:
        writer.writerows(TEMPLATE_ROWS)
    else:
        writer.writerow(COUP_SHEET_COLUMNS)
        for row in COUP_TEMPLATES[game]:
            writer.writerow([row.get(column, "") for column in COUP_SHEET_COLUMNS])
    return buffer.getvalue()
