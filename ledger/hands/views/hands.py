"""A recorded hand: its bets, the history of its changes, and the host's correction."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.guest_banked.banque_drawing import TABLEAU
from games.guest_banked.chemin_drawing import PONTE
from games.models import Hand, Shoe
from games.payouts import BetType
from ledger.forms import add_service_errors, stake_text
from ledger.hands import services as hand_services
from ledger.hands.coup_forms import CoupCorrectionForm, coup_initial, coup_panel
from ledger.hands.coups import coup_of, previous_coup
from ledger.hands.forms import (
    CorrectionForm,
    HandForm,
    HandNumberForm,
    stake_cells,
    stake_field_name,
)
from ledger.hands.selectors import guests_at, hand_id_by_number, hand_index, hand_with_history
from ledger.models import Guest
from shoebook.base.roles import AuthenticatedHttpRequest, is_host, table_staff_required

MSG_NO_SUCH_HAND = gettext_lazy("Shoe {shoe} has no hand {number}: its hands are 1 to {last}.")
MSG_NO_HANDS_YET = gettext_lazy("Shoe {shoe} has no hands yet.")


@table_staff_required
def hand_detail(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("shoe__event", "logged_by"), pk=hand_id)
    event = hand.shoe.event
    bet_types = event.rule_set.offered_bets
    form: CorrectionForm | CoupCorrectionForm | None = None
    guests: dict[int, Guest] = {}
    if event.is_guest_banked or is_host(request.user):
        guests = guests_at(hand.shoe, hand.number)
    if is_host(request.user):
        if request.method == "POST":
            form = _correction_form(hand, request.POST, guests)
            if form.is_valid():
                try:
                    hand_services.hand_correct(
                        hand=hand,
                        reason=form.cleaned_data["reason"],
                        by=request.user,
                        entry=form.entry(),
                        version=form.cleaned_data["version"],
                    )
                except hand_services.HandChanged as error:
                    hand.refresh_from_db()
                    form = _against_current(form, hand, guests)
                    add_service_errors(form, error)
                except ValidationError as error:
                    form.show_problems(error)
                else:
                    messages.success(
                        request, _("Hand {number} corrected.").format(number=hand.number)
                    )
                    return redirect("ledger:hand_detail", hand.pk)
        else:
            form = _correction_form(hand, None, guests)
    elif request.method == "POST":
        raise PermissionDenied
    bets, revisions = hand_with_history(hand)
    context = {
        "hand": hand,
        "event": event,
        "outcome": hand.outcome(),
        "bets": bets,
        "revisions": revisions,
        "form": form,
        "table_url": reverse("ledger:shoe_table", args=[hand.shoe_id]),
        "hand_index": hand_index(hand.shoe_id, current=hand.number, coups=event.is_guest_banked),
    }
    if event.is_guest_banked:
        context |= _coup_context(hand, form, guests)
    else:
        context |= {
            "stake_rows": (
                _stake_rows(form, bet_types, guests, event.seat_numbers)
                if isinstance(form, CorrectionForm)
                else []
            ),
            "bet_labels": [_(bet.label) for bet in bet_types],
        }
    return render(request, "ledger/hands/hand_detail.html", context)


def _coup_context(
    hand: Hand, form: CorrectionForm | CoupCorrectionForm | None, guests: Mapping[int, Guest]
) -> dict[str, object]:
    """A coup's page: the coup as recorded (who banked, the covers, who held the cards, the
    choices, the cut, the move) and, for the host, its boxes to correct."""
    coup = coup_of(hand)
    context: dict[str, object] = {"coup": coup}
    if coup is not None:
        held = [coup.holder_seat, coup.second_holder_seat]
        labels = TABLEAU if coup.second_winner else (PONTE,)
        context["holders"] = [
            {"label": _(label), "seat": seat, "guest": guests.get(seat)}
            for label, seat in zip(labels, held, strict=False)
            if seat is not None
        ]
        if coup.suite_seat is not None:
            context["suite_guest"] = guests.get(coup.suite_seat)
    if isinstance(form, CoupCorrectionForm):
        previous = previous_coup(hand.shoe, hand.number)
        context["coup_panel"] = coup_panel(
            form,
            seats=[(seat, guests.get(seat)) for seat in hand.shoe.event.seat_numbers],
            suivi_seat=previous.suivi_seat if previous is not None else None,
            decks=hand.shoe.event.decks,
        )
    return context


def _correction_form(
    hand: Hand, data: QueryDict | None, guests: Mapping[int, Guest]
) -> CorrectionForm | CoupCorrectionForm:
    """The correction of a hand (``data``: as posted; else its boxes filled in from the hand as
    recorded): a coup's boxes for a guest-banked game, Punto Banco's else."""
    event = hand.shoe.event
    if event.is_guest_banked:
        if data is not None:
            return CoupCorrectionForm(data, game=event.game_kind)
        recorded = hand_services.hand_snapshot(hand, hand.bets.select_related("guest"))
        initial = coup_initial(recorded) | {"version": hand.version}
        return CoupCorrectionForm(initial=initial, game=event.game_kind)
    bet_types = event.rule_set.offered_bets
    if data is not None:
        return CorrectionForm(data, bet_types=bet_types, guests=guests)
    return CorrectionForm(initial=_correction_initial(hand), bet_types=bet_types, guests=guests)


def _against_current(
    form: CorrectionForm | CoupCorrectionForm, hand: Hand, guests: Mapping[int, Guest]
) -> CorrectionForm | CoupCorrectionForm:
    """The correction as typed, now made from the hand's current version: saving it again is a
    deliberate act, after looking at what changed."""
    data = cast(QueryDict, form.data).copy()
    data["version"] = str(hand.version)
    current = _correction_form(hand, data, guests)
    current.is_valid()
    return current


def _correction_initial(hand: Hand) -> dict[str, object]:
    initial: dict[str, object] = {
        "version": hand.version,
        "player_cards": hand.player_cards,
        "banker_cards": hand.banker_cards,
        "result": "" if hand.has_cards else hand.winner,
        "player_pair": hand.player_pair and not hand.has_cards,
        "banker_pair": hand.banker_pair and not hand.has_cards,
    }
    for bet in hand.bets.all():
        initial[stake_field_name(bet.seat, BetType(bet.bet_type))] = stake_text(bet.stake)
    return initial


def _stake_rows(
    form: HandForm,
    bet_types: tuple[BetType, ...],
    guests: Mapping[int, Guest],
    seats: range,
) -> list[dict[str, object]]:
    """Each seat's stake boxes, with the guest who sat there for the hand (``None``: empty)."""
    return [
        {"seat": seat, "guest": guests.get(seat), "cells": stake_cells(form, seat, bet_types)}
        for seat in seats
    ]


