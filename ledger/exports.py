"""The settlement workbook: Summary, Guests, Hands and Settlements sheets, streamed.

Rows come from generators over ``.iterator()`` querysets into a write-only openpyxl workbook, so
a season of ~170,000 bets never sits in memory. Every figure is a number cell with a number
format (no formulas to recalculate); every text is a text cell, and text that a spreadsheet
would read as a formula (``=``, ``+``, ``-``, ``@``, a tab...) is kept as text even when the cell
is edited (the ``quotePrefix`` style flag), so a guest's name never executes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from copy import copy
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from io import BytesIO
from typing import IO, Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from games.models import Event, Hand
from ledger.models import Bet, Guest, Settlement
from ledger.money import to_yen
from ledger.results import event_settlement, event_shoe_rows

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")
CHIPS = "#,##0.00;-#,##0.00"
YEN = '"¥"#,##0;"¥"-#,##0'
WHOLE = "0"
TEXT, DATE = "text", "date"

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


class Sheet:
    """One write-only worksheet: frozen header, widths, landscape fit-to-width printing, and
    cells typed by column."""

    def __init__(self, workbook: Workbook, title: str, columns: Sequence[Column]) -> None:
        self.sheet: Worksheet = workbook.create_sheet(title)
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
        bold = Font(bold=True)
        header = []
        for column in columns:
            cell = WriteOnlyCell(self.sheet, column.header)
            cell.font = bold
            header.append(cell)
        self.sheet.append(header)

    def _prototypes(self) -> dict[str, Any]:
        """One styled cell per kind; copying its style array is far cheaper than styling each
        of a season's two million cells by name."""
        styles = {}
        for kind in {*self.kinds, "quoted"}:
            cell = WriteOnlyCell(self.sheet, "")
            if kind == "quoted":
                cell.number_format = "@"
                cell._style.quotePrefix = 1
            elif kind == DATE:
                cell.number_format = "yyyy-mm-dd"
            elif kind != TEXT:
                cell.number_format = kind
            styles[kind] = cell._style
        return styles

    def append(self, values: Sequence[object]) -> None:
        self.sheet.append(
            [self._cell(value, kind) for value, kind in zip(values, self.kinds, strict=True)]
        )

    def _cell(self, value: object, kind: str) -> object:
        if value is None or value == "":
            return None
        if isinstance(value, str):
            cell = WriteOnlyCell(self.sheet, value)
            cell.data_type = "s"  # never a formula or an error code, whatever it starts with
            if value.startswith(FORMULA_STARTS):
                cell._style = copy(self._styles["quoted"])
            return cell
        if kind == TEXT:
            return value
        cell = WriteOnlyCell(self.sheet, value)
        cell._style = copy(self._styles[kind])
        return cell


def _summary(workbook: Workbook, events: Iterable[Event]) -> None:
    sheet = Sheet(
        workbook,
        _("Summary"),
        [
            Column(_("Event"), 24, TEXT), Column(_("Date"), 12, DATE), Column(_("Venue"), 20, TEXT),
            Column(_("Rules"), 50, TEXT), Column(_("Yen per chip"), 12, "#,##0.####"),
            Column(_("Shoe"), 8, WHOLE), Column(_("Hands"), 8, WHOLE),
            Column(_("Wagered"), 14, CHIPS),
            Column(_("Guests' gross"), 14, CHIPS), Column(_("Commission"), 12, CHIPS),
            Column(_("Guests' net"), 14, CHIPS), Column(_("House net"), 14, CHIPS),
            Column(_("House net (¥)"), 16, YEN),
        ],
    )  # fmt: skip
    for event in events:
        head = [event.name, event.date, event.venue, event.rule_set.describe(_), event.yen_per_chip]
        rows, totals = event_shoe_rows(event)
        for row in [*rows, totals]:
            figures = row.figures
            sheet.append([
                *head, row.number if row.number is not None else _("Total"), row.hands,
                figures.wagered, figures.gross, figures.commission, figures.net,
                figures.house_net, row.house_net_yen,
            ])  # fmt: skip


def _guests(workbook: Workbook, events: Iterable[Event], only: Guest | None) -> None:
    sheet = Sheet(
        workbook,
        _("Guests"),
        [
            Column(_("Event"), 24, TEXT), Column(_("Guest"), 20, TEXT),
            Column(_("Hands"), 8, WHOLE),
            Column(_("Wagered"), 14, CHIPS), Column(_("Gross"), 12, CHIPS),
            Column(_("Commission"), 12, CHIPS), Column(_("Net"), 12, CHIPS),
            Column(_("Net (¥)"), 14, YEN), Column(_("Balance before"), 14, CHIPS),
            Column(_("Settlements"), 14, CHIPS), Column(_("Balance after"), 14, CHIPS),
            Column(_("How settled"), 30, TEXT),
        ],
    )  # fmt: skip
    for event in events:
        results = {
            row.guest_id: row
            for row in event.guest_results.select_related("guest")
            if only is None or row.guest_id == only.pk
        }
        methods: dict[int, list[str]] = {}
        for settlement in Settlement.objects.filter(event=event):
            methods.setdefault(settlement.guest_id, []).append(settlement.get_method_display())
        for line in event_settlement(event):
            if only is not None and line.guest_id != only.pk:
                continue
            result = results.get(line.guest_id)
            sheet.append([
                event.name, line.name, result.hands if result else 0,
                result.stake if result else Decimal(0), result.gross if result else Decimal(0),
                result.commission if result else Decimal(0), line.result,
                to_yen(line.result, event.yen_per_chip), line.before, line.settled, line.after,
                ", ".join(sorted(set(methods.get(line.guest_id, [])))),
            ])  # fmt: skip


