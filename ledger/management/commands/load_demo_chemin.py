"""Load the demo Chemin de fer night after the demo night: ``manage.py load_demo_chemin
[--if-empty]`` (``make run`` runs it after ``load_demo_tournament``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kinds import Game
from games.models import Event
from ledger.demo import DEMO_USERS
from ledger.demo_banked import load_demo_chemin

DEMO_HOST = DEMO_USERS[0][0]


class Command(BaseCommand):
    help = (
        "Load a demo Chemin de fer night (8 guests, one shoe, the bank changing hands), "
        "played from a dealt shoe by the demo night's host."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if a Chemin de fer night exists already or the demo night is not "
            "loaded.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if_empty = options["if_empty"]
        if Event.objects.filter(game=Game.CHEMIN_DE_FER.value).exists():
            if if_empty:
                self.stdout.write("A Chemin de fer night exists already: no demo loaded.")
                return
            raise CommandError("The database already has a Chemin de fer night.")
        host = User.objects.filter(username=DEMO_HOST).first()
        if host is None:
            if if_empty:
                self.stdout.write("No demo night: no Chemin de fer night loaded.")
                return
            raise CommandError("Load the demo night first (manage.py load_demo).")
        event = load_demo_chemin(by=host)
        coups = event.shoes.get().hands.count()
        self.stdout.write(self.style.SUCCESS(f"Loaded {event}: one shoe of {coups} coups."))
