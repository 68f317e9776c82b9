"""Results, balances and settlement pages: the event's figures, guests' own pages, standings."""

from __future__ import annotations

import hmac
from decimal import Decimal
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from games.models import Event, Shoe
from games.scoreboard import scoreboard
from ledger import services
from ledger.charts import balance_line, result_bars
from ledger.filters import EventDateRange
from ledger.forms import SettlementForm
from ledger.models import AuditEntry, Guest
from ledger.money import ZERO, to_yen
from ledger.results import (
    GuestHistory,
    event_guest_results,
    event_settlement,
    event_shoe_rows,
    guest_balances,
    guest_history,
    house_rows,
    standings,
)
from ledger.tables import AuditTable, GuestResultTable, HouseTable, StandingsTable
from ledger.transfer_views import guest_workbook
from shoebook.roles import host_required, table_staff_required

GUEST_PAGE_REFRESH_SECONDS = 15


def event_results_context(
    event: Event, settlement_form: SettlementForm | None = None
) -> dict[str, Any]:
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


@host_required
@require_POST
def settlement_record(request: HttpRequest, event_id: int) -> HttpResponse:
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
            messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))
    return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#settlement")


@table_staff_required
@require_GET
def event_guest_results_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    results = event_guest_results(event)
    shoe_numbers = sorted({number for result in results for number in result.by_shoe})
    data = [
        {
            "name": result.name,
            "hands": result.hands,
            "wagered": result.figures.wagered,
            "gross": result.figures.gross,
            "commission": result.figures.commission,
            "net": result.figures.net,
            "net_yen": to_yen(result.figures.net, event.yen_per_chip),
            "biggest_win": result.biggest_win,
            "biggest_loss": result.biggest_loss,
        }
        for result in results
    ]
    table = GuestResultTable(data)
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    matrix = [
        {
            "name": result.name,
            "cells": [result.by_shoe.get(number) for number in shoe_numbers],
            "total": result.figures,
        }
        for result in results
    ]
    context = {"event": event, "table": table, "matrix": matrix, "shoe_numbers": shoe_numbers}
    return render(request, "ledger/event_guest_results.html", context)


# --- guests --------------------------------------------------------------------------------


@host_required
@require_GET
def guest_list(request: HttpRequest) -> HttpResponse:
    balances = guest_balances()
    guests = [(guest, balances.get(guest.pk)) for guest in Guest.objects.all()]
    return render(request, "ledger/guest_list.html", {"guests": guests})


