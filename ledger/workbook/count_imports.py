"""A night kept by its count alone, from a scoresheet: one row per guest, the chips they bought
and the chips they cashed out (``guest, bought, cashed_out``; ``paid_by`` optional: cash,
marker or balance, cash when blank). All or nothing, every problem named by its row and column,
as the other scoresheets; written through the count's own rows, so the night is like one
counted at the table."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from games import services as game_services
from games.chips import MAX_CHIPS
from games.currencies import DEFAULT_CURRENCY
from games.entry import read_amount
from games.messages import format_chips, whole_cents
from games.payouts import RuleSet
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.guests.services import MSG_GUEST_AMBIGUOUS, candidate_names, guests_matching
from ledger.models import AuditEntry, ChipMove, CountSetup, EventGuest, dated_default
from ledger.money.services import results_refresh
from ledger.workbook.imports.night_writer import guests_by_key
from ledger.workbook.reading import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    SheetProblem,
    read_rows,
)
from shoebook.base.roles import Actor

COUNT_COLUMNS = ("guest", "bought", "cashed_out")
COUNT_TEMPLATE = "guest,bought,cashed_out,paid_by\nAki,500,720,cash\nBen,300,0,marker\n"
SOURCES = {"": ChipMove.Source.CASH, **{source.value: source for source in ChipMove.Source}}


@dataclass(frozen=True)
class CountRow:
    row: int
    line: int
    name: str
    key: str
    bought: Decimal
    cashed_out: Decimal
    paid_by: ChipMove.Source


def is_count_sheet(name: str, content: bytes) -> bool:
    """Whether the scoresheet's header is a count's (``guest, bought, cashed_out``), or has one
    of its own columns (a count sheet with a column misnamed: its problems are a count's)."""
    try:
        next(read_rows(name, content, COUNT_COLUMNS, amounts=()), None)
    except ScoresheetInvalid as invalid:
        missing = {problem.column for problem in invalid.problems}
        return not {"bought", "cashed_out"} <= missing
    except (ScoresheetUnreadable, csv.Error):
        return False
    return True


def _amount(text: str) -> Decimal | None:
    amount = read_amount(text)
    if amount is None or amount < 0 or not whole_cents(amount) or amount > MAX_CHIPS:
        return None
    return amount


def check_count_sheet(name: str, content: bytes) -> list[CountRow]:
    """The sheet's guests with their chips, or ``ScoresheetInvalid`` listing every problem."""
    try:
        lines = list(read_rows(name, content, COUNT_COLUMNS))
    except csv.Error as error:
        raise ScoresheetUnreadable(
            _("The CSV file is malformed: {error}").format(error=error)
        ) from error
    problems: list[SheetProblem] = []
    rows: list[CountRow] = []
    first_row: dict[str, int] = {}
    amount_reason = _("an amount of chips from 0 to {maximum}, in whole cents.").format(
        maximum=format_chips(MAX_CHIPS)
    )
    for index, (line, cells) in enumerate(lines, start=1):
        try:
            guest = clean_name(cells.get("guest", ""))
        except InvalidName as error:
            problems.append(SheetProblem(index, line, "guest", str(error)))
            continue
        key = name_key(guest)
        if key in first_row:
            reason = _("{name} is on row {first} already: one row per guest.").format(
                name=guest, first=first_row[key]
            )
            problems.append(SheetProblem(index, line, "guest", reason))
            continue
        first_row[key] = index
        bought, cashed = _amount(cells.get("bought", "")), _amount(cells.get("cashed_out", ""))
        for column, value in (("bought", bought), ("cashed_out", cashed)):
            if value is None:
                problems.append(SheetProblem(index, line, column, amount_reason))
        paid_by = SOURCES.get(cells.get("paid_by", "").strip().lower())
        if paid_by is None:
            reason = _("cash, marker or balance (blank: cash).")
            problems.append(SheetProblem(index, line, "paid_by", reason))
        if bought is not None and cashed is not None and paid_by is not None:
            if bought == 0 and cashed == 0:
                reason = _("{name} bought nothing and cashed out nothing.").format(name=guest)
                problems.append(SheetProblem(index, line, "bought", reason))
            else:
                rows.append(CountRow(index, line, guest, key, bought, cashed, paid_by))
    if not lines:
        problems.append(SheetProblem(0, 1, "file", _("no guests in the file.")))
    matches = guests_matching(set(first_row))
    for row in rows:
        found = matches.get(row.key, [])
        if len(found) > 1:
            reason = str(MSG_GUEST_AMBIGUOUS).format(name=row.name, names=candidate_names(found))
            problems.append(SheetProblem(row.row, row.line, "guest", reason))
    if problems:
        raise ScoresheetInvalid(sorted(problems, key=lambda p: (p.row, p.column)))
    return rows


@dataclass(frozen=True)
class CountImported:
    event_id: int
    created_guests: list[str]
    guests: int


@transaction.atomic
def count_sheet_import(
    *,
    rows: list[CountRow],
    name: str,
    on: date,
    by: Actor,
    money_per_chip: Decimal = Decimal(100),
    currency: str = DEFAULT_CURRENCY,
) -> CountImported:
    """Write a checked count sheet as a night kept by its count alone: the guests on its list,
    a buy-in and a count for each, its results their counts less their chips."""
    if not rows:
        raise ValueError("Only a checked count sheet is written.")
    event = game_services.event_create(
        name=name,
        date=on,
        rules=RuleSet(),
        by=by,
        money_per_chip=money_per_chip,
        currency=currency,
    )
    CountSetup.objects.create(event=event, count_only=True)
    found, created = guests_by_key({row.key: row.name for row in rows})
    EventGuest.objects.bulk_create(EventGuest(event=event, guest=found[row.key]) for row in rows)
    moves = []
    for row in rows:
        guest = found[row.key]
        if row.bought:
            moves.append(
                ChipMove(
                    event=event,
                    guest=guest,
                    kind=ChipMove.Kind.BUY_IN,
                    source=row.paid_by,
                    chips=row.bought,
                    recorded_by=by,
                    dated=dated_default(event),
                )
            )
        # A zero is a count too: a guest who lost every chip is counted at 0.
        moves.append(
            ChipMove(
                event=event,
                guest=guest,
                kind=ChipMove.Kind.COUNT,
                chips=row.cashed_out,
                recorded_by=by,
                dated=dated_default(event),
            )
        )
    ChipMove.objects.bulk_create(moves)
    results_refresh(event_id=event.pk, guest_ids={guest.pk for guest in found.values()})
    AuditEntry.objects.create(
        action=AuditEntry.Action.IMPORT,
        event=event,
        by=by,
        summary=str(event),
        after={"count_only": True, "guests": len(rows), "new_guests": created},
    )
    return CountImported(event.pk, created, len(rows))
