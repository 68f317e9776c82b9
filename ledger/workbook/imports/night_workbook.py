"""A night's or a season's workbook, as Shoebook exports it, made into nights again.

Its Rules sheet gives each night's terms (rules, decks, limits, venue, currency, rate, a
guest-banked game's cut, how its chips were counted); its Hands or Coups sheet the play, checked
as a scoresheet is (``punto_banco_sheet``, ``coup_sheet``); its Chips and settlements sheet the
count, the adjustments and the settlements, voids included. Every sheet's Event column says whose
night a row is. All or nothing: every problem of every night is reported, and nothing is written
unless there is none.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import services as game_services
from games.chips import MAX_CHIPS
from games.currencies import DEFAULT_CURRENCY
from games.entry import TableRules, read_count
from games.kinds import BankRotation, Game
from games.messages import format_chips, whole_cents
from games.models import Event
from games.payouts import ChipRounding, Rounding, RuleSet, RuleSetError
from ledger.count.services import parse_denominations, stored_denominations
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import guests_matching
from ledger.guests.sharing import plain_text
from ledger.models import (
    Adjustment,
    AuditEntry,
    ChipMove,
    CountSetup,
    EventGuest,
    Guest,
    PayWay,
    Settlement,
    Tip,
    Transfer,
    check_dated,
    dated_default,
)
from ledger.money.services import results_refresh
from ledger.workbook.exports import (
    ADJUSTMENT,
    CHIP_MOVE,
    COUPS_COLUMNS,
    HANDS_COLUMNS,
    IN_CHIPS,
    RECORD_COLUMNS,
    RECORD_EXTRA_COLUMNS,
    RULES_COLUMNS,
    SETTLEMENT,
    TIP,
    TRANSFER,
)
from ledger.workbook.imports.coup_sheet import BankedGame, ParsedCoup, check_coup_rows
from ledger.workbook.imports.night_writer import (
    Imported,
    coup_sheet_import,
    guests_by_key,
    night_already_in,
    scoresheet_import,
)
from ledger.workbook.imports.punto_banco_sheet import ParsedHand, check_hand_rows
from ledger.workbook.reading import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_UNPACKED_BYTES,
    ScoresheetInvalid,
    ScoresheetUnreadable,
    SheetProblem,
)
from shoebook.base.roles import Actor

MSG_NOT_A_VALUE = gettext_lazy("“{text}” is not a value this site knows for {column}.")
MSG_ONLY_CASH_NIGHTS = gettext_lazy(
    "{event} is a tournament: a tournament's rounds, tables and prizes are not in its workbook,"
    " so it cannot be imported from one."
)
MSG_EVENT_TWICE = gettext_lazy(
    "{event} is on row {first} already: each night of the workbook needs a name of its own."
)
MSG_OTHER_GAME_S_ROWS = gettext_lazy(
    "{event} has rows of another game's sheet (Hands are Punto Banco's, Coups a guest-banked"
    " game's): its Rules row names the other game."
)
MSG_COUNT_ONLY_PLAYED = gettext_lazy(
    "{event} is kept by its count alone, yet has hands or coups: a night kept by its count logs"
    " none."
)
MSG_NO_RULES_ROW = gettext_lazy("{event} has no row in the Rules sheet.")
MSG_NO_NIGHTS = gettext_lazy("no nights in the Rules sheet.")
MSG_RECORD_KIND = gettext_lazy("chip_move, adjustment, settlement or transfer.")
MSG_DENOMINATIONS = gettext_lazy("chips as value:number, apart by spaces (“500:2 100:3”).")
MSG_NO_VOIDED_ROW = gettext_lazy("no {record} number {number} before this row of {event}.")
MSG_FIGURES_DIFFER = gettext_lazy(
    "settled by this Rules row, {count} figure(s) of the {sheet} sheet come out otherwise: {rows}."
    " The Rules row does not say how these hands were settled (look at {rules})."
)
MSG_FIGURE_DIFFERS = gettext_lazy("line {line}, {column} {sheet_says} (by the rules: {rules_say})")
MAX_DIFFERENCES_NAMED = 5
MSG_FORMULA = gettext_lazy("a formula ({formula}): type its value instead.")
MSG_TOO_MANY_GUESTS = gettext_lazy("more than {count:,} guests.")
MSG_AMOUNT_RANGE = gettext_lazy("an amount from 0 to {maximum}, in whole cents.")
MSG_NOT_A_DATE = gettext_lazy("“{text}” is not a date (YYYY-MM-DD).")
MSG_NIGHT_EXISTS = gettext_lazy(
    "{event} of {date} is in the ledger already: importing it again would count its money"
    " twice. To import it anyway as another night, rename it in the Rules sheet."
)

Rows = list[tuple[int, dict[str, str]]]
CENT = Decimal("0.01")


@dataclass
class WorkbookNight:
    """One night's rows of a workbook: its Rules row and its rows of the other sheets."""

    line: int
    terms: dict[str, Any]  # the Rules row's cells, as read
    hands: Rows = field(default_factory=list)
    coups: Rows = field(default_factory=list)
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    formulas: dict[str, str] = field(default_factory=dict)  # Rules cells holding a formula
    sheets: dict[str, str] = field(default_factory=dict)  # each kind's sheet, as titled


