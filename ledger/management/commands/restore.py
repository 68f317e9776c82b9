"""Bring a backup back: ``manage.py restore shoebook.json.gz`` into an empty, migrated database.

Only a backup whose seal matches is opened (``ledger.management.backup_seal``; ``--unsigned``
for one the operator vouches for). A restore is one checked transaction: the file is loaded,
every ``check_ledger`` invariant and the name rule are checked against what it holds, and on any
problem nothing is kept. The logins it makes and changes are listed; logins with powers
(superuser, staff, a host's or dealer's role) come only with ``--with-users``, and a login
already here is changed only with it. Only what ``backup`` writes is read (``ledger.management.
backup_file``): JSON, gzipped or not, uncompressed up to a bound, with the project's rows, logins
and roles and nothing else. Every refusal is one line.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.commands import loaddata

from games.models import Event
from ledger.integrity.readings import nights_not_stating_their_rotation, read_as_played
from ledger.management.backup_file import check_rows, unpacked, with_fields_renamed
from ledger.management.backup_seal import seal_problem
from ledger.management.checked_load import load_checked
from ledger.models import Guest


class Command(BaseCommand):
    help = "Restore a backup written by `backup` into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--with-users",
            action="store_true",
            help="also make the backup's superusers and staff (your own backup only)",
        )
        parser.add_argument(
            "--unsigned",
            action="store_true",
            help="restore a backup without a matching seal (one you trust: another site's)",
        )
        parser.add_argument(
            "--max-megabytes",
            type=int,
            default=None,
            help="the most the file may hold uncompressed (default: RESTORE_MAX_MEGABYTES, 256)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if Event.objects.exists() or Guest.objects.exists():
            raise CommandError("The database is not empty: restore into a new, migrated one.")
        problem = seal_problem(path)
        if problem is not None and not options["unsigned"]:
            raise CommandError(problem)

        limit = options["max_megabytes"] or settings.RESTORE_MAX_MEGABYTES
        if limit < 1:
            raise CommandError("--max-megabytes is a whole number of megabytes, 1 or more.")
        read_back: list[Event] = []
        with tempfile.TemporaryDirectory(prefix="shoebook-restore-") as folder:
            rows = Path(folder) / "backup.json"
            unpacked(path, rows, limit_megabytes=limit)
            read = with_fields_renamed(rows, check_rows(rows))
            unstated = nights_not_stating_their_rotation(read)

            def load() -> None:
                # The roles come with the backup; the migration's empty copies make way for them.
                Group.objects.filter(user__isnull=True).delete()
                call_command(loaddata.Command(), str(rows), verbosity=0)
                # A backup older than the nights' stored rules: each night read as it was played.
                read_back.extend(read_as_played(unstated))

            logins = load_checked(load, with_users=options["with_users"])
        self.stdout.write(
            f"Restored {Event.objects.count()} event(s) and {Guest.objects.count()} guest(s). "
            + logins.said()
        )
        if read_back:
            named = ", ".join(f"{event.pk} ({event.name})" for event in read_back)
            self.stdout.write(
                "The backup does not say how these nights' bank went round; their coups settle "
                f"as stored under the reading they were played under, kept: {named}."
            )
