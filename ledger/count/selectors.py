"""Reads of the count: a night's chips out and in, its reconciliation against the logged hands,
and what a host looks through to explain a difference (a guest's hands with their bets)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypeVar

from django.db.models import F, Q, QuerySet

from games.models import Event, Hand
from ledger.count.reconciliation import GuestCount, Reconciliation, reconcile
from ledger.models import (
    Adjustment,
    Bet,
    ChipMove,
    CountSetup,
    Expense,
    Guest,
    GuestEventResult,
    StackRow,
    Tip,
    Transfer,
)
from ledger.money.amounts import ZERO, money_sum
from ledger.money.services import COUNT_LESS_TAKEN


@dataclass
class GuestChips:
    """One guest's line of the count, with the rows behind it."""

    guest: Guest
    count: GuestCount[int]
    moves: list[ChipMove] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)

    @property
    def bought_by(self) -> list[str]:
        """How the guest paid for their chips, each way once (cash, a marker…)."""
        voided = {move.voids_id for move in self.moves}
        ways = dict.fromkeys(
            move.get_source_display()
            for move in self.moves
            if move.source and move.voids_id is None and move.pk not in voided
        )
        return list(ways)

    @property
    def counted_on(self) -> dt.date | None:
        """The day of the guest's latest count that stands (the host's date, not the typing's)."""
        return counted_on(self.moves)

    @property
    def move_rows(self) -> list[tuple[ChipMove, bool]]:
        """Each row, and whether it is out of the count (a void, or voided)."""
        return with_voids(self.moves)

    @property
    def adjustment_rows(self) -> list[tuple[Adjustment, bool]]:
        return with_voids(self.adjustments)


Row = TypeVar("Row", ChipMove, Adjustment)


def counted_on(moves: Iterable[ChipMove]) -> dt.date | None:
    """The latest date of the counts among ``moves`` that stand (neither a void nor voided)."""
    moves = list(moves)
    voided = {move.voids_id for move in moves if move.voids_id is not None}
    days = [
        move.dated
        for move in moves
        if move.kind in (ChipMove.Kind.COUNT, ChipMove.Kind.TRAY)
        and move.voids_id is None
        and move.pk not in voided
    ]
    return max(days, default=None)


def with_voids(rows: list[Row]) -> list[tuple[Row, bool]]:
    voided = {row.voids_id for row in rows if row.voids_id is not None}
    return [(row, row.voids_id is not None or row.pk in voided) for row in rows]


@dataclass
class NightCount:
    setup: CountSetup
    guests: list[GuestChips]
    reconciliation: Reconciliation[int]
    tray_moves: list[ChipMove]

    @property
    def tray_rows(self) -> list[tuple[ChipMove, bool]]:
        return with_voids(self.tray_moves)

    @property
    def denominations(self) -> list[Decimal]:
        return [Decimal(value) for value in self.setup.denominations]

    @property
    def names_with_differences(self) -> list[str]:
        differences = self.reconciliation.differences
        return [row.guest.name for row in self.guests if row.guest.pk in differences]


