"""Bring a backup back: ``manage.py restore shoebook.json.gz`` into an empty, migrated database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.models import Event
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.models import Guest


def _kept_by_the_rule(guest: Guest) -> bool:
    """Whether a restored guest's name and key are what ``ledger.guests.names`` makes of the
    name."""
    try:
        name = clean_name(guest.name)
    except InvalidName:
        return False
    return name == guest.name and guest.name_key.split("#")[0] == name_key(name)


class Command(BaseCommand):
    help = "Restore a backup written by `backup` into an empty database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if Event.objects.exists() or Guest.objects.exists():
            raise CommandError("The database is not empty: restore into a new, migrated one.")
        with transaction.atomic():
            # The roles come with the backup; the migration's empty copies make way for them.
            Group.objects.filter(user__isnull=True).delete()
            call_command("loaddata", str(path), verbosity=0)
            wrong = [guest for guest in Guest.objects.all() if not _kept_by_the_rule(guest)]
            if wrong:
                names = ", ".join(f"#{guest.pk} {guest.name!r}" for guest in wrong[:20])
                raise CommandError(
                    f"The backup holds guests' names that break the name rule: {names}. "
                    "Nothing was restored."
                )
        self.stdout.write(
            f"Restored {Event.objects.count()} event(s) and {Guest.objects.count()} guest(s)."
        )
