"""Messages of the rules core, translatable without importing Django.

A message is a template plus parameters. Templates are marked with :func:`gettext_noop` so that
Django's ``makemessages`` finds them; the Django layer renders them with ``gettext`` through
:meth:`RuleError.message`, anything else reads them in English.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Translate = Callable[[str], str]


def gettext_noop(message: str) -> str:
    """Mark a message for translation; it is translated where it is shown."""
    return message


def untranslated(message: str) -> str:
    return message


class Label(str):
    """A word the interface shows (a bet, a side): translated with the message that holds it."""

    __slots__ = ()


def render(template: str, params: dict[str, Any], translate: Translate = untranslated) -> str:
    values = {key: translate(v) if isinstance(v, Label) else v for key, v in params.items()}
    return translate(template).format(**values)


class RuleError(ValueError):
    """A rule broken, as a translatable message. ``str()`` is the English text."""

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(render(template, params))

    def message(self, translate: Translate = untranslated) -> str:
        return render(self.template, self.params, translate)
