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
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.cards import CardError, format_cards, parse_cards
from games.chips import to_cents
from games.models import Event, Hand, Shoe
from games.payouts import BetError, BetResult, BetType, RuleSet, check_stake, resolve_bet
from games.rules import Hand as DealtHand
from games.rules import HandError, Outcome, Winner
from ledger.models import AuditEntry, Bet, EventGuest, Guest, Seating
from ledger.services import results_refresh

COLUMNS = (
    "shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
    "seat", "guest", "bet", "stake",
)  # fmt: skip
RESULTS = {"p": Winner.PLAYER, "player": Winner.PLAYER, "b": Winner.BANKER,
           "banker": Winner.BANKER, "t": Winner.TIE, "tie": Winner.TIE}  # fmt: skip
YES, NO = {"yes", "y", "1", "true"}, {"no", "n", "0", "false"}
MAX_PROBLEMS = 200


class ScoresheetUnreadable(Exception):
    """The file is not a CSV or XLSX scoresheet at all (encoding, format)."""


@dataclass(frozen=True)
class Problem:
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
    def __init__(self, problems: list[Problem]) -> None:
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
    names = [column.strip().lower() for column in header]
    _check_columns(names)
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        yield reader.line_num, dict(zip(names, (cell.strip() for cell in row), strict=False))


def _xlsx_rows(content: bytes) -> Iterator[tuple[int, dict[str, str]]]:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise ScoresheetUnreadable(_("The file is not a readable .xlsx workbook.")) from error
    # The first sheet, or, in a workbook exported by Shoebook (Summary first), the first sheet
    # with the scoresheet's columns.
    for sheet in workbook.worksheets:
        rows = sheet.iter_rows(values_only=True)
        header = next(rows, None)
        names = [str(cell or "").strip().lower() for cell in header or ()]
        if all(column in names for column in COLUMNS):
            break
    else:
        rows = workbook.worksheets[0].iter_rows(values_only=True)
        header = next(rows, None)
        if header is None:
            raise ScoresheetUnreadable(_("The file is empty."))
        names = [str(cell or "").strip().lower() for cell in header]
    _check_columns(names)
    for line, row in enumerate(rows, start=2):
        cells = ["" if cell is None else _as_text(cell) for cell in row]
        if not any(cells):
            continue
        yield line, dict(zip(names, cells, strict=False))
    workbook.close()


def _as_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _check_columns(names: list[str]) -> None:
    missing = [column for column in COLUMNS if column not in names]
    if missing:
        raise ScoresheetInvalid([Problem(0, 1, column, _("missing column")) for column in missing])


# --- checking -------------------------------------------------------------------------------


@dataclass
class ParsedBet:
    seat: int
    guest: str
    bet_type: BetType
    stake: Decimal
    result: BetResult | None = None  # settled while checking, written as is


@dataclass
class ParsedHand:
    shoe: int
    number: int
    first_row: int
    line: int
    facts: tuple[str, ...]  # cards, result and pair flags, as typed
    bets: list[ParsedBet] = field(default_factory=list)
    outcome: Outcome | None = None
    player_cards: str = ""
    banker_cards: str = ""


