"""The ledger's lines: every amount that moves a guest's balance, signed as the balance reads it,
in one list that every balance on every page is a sum of.

- **result**: the guest's net at an event (the bets' totals per guest and event, kept by the
  services; a tournament's entry fee, rebuys, add-ons and prize are its result);
- **settlement**: what the guest paid the house (negative: what the house paid the guest);
- **transfer**: at a guest-banked night, plus for its payer and minus for its payee, whoever the
  other side was (a guest or the house);
- **tip**: minus what the guest tipped the night's dealers (``ledger.tips``): it leaves their
  balance for the dealers' pool, never the house's result. The pages count it with the night's
  result (what the guest's night came to), not with what was settled.
- **expense**: what the guest paid for the night (food, drinks: plus, they are owed it) less
  their share of every expense they share (``ExpenseShare``: minus, they owe it). The house's
  side is the rest; an expense is a night's result as much as its bets, never a settlement.

A void is a line of its own (the same amount, the other way), so a balance is always a plain sum
of rows. Lines are summed by the database, per guest, event and kind (or per guest, rate and kind
when the event does not matter but its money does): one query, however long the history.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import StrEnum
from typing import Any

from django.db.models import CharField, ExpressionWrapper, F, Q, QuerySet, Sum, Value

from games.chips import MoneyField
from games.models import Event
from ledger.models import Expense, ExpenseShare, GuestEventResult, Settlement, Tip, Transfer
from ledger.money.amounts import ZERO, money_sum


class LineKind(StrEnum):
    RESULT = "result"
    SETTLEMENT = "settlement"
    TRANSFER = "transfer"
    TIP = "tip"
    EXPENSE = "expense"


SETTLED = frozenset({LineKind.SETTLEMENT, LineKind.TRANSFER})  # what the pages call "settled"
# What a night came to for a guest, before anything was settled: bets (or the count), tips and
# expenses.
NIGHT = frozenset({LineKind.RESULT, LineKind.TIP, LineKind.EXPENSE})


@dataclass(frozen=True)
class Line:
    """A guest's lines of one kind at one event, summed (``event_id`` and ``date`` are None when
    summed per rate)."""

    guest_id: int
    event_id: int | None
    date: date | None
    money_per_chip: Decimal
    currency: str
    kind: LineKind
    amount: Decimal

    @property
    def settled(self) -> bool:
        return self.kind in SETTLED


_MINUS_AMOUNT = ExpressionWrapper(F("amount") * Value(-1), output_field=MoneyField())


def ledger_lines(
    *,
    guests: Any = None,
    events: QuerySet[Event] | None = None,
    kinds: Collection[LineKind] = tuple(LineKind),
    nights_only: bool = False,
    per_rate: bool = False,
) -> list[Line]:
    """The lines of ``guests`` (ids, guests or a query; None: every guest) at ``events`` (None:
    every event), of ``kinds``; with ``nights_only``, a tournament's tables left out (their
    money is their tournament's). Summed per guest, event and kind, or with ``per_rate`` per
    guest, rate (and currency) and kind. One query."""
    where = Q() if events is None else Q(event__in=events)
    if nights_only:
        where &= ~Q(event__kind=Event.Kind.TOURNAMENT_TABLE)
    rate = ("event__money_per_chip", "event__currency")
    columns = rate if per_rate else ("event_id", "event__date", *rate)

    def of(
        rows: QuerySet[Any], guest: str, kind: LineKind, amount: Any, event: str = ""
    ) -> QuerySet[Any]:
        mine = rows.filter(
            _under(where, event), **({} if guests is None else {f"{guest}__in": guests})
        )
        if guest != "guest" or event:
            mine = mine.filter(**{f"{guest}__isnull": False})  # the house's side is not a guest's
        summed: QuerySet[Any] = (
            mine.values_list(f"{guest}_id", *(_through(event, column) for column in columns))
            .annotate(kind=Value(kind.value, output_field=CharField()), n=amount)
            .order_by()
        )
        return summed

    parts = []
    if LineKind.RESULT in kinds:
        parts.append(of(GuestEventResult.objects.all(), "guest", LineKind.RESULT, money_sum("net")))
    if LineKind.SETTLEMENT in kinds:
        parts.append(
            of(Settlement.objects.all(), "guest", LineKind.SETTLEMENT, money_sum("amount"))
        )
    if LineKind.TRANSFER in kinds:
        paid = money_sum("amount")
        received = Sum(_MINUS_AMOUNT, default=0, output_field=MoneyField())
        parts.append(of(Transfer.objects.all(), "payer", LineKind.TRANSFER, paid))
        parts.append(of(Transfer.objects.all(), "payee", LineKind.TRANSFER, received))
    if LineKind.TIP in kinds:
        tipped = Sum(_MINUS_AMOUNT, default=0, output_field=MoneyField())
        parts.append(of(Tip.objects.all(), "guest", LineKind.TIP, tipped))
    if LineKind.EXPENSE in kinds:
        owes = Sum(_MINUS_AMOUNT, default=0, output_field=MoneyField())
        parts.append(of(Expense.objects.all(), "paid_by", LineKind.EXPENSE, money_sum("amount")))
        shares = ExpenseShare.objects.all()
        parts.append(of(shares, "guest", LineKind.EXPENSE, owes, event="expense__"))
    if not parts:
        return []
    rows = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    if per_rate:
        return [
            Line(guest, None, None, rate, currency, LineKind(kind), n)
            for guest, rate, currency, kind, n in rows
        ]
    return [
        Line(guest, event_id, day, rate, currency, LineKind(kind), n)
        for guest, event_id, day, rate, currency, kind, n in rows
    ]


def _under(where: Q, prefix: str) -> Q:
    """``where`` (on a row's ``event``) read through ``prefix`` (an expense share's expense)."""
    if not prefix:
        return where
    children: list[Any] = []
    for child in where.children:
        if isinstance(child, Q):
            children.append(_under(child, prefix))
        else:
            name, value = child  # type: ignore[misc]  # a Q's leaf: (lookup, value)
            children.append((prefix + name, value))
    return Q(*children, _connector=where.connector, _negated=where.negated)


def _through(prefix: str, column: str) -> str:
    return prefix + column.removesuffix("_id") if prefix else column


def balances(lines: Iterable[Line]) -> dict[int, Decimal]:
    """Each guest's balance in chips: the sum of their lines."""
    total: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for line in lines:
        total[line.guest_id] += line.amount
    return dict(total)


def balance(lines: Iterable[Line], guest_id: int) -> Decimal:
    return balances(lines).get(guest_id, ZERO)
