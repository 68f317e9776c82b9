"""Reads of expenses: a night's list (with voids), a guest's, and the house's side. Each a fixed
number of queries, however many expenses and sharers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch, Q, QuerySet

from games.models import Event
from ledger.models import Expense, ExpenseShare, Guest

ZERO = Decimal(0)


@dataclass
class ExpenseRow:
    """An expense with its shares, the row that voids it or the row it voids."""

    expense: Expense
    shares: list[ExpenseShare]
    voided_by: Expense | None = None
    void_of: Expense | None = None

    @property
    def can_void(self) -> bool:
        return self.voided_by is None and self.expense.voids_id is None

    @property
    def standing(self) -> bool:
        """Neither a void nor voided: what the night still counts."""
        return self.can_void

    def share_of(self, guest_id: int | None) -> Decimal:
        return sum((s.amount for s in self.shares if s.guest_id == guest_id), ZERO)


def _with_shares(expenses: QuerySet[Expense]) -> QuerySet[Expense]:
    shares = ExpenseShare.objects.select_related("guest").order_by("id")
    return expenses.select_related("paid_by", "recorded_by", "event").prefetch_related(
        Prefetch("shares", queryset=shares)
    )


def _rows(expenses: Iterable[Expense]) -> list[ExpenseRow]:
    expenses = list(expenses)
    by_id = {e.pk: e for e in expenses}
    voids = {e.voids_id: e for e in expenses if e.voids_id is not None}
    return [
        ExpenseRow(
            e,
            list(e.shares.all()),
            voided_by=voids.get(e.pk),
            void_of=by_id.get(e.voids_id) if e.voids_id is not None else None,
        )
        for e in expenses
    ]


def event_expense_rows(event: Event | int) -> list[ExpenseRow]:
    """Every expense of the night, voids included, oldest first. Two queries."""
    return _rows(_with_shares(Expense.objects.filter(event=event)).order_by("recorded_at", "id"))


def nights_expense_rows(event_ids: Iterable[int]) -> list[ExpenseRow]:
    """Every expense of these nights, voids included, by night then oldest first. Two
    queries."""
    expenses = Expense.objects.filter(event_id__in=list(event_ids))
    return _rows(_with_shares(expenses).order_by("event__date", "event_id", "recorded_at", "id"))


def guest_expense_rows(guest: Guest, events: Iterable[int] | None = None) -> list[ExpenseRow]:
    """The expenses ``guest`` paid or shares (with their voids), at ``events`` if given, oldest
    first. Two queries."""
    mine = Q(paid_by=guest) | Q(shares__guest=guest)
    expenses = Expense.objects.filter(pk__in=Expense.objects.filter(mine).values("pk"))
    if events is not None:
        expenses = expenses.filter(event_id__in=list(events))
    return _rows(_with_shares(expenses).order_by("event__date", "event_id", "recorded_at", "id"))


def expense_nets(
    *, events: Iterable[int] | None = None, guests: Iterable[int] | None = None
) -> tuple[dict[tuple[int, int], Decimal], dict[int, Decimal]]:
    """From the raw rows: per (guest, event) what the guest paid less their shares, and per event
    the house's side (what it paid less its shares). Together they sum to zero per event. Two
    queries."""
    paid = Expense.objects.order_by()
    shares = ExpenseShare.objects.order_by()
    if events is not None:
        ids = list(events)
        paid, shares = paid.filter(event_id__in=ids), shares.filter(expense__event_id__in=ids)
    guest_ids = None if guests is None else set(guests)
    nets: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)
    house: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for event_id, payer_id, amount in paid.values_list("event_id", "paid_by_id", "amount"):
        if payer_id is None:
            house[event_id] += amount
        elif guest_ids is None or payer_id in guest_ids:
            nets[(payer_id, event_id)] += amount
    for event_id, guest_id, amount in shares.values_list("expense__event_id", "guest_id", "amount"):
        if guest_id is None:
            house[event_id] -= amount
        elif guest_ids is None or guest_id in guest_ids:
            nets[(guest_id, event_id)] -= amount
    return dict(nets), dict(house)


@dataclass
class GuestExpense:
    """An expense as one guest sees it: what they paid of it, their share, and the two's
    difference, as their balance reads it."""

    row: ExpenseRow
    paid: Decimal
    share: Decimal

    @property
    def net(self) -> Decimal:
        return self.paid - self.share


def guest_expenses(guest: Guest, events: Iterable[int]) -> list[GuestExpense]:
    """The expenses ``guest`` paid or shares at ``events``, newest night first. Two queries."""
    rows = guest_expense_rows(guest, events)
    mine = [
        GuestExpense(
            row,
            row.expense.amount if row.expense.paid_by_id == guest.pk else ZERO,
            row.share_of(guest.pk),
        )
        for row in rows
    ]
    return mine[::-1]
