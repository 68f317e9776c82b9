"""Load the demo night kept by its count alone, a fortnight after the demo night:
``manage.py load_demo_count [--if-empty]`` (``make run`` runs it after ``load_demo_chemin``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.demo import DEMO_USERS
from ledger.demo_count import load_count_only_night
from ledger.models import CountSetup

DEMO_HOST = DEMO_USERS[0][0]


class Command(BaseCommand):
    help = "Load a demo night kept by its count alone (five guests' chips bought and cashed out)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if a count-only night exists already or the demo night is not loaded.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if_empty = options["if_empty"]
        if CountSetup.objects.filter(count_only=True).exists():
            if if_empty:
                self.stdout.write("A count-only night exists already: none loaded.")
                return
            raise CommandError("The database already has a night kept by its count alone.")
        host = User.objects.filter(username=DEMO_HOST).first()
        if host is None:
            if if_empty:
                self.stdout.write("No demo night: no count-only night loaded.")
                return
            raise CommandError("Load the demo night first (manage.py load_demo).")
        event = load_count_only_night(by=host)
        self.stdout.write(self.style.SUCCESS(f"Loaded {event}, kept by its count alone."))
