"""The event page and what a host does from it: guests, shoes, settlements, closing."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import BaseForm
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import services as game_services
from games.models import Event
from ledger import services
from ledger.charts import qr_svg, result_bars
from ledger.forms import (
    BringBackChecklistForm,
    BringBackForm,
    EventForm,
    GuestAddForm,
    SettlementForm,
    add_service_errors,
)
from ledger.models import Guest
from ledger.results import event_settlement, event_shoe_rows
from ledger.selectors import event_open_things, event_shoes, events_for_list
from shoebook.roles import (
    AuthenticatedHttpRequest,
    host_required,
    is_host,
    is_table_staff,
    table_staff_required,
)

MSG_EVENT_CLOSED = gettext_lazy("{event} is closed.")
MSG_EVENT_REOPENED = gettext_lazy("{event} is open again.")


@require_GET
def event_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The events, for hosts and dealers; a guest with a login (sent here after logging in)
    goes to their own page, the one thing they may see."""
    if not is_table_staff(request.user):
        if Guest.objects.filter(user=request.user).exists():
            return redirect("ledger:my_page")
        raise PermissionDenied
    return render(request, "ledger/event_list.html", {"events": events_for_list()})


@host_required
def event_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, initial={"date": timezone.localdate()})
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in EventForm.Meta.fields}
        event = game_services.event_create(
            **fields, rules=form.cleaned_data["rule_set"], by=request.user
        )
        messages.success(
            request, _("{event} is ready: add guests, then start a shoe.").format(event=event.name)
        )
        return redirect("ledger:event_detail", event.pk)
    return render(request, "ledger/event_form.html", {"form": form})


