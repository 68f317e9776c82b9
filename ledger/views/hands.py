"""A recorded hand: its bets, the history of its changes, and the host's correction."""

from __future__ import annotations

from typing import cast

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.entry import SEATS
from games.models import Hand
from games.payouts import BetType
from ledger import services
from ledger.forms import (
    CorrectionForm,
    HandForm,
    add_service_errors,
    stake_cells,
    stake_field_name,
    stake_text,
)
from ledger.selectors import hand_with_history
from shoebook.roles import AuthenticatedHttpRequest, is_host, table_staff_required


@table_staff_required
def hand_detail(request: AuthenticatedHttpRequest, hand_id: int) -> HttpResponse:
    hand = get_object_or_404(Hand.objects.select_related("shoe__event", "logged_by"), pk=hand_id)
    event = hand.shoe.event
    bet_types = event.rule_set.offered_bets
    form: CorrectionForm | None = None
    if is_host(request.user):
        if request.method == "POST":
            form = CorrectionForm(request.POST, bet_types=bet_types)
            if form.is_valid():
                try:
                    services.hand_correct(
                        hand=hand,
                        reason=form.cleaned_data["reason"],
                        by=request.user,
                        entry=form.entry(),
                        version=form.cleaned_data["version"],
                    )
                except services.HandChanged as error:
                    hand.refresh_from_db()
                    form = _against_current(form, hand)
                    add_service_errors(form, error)
                except ValidationError as error:
                    form.show_problems(error)
                else:
                    messages.success(
                        request, _("Hand {number} corrected.").format(number=hand.number)
                    )
                    return redirect("ledger:hand_detail", hand.pk)
        else:
            form = CorrectionForm(initial=_correction_initial(hand), bet_types=bet_types)
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
        "stake_rows": _stake_rows(form, bet_types) if form else [],
        "bet_labels": [_(bet.label) for bet in bet_types],
        "table_url": reverse("ledger:shoe_table", args=[hand.shoe_id]),
    }
    return render(request, "ledger/hand_detail.html", context)


def _against_current(form: CorrectionForm, hand: Hand) -> CorrectionForm:
    """The correction as typed, now made from the hand's current version: saving it again is a
    deliberate act, after looking at what changed."""
    data = cast(QueryDict, form.data).copy()
    data["version"] = str(hand.version)
    current = CorrectionForm(data, bet_types=form.bet_types)
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


def _stake_rows(form: HandForm, bet_types: tuple[BetType, ...]) -> list[dict[str, object]]:
    return [{"seat": seat, "cells": stake_cells(form, seat, bet_types)} for seat in SEATS]
