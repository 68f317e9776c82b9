from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext

from games.forms import RuleSetForm
from games.odds import fraction_to_decimal, odds_table
from games.payouts import pays_label


@login_not_required
def rules_and_odds(request: HttpRequest) -> HttpResponse:
    """Exact odds and house edges for whatever rule set the form describes (GET, shareable)."""
    form = RuleSetForm(RuleSetForm.initial_data() | request.GET.dict())
    context: dict[str, object] = {"form": form}
    if form.is_valid():
        rules, decks = form.cleaned_data["rules"], form.cleaned_data["decks"]
        table = odds_table(rules, decks)
        context |= {
            "rules": rules,
            "rules_description": rules.describe(gettext),
            "decks": decks,
            "outcomes": [
                (
                    winner,
                    gettext(winner.value.title()),
                    fraction_to_decimal(p * 100, 7),
                    f"{p.numerator:,}/{p.denominator:,}",
                )
                for winner, p in table.outcomes.items()
            ],
            "edges": [
                (
                    gettext(bet.label),
                    pays_label(rules, bet, gettext),
                    fraction_to_decimal(edge * 100, 5),
                    rules.offers(bet),
                )
                for bet, edge in table.house_edge.items()
            ],
        }
    return render(request, "games/rules_and_odds.html", context)
