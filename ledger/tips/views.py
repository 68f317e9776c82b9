"""The tips' pages: the night's tips for the host (the pool, how it is shared, each dealer's
share, the tips and the shifts, and the forms that record them), and a dealer's own tips (their
share of each night they dealt at, never the others'; their shift started and stopped).
Done, back to the page with what was recorded; refused, the page again with the reason beside
the form (400; to htmx, 200 so that it swaps in), nothing recorded."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.models import Event
from ledger.forms import add_service_errors
from ledger.models import DealerShift, Tip, TipSharing
from ledger.money.forms import VoidForm
from ledger.tips import services
from ledger.tips.forms import SharingForm, ShiftForm, TipForm
from ledger.tips.selectors import dealer_nights, night_pool, night_shifts, night_tips
from shoebook.base.converters import id_or_none
from shoebook.base.roles import (
    AuthenticatedHttpRequest,
    host_required,
    is_host,
    table_staff_required,
)

# A tournament's night has no table of its own: its tables are tipped one by one.
# Nights that take tips: no tournament, nor its tables (their chips are no one's money).
TIPPED = Event.objects.exclude(kind__in=[Event.Kind.TOURNAMENT, Event.Kind.TOURNAMENT_TABLE])
MSG_TIP_RECORDED = gettext_lazy("Recorded: {what}.")
MSG_TIP_VOIDED = gettext_lazy("Voided: {what}. Reason: {reason}")
MSG_SHARING_SAVED = gettext_lazy("The tips are shared: {way}.")
MSG_SHIFT_STARTED = gettext_lazy("{dealer} is dealing from {time}.")
MSG_SHIFT_REMOVED = gettext_lazy("Removed: a shift of {dealer}.")
MSG_SHIFT_STOPPED = gettext_lazy("{dealer} stopped dealing at {time}.")


def _tips_url(event_id: int) -> str:
    return reverse("ledger:tips_page", args=[event_id])


def _status(request: AuthenticatedHttpRequest, status: int) -> int:
    return 200 if request.htmx else status  # htmx swaps a 200 only


def _tips_page(
    request: AuthenticatedHttpRequest, event: Event, *, status: int = 200, **forms: Any
) -> HttpResponse:
    pool = night_pool(event)
    sharing = TipSharing.objects.filter(event=event).values_list("way", flat=True).first()
    context = {
        "event": event,
        "pool": pool,
        "tips": night_tips(event),
        "shifts": night_shifts(event),
        "tip_form": forms.get("tip_form") or TipForm(event=event),
        "sharing_form": forms.get("sharing_form")
        or SharingForm(initial={"way": sharing or TipSharing.Way.TIME}),
        "shift_form": forms.get("shift_form") or ShiftForm(event=event),
        "symbol": event.currency_symbol,
    }
    return render(request, "ledger/tips/tips_page.html", context, status=_status(request, status))


@host_required
@require_GET
def tips_page(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """The night's tips; ``?hand=<id>`` (the hand's page's link) chooses that hand's win."""
    event = get_object_or_404(TIPPED, pk=event_id)
    hand = id_or_none(request.GET.get("hand", ""))
    initial = {} if hand is None else {"hand": hand, "source": Tip.Source.HAND_WIN}
    return _tips_page(request, event, tip_form=TipForm(initial=initial, event=event))


@host_required
@require_POST
def tip_add(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(TIPPED, pk=event_id)
    form = TipForm(request.POST, event=event)
    if form.is_valid():
        data = form.cleaned_data
        try:
            tip = services.tip_record(
                event=event,
                guest=data["guest"],
                amount=data["amount"],
                source=data["source"],
                hand=data["hand"],
                note=data["note"],
                by=request.user,
                idempotency_key=data["idempotency_key"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, MSG_TIP_RECORDED.format(what=services.tip_words(tip)))
            return redirect(_tips_url(event.pk))
    return _tips_page(request, event, tip_form=form, status=400)


@host_required
@require_POST
def tip_void(request: AuthenticatedHttpRequest, tip_id: int) -> HttpResponse:
    tip = get_object_or_404(Tip.objects.select_related("event", "guest"), pk=tip_id)
    form = VoidForm(request.POST, required=services.MSG_VOID_REASON)
    if form.is_valid():
        try:
            services.tip_void(tip=tip, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            reason = form.cleaned_data["reason"].strip()
            what = services.tip_words(tip)
            messages.success(request, MSG_TIP_VOIDED.format(what=what, reason=reason))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(_tips_url(tip.event_id))


@host_required
@require_POST
def tip_sharing(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(TIPPED, pk=event_id)
    form = SharingForm(request.POST)
    if form.is_valid():
        try:
            sharing = services.tip_sharing_set(
                event=event, way=form.cleaned_data["way"], by=request.user
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            way = sharing.get_way_display()
            messages.success(request, MSG_SHARING_SAVED.format(way=way))
            return redirect(_tips_url(event.pk))
    return _tips_page(request, event, sharing_form=form, status=400)


def _back_from_shift(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    if is_host(request.user):
        return redirect(_tips_url(event_id))
    return redirect(reverse("ledger:dealer_tips"))


@table_staff_required
@require_POST
def shift_add(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """A dealer starts dealing (their own shift, now); the host names the dealer and may enter a
    whole shift with its times."""
    event = get_object_or_404(TIPPED, pk=event_id)
    form = ShiftForm(request.POST, event=event)
    host = is_host(request.user)
    if form.is_valid():
        data = form.cleaned_data
        dealer = data["dealer"] if host and data["dealer"] else request.user
        started_at, ended_at = form.times() if host else (None, None)
        try:
            shift = services.shift_start(
                event=event,
                dealer=dealer,
                shoe=data["shoe"],
                started_at=started_at,
                ended_at=ended_at,
                by=request.user,
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            time = f"{timezone.localtime(shift.started_at):%H:%M}"
            messages.success(
                request, MSG_SHIFT_STARTED.format(dealer=dealer.get_username(), time=time)
            )
            return _back_from_shift(request, event.pk)
    if host:
        return _tips_page(request, event, shift_form=form, status=400)
    messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return _back_from_shift(request, event.pk)


@table_staff_required
@require_POST
def shift_stop(request: AuthenticatedHttpRequest, shift_id: int) -> HttpResponse:
    shift = get_object_or_404(DealerShift.objects.select_related("dealer"), pk=shift_id)
    if not is_host(request.user) and shift.dealer_id != request.user.pk:
        raise PermissionDenied  # a dealer stops their own shift only
    try:
        stopped = services.shift_stop(shift=shift, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        assert stopped.ended_at is not None
        time = f"{timezone.localtime(stopped.ended_at):%H:%M}"
        name = stopped.dealer.get_username()
        messages.success(request, MSG_SHIFT_STOPPED.format(dealer=name, time=time))
    return _back_from_shift(request, shift.event_id)


@host_required
@require_POST
def shift_remove(request: AuthenticatedHttpRequest, shift_id: int) -> HttpResponse:
    shift = get_object_or_404(DealerShift.objects.select_related("dealer"), pk=shift_id)
    form = VoidForm(request.POST, required=services.MSG_SHIFT_REASON)
    if form.is_valid():
        try:
            services.shift_remove(shift=shift, reason=form.cleaned_data["reason"], by=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            name = shift.dealer.get_username()
            messages.success(request, MSG_SHIFT_REMOVED.format(dealer=name))
    else:
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
    return redirect(_tips_url(shift.event_id))


@table_staff_required
@require_GET
def dealer_tips(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A dealer's own page: their share of each night's tips, their shift now."""
    nights = dealer_nights(request.user)
    open_shift = (
        DealerShift.objects.filter(dealer=request.user, ended_at__isnull=True)
        .select_related("event")
        .first()
    )
    open_nights = list(TIPPED.filter(closed_at__isnull=True).order_by("-date", "-id")[:10])
    context = {"nights": nights, "open_shift": open_shift, "open_nights": open_nights}
    return render(request, "ledger/tips/dealer_tips.html", context)