@table_staff_required
@require_GET
def hand_by_number(request: AuthenticatedHttpRequest, shoe_id: int, number: int) -> HttpResponse:
    """``/shoes/<id>/hands/<number>/``: the page of a shoe's hand by its number."""
    hand_id = hand_id_by_number(shoe_id, number)
    if hand_id is None:
        raise Http404
    return redirect("ledger:hand_detail", hand_id)


@table_staff_required
@require_GET
def hand_go(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """The "Go to hand [number]" form: that hand's page, or back where the form was, saying why
    not (a number that is no number, or a hand not played)."""
    shoe = get_object_or_404(Shoe, pk=shoe_id)
    form = HandNumberForm(request.GET)
    if not form.is_valid():
        return _not_gone(request, shoe, str(form.errors["number"][0]))
    number: int = form.cleaned_data["number"]
    hand_id = hand_id_by_number(shoe.pk, number)
    if hand_id is None:
        return _not_gone(request, shoe, _no_such_hand(shoe, number))
    return redirect("ledger:hand_detail", hand_id)


def _no_such_hand(shoe: Shoe, number: int) -> str:
    last = shoe.hands.count()
    if not last:
        return MSG_NO_HANDS_YET.format(shoe=shoe.number)
    return MSG_NO_SUCH_HAND.format(shoe=shoe.number, number=number, last=last)


def _not_gone(request: AuthenticatedHttpRequest, shoe: Shoe, message: str) -> HttpResponse:
    """Back to the hand whose page had the form (``at``, its number), else the table."""
    messages.error(request, message)
    at = HandNumberForm({"number": request.GET.get("at", "")})
    came_from = hand_id_by_number(shoe.pk, at.cleaned_data["number"]) if at.is_valid() else None
    if came_from is not None:
        return redirect("ledger:hand_detail", came_from)
    return redirect("ledger:shoe_table", shoe.pk)
