"""Fill locale/ja/LC_MESSAGES/django.po from ja_translations.py and compile it to django.mo.

Run by `make messages` after `makemessages`. Uses polib (pure Python), so no gettext tools are
needed; refuses a translation whose placeholders differ from the English.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polib

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ja_translations import JA, JA_PLURAL  # noqa: E402

PLACEHOLDER = re.compile(r"\{[a-z_]+(?:!r)?\}|%\([a-z_]+\)s|%%")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def key(entry: polib.POEntry) -> str:
    """A text's key in ja_translations.py: the msgid, after its context and gettext's
    separator (\\x04) when it has one (``pgettext``)."""
    return f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid


def main() -> int:
    po_path = HERE / "ja" / "LC_MESSAGES" / "django.po"
    catalogue = polib.pofile(str(po_path))
    catalogue.metadata["Plural-Forms"] = "nplurals=1; plural=0;"
    catalogue.metadata["Language"] = "ja"
    # Texts no longer in the code: drop them here and from ja_translations.py.
    catalogue[:] = [entry for entry in catalogue if not entry.obsolete]
    current = {key(entry) for entry in catalogue}
    missing, wrong = [], []
    for entry in catalogue:
        entry.flags = [flag for flag in entry.flags if flag != "fuzzy"]
        entry.previous_msgid = entry.previous_msgid_plural = entry.previous_msgctxt = None  # "#|"
        if entry.msgid_plural:
            forms = JA_PLURAL.get(entry.msgid)
            if forms is None:
                missing.append(entry.msgid)
                continue
            entry.msgstr_plural = dict(enumerate(forms))
            continue
        text = JA.get(key(entry))
        if text is None:
            missing.append(entry.msgid)
            continue
        if placeholders(text) != placeholders(entry.msgid):
            wrong.append(entry.msgid)
        entry.msgstr = text
    for msgid in missing:
        print(f"untranslated: {msgid!r}")
    for msgid in wrong:
        print(f"placeholders differ: {msgid!r}")
    for msgid in sorted(set(JA) - current):
        print(f"no longer used (remove from ja_translations.py): {msgid!r}")
    catalogue.save(str(po_path))
    catalogue.save_as_mofile(str(po_path.with_suffix(".mo")))
    return 1 if missing or wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
