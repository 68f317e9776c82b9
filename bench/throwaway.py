"""A throwaway SQLite database, set up as in production, for the benchmarks."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def throwaway_path(name: str) -> Path:
    """A path for a SQLite file in a new temporary folder."""
    return Path(tempfile.mkdtemp(prefix="shoebook-bench-")) / f"{name}.sqlite3"


def django_on_throwaway_sqlite(name: str, path: Path | None = None) -> None:
    """Point Django at a new SQLite file (WAL, IMMEDIATE, as in settings), or at `path`, migrate
    it, and turn the query log off as in production."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{path or throwaway_path(name)}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DEBUG = False
