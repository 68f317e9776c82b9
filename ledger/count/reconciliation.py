"""The count's arithmetic, plain Python: what chips each guest and the house's tray should hold
after a night, against what was counted.

A guest's **expected** chips are those they took (buy-ins and top-ups) plus their net result from
the logged hands plus any adjustment booked for them, plus what others paid them in chips at the
table less what they paid (transfers between guests settled in chips); their **difference** is
what they handed back (counted) less that. The tray is expected to hold its opening float plus
the house's net (the guests' losses less their wins, with the commission), less the adjustments
booked against it. Chips are neither made nor lost at the table, so the guests' differences and
the tray's add up to what is missing from the table as a whole; a bet left out of the log shows
as a difference of its amount at its guest's place, and the other way at the tray. Chips a
guest tipped at the table left their stack for the tips box beside the tray: their expected chips
are less by them, and the table's totals count the box.

A guest who has not been counted yet has no difference: they are still playing, or their count
is missing (the close asks). Nothing here rounds: amounts are added as they are.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Generic, TypeVar

ZERO = Decimal(0)
Guest = TypeVar("Guest", bound=Hashable)


@dataclass(frozen=True)
class GuestCount(Generic[Guest]):
    guest: Guest
    taken: Decimal
    net: Decimal
    adjusted: Decimal
    counted: Decimal | None
    handed: Decimal = ZERO  # chips received from others at the table, less chips paid them
    tipped: Decimal = ZERO  # chips the guest tipped at the table: they went to the tips box

    @property
    def expected(self) -> Decimal:
        return self.taken + self.net + self.adjusted + self.handed - self.tipped

    @property
    def in_play(self) -> bool:
        return bool(self.taken or self.net or self.adjusted or self.handed or self.tipped)

    @property
    def difference(self) -> Decimal | None:
        """Chips counted less chips expected: more than the hands explain (positive) or fewer;
        ``None`` until counted."""
        return None if self.counted is None else self.counted - self.expected


@dataclass(frozen=True)
class TrayCount:
    opening_float: Decimal
    house_net: Decimal
    adjusted: Decimal  # the house's side of the adjustments: minus the guests'
    counted: Decimal | None
    handed: Decimal = ZERO  # chips the house received from guests at the table, less paid

    @property
    def expected(self) -> Decimal:
        return self.opening_float + self.house_net + self.adjusted + self.handed

    @property
    def difference(self) -> Decimal | None:
        return None if self.counted is None else self.counted - self.expected


@dataclass(frozen=True)
class TableTotals:
    """The count table's last row: each column added up over the guests and the tray, so
    that it reads as the sum of the rows above it. ``taken`` counts the tray's opening float
    (the chips it held at the open); chips being neither made nor lost, ``expected`` is
    ``taken`` when every result is in the books. ``difference`` is the counted rows' only."""

    taken: Decimal
    expected: Decimal
    counted: Decimal
    difference: Decimal


@dataclass(frozen=True)
class Reconciliation(Generic[Guest]):
    guests: tuple[GuestCount[Guest], ...]
    tray: TrayCount
    # The tips box beside the tray: the chips tipped at the table (from a win or a stack),
    # which leave the guests' stacks and go to the dealers as the box stands (never counted as
    # the house's). The table's totals count it, so that chips taken are still chips expected.
    tips_box: Decimal = ZERO

    @property
    def uncounted(self) -> list[Guest]:
        """The guests still to count: they took chips or played (one who did neither has
        nothing to hand back)."""
        return [row.guest for row in self.guests if row.counted is None and row.in_play]

    @property
    def differences(self) -> dict[Guest, Decimal]:
        """The guests counted whose chips are not what the books say, and by how much."""
        return {
            row.guest: row.difference
            for row in self.guests
            if row.difference is not None and row.difference != 0
        }

    @property
    def table_difference(self) -> Decimal:
        """The counted guests' differences added up, with the tray's once counted."""
        total = sum((row.difference or ZERO for row in self.guests), ZERO)
        return total + (self.tray.difference or ZERO)

    @property
    def table(self) -> TableTotals:
        tray = self.tray
        return TableTotals(
            taken=sum((row.taken for row in self.guests), tray.opening_float),
            expected=sum((row.expected for row in self.guests), tray.expected + self.tips_box),
            counted=sum(
                (row.counted or ZERO for row in self.guests),
                (tray.counted or ZERO) + self.tips_box,
            ),
            difference=self.table_difference,
        )

    @property
    def tray_uncounted(self) -> bool:
        """The tray is still to count: it should hold chips (an empty one has none to count)."""
        return self.tray.counted is None and self.tray.expected != 0

    @property
    def reconciled(self) -> bool:
        """Everyone and the tray counted, and every difference zero."""
        if self.uncounted or self.differences or self.tray_uncounted:
            return False
        if self.tray.counted is None and all(row.counted is None for row in self.guests):
            return False  # nothing counted yet
        return self.tray.difference in (None, 0)


def reconcile(
    *,
    taken: Mapping[Guest, Decimal],
    nets: Mapping[Guest, Decimal],
    adjustments: Mapping[Guest, Decimal],
    counted: Mapping[Guest, Decimal],
    house_net: Decimal,
    opening_float: Decimal = ZERO,
    tray_counted: Decimal | None = None,
    handed: Mapping[Guest, Decimal] | None = None,
    house_handed: Decimal = ZERO,
    tipped: Mapping[Guest, Decimal] | None = None,
) -> Reconciliation[Guest]:
    """The night's count: a row for each guest who took chips, played or was counted, in the
    order first met (``taken``, then ``nets``, ``adjustments``, ``counted``). ``handed``: chips
    each guest received at the table less chips they paid (transfers settled in chips; the
    house's side is ``house_handed``). ``tipped``: chips each guest tipped at the table, which
    went to the tips box."""
    handed = handed or {}
    tipped = tipped or {}
    guests = list(dict.fromkeys([*taken, *nets, *adjustments, *counted, *handed, *tipped]))
    rows = tuple(
        GuestCount(
            guest,
            taken.get(guest, ZERO),
            nets.get(guest, ZERO),
            adjustments.get(guest, ZERO),
            counted.get(guest),
            handed.get(guest, ZERO),
            tipped.get(guest, ZERO),
        )
        for guest in guests
    )
    adjusted = -sum(adjustments.values(), ZERO)
    tray = TrayCount(opening_float, house_net, adjusted, tray_counted, house_handed)
    return Reconciliation(rows, tray, sum(tipped.values(), ZERO))


def chips_of(by_denomination: Mapping[Decimal, int]) -> Decimal:
    """The chips a count by denomination adds up to (12 × 100 + 3 × 25 = 1,275)."""
    return sum((value * number for value, number in by_denomination.items()), ZERO)