@host_required
@require_GET
def guest_detail(request: HttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    context = _guest_page_context(guest)
    if guest.access_token:
        link = request.build_absolute_uri(_guest_link(guest))
        context["link"] = link
        context["qr"] = mark_safe(segno.make(link, error="m").svg_inline(scale=4))
    return render(request, "ledger/guest_detail.html", context)


def _guest_link(guest: Guest) -> str:
    return reverse("ledger:guest_page", args=[guest.pk, guest.access_token])


@host_required
@require_POST
def guest_link_issue(request: HttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    services.guest_link_issue(guest=guest)
    text = _("A new private link for {guest}: any earlier link no longer works.")
    messages.success(request, text.format(guest=guest))
    return redirect("ledger:guest_detail", guest.pk)


@host_required
@require_POST
def guest_link_revoke(request: HttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    services.guest_link_revoke(guest=guest)
    messages.success(request, _("{guest}'s private link no longer works.").format(guest=guest))
    return redirect("ledger:guest_detail", guest.pk)


def _guest_page_context(guest: Guest) -> dict[str, Any]:
    history = guest_history(guest)
    playing_in = Shoe.objects.filter(
        closed_at__isnull=True,
        event__closed_at__isnull=True,
        seatings__guest=guest,
        seatings__to_hand__isnull=True,
    ).first()
    playing_now = playing_in is not None
    labels, values = balance_steps(history)
    chart = balance_line(_("Balance after each shoe"), labels, values) if len(values) > 1 else ""
    return {
        "board": scoreboard(playing_in, linked=False) if playing_in else None,
        "guest": guest,
        "history": history,
        "chart": chart,
        "playing_now": playing_now,
        "refresh_seconds": GUEST_PAGE_REFRESH_SECONDS,
    }


def balance_steps(history: GuestHistory) -> tuple[list[str], list[Decimal]]:
    """The running balance after each shoe (and each event's settlements), from zero."""
    labels, values, balance = [_("Start")], [ZERO], ZERO
    for point in history.points:
        for number, figures in history.shoes.get(point.event.pk, []):
            balance += figures.net
            labels.append(f"{point.event.date:%m/%d} #{number}")
            values.append(balance)
        if point.settled:
            balance += point.settled
            labels.append(f"{point.event.date:%m/%d} {_('settled')}")
            values.append(balance)
    return labels, values


def _guest_by_link(guest_id: int, token: str) -> Guest:
    guest = Guest.objects.filter(pk=guest_id).first()
    if (
        guest is None
        or not guest.access_token
        or not hmac.compare_digest(guest.access_token.encode(), token.encode())
    ):
        raise Http404
    return guest


def _guest_of(request: HttpRequest) -> Guest:
    guest = Guest.objects.filter(user=request.user).first()
    if guest is None:
        raise Http404
    return guest


@login_not_required
@require_GET
def guest_page(request: HttpRequest, guest_id: int, token: str) -> HttpResponse:
    """A guest's own page, by private link: that guest's figures and nothing else."""
    return _render_guest_page(request, _guest_by_link(guest_id, token))


@login_not_required
@require_GET
def guest_statement(request: HttpRequest, guest_id: int, token: str) -> HttpResponse:
    """The guest's own workbook, by the same private link."""
    return guest_workbook(_guest_by_link(guest_id, token))


@require_GET
def my_page(request: HttpRequest) -> HttpResponse:
    """A guest who logged in sees their own page."""
    return _render_guest_page(request, _guest_of(request))


@require_GET
def my_statement(request: HttpRequest) -> HttpResponse:
    return guest_workbook(_guest_of(request))


def _render_guest_page(request: HttpRequest, guest: Guest) -> HttpResponse:
    template = "ledger/_guest_page.html" if request.htmx else "ledger/guest_page.html"
    context = _guest_page_context(guest) | {"statement_url": request.path + "statement.xlsx"}
    response = render(request, template, context)
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: never leak it
    response["Cache-Control"] = "private, no-store"
    return response


# --- over a date range ---------------------------------------------------------------------


@table_staff_required
@require_GET
def standings_page(request: HttpRequest) -> HttpResponse:
    date_range = EventDateRange(request.GET, queryset=Event.objects.all())
    rows = standings(date_range.qs) if date_range.is_valid() else []
    data = [
        {
            "rank": rank,
            "name": row.name,
            "net": row.net,
            "hands": row.hands,
            "commission": row.commission,
            "wagered": row.wagered,
        }
        for rank, row in enumerate(rows, start=1)
    ]
    table = StandingsTable(data)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "ledger/standings.html", {"filter": date_range, "table": table})


@host_required
@require_GET
def house_page(request: HttpRequest) -> HttpResponse:
    date_range = EventDateRange(request.GET, queryset=Event.objects.all())
    rows = house_rows(date_range.qs) if date_range.is_valid() else []
    data = [
        {
            "date": row.event.date,
            "event": row.event.name,
            "url": reverse("ledger:event_detail", args=[row.event.pk]),
            "hands": row.hands,
            "wagered": row.figures.wagered,
            "commission": row.figures.commission,
            "house_net": row.figures.house_net,
            "house_net_yen": row.house_net_yen,
            "hold": row.hold,
            "hands_per_hour": row.hands_per_hour,
        }
        for row in rows
    ]
    table = HouseTable(data)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    totals = {
        "house_net": sum((row.figures.house_net for row in rows), start=ZERO),
        "commission": sum((row.figures.commission for row in rows), start=ZERO),
        "wagered": sum((row.figures.wagered for row in rows), start=ZERO),
        "house_net_yen": sum((row.house_net_yen for row in rows), start=ZERO),
        "hands": sum(row.hands for row in rows),
    }
    if totals["wagered"]:
        totals["hold"] = (totals["house_net"] * 100 / totals["wagered"]).quantize(Decimal("0.01"))
    return render(
        request, "ledger/house.html", {"filter": date_range, "table": table, "totals": totals}
    )


@host_required
@require_GET
def audit_log(request: HttpRequest) -> HttpResponse:
    """Every change to money records, newest first; ``?event=ID`` for one event."""
    entries = AuditEntry.objects.select_related("event", "by")
    event_id = request.GET.get("event", "")
    if event_id.isdigit():
        entries = entries.filter(event_id=int(event_id))
    table = AuditTable(entries)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "ledger/audit_log.html", {"table": table})
