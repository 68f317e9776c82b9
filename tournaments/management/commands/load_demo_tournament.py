"""Load the demo tournament after the demo night: ``manage.py load_demo_tournament
[--if-empty]`` (``make run`` runs it after ``load_demo``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from ledger.demo import DEMO_USERS
from tournaments.demo import load_demo_tournament
from tournaments.models import Tournament

DEMO_HOST = DEMO_USERS[0][0]


class Command(BaseCommand):
    help = (
        "Load the demo tournament (14 players, two heats on 2 tables, a final table of 6), "
        "played from dealt shoes by the demo night's host."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if a tournament exists already or the demo night is not loaded.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if_empty = options["if_empty"]
        if Tournament.objects.exists():
            if if_empty:
                self.stdout.write("A tournament exists already: no demo tournament loaded.")
                return
            raise CommandError("The database already has a tournament.")
        host = User.objects.filter(username=DEMO_HOST).first()
        if host is None:
            if if_empty:
                self.stdout.write("No demo night: no demo tournament loaded.")
                return
            raise CommandError("Load the demo night first (manage.py load_demo).")
        tournament = load_demo_tournament(by=host)
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {tournament}: {tournament.entrants.count()} players, "
                f"{tournament.rounds.count()} rounds, prizes paid."
            )
        )
