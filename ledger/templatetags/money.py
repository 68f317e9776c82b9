"""How chip amounts read on the page: +95, −50, +9.50, push."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.translation import gettext

from games.models import Event
from games.payouts import bet_label as stored_bet_label
from games.scoreboard import side_names
from ledger.money.amounts import (
    MoneyByCurrency,
    format_chips,
    format_money,
    format_money_each,
    format_percent,
    format_rate,
)
from ledger.money.amounts import money_sign as format_sign

register = template.Library()


def _amount(value: Decimal | str | None) -> Decimal | None:
    # Amounts in the journal of changes are JSON strings.
    return Decimal(value) if isinstance(value, str) else value


@register.filter
def bet_label(bet_type: str) -> str:
    return gettext(stored_bet_label(bet_type))


@register.filter
def winner_label(winner: str) -> str:
    """'player' → Player, in the page's language."""
    return gettext(winner.title())


@register.filter
def coup_winner_label(winner: str) -> str:
    """'player' → Ponte: a coup's side in the guest-banked games' words."""
    return side_names(guest_banked=True)[winner]


@register.filter
def signed(amount: Decimal | str | None) -> str:
    amount = _amount(amount)
    if amount is None:
        return ""
    return ("+" if amount > 0 else "") + format_chips(amount)


@register.filter
def signed_result(amount: Decimal | str | None) -> str:
    """A bet's result: a push (net zero) says so."""
    amount = _amount(amount)
    if amount is None:
        return ""
    return gettext("push") if amount == 0 else signed(amount)


@register.filter
def percent(value: Decimal | None) -> str:
    return format_percent(value)


@register.filter
def negate(amount: Decimal | None) -> Decimal | None:
    return None if amount is None else -amount


@register.filter
def chips(amount: Decimal | str | None) -> str:
    amount = _amount(amount)
    return "" if amount is None else format_chips(amount)


@register.filter
def money(amount: Decimal | str | None, currency: str) -> str:
    """An amount of money in its currency, the reader's way: ¥65,400, −€1,234.50."""
    amount = _amount(amount)
    return "" if amount is None else format_money(amount, currency)


@register.filter
def money_sign(currency: str) -> str:
    """The currency's sign in the reader's language: ¥, €, ₩."""
    return format_sign(currency)


@register.filter
def rate(event: Event) -> str:
    """The night's chip worth: ¥100, €0.5."""
    return format_rate(event.money_per_chip, event.currency)


@register.filter
def money_each(amounts: MoneyByCurrency) -> str:
    """Money of several nights, per currency: ¥65,400 · €12.50."""
    return format_money_each(amounts)


@register.filter
def in_chips(amount: Decimal | str | None, symbol: str) -> str:
    """An amount with the event's chip symbol: $1,040, −$680."""
    amount = _amount(amount)
    return "" if amount is None else format_chips(amount, symbol)


@register.filter
def in_chips_signed(amount: Decimal | str | None, symbol: str) -> str:
    amount = _amount(amount)
    return "" if amount is None else format_chips(amount, symbol, signed=True)


@register.filter
def get_shoes(shoes: dict[int, list[object]], event_id: int) -> list[object]:
    """A guest's shoes at one event (template dictionaries cannot be indexed by a variable)."""
    return shoes.get(event_id, [])


@register.filter
def of_event(by_event: dict[int, object], event_id: int) -> object:
    """What a mapping keyed by event holds for one event, or None."""
    return by_event.get(event_id)
