"""Load the reference night as demo data: ``manage.py load_demo [--if-empty]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Event
from ledger.demo import DEMO_PASSWORD, load_reference_night


class Command(BaseCommand):
    help = "Load the 2008 reference night (6 shoes × 40 hands, 15 guests) and demo logins."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true", help="Do nothing if any event exists already."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if Event.objects.exists():
            if options["if_empty"]:
                self.stdout.write("Events exist already: no demo loaded.")
                return
            raise CommandError("The database already has events; the demo loads into an empty one.")
        loaded = load_reference_night()
        event = loaded["event"]
        self.stdout.write(
            self.style.SUCCESS(f"Loaded {event} with 6 shoes of 40 hands, counted at the close.")
        )
        self.stdout.write(f"Log in as host / {DEMO_PASSWORD} (or dealer / {DEMO_PASSWORD}).")
