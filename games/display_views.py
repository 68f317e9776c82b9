"""The table display: the scoreboard full screen for a TV at the bar, by a read-only link."""

from __future__ import annotations

import hmac

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.models import Event
from games.scoreboard import scoreboard
from shoebook.roles import host_required

DISPLAY_REFRESH_SECONDS = 5


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
        "board": scoreboard(shoe, linked=False) if shoe else None,
        "refresh_seconds": DISPLAY_REFRESH_SECONDS,
    }
    response = render(request, "games/table_display.html", context)
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "no-store"
    return response


@host_required
@require_POST
def display_link_issue(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    services.event_display_link_issue(event=event)
    return redirect("ledger:event_detail", event.pk)