class Checker:
    """Reads rows into hands and bets, noting every problem instead of stopping at the first."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.problems: list[Problem] = []
        self.hands: dict[tuple[int, int], ParsedHand] = {}

    def problem(self, row: int, line: int, column: str, reason: str) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(row, line, column, reason))

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
        try:
            value = int(text)
        except ValueError:
            value = None
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
        seat = self._number(row, line, "seat", seat_text, 1, 7)
        if not guest:
            self.problem(row, line, "guest", _("a bet needs the guest's name."))
        try:
            bet_type = BetType(bet_text.strip().lower())
        except ValueError:
            offered = ", ".join(bet.value for bet in self.rules.offered_bets)
            self.problem(
                row,
                line,
                "bet",
                _("unknown bet “{bet}” (one of: {offered}).").format(bet=bet_text, offered=offered),
            )
            return
        if not self.rules.offers(bet_type):
            self.problem(
                row,
                line,
                "bet",
                _("{bet} is not offered under these rules.").format(bet=_(bet_type.label)),
            )
            return
        try:
            stake = Decimal(stake_text.replace(",", ""))
            check_stake(stake)
        except InvalidOperation:
            self.problem(row, line, "stake", _("“{text}” is not a number.").format(text=stake_text))
            return
        except BetError as error:
            self.problem(row, line, "stake", error.message(_))
            return
        if seat is None or not guest:
            return
        for other in hand.bets:
            if other.seat == seat and other.guest.casefold() != guest.casefold():
                self.problem(
                    row,
                    line,
                    "guest",
                    _("seat {seat} already has {guest} in this hand.").format(
                        seat=seat, guest=other.guest
                    ),
                )
                return
            if other.seat != seat and other.guest.casefold() == guest.casefold():
                self.problem(
                    row,
                    line,
                    "seat",
                    _("{guest} already sits in seat {seat} in this hand.").format(
                        guest=guest, seat=other.seat
                    ),
                )
                return
            if other.seat == seat and other.bet_type is bet_type:
                self.problem(row, line, "bet", _("this seat has this bet twice in the hand."))
                return
        hand.bets.append(ParsedBet(seat, guest, bet_type, stake))

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
        row, line = hand.first_row, hand.line
        player_text, banker_text, result_text, player_pair, banker_pair = hand.facts
        result = RESULTS.get(result_text.strip().lower()) if result_text.strip() else None
        if result_text.strip() and result is None:
            self.problem(
                row, line, "result", _("“{text}” is not P, B or T.").format(text=result_text)
            )
            return
        flags = {}
        for column, text in (("player_pair", player_pair), ("banker_pair", banker_pair)):
            value = text.strip().lower()
            if value and value not in YES | NO:
                self.problem(row, line, column, _("“{text}” is not yes or no.").format(text=text))
                return
            flags[column] = None if not value else value in YES
        if player_text or banker_text:
            try:
                player, banker = parse_cards(player_text), parse_cards(banker_text)
                dealt = DealtHand.from_cards(player, banker)
            except CardError as error:
                column = "player_cards" if error.token in player_text.split() else "banker_cards"
                self.problem(row, line, column, error.message(_))
                return
            except HandError as error:
                self.problem(row, line, "player_cards/banker_cards", error.message(_))
                return
            hand.outcome = dealt.outcome()
            hand.player_cards, hand.banker_cards = format_cards(player), format_cards(banker)
            if result is not None and result is not hand.outcome.winner:
                self.problem(
                    row,
                    line,
                    "result",
                    _("the cards say {actual}, not {given}.").format(
                        actual=_(hand.outcome.winner.value.title()), given=_(result.value.title())
                    ),
                )
                return
        elif result is None:
            self.problem(row, line, "result", _("give the cards or the result (P, B or T)."))
            return
        else:
            pairs_noted = flags["player_pair"] is not None or flags["banker_pair"] is not None
            pair_bets = [
                b for b in hand.bets if b.bet_type in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR)
            ]
            if pair_bets and not pairs_noted:
                self.problem(
                    row,
                    line,
                    "player_pair/banker_pair",
                    _("a pair bet needs the cards or the pair flags (yes/no)."),
                )
                return
            hand.outcome = Outcome(
                result,
                player_pair=bool(flags["player_pair"]),
                banker_pair=bool(flags["banker_pair"]),
            )
        for bet in hand.bets:
            try:
                bet.result = resolve_bet(self.rules, bet.bet_type, bet.stake, hand.outcome)
            except BetError as error:
                self.problem(row, line, "bet", error.message(_))


def check_scoresheet(name: str, content: bytes, rules: RuleSet) -> list[ParsedHand]:
    """The scoresheet's hands, or ``ScoresheetInvalid`` listing every problem."""
    checker = Checker(rules)
    try:
        hands = checker.check(read_rows(name, content))
    except csv.Error as error:
        raise ScoresheetUnreadable(
            _("The CSV file is malformed: {error}").format(error=error)
        ) from error
    if not hands and not checker.problems:
        checker.problem(0, 1, "file", _("no hands in the file."))
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
    *, hands: list[ParsedHand], name: str, on: date, rules: RuleSet, by: Any,
    yen_per_chip: Decimal = Decimal(100), decks: int = 8,
) -> Imported:  # fmt: skip
    """Write a checked scoresheet as a closed event, in bulk."""
    stakes = [bet.stake for hand in hands for bet in hand.bets] or [Decimal(1)]
    event = game_services.event_create(
        name=name, date=on, rules=rules, by=by, decks=decks, yen_per_chip=yen_per_chip,
        table_min=min(stakes), table_max=max(stakes),
        hands_per_shoe=max(hand.number for hand in hands),
    )  # fmt: skip
    guests, created = _guests_by_name({bet.guest for hand in hands for bet in hand.bets})
    EventGuest.objects.bulk_create(EventGuest(event=event, guest=g) for g in guests.values())
    now = timezone.now()
    shoes = {
        number: Shoe(event=event, number=number, opened_by=by, closed_at=now, closed_by=by)
        for number in sorted({hand.shoe for hand in hands})
    }
    Shoe.objects.bulk_create(shoes.values())
    rows = [
        Hand(shoe=shoes[hand.shoe], number=hand.number, logged_by=by, logged_at=now,
             player_cards=hand.player_cards, banker_cards=hand.banker_cards,
             winner=hand.outcome.winner.value, player_pair=hand.outcome.player_pair,
             banker_pair=hand.outcome.banker_pair)
        for hand in hands if hand.outcome is not None
    ]  # fmt: skip
    Hand.objects.bulk_create(rows, batch_size=2000)
    bets = [
        (row.pk, event.pk, bet.seat, guests[bet.guest.casefold()].pk, bet.bet_type.value,
         to_cents(bet.stake), to_cents(result.gross), to_cents(result.commission),
         to_cents(result.net))
        for hand, row in zip(hands, rows, strict=True)
        for bet in hand.bets
        if (result := bet.result or resolve_bet(rules, bet.bet_type, bet.stake, row.outcome()))
    ]  # fmt: skip
    _insert_bets(bets)
    Seating.objects.bulk_create(_seatings(hands, shoes, guests, by), batch_size=2000)
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


