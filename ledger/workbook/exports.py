"""The settlement workbook: Summary, Guests, Hands and Settlements sheets, streamed; a night of
a guest-banked game (Chemin de fer, Baccara banque) adds Coups and Transfers. The host's workbook
ends with what an import needs to make its nights again (``imports.night_workbook``): Rules (each
night's terms) and, when there are any, Chips and settlements (every row of the count, the
adjustments and the settlements, voids included).

Rows come from generators over ``.iterator()`` querysets into a write-only openpyxl workbook, so
a season of ~170,000 bets never sits in memory. Every figure is a number cell with a number
format (no formulas to recalculate); every text is a text cell, and text that a spreadsheet
would read as a formula (``=``, ``+``, ``-``, ``@``, a tab...) is kept as text even when the cell
is edited (the ``quotePrefix`` style flag), so a guest's name never executes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from functools import cached_property
from io import BytesIO
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeAlias, cast

from django.db.models import QuerySet
from django.http import FileResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.cell.cell import ERROR_CODES, ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from games.currencies import DEFAULT_CURRENCY, minor_units
from games.models import Event, Hand
from games.payouts import BankedBet
from ledger.count.selectors import counted_on, night_count
from ledger.expenses.selectors import guest_expense_rows, nights_expense_rows
from ledger.guests.names import name_key
from ledger.models import (
    Adjustment,
    Bet,
    ChipMove,
    CountSetup,
    Coup,
    EventGuest,
    Expense,
    Guest,
    Seating,
    Settlement,
    Tip,
    Transfer,
)
from ledger.money.amounts import (
    MSG_MONEY_HEADING,
    ZERO,
    MoneyByCurrency,
    format_money_each,
    money_sign,
    money_sum,
    to_money,
)
from ledger.money.figures import (
    GuestFigures,
    NightFigures,
    SeasonFigures,
    nights_figures,
    without_hands,
)
from ledger.money.results import event_settlement, event_shoe_rows
from ledger.money.transfers import HOUSE_NAME, event_transfer_rows, proposed_transfers
from ledger.ratings.selectors import Rating, ratings_for
from ledger.workbook.imports.coup_sheet import COUP_SHEET_COLUMNS
from shoebook.base.downloads import file_response


@dataclass(frozen=True)
class Total:
    """A total of the ``rows_above`` cells above it in its column: written as a ``SUM`` formula
    with its value cached beside it (``Sheet.finish``), so a spreadsheet shows the figure
    the page shows and recalculates it when a cell above is changed."""

    value: Decimal
    rows_above: int


@dataclass(frozen=True)
class Money:
    """Money in a currency: written as its number, formatted for its currency (its sign, its
    minor units: ¥65,400, €1,234.50, KWD 1.500), in a ``MONEY`` column."""

    amount: Decimal
    currency: str


def money_cell(amounts: MoneyByCurrency) -> Money | str:
    """Money of several nights: a number where they share a currency, else each currency's in
    words (¥65,400 · €12.50), never a sum across currencies."""
    if len(amounts) > 1:
        return format_money_each(amounts)
    for currency, amount in amounts.items():
        return Money(amount, currency)
    return Money(ZERO, DEFAULT_CURRENCY)


# What a cell of the workbook holds.
CellValue: TypeAlias = str | int | float | Decimal | date | datetime | Total | Money | None

if TYPE_CHECKING:
    from openpyxl.styles.cell_style import StyleArray

    class _Cell(Cell):
        # A cell's style, in a slot openpyxl keeps private (types-openpyxl leaves it out): the
        # sheets copy it from one styled cell per kind of column, which is far cheaper than
        # styling each of a season's two million cells by name.
        _style: StyleArray

    def WriteOnlyCell(ws: Worksheet, value: CellValue = None) -> _Cell:
        """openpyxl's, as it is: it takes ``Decimal`` and dates too (types-openpyxl does not)."""
        ...

else:
    from openpyxl.cell import WriteOnlyCell

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
# A column's kind; chips are written with the night's symbol (``chips_format``), negatives red.
CHIPS = "#,##0.00;-#,##0.00"
MONEY = "money"  # a Money's cell: its currency's format (money_format)
WHOLE = "0"
PERCENT = '0.00"%"'
TEXT, DATE, DATETIME = "text", "date", "datetime"

HANDS_COLUMNS = (
    "shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
    "seat", "guest", "bet", "stake", "gross", "commission", "net",
)  # fmt: skip
HANDS_FORMATS = (WHOLE, WHOLE, TEXT, TEXT, TEXT, TEXT, TEXT, WHOLE, TEXT, TEXT, CHIPS, CHIPS,
                 CHIPS, CHIPS)  # fmt: skip


@dataclass(frozen=True)
class Column:
    header: str
    width: float
    kind: str  # a number format, TEXT or DATE


def chips_format(symbol: str) -> str:
    """Chips as the pages write them ("$1,040.00", "-$680.00" in red); no symbol when the
    workbook's nights have different ones."""
    mark = f'"{symbol.replace(chr(34), "")}"' if symbol else ""
    return f"{mark}#,##0.00;[Red]-{mark}#,##0.00"


def money_format(currency: str) -> str:
    """A currency's cells: its sign and its minor units, negatives red
    ('"€"#,##0.00;[Red]-"€"#,##0.00'; yen, won: no decimals; dinars: three)."""
    sign = money_sign(currency).replace('"', "")
    digits = minor_units(currency)
    number = "#,##0" + ("." + "0" * digits if digits else "")
    mark = f'"{sign}"' if not sign.isalpha() else f'"{sign} "'
    return f"{mark}{number};[Red]-{mark}{number}"


def symbol_of(events: Sequence[Event]) -> str:
    """The chip symbol of the workbook's nights, if they share one."""
    symbols = {event.currency_symbol for event in events}
    return symbols.pop() if len(symbols) == 1 else ""


