"""``manage.py loaddata``, checked: Django's own would write rows no check has seen (a bet with
any payout, an administrator). Here the fixtures load in one transaction with every
``check_ledger`` invariant, the name rule and the logins checked (``ledger.management.
checked_load``), and nothing is kept on any problem."""

from __future__ import annotations

from io import StringIO
from typing import Any

from django.core.management.base import CommandParser, OutputWrapper
from django.core.management.commands import loaddata

from ledger.management.checked_load import load_checked


class Command(loaddata.Command):
    help = (
        "Load fixtures, checked as a restore is: on any problem (the books, the name rule, "
        "superusers or staff without --with-users) nothing is kept."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--with-users",
            action="store_true",
            help="also make the file's superusers and staff (your own file only)",
        )

    def handle(self, *fixture_labels: str, **options: Any) -> None:
        with_users = options.pop("with_users", False)

        said, out = StringIO(), self.stdout
        self.stdout = OutputWrapper(said)  # "Installed …" only once the checks have passed

        def load() -> None:
            super(Command, self).handle(*fixture_labels, **options)

        try:
            load_checked(load, with_users=with_users)
        finally:
            self.stdout = out
        out.write(said.getvalue(), ending="")
