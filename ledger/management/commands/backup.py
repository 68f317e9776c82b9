"""Write the whole ledger to one file: ``manage.py backup --output shoebook.json.gz``.

Users, roles, events, shoes, hands, guests, bets, settlements, the journal and tournaments, with
natural keys for users and roles, so ``restore`` can bring it back into an empty database of
either kind.
"""

from __future__ import annotations

from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

BACKED_UP = ["auth.group", "auth.user", "games", "ledger", "tournaments"]


class Command(BaseCommand):
    help = "Back up the whole database to one (gzipped JSON) file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--output", required=True, help="e.g. shoebook-2026-11-22.json.gz")

    def handle(self, *args: Any, **options: Any) -> None:
        output = options["output"]
        if not output.endswith((".json", ".json.gz")):
            raise CommandError("The backup file ends in .json or .json.gz.")
        call_command(
            "dumpdata",
            *BACKED_UP,
            natural_foreign=True,
            natural_primary=True,
            output=output,
            verbosity=0,
        )
        self.stdout.write(f"Backed up to {output}.")
