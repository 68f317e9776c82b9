"""Ids in URLs: digits that fit a database id on every database, or the page is not found.

Django's ``int`` converter takes any number of digits, and SQLite then fails on an id past 64
bits (``/audit/?event=99999999999999999999999`` was a server error). ``<id:...>`` takes at most
18 digits, and :func:`id_or_none` reads an id from a query string the same way.
"""

from __future__ import annotations

from django.urls import register_converter
from django.urls.converters import get_converters

ID_DIGITS = 18  # below 2**63 - 1, the largest id SQLite and PostgreSQL hold


class IdConverter:
    regex = f"[0-9]{{1,{ID_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


def use_id_converter() -> None:
    """Make ``<id:...>`` available to a URL conf (once for the whole project)."""
    if "id" not in get_converters():
        register_converter(IdConverter, "id")


def id_or_none(text: str) -> int | None:
    """An id from a query string or a form, or ``None`` if it cannot be one."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= ID_DIGITS else None
