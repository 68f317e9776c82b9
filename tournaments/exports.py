"""A tournament's workbook: Rounds, Tables, Hands and Prizes sheets.

Written like the cash nights' workbook and by its own machinery
(``ledger.workbook.exports.Sheet``): rows
from generators into a write-only workbook, every figure a number cell with its number format,
every text a text cell, and a text a spreadsheet would read as a formula (a player named
``=1+1``) kept as text. Stacks, stakes and results are tournament chips; prizes and what the
players paid in are money.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from decimal import Decimal
from io import BytesIO
from typing import IO

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from openpyxl import Workbook

from games.models import Hand
from ledger.models import Bet
from ledger.money.amounts import ZERO, to_money
from ledger.workbook.exports import (
    CHIPS,
    DATETIME,
    MONEY,
    TEXT,
    WHOLE,
    CellValue,
    Column,
    Money,
    Sheet,
    SheetSpec,
    Total,
    local_time,
    money_heading,
)
from tournaments.models import Tournament, TournamentTable
from tournaments.results import TournamentReport, configured_cut, tournament_report


def _yes(value: bool | None) -> str | None:
    if value is None:
        return None
    return _("yes") if value else _("no")


def player_column(width: float = 20) -> Column:
    return Column(pgettext("a tournament's entrant", "Player"), width, TEXT)


def rounds_sheet(report: TournamentReport) -> SheetSpec:
    columns = [
        Column(_("Round"), 7, WHOLE), Column(_("Final table"), 10, TEXT),
        Column(_("Hands"), 7, WHOLE), Column(_("Minimum bet"), 12, CHIPS),
        Column(_("Maximum bet"), 12, CHIPS), Column(_("Bet unit"), 10, CHIPS),
        Column(_("Tables"), 7, WHOLE), Column(_("Players"), 8, WHOLE),
        Column(_("Went on"), 8, WHOLE), Column(_("Who went on"), 50, TEXT),
        Column(_("Closed"), 17, DATETIME),
    ]  # fmt: skip

    def rows() -> Iterator[Sequence[CellValue]]:
        for round_ in report.rounds:
            seats = report.seats_of(round_)
            decided = round_.is_closed and not round_.is_final
            went_on = report.went_on(round_) if decided else []
            yield [
                round_.number,
                _("yes") if round_.is_final else None,
                round_.hands,
                round_.table_min,
                round_.table_max,
                round_.bet_unit,
                len({seat.table for seat in seats}),
                len(seats),
                len(went_on) if decided else None,
                ", ".join(went_on),
                local_time(round_.closed_at) if round_.closed_at else None,
            ]

    return _("Rounds"), columns, rows()


def tables_sheet(report: TournamentReport) -> SheetSpec:
    columns = [
        Column(_("Round"), 7, WHOLE), Column(_("Table"), 7, WHOLE), Column(_("Seat"), 6, WHOLE),
        player_column(), Column(_("Stack at the start"), 14, CHIPS),
        Column(_("Carried over"), 10, TEXT), Column(_("Rebuys"), 8, WHOLE),
        Column(_("Rebuy chips"), 12, CHIPS), Column(_("Add-ons"), 8, WHOLE),
        Column(_("Add-on chips"), 12, CHIPS), Column(_("Final stack"), 14, CHIPS),
        Column(_("Went on"), 8, TEXT), Column(_("Place"), 7, WHOLE),
    ]  # fmt: skip

    def rows() -> Iterator[Sequence[CellValue]]:
        for seat in report.seats:
            started = seat.round.is_started
            yield [
                seat.round.number,
                seat.table,
                seat.seat,
                seat.name,
                seat.brought if started else None,
                _yes(seat.carried) if started else None,
                seat.rebuys,
                seat.rebuy_chips,
                seat.add_ons,
                seat.add_on_chips,
                seat.stack,
                _yes(seat.went_on),
                seat.place,
            ]

    return _("Tables"), columns, rows()


def hands_rows(tournament: Tournament) -> Iterator[tuple[CellValue, ...]]:
    """One row per bet at the tournament's tables, by round, table, hand and seat; a hand
    without bets is one row with empty seat, player, bet and stake. Three queries: the hands
    and the bets come in the same order and are walked side by side, a chunk at a time."""
    tables = {
        event_id: (round_number, number)
        for event_id, round_number, number in TournamentTable.objects.filter(
            round__tournament=tournament
        ).values_list("event_id", "round__number", "number")
    }
    table_of = "shoe__event__tournament_table"
    order = (f"{table_of}__round__number", f"{table_of}__number", "shoe__event_id", "number")
    hands = Hand.objects.filter(shoe__event_id__in=tables).order_by(*order)
    fields = ("pk", "shoe__event_id", "number", "player_cards", "banker_cards", "winner",
              "player_pair", "banker_pair")  # fmt: skip
    bets = (
        Bet.objects.filter(event_id__in=tables)
        .order_by(*(f"hand__{field}" for field in order), "seat", "id")
        .values_list(
            "hand_id", "seat", "guest__name", "bet_type", "stake", "gross", "commission", "net"
        )
        .iterator(chunk_size=5000)
    )
    pending = next(bets, None)
    rows = hands.values_list(*fields).iterator(chunk_size=5000)
    for pk, event_id, number, player, banker, winner, player_pair, banker_pair in rows:
        head = (*tables[event_id], number, player, banker, winner[0].upper(),
                _yes(player_pair), _yes(banker_pair))  # fmt: skip
        placed = False
        while pending is not None and pending[0] == pk:
            yield (*head, *pending[1:])
            placed = True
            pending = next(bets, None)
        if not placed:
            yield (*head, None, None, None, None, None, None, None)


def hands_sheet(tournament: Tournament) -> SheetSpec:
    columns = [
        Column(_("Round"), 7, WHOLE), Column(_("Table"), 7, WHOLE), Column(_("Hand"), 7, WHOLE),
        Column(_("Player's cards"), 14, TEXT), Column(_("Banker's cards"), 14, TEXT),
        Column(_("Result"), 8, TEXT), Column(_("Player pair"), 11, TEXT),
        Column(_("Banker pair"), 11, TEXT), Column(_("Seat"), 6, WHOLE), player_column(),
        Column(_("Bet"), 12, TEXT), Column(_("Stake"), 10, CHIPS), Column(_("Gross"), 10, CHIPS),
        Column(_("Commission"), 11, CHIPS), Column(_("Net"), 10, CHIPS),
    ]  # fmt: skip
    return pgettext("workbook sheet of every hand", "Hands"), columns, hands_rows(tournament)


def _status(report: TournamentReport, place: int | None, out_after_round: int | None) -> str:
    if place is not None:
        return ""
    if out_after_round is not None:
        return _("Out after round {number}").format(number=out_after_round)
    return _("Still playing") if not report.tournament.is_finished else ""


def event_sheet(report: TournamentReport) -> SheetSpec:
    """The tournament's night at a glance: when and where, its rate, and its money in chips
    and in the night's currency."""
    tournament, pool = report.tournament, report.pool
    event, rate = tournament.event, tournament.event.money_per_chip
    currency = event.currency
    columns = [Column(_("Item"), 24, TEXT), Column(_("Chips"), 16, CHIPS),
               Column(money_heading(_("Money"), [event]), 16, MONEY),
               Column(_("Note"), 40, TEXT)]  # fmt: skip

    def money(label: str, chips: Decimal, note: str = "") -> list[CellValue]:
        return [label, chips, Money(to_money(chips, rate, currency), currency), note]

    def rows() -> Iterator[Sequence[CellValue]]:
        yield [_("Event"), None, None, event.name]
        yield [_("Date"), None, None, event.date.isoformat()]
        yield [_("Venue"), None, None, event.venue]
        yield [_("Currency"), None, None, currency]
        yield [_("Money per chip"), None, None, f"{rate.normalize():f}"]
        yield [_("Players"), None, None, str(len(report.lines))]
        yield money(_("Entry fee"), tournament.entry_fee)
        yield money(_("Paid in"), pool.paid_in, _("entries, rebuys and add-ons"))
        yield money(_("House's cut"), pool.cut, configured_cut(tournament))
        yield money(_("Prize pool"), pool.pool)
        yield money(_("Prizes paid"), sum((line.prize for line in report.lines), ZERO))

    return pgettext("workbook sheet of the night", "Event"), columns, rows()


