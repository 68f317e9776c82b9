"""Guests' names: the one rule that says what a name is and when two names are one guest.

Every way a name comes in — the guest form, the scoresheet import, a restore, a rename — goes
through :func:`clean_name`, and guests are matched on :func:`name_key` only. A name is read as
Unicode NFKC ("ＫＥＮ" is "KEN"), with its whitespace collapsed and trimmed; control, format
(zero-width, bidi-override), private-use and unassigned characters are refused, and so is a name
longer than the column. Two names are one guest when they have the same key: the name folded
for case as Unicode does it ("Straße" and "STRASSE", "ÉMILE" and "émile"), in Python, so that
SQLite and PostgreSQL agree.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext_lazy as _

from games.messages import refused_character

NAME_MAX_LENGTH = 80

MSG_NAME_EMPTY = _("A guest needs a name.")
MSG_NAME_TOO_LONG = _("A name has at most {limit} characters (this one has {length}).")
MSG_NAME_CHARACTER = _("A name cannot hold the invisible or control character {code}.")


class InvalidName(ValueError):
    """Not a name a guest can have; the message says why."""


def clean_name(text: str) -> str:
    """The name as it is kept, or :class:`InvalidName` with the reason."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise InvalidName(str(MSG_NAME_EMPTY))
    refused = refused_character(name)
    if refused is not None:
        raise InvalidName(str(MSG_NAME_CHARACTER).format(code=refused))
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidName(str(MSG_NAME_TOO_LONG).format(limit=NAME_MAX_LENGTH, length=len(name)))
    return name


def name_key(name: str) -> str:
    """What two names of one guest share: NFKC, case folded (Unicode's caseless matching)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return unicodedata.normalize("NFKC", folded)
