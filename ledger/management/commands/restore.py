"""Bring a backup back: ``manage.py restore shoebook.json.gz`` into an empty, migrated database.

A restore is one checked transaction: the file is loaded, every ``check_ledger`` invariant and
the name rule are checked against what it holds, and on any problem nothing is kept. The logins
it makes are listed; superusers and staff come only with ``--with-users`` (a file edited to add
an administrator is refused). Every refusal is one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, transaction

from games.models import Event
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.integrity import ledger_problems
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
        parser.add_argument(
            "--with-users",
            action="store_true",
            help="also make the backup's superusers and staff (your own backup only)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(f"No backup at {path}.")
        if Event.objects.exists() or Guest.objects.exists():
            raise CommandError("The database is not empty: restore into a new, migrated one.")
        before = set(User.objects.values_list("pk", flat=True))
        try:
            with transaction.atomic():
                # The roles come with the backup; the migration's empty copies make way for them.
                Group.objects.filter(user__isnull=True).delete()
                call_command("loaddata", str(path), verbosity=0)
                logins = list(User.objects.exclude(pk__in=before).order_by("username"))
                self._check(logins, with_users=options["with_users"])
        except (DeserializationError, DatabaseError, ValidationError, ValueError, OSError) as error:
            reason = (str(error).strip().splitlines() or [type(error).__name__])[-1][:200]
            raise CommandError(
                f"The file is not a backup this site can restore ({reason}). Nothing was restored."
            ) from None
        made = ", ".join(_described(user) for user in logins) or "none"
        self.stdout.write(
            f"Restored {Event.objects.count()} event(s) and {Guest.objects.count()} guest(s). "
            f"Logins made: {made}."
        )

    def _check(self, logins: list[User], *, with_users: bool) -> None:
        """Refuse what a backup written by this site never holds; raised inside the restore's
        transaction, so nothing is kept."""
        powerful = [user for user in logins if user.is_superuser or user.is_staff]
        if powerful and not with_users:
            names = ", ".join(_described(user) for user in powerful)
            raise CommandError(
                f"The backup would make superusers or staff: {names}. Nothing was restored "
                "(with --with-users, if the file is your own backup)."
            )
        wrong = [guest for guest in Guest.objects.all() if not _kept_by_the_rule(guest)]
        if wrong:
            names = ", ".join(f"#{guest.pk} {guest.name!r}" for guest in wrong[:20])
            raise CommandError(
                f"The backup holds guests' names that break the name rule: {names}. "
                "Nothing was restored."
            )
        problems = ledger_problems()
        if problems:
            first = "; ".join(str(problem) for problem in problems[:3])
            raise CommandError(
                f"The backup's books do not add up ({len(problems)} problem(s): {first}). "
                "Nothing was restored."
            )


def _described(user: User) -> str:
    roles = [
        word for word, held in (("superuser", user.is_superuser), ("staff", user.is_staff)) if held
    ]
    return f"{user.username} ({', '.join(roles)})" if roles else user.username
