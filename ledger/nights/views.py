"""The event page and what a host does from it: guests, shoes, settlements, closing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

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
from ledger.count.selectors import count_at_close
from ledger.forms import add_service_errors
from ledger.guests import services as guest_services
from ledger.guests.forms import BringBackChecklistForm, BringBackForm, GuestAddForm
from ledger.guests.names import name_key
from ledger.models import CountSetup, Guest, Settlement
from ledger.money import services as money_services
from ledger.money.amounts import ZERO, format_chips, format_money, format_money_each, to_money
from ledger.money.charts import qr_svg, result_bars
from ledger.money.figures import night_figures, without_hands
from ledger.money.forms import SettlementForm, VoidForm
from ledger.money.results import (
    SettlementLine,
    banker_stints,
    banker_totals,
    event_settlement,
    event_settlement_rows,
    event_shoe_rows,
    guest_balance_now,
)
from ledger.money.tables import BankerStintTable, BankerTotalTable
from ledger.money.transfer_forms import clearing_panel
from ledger.nights import services as night_services
from ledger.nights.forms import EventForm
from ledger.nights.selectors import event_open_things, event_shoes, events_for_list
from ledger.series.forms import NextNightForm
from ledger.series.selectors import next_dates, series_for_list
from shoebook.base.converters import id_or_none
from shoebook.base.roles import (
    AuthenticatedHttpRequest,
    host_required,
    is_host,
    is_table_staff,
    table_staff_required,
)

MSG_EVENT_CLOSED = gettext_lazy("{event} is closed.")
MSG_EVENT_REOPENED = gettext_lazy("{event} is open again.")
MSG_FOUND_BY_ALIAS = gettext_lazy("“{name}” is {guest}: {guest} is on the list.")
MSG_HOUSE_PAYS = gettext_lazy("House pays {guest} {amount} / {money}")
MSG_GUEST_PAYS = gettext_lazy("{guest} pays the house {amount} / {money}")
MSG_GUEST_SQUARE = gettext_lazy("{guest} is square")
MSG_RECORDED_HOUSE_PAID = gettext_lazy(
    "Recorded: the house paid {guest} {amount} ({money}) · {method}."
)
MSG_RECORDED_GUEST_PAID = gettext_lazy(
    "Recorded: {guest} paid the house {amount} ({money}) · {method}."
)
MSG_VOIDED = gettext_lazy("Voided: {guest} · {amount} · {method}. Reason: {reason}")


@require_GET
def event_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The events, for hosts and dealers; a guest with a login (sent here after logging in)
    goes to their own page, the one thing they may see."""
    if not is_table_staff(request.user):
        if Guest.objects.filter(user=request.user).exists():
            return redirect("ledger:my_page")
        raise PermissionDenied
    context: dict[str, object] = {"events": events_for_list()}
    if is_host(request.user):  # each series' next night, one tap away
        every = list(series_for_list())
        dates = next_dates(every)
        for series in every:
            series.next_form = NextNightForm()  # type: ignore[attr-defined]
            upcoming = dates[series.pk]
            series.upcoming = [upcoming] if upcoming else []  # type: ignore[attr-defined]
        context["all_series"] = every
    return render(request, "ledger/nights/event_list.html", context)


def _asks_for_another_game(request: AuthenticatedHttpRequest, form: EventForm) -> bool:
    """The host chose a game and asked for its fields ("Show this game's fields", or the game
    box's change with a script), or changed the game and saved the other game's fields: the
    form is shown again for that game, nothing saved."""
    if request.method != "POST":
        return False
    shown = request.POST.get("shown_game", form.chosen_game)
    return "show_game" in request.POST or shown != form.chosen_game


def _event_form_page(
    request: AuthenticatedHttpRequest, form: EventForm, **context: object
) -> HttpResponse:
    return render(request, "ledger/nights/event_form.html", {"form": form} | context)


@host_required
def event_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = EventForm(request.POST or None, initial={"date": timezone.localdate()})
    if _asks_for_another_game(request, form):
        form = EventForm.shown_again(request.POST)
        return _event_form_page(request, form, shown_again=True)
    if request.method == "POST" and form.is_valid():
        fields = form.event_fields()
        try:
            event = game_services.event_create(
                **fields, rules=form.cleaned_data["rule_set"], by=request.user
            )
        except ValidationError as error:  # a cut of the other game, in the host's words
            add_service_errors(form, error)
        else:
            ready = _("{event} is ready: add guests, then start a shoe.")
            messages.success(request, ready.format(event=event.name))
            return redirect("ledger:event_detail", event.pk)
    return _event_form_page(request, form)