@dataclass
class CheckedNight:
    line: int  # its row of the Rules sheet
    name: str
    on: date
    table: TableRules
    money_per_chip: Decimal
    terms: dict[str, object]  # the rest of the event's fields
    game: BankedGame | None
    count: str  # "", "hands" or "count_only"
    opening_float: Decimal
    denominations: list[str]
    commission_total: Decimal | None
    guests: list[str]  # in the order they came into the ledger
    hands: list[ParsedHand] = field(default_factory=list)
    coups: list[ParsedCoup] = field(default_factory=list)
    records: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    sheets: dict[str, str] = field(default_factory=dict)


# --- reading --------------------------------------------------------------------------------


def read_night_workbook(name: str, content: bytes) -> list[WorkbookNight] | None:
    """The nights of a workbook Shoebook exported (one with a Rules sheet), in its order; ``None``
    for any other file (a scoresheet, read as one)."""
    if not name.lower().endswith(".xlsx"):
        return None
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(content)) as source:
            if sum(part.file_size for part in source.infolist()) > MAX_UNPACKED_BYTES:
                return None  # the scoresheet reader refuses it, saying why
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception:  # not a workbook: the scoresheet reader says why
        return None
    try:
        sheets = {}
        titles: dict[str, str] = {}
        for sheet in workbook.worksheets:
            rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
            header = tuple(str(cell or "").strip().lower() for cell in next(rows, None) or ())
            kind = _sheet_kind(header)
            if kind and kind not in sheets:
                sheets[kind] = list(_bounded(rows))
                titles[kind] = sheet.title
        if "rules" not in sheets:
            return None
        nights = _nights(sheets)
        formulas = _rules_formulas(content, titles["rules"])
        for night in nights:
            night.sheets = titles
            night.formulas = formulas.get(night.line, {})
        return nights
    except ScoresheetUnreadable:
        raise
    except Exception as error:  # whatever the parser trips on: never a server error
        raise ScoresheetUnreadable(_("The file is not a readable .xlsx workbook.")) from error
    finally:
        workbook.close()


def _rules_formulas(content: bytes, title: str) -> dict[int, dict[str, str]]:
    """The Rules sheet's cells that hold a formula, by line and column: the values read are the
    formulas' cached results, absent when no spreadsheet program computed them."""
    from openpyxl import load_workbook

    workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=False)
    try:
        found: dict[int, dict[str, str]] = {}
        rows = workbook[title].iter_rows(min_row=2, max_row=MAX_ROWS + 1, max_col=MAX_COLUMNS)
        for line, row in enumerate(rows, start=2):
            for column, cell in zip(RULES_COLUMNS, row, strict=False):
                if getattr(cell, "data_type", None) == "f":
                    found.setdefault(line, {})[column] = str(cell.value)[:40]
        return found
    finally:
        workbook.close()


# A Rules sheet exported before nights kept their bank's rotation ends before that column (and
# one from before nights had a currency, before that one).
_RULES_SINCE_FIRST = RULES_COLUMNS[: RULES_COLUMNS.index("bank_rotation")]
# The rate's column as sheets exported before nights had a currency head it: read as the new.
RULES_ALIASES = {"yen_per_chip": "money_per_chip"}


def _sheet_kind(header: tuple[str, ...]) -> str | None:
    named = tuple(RULES_ALIASES.get(str(cell), cell) for cell in header[: len(_RULES_SINCE_FIRST)])
    if named == _RULES_SINCE_FIRST:
        return "rules"
    if header[: len(RECORD_COLUMNS)] == RECORD_COLUMNS:
        return "records"
    if header[1 : 1 + len(HANDS_COLUMNS)] == HANDS_COLUMNS:
        return "hands"
    if header[1 : 1 + len(COUPS_COLUMNS)] == COUPS_COLUMNS:
        return "coups"
    return None