@host_required
def event_edit(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Change an event's details; once a hand is logged, only its name, date, venue and the
    planned hands per shoe (the rest priced the hands already played)."""
    event = get_object_or_404(Event, pk=event_id)
    frozen = game_services.event_has_hands(event)
    form = EventForm(request.POST or None, instance=event, frozen=frozen)
    if request.method == "POST" and form.is_valid():
        try:
            services.event_edit(event=event, by=request.user, **form.changes())
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("{event} is saved.").format(event=event.name))
            return redirect("ledger:event_detail", event.pk)
    context = {"form": form, "event": event, "frozen": frozen}
    return render(request, "ledger/event_form.html", context)


@table_staff_required
@require_GET
def event_detail(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    return _render_event(request, event)


def _render_event(
    request: AuthenticatedHttpRequest, event: Event, **forms: BaseForm
) -> HttpResponse:
    context = _event_context(event, **forms)
    if event.display_token and is_host(request.user):
        path = reverse("display:table_display", args=[event.pk, event.display_token])
        context["display_qr"] = qr_svg(request.build_absolute_uri(path))
    return render(request, "ledger/event_detail.html", context)


def _event_context(event: Event, **forms: BaseForm) -> dict[str, object]:
    shoes = list(event_shoes(event))
    return event_results_context(event) | {
        "event": event,
        "rules_description": event.rule_set.describe(_),
        "shoes": shoes,
        "open_shoe": next((shoe for shoe in shoes if shoe.is_open), None),
        "guests": Guest.objects.filter(events=event),
        "guest_form": forms.get("guest_form") or GuestAddForm(),
        "bring_back_form": forms.get("bring_back_form") or BringBackForm(event=event),
    }


def event_results_context(
    event: Event, settlement_form: SettlementForm | None = None
) -> dict[str, object]:
    """What the event page shows of money: the per-shoe table, its chart, the settlement list."""
    rows, totals = event_shoe_rows(event)
    return {
        "shoe_rows": rows,
        "shoe_totals": totals,
        "shoe_chart": result_bars(
            _("Guests' gross result per shoe"),
            [str(row.number) for row in rows],
            [row.figures.gross for row in rows],
        )
        if rows
        else "",
        "settlement": event_settlement(event),
        "settlement_form": settlement_form or SettlementForm(event=event),
    }


def _event_action(
    request: AuthenticatedHttpRequest,
    event: Event,
    action: Callable[[], object],
    **forms: BaseForm,
) -> HttpResponse:
    """Run one service for an event page's form; on a refusal, show the page with the reason."""
    try:
        result = action()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return _render_event(request, event, **forms)
    return result if isinstance(result, HttpResponse) else redirect("ledger:event_detail", event.pk)


@host_required
@require_POST
def event_guest_add(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = GuestAddForm(request.POST)
    if not form.is_valid():
        return _render_event(request, event, guest_form=form)
    name = form.cleaned_data["name"]
    return _event_action(
        request,
        event,
        lambda: services.event_guest_add(event=event, name=name, by=request.user),
        guest_form=form,
    )


@host_required
@require_http_methods(["GET", "POST"])
def event_guests_bring_back(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """GET (the event page's "Bring back from") shows the earlier event's guests as a
    checklist, all ticked; POST brings back those still ticked."""
    event = get_object_or_404(Event, pk=event_id)
    chosen = BringBackForm(request.POST or request.GET, event=event)
    if not chosen.is_valid():
        return _render_event(request, event, bring_back_form=chosen)
    source: Event = chosen.cleaned_data["from_event"]
    if request.method == "GET":
        form = BringBackChecklistForm(event=event, from_event=source)
        return render(request, "ledger/event_bring_back.html",
                      {"event": event, "source": source, "form": form})  # fmt: skip
    form = BringBackChecklistForm(request.POST, event=event, from_event=source)
    if not form.is_valid():
        return render(request, "ledger/event_bring_back.html",
                      {"event": event, "source": source, "form": form}, status=400)  # fmt: skip

    def bring_back() -> None:
        added = services.event_guests_bring_back(
            event=event, from_event=source, by=request.user, guests=form.cleaned_data["guests"]
        )
        text = ngettext("{n} guest back from {event}.", "{n} guests back from {event}.", added)
        messages.success(request, text.format(n=added, event=source))

    return _event_action(request, event, bring_back, bring_back_form=chosen)


@host_required
@require_POST
def shoe_start(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)

    def start() -> HttpResponse:
        shoe = game_services.shoe_start(event=event, by=request.user)
        return redirect("ledger:shoe_table", shoe.pk)

    return _event_action(request, event, start)


@host_required
@require_http_methods(["GET", "POST"])
def event_close(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """GET asks first, saying what is still going on (an open shoe refuses the close); POST
    closes the event."""
    event = get_object_or_404(Event, pk=event_id)
    if request.method == "GET":
        return _event_close_page(request, event)

    def close() -> None:
        services.event_close(event=event, by=request.user)
        messages.success(request, MSG_EVENT_CLOSED.format(event=event.name))

    return _event_action(request, event, close)


def _event_close_page(request: AuthenticatedHttpRequest, event: Event) -> HttpResponse:
    if not event.is_open:
        return redirect("ledger:event_detail", event.pk)
    things = event_open_things(event)
    context = {
        "event": event,
        "open": things,
        "open_shoes": [
            (shoe, game_services.MSG_CLOSE_SHOE_FIRST.format(number=shoe.number))
            for shoe in things.open_shoes
        ],
        "unsettled": [line for line in event_settlement(event) if line.after],
    }
    return render(request, "ledger/event_close.html", context)


@host_required
@require_POST
def event_reopen(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)

    def reopen() -> None:
        services.event_reopen(event=event, by=request.user)
        messages.success(request, MSG_EVENT_REOPENED.format(event=event.name))

    return _event_action(request, event, reopen)


@host_required
@require_POST
def settlement_record(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    form = SettlementForm(request.POST, event=event)
    if form.is_valid():
        try:
            settlement = services.settlement_record(
                guest=form.cleaned_data["guest"],
                event=event,
                amount=form.signed_amount(),
                method=form.cleaned_data["method"],
                note=form.cleaned_data["note"],
                by=request.user,
            )
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            text = _("Recorded: {guest} · {method}.")
            messages.success(
                request, text.format(guest=settlement.guest, method=settlement.get_method_display())
            )
            return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#settlement")
    else:
        for field, errors in form.errors.items():
            label = form[field].label if field in form.fields else ""
            text = " ".join(str(error) for error in errors)
            messages.error(request, f"{label}: {text}" if label else text)
    return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#settlement")


@host_required
@require_POST
def display_link_issue(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """A new read-only link for the event's table display (a TV at the bar)."""
    event = get_object_or_404(Event, pk=event_id)
    game_services.event_display_link_issue(event=event)
    return redirect("ledger:event_detail", event.pk)
