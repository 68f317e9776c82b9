"""Bring a backup back: ``manage.py restore shoebook.json.gz`` into an empty, migrated database.

Only a backup whose seal matches is opened (``ledger.management.backup_seal``; ``--unsigned``
for one the operator vouches for). A restore is one checked transaction: the file is loaded,
every ``check_ledger`` invariant and the name rule are checked against what it holds, and on any
problem nothing is kept. The logins it makes are listed; logins with powers (superuser, staff,
a host's or dealer's role) come only with ``--with-users``. Every refusal is one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.management.commands import loaddata

from games.models import Event
from ledger.integrity.readings import nights_not_stating_their_rotation, read_as_played
from ledger.management.backup_seal import seal_problem
from ledger.management.checked_load import described, load_checked
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

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if Event.objects.exists() or Guest.objects.exists():
            raise CommandError("The database is not empty: restore into a new, migrated one.")
        problem = seal_problem(path)
        if problem is not None and not options["unsigned"]:
            raise CommandError(problem)

        read_back: list[Event] = []

        def load() -> None:
            # The roles come with the backup; the migration's empty copies make way for them.
            Group.objects.filter(user__isnull=True).delete()
            call_command(loaddata.Command(), str(path), verbosity=0)
            # A backup older than the nights' stored rules: each night read as it was played.
            read_back.extend(read_as_played(nights_not_stating_their_rotation(path)))

        logins = load_checked(load, with_users=options["with_users"])
        made = ", ".join(described(user) for user in logins) or "none"
        self.stdout.write(
            f"Restored {Event.objects.count()} event(s) and {Guest.objects.count()} guest(s). "
            f"Logins made: {made}."
        )
        if read_back:
            named = ", ".join(f"{event.pk} ({event.name})" for event in read_back)
            self.stdout.write(
                "The backup does not say how these nights' bank went round; their coups settle "
                f"as stored under the reading they were played under, kept: {named}."
            )
