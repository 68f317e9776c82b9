"""A night's tips pool shared among its dealers, plain Python, exact to the cent.

Each dealer has a weight: their time at the table (seconds), the hands they dealt, or one each
when the pool is shared equally. A dealer's exact share is ``pool × weight / total weight``; each
gets that rounded down to the cent, and the cents left over (fewer than the dealers) go one each
to the dealers with the largest fractions left, ties to the dealer whose name, then id, comes
first. So the shares always add up to the pool, and no share is a cent or more from its exact
value. With no dealer the pool stays whole, undistributed; with every weight zero it is shared
equally.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Weighted:
    """One dealer as the split sees them."""

    dealer_id: int
    name: str
    weight: int


def split_pool(pool: Decimal, dealers: Sequence[Weighted]) -> dict[int, Decimal]:
    """Each dealer's share of ``pool`` (whole cents), adding up to it exactly."""
    if not dealers:
        return {}
    cents = int((pool / CENT).to_integral_value())
    weights = [d.weight for d in dealers]
    if sum(weights) <= 0:
        weights = [1] * len(dealers)
    total = sum(weights)
    base = {d.dealer_id: cents * w // total for d, w in zip(dealers, weights, strict=True)}
    fractions = {d.dealer_id: cents * w % total for d, w in zip(dealers, weights, strict=True)}
    left = cents - sum(base.values())
    order = sorted(dealers, key=lambda d: (-fractions[d.dealer_id], d.name.casefold(), d.dealer_id))
    for dealer in order[:left]:
        base[dealer.dealer_id] += 1
    return {dealer_id: Decimal(n) * CENT for dealer_id, n in base.items()}
