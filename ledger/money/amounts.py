"""Money as the pages and the workbook read it: exact sums of chip columns, yen at an event's
rate, and the one way amounts are written (−$680, ¥65,400). Storage in whole cents is
``games.chips.MoneyField``."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Sum

from games.chips import MoneyField
from games.messages import MINUS
from games.messages import format_chips as format_chips  # the pages' one way to write chips

ZERO = Decimal("0.00")


YEN = Decimal(1)


def to_yen(chips: Decimal, yen_per_chip: Decimal) -> Decimal:
    """Chips at an event's rate, rounded half-up to the whole yen (the one rule for yen)."""
    return (chips * yen_per_chip).quantize(YEN, rounding=ROUND_HALF_UP)


def format_yen(amount: Decimal) -> str:
    """¥65,400, ¥−65,400."""
    return "¥" + format_chips(amount.quantize(YEN, rounding=ROUND_HALF_UP))


def format_percent(value: Decimal | None) -> str:
    """A share with its true minus sign: −3.79%; a dash when there is none."""
    if value is None:
        return "—"
    return f"{MINUS if value < 0 else ''}{abs(value)}%"


def money_sum(field: str, **kwargs: Any) -> Sum:
    """``Sum`` of a money column that is ``0.00`` (not ``None``) over no rows."""
    return Sum(field, default=0, output_field=MoneyField(), **kwargs)