class Sheet:
    """One write-only worksheet: frozen header, widths, landscape fit-to-width printing, cells
    typed by column (chips with the nights' ``symbol``), and a filter on its table."""

    def __init__(
        self, workbook: Workbook, title: str, columns: Sequence[Column], symbol: str = ""
    ) -> None:
        self.sheet: Worksheet = workbook.create_sheet(title)
        self.symbol = symbol
        self.rows = 0
        self.totals: dict[str, Decimal] = {}  # cell → the value its SUM comes to
        self.kinds = [column.kind for column in columns]
        self.sheet.freeze_panes = "A2"
        self.sheet.page_setup.orientation = "landscape"
        self.sheet.page_setup.fitToWidth = 1
        self.sheet.page_setup.fitToHeight = 0
        self.sheet.sheet_properties.pageSetUpPr.fitToPage = True
        self.sheet.print_title_rows = "1:1"
        for index, column in enumerate(columns, start=1):
            self.sheet.column_dimensions[get_column_letter(index)].width = column.width
        self._styles = self._prototypes()
        self._converters = [self._converter(kind) for kind in self.kinds]
        bold = Font(bold=True)
        header = []
        for column in columns:
            cell = WriteOnlyCell(self.sheet, column.header)
            cell.font = bold
            header.append(cell)
        self.sheet.append(header)

    def _prototypes(self) -> dict[str, StyleArray]:
        """One styled cell per kind; copying its style array is far cheaper than styling each
        of a season's two million cells by name."""
        styles = {}
        for kind in {*self.kinds, "quoted"} - {MONEY}:
            cell = WriteOnlyCell(self.sheet, "")
            if kind == "quoted":
                cell.number_format = "@"
                cell.quotePrefix = 1
            elif kind == DATE:
                cell.number_format = "yyyy-mm-dd"
            elif kind == DATETIME:
                cell.number_format = "yyyy-mm-dd hh:mm"
            elif kind == CHIPS:
                cell.number_format = chips_format(self.symbol)
            elif kind != TEXT:
                cell.number_format = kind
            styles[kind] = cell._style
        return styles

    def append(self, values: Sequence[CellValue]) -> None:
        row = self.rows + 2  # under the header
        cells: list[CellValue | Cell] = []
        for index, (convert, value) in enumerate(zip(self._converters, values, strict=True)):
            if isinstance(value, Total):
                column = get_column_letter(index + 1)
                self.totals[f"{column}{row}"] = value.value
                formula = f"=SUM({column}{row - value.rows_above}:{column}{row - 1})"
                cells.append(self._formula(formula, self.kinds[index]))
            else:
                cells.append(convert(value))
        self.sheet.append(cells)
        self.rows += 1

    def _formula(self, formula: str, kind: str) -> Cell:
        cell = WriteOnlyCell(self.sheet, formula)
        cell._style = copy(self._styles[kind])
        return cell

    def _money(self, value: CellValue) -> CellValue | Cell:
        """A ``MONEY`` column's cell: a ``Money`` in its currency's format (one styled
        prototype per currency), anything else as text."""
        if not isinstance(value, Money):
            return None if value is None else str(value)
        style = self._styles.get(value.currency)
        if style is None:
            prototype = WriteOnlyCell(self.sheet, "")
            prototype.number_format = money_format(value.currency)
            style = self._styles[value.currency] = prototype._style
        cell = WriteOnlyCell(self.sheet, value.amount)
        cell._style = copy(style)
        return cell

    def finish(self) -> None:
        """The filter arrows on the header, over every row written; the totals' values cached
        beside their formulas (openpyxl writes a formula alone, which a program that does not
        recalculate — a phone's viewer, a preview — shows empty)."""
        if self.rows:
            last = get_column_letter(len(self.kinds))
            self.sheet.auto_filter.ref = f"A1:{last}{self.rows + 1}"
        if self.totals:
            # The sheet's XML is complete once closed, in a file of openpyxl's that the save
            # then copies into the workbook: the values go in there, in a sheet of totals only
            # a few hundred rows long, and no other part is written twice.
            sheet = cast(Any, self.sheet)  # a write-only sheet: types-openpyxl knows the other kind
            sheet.close()
            written = Path(sheet._writer.out)
            written.write_bytes(cache_totals(written.read_bytes(), self.totals))

    def _converter(self, kind: str) -> Callable[[CellValue], CellValue | Cell]:
        """How a column's values become cells, chosen once per column: a season is two million
        cells, and only money needs a styled cell; text needs one only when it is risky."""
        sheet, quoted = self.sheet, self._styles["quoted"]

        def text(value: CellValue) -> CellValue | Cell:
            # openpyxl makes a formula of a string starting with "=" and an error of "#N/A"
            # and the like; anything else it writes as plain text, which is what we want.
            if not isinstance(value, str) or not value:
                return value if value != "" else None
            # A control character cannot be in a workbook at all (openpyxl refuses the sheet);
            # names refuse them on the way in, and an old row never breaks an export.
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
            if not value.startswith(FORMULA_STARTS) and value not in ERROR_CODES:
                return value
            cell = WriteOnlyCell(sheet, value)
            cell.data_type = "s"
            cell._style = copy(quoted)
            return cell

        if kind in (TEXT, WHOLE):
            return text
        if kind == MONEY:
            return self._money
        style = self._styles[kind]

        def styled(value: CellValue) -> CellValue | Cell:
            if value is None or isinstance(value, str):
                return text(value)
            cell = WriteOnlyCell(sheet, value)
            cell._style = copy(style)
            return cell

        return styled


SheetSpec = tuple[str, list[Column], Iterator[Sequence[CellValue]]]


class Nights(list[Event]):
    """A workbook's nights, their figures read once for all its sheets."""

    @cached_property
    def figures(self) -> dict[int, NightFigures]:
        return {night.event.pk: night for night in nights_figures(self)}


def figures_of(events: Sequence[Event]) -> dict[int, NightFigures]:
    """The nights' figures (:mod:`ledger.money.figures`), by event id."""
    return (events if isinstance(events, Nights) else Nights(events)).figures


def money_heading(what: str, events: Sequence[Event]) -> str:
    """A money column's heading: "Net (€)" where the nights share a currency, "Net (money)"
    where they do not (each cell then in its night's)."""
    currencies = {event.currency for event in events}
    if len(currencies) == 1:
        return str(MSG_MONEY_HEADING).format(what=what, sign=money_sign(currencies.pop()))
    return str(MSG_MONEY_HEADING).format(what=what, sign=_("money"))


def cut_heading(events: Sequence[Event]) -> str:
    """The house's cut as the nights call it: the taxe where a guest banks, the commission at
    Punto Banco, both when the workbook holds both kinds of night."""
    kinds = {event.is_guest_banked for event in events}
    if len(kinds) > 1:
        return _("Commission or taxe")
    return events[0].cut_name if events else _("Commission")


