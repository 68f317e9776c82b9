"""See or set the reading of a changed rule a night is read by: ``manage.py night_rules ID``
lists the night's reading of the bank's rotation and whether its coups settle as stored under
each; ``--bank-rotation original`` (or ``skips_loser``) reads it so from now on, kept only if the
night's books are then clean (docs/operations.md, "When a check fails after an upgrade")."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.kinds import BANK_ROTATION_LABELS, BankRotation
from games.models import Event
from ledger.integrity.readings import READINGS, bank_rotation_set, problems_under
from shoebook.base.roles import command_line_actor


class Command(BaseCommand):
    help = "Show or set how a night's bank went round (a rule that changed between releases)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event", type=int, metavar="ID")
        parser.add_argument(
            "--bank-rotation",
            choices=[reading.value for reading in BankRotation],
            help="read the night so from now on (kept only if its books are then clean)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(pk=options["event"]).first()
        if event is None:
            raise CommandError(f"No event with the id {options['event']}.")
        chosen = options["bank_rotation"]
        if chosen is None:
            self.stdout.write(f"{event.pk} {event.name} ({event.date:%Y-%m-%d}):")
            for reading in READINGS:
                found = problems_under(event, reading)
                mark = "*" if reading.value == event.bank_rotation else " "
                said = "clean" if not found else f"{len(found)} problem(s)"
                label = str(BANK_ROTATION_LABELS[reading])
                self.stdout.write(f" {mark} {reading.value}: {said} — {label}")
            return
        problems = bank_rotation_set(
            event=event, rotation=BankRotation(chosen), by=command_line_actor()
        )
        if problems:
            for problem in problems:
                self.stdout.write(str(problem))
            raise CommandError(
                f"Read as {chosen}, the night has {len(problems)} problem(s): nothing was changed."
            )
        self.stdout.write(f"{event.pk} {event.name} is read as {chosen}; its books are clean.")
