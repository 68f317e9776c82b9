"""Import a night kept on paper: ``manage.py import_scoresheet FILE --event-name NAME --date
YYYY-MM-DD [--currency EUR] [--money-per-chip N] [rule-set options as in baccarat_odds]``; a
Chemin de fer or Baccara banque night with ``--game`` and its cut (``--taxe``, ``--taxe-rate``,
``--shoe-charge``, ``--banco``, ``--clearing``), one row per stake. A workbook this site exported
(a night or a season) without ``--event-name``: its nights as they were, their terms from its
Rules sheet. All or nothing."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.currencies import DEFAULT_CURRENCY, is_currency
from games.entry import TableRules, read_amount
from games.kinds import Game
from games.management.commands.baccarat_odds import add_rule_set_arguments, rule_set_from_options
from games.models import MSG_UNKNOWN_CURRENCY, Event
from ledger.nights.forms import check_rate
from ledger.workbook.count_imports import check_count_sheet, count_sheet_import, is_count_sheet
from ledger.workbook.forms import ScoresheetGameForm
from ledger.workbook.imports.coup_sheet import check_coup_sheet
from ledger.workbook.imports.night_workbook import (
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.imports.night_writer import (
    MSG_BETS,
    MSG_GUESTS,
    MSG_HANDS,
    MSG_NIGHTS,
    coup_sheet_import,
    scoresheet_import,
)
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.reading import ScoresheetInvalid, ScoresheetUnreadable
from shoebook.base.roles import Actor, command_line_actor, is_host

AMOUNTS = ("money_per_chip", "table_min", "table_max")


class Command(BaseCommand):
    help = "Import a scoresheet (.csv, .xlsx or .ods, one row per bet) as a new event."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--event-name", help="Required, except for a workbook this site exported."
        )
        parser.add_argument("--date", help="YYYY-MM-DD (with --event-name).")
        parser.add_argument("--currency", default=DEFAULT_CURRENCY, help="ISO 4217 (default JPY).")
        # --yen-per-chip: its name before nights had a currency, still read.
        parser.add_argument(
            "--money-per-chip", "--yen-per-chip", dest="money_per_chip", default="100"
        )
        parser.add_argument("--decks", type=int, default=8)
        parser.add_argument("--table-min", default="10", help="Table minimum (default 10).")
        parser.add_argument("--table-max", default="1000", help="Table maximum (default 1000).")
        parser.add_argument(
            "--by",
            help="A host's username, recorded as logging the hands (default: the command line).",
        )
        parser.add_argument("--game", choices=[game.value for game in Game], default="punto_banco")
        parser.add_argument("--taxe", choices=Event.Cut.values, help="The house's cut.")
        parser.add_argument("--taxe-rate", help="Chemin de fer's share of a winning bank (0.05).")
        parser.add_argument("--shoe-charge", help="Chemin de fer's table charge per shoe.")
        parser.add_argument("--banco", choices=["limitee", "ouverte"])
        parser.add_argument("--clearing", choices=Event.Clearing.values)
        add_rule_set_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            content = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}.") from error
        if options["event_name"] is None:
            self._import_workbook(path, content, options)
            return
        try:
            on = date.fromisoformat(options["date"] or "")
        except ValueError:
            raise CommandError("--date is YYYY-MM-DD.") from None
        rate, low, high = (read_amount(options[name]) for name in AMOUNTS)
        if rate is None or low is None or high is None:
            raise CommandError("--money-per-chip, --table-min and --table-max are amounts.")
        if rate <= 0:
            raise CommandError("--money-per-chip must be more than zero.")
        currency = options["currency"]
        if not is_currency(currency):
            raise CommandError(str(MSG_UNKNOWN_CURRENCY))
        if why := check_rate(rate, currency):
            raise CommandError(why)
        if not 0 < low <= high:
            raise CommandError("The table limits must be 0 < --table-min <= --table-max.")
        rules, decks = rule_set_from_options(options, decks=options["decks"])
        table = TableRules(rules, decks, low, high)
        if is_count_sheet(path.name, content):
            self._import_count(path, content, on, rate, options)
            return
        game_form = ScoresheetGameForm(
            {name: options[name] or "" for name in ScoresheetGameForm.Meta.fields}
        )
        if not game_form.is_valid():
            raise CommandError("The game's options: " + game_form.errors.as_text())
        game = game_form.banked_game()
        try:
            if game is not None:
                coups = check_coup_sheet(path.name, content, table, game)
            else:
                hands = check_scoresheet(path.name, content, table)
        except ScoresheetUnreadable as error:
            raise CommandError(str(error)) from error
        except ScoresheetInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            raise CommandError(
                f"{len(invalid.problems)} problem(s) in {path.name}: nothing was imported."
            ) from invalid
        by = self._host(options)
        try:
            imported = (
                coup_sheet_import(
                    coups=coups,
                    game=game,
                    name=options["event_name"],
                    on=on,
                    table=table,
                    by=by,
                    money_per_chip=rate,
                    terms={"currency": currency},
                )
                if game is not None
                else scoresheet_import(
                    hands=hands,
                    name=options["event_name"],
                    on=on,
                    table=table,
                    by=by,
                    money_per_chip=rate,
                    terms={"currency": currency},
                )
            )
        except ValidationError as error:  # the event's own fields: name, chip rate, limits
            raise CommandError(" ".join(error.messages) + " Nothing was imported.") from error
        self.stdout.write(f"Imported {imported.event}: {_counted(imported.hands, imported.bets)}.")
        if imported.created_guests:
            self.stdout.write("New guests: " + ", ".join(imported.created_guests))

    def _import_count(
        self, path: Path, content: bytes, on: date, rate: Decimal, options: dict[str, Any]
    ) -> None:
        """A night kept by its count alone (``guest, bought, cashed_out``)."""
        try:
            rows = check_count_sheet(path.name, content)
        except ScoresheetUnreadable as error:
            raise CommandError(str(error)) from error
        except ScoresheetInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            raise CommandError(
                f"{len(invalid.problems)} problem(s) in {path.name}: nothing was imported."
            ) from invalid
        try:
            done = count_sheet_import(
                rows=rows, name=options["event_name"], on=on, by=self._host(options),
                money_per_chip=rate, currency=options["currency"],
            )  # fmt: skip
        except ValidationError as error:
            raise CommandError(" ".join(error.messages) + " Nothing was imported.") from error
        guests = MSG_GUESTS % {"count": done.guests}
        self.stdout.write(f"Imported a night kept by its count alone: {guests}.")

    def _import_workbook(self, path: Path, content: bytes, options: dict[str, Any]) -> None:
        """A workbook this site exported: its nights, each with its terms, play and records."""
        try:
            nights = read_night_workbook(path.name, content)
        except ScoresheetUnreadable as error:
            raise CommandError(str(error)) from error
        if nights is None:
            raise CommandError(
                "Give --event-name and --date: only a workbook this site exported names its"
                " nights itself."
            )
        try:
            checked = check_night_workbook(nights)
            done = night_workbook_import(nights=checked, by=self._host(options))
        except ScoresheetInvalid as invalid:
            for problem in invalid.problems:
                self.stderr.write(str(problem))
            raise CommandError(
                f"{len(invalid.problems)} problem(s) in {path.name}: nothing was imported."
            ) from invalid
        for event in done.events:
            self.stdout.write(f"Imported {event}.")
        counted = MSG_NIGHTS % {"count": len(done.events)}
        self.stdout.write(f"{counted}: {_counted(done.hands, done.bets)}.")
        if done.created_guests:
            self.stdout.write("New guests: " + ", ".join(done.created_guests))

    def _host(self, options: dict[str, Any]) -> Actor:
        if not options["by"]:
            return command_line_actor()
        by = get_user_model().objects.filter(username=options["by"]).first()
        if by is None or not is_host(by):
            raise CommandError(f"--by names a host's username; {options['by']!r} is not one.")
        return by


def _counted(hands: int, bets: int) -> str:
    return f"{MSG_HANDS % {'count': hands}}, {MSG_BETS % {'count': bets}}"
