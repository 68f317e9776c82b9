"""Reads of the dealers' tips: a night's pool and how it is shared, and a dealer's own shares.

The pool is the night's tips, voids included (a void is the same amount the other way). Who
shares it: the logins with a shift at the night. By time at the table (the night's default): a
dealer's weight is the seconds of their shifts, a shift still open counted up to now (the night's
close ends every open shift). Equally: one each. The split itself is
:func:`ledger.tips.split.split_pool`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from games.models import Event
from ledger.models import DealerShift, Tip, TipSharing
from ledger.money.amounts import ZERO, money_sum
from ledger.tips.split import Weighted, split_pool

BY_TIME, BY_TIME_SO_FAR, EQUALLY = "time", "time so far", "equal"


@dataclass(frozen=True)
class Share:
    dealer_id: int
    name: str
    weight: int
    amount: Decimal


@dataclass
class Pool:
    event_id: int
    total: Decimal
    rule: str  # BY_TIME, BY_TIME_SO_FAR or EQUALLY: what the shares were weighed by
    shares: list[Share] = field(default_factory=list)

    @property
    def undistributed(self) -> bool:
        return self.total != 0 and not self.shares


def _name(user: User) -> str:
    return user.get_full_name() or user.get_username()


def pools(event_ids: Iterable[int]) -> dict[int, Pool]:
    """Each night's pool and its shares: three queries, however many nights, tips and shifts."""
    ids = list(event_ids)
    totals = dict(
        Tip.objects.filter(event_id__in=ids)
        .values_list("event_id")
        .annotate(n=money_sum("amount"))
        .order_by()
    )
    ways = dict(TipSharing.objects.filter(event_id__in=ids).values_list("event_id", "way"))
    shifts: dict[int, list[DealerShift]] = defaultdict(list)
    for shift in DealerShift.objects.filter(event_id__in=ids).select_related("dealer"):
        shifts[shift.event_id].append(shift)
    now = timezone.now()
    found = {}
    for event_id in ids:
        total = Decimal(totals.get(event_id) or ZERO)
        mine = shifts.get(event_id, [])
        dealers = {shift.dealer_id: shift.dealer for shift in mine}
        if ways.get(event_id) == TipSharing.Way.EQUAL:
            rule = EQUALLY
            weights = dict.fromkeys(dealers, 1)
        else:
            rule = BY_TIME_SO_FAR if any(shift.ended_at is None for shift in mine) else BY_TIME
            weights = dict.fromkeys(dealers, 0)
            for shift in mine:
                ended = shift.ended_at or now
                weights[shift.dealer_id] += max(0, int((ended - shift.started_at).total_seconds()))
        weighted = sorted(
            (Weighted(pk, _name(user), weights[pk]) for pk, user in dealers.items()),
            key=lambda d: (d.name.casefold(), d.dealer_id),
        )
        amounts = split_pool(total, weighted)
        shares = [Share(d.dealer_id, d.name, d.weight, amounts[d.dealer_id]) for d in weighted]
        found[event_id] = Pool(event_id, total, rule, shares)
    return found


def night_pool(event: Event) -> Pool:
    return pools([event.pk])[event.pk]


@dataclass(frozen=True)
class TipRow:
    tip: Tip
    voided: bool


def night_tips(event: Event) -> list[TipRow]:
    """The night's tips, voids included, oldest first, each marked if a later row voids it."""
    tips = Tip.objects.filter(event=event)
    rows = list(tips.select_related("guest", "recorded_by", "hand__shoe"))
    voided = {row.voids_id for row in rows if row.voids_id is not None}
    return [TipRow(row, row.pk in voided) for row in rows]


def guest_tips(guest_id: int, event_ids: Iterable[int]) -> list[TipRow]:
    """A guest's tips at the nights named, voids included, oldest first: one query."""
    rows = list(
        Tip.objects.filter(guest_id=guest_id, event_id__in=list(event_ids))
        .select_related("event")
        .order_by("recorded_at", "id")
    )
    voided = {row.voids_id for row in rows if row.voids_id is not None}
    return [TipRow(row, row.pk in voided) for row in rows]


def night_shifts(event: Event) -> list[DealerShift]:
    return list(
        DealerShift.objects.filter(event=event).select_related("dealer", "shoe", "recorded_by")
    )


@dataclass(frozen=True)
class DealerNight:
    event: Event
    share: Share
    pool: Pool


def dealer_nights(dealer: User) -> list[DealerNight]:
    """The nights ``dealer`` dealt at, newest first, with their share of each night's pool and
    nothing of the others' shares. Six queries."""
    events = list(
        Event.objects.filter(dealer_shifts__dealer=dealer).distinct().order_by("-date", "-id")
    )
    found = pools(event.pk for event in events)
    nights = []
    for event in events:
        pool = found[event.pk]
        mine = next(share for share in pool.shares if share.dealer_id == dealer.pk)
        nights.append(DealerNight(event, mine, pool))
    return nights


def pool_of_chips(event: Event) -> Decimal:
    """The chips tipped at the table at a night (from a hand's win or in chips): what its count's
    tips box should hold. One query."""
    chips = Tip.objects.filter(event=event).exclude(source=Tip.Source.MONEY)
    return Decimal(chips.aggregate(n=money_sum("amount"))["n"] or ZERO)
