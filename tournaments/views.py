"""The host's tournament pages: set it up, register players, add rounds, draw and start them,
follow the board, take rebuys and add-ons, confirm who goes on and pay the prizes. Dealers
read what they need to play (the draw, the tables' links, the board)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.forms import BaseForm
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from ledger.guests.names import name_key
from ledger.money.amounts import ZERO, format_chips
from ledger.nights import services as night_services
from shoebook.base.live import stream_response
from shoebook.base.roles import AuthenticatedHttpRequest, host_required, table_staff_required
from tournaments import services
from tournaments.forms import (
    DrawForm,
    EntrantForm,
    PlayoffForm,
    RoundForm,
    TournamentForm,
    TournamentNightForm,
)
from tournaments.models import Entrant, Round, Tournament, TournamentTable, new_seed
from tournaments.selectors import (
    RoundBoard,
    entrant_rows,
    final_prizes,
    prize_schedule,
    round_board,
    table_shoes,
    tournament_topics,
    tournaments_for_list,
)

MSG_CREATED = gettext_lazy("{tournament} is ready: register the players, then add a round.")
MSG_SAVED = gettext_lazy("{tournament} is saved.")
MSG_REGISTERED = gettext_lazy("{guest} is registered.")
MSG_FOUND_BY_ALIAS = gettext_lazy("“{name}” is {guest}: {guest} is registered.")
MSG_ROUND_ADDED = gettext_lazy("Round {number} is added: draw its seats.")
MSG_DRAWN = gettext_lazy("Round {number} is drawn with seed {seed}.")
MSG_STARTED = gettext_lazy("Round {number} has started: its tables are open.")
MSG_CLOSED = gettext_lazy("Round {number} is closed: {count} go on.")
MSG_PRIZES_PAID = gettext_lazy(
    "The final table is closed: the places are settled, the prizes paid."
)
MSG_REBOUGHT = gettext_lazy("{guest} rebought: {chips} more chips, {price} owed.")
MSG_ADDED_ON = gettext_lazy("{guest} took the add-on: {chips} more chips, {price} owed.")
MSG_NOT_EDITABLE = gettext_lazy("A round has started: the settings stay as they are.")


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)


def _round(round_id: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament__event"), pk=round_id)


def _show_errors(error: ValidationError, *forms: BaseForm) -> None:
    """A service's refusal on the field it names, in whichever form has it; else at the top
    of the last form."""
    if not hasattr(error, "error_dict"):
        forms[-1].add_error(None, error)
        return
    for name, problems in error.message_dict.items():
        form = next((form for form in forms if name in form.fields), None)
        if form is None:
            forms[-1].add_error(None, problems)
        else:
            form.add_error(name, problems)


# --- the list and the settings --------------------------------------------------------------


@table_staff_required
@require_GET
def tournament_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    context = {"tournaments": tournaments_for_list()}
    return render(request, "tournaments/tournament_list.html", context)


@host_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    data = request.POST or None
    night = TournamentNightForm(data, initial={"date": timezone.localdate()})
    form = TournamentForm(data)
    if request.method == "POST" and all([night.is_valid(), form.is_valid()]):
        try:
            tournament = services.tournament_create(
                **night.night(), **form.settings(), by=request.user
            )
        except ValidationError as error:
            _show_errors(error, night, form)
        else:
            messages.success(request, MSG_CREATED.format(tournament=tournament.event.name))
            return redirect("tournaments:tournament_detail", tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"night": night, "form": form})


@host_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    """Change the settings and the night's details while no round has started. A round drawn
    already is drawn again with its seed (the same seats), so that its tables play the rules
    as they are now."""
    tournament = _tournament(tournament_id)
    if tournament.rounds.filter(started_at__isnull=False).exists():
        messages.error(request, MSG_NOT_EDITABLE)
        return redirect("tournaments:tournament_detail", tournament.pk)
    data = request.POST or None
    night = TournamentNightForm(data, instance=tournament.event)
    form = TournamentForm(data, instance=tournament)
    if request.method == "POST" and all([night.is_valid(), form.is_valid()]):
        try:
            with transaction.atomic():
                night_services.event_edit(event=tournament.event, by=request.user, **night.night())
                services.tournament_update(
                    tournament=tournament, by=request.user, **form.settings()
                )
                for drawn in tournament.rounds.filter(drawn_at__isnull=False):
                    services.round_draw(round_=drawn, by=request.user, seed=drawn.seed)
        except ValidationError as error:
            _show_errors(error, night, form)
        else:
            messages.success(request, MSG_SAVED.format(tournament=tournament.event.name))
            return redirect("tournaments:tournament_detail", tournament.pk)
    context = {"night": night, "form": form, "tournament": tournament}
    return render(request, "tournaments/tournament_form.html", context)


@table_staff_required
@require_GET
def tournament_for_event(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """From a tournament's night in the ledger to its tournament page."""
    tournament = get_object_or_404(Tournament, event_id=event_id)
    return redirect("tournaments:tournament_detail", tournament.pk)


# --- the tournament page --------------------------------------------------------------------