def _bounded(rows: Iterator[tuple[object, ...]]) -> Iterator[tuple[int, tuple[object, ...]]]:
    for line, row in enumerate(rows, start=2):
        if line - 1 > MAX_ROWS:
            raise ScoresheetUnreadable(
                _("The file has more than {rows:,} rows: import one night at a time.").format(
                    rows=MAX_ROWS
                )
            )
        if any(cell not in (None, "") for cell in row):
            yield line, row


def _nights(sheets: dict[str, list[tuple[int, tuple[object, ...]]]]) -> list[WorkbookNight]:
    nights: dict[str, WorkbookNight] = {}
    for line, row in sheets["rules"]:
        terms = dict(zip(RULES_COLUMNS, row, strict=False))
        key = _text(terms.get("event"))
        # A second night of the same name is kept apart, to be refused by name.
        nights[key if key not in nights else f"{key}\n{line}"] = WorkbookNight(line, terms)
    columns = {"hands": HANDS_COLUMNS, "coups": COUPS_COLUMNS}
    for kind, names in columns.items():
        for line, row in sheets.get(kind, []):
            night = nights.get(_text(row[0]))
            cells = {name: _text(value) for name, value in zip(names, row[1:], strict=False)}
            cells["event"] = _text(row[0])
            if night is None:
                nights.setdefault("", WorkbookNight(0, {})).hands.append((line, cells))
            else:
                getattr(night, kind).append((line, cells))
    for line, row in sheets.get("records", []):
        record_names = (*RECORD_COLUMNS, *RECORD_EXTRA_COLUMNS)  # an older sheet: not the extra
        record: dict[str, Any] = dict(zip(record_names, row, strict=False))
        night = nights.get(_text(record.get("event")))
        if night is None:
            nights.setdefault("", WorkbookNight(0, {})).records.append((line, record))
        else:
            night.records.append((line, record))
    return list(nights.values())


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value).strip()


# --- checking -------------------------------------------------------------------------------


class _Problems:
    def __init__(self) -> None:
        self.found: list[SheetProblem] = []

    def add(self, line: int, column: str, reason: str, sheet: str = "") -> None:
        self.found.append(SheetProblem(max(line - 1, 0), line, column, reason, sheet))


def _decimal(value: object) -> Decimal:
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, bool) or value is None:
        raise InvalidOperation
    text = str(value).strip()
    amount = Decimal(text) if text.isascii() else None  # Decimal() reads any script's digits
    if amount is None or not amount.is_finite():  # never NaN: sNaN compared raises
        raise InvalidOperation
    return amount


def _day(value: object) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value).strip())


def _choice(choices: list[str]) -> Callable[[object], str]:
    def read(value: object) -> str:
        text = _text(value)
        if text not in choices:
            raise ValueError(text)
        return text

    return read


RULES_READERS: dict[str, Callable[[object], Any]] = {
    "event": lambda value: _text(value) or _missing(),
    "date": _day,
    "venue": _text,
    "kind": _choice([Event.Kind.CASH.value]),
    "format": _choice(list(Event.Format.values)),
    "game": lambda value: Game(_text(value)),
    "commission_rate": _decimal,
    "no_commission": _text,
    "tie_pays": lambda value: int(_text(value)),
    "pair_pays": lambda value: int(_text(value)),
    "side_bets": lambda value: _text(value).split(),
    "decks": lambda value: int(_text(value)),
    "table_min": _decimal,
    "table_max": _decimal,
    "hands_per_shoe": lambda value: int(_text(value)),
    "currency_symbol": _text,
    "money_per_chip": _decimal,
    "taxe": _choice(list(Event.Cut.values)),
    "taxe_rate": _decimal,
    "shoe_charge": _decimal,
    "banco": _text,
    "suite_returns": _text,
    "clearing": _choice(list(Event.Clearing.values)),
    "count": _choice(["", "hands", "count_only"]),
    "opening_float": lambda value: Decimal(0) if value in (None, "") else _decimal(value),
    "denominations": lambda value: _text(value).split(),
    "commission_total": lambda value: None if value in (None, "") else _decimal(value),
    "guests": lambda value: _guests(_text(value)),
    # Left out (a workbook from before nights kept it): today's.
    "bank_rotation": lambda value: _choice(list(BankRotation))(
        _text(value) or BankRotation.SKIPS_LOSER.value
    ),
    # Left out (a workbook from before nights kept it): to the cent, as those nights were.
    "rounding": lambda value: Rounding(_text(value) or Rounding.EXACT.value),
    "smallest_chip": lambda value: CENT if value in (None, "") else _decimal(value),
    # Left out (a workbook from before nights had a currency): yen, as every night then was.
    "currency": lambda value: _text(value) or DEFAULT_CURRENCY,
}


