"""Money as the pages and the workbook read it: exact sums of chip columns, yen at an event's
rate, and the one way amounts are written (−$680, −¥65,400). Storage in whole cents is
``games.chips.MoneyField``."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from babel.numbers import format_currency
from django.db.models import Sum
from django.utils.translation import get_language, to_locale

from games.chips import MoneyField
from games.messages import MINUS
from games.messages import format_chips as format_chips  # the pages' one way to write chips

ZERO = Decimal("0.00")


YEN = Decimal(1)


def to_yen(chips: Decimal, yen_per_chip: Decimal) -> Decimal:
    """Chips at an event's rate, rounded half-up to the whole yen (the one rule for yen)."""
    return (chips * yen_per_chip).quantize(YEN, rounding=ROUND_HALF_UP)


def format_yen(amount: Decimal) -> str:
    """¥65,400, −¥65,400: the reader's locale's way (CLDR, through babel: its pattern puts the
    sign before the yen sign in English and in Japanese alike), with the two signs the ledger
    writes everywhere else — its minus (−, as in −$680) and the half-width ¥ of its rates and
    column headings (CLDR's Japanese is the full-width ￥). The one way yen are written: the
    ``yen`` filter, the PDFs, the previews and the docs."""
    whole = amount.quantize(YEN, rounding=ROUND_HALF_UP)
    if not whole:
        whole = abs(whole)  # no "−¥0" for a rounded −0.40
    shown = format_currency(whole, "JPY", locale=to_locale(get_language() or "en"))
    return shown.replace("-", MINUS).replace("￥", "¥")


def format_percent(value: Decimal | None) -> str:
    """A share with its true minus sign: −3.79%; a dash when there is none."""
    if value is None:
        return "—"
    return f"{MINUS if value < 0 else ''}{abs(value)}%"


def money_sum(field: str, **kwargs: Any) -> Sum:
    """``Sum`` of a money column that is ``0.00`` (not ``None``) over no rows."""
    return Sum(field, default=0, output_field=MoneyField(), **kwargs)