@table_staff_required
@require_GET
def tournament_live(request: AuthenticatedHttpRequest, tournament_id: int) -> StreamingHttpResponse:
    """The staff's boards' stream: the tournament's changes and each hand at a table of a
    round under way; it starts afresh when a round is drawn, started or closed."""
    tournament = _tournament(tournament_id)
    topics = tournament_topics(tournament)
    return stream_response(request, topics, renew_on=[f"tournament:{tournament.pk}"])


@table_staff_required
@require_GET
def tournament_detail(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    return _render_tournament(request, _tournament(tournament_id))


def _render_tournament(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    status: int = 200,
    **forms: BaseForm,
) -> HttpResponse:
    rounds = list(tournament.rounds.all())
    started = [round_ for round_ in rounds if round_.is_started]
    can_add_round = not tournament.is_finished and not any(r.is_final for r in rounds)
    entrant_form = forms.get("entrant_form") or EntrantForm()
    round_form = forms.get("round_form") or RoundForm(tournament=tournament)
    # A form posted from a page left open, which the page no longer shows: why not, on top.
    if entrant_form.errors and started:
        messages.error(request, services.MSG_REGISTRATION_CLOSED)
    if round_form.errors and not can_add_round:
        done = tournament.is_finished
        messages.error(request, services.MSG_FINISHED if done else services.MSG_ROUND_AFTER_FINAL)
    rows = entrant_rows(tournament, started)
    cut, pool = services.tournament_pool(tournament)
    schedule = prize_schedule(tournament, pool, len(rows))
    prizes_total = sum((amount for _place, amount in schedule), ZERO)
    context = {
        "tournament": tournament,
        "event": tournament.event,
        "rules_description": tournament.event.rule_set.describe(_),
        "rounds": rounds,
        "started_rounds": started,
        "rows": rows,
        "cut": cut,
        "pool": pool,
        "schedule": schedule,
        "prizes_over_pool": prizes_total - pool if prizes_total > pool else None,
        "editable": not started,
        "can_add_round": can_add_round,
        "entrant_form": entrant_form,
        "round_form": round_form,
    }
    return render(request, "tournaments/tournament_detail.html", context, status=status)


@host_required
@require_POST
def entrant_add(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = EntrantForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            entrant = services.entrant_add(tournament=tournament, name=name, by=request.user)
        except ValidationError as error:
            _show_errors(error, form)
        else:
            guest = entrant.guest.name
            if name_key(guest) != name_key(name):  # found by an alias: say who it is
                messages.info(request, MSG_FOUND_BY_ALIAS.format(name=name, guest=guest))
            else:
                messages.success(request, MSG_REGISTERED.format(guest=guest))
            url = reverse("tournaments:tournament_detail", args=[tournament.pk])
            return redirect(url + "#players")
    return _render_tournament(request, tournament, status=400, entrant_form=form)


@host_required
@require_POST
def round_add(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    form = RoundForm(request.POST, tournament=tournament)
    if form.is_valid():
        try:
            round_ = services.round_add(tournament=tournament, by=request.user, **form.settings())
        except ValidationError as error:
            _show_errors(error, form)
        else:
            messages.success(request, MSG_ROUND_ADDED.format(number=round_.number))
            return redirect("tournaments:round_detail", round_.pk)
    return _render_tournament(request, tournament, status=400, round_form=form)


# --- a round --------------------------------------------------------------------------------


@table_staff_required
@require_GET
def round_detail(request: AuthenticatedHttpRequest, round_id: int) -> HttpResponse:
    return _render_round(request, _round(round_id))


@table_staff_required
@require_GET
def round_board_partial(request: AuthenticatedHttpRequest, round_id: int) -> HttpResponse:
    """The board alone: what ``_board.html`` fetches every few seconds."""
    board = round_board(_round(round_id))
    return render(request, "tournaments/_board.html", {"board": board})


def _playoff_form(board: RoundBoard, data: Any = None) -> PlayoffForm | None:
    if not board.playoffs:
        return None
    names = {line.entrant_id: line.name for line in board.lines}
    groups = [[(entrant, names[entrant]) for entrant in group] for group in board.playoffs]
    return PlayoffForm(data, groups=groups)


def _render_round(
    request: AuthenticatedHttpRequest,
    round_: Round,
    status: int = 200,
    **forms: BaseForm,
) -> HttpResponse:
    tournament = round_.tournament
    board = round_board(round_)
    shoes = table_shoes(round_) if round_.is_started else {}
    playing = round_.is_started and not round_.is_closed
    context: dict[str, object] = {
        "round": round_,
        "tournament": tournament,
        "event": tournament.event,
        "board": board,
        "tables": [(table, shoes.get(table.table.pk)) for table in board.tables],
        "draw_form": forms.get("draw_form") or DrawForm(),
        "rebuys_open": playing
        and bool(tournament.rebuy_chips)
        and tournament.rebuy_rounds >= round_.number,
        "add_on_open": playing
        and bool(tournament.add_on_chips)
        and tournament.add_on_round == round_.number,
        "next_round": tournament.rounds.filter(number=round_.number + 1).first()
        if round_.is_closed
        else None,
    }
    if board.is_done and not round_.is_closed:
        context["playoff_form"] = forms.get("playoff_form") or _playoff_form(board)
        context["going_on"] = [line for line in board.by_stack if line.qualifying]
        context["going_out"] = [line for line in board.by_stack if not line.qualifying]
        if round_.is_final:
            pool = services.tournament_pool(tournament)[1]
            won = final_prizes(tournament, board, pool)
            context["final_places"] = [
                (line, won.get(line.entrant_id)) for line in _by_place(board)
            ]
    return render(request, "tournaments/round_detail.html", context, status=status)


def _by_place(board: RoundBoard) -> list[Any]:
    return sorted(board.lines, key=lambda line: (line.place or len(board.lines) + 1, line.name))


def _round_action(
    request: AuthenticatedHttpRequest, round_: Round, action: Callable[[], object]
) -> HttpResponse:
    """Run one service for the round page; a refusal comes back as a message on the page."""
    try:
        action()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect("tournaments:round_detail", round_.pk)


@host_required
@require_POST
def round_draw(request: AuthenticatedHttpRequest, round_id: int) -> HttpResponse:
    """Draw the seats: with the seed typed in, else a new random one."""
    round_ = _round(round_id)
    form = DrawForm(request.POST)
    if not form.is_valid():
        return _render_round(request, round_, status=400, draw_form=form)
    seed = form.cleaned_data["seed"]

    def draw() -> None:
        drawn = services.round_draw(
            round_=round_, by=request.user, seed=new_seed() if seed is None else seed
        )
        messages.success(request, MSG_DRAWN.format(number=drawn.number, seed=drawn.seed))

    return _round_action(request, round_, draw)


@host_required
@require_POST
def round_start(request: AuthenticatedHttpRequest, round_id: int) -> HttpResponse:
    round_ = _round(round_id)

    def start() -> None:
        services.round_start(round_=round_, by=request.user)
        messages.success(request, MSG_STARTED.format(number=round_.number))

    return _round_action(request, round_, start)


@host_required
@require_POST
def round_close(request: AuthenticatedHttpRequest, round_id: int) -> HttpResponse:
    """Confirm the advancement the host saw and close the round; a tie across the cut under
    the play-off rule needs the play-off's order (a rank per tied player)."""
    round_ = _round(round_id)
    board = round_board(round_)
    form = _playoff_form(board, request.POST) if board.is_done else None
    if form is not None and not form.is_valid():
        messages.error(request, _("Enter the play-off's order: a place for every tied player."))
        return _render_round(request, round_, status=400, playoff_form=form)
    order = form.order() if form is not None else None

    def close() -> None:
        closed = services.round_close(round_=round_, by=request.user, playoff_order=order)
        if closed.is_final:
            messages.success(request, MSG_PRIZES_PAID)
        else:
            going_on = closed.tournament.entrants.filter(out_after_round__isnull=True).count()
            messages.success(request, MSG_CLOSED.format(number=closed.number, count=going_on))

    return _round_action(request, round_, close)


def _entrant(round_: Round, entrant_id: int) -> Entrant:
    entrants = Entrant.objects.select_related("guest")
    return get_object_or_404(entrants, pk=entrant_id, tournament_id=round_.tournament_id)


@host_required
@require_POST
def entrant_rebuy(
    request: AuthenticatedHttpRequest, round_id: int, entrant_id: int
) -> HttpResponse:
    return _buy_chips(request, round_id, entrant_id, add_on=False)


@host_required
@require_POST
def entrant_add_on(
    request: AuthenticatedHttpRequest, round_id: int, entrant_id: int
) -> HttpResponse:
    return _buy_chips(request, round_id, entrant_id, add_on=True)


def _buy_chips(
    request: AuthenticatedHttpRequest, round_id: int, entrant_id: int, *, add_on: bool
) -> HttpResponse:
    """A rebuy or the add-on, for its price: said in a message, or why not."""
    round_ = _round(round_id)
    entrant = _entrant(round_, entrant_id)
    tournament = round_.tournament
    service, price, message = (
        (services.add_on, tournament.add_on_price, MSG_ADDED_ON)
        if add_on
        else (services.rebuy, tournament.rebuy_price, MSG_REBOUGHT)
    )

    def buy() -> None:
        row = service(entrant=entrant, by=request.user, round_=round_)
        text = message.format(
            guest=entrant.guest.name,
            chips=format_chips(row.chips),
            price=format_chips(price, tournament.event.currency_symbol),
        )
        messages.success(request, text)

    return _round_action(request, round_, buy)


@host_required
@require_POST
def table_display_link(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """A new read-only link for one table's display (a TV by that table)."""
    table = get_object_or_404(TournamentTable.objects.select_related("event"), pk=table_id)
    game_services.event_display_link_issue(event=table.event)
    url = reverse("tournaments:round_detail", args=[table.round_id])
    return redirect(f"{url}#table-{table.number}")
