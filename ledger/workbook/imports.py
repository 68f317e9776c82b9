"""Scoresheet import: a night kept on paper or in a spreadsheet, one row per bet.

All or nothing. Every row is checked with the rules core (cards, drawing rules, result, bets) and
every problem is reported with its data row, file line and column; only a sheet without a single
problem is written, in one transaction, with bulk inserts.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Protocol

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
from games.kinds import TABLE_SEATS, BancoKind, Game
from games.models import Event, Hand, Shoe
from games.settle import GuestBankedTable, PuntoBancoTable, settle
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import MSG_GUEST_AMBIGUOUS, candidate_names, guests_matching
from ledger.hands.coups import coup_row
from ledger.models import AuditEntry, Bet, Coup, EventGuest, Guest, Seating
from ledger.money.services import results_refresh
from ledger.workbook.reading import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    SheetProblem,
    read_rows,
)
from shoebook.base.roles import Actor

COLUMNS = (
    "shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
    "seat", "guest", "bet", "stake",
)  # fmt: skip
MAX_PROBLEMS = 200


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
        seat = read_seat(seat_text, TABLE_SEATS)  # a scoresheet is a cash night's
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
        rows = list(read_rows(name, content, COLUMNS))
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