@host_required
def event_edit(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Change an event's details; once a hand is logged, only its name, date, venue and the
    planned hands per shoe (the rest priced the hands already played)."""
    event = get_object_or_404(Event, pk=event_id)
    if event.kind == Event.Kind.TOURNAMENT:
        # A tournament's night is its settings' part: edited with them, locked with them once a
        # round has started (its tables copied its rules; its fees are at its chip rate).
        return redirect("tournaments:tournament_for_event", event.pk)
    frozen = game_services.event_has_hands(event)
    held = "" if frozen else night_services.game_held_by(event)
    form = EventForm(request.POST or None, instance=event, frozen=frozen, game_held=held)
    if _asks_for_another_game(request, form):
        form = EventForm.shown_again(request.POST, instance=event, frozen=frozen, game_held=held)
        return _event_form_page(request, form, event=event, frozen=frozen, shown_again=True)
    if request.method == "POST" and form.is_valid():
        try:
            night_services.event_edit(event=event, by=request.user, **form.changes())
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, _("{event} is saved.").format(event=event.name))
            return redirect("ledger:event_detail", event.pk)
    return _event_form_page(request, form, event=event, frozen=frozen)


@table_staff_required
@require_GET
def event_detail(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """The event page; ``?settle=<guest>`` (a "Settle" beside a line) opens the settle-up form
    for that guest, filled in from their balance."""
    event = get_object_or_404(Event, pk=event_id)
    return _render_event(request, event)


def _render_event(
    request: AuthenticatedHttpRequest, event: Event, **forms: BaseForm
) -> HttpResponse:
    settle = id_or_none(request.GET.get("settle", "")) if is_host(request.user) else None
    context = _event_context(event, settle, **forms)
    if event.display_token and is_host(request.user):
        path = reverse("display:table_display", args=[event.pk, event.display_token])
        context["display_qr"] = qr_svg(request.build_absolute_uri(path))
    return render(request, "ledger/nights/event_detail.html", context)


def _event_context(
    event: Event, settle_guest: int | None = None, **forms: BaseForm
) -> dict[str, object]:
    shoes = list(event_shoes(event))
    settlement_form = forms.get("settlement_form")
    assert settlement_form is None or isinstance(settlement_form, SettlementForm)
    results = event_results_context(event, settlement_form, settle_guest=settle_guest)
    return results | {
        "event": event,
        "rules_description": event.describe_rules(_),
        "shoes": shoes,
        "open_shoe": next((shoe for shoe in shoes if shoe.is_open), None),
        "guests": Guest.objects.filter(events=event),
        "guest_form": forms.get("guest_form") or GuestAddForm(),
        "bring_back_form": forms.get("bring_back_form") or BringBackForm(event=event),
        "count_only": CountSetup.objects.filter(event=event, count_only=True).exists(),
    }


def event_results_context(
    event: Event,
    settlement_form: SettlementForm | None = None,
    *,
    settle_guest: int | None = None,
) -> dict[str, object]:
    """What the event page shows of money: the per-shoe table, its chart, the settlement list,
    the settlements recorded, and the settle-up form of one guest when one is being settled
    (``settle_guest``, or the guest of a form shown again)."""
    rows, totals = event_shoe_rows(event)
    lines = event_settlement(event)
    if settlement_form is not None and settlement_form.is_bound:
        settle_guest = id_or_none(str(settlement_form.data.get("guest", "")))
    line = next((line for line in lines if line.guest_id == settle_guest), None)
    if line is not None and line.after != (now := guest_balance_now(guest_id=line.guest_id)):
        # Settled or played at a later night since: settle what is owed now, not then.
        carried = now - line.result - line.settled
        carried_money = to_money(carried, event.money_per_chip, event.currency)
        line = replace(line, before=carried, before_money={event.currency: carried_money})
    if line is not None and settlement_form is None:
        settlement_form = SettlementForm.for_balance(
            event=event, guest_id=line.guest_id, balance=line.after
        )
    night = night_figures(event)
    return {
        "shoe_rows": rows,
        "shoe_totals": totals,
        "night": night,
        "night_rows": without_hands(night),
        "shoe_chart": result_bars(
            _("Guests' gross result per shoe"),
            [str(row.number) for row in rows],
            [row.figures.gross for row in rows],
        )
        if rows
        else "",
        "settlement": lines,
        "settle_line": line,
        "settle_heading": settle_heading(line, event) if line is not None else "",
        "settlement_form": settlement_form if line is not None else None,
        "settlement_rows": event_settlement_rows(event),
        "any_over_limit": any(line.over_limit for line in lines),
    } | (_guest_banked_context(event) if event.is_guest_banked else {})


def _guest_banked_context(event: Event) -> dict[str, object]:
    """A guest-banked night's own figures: its stints at the bank, each banker's added up, the
    house's cut, and the settling up between guests (the fewest transfers, or through the
    house). Eight queries, however many coups or guests."""
    stints = banker_stints(event)
    totals = banker_totals(stints)
    return {
        "stint_table": BankerStintTable(stints),
        "banker_table": BankerTotalTable(totals),
        "house_cut": sum((stint.house_cut for stint in stints), ZERO),
        "clearing": clearing_panel(event),
    }


def settle_heading(line: SettlementLine, event: Event) -> str:
    """ "House pays 小林 $298.50 / ¥29,850": the whole balance, which way, in chips and money
    (per currency, when the balance was carried across nights in more than one)."""
    if not line.after:
        return MSG_GUEST_SQUARE.format(guest=line.name)
    text = MSG_HOUSE_PAYS if line.after > 0 else MSG_GUEST_PAYS
    amount = format_chips(abs(line.after), event.currency_symbol)
    return text.format(
        guest=line.name,
        amount=amount,
        money=format_money_each(
            {currency: abs(amount) for currency, amount in line.after_money.items()}
        ),
    )


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

    def add() -> None:
        guest = guest_services.event_guest_add(event=event, name=name, by=request.user)
        if name_key(guest.name) != name_key(name):  # found by an alias: say who it is
            messages.info(request, MSG_FOUND_BY_ALIAS.format(name=name, guest=guest.name))

    return _event_action(request, event, add, guest_form=form)


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
        return render(
            request,
            "ledger/nights/event_bring_back.html",
            {"event": event, "source": source, "form": form},
        )
    form = BringBackChecklistForm(request.POST, event=event, from_event=source)
    if not form.is_valid():
        return render(
            request,
            "ledger/nights/event_bring_back.html",
            {"event": event, "source": source, "form": form},
            status=400,
        )

    def bring_back() -> None:
        added = guest_services.event_guests_bring_back(
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
        night_services.event_close(event=event, by=request.user)
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
        "count": count_at_close(event),
    }
    return render(request, "ledger/nights/event_close.html", context)


@host_required
@require_POST
def event_reopen(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)

    def reopen() -> None:
        night_services.event_reopen(event=event, by=request.user)
        messages.success(request, MSG_EVENT_REOPENED.format(event=event.name))

    return _event_action(request, event, reopen)


@host_required
@require_POST
def settlement_record(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Record a settlement. One that goes past the balance or the other way is asked first:
    the page comes back with the question and a box to tick (no script needed)."""
    event = get_object_or_404(Event, pk=event_id)
    form = SettlementForm(request.POST, event=event)
    if form.is_valid():
        data = form.cleaned_data
        try:
            settlement = money_services.settlement_record(
                guest=data["guest"],
                event=event,
                amount=form.signed_amount(),
                method=data["method"],
                note=data["note"],
                by=request.user,
                ask_first=not data["confirm"],
                idempotency_key=data["idempotency_key"],
                dated=data["dated"],
                way=form.way,
                tab_reference=data["tab_reference"],
            )
        except money_services.SettlementQuestion as question:
            form.ask(" ".join(question.messages))
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, recorded_message(settlement, event))
            return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#settlement")
    for problem in form.errors.get("guest", []):  # a stale page: no settle panel to show it in
        messages.error(request, str(problem))
    response = _render_event(request, event, settlement_form=form)
    if form.errors:
        response.status_code = 400
    return response


