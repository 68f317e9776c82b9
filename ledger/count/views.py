"""The count's pages, for the host: the night's count (each guest's chips taken, expected and
counted, the tray, what does not add up), a guest's own count (chips taken and handed back by
denomination, their hands to find a missing bet in, an adjustment), and the writes behind them.
Done, back to the page with what was recorded; refused, the page again with the reason beside
the form, nothing recorded."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.models import Event
from ledger.count import services
from ledger.count.forms import AdjustmentForm, ChipsForm, CountSetupForm
from ledger.count.selectors import guest_hands, next_to_count, night_count
from ledger.forms import add_service_errors
from ledger.models import Adjustment, ChipMove, Guest
from ledger.money.amounts import ZERO, format_chips
from ledger.money.forms import VoidForm
from shoebook.base.converters import id_or_none
from shoebook.base.live import stream_response
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

# A tournament's night has no chips on a table of its own: its tables are counted one by one.
COUNTED = Event.objects.exclude(kind=Event.Kind.TOURNAMENT)
MSG_CHIPS_RECORDED = gettext_lazy("Recorded: {what}.")
MSG_VOIDED = gettext_lazy("Voided: {what}. Reason: {reason}")
MSG_ADJUSTMENT_BOOKED = gettext_lazy("Booked: {what}.")
MSG_SETUP_SAVED = gettext_lazy("The count's settings are saved.")
MSG_TRAY = gettext_lazy("The tray")
MSG_ADJUST_OR_RECOUNT = gettext_lazy(
    "A difference that stays: book an adjustment only for money that really changed hands "
    "between a guest and the house (a bet paid but not logged, chips bought with cash nobody "
    "wrote down). If the chips were miscounted, void the count and count them again."
)
MSG_GUEST_GONE = gettext_lazy(
    "This guest is no longer on the night's list (merged or removed since the page was opened):"
    " nothing was recorded."
)


def _shown(counted: object) -> str:
    """Chips counted so far as the page keeps them, to say what it showed."""
    return "" if counted is None else f"{counted}"


def _count_url(event: Event, guest: Guest | None = None) -> str:
    if guest is None:
        return reverse("ledger:count_page", args=[event.pk])
    return reverse("ledger:count_guest", args=[event.pk, guest.pk])


def _count_page(
    request: AuthenticatedHttpRequest, event: Event, *, status: int = 200, **forms: Any
) -> HttpResponse:
    night = night_count(event)
    setup = night.setup
    context = {
        "event": event,
        "night": night,
        "tray_form": forms.get("tray_form")
        or ChipsForm(
            initial={"kind": "tray", "seen_counted": _shown(night.reconciliation.tray.counted)},
            setup=setup,
        ),
        "setup_form": forms.get("setup_form") or CountSetupForm.of(setup),
        "symbol": event.currency_symbol,
        "tray_name": MSG_TRAY,
        "adjust_or_recount": MSG_ADJUST_OR_RECOUNT,
    }
    return render(request, "ledger/count/count_page.html", context, status=status)


def _guest_page(
    request: AuthenticatedHttpRequest,
    event: Event,
    guest: Guest,
    *,
    status: int = 200,
    **forms: Any,
) -> HttpResponse:
    night = night_count(event)
    line = next((row for row in night.guests if row.guest.pk == guest.pk), None)
    if line is None:
        raise Http404
    setup = night.setup
    difference = line.count.difference
    adjust_initial: dict[str, object] = {"guest": guest.pk}
    if difference:
        adjust_initial["amount"] = format_chips(difference)
    context = {
        "event": event,
        "night": night,
        "line": line,
        "hands": guest_hands(event, guest),
        "take_form": forms.get("take_form")
        or ChipsForm(initial={"kind": "buy_in", "guest": guest.pk}, setup=setup),
        "count_form": forms.get("count_form")
        or ChipsForm(
            initial={
                "kind": "count",
                "guest": guest.pk,
                "seen_counted": _shown(line.count.counted),
            },
            setup=setup,
        ),
        "adjust_form": forms.get("adjust_form") or AdjustmentForm(initial=adjust_initial),
        "symbol": event.currency_symbol,
        "adjust_or_recount": MSG_ADJUST_OR_RECOUNT,
    }
    return render(request, "ledger/count/count_guest.html", context, status=status)


@host_required
@require_GET
def count_page(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    return _count_page(request, get_object_or_404(COUNTED, pk=event_id))


@host_required
@require_GET
def count_guest(request: AuthenticatedHttpRequest, event_id: int, guest_id: int) -> HttpResponse:
    event = get_object_or_404(COUNTED, pk=event_id)
    guest = get_object_or_404(Guest, pk=guest_id)
    return _guest_page(request, event, guest)


@host_required
@require_POST
def count_setup(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(COUNTED, pk=event_id)
    form = CountSetupForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.count_setup_save(
                event=event,
                by=request.user,
                denominations=form.values(),
                opening_float=data["opening_float"] or ZERO,
                count_only=data["count_only"],
                commission_total=data["commission_total"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, MSG_SETUP_SAVED)
            return redirect(_count_url(event))
    return _count_page(request, event, setup_form=form, status=400)


@host_required
@require_POST
def chips_add(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Chips for a guest (taken, or handed back) or the tray counted."""
    event = get_object_or_404(COUNTED, pk=event_id)
    form = ChipsForm(request.POST, setup=services.setup_of(event))
    guest = None
    if form.is_valid():
        data = form.cleaned_data
        guest_id = data["guest"]
        guest = Guest.objects.filter(pk=guest_id).first() if guest_id else None
        if guest_id and guest is None:
            form.add_error(None, MSG_GUEST_GONE)
        else:
            try:
                move = services.chips_record(
                    event=event,
                    guest=guest,
                    kind=data["kind"],
                    by=request.user,
                    chips=data["total"],
                    by_denomination=form.by_denomination(),
                    source=data["source"] if data["kind"] in ("buy_in", "top_up") else "",
                    idempotency_key=data["idempotency_key"],
                    seen_counted=data["seen_counted"] if "seen_counted" in form.data else None,
                    dated=data["dated"],
                )
            except ValidationError as error:
                add_service_errors(form, error)
            else:
                what = services.chips_words(move)
                messages.success(request, MSG_CHIPS_RECORDED.format(what=what))
                if move.kind == ChipMove.Kind.COUNT:  # counting round the table: the next stack
                    return redirect(_count_url(event, next_to_count(event, after=guest)))
                return redirect(_count_url(event, guest))
    kind = form.data.get("kind", "")
    if guest is None and kind != "tray":
        guest = Guest.objects.filter(pk=id_or_none(str(form.data.get("guest", ""))) or 0).first()
    if guest is None:
        return _count_page(request, event, tray_form=form, status=400)
    slot = "count_form" if kind == "count" else "take_form"
    return _guest_page(request, event, guest, status=400, **{slot: form})