RULE_SET_COLUMNS = ("commission_rate", "no_commission", "tie_pays", "pair_pays", "side_bets")


def _missing() -> str:
    raise ValueError("")


def _guests(text: str) -> list[str]:
    lines = text.splitlines()
    if len(lines) > MAX_ROWS:
        raise _Refused(str(MSG_TOO_MANY_GUESTS).format(count=MAX_ROWS))
    return [clean_name(line) for line in lines if line]


class _Refused(ValueError):
    """A Rules value refused with its own reason."""


def _amount_problem(value: Decimal | None) -> str | None:
    if value is None or (value.is_finite() and 0 <= value <= MAX_CHIPS and whole_cents(value)):
        return None
    return str(MSG_AMOUNT_RANGE).format(maximum=format_chips(MAX_CHIPS))


def _constrained_column(constraint: object) -> str:
    condition = getattr(constraint, "condition", None)
    children = list(getattr(condition, "children", ()))
    while children and not isinstance(children[0], tuple):
        children = list(getattr(children[0], "children", ()))
    return str(children[0][0]).split("__")[0] if children else "event"


def _terms_problems(values: dict[str, Any], rules: RuleSet) -> dict[str, list[str]]:
    """What the forms that set these terms would refuse: the event's fields as ``event_create``
    checks them, a guest-banked game's cut as its rules core reads it, the count's chips and
    amounts as ``count_setup_save`` checks them."""
    found: dict[str, list[str]] = {}
    fields = {key: values[key] for key in (
        "venue", "format", "currency_symbol", "hands_per_shoe", "decks", "money_per_chip",
        "currency", "table_min", "table_max", "taxe", "taxe_rate", "shoe_charge", "banco",
        "suite_returns", "clearing",
    )}  # fmt: skip
    event = Event(
        name=values["event"], date=values["date"], game=values["game"].value,
        rules=rules.to_dict(), **fields,
    )  # fmt: skip
    try:
        event.full_clean(exclude=["created_by"], validate_unique=False, validate_constraints=False)
        game_services.check_cut(event)
    except ValidationError as error:
        found |= error.message_dict
    for constraint in Event._meta.constraints:  # each named by the column it checks
        try:
            constraint.validate(Event, event, exclude=set(found))
        except ValidationError as error:
            found.setdefault(_constrained_column(constraint), []).extend(error.messages)
        except ValueError:  # a message with a bare "%" (10%) that Django formats with %
            message = str(getattr(constraint, "violation_error_message", constraint.name))
            found.setdefault(_constrained_column(constraint), []).append(message)
    # The rate is no amount of chips: its own column's bounds (four decimals: ¥0.5, KWD 0.375)
    # are the event's, checked above.
    for column in ("shoe_charge", "table_min", "table_max"):
        if column not in found and (reason := _amount_problem(values[column])):
            found[column] = [reason]
    if not found and values["game"].guest_banked:
        try:
            event.bank_rules  # noqa: B018  # the rules core's own checks of the cut
        except Exception as error:  # BankError, ValueError: the core's words, on this row
            found["taxe/taxe_rate/banco"] = [str(error) or type(error).__name__]
    if values["count"]:
        try:
            parse_denominations(values["denominations"])
        except ValidationError as error:
            found |= error.message_dict
        for column in ("opening_float", "commission_total"):
            if reason := _amount_problem(values[column]):
                found[column] = [reason]
    return found


