"""Who pays whom at the end of a guest-banked night, with the fewest transfers.

Plain Python, no Django: balances in, transfers out. A balance is a guest's (or the house's)
net for the night in chips counted to the cent: positive is owed, negative owes; together they
sum to exactly zero.

**The fewest transfers.** Settling a set of balances that sums to zero takes at least one
transfer fewer than there are people in it, and a settlement with *k* transfers among *n* people
splits them into at least *n − k* groups that settle among themselves. So the fewest transfers
is *n − g*, where *g* is the largest number of disjoint zero-sum groups the non-zero balances
split into; each group then settles with one transfer fewer than its size (largest debtor pays
largest creditor, repeat). :func:`fewest_transfers` finds *g* exactly:

1. A pair of opposite equal balances (−$50 and +$50) is always a group of its own in some best
   split, so such pairs are paired off first (greedy settling often misses them).
2. Up to :data:`EXACT_LIMIT` balances remain: the zero-sum subsets of them are found by meeting
   in the middle (the sums of each half), as one bit per subset in a Python integer; then *g* is
   the longest chain of zero-sum subsets each inside the next (the differences are the groups),
   found level by level with whole-integer bit operations — the DP "most zero-sum groups within
   a subset" evaluated for all 2^n subsets at once rather than one subset at a time, so 20
   balances take milliseconds in CPython.
3. Above that, largest debtor pays largest creditor until everyone is settled: at most one
   transfer fewer than there are people, not always the fewest.

Equal amounts are taken in the order of the ids, so the same balances always give the same
proposal, whatever order the mapping is in. :func:`through_house` is the other plan: everyone
settles with the house.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Generic, Protocol, TypeVar

from games.messages import RuleError, gettext_noop, whole_cents

# The most balances (left once opposite pairs are paired off) settled with the proven fewest
# transfers. The work doubles with each one more: at 20, sets of 2^20 bits (128 KB each) and
# at most a few tens of milliseconds (bench/clearing.py).
EXACT_LIMIT = 20

MSG_NOT_ZERO_SUM = gettext_noop("Balances settle only when they sum to zero; these sum to {total}.")
MSG_BALANCE_CENTS = gettext_noop("A balance is counted to the cent at most (got {amount}).")


class Party(Hashable, Protocol):
    """Whoever has a balance: a guest's id, the house's. Ids are ordered, for ties."""

    def __lt__(self, other: Any, /) -> bool: ...


P = TypeVar("P", bound=Party)


@dataclass(frozen=True)
class Transfer(Generic[P]):
    """``payer`` pays ``payee`` ``amount`` (more than zero, to the cent)."""

    payer: P
    payee: P
    amount: Decimal


def fewest_transfers(balances: Mapping[P, Decimal]) -> list[Transfer[P]]:
    """Transfers that settle every balance exactly, as few as there can be (see the module's
    notes; above :data:`EXACT_LIMIT` balances without an opposite, at most one fewer than the
    people with a balance). Sorted by payer, then payee."""
    cents = _cents(balances)
    groups, rest = _opposite_pairs(cents)
    if len(rest) <= EXACT_LIMIT:
        groups += _zero_sum_groups(rest, [cents[party] for party in rest])
    else:
        groups.append(rest)
    return _sorted(
        transfer for group in groups for transfer in _settle({p: cents[p] for p in group})
    )


def greedy_transfers(balances: Mapping[P, Decimal]) -> list[Transfer[P]]:
    """Largest debtor pays largest creditor, repeated: at most one transfer fewer than the
    people with a balance, often more than the fewest. The yardstick :func:`fewest_transfers`
    is measured against (and its fallback, after pairing off opposites)."""
    return _sorted(_settle(_cents(balances)))


def through_house(balances: Mapping[P, Decimal], house: P) -> list[Transfer[P]]:
    """The house as a clearing house: each guest with a balance settles with it, one transfer
    each. ``balances`` are everyone's, the house's included (absent: zero), as for
    :func:`fewest_transfers`. Sorted by guest."""
    cents = _cents(balances)
    return [
        _transfer(party, house, -amount) if amount < 0 else _transfer(house, party, amount)
        for party, amount in cents.items()
        if party != house
    ]


def _cents(balances: Mapping[P, Decimal]) -> dict[P, int]:
    """The non-zero balances in whole cents, in the order of the ids; refused unless they are
    Decimals to the cent that sum to zero."""
    cents: dict[P, int] = {}
    for party in sorted(balances):
        amount = balances[party]
        if not isinstance(amount, Decimal):
            raise TypeError(f"A balance is a Decimal, not {type(amount).__name__} ({amount!r}).")
        if not whole_cents(amount):
            raise RuleError(MSG_BALANCE_CENTS, amount=amount)
        if amount:
            cents[party] = _whole_cents(amount)
    total = sum(cents.values())
    if total:
        raise RuleError(MSG_NOT_ZERO_SUM, total=_amount(total))
    return cents


# Both ways exactly, from the digits: Decimal arithmetic would round past 28 digits.
def _whole_cents(amount: Decimal) -> int:
    sign, digits, exponent = amount.as_tuple()
    assert isinstance(exponent, int)  # finite: counted to the cent
    value = int("".join(map(str, digits)))
    shift = exponent + 2
    scale: int = 10 ** abs(shift)
    value = value * scale if shift >= 0 else value // scale
    return -value if sign else value


def _amount(cents: int) -> Decimal:
    return Decimal(f"{cents}E-2")


def _transfer(payer: P, payee: P, cents: int) -> Transfer[P]:
    return Transfer(payer=payer, payee=payee, amount=_amount(cents))


def _sorted(transfers: Iterable[Transfer[P]]) -> list[Transfer[P]]:
    return sorted(transfers, key=lambda transfer: (transfer.payer, transfer.payee))


def _opposite_pairs(cents: dict[P, int]) -> tuple[list[list[P]], list[P]]:
    """Pairs of opposite equal balances, each a group of its own, and everyone else (in id
    order). Safe for the fewest: if a and −a sit in groups A and B of a best split, then
    {a, −a} and (A ∪ B) minus them is a split with as many groups (A = B would not be best:
    it would split in two)."""
    owing: dict[int, list[P]] = {}
    for party, amount in cents.items():
        if amount < 0:
            owing.setdefault(-amount, []).append(party)
    pairs: list[list[P]] = []
    paired: set[P] = set()
    for party, amount in cents.items():
        debtors = owing.get(amount) if amount > 0 else None
        if debtors:
            debtor = debtors.pop(0)
            pairs.append([debtor, party])
            paired |= {debtor, party}
    return pairs, [party for party in cents if party not in paired]


def _settle(cents: dict[P, int]) -> list[Transfer[P]]:
    """Largest debtor pays largest creditor (the lower id on equal amounts) until all are
    settled. Each transfer settles someone and the last settles two, so a group that has no
    smaller zero-sum group inside it takes exactly one transfer fewer than its size."""
    debtors = [(amount, party) for party, amount in cents.items() if amount < 0]
    creditors = [(-amount, party) for party, amount in cents.items() if amount > 0]
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    transfers = []
    while debtors:
        debt, debtor = heapq.heappop(debtors)
        credit, creditor = heapq.heappop(creditors)
        paid = min(-debt, -credit)
        transfers.append(_transfer(debtor, creditor, paid))
        if debt + paid:
            heapq.heappush(debtors, (debt + paid, debtor))
        if credit + paid:
            heapq.heappush(creditors, (credit + paid, creditor))
    return transfers


def _zero_sum_groups(parties: list[P], amounts: list[int]) -> list[list[P]]:
    """The parties (whose amounts sum to zero) split into as many zero-sum groups as they can.

    A subset of the n parties is a mask (bit i: ``parties[i]`` is in), and a set of masks is an
    integer with bit *mask* set for each: 2^n bits. ``levels[k]`` holds the zero-sum masks that
    split into at least k + 1 zero-sum groups, i.e. that hold a chain of k smaller zero-sum masks
    one inside the next: each level is the zero-sum masks strictly above a mask of the level
    before. The whole set is zero-sum; the last level that holds it is the answer, and walking
    back down the chain gives the groups (each step's difference).
    """
    n = len(parties)
    if n < 3:
        return [parties] if parties else []  # two opposite balances, or none
    lacking = [_masks_lacking(i, n) for i in range(n)]
    zero_sum = _zero_sum_masks(amounts)
    everyone = (1 << n) - 1
    levels = [zero_sum]
    while True:
        above = zero_sum & _strictly_above(levels[-1], lacking)
        if not above >> everyone & 1:
            break
        levels.append(above)
    groups = []
    whole = everyone
    for level in reversed(levels[:-1]):
        inside = level & _masks_inside(whole, lacking) & ~(1 << whole)
        # The largest mask below: its difference with ``whole`` holds the lowest members left.
        part = inside.bit_length() - 1
        groups.append(whole & ~part)
        whole = part
    groups.append(whole)
    return [[parties[i] for i in range(n) if group >> i & 1] for group in reversed(groups)]


def _masks_lacking(i: int, n: int) -> int:
    """The masks of n parties without party i, as bits of an integer (n ≥ 3: whole bytes)."""
    size = (1 << n) // 8
    if i < 3:
        return int.from_bytes(bytes([(0x55, 0x33, 0x0F)[i]]) * size, "little")
    run = 1 << (i - 3)
    return int.from_bytes((b"\xff" * run + b"\x00" * run) * (size // (2 * run)), "little")


def _up(masks: int, lacking: list[int]) -> int:
    """Every mask that holds one of ``masks`` (itself included): add one party at a time."""
    for i, without in enumerate(lacking):
        masks |= (masks & without) << (1 << i)
    return masks


def _strictly_above(masks: int, lacking: list[int]) -> int:
    """Every mask that holds one of ``masks`` and someone more."""
    one_more = 0
    for i, without in enumerate(lacking):
        one_more |= (masks & without) << (1 << i)
    return _up(one_more, lacking)


def _masks_inside(mask: int, lacking: list[int]) -> int:
    """Every mask inside ``mask`` (itself included)."""
    inside = (1 << (1 << len(lacking))) - 1
    for i, without in enumerate(lacking):
        if not mask >> i & 1:
            inside &= without
    return inside


def _zero_sum_masks(amounts: list[int]) -> int:
    """The non-empty masks whose amounts sum to zero (n ≥ 3). Meeting in the middle: a mask is
    a low half and a high half, and sums to zero when the low half's sum is minus the high's;
    the low masks of each sum are kept as bytes, and the bits of every mask are those bytes
    laid end to end in the order of the high halves."""
    low = max(3, len(amounts) // 2)
    low_by_sum: dict[int, int] = {}
    for mask, total in enumerate(_subset_sums(amounts[:low])):
        low_by_sum[total] = low_by_sum.get(total, 0) | 1 << mask
    width = (1 << low) // 8
    blocks = {total: masks.to_bytes(width, "little") for total, masks in low_by_sum.items()}
    none = bytes(width)
    laid = b"".join(blocks.get(-total, none) for total in _subset_sums(amounts[low:]))
    return int.from_bytes(laid, "little") & ~1  # not the empty mask


def _subset_sums(amounts: list[int]) -> list[int]:
    """The sum of every mask of ``amounts``, by mask."""
    sums = [0]
    for amount in amounts:
        sums += [total + amount for total in sums]
    return sums
