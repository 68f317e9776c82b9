"""How chip amounts read on the page: +95, −50, +9.50, push."""

from __future__ import annotations

from decimal import Decimal

from django import template

from ledger.money import format_chips

register = template.Library()


@register.filter
def signed(amount: Decimal | None) -> str:
    if amount is None:
        return ""
    return ("+" if amount > 0 else "") + format_chips(amount)


@register.filter
def signed_result(amount: Decimal | None) -> str:
    """A bet's result: a push (net zero) says so."""
    if amount is None:
        return ""
    return "push" if amount == 0 else signed(amount)


@register.filter
def negate(amount: Decimal | None) -> Decimal | None:
    return None if amount is None else -amount


@register.filter
def chips(amount: Decimal | None) -> str:
    return "" if amount is None else format_chips(amount)