def summary_sheet(events: Sequence[Event]) -> SheetSpec:
    """Per night, a row per shoe, a row for its result without hands (the count's, the
    adjustments, a tournament's entries and prizes) and its total; every figure from
    :mod:`ledger.money.figures`, the night's drop and hold on its total row."""
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Date"), 12, DATE), Column(_("Venue"), 20, TEXT),
        Column(_("Rules"), 50, TEXT), Column(_("Money per chip"), 12, "#,##0.####"),
        Column(_("Shoe"), 8, WHOLE), Column(_("Hands"), 8, WHOLE),
        Column(_("Wagered"), 14, CHIPS), Column(_("Guests' gross"), 14, CHIPS),
        Column(cut_heading(events), 12, CHIPS), Column(_("Guests' net"), 14, CHIPS),
        Column(_("House net"), 14, CHIPS), Column(money_heading(_("House net"), events), 16, MONEY),
        Column(_("Drop"), 14, CHIPS), Column(_("Hold % of drop"), 12, PERCENT),
    ]  # fmt: skip

    nights = figures_of(events)

    def rows() -> Iterator[Sequence[CellValue]]:
        for event in events:
            night = nights[event.pk]
            rules = _(event.game_kind.label) if event.is_guest_banked else event.describe_rules(_)
            if night.count_only:
                rules = f"{rules} · {_('count only')}"
            head: list[CellValue] = [event.name, event.date, event.venue, rules,
                                     event.money_per_chip]  # fmt: skip
            currency = event.currency
            shoes, _totals = event_shoe_rows(event)
            for row in shoes:
                figures = row.figures
                yield [
                    *head, row.number, row.hands, figures.wagered, figures.gross,
                    figures.commission, figures.net, figures.house_net,
                    Money(row.house_net_money, currency), None, None,
                ]  # fmt: skip
            above = len(shoes)
            for extra in without_hands(night):
                yield [*head, extra.label, 0, None, extra.gross, extra.commission, extra.net,
                       extra.house_net,
                       Money(to_money(extra.house_net, event.money_per_chip, currency), currency),
                       None, None]  # fmt: skip
                above += 1
            # The night's money as the event page rounds it, once for the night (a sum of each
            # shoe's rounded money could differ).
            wagered: CellValue = night.handle
            if night.handle is not None and above:
                wagered = Total(night.handle, above)
            yield [
                *head, _("Total"), night.hands, wagered,
                *(Total(value, above) if above else value for value in (
                    night.gross, night.commission, night.net, night.house_net,
                )),
                Money(night.house_net_money, currency), night.drop,
                None if night.hold is None else night.hold,
            ]  # fmt: skip
        if len(events) > 1:
            # The House page's season figures, added up as it adds them (hold over the nights
            # whose drop is known): the nights' figures already read, summed by SeasonFigures.
            # Money in more than one currency is never added up: a line of it per currency.
            season = SeasonFigures([nights[event.pk] for event in events])
            money = season.house_net_money or {DEFAULT_CURRENCY: ZERO}
            for index, (currency, amount) in enumerate(money.items()):
                totals: list[CellValue] = [
                    season.hands, season.handle, season.gross, season.commission, season.net,
                    season.house_net,
                ] if not index else [None] * 6  # fmt: skip
                yield [
                    None, None, None, None, None, _("Season total"), *totals,
                    Money(amount, currency),
                    *((season.drop, season.hold) if not index else (None, None)),
                ]  # fmt: skip

    return _("Summary"), columns, rows()


def _tipped(events: Sequence[Event]) -> dict[tuple[int, int], Decimal]:
    """What each guest tipped the dealers at each night (voids netted): one query."""
    found = (
        Tip.objects.filter(event__in=[event.pk for event in events])
        .values_list("event_id", "guest_id")
        .annotate(n=money_sum("amount"))
        .order_by()
    )
    return {(event_id, guest_id): Decimal(n) for event_id, guest_id, n in found}


def guests_sheet(events: Sequence[Event], only: Guest | None) -> SheetSpec:
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Guest"), 20, TEXT),
        Column(_("Hands"), 8, WHOLE), Column(_("Wagered"), 14, CHIPS),
        Column(_("Gross"), 12, CHIPS), Column(cut_heading(events), 12, CHIPS),
        Column(_("Net"), 12, CHIPS), Column(money_heading(_("Net"), events), 14, MONEY),
        Column(_("Balance before"), 14, CHIPS), Column(_("Settlements"), 14, CHIPS),
        Column(_("Balance after"), 14, CHIPS),
        Column(money_heading(_("Balance after"), events), 16, MONEY),
        Column(_("How settled"), 30, TEXT), Column(_("Expenses"), 14, CHIPS),
        Column(_("Tips"), 12, CHIPS),
    ]  # fmt: skip

    nights = figures_of(events)
    tipped = _tipped(events)

    def rows() -> Iterator[Sequence[CellValue]]:
        for event in events:
            night = nights[event.pk]
            methods: dict[int, set[str]] = {}
            kept = Settlement.objects.filter(event=event, voids=None, voided_by=None)
            for settlement in kept.select_related("way"):
                methods.setdefault(settlement.guest_id, set()).add(settlement.how)
            # By name (its key, then as written): an import writes the same sheet, whatever the
            # balances the guests carry in.
            lines = sorted(
                event_settlement(event), key=lambda line: (name_key(line.name), line.name)
            )
            for line in lines:
                if only is not None and line.guest_id != only.pk:
                    continue
                # At a night kept by its count alone a guest's gross and commission are not
                # known (the host enters the commission in all): blank, as the figures say.
                result = night.guest(line.guest_id) or GuestFigures(line.guest_id, line.name)
                # The night's result less its expenses (what the guest paid less their shares)
                # and their tips to the dealers, which come last:
                # before + net + expenses + tips + settlements = after.
                tips = -tipped.get((event.pk, line.guest_id), ZERO)
                net = line.result - result.expenses - tips
                yield [
                    event.name,
                    line.name,
                    result.hands,
                    result.wagered,
                    result.gross,
                    result.commission,
                    net,
                    Money(to_money(net, event.money_per_chip, event.currency), event.currency),
                    line.before,
                    line.settled,
                    line.after,
                    money_cell(line.after_money),
                    ", ".join(sorted(methods.get(line.guest_id, ()))),
                    result.expenses,
                    tips,
                ]

    return _("Guests"), columns, rows()