def recorded_message(settlement: Settlement, event: Event) -> str:
    """What was recorded, in words: who, which way, how much, how."""
    text = MSG_RECORDED_GUEST_PAID if settlement.amount > 0 else MSG_RECORDED_HOUSE_PAID
    return text.format(
        guest=settlement.guest.name,
        amount=format_chips(abs(settlement.amount), event.currency_symbol),
        money=format_money(
            to_money(abs(settlement.amount), event.money_per_chip, event.currency), event.currency
        ),
        method=settlement.how,
    )


@host_required
@require_POST
def settlement_void(request: AuthenticatedHttpRequest, settlement_id: int) -> HttpResponse:
    """Void a settlement recorded by mistake: a reversing row, with the reason."""
    settlement = get_object_or_404(
        Settlement.objects.select_related("event", "guest", "way"), pk=settlement_id
    )
    event = settlement.event
    form = VoidForm(request.POST)

    def void() -> HttpResponse:
        if not form.is_valid():
            raise ValidationError([error for errors in form.errors.values() for error in errors])
        money_services.settlement_void(
            settlement=settlement, reason=form.cleaned_data["reason"], by=request.user
        )
        messages.success(
            request,
            MSG_VOIDED.format(
                guest=settlement.guest.name,
                amount=format_chips(settlement.amount, event.currency_symbol, signed=True),
                method=settlement.how,
                reason=form.cleaned_data["reason"].strip(),
            ),
        )
        return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#settlements-recorded")

    return _event_action(request, event, void)


@host_required
@require_POST
def display_link_issue(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """A new read-only link for the event's table display (a TV at the bar)."""
    event = get_object_or_404(Event, pk=event_id)
    game_services.event_display_link_issue(event=event)
    return redirect("ledger:event_detail", event.pk)
