"""Write the settlement workbook: ``manage.py export_settlement --event EVENT --output FILE.xlsx``
or ``--from DATE --to DATE`` for every event in a date range (a season, one workbook)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Event
from ledger.workbook.exports import events_between, settlement_workbook


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a date (YYYY-MM-DD).") from None


class Command(BaseCommand):
    help = "Write an event's (or a date range's) settlement workbook to an .xlsx file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--event", help="The event's id or exact name.")
        parser.add_argument("--from", dest="start", help="First date, YYYY-MM-DD.")
        parser.add_argument("--to", dest="end", help="Last date, YYYY-MM-DD.")
        parser.add_argument("--output", required=True, help="The .xlsx file to write.")

    def handle(self, *args: Any, **options: Any) -> None:
        events = self._events(options)
        target = Path(options["output"])
        # Written beside the target and renamed when complete: a failed export leaves no file.
        partial = target.with_name(f".{target.name}.partial")
        try:
            with open(partial, "wb") as output:
                settlement_workbook(events, output)
            os.replace(partial, target)
        except OSError as error:
            raise CommandError(f"Cannot write {target}: {error.strerror}.") from error
        finally:
            partial.unlink(missing_ok=True)
        names = ", ".join(event.name for event in events[:3]) + (" …" if len(events) > 3 else "")
        self.stdout.write(f"Wrote {options['output']}: {len(events)} event(s) ({names}).")

    def _events(self, options: dict[str, Any]) -> list[Event]:
        if options["event"] and (options["start"] or options["end"]):
            raise CommandError("Give --event, or --from/--to, not both.")
        if options["event"]:
            key = options["event"]
            matches = list(Event.objects.filter(name=key))
            if key.isascii() and key.isdigit() and not matches:
                matches = list(Event.objects.filter(pk=int(key)))
            if not matches:
                raise CommandError(f"No event with the id or name {key!r}.")
            if len(matches) > 1:
                raise CommandError(f"{len(matches)} events are called {key!r}: give the id.")
            return matches
        if not (options["start"] or options["end"]):
            raise CommandError("Give --event, or --from and/or --to.")
        start = _date(options["start"]) if options["start"] else None
        end = _date(options["end"]) if options["end"] else None
        events = events_between(start, end)
        if not events:
            raise CommandError("No event in that date range.")
        return events