def hands_rows(
    events: Sequence[Event], guest: Guest | None = None
) -> Iterator[tuple[CellValue, ...]]:
    """One row per bet, in the scoresheet's columns (importable as they are), preceded by the
    event's name; a hand without bets is one row with empty seat, guest, bet and stake. With
    ``guest``, only the hands that guest bet on."""
    ids = [event.pk for event in events]
    hands = Hand.objects.filter(shoe__event__in=ids)
    bets = Bet.objects.filter(event__in=ids)
    if guest is not None:
        hands = hands.filter(bets__guest=guest).distinct()
        bets = bets.filter(guest=guest)
    order = ("shoe__event__date", "shoe__event_id", "shoe__number", "number")
    hand_rows = hands.order_by(*order).values_list(
        "pk",
        "shoe__event__name",
        "shoe__number",
        "number",
        "player_cards",
        "banker_cards",
        "winner",
        "player_pair",
        "banker_pair",
    )
    # Both streams come in hand order (plain tuples, a chunk at a time): walk them side by side.
    stream = (
        bets.order_by(*(f"hand__{field}" for field in order), "seat", "id")
        .values_list(
            "hand_id", "seat", "guest__name", "bet_type", "stake", "gross", "commission", "net"
        )
        .iterator(chunk_size=5000)
    )
    pending = next(stream, None)
    for (
        pk,
        event,
        shoe,
        number,
        player,
        banker,
        winner,
        player_pair,
        banker_pair,
    ) in hand_rows.iterator(chunk_size=5000):
        noted = "" if player else None
        head = (
            event, shoe, number, player, banker, winner[0].upper(),
            noted if noted is not None else ("yes" if player_pair else "no"),
            noted if noted is not None else ("yes" if banker_pair else "no"),
        )  # fmt: skip
        placed = False
        while pending is not None and pending[0] == pk:
            yield (*head, *pending[1:])
            placed = True
            pending = next(stream, None)
        if not placed:
            yield (*head, None, None, None, None, None, None, None)


def hands_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    widths = (7, 7, 14, 14, 8, 11, 11, 6, 20, 14, 10, 10, 11, 10)
    columns = [Column(_("Event"), 24, TEXT)] + [
        Column(name, width, kind)
        for name, width, kind in zip(HANDS_COLUMNS, widths, HANDS_FORMATS, strict=True)
    ]
    return pgettext("workbook sheet of every hand", "Hands"), columns, hands_rows(events, guest)


def local_time(moment: datetime) -> datetime:
    """A stored moment as the wall clock read it here: a spreadsheet has no time zones."""
    return timezone.localtime(moment).replace(tzinfo=None)


def settlements_sheet(settlements: QuerySet[Settlement]) -> SheetSpec:
    """Every settlement row, voids included: a void has the amount negated, the reason as its
    note, and the number of the row it voids."""
    columns = [
        Column(_("Recorded"), 17, DATETIME), Column(_("Event"), 24, TEXT),
        Column(_("Guest"), 20, TEXT), Column(_("Guest paid the house"), 16, CHIPS),
        Column(_("How"), 30, TEXT), Column(_("Note"), 30, TEXT),
        Column(_("Number"), 9, WHOLE), Column(_("Voids number"), 12, WHOLE),
        Column(_("Date"), 12, DATE),  # the day the money changed hands; "Recorded": typed
    ]  # fmt: skip
    rows: Iterator[Sequence[CellValue]] = (
        [
            local_time(s.recorded_at),
            s.event.name,
            s.guest.name,
            s.amount,
            s.how,
            s.note,
            s.pk,
            s.voids_id,
            s.dated,
        ]
        for s in settlements.select_related("event", "guest", "way").order_by("recorded_at", "id")
    )
    return _("Settlements"), columns, rows


# --- guest-banked nights: the coups and who pays whom ---------------------------------------

# The Coups sheet: the scoresheet's columns for a guest-banked night (importable as they are),
# then what each coup came to.
COUPS_COLUMNS = (
    *COUP_SHEET_COLUMNS,
    "net", "covered", "card_holder", "card_holder_2", "house_cut", "banker_net",
    "co_banker_net", "bank_after",
)  # fmt: skip
_COUPS_KINDS = {
    "shoe": WHOLE, "coup": WHOLE, "banker_seat": WHOLE, "co_banker_seat": WHOLE,
    "seat": WHOLE, "suite_seat": WHOLE, "bank": CHIPS, "stake": CHIPS, "taken": CHIPS,
    "suite_amount": CHIPS, "net": CHIPS, "covered": CHIPS, "house_cut": CHIPS,
    "banker_net": CHIPS, "co_banker_net": CHIPS, "bank_after": CHIPS,
}  # fmt: skip
_COUPS_WIDTHS = {"banker": 16, "co_banker": 16, "guest": 16, "suite_taker": 16,
                 "card_holder": 16, "card_holder_2": 16, "stake_kind": 14, "ponte_cards": 12,
                 "banker_cards": 12, "tableau_2_cards": 12}  # fmt: skip

# A coup as the sheet reads it: its columns in the order of ``_COUP_VALUES``.
_COUP_VALUES = (
    "hand_id", "hand__shoe_id", "hand__shoe__event__name", "hand__shoe__number",
    "hand__number", "banker_id", "banker__name", "banker_seat", "bank", "co_banker_id",
    "co_banker__name", "co_banker_seat", "hand__player_cards", "banker_cards", "hand__winner",
    "second_cards", "second_winner", "ponte_choice", "banker_choice", "second_choice", "move",
    "taken", "suite_seat", "suite_amount", "covered", "holder_seat", "second_holder_seat",
    "house_cut", "bank_after",
)  # fmt: skip


def _result_letter(winner: str) -> str:
    return winner[:1].upper()