def _checked_terms(night: WorkbookNight, problems: _Problems) -> CheckedNight | None:
    values: dict[str, Any] = {}
    sheet = night.sheets.get("rules", "")
    for column, read in RULES_READERS.items():
        raw = night.terms.get(column)
        if column in night.formulas:
            formula = night.formulas[column]
            problems.add(night.line, column, str(MSG_FORMULA).format(formula=formula), sheet)
            continue
        try:
            values[column] = read(raw)
        except (ValueError, TypeError, InvalidOperation, InvalidName, OverflowError) as error:
            if isinstance(error, _Refused):
                reason = str(error)
            elif column == "kind" and _text(raw) == Event.Kind.TOURNAMENT.value:
                reason = str(MSG_ONLY_CASH_NIGHTS).format(event=_text(night.terms.get("event")))
            else:
                reason = str(MSG_NOT_A_VALUE).format(text=_text(raw)[:40], column=column)
            problems.add(night.line, column, reason, sheet)
    if len(values) != len(RULES_READERS):
        return None
    try:
        rules = RuleSet.from_dict({key: values[key] for key in RULE_SET_COLUMNS})
    except RuleSetError as error:
        problems.add(night.line, "commission_rate/side_bets", str(error), sheet)
        return None
    try:
        if too_big := _amount_problem(values["smallest_chip"]):
            raise RuleSetError(too_big)
        rounding = ChipRounding(values["rounding"], values["smallest_chip"])
    except RuleSetError as error:
        problems.add(night.line, "smallest_chip", str(error), sheet)
        return None
    refused = _terms_problems(values, rules)
    for column, messages in refused.items():
        problems.add(night.line, column, " ".join(messages), sheet)
    if refused:
        return None
    game: Game = values["game"]
    banked = (
        BankedGame(
            game,
            taxe=values["taxe"],
            taxe_rate=values["taxe_rate"],
            shoe_charge=values["shoe_charge"],
            banco=values["banco"],
            clearing=values["clearing"],
            bank_rotation=values["bank_rotation"],
        )
        if game.guest_banked
        else None
    )
    terms: dict[str, object] = {
        "venue": values["venue"],
        "format": values["format"],
        "currency_symbol": values["currency_symbol"],
        "currency": values["currency"],
        "hands_per_shoe": values["hands_per_shoe"],
        "suite_returns": values["suite_returns"],
    }
    if banked is None:  # Punto Banco keeps a guest-banked game's fields as they were set
        terms |= {key: values[key] for key in ("taxe", "taxe_rate", "shoe_charge", "banco",
                                               "clearing")}  # fmt: skip
    return CheckedNight(
        line=night.line,
        name=values["event"],
        on=values["date"],
        table=TableRules(
            rules, values["decks"], values["table_min"], values["table_max"], rounding=rounding
        ),
        money_per_chip=values["money_per_chip"],
        terms=terms,
        game=banked,
        count=values["count"],
        opening_float=values["opening_float"],
        denominations=values["denominations"],
        commission_total=values["commission_total"],
        guests=values["guests"],
        sheets=night.sheets,
    )


def check_night_workbook(nights: list[WorkbookNight]) -> list[CheckedNight]:
    """Each night's terms and play checked, or ``ScoresheetInvalid`` with every problem, each
    named by its sheet's column (and, in a season, its night)."""
    problems = _Problems()
    checked: list[CheckedNight] = []
    first: dict[str, int] = {}
    names = [_text(night.terms.get("event")) for night in nights if night.terms]
    twice = {name for name in names if names.count(name) > 1}
    for night in nights:
        if not night.terms:  # rows of a night the Rules sheet does not name
            for line, cells in [*night.hands, *night.records]:
                event = _text(cells.get("event"))
                kind = "records" if "record" in cells else "coups" if "coup" in cells else "hands"
                sheet = night.sheets.get(kind, "")
                problems.add(line, "event", str(MSG_NO_RULES_ROW).format(event=event), sheet)
            continue
        name = _text(night.terms.get("event"))
        if name in first:
            reason = str(MSG_EVENT_TWICE).format(event=name, first=first[name])
            problems.add(night.line, "event", reason, night.sheets.get("rules", ""))
            continue
        first[name] = night.line - 1
        if name in twice:
            continue  # its rows and the other night's are one: the one problem is the name
        terms = _checked_terms(night, problems)
        if terms is None:
            continue
        played = night.coups if terms.game is not None else night.hands
        stray = night.hands if terms.game is not None else night.coups
        if stray or (played and terms.count == "count_only"):
            wrong = MSG_OTHER_GAME_S_ROWS if stray else MSG_COUNT_ONLY_PLAYED
            problems.add(night.line, "game/count", str(wrong).format(event=name),
                         night.sheets.get("rules", ""))  # fmt: skip
            continue
        try:
            if night.coups and terms.game is not None:
                terms.coups = check_coup_rows(night.coups, terms.table, terms.game)
            elif night.hands:
                terms.hands = check_hand_rows(night.hands, terms.table)
        except ScoresheetInvalid as invalid:
            sheet = night.sheets.get("coups" if terms.game is not None else "hands", "")
            for found in invalid.problems:
                column = f"{name}: {found.column}" if len(nights) > 1 else found.column
                problems.found.append(
                    SheetProblem(found.row, found.line, column, found.reason, sheet)
                )
        else:
            _check_figures(night, terms, problems)  # a sheet read clean, against its Rules
        terms.records = night.records
        _check_records(terms, problems)
        if existing := night_already_in(terms.name, terms.on):
            reason = str(MSG_NIGHT_EXISTS).format(event=existing.name, date=f"{terms.on:%Y-%m-%d}")
            problems.add(night.line, "event", reason, night.sheets.get("rules", ""))
        checked.append(terms)
    if not nights:
        problems.add(1, "event", str(MSG_NO_NIGHTS))
    if problems.found:
        raise ScoresheetInvalid(problems.found)
    return checked


