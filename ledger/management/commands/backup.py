"""Write the whole ledger to one file: ``manage.py backup --output shoebook.json.gz``.

Users, roles, events, shoes, hands, guests, bets, settlements, the journal and tournaments, with
natural keys for users and roles, so ``restore`` can bring it back into an empty database of
either kind. Every table is read as of one moment (:func:`one_snapshot`), so a backup taken
while hands are saved holds no bet whose hand it lacks. The file is sealed
(``ledger.management.backup_seal``): ``restore`` refuses it if it is changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from ledger.management.backup_seal import seal

BACKED_UP = ["auth.group", "auth.user", "games", "ledger", "tournaments"]


class Command(BaseCommand):
    help = "Back up the whole database to one (gzipped JSON) file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", required=True, help="e.g. shoebook-2026-11-22.json.gz")

    def handle(self, *args: Any, **options: Any) -> None:
        output = options["output"]
        if not output.endswith((".json", ".json.gz")):
            raise CommandError("The backup file ends in .json or .json.gz.")
        with one_snapshot():
            call_command(
                "dumpdata",
                *BACKED_UP,
                natural_foreign=True,
                natural_primary=True,
                output=output,
                verbosity=0,
            )
        sealed = seal(Path(output))
        self.stdout.write(f"Backed up to {output} (sealed in {sealed.name}).")


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Every read inside sees the database as of one moment, while others go on writing:
    PostgreSQL's REPEATABLE READ, read only; on SQLite a plain read transaction (WAL keeps its
    snapshot; Django's own transactions there take the write lock, which would stop the table's
    saves for as long as the backup runs)."""
    if connection.vendor == "sqlite" and not connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("COMMIT")
        return
    inside_another = connection.in_atomic_block  # (a test's): its transaction is the snapshot
    with transaction.atomic():
        if connection.vendor == "postgresql" and not inside_another:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
