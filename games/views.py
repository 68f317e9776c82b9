"""Baccarat's own pages, with no money on them: the rules and odds, and the table display (the
scoreboard full screen for a TV at the bar, by a read-only link)."""

from __future__ import annotations

import hmac

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET

from games.forms import RuleSetForm
from games.models import Event
from games.odds import fraction_to_decimal, odds_table
from games.payouts import pays_label
from games.scoreboard import scoreboard

DISPLAY_REFRESH_SECONDS = 5
# The display's roads, in columns: fixed, so that each fills its part of the screen, with the
# newest marks in view however long the shoe (16 bead columns hold 96 hands).
DISPLAY_WIDTHS = {
    "bead_plate": 16,
    "big_road": 30,
    "big_eye_boy": 52,
    "small_road": 52,
    "cockroach_pig": 52,
}


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


@login_not_required
@require_GET
def table_display(request: HttpRequest, event_id: int, token: str) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    if not event.display_token or not hmac.compare_digest(
        event.display_token.encode(), token.encode()
    ):
        raise Http404
    shoe = (
        event.shoes.filter(closed_at__isnull=True).first() or event.shoes.order_by("number").last()
    )
    context = {
        "event": event,
        "board": scoreboard(shoe, widths=DISPLAY_WIDTHS) if shoe else None,
        "refresh_seconds": DISPLAY_REFRESH_SECONDS,
    }
    response = render(request, "games/table_display.html", context)
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response
