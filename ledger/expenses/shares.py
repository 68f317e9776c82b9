"""An expense split among its sharers, plain Python: the rule for the odd cent.

Every share is counted to the cent (the night's smallest money unit) and the shares add up to the
expense exactly. Each sharer first gets their exact part, ``amount × weight ÷ total weight``,
rounded down to the cent; the cents left over (fewer than there are sharers) go one each to the
sharers whose exact part lost the most in that rounding (the largest fractional part first), and
between equal fractional parts to the one listed first. Sharers are listed by guest id, the house
last (``ordered``). An equal split is a split with every weight 1. So 100.00 shared by three is
33.34, 33.33, 33.33, the first guest by id paying the odd cent; 10.00 shared 2:1:1 is 5.00, 2.50,
2.50. The rule is stated for the host in docs/host-guide.md and docs/rules.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TypeVar

from games.messages import whole_cents

Sharer = TypeVar("Sharer")

HUNDRED = 100


def ordered(guest_ids: Sequence[int], house: bool) -> list[int | None]:
    """The sharers in the rule's order: guests by id, then the house (``None``)."""
    sharers: list[int | None] = [*sorted(set(guest_ids))]
    if house:
        sharers.append(None)
    return sharers


def split_amount(amount: Decimal, weights: Sequence[tuple[Sharer, int]]) -> list[Decimal]:
    """The shares of ``amount`` (whole cents, more than zero) among ``weights`` (each sharer with
    a weight above zero, in the rule's order): one per sharer, in that order, each to the cent,
    adding up to ``amount`` exactly (the odd cents as the module says)."""
    if not weights or any(weight <= 0 for _sharer, weight in weights):
        raise ValueError("every sharer needs a weight above zero")
    if amount <= 0 or not whole_cents(amount):
        raise ValueError("an expense is whole cents above zero")
    cents = int(amount * HUNDRED)
    total = sum(weight for _sharer, weight in weights)
    floors = [cents * weight // total for _sharer, weight in weights]
    left = cents - sum(floors)
    # The largest fractional part first (its remainder over ``total``), then the order listed.
    order = sorted(range(len(weights)), key=lambda i: (-(cents * weights[i][1] % total), i))
    for index in order[:left]:
        floors[index] += 1
    return [Decimal(share).scaleb(-2) for share in floors]