# The Rules columns that could explain a bet's figures coming out otherwise.
_RULES_OF_BET = {
    "tie": ("tie_pays",),
    "player_pair": ("pair_pays",),
    "banker_pair": ("pair_pays",),
    "banker": ("commission_rate", "no_commission"),
}
_RULES_OF_COUPS = ("taxe", "taxe_rate", "shoe_charge", "banco", "suite_returns", "bank_rotation")


def _check_figures(night: WorkbookNight, terms: CheckedNight, problems: _Problems) -> None:
    """The Hands (or Coups) sheet's own figures against the same bets settled by the Rules row:
    a Rules row that says other terms than the play was settled by is refused, not imported
    with other figures."""
    differences: list[tuple[int, str, str, Decimal]] = []  # line, column, as typed, by the rules
    rules: list[str] = []

    def compare(
        cells: dict[str, str], line: int, column: str, figure: Decimal, why: tuple[str, ...]
    ) -> None:
        typed = cells.get(column, "")
        if not typed:
            return  # a scoresheet typed by hand leaves them out
        try:
            same = _decimal(typed).quantize(CENT) == figure.quantize(CENT)
        except (InvalidOperation, ValueError):
            same = False
        if not same:
            differences.append((line, column, typed, figure))
            rules.extend(rule for rule in why if rule not in rules)

    by_line = dict(night.coups if terms.coups else night.hands)
    for hand in terms.hands:
        for bet in hand.settled.bets if hand.settled else ():
            row = hand.rows[bet.index]
            why = _RULES_OF_BET.get(str(bet.bet_type), ("side_bets",))
            for column in ("gross", "commission", "net"):
                figure = getattr(bet.result, column)
                compare(by_line.get(row.line, {}), row.line, column, figure, why)
    for coup in terms.coups:
        banker_seat = coup.cells.get("banker_seat", "")
        for bet in coup.settled.bets if coup.settled else ():
            if bet.index >= 0:
                line = coup.rows[bet.index].line
                compare(by_line.get(line, {}), line, "net", bet.result.net, _RULES_OF_COUPS)
            else:
                column = "banker_net" if str(bet.seat) == banker_seat else "co_banker_net"
                figure = bet.result.net
                compare(by_line.get(coup.line, {}), coup.line, column, figure, _RULES_OF_COUPS)
    if not differences:
        return
    sheet = night.sheets.get("coups" if terms.coups else "hands", "")
    named = [
        str(MSG_FIGURE_DIFFERS).format(line=line, column=column, sheet_says=typed,
                                       rules_say=f"{figure.quantize(CENT)}")
        for line, column, typed, figure in differences[:MAX_DIFFERENCES_NAMED]
    ]  # fmt: skip
    if len(differences) > MAX_DIFFERENCES_NAMED:
        named.append("…")
    reason = str(MSG_FIGURES_DIFFER).format(
        count=len(differences), sheet=sheet, rows="; ".join(named), rules=", ".join(rules)
    )
    problems.add(night.line, "/".join(rules), reason, night.sheets.get("rules", ""))


