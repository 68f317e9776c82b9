"""Print the exact odds and house edges of a rule set: ``manage.py baccarat_odds --decks 8``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.forms import RuleSetForm
from games.odds import fraction_to_decimal, odds_table
from games.payouts import RuleSet, pays_label


def add_rule_set_arguments(parser: CommandParser) -> None:
    """The rule-set options, shared by every command that takes a rule set."""
    parser.add_argument("--commission", help="Banker commission in percent, 0–10 (default 5).")
    parser.add_argument(
        "--no-commission",
        choices=["ez", "super6"],
        help="A no-commission game: ez (Banker three-card 7 pushes) or super6.",
    )
    parser.add_argument("--tie-pays", type=int, choices=[8, 9], default=8)
    parser.add_argument("--pair-pays", type=int, choices=[11, 12], default=11)


def rule_set_from_options(options: dict[str, Any], decks: int = 8) -> tuple[RuleSet, int]:
    """Validate the options through the same form the web page uses."""
    form = RuleSetForm(
        {
            "decks": decks,
            "commission": options.get("commission") or "",
            "no_commission": options.get("no_commission") or "none",
            "tie_pays": options["tie_pays"],
            "pair_pays": options["pair_pays"],
        }
    )
    if not form.is_valid():
        problems = [
            f"--{name.replace('_', '-')}: {message}" if name != "__all__" else str(message)
            for name, messages in form.errors.items()
            for message in messages
        ]
        raise CommandError("; ".join(problems))
    return form.cleaned_data["rules"], form.cleaned_data["decks"]


class Command(BaseCommand):
    help = "Exact odds of every outcome and the house edge of every bet, for 1–8 decks."
    # The odds read no database and serve no page: the system checks would only import every view.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--decks", type=int, default=8, help="Decks in the shoe, 1–8.")
        parser.add_argument("--json", action="store_true", help="Print JSON instead of a table.")
        add_rule_set_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        rules, decks = rule_set_from_options(options, decks=options["decks"])
        table = odds_table(rules, decks)
        if options["json"]:
            self.stdout.write(json.dumps(table.as_json(), indent=2))
            return
        lines = [f"{decks} decks — {rules.describe()}", "", f"{'Outcome':<24}{'Probability':>14}"]
        for winner, p in table.outcomes.items():
            lines.append(f"{winner.value.title():<24}{fraction_to_decimal(p, 9):>14}")
        lines += ["", f"{'Bet':<24}{'Pays':<36}{'House edge':>12}"]
        for bet, edge in table.house_edge.items():
            percent = f"{fraction_to_decimal(edge * 100, 5)}%"
            lines.append(f"{bet.label:<24}{pays_label(rules, bet):<36}{percent:>12}")
        self.stdout.write("\n".join(lines))
