"""Pay links and the handles in them: what a guest (or the host) typed, checked per kind of way,
and the link made from a way's template, the handle and an amount.

A handle is typed text and ends up in a link a guest taps, in a QR code and in a chat message,
so it is checked where it is typed and again where the link is made: a link's handle is a plain
name (letters, digits, ``.``, ``_``, ``-``; one leading ``@`` or ``$`` dropped), put in the link
%-quoted; a template is fixed text from ``https://`` through its host, so no handle can choose
the scheme (no ``javascript:``) or the host, or break out of its place in the path or query.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from urllib.parse import quote, urlsplit

from babel.numbers import get_currency_precision
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.money.reversal import line_character

HANDLE_MAX = 64  # a link's handle: the services' own names are shorter (PayPal.me's: 20)
DETAILS_MAX = 300
TEMPLATE_MAX = 200
PLACEHOLDERS = ("{handle}", "{amount}", "{currency}")

MSG_HANDLE_CHARACTER = _("A handle cannot hold the invisible or control character {code}.")
MSG_HANDLE_LINK = _(
    "A handle for a pay link is the name the service gave you: letters, digits, “.”, “_” or “-”,"
    " at most {maximum} (a leading @ or $ is dropped)."
)
MSG_DETAILS_LONG = _("Details are at most {maximum} characters.")
MSG_TEMPLATE = _(
    "A link template starts with https:// and the service's address, then {{handle}} (and, if"
    " the service takes them, {{amount}} and {{currency}}); nothing else in braces."
)

_LINK_HANDLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*", re.ASCII)
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")
_CURRENCY = re.compile(r"[A-Z]{3}", re.ASCII)


def night_currency(event: Event) -> str:
    """The ISO 4217 code of the night's money: the one place the pay links read it."""
    return event.currency


def clean_handle(kind: str, text: str) -> str:
    """``text`` as a handle of a way of ``kind`` (``PayWay.Kind``), or refused keyed "handle".
    Empty: no handle."""
    text = text.strip()
    refused = line_character(text)
    if refused is not None:
        raise ValidationError({"handle": MSG_HANDLE_CHARACTER.format(code=refused)})
    if kind == "link":
        typed, text = text, text[1:] if text[:1] in ("@", "$") else text
        if typed and (len(text) > HANDLE_MAX or not _LINK_HANDLE.fullmatch(text)):
            raise ValidationError({"handle": MSG_HANDLE_LINK.format(maximum=HANDLE_MAX)})
    elif len(text) > DETAILS_MAX:
        raise ValidationError({"handle": MSG_DETAILS_LONG.format(maximum=DETAILS_MAX)})
    return text


def _origin(template: str) -> str | None:
    """``https://host/`` the template starts with, if it starts with one (no placeholder, user,
    port or anything else before the path)."""
    match = re.match(r"https://([^/?#]+)/", template)
    if match is None or not _HOST.fullmatch(match.group(1)):
        return None
    return match.group(0)


def check_template(text: str) -> str:
    """A link template as typed, or refused keyed "link_template"."""
    text = text.strip()
    braces = re.sub(r"\{(handle|amount|currency)\}", "", text)
    ok = (
        len(text) <= TEMPLATE_MAX
        and _origin(text) is not None
        and "{handle}" in text
        and "{" not in braces
        and "}" not in braces
        and line_character(text) is None
        and " " not in text
    )
    if not ok:
        raise ValidationError({"link_template": MSG_TEMPLATE})
    return text


def pay_amount(amount: Decimal, currency: str) -> str:
    """An amount as a pay link writes it: the currency's minor units (babel's CLDR data: none
    for yen and won, two for euros and dollars), half up, a point, no grouping: 5000, 12.50."""
    places = get_currency_precision(currency)
    exponent = Decimal(1).scaleb(-places)
    return f"{abs(amount).quantize(exponent, rounding=ROUND_HALF_UP):f}"


def pay_link(template: str, handle: str, amount: Decimal, currency: str) -> str:
    """The link of ``template`` for ``handle`` and ``amount`` in ``currency``; empty when the
    template or the handle is not one this module would let through (an old row, a row typed
    some other way), never a link that goes anywhere else."""
    try:
        template = check_template(template)
        handle = clean_handle("link", handle)
    except ValidationError:
        return ""
    if not handle or not _CURRENCY.fullmatch(currency):
        return ""
    link = (
        template.replace("{handle}", quote(handle, safe=""))
        .replace("{amount}", pay_amount(amount, currency))
        .replace("{currency}", currency)
    )
    origin = _origin(template)
    if origin is None or not link.startswith(origin) or urlsplit(link).scheme != "https":
        return ""
    return link