def prizes_sheet(report: TournamentReport) -> SheetSpec:
    columns = [
        Column(_("Place"), 7, WHOLE), player_column(24), Column(_("Prize"), 12, CHIPS),
        Column(_("Paid in"), 12, CHIPS), Column(_("Net"), 12, CHIPS),
        Column(money_heading(_("Net"), [report.tournament.event]), 14, MONEY),
        Column(_("Note"), 40, TEXT),
    ]  # fmt: skip
    pool, tournament = report.pool, report.tournament
    rate, currency = tournament.event.money_per_chip, tournament.event.currency

    def rows() -> Iterator[Sequence[CellValue]]:
        for line in report.lines:
            yield [
                line.place,
                line.name,
                line.prize,
                line.paid_in,
                line.net,
                Money(to_money(line.net, rate, currency), currency),
                _status(report, line.place, line.out_after_round),
            ]
        prizes = sum((line.prize for line in report.lines), ZERO)
        net = prizes - pool.paid_in
        above = len(report.lines) + 1  # the players and the blank row under them
        yield [None] * len(columns)
        totals = (Total(prizes, above), Total(pool.paid_in, above), Total(net, above))
        yield [None, _("Total"), *totals, Money(to_money(net, rate, currency), currency), None]
        yield [None, _("House's cut"), pool.cut, None, None, None, configured_cut(tournament)]
        yield [None, _("Prize pool"), pool.pool, None, None, None, None]

    return _("Prizes"), columns, rows()


def tournament_sheets(tournament: Tournament) -> list[SheetSpec]:
    report = tournament_report(tournament)
    return [
        event_sheet(report),
        rounds_sheet(report),
        tables_sheet(report),
        hands_sheet(tournament),
        prizes_sheet(report),
    ]


def tournament_workbook(tournament: Tournament, output: IO[bytes]) -> None:
    """Write the tournament's workbook to ``output``."""
    workbook = Workbook(write_only=True)
    for title, columns, rows in tournament_sheets(tournament):
        sheet = Sheet(workbook, title, columns, tournament.event.currency_symbol)
        for row in rows:
            sheet.append(row)
        sheet.finish()
    workbook.save(output)


def tournament_workbook_bytes(tournament: Tournament) -> bytes:
    buffer = BytesIO()
    tournament_workbook(tournament, buffer)
    return buffer.getvalue()
