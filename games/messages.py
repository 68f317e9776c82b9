"""Messages of the rules core, translatable without importing Django.

A message is a template plus parameters. Templates are marked with :func:`gettext_noop` so that
Django's ``makemessages`` finds them; the Django layer renders them with ``gettext`` through
:meth:`RuleError.message`, anything else reads them in English.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from decimal import Decimal
from typing import Any

Translate = Callable[[str], str]


def gettext_noop(message: str) -> str:
    """Mark a message for translation; it is translated where it is shown."""
    return message


def untranslated(message: str) -> str:
    return message


class Typed(str):
    """Text a person typed, quoted in a message: cut to fit when it is long."""

    __slots__ = ()


class Label(str):
    """A word the interface shows (a bet, a side): translated with the message that holds it."""

    __slots__ = ()


MINUS = "\u2212"
# Full-width forms (what a Japanese keyboard types: "１０", "Ｐ", "，") and the ideographic space,
# read as their ASCII letters, digits and signs. Nothing else is folded: "⑩" is not 10.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def plain(text: str) -> str:
    """Text as typed, with full-width forms read as ASCII and the ends trimmed."""
    return text.translate(_FULL_WIDTH).strip()


# Characters no text a person types may hold: control, format (zero-width joiners, bidi
# overrides), surrogates, private use, unassigned. Tabs and line ends are whitespace.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def refused_character(text: str) -> str | None:
    """The first character no name or note may hold (as ``U+0001``), if any."""
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES and char not in "\t\n\r":
            return f"U+{ord(char):04X}"
    return None


def whole_cents(amount: Decimal) -> bool:
    """Whether an amount is counted in whole cents, judged from its digits (no arithmetic, so
    no rounding and no overflow, whatever its size)."""
    _sign, digits, exponent = amount.as_tuple()
    if not isinstance(exponent, int):
        return False  # infinity or NaN
    beyond_cents = -2 - exponent
    return beyond_cents <= 0 or all(digit == 0 for digit in digits[-beyond_cents:])


def format_chips(amount: Decimal, symbol: str = "", *, signed: bool = False) -> str:
    """Thousands separated, cents only when there are any: 95, 59.50, 1,040, −$680, +$280."""
    text = f"{abs(amount):,.2f}"
    if text.endswith(".00"):
        text = text[:-3]
    sign = MINUS if amount < 0 else ("+" if signed and amount > 0 else "")
    return sign + symbol + text


SHOWN_TEXT_LENGTH = 40


def _shown(value: Any, translate: Translate) -> Any:
    if isinstance(value, Label):
        return translate(value)
    if isinstance(value, Decimal):  # an amount: as chips, unless it is odd or out of all scale
        if not value.is_finite() or abs(value.adjusted()) > 15:
            return str(value)
        return format_chips(value) if whole_cents(value) else f"{value:f}"
    if isinstance(value, Typed) and len(value) > SHOWN_TEXT_LENGTH:
        return value[: SHOWN_TEXT_LENGTH - 1] + "…"
    return value


def render(template: str, params: dict[str, Any], translate: Translate = untranslated) -> str:
    """A template with its parameters: labels translated, amounts written as chips are."""
    values = {key: _shown(value, translate) for key, value in params.items()}
    return translate(template).format(**values)


class RuleError(ValueError):
    """A rule broken, as a translatable message. ``str()`` is the English text."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(render(template, params))

    def message(self, translate: Translate = untranslated) -> str:
        return render(self.template, self.params, translate)


class Text:
    """A message that is not an error (a status, a hint): a template and its parameters."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params

    def message(self, translate: Translate = untranslated) -> str:
        return render(self.template, self.params, translate)

    def __str__(self) -> str:
        return self.message()
