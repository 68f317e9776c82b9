"""The Punto Banco scoresheet: a night kept on paper or in a spreadsheet, one row per bet.

Every row is checked with the rules core (cards, drawing rules, result, bets) and every problem is
reported with its data row, file line and column; the writer (``night_writer``) writes only a
sheet without a single problem.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

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
from games.kinds import TABLE_SEATS
from games.settle import PuntoBancoTable, settle
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import MSG_GUEST_AMBIGUOUS, candidate_names, guests_matching
from ledger.models import Guest
from ledger.workbook.reading import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    SheetProblem,
    read_rows,
)

COLUMNS = (
    "shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
    "seat", "guest", "bet", "stake",
)  # fmt: skip
MAX_PROBLEMS = 200


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
    return check_hand_rows(rows, table)


def check_hand_rows(rows: list[tuple[int, dict[str, str]]], table: TableRules) -> list[ParsedHand]:
    """The hands of a scoresheet's rows (file line, {column: text}), or ``ScoresheetInvalid``."""
    matches = guests_matching({key for _line, cells in rows if (key := guest_key(cells))})
    identity = {key: found[0].name_key for key, found in matches.items() if len(found) == 1}
    checker = Checker(table, identity)
    hands = checker.check(iter(rows))
    if not hands and not checker.problems:
        checker.problem(0, 1, "file", _("no hands in the file."))
    for row, names in ambiguous_names(hands, matches):
        checker.problem(
            row.row, row.line, "guest", str(MSG_GUEST_AMBIGUOUS).format(name=row.guest, names=names)
        )
    if checker.problems:
        raise ScoresheetInvalid(sorted(checker.problems, key=lambda p: (p.row, p.column)))
    return hands


def guest_key(cells: dict[str, str], column: str = "guest") -> str:
    """The key of the name in a row's ``column``, or "" when it is not one (the checker says
    why, or the column is blank)."""
    try:
        return name_key(clean_name(cells.get(column, "")))
    except InvalidName:
        return ""


def ambiguous_names(
    hands: list[ParsedHand], matches: dict[str, list[Guest]]
) -> list[tuple[BetRow, str]]:
    """Rows whose name could be more than one guest, with the candidates."""
    rows = [row for hand in hands for row in hand.rows]
    return [
        (row, candidate_names(matches[row.key]))
        for row in rows
        if len(matches.get(row.key, ())) > 1
    ]