def _insert_bets(rows: list[tuple[object, ...]]) -> None:
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


def _guests_by_name(names: set[str]) -> tuple[dict[str, Guest], list[str]]:
    wanted = {name.casefold(): name for name in names}
    found = {guest.name.casefold(): guest for guest in Guest.objects.all()
             if guest.name.casefold() in wanted}  # fmt: skip
    new = [Guest(name=wanted[key]) for key in sorted(wanted) if key not in found]
    Guest.objects.bulk_create(new)
    found |= {guest.name.casefold(): guest for guest in new}
    return found, sorted(guest.name for guest in new)


def _seatings(hands: list[ParsedHand], shoes: dict[int, Shoe], guests: dict[str, Guest],
              by: Any) -> Iterator[Seating]:  # fmt: skip
    """Who sat where, from the bets: a run per guest and seat within a shoe."""
    runs: dict[tuple[int, int], list[Any]] = {}  # (shoe, seat) -> [guest, from, to]
    for hand in hands:
        for bet in hand.bets:
            key, guest = (hand.shoe, bet.seat), guests[bet.guest.casefold()]
            run = runs.get(key)
            if run is not None and run[0] == guest:
                run[2] = hand.number
                continue
            if run is not None:
                yield Seating(shoe=shoes[key[0]], seat=key[1], guest=run[0], from_hand=run[1],
                              to_hand=run[2], seated_by=by)  # fmt: skip
            runs[key] = [guest, hand.number, hand.number]
    for (shoe, seat), (guest, first, last) in runs.items():
        yield Seating(
            shoe=shoes[shoe], seat=seat, guest=guest, from_hand=first, to_hand=last, seated_by=by
        )


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