@host_required
@require_POST
def chips_void(request: AuthenticatedHttpRequest, move_id: int) -> HttpResponse:
    move = get_object_or_404(ChipMove.objects.select_related("event", "guest"), pk=move_id)
    form = VoidForm(request.POST, required=services.MSG_VOID_REASON)
    if form.is_valid():
        try:
            services.chips_void(move=move, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            reason = form.cleaned_data["reason"].strip()
            notice = MSG_VOIDED.format(what=services.chips_words(move), reason=reason)
            messages.success(request, notice)
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(_count_url(move.event, move.guest))


@host_required
@require_POST
def adjustment_add(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(COUNTED, pk=event_id)
    form = AdjustmentForm(request.POST)
    guest = Guest.objects.filter(pk=id_or_none(str(form.data.get("guest", ""))) or 0).first()
    if guest is None:
        messages.error(request, MSG_GUEST_GONE)
        return redirect(_count_url(event))
    if form.is_valid():
        data = form.cleaned_data
        try:
            adjustment = services.adjustment_record(
                event=event,
                guest=guest,
                amount=data["amount"],
                reason=data["reason"],
                by=request.user,
                idempotency_key=data["idempotency_key"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            what = services.adjustment_words(adjustment)
            messages.success(request, MSG_ADJUSTMENT_BOOKED.format(what=what))
            return redirect(_count_url(event, guest))
    return _guest_page(request, event, guest, adjust_form=form, status=400)


@host_required
@require_POST
def adjustment_void(request: AuthenticatedHttpRequest, adjustment_id: int) -> HttpResponse:
    adjustment = get_object_or_404(
        Adjustment.objects.select_related("event", "guest"), pk=adjustment_id
    )
    form = VoidForm(request.POST, required=services.MSG_VOID_REASON)
    if form.is_valid():
        try:
            services.adjustment_void(
                adjustment=adjustment, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            reason = form.cleaned_data["reason"].strip()
            what = services.adjustment_words(adjustment)
            messages.success(request, MSG_VOIDED.format(what=what, reason=reason))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(_count_url(adjustment.event, adjustment.guest))


@host_required
@require_GET
def event_live(request: AuthenticatedHttpRequest, event_id: int) -> StreamingHttpResponse:
    """The count page's stream (``event:<id>``): a count, a buy-in, an adjustment, a hand, a
    settlement or a close of the night."""
    get_object_or_404(COUNTED, pk=event_id)
    return stream_response(request, [f"event:{event_id}"])