def _check_records(night: CheckedNight, problems: _Problems) -> None:
    numbers: set[tuple[str, int]] = set()
    sheet = night.sheets.get("records", "")

    def add(line: int, column: str, reason: str) -> None:
        problems.add(line, column, reason, sheet)

    for line, cells in night.records:
        record = _text(cells.get("record"))
        if record not in (CHIP_MOVE, ADJUSTMENT, SETTLEMENT, TRANSFER, TIP):
            add(line, "record", str(MSG_RECORD_KIND))
            continue
        try:
            number = int(_text(cells.get("number")))
            _decimal(cells.get("amount"))
            voids = _text(cells.get("voids"))
            if voids and (record, int(voids)) not in numbers:
                reason = str(MSG_NO_VOIDED_ROW).format(record=record, number=voids,
                                                       event=night.name)  # fmt: skip
                add(line, "voids", reason)
            numbers.add((record, number))
        except (ValueError, InvalidOperation):
            add(line, "number/amount/voids", _("not a number."))
        if record in (CHIP_MOVE, SETTLEMENT):
            try:
                dated = _record_dated(cells.get("dated"))
                if dated is not None:
                    check_dated(Event(date=night.on), dated)
            except ValueError:
                add(line, "dated", str(MSG_NOT_A_DATE).format(text=_text(cells.get("dated"))[:40]))
            except ValidationError as error:
                add(line, "dated", " ".join(error.message_dict["dated"]))
        try:
            _denominations(_text(cells.get("by_denomination")))
        except ValueError:
            add(line, "by_denomination", str(MSG_DENOMINATIONS))
        for column in ("guest", "payee"):
            name = _text(cells.get(column))
            if name or (column == "guest" and record in (ADJUSTMENT, SETTLEMENT, TIP)):
                try:
                    clean_name(name)
                except InvalidName as error:
                    add(line, column, str(error))


def _record_dated(cell: object) -> date | None:
    """A row's date as the sheet gives it (a date cell, or ISO text); ``None``: blank."""
    if cell in (None, ""):
        return None
    return _day(cell)


# --- writing --------------------------------------------------------------------------------


@dataclass
class WorkbookImported:
    events: list[Event]
    created_guests: list[str]
    hands: int
    bets: int


@transaction.atomic
def night_workbook_import(*, nights: list[CheckedNight], by: Actor) -> WorkbookImported:
    """Write the checked nights, in the workbook's order, each as it was: its event with its
    terms, its hands or coups (shoes closed), its count, adjustments and settlements."""
    events: list[Event] = []
    created: set[str] = set()
    hands = bets = 0
    problems = _Problems()
    created |= _guests_in_order([name for night in nights for name in night.guests])
    for night in nights:
        try:
            event, imported = _night(night, by)
        except ValidationError as error:  # the event's own fields, as event_create checks them
            for column, messages in error.message_dict.items():
                problems.add(night.line, column, " ".join(messages), night.sheets.get("rules", ""))
            continue
        if imported is not None:
            created |= set(imported.created_guests)
            hands, bets = hands + imported.hands, bets + imported.bets
        created |= _count_and_records(event, night, by, problems)
        events.append(event)
    if problems.found:
        raise ScoresheetInvalid(problems.found)  # rolls every night back
    return WorkbookImported(events, sorted(created), hands, bets)


def _night(night: CheckedNight, by: Actor) -> tuple[Event, Imported | None]:
    """The night's event with its hands or coups (none: a bare event)."""
    common = {"name": night.name, "on": night.on, "table": night.table, "by": by,
              "money_per_chip": night.money_per_chip, "terms": night.terms}  # fmt: skip
    if night.coups and night.game is not None:
        imported = coup_sheet_import(coups=night.coups, game=night.game, **common)  # type: ignore[arg-type]
    elif night.hands:
        imported = scoresheet_import(hands=night.hands, **common)  # type: ignore[arg-type]
    else:
        return _bare_event(night, by), None
    return imported.event, imported


def _guests_in_order(names: list[str]) -> set[str]:
    """The guests the nights list who are new, created one by one in the workbook's order, so
    that they come into this ledger in the order they came into the one exported."""
    keys = {name_key(name): name for name in names}
    matches = guests_matching(set(keys))
    created = set()
    for key, name in keys.items():
        if key not in matches:
            guests_by_key({key: name})
            created.add(name)
    return created


def _bare_event(night: CheckedNight, by: Actor) -> Event:
    """A night without hands (kept by its count alone, or nothing played yet)."""
    fields: dict[str, Any] = dict(night.terms)
    if night.game is not None:
        fields |= night.game.fields()
    event = game_services.event_create(
        name=night.name,
        date=night.on,
        rules=night.table.rules,
        by=by,
        decks=night.table.decks,
        money_per_chip=night.money_per_chip,
        table_min=night.table.table_min,
        table_max=night.table.table_max,
        **fields,
    )
    AuditEntry.objects.create(
        action=AuditEntry.Action.IMPORT,
        event=event,
        by=by,
        summary=str(event),
        after={"hands": 0, "bets": 0, "count_only": night.count == "count_only"},
    )
    return event


