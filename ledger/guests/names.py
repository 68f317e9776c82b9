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

import string
import unicodedata
from functools import lru_cache

from confusable_homoglyphs import confusables
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


def login_skeleton(username: str) -> str:
    """What a login name looks like, for telling look-alikes apart (Unicode's confusables, UTS
    #39): each character that is confusable with a Latin one is read as that one ("hоst" with a
    Cyrillic о, "h0st" and "ＨＯＳＴ" all read "host"), and within Latin each group of
    look-alikes is read as one ("I", "l", "1" and "|"; "m" and "rn"), then case is folded —
    and read again, so that a capital's look-alikes are found too ("M" as "m", then "rn")."""
    once = _skeleton_once(username)
    return _skeleton_once(once)


def _skeleton_once(username: str) -> str:
    read = []
    for char in unicodedata.normalize("NFKC", username):
        found = confusables.is_confusable(char, preferred_aliases=["latin"])
        read.append(found[0]["homoglyphs"][0]["c"] if found and found[0]["homoglyphs"] else char)
    expansions, prototypes = _latin_lookalikes()
    text = "".join(expansions.get(char, char) for char in "".join(read))
    return "".join(prototypes.get(char, char) for char in text).casefold()


@lru_cache(maxsize=1)
def _latin_lookalikes() -> tuple[dict[str, str], dict[str, str]]:
    """From the confusables data: the ASCII characters read as a sequence ("m" as "rn"), and
    each ASCII character confusable with another read as its group's one (a lowercase letter
    if the group has one)."""
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    printable = set(string.printable) - set(string.whitespace)
    expansions: dict[str, str] = {}
    groups: list[set[str]] = []
    for key, entries in data.items():
        if len(key) != 1 or key not in printable:
            continue
        for entry in entries:
            twin = entry["c"]
            if not set(twin) <= printable:
                continue
            if len(twin) > 1:
                expansions[key] = twin
                continue
            joined = {key, twin}.union(*(group for group in groups if group & {key, twin}))
            groups = [group for group in groups if not group & joined] + [joined]
    prototypes: dict[str, str] = {}
    for group in groups:
        first = min(group, key=lambda char: (not char.islower(), not char.isalpha(), char))
        prototypes |= dict.fromkeys(group, first)
    return expansions, prototypes


def mixes_scripts_deceptively(username: str) -> bool:
    """A login name that mixes scripts with characters confusable across them ("hоst")."""
    return bool(confusables.is_dangerous(unicodedata.normalize("NFKC", username)))
