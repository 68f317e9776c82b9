"""At a tournament table: the secret bet a host or dealer marks; a player's live
leaderboard, which their own page asks for again when its stream says it changed; and the
streams of the screens outside the staff (a guest's page, a table display)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from games.entry import read_seat
from games.models import Event
from ledger.guests.selectors import guest_by_link_or_404, guest_of_user_or_404
from ledger.models import Guest
from shoebook.base.converters import id_or_none
from shoebook.base.links import private_link, same_token
from shoebook.base.live import public_facts, stream_response
from shoebook.base.roles import AuthenticatedHttpRequest, table_staff_required
from tournaments import services
from tournaments.selectors import display_topics, guest_topics
from tournaments.templatetags.tournament_table import leaderboard_now_context

MSG_SECRET_MARKED = _("Seat {seat}: a secret bet on hand {number}, hidden until the hand is saved.")
MSG_SECRET_CLEARED = _("Seat {seat}: no secret bet on hand {number}.")
MSG_SECRET_WHICH = _("Choose the seat and the hand of the secret bet.")


@table_staff_required
@require_POST
def secret_bet(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Mark (``mark=<seat>``) or take back (``unmark=<seat>``) a player's secret bet on the
    hand being entered (``number``). The page's script asks in the background and hides the
    stake at once, even offline; without it, the answer is the table page again."""
    event = get_object_or_404(Event, pk=event_id)
    marking = "mark" in request.POST
    seat = read_seat(request.POST.get("mark" if marking else "unmark", ""))
    number = id_or_none(request.POST.get("number", ""))
    try:
        if seat is None or number is None:
            raise ValidationError(MSG_SECRET_WHICH)
        write = services.secret_bet_mark if marking else services.secret_bet_clear
        write(table_event=event, seat=seat, hand_number=number, by=request.user)
    except ValidationError as error:
        return _answer(request, event, " ".join(error.messages), ok=False)
    done = MSG_SECRET_MARKED if marking else MSG_SECRET_CLEARED
    return _answer(request, event, done.format(seat=seat, number=number), ok=True, secret=marking)


def _answer(
    request: AuthenticatedHttpRequest, event: Event, text: str, *, ok: bool, secret: bool = False
) -> HttpResponse:
    if request.htmx:
        return JsonResponse({"message": text, "secret": secret}, status=200 if ok else 400)
    (messages.success if ok else messages.error)(request, text)
    shoe = event.shoes.order_by("-number").first()
    if shoe is None:
        return redirect("ledger:event_detail", event.pk)
    return redirect("ledger:shoe_table", shoe.pk)


@login_not_required
@require_GET
def guest_standings(request: HttpRequest, guest_id: int, token: str) -> HttpResponse:
    """A player's "Tournament now", by their private link."""
    return _standings(request, guest_by_link_or_404(guest_id, token))


@require_GET
def my_standings(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A player who logged in: their own "Tournament now"."""
    return _standings(request, guest_of_user_or_404(request.user))


def _standings(request: HttpRequest, guest: Guest) -> HttpResponse:
    context = leaderboard_now_context(guest, request.path)
    response = render(request, "tournaments/_leaderboard_now.html", context)
    return private_link(response)


# --- the live streams of the screens outside the staff (shoebook.base.live) -------------------
# They are here, not beside their pages, because what a guest's page or a display shows of a
# tournament (its leaderboard) is known only here: games and the ledger never see tournaments.


@login_not_required
@require_GET
def display_live(request: HttpRequest, event_id: int, token: str) -> StreamingHttpResponse:
    """A table display's stream, by the display's own link: its table's changes (and its
    round's leaderboard), never a guest's id."""
    event = get_object_or_404(Event, pk=event_id)
    if not same_token(event.display_token, token):
        raise Http404
    topics = display_topics(event)
    response = stream_response(request, topics, shape=public_facts, renew_on=_renewing(topics))
    return private_link(response, cache="no-cache")


@login_not_required
@require_GET
def guest_live(request: HttpRequest, guest_id: int, token: str) -> StreamingHttpResponse:
    """A guest's private link's stream: that guest's own changes and their rounds' boards."""
    return _guest_stream(request, guest_by_link_or_404(guest_id, token))


@require_GET
def my_live(request: AuthenticatedHttpRequest) -> StreamingHttpResponse:
    """``/me/``'s stream: the same, for the guest who logged in."""
    return _guest_stream(request, guest_of_user_or_404(request.user))


def _guest_stream(request: HttpRequest, guest: Guest) -> StreamingHttpResponse:
    topics = guest_topics(guest.pk)
    response = stream_response(request, topics, shape=public_facts, renew_on=_renewing(topics))
    return private_link(response, cache="no-cache")


def _renewing(topics: list[str]) -> list[str]:
    """A round drawn, started or closed may bring other tables: the stream starts afresh."""
    return [topic for topic in topics if topic.startswith("tournament:")]