class _SeatBook:
    """Who sat where in the events' shoes, read once: a coup names seats, the sheet names."""

    def __init__(self, event_ids: Sequence[int]) -> None:
        self.runs: dict[tuple[int, int], list[tuple[int, int | None, str]]] = {}
        seatings = Seating.objects.filter(shoe__event__in=event_ids).order_by("from_hand", "pk")
        for shoe_id, seat, first, last, name in seatings.values_list(
            "shoe_id", "seat", "from_hand", "to_hand", "guest__name"
        ):
            self.runs.setdefault((shoe_id, seat), []).append((first, last, name))

    def name(self, shoe_id: int, seat: int | None, number: int) -> str:
        if seat is None:
            return ""
        for first, last, name in self.runs.get((shoe_id, seat), ()):
            if first <= number and (last is None or number <= last):
                return name
        return ""


def coups_rows(
    events: Sequence[Event], guest: Guest | None = None
) -> Iterator[tuple[CellValue, ...]]:
    """One row per ponte's stake, the coup's columns repeated (the guest-banked scoresheet's,
    importable as they are), then the stake's net and what the coup came to; preceded by the
    event's name. With ``guest``, only that guest's stakes, and a row without a stake for each
    coup the guest banked (or shared the bank of)."""
    ids = [event.pk for event in events]
    order = ("hand__shoe__event__date", "hand__shoe__event_id", "hand__shoe__number",
             "hand__number")  # fmt: skip
    coups = Coup.objects.filter(event__in=ids).order_by(*order).values_list(*_COUP_VALUES)
    bets = Bet.objects.filter(event__in=ids, hand__coup__isnull=False)
    if guest is not None:
        bets = bets.filter(guest=guest)
    stream = (
        bets.order_by(*order, "seat", "id")
        .values_list(
            "hand_id", "guest_id", "seat", "guest__name", "bet_type", "cover_kind", "stake", "net"
        )
        .iterator(chunk_size=5000)
    )
    seats = _SeatBook(ids)
    pending = next(stream, None)
    for values in coups.iterator(chunk_size=2000):
        coup = dict(zip(_COUP_VALUES, values, strict=True))
        stakes: list[tuple[CellValue, ...]] = []
        bank_nets: dict[int, Decimal] = {}  # the bank's side: banker's and co-banker's
        while pending is not None and pending[0] == coup["hand_id"]:
            _hand, guest_id, seat, name, bet_type, kind, stake, net = pending
            if bet_type == BankedBet.BANK:
                bank_nets[guest_id] = net
            else:
                stakes.append((seat, name, kind or bet_type, stake, net))
            pending = next(stream, None)
        if not stakes and not bank_nets:
            continue  # a guest's sheet: a coup they neither staked on nor banked
        head, play, after = _coup_cells(coup, seats, bank_nets)
        for stake_cells in stakes or [(None, None, None, None, None)]:
            *stake_row, stake_net = stake_cells
            yield (*head, *stake_row, *play, stake_net, *after)


def _coup_cells(
    coup: dict[str, Any], seats: _SeatBook, bank_nets: dict[int, Decimal]
) -> tuple[tuple[CellValue, ...], tuple[CellValue, ...], tuple[CellValue, ...]]:
    """A coup's cells: before a stake's (seat, guest, stake_kind, stake), between it and its
    net (the play), and after (what the coup came to)."""
    shoe, number = coup["hand__shoe_id"], coup["hand__number"]
    head = (
        coup["hand__shoe__event__name"], coup["hand__shoe__number"], number,
        coup["banker__name"], coup["banker_seat"], coup["bank"], coup["co_banker__name"] or "",
        coup["co_banker_seat"],
    )  # fmt: skip
    given = coup["suite_seat"] is not None
    play = (
        coup["hand__player_cards"], coup["banker_cards"], _result_letter(coup["hand__winner"]),
        coup["second_cards"], _result_letter(coup["second_winner"]), coup["ponte_choice"],
        coup["banker_choice"], coup["second_choice"], coup["move"], coup["taken"],
        seats.name(shoe, coup["suite_seat"], number) if given else "", coup["suite_seat"],
        coup["suite_amount"],
    )  # fmt: skip
    after = (
        coup["covered"], seats.name(shoe, coup["holder_seat"], number),
        seats.name(shoe, coup["second_holder_seat"], number), coup["house_cut"],
        bank_nets.get(coup["banker_id"]),
        bank_nets.get(coup["co_banker_id"]) if coup["co_banker_id"] is not None else None,
        coup["bank_after"],
    )  # fmt: skip
    return head, play, after


def coups_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    columns = [Column(_("Event"), 24, TEXT)] + [
        Column(name, _COUPS_WIDTHS.get(name, 9), _COUPS_KINDS.get(name, TEXT))
        for name in COUPS_COLUMNS
    ]
    return pgettext("workbook sheet of every coup", "Coups"), columns, coups_rows(events, guest)


def transfers_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    """The guest-banked nights' transfers: those still proposed (who pays whom, the fewest
    there can be, or each with the house: ``ledger.money.transfers.proposed_transfers``) and those
    recorded as they happened, voids included. With ``guest``, only the transfers they pay or
    receive."""
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Transfer"), 12, TEXT),
        Column(pgettext("a transfer's payer", "Pays"), 20, TEXT),
        Column(pgettext("a transfer's payee", "To"), 20, TEXT), Column(_("Amount"), 14, CHIPS),
        Column(money_heading(_("Amount"), events), 14, MONEY),
        Column(_("Recorded"), 17, DATETIME),
        Column(_("Note"), 30, TEXT),
    ]  # fmt: skip
    house = str(HOUSE_NAME)

    def mine(*party_ids: int | None) -> bool:
        return guest is None or guest.pk in party_ids

    def rows() -> Iterator[Sequence[CellValue]]:
        for event in events:
            if not event.is_guest_banked:
                continue
            rate, currency = event.money_per_chip, event.currency
            for line in proposed_transfers(event):
                if mine(line.payer.guest_id, line.payee.guest_id):
                    yield [
                        event.name,
                        pgettext("a transfer", "Proposed"),
                        line.payer.name,
                        line.payee.name,
                        line.amount,
                        Money(to_money(line.amount, rate, currency), currency),
                        None,
                        "",
                    ]
            for row in event_transfer_rows(event):
                done = row.transfer
                if mine(done.payer_id, done.payee_id):
                    kind = _("Void") if done.voids_id else pgettext("a transfer", "Recorded")
                    yield [
                        event.name,
                        kind,
                        done.payer.name if done.payer else house,
                        done.payee.name if done.payee else house,
                        done.amount,
                        Money(to_money(done.amount, rate, currency), currency),
                        local_time(done.recorded_at),
                        done.note,
                    ]

    return _("Transfers"), columns, rows()


