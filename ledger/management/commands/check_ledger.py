"""Check the ledger against itself: ``manage.py check_ledger [--event ID]``.

Recomputes every invariant from the raw rows (``ledger.integrity``), prints each broken row on a
line of its own, and exits with status 1 if there is any.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Event
from ledger.integrity import check_ledger


class Command(BaseCommand):
    help = (
        "Recompute the ledger's invariants (payouts, totals, zero-sum, balances, seatings) from "
        "the rows; name each broken row and exit with status 1 if there is any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", type=int, metavar="ID", help="Check only this event.")

    def handle(self, *args: Any, **options: Any) -> None:
        event = None
        if options["event"] is not None:
            event = Event.objects.filter(pk=options["event"]).first()
            if event is None:
                raise CommandError(f"No event with the id {options['event']}.")
        checked = check_ledger(event)
        for problem in checked.problems:
            self.stdout.write(str(problem))
        if checked.problems:
            count = len(checked.problems)
            raise CommandError(f"{count} problem{'' if count == 1 else 's'} found.", returncode=1)
        self.stdout.write(
            self.style.SUCCESS(
                f"Ledger OK: {checked.bets} bets, {checked.hands} hands, "
                f"{checked.guests} guests checked."
            )
        )