def hands_rows(events: Sequence[Event], guest: Guest | None = None) -> Iterator[tuple[object, ...]]:
    """One row per bet, in the scoresheet's columns (importable as they are), preceded by the
    event's name; a hand without bets is one row with empty seat, guest, bet and stake. With
    ``guest``, only the hands that guest bet on."""
    hands = (
        Hand.objects.filter(shoe__event__in=[event.pk for event in events])
        .select_related("shoe__event")
        .order_by("shoe__event__date", "shoe__event_id", "shoe__number", "number")
    )
    bets = Bet.objects.filter(event__in=[event.pk for event in events])
    if guest is not None:
        hands = hands.filter(bets__guest=guest).distinct()
        bets = bets.filter(guest=guest)
    # Both streams come in hand order: walk them side by side, a chunk at a time.
    stream = bets.select_related("guest").order_by(
        "hand__shoe__event__date", "hand__shoe__event_id", "hand__shoe__number", "hand__number",
        "seat", "id",
    ).iterator(chunk_size=5000)  # fmt: skip
    pending = next(stream, None)
    for hand in hands.iterator(chunk_size=2000):
        head = (
            hand.shoe.event.name, hand.shoe.number, hand.number, hand.player_cards,
            hand.banker_cards, hand.winner[0].upper(),
            "" if hand.has_cards else ("yes" if hand.player_pair else "no"),
            "" if hand.has_cards else ("yes" if hand.banker_pair else "no"),
        )  # fmt: skip
        placed = 0
        while pending is not None and pending.hand_id == hand.pk:
            yield (*head, pending.seat, pending.guest.name, pending.bet_type, pending.stake,
                   pending.gross, pending.commission, pending.net)  # fmt: skip
            placed += 1
            pending = next(stream, None)
        if not placed:
            yield (*head, None, None, None, None, None, None, None)


def _hands(workbook: Workbook, events: Sequence[Event], guest: Guest | None) -> None:
    widths = (7, 7, 14, 14, 8, 11, 11, 6, 20, 14, 10, 10, 11, 10)
    columns = [Column(_("Event"), 24, TEXT)] + [
        Column(name, width, kind)
        for name, width, kind in zip(HANDS_COLUMNS, widths, HANDS_FORMATS, strict=True)
    ]
    sheet = Sheet(workbook, _("Hands"), columns)
    for row in hands_rows(events, guest):
        sheet.append(row)


def _settlements(workbook: Workbook, settlements: QuerySet[Settlement]) -> None:
    sheet = Sheet(
        workbook,
        _("Settlements"),
        [
            Column(_("Recorded"), 12, DATE), Column(_("Event"), 24, TEXT),
            Column(_("Guest"), 20, TEXT),
            Column(_("Guest paid the house"), 16, CHIPS), Column(_("How"), 30, TEXT),
            Column(_("Note"), 30, TEXT),
        ],
    )  # fmt: skip
    for settlement in settlements.select_related("event", "guest").order_by("recorded_at", "id"):
        sheet.append([
            settlement.recorded_at.date(), settlement.event.name, settlement.guest.name,
            settlement.amount, settlement.get_method_display(), settlement.note,
        ])  # fmt: skip


def settlement_workbook(
    events: Sequence[Event], output: IO[bytes], *, guest: Guest | None = None
) -> None:
    """Write the workbook of ``events`` (one night or a season) to ``output``; with ``guest``,
    only that guest's rows."""
    workbook = Workbook(write_only=True)
    settlements = Settlement.objects.filter(event__in=[event.pk for event in events])
    if guest is None:
        _summary(workbook, events)
    else:
        settlements = settlements.filter(guest=guest)
    _guests(workbook, events, guest)
    _hands(workbook, events, guest)
    _settlements(workbook, settlements)
    workbook.save(output)


def workbook_bytes(events: Sequence[Event], *, guest: Guest | None = None) -> bytes:
    buffer = BytesIO()
    settlement_workbook(events, buffer, guest=guest)
    return buffer.getvalue()


def events_between(start: date | None, end: date | None) -> list[Event]:
    events = Event.objects.order_by("date", "id")
    if start:
        events = events.filter(date__gte=start)
    if end:
        events = events.filter(date__lte=end)
    return list(events)