def expenses_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    """The nights' expenses, a row per share as stored (``ledger.expenses``: to the cent, the
    odd cents by the stated rule), voids included. With ``guest``, the expenses they paid or
    share: every share of one they paid, only their own of the others."""
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Expense"), 10, WHOLE),
        Column(_("What"), 24, TEXT), Column(_("Amount"), 14, CHIPS),
        Column(_("Paid by"), 20, TEXT), Column(_("Paid with"), 20, TEXT),
        Column(_("Sharer"), 20, TEXT), Column(_("Weight"), 8, WHOLE),
        Column(_("Share"), 14, CHIPS), Column(money_heading(_("Share"), events), 14, MONEY),
        Column(_("Recorded"), 17, DATETIME), Column(_("Void of"), 10, WHOLE),
        Column(_("Note"), 30, TEXT),
    ]  # fmt: skip
    house = str(HOUSE_NAME)
    ids = [event.pk for event in events]

    def rows() -> Iterator[Sequence[CellValue]]:
        found = guest_expense_rows(guest, ids) if guest is not None else nights_expense_rows(ids)
        for row in found:
            expense = row.expense
            payer = expense.paid_by.name if expense.paid_by else house
            for share in row.shares:
                if guest is not None and guest.pk not in (expense.paid_by_id, share.guest_id):
                    continue
                yield [
                    expense.event.name, expense.pk, expense.what, expense.amount, payer,
                    str(expense.get_paid_in_display()),
                    share.guest.name if share.guest else house, share.weight, share.amount,
                    Money(to_money(share.amount, expense.event.money_per_chip,
                                   expense.event.currency), expense.event.currency),
                    local_time(expense.recorded_at), expense.voids_id, expense.note,
                ]  # fmt: skip

    return _("Expenses"), columns, rows()


def _has_expenses(events: Sequence[Event]) -> bool:
    return Expense.objects.filter(event__in=[event.pk for event in events]).exists()


def count_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    """The count of each night that counted its chips: per guest, chips taken (and how paid),
    the result the books give, adjustments, expected, counted and the difference; then the
    house's tray. With ``guest``, only that guest's rows (no tray)."""
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Guest"), 20, TEXT),
        Column(_("Chips taken"), 14, CHIPS), Column(_("Paid by"), 18, TEXT),
        Column(_("Result"), 14, CHIPS), Column(_("Adjustments"), 14, CHIPS),
        Column(_("Expected"), 14, CHIPS), Column(_("Counted"), 14, CHIPS),
        Column(_("Difference"), 14, CHIPS), Column(_("Kept by"), 14, TEXT),
        Column(_("Counted on"), 12, DATE),
    ]  # fmt: skip
    counted = _counted(events)

    def rows() -> Iterator[Sequence[CellValue]]:
        for event in counted:
            night = night_count(event)
            kept_by = (
                _("count only") if night.setup.count_only else pgettext("a night kept by", "hands")
            )
            for line in night.guests:
                if guest is not None and line.guest.pk != guest.pk:
                    continue
                count = line.count
                yield [
                    event.name, line.guest.name, count.taken, ", ".join(line.bought_by),
                    count.net, count.adjusted, count.expected, count.counted, count.difference,
                    kept_by, line.counted_on,
                ]  # fmt: skip
            if guest is None:
                tray = night.reconciliation.tray
                yield [
                    event.name, _("The house's tray"), tray.opening_float, "", tray.house_net,
                    tray.adjusted, tray.expected, tray.counted, tray.difference, kept_by,
                    counted_on(night.tray_moves),
                ]  # fmt: skip
                # The chips tipped at the table, beside the tray, as the count page shows
                # them: without it the sheet's chips counted fall short of the chips taken.
                if box := night.reconciliation.tips_box:
                    yield [
                        event.name, _("Tips box"), None, "", None, None, box, box, ZERO,
                        kept_by, None,
                    ]  # fmt: skip

    return _("Count"), columns, rows()


def _counted(events: Sequence[Event]) -> list[Event]:
    """The nights among ``events`` with chips recorded. One query."""
    ids = set(
        ChipMove.objects.filter(event__in=[event.pk for event in events]).values_list(
            "event_id", flat=True
        )
    )
    return [event for event in events if event.pk in ids]


# --- what an import needs to make the nights again ------------------------------------------

# The Rules sheet: one row per night, its columns named as the import reads them (the event's
# fields, its rule set's, and its count's setup). ``count``: "" (no count), "hands" (counted
# beside its hands) or "count_only". ``guests``: the night's guests, one a line, in the order they
# came into the ledger (which settles ties when the fewest transfers are chosen).
RULES_COLUMNS = (
    "event", "date", "venue", "kind", "format", "game", "commission_rate", "no_commission",
    "tie_pays", "pair_pays", "side_bets", "decks", "table_min", "table_max", "hands_per_shoe",
    "currency_symbol", "money_per_chip", "taxe", "taxe_rate", "shoe_charge", "banco",
    "suite_returns", "clearing", "count", "opening_float", "denominations", "commission_total",
    "guests", "bank_rotation", "rounding", "smallest_chip", "currency",
)  # fmt: skip
_RULES_KINDS = {
    "date": DATE, "tie_pays": WHOLE, "pair_pays": WHOLE, "decks": WHOLE, "hands_per_shoe": WHOLE,
    "table_min": CHIPS, "table_max": CHIPS, "shoe_charge": CHIPS, "opening_float": CHIPS,
    "commission_total": CHIPS, "commission_rate": "0.00##", "taxe_rate": "0.00##",
    "smallest_chip": CHIPS,
    "money_per_chip": "#,##0.####",
}  # fmt: skip