def night_count(event: Event) -> NightCount:
    """The night's count as it stands: each guest on its list (or with chips) with their chips
    taken and counted, their net from the hands and their adjustments, and the tray. At a
    tournament table the chips taken are the players' stack rows (the starting stack or the one
    carried, rebuys, add-ons). A fixed number of queries, whatever the size of the night."""
    setup = CountSetup.objects.filter(event=event).first() or CountSetup(event=event)
    setup.event = event  # the forms read its date: no query more
    moves = list(
        ChipMove.objects.filter(event=event).select_related("guest").order_by("recorded_at", "id")
    )
    adjustments = list(
        Adjustment.objects.filter(event=event).select_related("guest").order_by("recorded_at")
    )
    guests = {guest.pk: guest for guest in Guest.objects.filter(events=event)}
    taken: dict[int, Decimal] = defaultdict(lambda: ZERO)
    counted: dict[int, Decimal] = defaultdict(lambda: ZERO)
    tray = ZERO
    # Who was counted: a count row that stands (neither a void nor voided); a zero is a count.
    voided = {move.voids_id for move in moves if move.voids_id is not None}
    standing = {
        move.guest_id
        for move in moves
        if move.kind in (ChipMove.Kind.COUNT, ChipMove.Kind.TRAY)
        and move.voids_id is None
        and move.pk not in voided
    }
    for move in moves:
        if move.guest_id is None:
            tray += move.chips
        elif move.kind == ChipMove.Kind.COUNT:
            counted[move.guest_id] += move.chips
        else:
            taken[move.guest_id] += move.chips
        if move.guest is not None:
            guests.setdefault(move.guest.pk, move.guest)
    if event.kind == Event.Kind.TOURNAMENT_TABLE:  # a table's chips: its players' stack rows
        stacks = StackRow.objects.filter(event=event).values_list("guest_id", "chips").order_by()
        for guest_id, chips in stacks:
            taken[guest_id] += chips
    adjusted: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for adjustment in adjustments:
        adjusted[adjustment.guest_id] += adjustment.amount
        guests.setdefault(adjustment.guest_id, adjustment.guest)
    nets = _nets(event, count_only=setup.count_only)
    handed, house_handed = _handed_in_chips(event)
    tipped: dict[int, Decimal] = defaultdict(lambda: ZERO)
    at_the_table = Tip.objects.filter(event=event).exclude(source=Tip.Source.MONEY).order_by()
    for guest_id, amount in at_the_table.values_list("guest_id", "amount"):
        tipped[guest_id] += amount
    for guest in Guest.objects.filter(pk__in=[pk for pk in handed if pk not in guests]):
        guests[guest.pk] = guest
    counted = {guest: chips for guest, chips in counted.items() if guest in standing}
    order = sorted(guests, key=lambda pk: guests[pk].name.casefold())
    reconciliation = reconcile(
        taken={pk: taken[pk] for pk in order},
        nets=nets,
        adjustments=dict(adjusted),
        counted=counted,
        house_net=-sum(nets.values(), ZERO),
        opening_float=setup.opening_float,
        tray_counted=tray if None in standing else None,
        handed=handed,
        house_handed=house_handed,
        tipped={pk: tipped[pk] for pk in order if tipped.get(pk)},
    )
    rows = {row.guest: row for row in reconciliation.guests}
    lines = [
        GuestChips(
            guests[pk],
            rows[pk],
            [move for move in moves if move.guest_id == pk],
            [adjustment for adjustment in adjustments if adjustment.guest_id == pk],
        )
        for pk in order
        if pk in rows
    ]
    tray_moves = [move for move in moves if move.guest_id is None]
    return NightCount(setup, lines, reconciliation, tray_moves)


def _handed_in_chips(event: Event) -> tuple[dict[int, Decimal], Decimal]:
    """Chips that changed hands at the table when guests settled up in chips (transfers marked
    so, voids included): received less paid, per guest and for the house; and chips paid out
    for an expense (from a guest's stack or the tray, voids included)."""
    handed: dict[int, Decimal] = defaultdict(lambda: ZERO)
    house = ZERO
    rows = Transfer.objects.filter(event=event, in_chips=True).order_by()
    for payer_id, payee_id, amount in rows.values_list("payer_id", "payee_id", "amount"):
        if payer_id is None:
            house -= amount
        else:
            handed[payer_id] -= amount
        if payee_id is None:
            house += amount
        else:
            handed[payee_id] += amount
    # Expenses paid in chips left the table: from the payer's stack, or from the tray.
    spent = Expense.objects.filter(event=event).exclude(paid_in=Expense.PaidIn.MONEY).order_by()
    for payer_id, paid_in, amount in spent.values_list("paid_by_id", "paid_in", "amount"):
        if paid_in == Expense.PaidIn.TRAY or payer_id is None:
            house -= amount
        else:
            handed[payer_id] -= amount
    return dict(handed), house


def _nets(event: Event, *, count_only: bool) -> dict[int, Decimal]:
    """Each guest's net from the night's logged hands (in tournament chips at a tournament
    table); at a night kept by its count alone, its results (the count itself)."""
    if count_only:
        rows: QuerySet[GuestEventResult] = GuestEventResult.objects.filter(event=event)
        return dict(rows.values_list("guest_id", "net"))
    summed = (
        Bet.objects.filter(event=event)
        .values("guest_id")
        .annotate(net=money_sum("net"))
        .order_by()
        .values_list("guest_id", "net")
    )
    return dict(summed)


@dataclass(frozen=True)
class HandOfGuest:
    """A hand the guest sat at, with their bets on it (none: a bet may be missing there)."""

    hand: Hand
    bets: list[Bet]

    @property
    def net(self) -> Decimal:
        return sum((bet.net for bet in self.bets), ZERO)


