"""The live table: bets, the result (cards tapped or typed, or the outcome), seats, undo."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import cast
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_stubs_ext import StrOrPromise

from games.cards import RANKS, format_cards, parse_card
from games.entry import (
    BANKER,
    CARD_NAMES,
    MSG_BANKER_DRAWS,
    MSG_NO_RESULT,
    MSG_NOT_A_NUMBER,
    MSG_NOT_UNIT,
    MSG_ON_SEAT,
    MSG_OVER_MAXIMUM,
    MSG_OVER_STACK,
    MSG_PLAYER_DRAWS,
    MSG_SHORT_STACK_ALL_IN,
    MSG_SHORT_STACK_OUT,
    MSG_TAP_NEXT,
    MSG_TAP_START,
    MSG_TIE,
    MSG_TIE_NATURAL,
    MSG_TYPED_OUT_OF_ORDER,
    MSG_UNDER_MINIMUM,
    MSG_WINS,
    MSG_WINS_NATURAL,
    PLAYER,
    TapReading,
    press,
    read_seat,
    read_taps,
    result_text,
)
from games.kinds import BankRotation, ShortStack
from games.messages import format_chips
from games.models import Event, Hand, Shoe
from games.payouts import BetType
from games.rules import tableau
from games.scoreboard import scoreboard, shoe_marks
from ledger.forms import add_service_errors, stake_text
from ledger.hands import hot_reads
from ledger.hands import services as hand_services
from ledger.hands.coup_forms import BankPrefill, CoupForm, bank_prefill, coup_panel
from ledger.hands.coups import previous_coup
from ledger.hands.forms import HandForm, seating_token, stake_cells, stake_field_name
from ledger.hands.selectors import (
    SeatState,
    TableState,
    facts_stamp,
    hand_index_of,
    seat_totals,
    seating_of,
    shoe_so_far,
    table_state,
    table_state_after,
)
from ledger.hands.services import HandSnapshot
from ledger.models import Bet, Guest, HandRevision
from ledger.money.results import seated_over_limit
from ledger.nights import services as night_services
from ledger.nights.selectors import shoe_open_things
from ledger.templatetags.hand_links import hand_address
from shoebook.base.converters import id_or_none
from shoebook.base.roles import (
    AuthenticatedHttpRequest,
    host_required,
    is_host,
    table_staff_required,
)

MSG_CHOOSE_SEAT = gettext_lazy("Choose a seat and a guest.")
MSG_SEATED = gettext_lazy("{guest} sits in seat {seat}.")
MSG_SEATED_REPLACING = gettext_lazy("{guest} sits in seat {seat}; {other} leaves the table.")
MSG_MOVED = gettext_lazy("{guest} moves from seat {old} to seat {seat}; seat {old} is now empty.")
MSG_SWAPPED_OUT = gettext_lazy(
    "{guest} moves from seat {old} to seat {seat}; {other} leaves the table and seat {old} is "
    "now empty."
)
MSG_SEAT_FREE = gettext_lazy("Seat {seat} is free.")

# The stake columns' headings on a phone; the full name is the heading's title.
BET_SHORT_LABELS = {
    BetType.PLAYER: gettext_noop("P"),
    BetType.BANKER: gettext_noop("B"),
    BetType.TIE: gettext_noop("T"),
    BetType.PLAYER_PAIR: gettext_noop("PP"),
    BetType.BANKER_PAIR: gettext_noop("BP"),
    BetType.DRAGON_BONUS_PLAYER: gettext_noop("DB·P"),
    BetType.DRAGON_BONUS_BANKER: gettext_noop("DB·B"),
    BetType.DRAGON_7: gettext_noop("D7"),
    BetType.PANDA_8: gettext_noop("P8"),
}
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
MSG_UNDO_KEY_UNREADABLE = gettext_lazy("This page's undo is unreadable: reload the page.")
MSG_SHOE_CLOSED = gettext_lazy("Shoe {number} closed.")
MSG_SHOE_REOPENED = gettext_lazy("Shoe {number} is open again.")
STAKE_TEXT_LENGTH = 20  # what a link may put in a stake box (the pipeline reads it on saving)


def _get_shoe(shoe_id: int) -> Shoe:
    shoe = hot_reads.shoe_with_event(shoe_id)
    if shoe is None:
        raise Http404
    return shoe


def _render_table(
    request: AuthenticatedHttpRequest,
    shoe: Shoe,
    form: HandForm | CoupForm | None = None,
    *,
    repeat: bool = False,
    notice: str = "",
    refusal: StrOrPromise = "",
    seating_open: bool = False,
    seated_at: int | None = None,
    saved_number: int | None = None,
    refill: HandRevision | None = None,
    typed: Mapping[str, str] | None = None,
    seat_changes: tuple[hand_services.SeatChange, ...] = (),
    taken: Hand | None = None,
) -> HttpResponse:
    """The table page (the ``#table`` partial for htmx). ``refill``: an undo whose hand goes
    back into the entry, to fix and save again; ``typed``: stake boxes filled in as if typed
    (by name), to be checked when the hand is saved. A guest-banked
    game's table takes a coup instead of Punto Banco's bets (:func:`_coup_context`)."""
    facts_at = facts_stamp()  # before the facts are read: a page never claims newer ones
    state = table_state(shoe)
    if state.event.is_guest_banked:
        coup_form = form if isinstance(form, CoupForm) else None
        context, undone = _coup_context(state, coup_form, refill)
    else:
        hand_form = form if isinstance(form, HandForm) else None
        context, undone = _bets_context(
            state,
            hand_form,
            repeat=repeat,
            refill=refill,
            typed=typed,
        )
    notice = undone or notice
    seat_of = {seat.guest.pk: seat.seat for seat in state.seats if seat.guest is not None}
    context |= _over_limit_context(state) | {
        "state": state,
        "pick_seat": free_seat(state.seats, after=seated_at),
        "seat_guests": [(guest, seat_of.get(guest.pk)) for guest in state.guests],
        "notice": notice,
        "saved_number": saved_number,
        "refusal": refusal,
        "seating_open": seating_open or not state.seating,
        "seating_token": seating_token(state.seating),
        "can_host": is_host(request.user),
        "facts_at": facts_at,
        "seat_changes": seat_changes,
        "taken_hand": _taken_summary(taken) if taken is not None else None,
        **_board_context(shoe),
    }
    template = "ledger/hands/_table.html" if request.htmx else "ledger/hands/shoe_table.html"
    return render(request, template, context)


def _over_limit_context(state: TableState) -> dict[str, object]:
    """The seated guests past their credit limit, in seat order."""
    seat_of = {seat.guest.pk: seat.seat for seat in state.seats if seat.guest is not None}
    over_limit = seated_over_limit(state.event, [seat.guest for seat in state.seats if seat.guest])
    return {
        "over_limit": [
            {"guest": guest, "seat": seat_of[guest.pk], "balance": balance}
            for guest, balance in sorted(over_limit, key=lambda item: seat_of[item[0].pk])
        ],
        "over_limit_ids": {guest.pk for guest, _balance in over_limit},
    }


def _board_context(shoe: Shoe) -> dict[str, object]:
    """The scoreboard and the index of every hand: what grows with the shoe."""
    marks, ids = shoe_marks(shoe)  # one read of the shoe's hands, for both
    return {
        "board": scoreboard(shoe, link=hand_address(), read=(marks, ids)),
        "hand_index": hand_index_of(shoe.pk, marks, ids, coups=shoe.event.is_guest_banked),
    }


def _table_board(request: AuthenticatedHttpRequest, shoe: Shoe) -> HttpResponse:
    """What a save's answer leaves out, asked for by the page's script right after: what grows
    with the shoe — the scoreboard, the latest hands, the index of every hand and each seat's
    total over the shoe; and the table's facts as they are (another phone's hand or seat change
    pushed to this one: the next hand, the seats, what Repeat fills in)."""
    facts_at = facts_stamp()
    recent = shoe_so_far(shoe)
    context = _board_context(shoe) | {
        "recent": recent,
        "can_host": is_host(request.user),
        "seats": seat_totals(shoe, recent.next_number),
        "facts": _board_facts(shoe, recent.next_number, facts_at),
    }
    return render(request, "ledger/hands/_table_board.html", context)


def _board_facts(shoe: Shoe, number: int, facts_at: int) -> dict[str, object]:
    """The next hand, the last, the seats (``seating_token``) and the last hand's stakes for
    the guests still in their seats (what Repeat fills in): two reads, however long the shoe."""
    seating = seating_of(shoe, number)
    offered = {kind.value for kind in BetType}
    repeat = {
        stake_field_name(bet.seat, BetType(bet.bet_type)): stake_text(bet.stake)
        for bet in Bet.objects.filter(hand__shoe=shoe, hand__number=number - 1).order_by("pk")
        if bet.bet_type in offered and seating.get(bet.seat) == bet.guest_id
    }
    return {
        "next": number,
        "last": number - 1,
        "seating": seating_token(seating),
        "at": facts_at,
        "repeat": repeat,
    }


def _coup_context(
    state: TableState, form: CoupForm | None, refill: HandRevision | None
) -> tuple[dict[str, object], str]:
    """The entry of a guest-banked game's coup: the bank as the coup before leaves it, a stake
    per seat, the cards and the choices the rules give, the banker's move; and what an undo
    that put its coup back in the entry says."""
    event = state.event
    previous = previous_coup(state.shoe, state.next_number)
    occupied = [seat.seat for seat in state.seats if seat.guest is not None]
    prefill = bank_prefill(event.game_kind, previous, occupied, BankRotation(event.bank_rotation))
    undone = ""
    if form is None and refill is not None:
        hand = cast(HandSnapshot, refill.before)
        form = CoupForm.refilled(hand, game=event.game_kind, seating=state.seating)
        undone = _undone_notice(refill, hand, state.seats)
    if form is None:
        form = CoupForm.fresh(
            game=event.game_kind, number=state.next_number, seating=state.seating, prefill=prefill
        )
    panel = coup_panel(
        form,
        seats=[(seat.seat, seat.guest) for seat in state.seats],
        suivi_seat=prefill.suivi_seat,
        decks=event.decks,
        note=prefill.note,
    )
    context = {
        "form": form,
        "coup": panel,
        "coup_prefill": coup_prefill_data(state.next_number, prefill),
        "keypad": coup_rules(event.decks),
    }
    return context, undone


def coup_prefill_data(number: int, prefill: BankPrefill) -> dict[str, object]:
    """The bank of coup ``number`` as the coup before leaves it, for the table's script: it
    fills the boxes the host has not touched, and sends a coup saved before it came with it."""
    return {
        "next": number,
        "banker_seat": str(prefill.banker_seat or ""),
        "bank": stake_text(prefill.bank) if prefill.bank is not None else "",
        "co_banker_seat": str(prefill.co_banker_seat or ""),
        "note": prefill.note,
    }


def _prefill_reply(shoe: Shoe) -> JsonResponse:
    """``?part=prefill``: the next coup's bank alone, asked by the script when another screen
    saved a coup (the table's stream says so, without the bank)."""
    if not shoe.event.is_guest_banked:
        raise Http404
    facts_at = facts_stamp()  # read before the shoe: anything newer is newer than these
    state = table_state(shoe)
    previous = previous_coup(state.shoe, state.next_number)
    occupied = [seat.seat for seat in state.seats if seat.guest is not None]
    prefill = bank_prefill(
        state.event.game_kind, previous, occupied, BankRotation(state.event.bank_rotation)
    )
    return JsonResponse(coup_prefill_data(state.next_number, prefill) | {"at": facts_at})


def _undone_notice(refill: HandRevision, hand: HandSnapshot, seats: list[SeatState]) -> str:
    undone = MSG_HAND_UNDONE.format(number=refill.hand_number)
    return " ".join([undone, *refill_notes(hand, seats)])


def _bets_context(
    state: TableState,
    form: HandForm | None,
    *,
    repeat: bool,
    refill: HandRevision | None,
    typed: Mapping[str, str] | None,
) -> tuple[dict[str, object], str]:
    """Punto Banco's entry: a stake box per seat and bet, the card keypad, the result; and
    what an undo that put its hand back in the entry says."""
    bet_types = state.event.rule_set.offered_bets
    undone = ""
    if form is None and refill is not None:
        hand = cast(HandSnapshot, refill.before)
        form = HandForm.refilled(hand, bet_types=bet_types, seating=state.seating)
        undone = _undone_notice(refill, hand, state.seats)
    if form is None:
        stakes = state.repeat_stakes() if repeat else None
        form = HandForm.fresh(
            number=state.next_number,
            bet_types=bet_types,
            seating=state.seating,
            stakes=stakes,
        )
        form.initial.update(
            (name, text[:STAKE_TEXT_LENGTH])
            for name, text in (typed or {}).items()
            if name.startswith("stake_") and name in form.fields
        )
    rows = [
        {"seat": seat, "cells": stake_cells(form, seat.seat, bet_types)} for seat in state.seats
    ]
    context: dict[str, object] = {
        "form": form,
        "rows": rows,
        "bet_columns": [
            {"label": _(bet.label), "short": _(BET_SHORT_LABELS[bet]), "value": bet.value}
            for bet in bet_types
        ],
        "chips": _chip_values(state.event),
        "ranks": RANKS,
        "keypad": keypad_rules(state.event.decks) | {"limits": phone_limits(state)},
        # Repeat fills these in the page at once: a tap made meanwhile is never swapped away.
        "repeat_stakes": _repeat_stakes(state),
        "deal": deal_panel(
            state.shoe,
            player_text=form["player_cards"].value() or "",
            banker_text=form["banker_cards"].value() or "",
        ),
    }
    return context, undone


def free_seat(seats: list[SeatState], *, after: int | None = None) -> int:
    """The seat quick seating offers next: the first empty one after the seat just filled (round
    the table), or the seat just filled when the table is full; seat 1 on a full table."""
    start = after or 0
    order = [*range(start + 1, len(seats) + 1), *range(1, start + 1)]
    empty = {seat.seat for seat in seats if seat.guest is None}
    return next((number for number in order if number in empty), after or 1)


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
    hand back into the entry while it is still the next hand of this shoe; ``?stake_3_banker=10``
    fills that stake box as if typed (a tournament's mandatory minimum, without JavaScript)."""
    shoe = _get_shoe(shoe_id)
    if request.GET.get("part") == "board":
        return _table_board(request, shoe)
    if request.GET.get("part") == "prefill":
        return _prefill_reply(shoe)
    if "refill" in request.GET:
        revision = get_object_or_404(
            HandRevision,
            pk=id_or_none(request.GET["refill"]),
            shoe=shoe,
            kind=HandRevision.Kind.UNDO,
        )
        if shoe.is_open and shoe.event.is_open:
            if revision.hand_number == hand_services.next_hand_number(shoe):
                return _render_table(request, shoe, refill=revision)
            stale = MSG_REFILL_STALE.format(number=revision.hand_number)
            return _render_table(request, shoe, refusal=stale)
    seated_at = read_seat(request.GET.get("seat", ""))
    return _render_table(
        request,
        shoe,
        repeat=request.GET.get("repeat") == "1",
        seating_open=seated_at is not None,
        seated_at=seated_at,
        typed=request.GET,
    )


def _after_write(
    request: AuthenticatedHttpRequest,
    shoe: Shoe,
    notice: str,
    *,
    seated_at: int | None = None,
    saved_number: int | None = None,
) -> HttpResponse:
    if request.htmx:
        response = _render_table(
            request,
            shoe,
            notice=notice,
            seating_open=seated_at is not None,
            seated_at=seated_at,
            saved_number=saved_number,
        )
        if saved_number is not None:
            # What the page's outbox reads to know the hand is recorded (a refusal has none).
            response["Shoebook-Hand-Saved"] = str(saved_number)
        return response
    messages.success(request, notice)
    if seated_at is not None:
        return redirect(reverse("ledger:shoe_table", args=[shoe.pk]) + f"?seat={seated_at}")
    return redirect("ledger:shoe_table", shoe.pk)


@table_staff_required
@require_POST
def hand_record(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    shoe = _get_shoe(shoe_id)
    form = _entry_form(shoe, _with_seat_choices(request.POST))
    seat_changes: tuple[hand_services.SeatChange, ...] = ()
    taken: Hand | None = None
    if form.is_valid():
        try:
            recorded = hand_services.record_hand(
                shoe=shoe,
                number=form.cleaned_data["number"],
                idempotency_key=form.cleaned_data["idempotency_key"],
                by=request.user,
                entry=form.entry(),
                seen_seating=form.cleaned_data["seating"],
            )
        except hand_services.HandTaken as error:
            form = _redrawn(form, shoe, renumber=True)
            add_service_errors(form, error)
            taken = error.hand
        except hand_services.SeatingChanged as error:
            if isinstance(form, CoupForm):
                form = _redrawn(form, shoe)
                add_service_errors(form, error)
            else:
                # The seats the bets were made with stay in the form: saving again as it stands
                # is refused again; the host chooses, per seat, who the bet is for
                # (``seat_choice_N``, ``_with_seat_choices``).
                form = _redrawn(form, shoe, seats_as_seen=True)
                seat_changes = error.changes
        except ValidationError as error:
            form.show_problems(error)
        else:
            coup = shoe.event.is_guest_banked
            hand, notice = recorded.hand, _hand_notice(recorded.hand, coup=coup)
            seen = form.cleaned_data["seating"]
            if request.htmx and _answers_with_changes(shoe.event, recorded, seen):
                return _saved_reply(request, shoe, recorded, notice)
            return _after_write(request, shoe, notice, saved_number=hand.number)
    return _render_table(request, shoe, form, seat_changes=seat_changes, taken=taken)


def _digits(text: str) -> bool:
    """0-9 only: ``isdigit`` takes ① and ², which ``int`` refuses."""
    return text.isascii() and text.isdigit()


def _with_seat_choices(data: QueryDict) -> QueryDict:
    """The POST with the host's choice for each seat whose guest changed under the hand:
    ``seat_choice_N=drop`` drops seat N's bets; ``seat_choice_N=move:G`` gives them to guest G,
    the guest the refusal showed there (if someone else sits there by now, it is refused again)."""
    choices = {key: value for key, value in data.items() if key.startswith("seat_choice_")}
    if not choices:
        return data
    changed = data.copy()
    token = str(changed.get("seating", ""))
    seating = dict(pair.split(":", 1) for pair in token.split() if ":" in pair)
    for key, posted in choices.items():
        choice = str(posted)
        seat = key.removeprefix("seat_choice_")
        if not _digits(seat):
            continue
        if choice == "drop":
            for name in [name for name in changed if name.startswith(f"stake_{seat}_")]:
                del changed[name]
        elif choice.startswith("move:") and _digits(choice[5:]):
            seating[seat] = choice[5:]
        del changed[key]
    changed["seating"] = " ".join(
        f"{seat}:{guest}"
        for seat, guest in sorted(
            seating.items(), key=lambda pair: int(pair[0]) if _digits(pair[0]) else 0
        )
    )
    return changed


def _taken_summary(hand: Hand) -> dict[str, object]:
    """Another device's hand under the number a refused hand had, as the host compares it with
    their own: its number, result, cards and bets (seat, bet, stake, guest)."""
    bets = [
        {
            "seat": bet.seat,
            "kind": bet.get_bet_type_display(),
            "stake": stake_text(bet.stake),
            "guest": bet.guest.name,
        }
        for bet in hand.bets.select_related("guest").order_by("seat", "pk")
    ]
    return {
        "number": hand.number,
        "result": result_text(hand.outcome(), coup=False).message(_),
        "player": hand.player_cards,
        "banker": hand.banker_cards,
        "bets": bets,
        "by": str(hand.logged_by),
    }


def _answers_with_changes(
    event: Event, recorded: hand_services.RecordedHand, seen: Mapping[int, int] | None
) -> bool:
    """Whether the page's script takes a save's answer as the parts the hand changed: a
    house-banked night's table does, when the seats are still those the page was drawn with
    (else its rows of stake boxes are stale, and it is drawn whole). A tournament's table and a
    guest-banked game's are always drawn whole."""
    if event.kind != Event.Kind.CASH or event.is_guest_banked:
        return False
    now = {seat: guest.pk for seat, guest in (recorded.seated or {}).items()}
    return recorded.seated is not None and seen == now


def _saved_reply(
    request: AuthenticatedHttpRequest, shoe: Shoe, recorded: hand_services.RecordedHand, notice: str
) -> HttpResponse:
    """A saved hand's answer to the table's script: only what the hand changed — each seat's
    result, the last hand, the reminders, the next hand's number and what Repeat fills in, the
    undo button, each seat's total over the shoe — each part with the id of the part of the page
    it replaces. The entry moves on to the next hand in the page; the scoreboard, the latest
    hands and the index of every hand follow in a request of their own (``?part=board``)."""
    hand, bets, seated = recorded.hand, recorded.bets or [], recorded.seated or {}
    state = table_state_after(shoe, hand, bets, seated)
    # Each seat's total over the shoe moves with the hand that changed it (one sum), not a
    # board later: the board of the hand before may still be on its way.
    nets = hot_reads.shoe_nets(shoe.pk)
    for seat in state.seats:
        if seat.guest is not None:
            seat.shoe_net = nets.get(seat.guest.pk, Decimal(0))
    context = _over_limit_context(state) | {
        "state": state,
        "facts_at": facts_stamp(),
        "notice": notice,
        "saved_number": hand.number,
        "can_host": is_host(request.user),
        "repeat_stakes": _repeat_stakes(state),
    }
    response = render(request, "ledger/hands/_hand_saved.html", context)
    response["Shoebook-Hand-Saved"] = str(hand.number)
    response["Shoebook-Table-Part"] = "saved"
    return response


def _repeat_stakes(state: TableState) -> dict[str, str]:
    return {
        stake_field_name(seat, bet): stake_text(amount)
        for (seat, bet), amount in state.repeat_stakes().items()
    }


def _entry_form(shoe: Shoe, data: QueryDict) -> HandForm | CoupForm:
    """The entry a POST fills in: a coup for a guest-banked game, Punto Banco's hand else."""
    event = shoe.event
    if event.is_guest_banked:
        return CoupForm(data, game=event.game_kind)
    return HandForm(data, bet_types=event.rule_set.offered_bets)


def _redrawn(
    form: HandForm | CoupForm, shoe: Shoe, *, renumber: bool = False, seats_as_seen: bool = False
) -> HandForm | CoupForm:
    """After the table changed under the page (another device took this hand number, or a seat
    changed hands): keep what was typed, but for the table as it is now — the next hand and a
    new submission when ``renumber`` — so that saving again is a deliberate act. With
    ``seats_as_seen`` the seats stay those the bets were made with (the host chooses per seat)."""
    data = cast(QueryDict, form.data).copy()  # the form is the POST that hand_record got
    number = hand_services.next_hand_number(shoe)
    if not seats_as_seen:
        data["seating"] = seating_token(seating_of(shoe, number))
    if renumber:
        data["number"] = str(number)
        data["idempotency_key"] = str(uuid.uuid4())
    redrawn = _entry_form(shoe, data)
    redrawn.is_valid()
    return redrawn


def _hand_notice(hand: Hand, *, coup: bool = False) -> str:
    result = result_text(hand.outcome(), coup=coup).message(_)
    if coup:
        return _("Coup {number} saved: {result}").format(number=hand.number, result=result)
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
            before = seating_of(shoe, hand_services.next_hand_number(shoe))
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=request.user)
            notice = _seating_notice(before, guest, seat)
        else:
            hand_services.seat_clear(shoe=shoe, seat=seat, by=request.user)
            notice = MSG_SEAT_FREE.format(seat=seat)
    except ValidationError as error:
        return _table_refusal(request, shoe, " ".join(error.messages))
    return _after_write(request, shoe, notice, seated_at=seat)


def _seating_notice(before: dict[int, int], guest: Guest, seat: int) -> str:
    """What a seat change did, said in full: who moved from where, who left the table."""
    old = next((number for number, guest_id in before.items() if guest_id == guest.pk), None)
    other_id = before.get(seat)
    if old == seat:
        return MSG_SEATED.format(guest=guest, seat=seat)
    other = Guest.objects.filter(pk=other_id).first() if other_id is not None else None
    if old is not None:
        template = MSG_SWAPPED_OUT if other else MSG_MOVED
        return template.format(guest=guest, old=old, seat=seat, other=other)
    if other is not None:
        return MSG_SEATED_REPLACING.format(guest=guest, seat=seat, other=other)
    return MSG_SEATED.format(guest=guest, seat=seat)


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
        number = _undo_number(request.POST.get("number", ""))
        key = _undo_key(request.POST.get("idempotency_key", ""))
        revision = hand_services.hand_undo(
            shoe=shoe, by=request.user, number=number, idempotency_key=key
        )
    except ValidationError as error:
        return _table_refusal(request, shoe, " ".join(error.messages))
    if request.htmx:
        return _render_table(request, shoe, refill=revision)
    table = reverse("ledger:shoe_table", args=[shoe.pk])
    return redirect(f"{table}?{urlencode({'refill': revision.pk})}")


def _undo_number(text: str) -> int | None:
    """The hand the page means to undo. None only when the form names none (the last hand, as
    ever); a number that cannot be read is refused, never taken for "the last hand"."""
    if not text:
        return None
    number = id_or_none(text)
    if number is None:
        raise ValidationError(MSG_UNDO_KEY_UNREADABLE)
    return number


def _undo_key(text: str) -> uuid.UUID | None:
    """An undo's idempotency key (the table's script sends one; a form without it has none)."""
    if not text:
        return None
    try:
        return uuid.UUID(text)
    except ValueError:
        raise ValidationError(MSG_UNDO_KEY_UNREADABLE) from None


@host_required
@require_http_methods(["GET", "POST"])
def shoe_close(request: AuthenticatedHttpRequest, shoe_id: int) -> HttpResponse:
    """GET asks first, saying what is still going on in the shoe; POST closes it."""
    shoe = _get_shoe(shoe_id)
    if request.method == "GET":
        if not shoe.is_open:
            return redirect("ledger:shoe_table", shoe.pk)
        context = {"shoe": shoe, "event": shoe.event, "open": shoe_open_things(shoe)}
        return render(request, "ledger/nights/shoe_close.html", context)
    try:
        night_services.shoe_close(shoe=shoe, by=request.user)
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
        night_services.shoe_reopen(shoe=shoe, by=request.user)
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
    if request.GET.get("taps") and not ({"add", "back"} & request.GET.keys()):
        # The page's own state: every tap so far, read afresh (what the page's script sends).
        reading = read_taps(request.GET["taps"].split(), decks=shoe.event.decks)
        return render(
            request,
            "ledger/hands/_deal.html",
            {"deal": _deal_context(shoe, reading), "ranks": RANKS},
        )
    deal = deal_panel(
        shoe,
        taps=request.GET.get("taps", ""),
        player_text=request.GET.get("player_cards", ""),
        banker_text=request.GET.get("banker_cards", ""),
        add=request.GET.get("add", ""),
        back="back" in request.GET,
    )
    return render(request, "ledger/hands/_deal.html", {"deal": deal, "ranks": RANKS})


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
    reading = press(
        taps.split(), player_text, banker_text, add=add, back=back, decks=shoe.event.decks
    )
    deal = _deal_context(shoe, reading)
    if reading.typed:
        deal |= {"player_cards": player_text, "banker_cards": banker_text}
        if reading.problem:
            deal["taps"] = taps
    return deal


def _deal_context(shoe: Shoe, reading: TapReading) -> dict[str, str | int]:
    return {
        "shoe_id": shoe.pk,
        "taps": " ".join(reading.taps),
        "player_cards": format_cards(reading.player),
        "banker_cards": format_cards(reading.banker),
        "status": reading.status().message(_),
        "problem": reading.problem.message(_) if reading.problem else "",
    }


MSG_SENDING = gettext_lazy("Hand {number}: sending…")
MSG_REFUSED = gettext_lazy("The server refused it.")
MSG_REFUSED_STATUS = gettext_lazy("The server refused it (error {status}): reload the page.")
MSG_WAITS_FOR_HELD = gettext_lazy("Hand {number} waits: decide on the refused hand above first.")
MSG_OTHER_TAB = gettext_lazy(
    "This table is open in another tab on this device: enter the hands there. This one takes "
    "over when that one closes."
)
MSG_SERVER_FAILED = gettext_lazy("The server failed to answer: trying again in a few seconds.")
MSG_CLEAR_TAKEN_BACK = gettext_lazy("Let go of hand {number}? It will not be recorded.")
MSG_SEAT_WAITING = gettext_lazy("Seat {seat}: waiting to send.")
MSG_UNDO_WAITING = gettext_lazy("Undo of hand {number}: waiting to send.")
MSG_UNDO = gettext_lazy("Undo hand {number}")
MSG_UNDO_CONFIRM = gettext_lazy("Undo hand {number}?")
MSG_UNDO_MOVED = gettext_lazy("The last hand has changed: look at Undo's label and try again.")
MSG_UNDOING = gettext_lazy("Undoing hand {number}…")
MSG_UNDO_ON_ITS_WAY = gettext_lazy(
    "Hand {number} is on its way to the server: undo it once its answer comes."
)
MSG_UNDONE_HERE = gettext_lazy("Hand {number} taken back off this device: fix it and save again.")
MSG_UNDO_PARKED = gettext_lazy("Save or clear hand {number} in the entry before undoing another.")
MSG_UNDO_AFTER_HELD = gettext_lazy("Decide on the refused hand above before undoing.")
MSG_SAVE_AFTER_UNDO = gettext_lazy(
    "The undo of hand {number} is waiting for its answer: save after it."
)
MSG_HELD_REFUSED = gettext_lazy("Hand {number} from this phone was refused: {reason}")
MSG_HELD_UNDONE = gettext_lazy("Hand {number} was undone while the entry was in use.")
MSG_HELD_RESEND = gettext_lazy("Save again as hand {number}")
MSG_HELD_RENUMBER = gettext_lazy("Save mine as hand {number}")
MSG_HELD_MINE = gettext_lazy("This phone's hand {number}:")
MSG_HELD_OTHER = gettext_lazy("Hand {number} as recorded first:")
MSG_HELD_SEAT_CHANGED = gettext_lazy("Seat {seat}: {bets} was bet by {was}; {now} sits there now.")
MSG_HELD_SEAT_MOVE = gettext_lazy("The bet is {guest}'s")
MSG_HELD_SEAT_DROP = gettext_lazy("Drop the bet")
MSG_HELD_CHOOSE_SEAT = gettext_lazy("Choose, for each seat, who the bet is for, then save again.")
MSG_HELD_EDIT = gettext_lazy("Fix in the entry")
MSG_HELD_DISCARD = gettext_lazy("Discard")
MSG_DISCARD_CONFIRM = gettext_lazy("Discard this hand? It will not be recorded.")
MSG_EDIT_AFTER_ENTRY = gettext_lazy("Save or clear the hand in the entry first.")
MSG_EMPTY_SEAT = gettext_lazy("empty")
MSG_CHECKING = gettext_lazy("Checking the cards…")
MSG_OFFLINE_CARDS = gettext_lazy("Offline: the cards are checked when the hand is sent.")
MSG_PICK_A_BOX = gettext_lazy("Tap a stake box first, then the chips.")
MSG_WAITING = gettext_lazy("Hand {number}: waiting to send.")
MSG_QUEUED = gettext_lazy(
    "Hand {number} kept on this device: it is sent when the connection returns."
)
MSG_LOG_IN_AGAIN = gettext_lazy("Log in again to send the hands waiting on this device.")


# The same words for a coup (Chemin de fer, Baccara banque), by the names the script reads.
MSG_COUP_SENDING = gettext_lazy("Coup {number}: sending…")
MSG_COUP_WAITING = gettext_lazy("Coup {number}: waiting to send.")
MSG_COUP_QUEUED = gettext_lazy(
    "Coup {number} kept on this device: it is sent when the connection returns."
)
MSG_COUP_WAITS_FOR_HELD = gettext_lazy(
    "Coup {number} waits: decide on the refused coup above first."
)
MSG_COUP_HELD_REFUSED = gettext_lazy("Coup {number} from this phone was refused: {reason}")
MSG_COUP_HELD_UNDONE = gettext_lazy("Coup {number} was undone while the entry was in use.")
MSG_COUP_HELD_RESEND = gettext_lazy("Save again as coup {number}")
MSG_COUP_HELD_RENUMBER = gettext_lazy("Save mine as coup {number}")
MSG_COUP_HELD_MINE = gettext_lazy("This phone's coup {number}:")
MSG_COUP_HELD_OTHER = gettext_lazy("Coup {number} as recorded first:")
MSG_COUP_DISCARD_CONFIRM = gettext_lazy("Discard this coup? It will not be recorded.")
MSG_COUP_EDIT_AFTER_ENTRY = gettext_lazy("Save or clear the coup in the entry first.")
MSG_COUP_CLEAR_TAKEN_BACK = gettext_lazy("Let go of coup {number}? It will not be recorded.")
MSG_COUP_LOG_IN_AGAIN = gettext_lazy("Log in again to send the coups waiting on this device.")
MSG_COUP_UNDO = gettext_lazy("Undo coup {number}")
MSG_COUP_UNDO_CONFIRM = gettext_lazy("Undo coup {number}?")
MSG_COUP_UNDO_WAITING = gettext_lazy("Undo of coup {number}: waiting to send.")
MSG_COUP_UNDOING = gettext_lazy("Undoing coup {number}…")
MSG_COUP_UNDO_ON_ITS_WAY = gettext_lazy(
    "Coup {number} is on its way to the server: undo it once its answer comes."
)
MSG_COUP_UNDONE_HERE = gettext_lazy(
    "Coup {number} taken back off this device: fix it and save again."
)
MSG_COUP_UNDO_PARKED = gettext_lazy(
    "Save or clear coup {number} in the entry before undoing another."
)
MSG_COUP_UNDO_AFTER_HELD = gettext_lazy("Decide on the refused coup above before undoing.")
MSG_COUP_SAVE_AFTER_UNDO = gettext_lazy(
    "The undo of coup {number} is waiting for its answer: save after it."
)
MSG_COUP_UNDO_MOVED = gettext_lazy("The last coup has changed: look at Undo's label and try again.")
MSG_COUP_OTHER_TAB = gettext_lazy(
    "This table is open in another tab on this device: enter the coups there. This one takes "
    "over when that one closes."
)
_COUP_TEXTS = {
    "sending": MSG_COUP_SENDING,
    "waiting": MSG_COUP_WAITING,
    "queued": MSG_COUP_QUEUED,
    "waits_for_held": MSG_COUP_WAITS_FOR_HELD,
    "held_refused": MSG_COUP_HELD_REFUSED,
    "held_undone": MSG_COUP_HELD_UNDONE,
    "held_resend": MSG_COUP_HELD_RESEND,
    "held_renumber": MSG_COUP_HELD_RENUMBER,
    "held_mine": MSG_COUP_HELD_MINE,
    "held_other": MSG_COUP_HELD_OTHER,
    "discard_confirm": MSG_COUP_DISCARD_CONFIRM,
    "edit_after_entry": MSG_COUP_EDIT_AFTER_ENTRY,
    "clear_taken_back": MSG_COUP_CLEAR_TAKEN_BACK,
    "log_in": MSG_COUP_LOG_IN_AGAIN,
    "undo": MSG_COUP_UNDO,
    "undo_confirm": MSG_COUP_UNDO_CONFIRM,
    "undo_waiting": MSG_COUP_UNDO_WAITING,
    "undoing": MSG_COUP_UNDOING,
    "undo_on_its_way": MSG_COUP_UNDO_ON_ITS_WAY,
    "undone_here": MSG_COUP_UNDONE_HERE,
    "undo_parked": MSG_COUP_UNDO_PARKED,
    "undo_after_held": MSG_COUP_UNDO_AFTER_HELD,
    "save_after_undo": MSG_COUP_SAVE_AFTER_UNDO,
    "undo_moved": MSG_COUP_UNDO_MOVED,
    "other_tab": MSG_COUP_OTHER_TAB,
}


def coup_rules(decks: int) -> dict[str, object]:
    """What the table's script reads on a guest-banked table: the keypad's rules (unused there:
    the server reads a coup's cards) and its words, said of coups."""
    rules = keypad_rules(decks)
    texts = cast(dict[str, str], rules["texts"])
    rules["texts"] = texts | {name: str(text) for name, text in _COUP_TEXTS.items()}
    return rules


def keypad_rules(decks: int) -> dict[str, object]:
    """What the page's keypad needs to place each tap at once, even offline: the drawing rules
    (from the rules core), the cards' values, how many of a rank the shoe holds, and the
    core's messages in the page's language. The server's reading of the taps has the last word."""
    return {
        **tableau(),
        "values": {rank: parse_card(rank).value for rank in RANKS},
        "per_rank": 4 * decks,
        "texts": {
            "start": _(MSG_TAP_START),
            "next": _(MSG_TAP_NEXT),
            "cards": [_(name) for name in CARD_NAMES],
            "player_draws": _(MSG_PLAYER_DRAWS),
            "banker_draws": _(MSG_BANKER_DRAWS),
            "out_of_order": _(MSG_TYPED_OUT_OF_ORDER),
            "checking": str(MSG_CHECKING),
            "offline": str(MSG_OFFLINE_CARDS),
            "pick_a_box": str(MSG_PICK_A_BOX),
            "waiting": str(MSG_WAITING),
            "queued": str(MSG_QUEUED),
            "log_in": str(MSG_LOG_IN_AGAIN),
            "no_result": _(MSG_NO_RESULT),
            "not_an_amount": _(MSG_NOT_A_NUMBER),
            "wins": _(MSG_WINS),
            "wins_natural": _(MSG_WINS_NATURAL),
            "tie": _(MSG_TIE),
            "tie_natural": _(MSG_TIE_NATURAL),
            "player": _(PLAYER),
            "banker": _(BANKER),
            **{name: str(text) for name, text in _CLIENT_TEXTS.items()},
        },
    }


def phone_limits(state: TableState) -> dict[str, object]:
    """The limits the phone checks before a hand leaves its entry, as the rules core checks
    them (``games.entry``): the table minimum and maximum for every bet (a side bet's too: no
    bet has limits of its own), the bet unit, and at a tournament table each seat's stack
    before hand ``stacks_for`` and the rule for a stack under the minimum; amounts in cents.
    The texts are the core's messages, filled in but for what the phone fills: the stake, a
    seat's total and stack."""
    event = state.event
    rules = event.table_rules
    stacks: dict[int, int] | None = None
    short_stack = ShortStack.ALL_IN
    if event.is_tournament_table:
        by_guest = hand_services.table_stacks(event, before_hand=state.next_number)
        stacks = {
            seat.seat: _cents(by_guest.get(seat.guest.pk, Decimal(0)))
            for seat in state.seats
            if seat.guest is not None
        }
        short_stack = hand_services.short_stack_rule(event)
    minimum, maximum = format_chips(rules.table_min), format_chips(rules.table_max)
    unit = format_chips(rules.unit) if rules.unit else ""
    return {
        "min": _cents(rules.table_min),
        "max": _cents(rules.table_max),
        "unit": _cents(rules.unit) if rules.unit else None,
        "stacks": stacks,
        "stacks_for": state.next_number,
        "short_stack": short_stack.value,
        "bets": {bet.value: _(bet.label) for bet in rules.rules.offered_bets},
        "texts": {
            "on_seat": _(MSG_ON_SEAT),
            "under_minimum": _(MSG_UNDER_MINIMUM).format(stake="{stake}", minimum=minimum),
            "over_maximum": _(MSG_OVER_MAXIMUM).format(stake="{stake}", maximum=maximum),
            "not_unit": _(MSG_NOT_UNIT).format(stake="{stake}", unit=unit),
            "over_stack": _(MSG_OVER_STACK),
            "short_out": _(MSG_SHORT_STACK_OUT).format(stack="{stack}", minimum=minimum),
            "short_all_in": _(MSG_SHORT_STACK_ALL_IN).format(
                stake="{stake}", minimum=minimum, stack="{stack}"
            ),
        },
    }


def _cents(amount: Decimal) -> int:
    return int(amount * 100)


# The table script's own words (static/js/table_state.js), by the names it reads them under.
_CLIENT_TEXTS = {
    "sending": MSG_SENDING,
    "refused": MSG_REFUSED,
    "refused_status": MSG_REFUSED_STATUS,
    "server_failed": MSG_SERVER_FAILED,
    "other_tab": MSG_OTHER_TAB,
    "waits_for_held": MSG_WAITS_FOR_HELD,
    "clear_taken_back": MSG_CLEAR_TAKEN_BACK,
    "seat_waiting": MSG_SEAT_WAITING,
    "undo_waiting": MSG_UNDO_WAITING,
    "undo": MSG_UNDO,
    "undo_confirm": MSG_UNDO_CONFIRM,
    "undo_moved": MSG_UNDO_MOVED,
    "undoing": MSG_UNDOING,
    "undo_on_its_way": MSG_UNDO_ON_ITS_WAY,
    "undone_here": MSG_UNDONE_HERE,
    "undo_parked": MSG_UNDO_PARKED,
    "undo_after_held": MSG_UNDO_AFTER_HELD,
    "save_after_undo": MSG_SAVE_AFTER_UNDO,
    "held_refused": MSG_HELD_REFUSED,
    "held_undone": MSG_HELD_UNDONE,
    "held_resend": MSG_HELD_RESEND,
    "held_renumber": MSG_HELD_RENUMBER,
    "held_edit": MSG_HELD_EDIT,
    "held_discard": MSG_HELD_DISCARD,
    "held_mine": MSG_HELD_MINE,
    "held_other": MSG_HELD_OTHER,
    "seat_changed": MSG_HELD_SEAT_CHANGED,
    "seat_move": MSG_HELD_SEAT_MOVE,
    "seat_drop": MSG_HELD_SEAT_DROP,
    "choose_each_seat": MSG_HELD_CHOOSE_SEAT,
    "discard_confirm": MSG_DISCARD_CONFIRM,
    "edit_after_entry": MSG_EDIT_AFTER_ENTRY,
    "empty_seat": MSG_EMPTY_SEAT,
}
