"""Money as the pages and the workbook read it: exact sums of chip columns, money at an event's
rate in its currency, and the one way amounts are written (−$680, −¥65,400, −€1,234.50).
Storage in whole cents is ``games.chips.MoneyField``."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

from babel.numbers import format_currency
from django.db.models import Sum
from django.utils.translation import get_language, gettext_lazy, to_locale

from games.chips import MoneyField
from games.currencies import DEFAULT_CURRENCY, currency_sign, round_money
from games.messages import MINUS
from games.messages import format_chips as format_chips  # the pages' one way to write chips

ZERO = Decimal("0.00")
# A money column's heading: "Net (€)", "Net (¥)".
MSG_MONEY_HEADING = gettext_lazy("{what} ({sign})")


def to_money(chips: Decimal, money_per_chip: Decimal, currency: str) -> Decimal:
    """Chips at an event's rate in its currency, rounded half-up to the currency's minor units
    (JPY and KRW whole, EUR cents, KWD thousandths): the one rule, yen's of old."""
    return round_money(chips * money_per_chip, currency)


def format_money(
    amount: Decimal, currency: str, *, drawable: Callable[[str], bool] | None = None
) -> str:
    """¥65,400, −€1,234.50, ₩120,000: the reader's locale's way (CLDR, through babel: its
    pattern puts the sign before the currency's in English and in Japanese alike), rounded to
    the currency's minor units, with the two signs the ledger writes everywhere else — its minus
    (−, as in −$680) and the half-width ¥ (CLDR's Japanese is the full-width ￥). The one way
    money is written: the ``money`` filter, the PDFs, the previews and the docs.

    ``drawable`` says whether a font has a character: where it has not the currency's sign (the
    receipt's font has no ₩ nor ₫), the ISO code is written instead (KRW 120,000)."""
    shown_amount = round_money(amount, currency)
    if not shown_amount:
        shown_amount = abs(shown_amount)  # no "−¥0" for a rounded −0.40
    locale = to_locale(get_language() or "en")
    shown = format_currency(shown_amount, currency, locale=locale).replace("￥", "¥")
    sign = currency_sign(currency, locale)
    if drawable is not None and not all(drawable(char) for char in sign) and sign in shown:
        at = shown.index(sign) + len(sign)
        spaced = at < len(shown) and shown[at].isdigit()  # a code needs a space a sign has not
        shown = shown.replace(sign, f"{currency}\u00a0" if spaced else currency)
    return shown.replace("-", MINUS)


def money_sign(currency: str, *, drawable: Callable[[str], bool] | None = None) -> str:
    """The currency's sign in the reader's language (¥, €, ₩), or its code where a font
    cannot draw the sign (see :func:`format_money`)."""
    sign = currency_sign(currency, to_locale(get_language() or "en"))
    return currency if drawable is not None and not all(map(drawable, sign)) else sign


def format_rate(
    money_per_chip: Decimal, currency: str, *, drawable: Callable[[str], bool] | None = None
) -> str:
    """A night's rate with every decimal it has and none it has not: ¥100, ¥0.5, €0.05."""
    sign = money_sign(currency, drawable=drawable)
    space = "\u00a0" if sign.isalpha() else ""  # KWD 0.5, but ¥0.5
    return f"{sign}{space}{money_per_chip.normalize():,f}"


def format_money_each(
    amounts: MoneyByCurrency, *, drawable: Callable[[str], bool] | None = None
) -> str:
    """Money of nights in several currencies, each summed apart, never added together:
    "¥65,400 · €12.50"; one currency reads as :func:`format_money`, none as ¥0."""
    shown = [format_money(amount, code, drawable=drawable) for code, amount in amounts.items()]
    return " · ".join(shown) if shown else format_money(ZERO, DEFAULT_CURRENCY)


MoneyByCurrency = dict[str, Decimal]  # a currency's code → the money in it, in order first seen


def add_money(total: MoneyByCurrency, currency: str, amount: Decimal) -> MoneyByCurrency:
    """``total`` with ``amount`` added to its currency's (a new dict)."""
    return total | {currency: total[currency] + amount if currency in total else amount}


def format_percent(value: Decimal | None) -> str:
    """A share with its true minus sign: −3.79%; a dash when there is none."""
    if value is None:
        return "—"
    return f"{MINUS if value < 0 else ''}{abs(value)}%"


def money_sum(field: str, **kwargs: Any) -> Sum:
    """``Sum`` of a money column that is ``0.00`` (not ``None``) over no rows."""
    return Sum(field, default=0, output_field=MoneyField(), **kwargs)