def rules_sheet(events: Sequence[Event]) -> SheetSpec:
    """Each night's terms as the import reads them: the rules (commission, the side bets
    offered, what a tie and a pair pay), decks, limits, venue, currency and rate, a guest-banked
    game's cut, and how its chips were counted."""
    columns = [
        Column(name, 24 if name in ("event", "venue") else 12, _RULES_KINDS.get(name, TEXT))
        for name in RULES_COLUMNS
    ]
    setups = {setup.event_id: setup for setup in CountSetup.objects.filter(event__in=events)}
    guests: dict[int, list[str]] = {}
    for event_id, name in (
        EventGuest.objects.filter(event__in=events)
        .order_by("guest_id")
        .values_list("event_id", "guest__name")
    ):
        guests.setdefault(event_id, []).append(name)

    def rows() -> Iterator[Sequence[CellValue]]:
        for event in events:
            rules = event.rule_set.to_dict()
            setup = setups.get(event.pk)
            count = "" if setup is None else "count_only" if setup.count_only else "hands"
            yield [
                event.name, event.date, event.venue, event.kind, event.format, event.game,
                Decimal(rules["commission_rate"]), rules["no_commission"], rules["tie_pays"],
                rules["pair_pays"], " ".join(rules["side_bets"]), event.decks, event.table_min,
                event.table_max, event.hands_per_shoe, event.currency_symbol, event.money_per_chip,
                event.taxe, event.taxe_rate, event.shoe_charge, event.banco,
                event.suite_returns, event.clearing, count,
                setup.opening_float if setup else None,
                " ".join(setup.denominations) if setup else "",
                setup.commission_total if setup else None,
                "\n".join(guests.get(event.pk, [])), event.bank_rotation, event.rounding,
                event.smallest_chip, event.currency,
            ]  # fmt: skip

    return _("Rules"), columns, rows()


# The Chips and settlements sheet: every chip move, adjustment, settlement and transfer of the
# nights, in the order recorded. ``number`` counts each record's rows within its night (1, 2,
# 3…) and ``voids`` names the number a void reverses, so the sheet says the same after an
# import. A transfer's ``guest`` pays its ``payee`` (blank: the house); its ``source`` is
# "in_chips" when it was paid in chips at the table.
RECORD_COLUMNS = (
    "event", "record", "number", "guest", "kind", "source", "amount", "by_denomination",
    "note", "recorded", "voids", "payee", "dated",
)  # fmt: skip
# Columns after those, which a sheet exported before them does not have (it is read all the
# same): ``tab``, the tab a settlement was settled against.
RECORD_EXTRA_COLUMNS = ("tab",)
_RECORD_KINDS = {"number": WHOLE, "amount": CHIPS, "recorded": DATETIME, "voids": WHOLE,
                 "dated": DATE}  # fmt: skip
CHIP_MOVE, ADJUSTMENT, SETTLEMENT, TRANSFER = "chip_move", "adjustment", "settlement", "transfer"
TIP = "tip"  # a tip to the dealers: its ``kind`` is where it came from (a hand's win, chips…)
IN_CHIPS = "in_chips"
_RECORD_MODELS = ((CHIP_MOVE, ChipMove, ("guest",)), (ADJUSTMENT, Adjustment, ("guest",)),
                  (SETTLEMENT, Settlement, ("guest", "way")),
                  (TRANSFER, Transfer, ("payer", "payee")),
                  (TIP, Tip, ("guest",)))  # fmt: skip


def _records(events: Sequence[Event]) -> list[tuple[str, Any]]:
    ids = [event.pk for event in events]
    found: list[tuple[str, Any]] = []
    for record, model, related in _RECORD_MODELS:
        rows = model.objects.filter(event__in=ids).select_related(*related)
        found += [(record, row) for row in rows.order_by("recorded_at", "id")]
    order = {event.pk: index for index, event in enumerate(events)}
    return sorted(found, key=lambda pair: order[pair[1].event_id])  # stable: recorded order


def records_sheet(events: Sequence[Event]) -> SheetSpec:
    columns = [
        Column(name, 20 if name in ("event", "guest", "note") else 12,
               _RECORD_KINDS.get(name, TEXT))
        for name in (*RECORD_COLUMNS, *RECORD_EXTRA_COLUMNS)
    ]  # fmt: skip
    records = _records(events)
    names = {event.pk: event.name for event in events}

    def rows() -> Iterator[Sequence[CellValue]]:
        numbers: dict[tuple[str, int, int], int] = {}  # (record, event, id) → its number
        counts: dict[tuple[str, int], int] = {}  # (record, event) → rows so far
        for record, row in records:
            number = counts[(record, row.event_id)] = counts.get((record, row.event_id), 0) + 1
            numbers[(record, row.event_id, row.pk)] = number
            voids = numbers.get((record, row.event_id, row.voids_id)) if row.voids_id else None
            payee = ""
            if record == TRANSFER:
                guest, payee = row.payer, row.payee.name if row.payee else ""
            else:
                guest = row.guest
            if record == CHIP_MOVE:
                kind, source, amount, note = row.kind, row.source, row.chips, row.note
                chips = " ".join(f"{value}:{count}" for value, count in row.by_denomination.items())
            elif record == ADJUSTMENT:
                kind, source, amount, note, chips = "", "", row.amount, row.reason, ""
            elif record == TIP:
                kind, source, amount, note, chips = row.source, "", row.amount, row.note, ""
            elif record == SETTLEMENT:
                # "source": the settlement's way to pay, by name (the import finds it again)
                source = row.way.name if row.way_id is not None else ""
                kind, amount, note, chips = row.method, row.amount, row.note, ""
            else:
                source = IN_CHIPS if row.in_chips else ""
                kind, amount, note, chips = "", row.amount, row.note, ""
            yield [
                names[row.event_id], record, number, guest.name if guest else "", kind, source,
                amount, chips, note, local_time(row.recorded_at), voids, payee,
                getattr(row, "dated", None),  # a chip row's or a settlement's day
                getattr(row, "tab_reference", ""),  # a settlement's tab
            ]  # fmt: skip

    return _("Chips and settlements"), columns, rows()


RATINGS_TOTAL = _("All these nights")


