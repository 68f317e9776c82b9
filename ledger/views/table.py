"""The live table: bets, the result (cards tapped or typed, or the outcome), seats, undo."""

from __future__ import annotations

import uuid
from typing import cast
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_stubs_ext import StrOrPromise

from games.cards import RANKS, format_cards
from games.entry import press, read_seat, result_text
from games.models import Event, Hand, Shoe
from games.scoreboard import scoreboard
from ledger import services
from ledger.forms import HandForm, add_service_errors, seating_token, stake_cells
from ledger.models import Guest, HandRevision
from ledger.selectors import SeatState, seating_of, shoe_open_things, table_state
from ledger.services import HandSnapshot
from shoebook.converters import id_or_none
from shoebook.roles import AuthenticatedHttpRequest, host_required, is_host, table_staff_required

MSG_CHOOSE_SEAT = gettext_lazy("Choose a seat and a guest.")
MSG_HAND_UNDONE = gettext_lazy(
    "Hand {number} undone: its cards and bets are back in the entry — fix and save again."
)
MSG_REFILL_SEAT_CHANGED = gettext_lazy(
    "Seat {seat} is now {guest}, not {was}: the bets are back in its boxes — check them."
)
MSG_REFILL_SEAT_EMPTY = gettext_lazy(
    "Seat {seat} is now empty, not {was}: its bets could not go back in the entry."
)
MSG_REFILL_STALE = gettext_lazy(
    "Hand {number} was logged again after it was undone: the entry starts empty."
)
MSG_SHOE_CLOSED = gettext_lazy("Shoe {number} closed.")
MSG_SHOE_REOPENED = gettext_lazy("Shoe {number} is open again.")


def _get_shoe(shoe_id: int) -> Shoe:
    return get_object_or_404(Shoe.objects.select_related("event"), pk=shoe_id)


def _render_table(
    request: AuthenticatedHttpRequest,
    shoe: Shoe,
    form: HandForm | None = None,
    *,
    repeat: bool = False,
    notice: str = "",
    refusal: StrOrPromise = "",
    seating_open: bool = False,
    refill: HandRevision | None = None,
) -> HttpResponse:
    """The table page (the ``#table`` partial for htmx). ``refill``: an undo whose hand goes
    back into the entry, to fix and save again."""
    state = table_state(shoe)
    bet_types = state.event.rule_set.offered_bets
    if form is None and refill is not None:
        hand = cast(HandSnapshot, refill.before)
        form = HandForm.refilled(hand, bet_types=bet_types, seating=state.seating)
        undone = MSG_HAND_UNDONE.format(number=refill.hand_number)
        notice = " ".join([undone, *refill_notes(hand, state.seats)])
    if form is None:
        stakes = state.repeat_stakes() if repeat else None
        form = HandForm.fresh(
            number=state.next_number, bet_types=bet_types, seating=state.seating, stakes=stakes
        )
    rows = [
        {"seat": seat, "cells": stake_cells(form, seat.seat, bet_types)} for seat in state.seats
    ]
    seat_menus = [(seat, guest_options(state.guests, seat.guest)) for seat in state.seats]
    context = {
        "state": state,
        "form": form,
        "rows": rows,
        "seat_menus": seat_menus,
        "bet_types": bet_types,
        "bet_labels": [_(bet.label) for bet in bet_types],
        "notice": notice,
        "refusal": refusal,
        "seating_open": seating_open or state.last_hand is None,
        "can_host": is_host(request.user),
        "chips": _chip_values(state.event),
        "ranks": RANKS,
        "board": scoreboard(shoe, link=hand_link),
        "deal": deal_panel(
            shoe,
            player_text=form["player_cards"].value() or "",
            banker_text=form["banker_cards"].value() or "",
        ),
    }
    template = "ledger/_table.html" if request.htmx else "ledger/shoe_table.html"
    return render(request, template, context)


