"""A backup file read for ``restore``, before any of it is loaded: what ``backup`` writes (JSON,
gzipped or not), uncompressed in chunks up to a stated bound, holding only the rows a backup
holds. Every refusal is one line.

The bound (``RESTORE_MAX_MEGABYTES``, 256 by default, or ``restore --max-megabytes``) is on the
file uncompressed: a small gzip that unpacks to gigabytes (a "bomb") is refused after reading
past the bound, never held whole in memory (it is measured before anything is written). A
backup takes about 4 kB per hand with its bets and audit (the demo night: 240 hands, 0.9 MB), some
2 MB for a long night of 500 hands: the default holds over a hundred such nights.
"""

from __future__ import annotations

import gzip
import json
import zlib
from io import BufferedReader, BufferedWriter
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

from ledger.management.checked_load import MSG_NOT_LOADABLE

CHUNK = 1 << 20
MEGABYTE = 1 << 20
# What a backup holds (``backup.BACKED_UP``): the project's three apps, logins and roles.
OWN_APPS = ("games", "ledger", "tournaments")
LOGIN_MODELS = ("auth.user", "auth.group")

MSG_NOT_A_BACKUP_FILE = "a backup is a .json or .json.gz file, as `backup` writes it"
MSG_TOO_LARGE = (
    "The backup is more than {limit} MB once uncompressed: refused before reading further."
    " Nothing was loaded (restore --max-megabytes N, if the file is your own backup)."
)
MSG_FOREIGN_ROWS = (
    "The file holds rows a backup does not: {models} (a backup holds the games, ledger and"
    " tournaments rows, logins and roles). Nothing was loaded."
)


def unpacked(path: Path, into: Path, *, limit_megabytes: int) -> None:
    """Write ``path`` uncompressed to ``into``, a chunk at a time; refuse past the bound."""
    if not path.name.endswith((".json.gz", ".json")):
        raise CommandError(MSG_NOT_LOADABLE.format(reason=MSG_NOT_A_BACKUP_FILE))
    limit = limit_megabytes * MEGABYTE
    try:
        _copy(path, None, limit=limit, said=limit_megabytes)  # measured first: no disk for a bomb
        with into.open("wb") as target:
            _copy(path, target, limit=limit, said=limit_megabytes)
    except (OSError, EOFError, zlib.error) as error:  # not gzip, cut short
        reason = (str(error).strip() or type(error).__name__)[:200]
        raise CommandError(MSG_NOT_LOADABLE.format(reason=reason)) from None


def _copy(path: Path, target: BufferedWriter | None, *, limit: int, said: int) -> None:
    written = 0
    with _opened(path) as source:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > limit:
                raise CommandError(MSG_TOO_LARGE.format(limit=said))
            if target is not None:
                target.write(chunk)


def _opened(path: Path) -> gzip.GzipFile | BufferedReader:
    return gzip.GzipFile(path, "rb") if path.name.endswith(".gz") else path.open("rb")


def check_rows(path: Path) -> list[dict[str, Any]]:
    """Refuse a file that is not a list of rows, or that holds a row of any model a backup does
    not hold, naming each such model; else its rows, as read."""
    try:
        with path.open("rb") as file:
            rows: Any = json.load(file)
    except (ValueError, RecursionError) as error:  # not JSON, not UTF-8, nested past reason
        reason = (str(error).strip() or type(error).__name__)[:200]
        raise CommandError(MSG_NOT_LOADABLE.format(reason=reason)) from None
    if not isinstance(rows, list) or not all(
        isinstance(row, dict) and isinstance(row.get("model"), str) for row in rows
    ):
        raise CommandError(MSG_NOT_LOADABLE.format(reason="not a list of rows, each a model's"))
    if not rows:
        raise CommandError(MSG_NOT_LOADABLE.format(reason="it holds no rows"))
    foreign = sorted({row["model"] for row in rows if not _own(row["model"])})
    if foreign:
        named = ", ".join(repr(model[:60]) for model in foreign[:10])
        more = f" and {len(foreign) - 10} more" if len(foreign) > 10 else ""
        raise CommandError(MSG_FOREIGN_ROWS.format(models=named + more))
    return rows


# Fields a backup of an earlier release names otherwise: (model, its name then, its name now).
# A night backed up before nights had a currency was in yen: the new column's default (JPY) is
# what it gets, as the migration gives it.
RENAMED_FIELDS = (("games.event", "yen_per_chip", "money_per_chip"),)


def with_fields_renamed(path: Path, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The rows with the fields an earlier release named otherwise under today's names, written
    back to ``path`` (the unpacked copy ``loaddata`` reads) when any was."""
    changed = False
    for model, old, new in RENAMED_FIELDS:
        for row in rows:
            fields = row.get("fields")
            if row["model"] == model and isinstance(fields, dict) and old in fields:
                fields.setdefault(new, fields.pop(old))
                changed = True
    if changed:
        path.write_text(json.dumps(rows), encoding="utf-8")
    return rows


def _own(model: str) -> bool:
    app, _dot, _name = model.partition(".")
    return app in OWN_APPS or model.lower() in LOGIN_MODELS
