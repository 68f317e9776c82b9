"""The guest-banked table's helper: what the cards typed so far say, and the choices to offer.

The coup itself is saved, undone and corrected through the table's and the hand's pages
(``table.py``, ``hands.py``) like any hand; this answers the page's question while the cards
are being typed: which choice, if any, the rules give now (the ponte on 5, the banker on his
two cells, in Baccara banque a banker pulled apart by the two tableaux)."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.models import Shoe
from ledger.hands.coup_forms import CHOICE_FIELDS, coup_step
from shoebook.base.roles import AuthenticatedHttpRequest, table_staff_required

CARDS_TEXT_LENGTH = 60  # more than any coup's cards (three of at most three characters a side)


@table_staff_required
@require_GET
def coup_step_helper(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """The ``#coup-step`` partial for the cards and choices in the query (``player_cards``,
    ``banker_cards``, ``second_cards``; ``ponte_choice``, ``banker_choice``, ``second_choice``)."""
    shoe = get_object_or_404(Shoe.objects.select_related("event"), pk=shoe_id)
    event = shoe.event
    if not event.is_guest_banked:
        raise Http404

    def typed(name: str) -> str:
        return request.GET.get(name, "")[:CARDS_TEXT_LENGTH]

    step = coup_step(
        event.game_kind,
        player_cards=typed("player_cards"),
        banker_cards=typed("banker_cards"),
        second_cards=typed("second_cards"),
        choices={name: typed(name) for name in CHOICE_FIELDS},
        decks=event.decks,
    )
    return render(request, "ledger/hands/_coup_step.html", {"step": step})