def guest_hands(event: Event, guest: Guest) -> list[HandOfGuest]:
    """Every hand of the night the guest sat at (or bet on), with their bets, to look through
    for the one a count says is missing or wrong. Two queries."""
    bets: dict[int, list[Bet]] = defaultdict(list)
    for bet in Bet.objects.filter(event=event, guest=guest).order_by("seat", "id"):
        bets[bet.hand_id].append(bet)
    seated = Q(
        shoe__seatings__guest=guest,
        number__gte=F("shoe__seatings__from_hand"),
    ) & (Q(shoe__seatings__to_hand__isnull=True) | Q(number__lte=F("shoe__seatings__to_hand")))
    hands = (
        Hand.objects.filter(Q(shoe__event=event) & (seated | Q(pk__in=list(bets))))
        .select_related("shoe")
        .distinct()
        .order_by("shoe__number", "number")
    )
    return [HandOfGuest(hand, bets.get(hand.pk, [])) for hand in hands]


@dataclass(frozen=True)
class CountAtClose:
    """What the close asks about the count: nothing unless the night's chips were counted at all
    (a host who does not count is never asked)."""

    in_use: bool
    uncounted: list[str]
    differences: list[tuple[str, Decimal]]
    tray_uncounted: bool
    reconciled: bool


def count_at_close(event: Event) -> CountAtClose:
    if not ChipMove.objects.filter(event=event).exists():
        return CountAtClose(False, [], [], False, False)
    night = night_count(event)
    names = {row.guest.pk: row.guest.name for row in night.guests}
    rec = night.reconciliation
    return CountAtClose(
        True,
        [names[pk] for pk in rec.uncounted],
        [(names[pk], amount) for pk, amount in rec.differences.items()],
        rec.tray_uncounted,
        rec.reconciled,
    )


@dataclass(frozen=True)
class ChipsTakenAndCounted:
    """A guest's chips at a night's count, beside their result (no line of the balance)."""

    taken: Decimal
    counted: Decimal | None  # None: not counted yet


def guest_chips(guest: Guest, event_ids: Iterable[int]) -> dict[int, ChipsTakenAndCounted]:
    """What the guest took and handed back at each of these nights that counted their chips.
    One query."""
    taken: dict[int, Decimal] = defaultdict(lambda: ZERO)
    counted: dict[int, Decimal] = defaultdict(lambda: ZERO)
    rows = list(
        ChipMove.objects.filter(guest=guest, event_id__in=list(event_ids))
        .order_by()
        .values_list("pk", "event_id", "kind", "chips", "voids_id")
    )
    voided = {voids for *_rest, voids in rows if voids is not None}
    standing: set[int] = set()  # the nights where a count of theirs stands (a zero is a count)
    for pk, event_id, kind, chips, voids in rows:
        if kind == ChipMove.Kind.COUNT:
            counted[event_id] += chips
            if voids is None and pk not in voided:
                standing.add(event_id)
        else:
            taken[event_id] += chips
    return {
        event_id: ChipsTakenAndCounted(
            taken[event_id], counted[event_id] if event_id in standing else None
        )
        for event_id in {*taken, *counted}
    }


@dataclass(frozen=True)
class ResultWithoutHands:
    """A night's result that no hand makes: its count's, kept by its count alone, or its
    adjustments', as the guests' side."""

    count_only: bool
    result: Decimal
    commission: Decimal = ZERO  # a count-only night's, as the host entered it


def results_without_hands_by_event(event_ids: Iterable[int]) -> dict[int, ResultWithoutHands]:
    """Per night of ``event_ids`` that has one: three queries, however many nights."""
    ids = list(event_ids)
    commissions = dict(
        CountSetup.objects.filter(event_id__in=ids, count_only=True).values_list(
            "event_id", "commission_total"
        )
    )
    count_only = set(commissions)
    results: dict[int, Decimal] = defaultdict(lambda: ZERO)
    moves = ChipMove.objects.filter(event_id__in=count_only, guest__isnull=False)
    adjusted = Adjustment.objects.filter(event_id__in=ids)
    for rows, summed in ((moves, COUNT_LESS_TAKEN), (adjusted, money_sum("amount"))):
        for event_id, amount in (
            rows.values("event_id").annotate(n=summed).values_list("event_id", "n").order_by()
        ):
            results[event_id] += amount
    return {
        event_id: ResultWithoutHands(
            event_id in count_only, results[event_id], commissions.get(event_id) or ZERO
        )
        for event_id in {*count_only, *(key for key, value in results.items() if value)}
    }


def next_to_count(event: Event, *, after: Guest | None) -> Guest | None:
    """The guest to count after ``after``, going down the night's list (by name, as the count
    page lists it) and round to its top: the next who took chips or played and is not counted
    yet; ``None`` when everyone is."""
    night = night_count(event)
    waiting = set(night.reconciliation.uncounted)
    order = [row.guest for row in night.guests]
    start = next((i for i, g in enumerate(order) if after is not None and g.pk == after.pk), -1)
    for guest in order[start + 1 :] + order[: start + 1]:
        if guest.pk in waiting:
            return guest
    return None