def refill_notes(hand: HandSnapshot, seats: list[SeatState]) -> list[str]:
    """Where a bet of an undone hand went back to a seat someone else holds now (the seats as
    they stand play the hand again), or could not go back because the seat is empty."""
    now = {seat.seat: seat.guest for seat in seats}
    was = {bet["seat"]: (bet["guest_id"], bet["guest"]) for bet in hand["bets"]}
    notes = []
    for seat, (guest_id, name) in sorted(was.items()):
        guest = now.get(seat)
        if guest is None:
            notes.append(MSG_REFILL_SEAT_EMPTY.format(seat=seat, was=name))
        elif guest.pk != guest_id:
            notes.append(MSG_REFILL_SEAT_CHANGED.format(seat=seat, guest=guest.name, was=name))
    return notes


def guest_options(guests: list[Guest], seated: Guest | None) -> str:
    """A seat's guest menu. Seven menus of every guest on the list, built here rather than in the
    template, where they were a third of the table's render time."""
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((guest.pk, " selected" if guest == seated else "", guest.name) for guest in guests),
    )


def _chip_values(event: Event) -> list[int]:
    base = max(int(event.table_min), 1)
    return [
        value
        for value in (base, base * 2, base * 5, base * 10, base * 50)
        if value <= event.table_max
    ]