def ratings_sheet(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    """Each guest's rating at each night (``ledger.ratings``), the house's (its guests' added
    up) under them, and over a season every guest's and the house's over all its nights: the
    figures the guest's page and the House page show, from the same source."""
    columns = [
        Column(_("Event"), 24, TEXT), Column(_("Guest"), 20, TEXT),
        Column(_("Hands"), 8, WHOLE), Column(_("Hours"), 8, "0.0"),
        Column(_("Average bet"), 12, CHIPS), Column(_("Handle"), 14, CHIPS),
        Column(_("Handle not priced"), 14, CHIPS), Column(_("Theoretical win"), 14, CHIPS),
        Column(money_heading(_("Theoretical win"), events), 16, MONEY),
        Column(_("Actual"), 12, CHIPS), Column(money_heading(_("Actual"), events), 14, MONEY),
        Column(_("SD"), 12, CHIPS), Column("z", 8, "0.00"),
        Column(_("Theoretical hold"), 12, PERCENT), Column(_("Actual hold"), 12, PERCENT),
    ]  # fmt: skip
    ratings = ratings_for(events, guest_id=None if guest is None else guest.pk)

    def cells(label: str, name: str, rating: Rating) -> list[CellValue]:
        return [
            label, name, rating.hands, rating.hours, rating.average_bet, rating.handle,
            rating.unpriced, rating.theo, money_cell(rating.theo_money), rating.actual,
            money_cell(rating.actual_money), rating.sd, rating.z, rating.theo_hold,
            rating.actual_hold,
        ]  # fmt: skip

    def rows() -> Iterator[Sequence[CellValue]]:
        for night in ratings.nights:
            for rating in night.guests:
                yield cells(night.event.name, rating.name, rating)
            if guest is None and night.guests:
                yield cells(night.event.name, str(HOUSE_NAME), night.house)
        if len([night for night in ratings.nights if night.guests]) > 1:
            for rating in ratings.guests:
                yield cells(str(RATINGS_TOTAL), rating.name, rating)
            if guest is None:
                yield cells(str(RATINGS_TOTAL), str(HOUSE_NAME), ratings.house)

    return _("Ratings"), columns, rows()


def _has_stakes(events: Sequence[Event], guest: Guest | None) -> bool:
    """Whether the nights hold a stake (of ``guest``'s): the Ratings sheet's rows."""
    for figures in figures_of(events).values():
        mine = figures if guest is None else figures.guest(guest.pk)
        if mine is not None and mine.wagered:
            return True
    return False


def _has_records(events: Sequence[Event]) -> bool:
    ids = [event.pk for event in events]
    return any(
        model.objects.filter(event__in=ids).exists() for _record, model, _related in _RECORD_MODELS
    )


@dataclass(frozen=True)
class SheetExporter:
    """One sheet of the settlement workbook, as pretix's exporters are one file each: its name
    in code, whether a workbook of these events (for one guest, or for the host) has it, and how
    its title, columns and rows are written. The workbook is the exporters, in order."""

    identifier: str
    applies: Callable[[Sequence[Event], Guest | None], bool]
    write: Callable[[Sequence[Event], Guest | None], SheetSpec]


def _guest_banked(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.is_guest_banked]


def _house_banked(events: Sequence[Event]) -> list[Event]:
    """The nights whose hands the Hands sheet holds: a guest-banked night's are its Coups, in
    its words and its scoresheet's columns; a count-only night has none."""
    return [event for event in events if not event.is_guest_banked]


def _settlements_of(events: Sequence[Event], guest: Guest | None) -> SheetSpec:
    settlements = Settlement.objects.filter(event__in=[event.pk for event in events])
    return settlements_sheet(settlements if guest is None else settlements.filter(guest=guest))


SHEETS = (
    SheetExporter("summary", lambda _events, guest: guest is None,
                  lambda events, _guest: summary_sheet(events)),
    SheetExporter("guests", lambda _events, _guest: True, guests_sheet),
    SheetExporter("hands", lambda events, _guest: bool(_house_banked(events)),
                  lambda events, guest: hands_sheet(_house_banked(events), guest)),
    SheetExporter("coups", lambda events, _guest: bool(_guest_banked(events)),
                  lambda events, guest: coups_sheet(_guest_banked(events), guest)),
    SheetExporter("transfers", lambda events, _guest: bool(_guest_banked(events)),
                  lambda events, guest: transfers_sheet(_guest_banked(events), guest)),
    SheetExporter("expenses", lambda events, _guest: _has_expenses(events), expenses_sheet),
    SheetExporter("count", lambda events, _guest: bool(_counted(events)), count_sheet),
    SheetExporter("ratings", _has_stakes, ratings_sheet),
    SheetExporter("settlements", lambda _events, _guest: True, _settlements_of),
    SheetExporter("rules", lambda _events, guest: guest is None,
                  lambda events, _guest: rules_sheet(events)),
    SheetExporter("records", lambda events, guest: guest is None and _has_records(events),
                  lambda events, _guest: records_sheet(events)),
)  # fmt: skip


def workbook_sheets(events: Sequence[Event], guest: Guest | None = None) -> list[SheetSpec]:
    """The workbook's sheets, each a title, its columns and a generator of its rows; with
    ``guest``, only that guest's rows (and no Summary)."""
    nights = Nights(events)
    return [sheet.write(nights, guest) for sheet in SHEETS if sheet.applies(nights, guest)]


def settlement_workbook(
    events: Sequence[Event], output: IO[bytes], *, guest: Guest | None = None
) -> None:
    """Write the workbook of ``events`` (one night or a season) to ``output``."""
    workbook = Workbook(write_only=True)
    symbol = symbol_of(events)
    for title, columns, rows in workbook_sheets(events, guest):
        sheet = Sheet(workbook, title, columns, symbol)
        for row in rows:
            sheet.append(row)
        sheet.finish()
    workbook.save(output)


def cache_totals(sheet_xml: bytes, totals: dict[str, Decimal]) -> bytes:
    """The sheet's XML with each formula cell's empty value filled in."""

    def filled(match: re.Match[bytes]) -> bytes:
        value = totals.get(match.group(1).decode())
        if value is None:
            return match.group(0)
        return match.group(0)[: -len(match.group(3))] + f"<v>{value}</v>".encode()

    return FORMULA_CELL.sub(filled, sheet_xml)


# A formula cell as openpyxl writes it: its reference, its formula, and an empty value.
FORMULA_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)"[^>]*><f>([^<]*)</f>(<v\s*/>|<v></v>)')


def workbook_bytes(events: Sequence[Event], *, guest: Guest | None = None) -> bytes:
    buffer = BytesIO()
    settlement_workbook(events, buffer, guest=guest)
    return buffer.getvalue()


def events_between(start: date | None, end: date | None) -> list[Event]:
    events = Event.objects.nights().order_by("date", "id")
    if start:
        events = events.filter(date__gte=start)
    if end:
        events = events.filter(date__lte=end)
    return list(events)


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_response(content: bytes, filename: str) -> FileResponse:
    """A workbook as a download."""
    return file_response(content, filename, XLSX)