def _count_and_records(
    event: Event, night: CheckedNight, by: Actor, problems: _Problems
) -> set[str]:
    """The night's count setup and its records, in their order; the guests created."""
    if night.count:
        CountSetup.objects.create(
            event=event,
            denominations=stored_denominations(night.denominations),
            opening_float=night.opening_float,
            count_only=night.count == "count_only",
            commission_total=night.commission_total,  # type: ignore[misc]  # None: not kept
        )
    names = {name_key(name): name for name in night.guests}
    names |= {
        name_key(clean_name(_text(cells[column]))): clean_name(_text(cells[column]))
        for _line, cells in night.records
        for column in ("guest", "payee")
        if _text(cells.get(column))
    }
    matches = guests_matching(set(names))
    identity = {key: found[0].name_key for key, found in matches.items() if len(found) == 1}
    guests, created = guests_by_key({identity.get(key, key): name for key, name in names.items()})
    present = set(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
    EventGuest.objects.bulk_create(
        EventGuest(event=event, guest=guest)
        for guest in sorted(guests.values(), key=lambda guest: guest.pk)
        if guest.pk not in present
    )

    def named(column: str, cells: dict[str, Any]) -> Guest | None:
        name = _text(cells.get(column))
        key = name_key(clean_name(name)) if name else ""
        return guests[identity.get(key, key)] if name else None

    written: dict[tuple[str, int], Any] = {}
    ways = {way.name.casefold(): way for way in PayWay.objects.all()}
    for line, cells in night.records:
        record = _text(cells["record"])
        guest = named("guest", cells)
        voids = _text(cells.get("voids"))
        if voids and (record, int(voids)) not in written:
            continue  # the row it voids was refused: its problem is reported
        recorded = cells.get("recorded")
        common: dict[str, Any] = {
            "event": event,
            "recorded_by": by,
            "recorded_at": timezone.make_aware(recorded)
            if isinstance(recorded, datetime)
            else timezone.now(),
            "voids": written[(record, int(voids))] if voids else None,
        }
        amount = _decimal(cells.get("amount"))
        note = _text(cells.get("note"))
        dated = _record_dated(cells.get("dated")) or dated_default(event)
        row: ChipMove | Adjustment | Settlement | Transfer | Tip
        if record == CHIP_MOVE:
            row = ChipMove(
                guest=guest, kind=_text(cells.get("kind")), source=_text(cells.get("source")),
                chips=amount, by_denomination=_denominations(_text(cells.get("by_denomination"))),
                note=note, dated=dated, **common,
            )  # fmt: skip
        elif record == ADJUSTMENT:
            row = Adjustment(guest=guest, amount=amount, reason=note, **common)
        elif record == SETTLEMENT:
            method, way = _text(cells.get("kind")), None
            named_way = plain_text(_text(cells.get("source")))[:60].strip()
            if named_way:
                way = ways.get(named_way.casefold())
                if way is None:  # a way this site's list does not have yet: added, as details
                    kept = method in Settlement.Method.values and method != Settlement.Method.OTHER
                    way = ways[named_way.casefold()] = PayWay.objects.create(
                        name=named_way, kind=PayWay.Kind.DETAILS, position=len(ways) + 1,
                        method=method if kept else Settlement.Method.WAY,
                    )  # fmt: skip
            row = Settlement(guest=guest, amount=amount, method=method, way=way, note=note,
                             tab_reference=_text(cells.get("tab")), dated=dated,
                             **common)  # fmt: skip
        elif record == TIP:
            row = Tip(guest=guest, amount=amount, source=_text(cells.get("kind")), note=note,
                      **common)  # fmt: skip
        else:
            in_chips = _text(cells.get("source")) == IN_CHIPS
            row = Transfer(payer=guest, payee=named("payee", cells), amount=amount,
                           in_chips=in_chips, note=note, **common)  # fmt: skip
        try:
            row.full_clean(validate_unique=False)
        except ValidationError as error:
            for column, messages in error.message_dict.items():
                problems.add(line, column, " ".join(messages), night.sheets.get("records", ""))
            continue
        row.save()
        written[(record, int(_text(cells["number"])))] = row
    results_refresh(
        event_id=event.pk,
        guest_ids=EventGuest.objects.filter(event=event).values_list("guest_id", flat=True),
    )
    return set(created)


def _denominations(text: str) -> dict[str, int]:
    pairs = (part.split(":", 1) for part in text.split())
    counts = {value: read_count(count) for value, count in pairs}
    if None in counts.values():  # int() would read ① or 𝟗
        raise ValueError(text)
    return {value: count for value, count in counts.items() if count is not None}
