"""A throwaway database, set up as in production, for the benchmarks."""

from __future__ import annotations

import atexit
import os
import secrets
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent


def throwaway_path(name: str) -> Path:
    """A path for a SQLite file in a new temporary folder."""
    return Path(tempfile.mkdtemp(prefix="shoebook-bench-")) / f"{name}.sqlite3"


def django_on_throwaway_sqlite(name: str, path: Path | None = None) -> None:
    """Point Django at a new SQLite file (WAL, IMMEDIATE, as in settings), or at `path`, migrate
    it, and turn the query log off as in production."""
    os.environ["DATABASE_URL"] = f"sqlite:///{path or throwaway_path(name)}"
    _django_on_database_url()


def django_on_throwaway_database(name: str) -> str:
    """A new PostgreSQL database on the server ``DATABASE_URL`` names (dropped at exit), when it
    names one; else a new SQLite file. Never the database ``DATABASE_URL`` itself: a bench may
    empty every table. Migrated, the query log off; returns what it is, for the bench to say."""
    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme not in ("postgres", "postgresql"):
        django_on_throwaway_sqlite(name)
        return f"SQLite file {os.environ['DATABASE_URL'].removeprefix('sqlite:///')}"
    import psycopg

    database = f"shoebook_bench_{name}_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as server:
        server.execute(f'CREATE DATABASE "{database}"')
    atexit.register(_drop, url, database)
    os.environ["DATABASE_URL"] = urlsplit(url)._replace(path=f"/{database}").geturl()
    _django_on_database_url()
    return f"PostgreSQL database {database} (dropped at exit)"


def _drop(url: str, database: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(url, autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def _django_on_database_url() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DEBUG = False
