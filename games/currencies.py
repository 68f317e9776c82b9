"""A night's currency: an ISO 4217 code, its minor units and its names, as CLDR (through babel)
knows them. The chips are the night's own; their worth is in this currency at the night's rate."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from functools import cache

from babel import Locale
from babel.numbers import (
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
    get_territory_currencies,
    list_currencies,
)

DEFAULT_CURRENCY = "JPY"  # the reference night's, and every night recorded before currencies
# Offered first in the night's form; the rest follow in order of their code.
COMMON_CURRENCIES = ("JPY", "EUR", "USD", "KRW", "GBP", "VND", "CNY", "HKD", "TWD", "SGD", "AUD")


@cache
def currency_codes() -> frozenset[str]:
    """Every code a night may be in: the ISO 4217 currencies some territory takes as legal
    tender today, as CLDR knows them. Not the codes for testing or no currency (XTS, XXX),
    gold (XAU), nor those withdrawn (DEM) or traded only offshore (CNH)."""
    tender = {
        code
        for territory in Locale("en").territories
        if isinstance(territory, str)
        for code in get_territory_currencies(territory, tender=True)
    }
    return frozenset(code for code in list_currencies() if code in tender) | {DEFAULT_CURRENCY}


def is_currency(code: str) -> bool:
    return code in currency_codes()


@cache
def minor_units(code: str) -> int:
    """Decimals the currency is written and rounded to: JPY 0, EUR 2, KWD 3."""
    return int(get_currency_precision(code))


def quantum(code: str) -> Decimal:
    """The currency's smallest unit as a ``Decimal`` exponent: 1, 0.01, 0.001."""
    return Decimal(1).scaleb(-minor_units(code))


def round_money(amount: Decimal, code: str) -> Decimal:
    """An amount rounded half-up to the currency's minor units (the one rule, yen's of old)."""
    return amount.quantize(quantum(code), rounding=ROUND_HALF_UP)


def fits_minor_units(amount: Decimal, code: str) -> bool:
    """Whether an amount has no more decimals than its currency writes."""
    return amount == amount.quantize(quantum(code), rounding=ROUND_HALF_UP)


def currency_name(code: str, locale: str) -> str:
    return str(get_currency_name(code, locale=locale))


def currency_sign(code: str, locale: str = "en") -> str:
    """The sign a reader's language writes the currency with: ¥, €, ₩, KWD. The ledger's yen
    sign is the half-width ¥ in every language (CLDR's Japanese is the full-width ￥)."""
    return str(get_currency_symbol(code, locale=locale)).replace("￥", "¥")


def currency_choices(locale: str) -> list[tuple[str, str]]:
    """The night form's choices, "JPY — Japanese Yen", the common ones first."""
    rest = sorted(currency_codes() - set(COMMON_CURRENCIES))
    return [
        (code, f"{code} — {currency_name(code, locale)}") for code in (*COMMON_CURRENCIES, *rest)
    ]
