"""Money as the pages and the workbook read it: exact sums of chip columns, yen at an event's
rate, and the one way amounts are written (−$680, ¥65,400). Storage in whole cents is
``games.chips.MoneyField``."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Sum

from games.chips import MoneyField

ZERO = Decimal("0.00")
MINUS = "\u2212"


def format_chips(amount: Decimal, symbol: str = "", *, signed: bool = False) -> str:
    """Thousands separated, cents only when there are any: 95, 59.50, 1,040, −$680, +$280."""
    text = f"{abs(amount):,.2f}"
    if text.endswith(".00"):
        text = text[:-3]
    sign = MINUS if amount < 0 else ("+" if signed and amount > 0 else "")
    return sign + symbol + text


YEN = Decimal(1)


def to_yen(chips: Decimal, yen_per_chip: Decimal) -> Decimal:
    """Chips at an event's rate, rounded half-up to the whole yen (the one rule for yen)."""
    return (chips * yen_per_chip).quantize(YEN, rounding=ROUND_HALF_UP)


def format_yen(amount: Decimal) -> str:
    """¥65,400, ¥−65,400."""
    return "¥" + format_chips(amount.quantize(YEN, rounding=ROUND_HALF_UP))


def money_sum(field: str, **kwargs: Any) -> Sum:
    """``Sum`` of a money column that is ``0.00`` (not ``None``) over no rows."""
    return Sum(field, default=0, output_field=MoneyField(), **kwargs)