@table_staff_required
@require_GET
def shoe_table(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """The table; ``?refill=<undo>`` (where an undo without JavaScript lands) puts the undone
    hand back into the entry while it is still the next hand of this shoe."""
    shoe = _get_shoe(shoe_id)
    if "refill" in request.GET:
        revision = get_object_or_404(
            HandRevision,
            pk=id_or_none(request.GET["refill"]),
            shoe=shoe,
            kind=HandRevision.Kind.UNDO,
        )
        if shoe.is_open and shoe.event.is_open:
            if revision.hand_number == services.next_hand_number(shoe):
                return _render_table(request, shoe, refill=revision)
            stale = MSG_REFILL_STALE.format(number=revision.hand_number)
            return _render_table(request, shoe, refusal=stale)
    return _render_table(request, shoe, repeat=request.GET.get("repeat") == "1")


def _after_write(
    request: AuthenticatedHttpRequest, shoe: Shoe, notice: str, *, seating_open: bool = False
) -> HttpResponse:
    if request.htmx:
        return _render_table(request, shoe, notice=notice, seating_open=seating_open)
    messages.success(request, notice)
    return redirect("ledger:shoe_table", shoe.pk)


@table_staff_required
@require_POST
def hand_record(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    shoe = _get_shoe(shoe_id)
    form = HandForm(request.POST, bet_types=shoe.event.rule_set.offered_bets)
    if form.is_valid():
        try:
            hand = services.hand_record(
                shoe=shoe,
                number=form.cleaned_data["number"],
                idempotency_key=form.cleaned_data["idempotency_key"],
                by=request.user,
                entry=form.entry(),
                seen_seating=form.cleaned_data["seating"],
            )
        except services.HandTaken as error:
            form = _redrawn(form, shoe, renumber=True)
            add_service_errors(form, error)
        except services.SeatingChanged as error:
            form = _redrawn(form, shoe)
            add_service_errors(form, error)
        except ValidationError as error:
            form.show_problems(error)
        else:
            return _after_write(request, shoe, _hand_notice(hand))
    return _render_table(request, shoe, form)


def _redrawn(form: HandForm, shoe: Shoe, *, renumber: bool = False) -> HandForm:
    """After the table changed under the page (another device took this hand number, or a seat
    changed hands): keep what was typed, but for the table as it is now — the next hand and a
    new submission when ``renumber`` — so that saving again is a deliberate act."""
    data = cast(QueryDict, form.data).copy()  # the form is the POST that hand_record got
    number = services.next_hand_number(shoe)
    data["seating"] = seating_token(seating_of(shoe, number))
    if renumber:
        data["number"] = str(number)
        data["idempotency_key"] = str(uuid.uuid4())
    redrawn = HandForm(data, bet_types=form.bet_types)
    redrawn.is_valid()
    return redrawn


def _hand_notice(hand: Hand) -> str:
    result = result_text(hand.outcome()).message(_)
    return _("Hand {number} saved: {result}").format(number=hand.number, result=result)


@table_staff_required
@require_POST
def seat_change(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    shoe = _get_shoe(shoe_id)
    seat = read_seat(request.POST.get("seat", ""))
    guest_text = request.POST.get("guest", "")
    guest_id = id_or_none(guest_text)
    if seat is None or (guest_text and guest_id is None):
        return _table_refusal(request, shoe, MSG_CHOOSE_SEAT)
    try:
        if guest_id is not None:
            guest = get_object_or_404(Guest, pk=guest_id)
            services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=request.user)
            notice = _("{guest} sits in seat {seat}.").format(guest=guest, seat=seat)
        else:
            services.seat_clear(shoe=shoe, seat=seat, by=request.user)
            notice = _("Seat {seat} is free.").format(seat=seat)
    except ValidationError as error:
        return _table_refusal(request, shoe, " ".join(error.messages))
    return _after_write(request, shoe, notice, seating_open=True)


def _table_refusal(
    request: AuthenticatedHttpRequest, shoe: Shoe, message: StrOrPromise
) -> HttpResponse:
    if request.htmx:
        return _render_table(request, shoe, refusal=message)
    messages.error(request, message)
    return redirect("ledger:shoe_table", shoe.pk)


@table_staff_required
@require_POST
def hand_undo(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """Take back the last hand and put its cards and bets back into the entry: with htmx in
    the page it answers; without, through ``?refill=`` on the table it redirects to."""
    shoe = _get_shoe(shoe_id)
    try:
        revision = services.hand_undo(shoe=shoe, by=request.user)
    except ValidationError as error:
        return _table_refusal(request, shoe, " ".join(error.messages))
    if request.htmx:
        return _render_table(request, shoe, refill=revision)
    table = reverse("ledger:shoe_table", args=[shoe.pk])
    return redirect(f"{table}?{urlencode({'refill': revision.pk})}")


@host_required
@require_http_methods(["GET", "POST"])
def shoe_close(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """GET asks first, saying what is still going on in the shoe; POST closes it."""
    shoe = _get_shoe(shoe_id)
    if request.method == "GET":
        if not shoe.is_open:
            return redirect("ledger:shoe_table", shoe.pk)
        context = {"shoe": shoe, "event": shoe.event, "open": shoe_open_things(shoe)}
        return render(request, "ledger/shoe_close.html", context)
    try:
        services.shoe_close(shoe=shoe, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("ledger:shoe_table", shoe.pk)
    messages.success(request, MSG_SHOE_CLOSED.format(number=shoe.number))
    return redirect("ledger:event_detail", shoe.event_id)


@host_required
@require_POST
def shoe_reopen(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    shoe = _get_shoe(shoe_id)
    try:
        services.shoe_reopen(shoe=shoe, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, MSG_SHOE_REOPENED.format(number=shoe.number))
    return redirect("ledger:shoe_table", shoe.pk)


@table_staff_required
@require_GET
def deal_helper(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """The card keypad's partial: the taps so far, plus one (``add``) or less one (``back``),
    read by the rules core; or, while cards are typed, what the typed cards say."""
    shoe = _get_shoe(shoe_id)
    deal = deal_panel(
        shoe,
        taps=request.GET.get("taps", ""),
        player_text=request.GET.get("player_cards", ""),
        banker_text=request.GET.get("banker_cards", ""),
        add=request.GET.get("add", ""),
        back="back" in request.GET,
    )
    return render(request, "ledger/_deal.html", {"deal": deal, "ranks": RANKS})


def deal_panel(
    shoe: Shoe,
    *,
    taps: str = "",
    player_text: str = "",
    banker_text: str = "",
    add: str = "",
    back: bool = False,
) -> dict[str, str | int]:
    """The keypad's state (the taps, in deal order) as the rules core reads it."""
    reading = press(taps.split(), player_text, banker_text, add=add, back=back,
                    decks=shoe.event.decks)  # fmt: skip
    if not reading.typed:
        player_text, banker_text = format_cards(reading.player), format_cards(reading.banker)
    return {
        "shoe_id": shoe.pk,
        "taps": taps if reading.typed and reading.problem else " ".join(reading.taps),
        "player_cards": player_text,
        "banker_cards": banker_text,
        "status": reading.status().message(_),
        "problem": reading.problem.message(_) if reading.problem else "",
    }


def hand_link(hand_id: int) -> str:
    return reverse("ledger:hand_detail", args=[hand_id])
