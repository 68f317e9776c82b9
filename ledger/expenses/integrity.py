"""Expenses check themselves, for ``check_ledger``: what their rows must agree on, recomputed from
the rows in bulk (three queries), and each guest's side of them for the balances."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from games.models import Event
from ledger.expenses.shares import split_amount
from ledger.models import EventGuest, Expense, ExpenseShare

ZERO = Decimal(0)

MSG_EXPENSE_SHARES_SUM = "its shares do not add up to it"
MSG_EXPENSE_SHARES_RULE = "its shares are not the rule's for the odd cent"
MSG_EXPENSE_NOT_ON_LIST = "a guest it names is not on its night's list"
MSG_EXPENSE_VOID_NOT_OPPOSITE = "its void is not its exact opposite"
MSG_EXPENSE_AT_TABLE = "it is at a tournament table, whose chips are no one's money"

Problem = tuple[str, int, str, str, str]


def _shares_text(shares: list[tuple[int | None, int, Decimal]]) -> str:
    return ", ".join(f"{guest or 'house'}×{weight}={amount}" for guest, weight, amount in shares)


def expense_problems(scope: Event | None) -> list[Problem]:
    """Each broken expense as (model, primary key, what is wrong, expected, found)."""
    problems: list[Problem] = []
    expenses = Expense.objects.select_related("event").order_by("pk")
    shares = ExpenseShare.objects.order_by("pk")
    lists = EventGuest.objects.all()
    if scope is not None:
        expenses, lists = expenses.filter(event=scope), lists.filter(event=scope)
        shares = shares.filter(expense__event=scope)
    listed = set(lists.values_list("event_id", "guest_id"))
    of: dict[int, list[tuple[int | None, int, Decimal]]] = defaultdict(list)
    for expense_id, guest_id, weight, amount in shares.values_list(
        "expense_id", "guest_id", "weight", "amount"
    ):
        of[expense_id].append((guest_id, weight, amount))
    rows = {expense.pk: expense for expense in expenses}
    for expense in rows.values():
        mine = sorted(of.get(expense.pk, []), key=lambda s: (s[0] is None, s[0] or 0))
        added = sum((amount for _g, _w, amount in mine), ZERO)
        if added != expense.amount:
            found = f"{added} ({_shares_text(mine)})"
            problems.append(
                ("Expense", expense.pk, MSG_EXPENSE_SHARES_SUM, str(expense.amount), found)
            )
        elif expense.voids_id is None and mine:
            rule = split_amount(expense.amount, [(g, w) for g, w, _a in mine])
            expected = [(g, w, a) for (g, w, _a), a in zip(mine, rule, strict=True)]
            if expected != mine:
                problems.append(
                    (
                        "Expense",
                        expense.pk,
                        MSG_EXPENSE_SHARES_RULE,
                        _shares_text(expected),
                        _shares_text(mine),
                    )
                )
        named = {g for g, _w, _a in mine if g is not None}
        if expense.paid_by_id is not None:
            named.add(expense.paid_by_id)
        if any((expense.event_id, guest) not in listed for guest in named):
            problems.append(("Expense", expense.pk, MSG_EXPENSE_NOT_ON_LIST, "", ""))
        if expense.event.kind == Event.Kind.TOURNAMENT_TABLE:
            problems.append(("Expense", expense.pk, MSG_EXPENSE_AT_TABLE, "", ""))
        original = rows.get(expense.voids_id) if expense.voids_id else None
        if original is not None:
            expected_shape = _shape(original, of.get(original.pk, []), sign=-1)
            found_shape = _shape(expense, of.get(expense.pk, []), sign=1)
            if expected_shape != found_shape:
                problems.append(
                    (
                        "Expense",
                        original.pk,
                        MSG_EXPENSE_VOID_NOT_OPPOSITE,
                        str(expected_shape),
                        str(found_shape),
                    )
                )
    return problems


def _shape(
    expense: Expense, shares: list[tuple[int | None, int, Decimal]], *, sign: int
) -> tuple[object, ...]:
    return (
        expense.event_id,
        expense.what,
        expense.paid_by_id,
        expense.paid_in,
        sign * expense.amount,
        sorted(((g or 0, g is None), w, sign * a) for g, w, a in shares),
    )
