"""Sharing where guests already are: a one-line balance text for a chat app, a guest's receipt
for one night, and a night's results for the group.

Reads only. Every figure comes from :mod:`ledger.money.results` (the one computation of money);
money from :func:`ledger.money.amounts.to_money`. Names are shown as plain text: whatever an old
row holds, control and format characters (a bidi override, a zero-width joiner) are dropped
before a name goes into text that leaves the site (a chat message, a PDF, a file name).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import quote

from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.models import GuestPayHandle, PayWay
from ledger.money.amounts import format_chips, format_money, format_money_each, to_money
from ledger.money.figures import NightFigures, WithoutHands, night_figures, without_hands
from ledger.money.results import GuestHistory, ShoeRow, event_shoe_rows
from ledger.payways.selectors import PayRequest, pay_request

LINE_SHARE = "https://line.me/R/share?text="

MSG_SHARE_OWES = _("{name}, your balance is {chips} ({money}): you owe the house.")
MSG_SHARE_OWED = _("{name}, your balance is {chips} ({money}): the house owes you.")
MSG_SHARE_SQUARE = _("{name}, your balance is square.")
MSG_GUEST_NUMBER = _("Guest {number}")

# Characters that draw nothing but change how text around them reads or runs: control, format
# (bidi overrides and isolates, zero-width joiners), surrogates, private use, unassigned.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def plain_text(text: str) -> str:
    """``text`` with every control and format character dropped and whitespace collapsed."""
    kept = "".join(char for char in text if unicodedata.category(char) not in _INVISIBLE)
    return " ".join(kept.split())


# --- the balance, as a message --------------------------------------------------------------


@dataclass(frozen=True)
class ShareText:
    """What the host sends a guest: one line about the balance, and the guest's private link
    (empty when the guest has none)."""

    title: str  # the guest's name, as plain text
    line: str
    url: str
    pay: tuple[str, ...] = ()  # how to pay, a line a way (``ledger.payways``), if asked

    @property
    def full(self) -> str:
        return "\n".join([self.line, *self.pay, *([self.url] if self.url else [])])

    @property
    def line_url(self) -> str:
        """LINE's share link (a plain link: no SDK), the whole message in its query."""
        return LINE_SHARE + quote(self.full, safe="")


def history_request(
    history: GuestHistory, ways: list[PayWay], handles: list[GuestPayHandle]
) -> PayRequest | None:
    """The settlement request of the guest's balance now, in the latest night's currency, from
    the ways and the guest's handles already read."""
    event = history.points[-1].event if history.points else None
    return pay_request(history.guest, history.balance_money, event, ways=ways, handles=handles)


def balance_share(
    history: GuestHistory, url: str = "", request: PayRequest | None = None
) -> ShareText:
    """The message about the balance; with the ``request`` of a guest who owes, how to pay it
    too (its links as text: a chat app makes them tappable)."""
    name = plain_text(history.guest.name)
    balance = history.balance
    if balance < 0:
        template = MSG_SHARE_OWES
    elif balance > 0:
        template = MSG_SHARE_OWED
    else:
        template = MSG_SHARE_SQUARE
    line = str(template).format(
        name=name,
        chips=format_chips(balance, history.symbol, signed=True),
        money=format_money_each(history.balance_money),
    )
    pay = tuple(plain_text(text) for text in request.lines) if request and request.owes else ()
    return ShareText(title=name, line=line, url=url, pay=pay)


# --- the night's results, for the group -----------------------------------------------------


@dataclass(frozen=True)
class SharedNet:
    """A guest's result as the group sees it: by name, or as "Guest 2" if the host so chose."""

    label: str
    net: Decimal
    net_money: Decimal


@dataclass(frozen=True)
class SharedResults:
    event: Event
    shoes: list[ShoeRow]
    totals: ShoeRow
    guests: list[SharedNet]  # best result first
    night: NightFigures  # the night's figures: the house's result, whatever kind of night

    @property
    def night_rows(self) -> list[WithoutHands]:
        """Its result without hands, a row each beside the shoes (the count's, adjustments, a
        tournament's entries and prizes)."""
        return without_hands(self.night)

    @property
    def house_words(self) -> str:
        """One line: the house's result and how many guests, as the link's preview says it."""
        return str(MSG_SHARED_HOUSE).format(
            chips=format_chips(self.night.house_net, self.event.currency_symbol, signed=True),
            money=format_money(self.night.house_net_money, self.event.currency),
            guests=len(self.guests),
        )


MSG_SHARED_HOUSE = _("The house: {chips} ({money}) · {guests} guests")


def event_shared_results(event: Event) -> SharedResults:
    """The per-shoe table (:func:`event_shoe_rows`) and each guest's net from the night's
    figures (:func:`ledger.money.figures.night_figures`: a count-only night's and a tournament's
    too), names shown only when ``event.share_names``."""
    shoes, totals = event_shoe_rows(event)
    night = night_figures(event)
    results = sorted(night.guests, key=lambda r: (-r.net, r.name.casefold()))
    guests = [
        SharedNet(
            label=result.name if event.share_names else str(MSG_GUEST_NUMBER).format(number=rank),
            net=result.net,
            net_money=to_money(result.net, event.money_per_chip, event.currency),
        )
        for rank, result in enumerate(results, start=1)
    ]
    return SharedResults(event=event, shoes=shoes, totals=totals, guests=guests, night=night)
