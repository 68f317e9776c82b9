"""The ways to pay as the pages read them, and the settlement request: how a guest pays what they
owe (a pay link and its QR code, the house's bank details, or in person), or how the house pays
a guest it owes (the guest's own handles).

Two queries, whatever the list: the ways, and the guest's handles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import QuerySet
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.models import Guest, GuestPayHandle, PayWay
from ledger.money.amounts import MoneyByCurrency, format_money
from ledger.money.charts import qr_svg
from ledger.payways.links import night_currency, pay_link

MSG_IN_PERSON = _("in person")
MSG_PAY_BY_LINK = _("{way}: {link}")
MSG_PAY_BY_DETAILS = _("{way}: {details}")
MSG_PAY_IN_PERSON = _("{way}: in person")
MSG_REQUEST_OWES = _("How to pay {amount} to the house:")
MSG_REQUEST_OWED = _("How the house can pay you {amount}:")


def active_ways() -> QuerySet[PayWay]:
    return PayWay.objects.filter(retired_at__isnull=True)


def guest_handles(guest: Guest) -> list[GuestPayHandle]:
    """The guest's handles on the ways still in use, in the list's order."""
    return list(
        GuestPayHandle.objects.filter(guest=guest, way__retired_at__isnull=True).select_related(
            "way"
        )
    )


@dataclass(frozen=True)
class PayOption:
    """One way to pay in a request: a link (with its QR code), details as text, or in person."""

    way: str  # the way's name
    kind: str
    link: str = ""
    qr: SafeString | str = ""
    details: str = ""

    @property
    def words(self) -> str:
        """The option as one line of text (the chat message, the PDF)."""
        if self.link:
            return str(MSG_PAY_BY_LINK).format(way=self.way, link=self.link)
        if self.details:
            return str(MSG_PAY_BY_DETAILS).format(way=self.way, details=self.details)
        return str(MSG_PAY_IN_PERSON).format(way=self.way)


@dataclass(frozen=True)
class PayRequest:
    """What a guest is asked to pay, or is owed, in the night's currency, and the ways."""

    owes: bool  # the guest pays the house; else the house pays the guest
    amount: Decimal  # in the night's currency, its minor units (positive)
    currency: str
    options: list[PayOption]

    @property
    def heading(self) -> str:
        return self.heading_drawn()

    def heading_drawn(self, drawable: Callable[[str], bool] | None = None) -> str:
        """The heading, its amount written as every page writes money (€30.00, ¥5,000);
        ``drawable``: a font's characters, as :func:`format_money` takes them (the PDF's)."""
        template = MSG_REQUEST_OWES if self.owes else MSG_REQUEST_OWED
        return str(template).format(
            amount=format_money(self.amount, self.currency, drawable=drawable)
        )

    @property
    def lines(self) -> list[str]:
        return [self.heading, *(option.words for option in self.options)]


def pay_request(
    guest: Guest,
    balances: MoneyByCurrency,
    event: Event | None,
    *,
    with_qr: bool = True,
    ways: list[PayWay] | None = None,
    handles: list[GuestPayHandle] | None = None,
) -> PayRequest | None:
    """The request for a guest whose balance in money is ``balances`` (per currency: the night's
    is asked for),
    at ``event`` (the night whose currency it is); None when square or with no night. A guest
    who owes is shown the house's ways (a link way with the house's handle, a details way with
    the house's details, the ways in person); a guest the house owes, their own handles and
    the ways in person. ``ways`` and ``handles``: already read (one query each otherwise)."""
    if event is None:
        return None
    currency = night_currency(event)
    # The balance in the night's currency: a guest who owes in two currencies is asked for each
    # at a night of each.
    balance = balances.get(currency, Decimal(0))
    if not balance:
        return None
    amount = abs(balance)
    owes = balance < 0
    if ways is None:
        ways = list(active_ways())
    if owes:
        handle_of = {way.pk: way.details if way.kind == "details" else way.house_handle
                     for way in ways}  # fmt: skip
    else:
        if handles is None:
            handles = guest_handles(guest)
        handle_of = {handle.way_id: handle.handle for handle in handles}
    options = []
    for way in ways:
        if way.is_retired:
            continue
        if way.kind == PayWay.Kind.IN_PERSON:
            options.append(PayOption(way.label, way.kind))
            continue
        handle = handle_of.get(way.pk, "")
        if not handle:
            continue
        if way.kind == PayWay.Kind.LINK:
            link = pay_link(way.link_template, handle, amount, currency)
            if link:
                options.append(
                    PayOption(way.label, way.kind, link, qr_svg(link) if with_qr else "")
                )
        else:
            options.append(PayOption(way.label, way.kind, details=handle))
    return PayRequest(owes=owes, amount=amount, currency=currency, options=options)
