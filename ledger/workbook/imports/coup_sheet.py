"""The coup sheet: a Chemin de fer or Baccara banque night, one row per stake, the coup's columns
repeated on each of its rows; each coup settled through the one pipeline, every problem reported.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

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
from games.kinds import TABLE_SEATS, BancoKind, BankRotation, Game
from games.models import Event
from games.settle import GuestBankedTable, settle
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import MSG_GUEST_AMBIGUOUS, candidate_names, guests_matching
from ledger.workbook.imports.punto_banco_sheet import Checker, guest_key
from ledger.workbook.reading import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    read_rows,
)

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
    bank_rotation: str = BankRotation.SKIPS_LOSER.value  # a night's workbook says its own

    def fields(self) -> dict[str, object]:
        return {
            "game": self.game.value,
            "taxe": self.taxe,
            "taxe_rate": self.taxe_rate,
            "shoe_charge": self.shoe_charge,
            "banco": self.banco,
            "clearing": self.clearing,
            "bank_rotation": self.bank_rotation,
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
        return Person(name_column, name, key, read_seat(seat_text, TABLE_SEATS))

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
    return check_coup_rows(rows, table, game)


def check_coup_rows(
    rows: list[tuple[int, dict[str, str]]], table: TableRules, game: BankedGame
) -> list[ParsedCoup]:
    """The coups of a guest-banked scoresheet's rows, or ``ScoresheetInvalid``."""
    keys = {
        key for _line, cells in rows for column in NAME_COLUMNS if (key := guest_key(cells, column))
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
