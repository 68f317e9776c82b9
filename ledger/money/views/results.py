"""Figures over an event or a date range: per-guest results, standings, the house, audit."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from games.models import Event
from ledger.models import AuditEntry
from ledger.money.amounts import to_money
from ledger.money.figures import night_figures, season_figures
from ledger.money.filters import EventDateRange
from ledger.money.results import event_guest_results, standings
from ledger.money.tables import (
    AuditTable,
    GuestResultTable,
    HouseTable,
    StandingsTable,
    money_heading,
)
from ledger.ratings.selectors import ratings_for
from ledger.ratings.tables import ratings_tables
from shoebook.base.converters import id_or_none
from shoebook.base.roles import AuthenticatedHttpRequest, host_required, table_staff_required


@table_staff_required
@require_GET
def event_guest_results_page(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    night = night_figures(event)  # every guest's figures, a count-only night's too
    results = {result.guest_id: result for result in event_guest_results(event)}
    shoe_numbers = sorted({number for result in results.values() for number in result.by_shoe})
    data = [
        {
            "name": guest.name,
            "hands": guest.hands,
            "wagered": guest.wagered,
            "gross": guest.gross,
            "commission": guest.commission,
            "net": guest.net,
            "net_money": to_money(guest.net, event.money_per_chip, event.currency),
            "currency": event.currency,
            "biggest_win": played.biggest_win if played else None,
            "biggest_loss": played.biggest_loss if played else None,
        }
        for guest in night.guests
        for played in [results.get(guest.guest_id)]
    ]
    table = GuestResultTable(data)
    table.columns["commission"].column.verbose_name = event.cut_name
    table.columns["net_money"].column.verbose_name = money_heading(_("Net"), event)
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    matrix = [
        {
            "name": result.name,
            "cells": [result.by_shoe.get(number) for number in shoe_numbers],
            "total": result.figures,
        }
        for result in sorted(results.values(), key=lambda r: r.name.casefold())
    ]
    context = {"event": event, "table": table, "matrix": matrix, "shoe_numbers": shoe_numbers}
    return render(request, "ledger/money/event_guest_results.html", context)


@table_staff_required
@require_GET
def standings_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    date_range = EventDateRange(request.GET, queryset=Event.objects.nights())
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
    return render(request, "ledger/money/standings.html", {"filter": date_range, "table": table})


@host_required
@require_GET
def house_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    date_range = EventDateRange(request.GET, queryset=Event.objects.nights())
    season = season_figures(date_range.qs.order_by("date", "id") if date_range.is_valid() else [])
    data = [
        {
            "date": night.event.date,
            "event": night.event.name,
            "event_id": night.event.pk,
            "kind": night.event.kind,
            "kind_label": night.event.get_kind_display(),
            "url": reverse("ledger:event_detail", args=[night.event.pk]),
            "hands": night.hands,
            "drop": night.drop,
            "handle": night.handle,
            "commission": night.commission,
            "house_net": night.house_net,
            "house_net_money": night.house_net_money,
            "currency": night.event.currency,
            "hold": night.hold,
            "hands_per_hour": night.hands_per_hour,
        }
        for night in season.nights
    ]
    table = HouseTable(data)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    ratings = ratings_for([night.event for night in season.nights])
    workbook = ""
    if date_range.is_valid() and season.nights:  # the same nights, in the reader's language
        dates = {key: request.GET[key] for key in ("start", "end") if request.GET.get(key)}
        workbook = reverse("ledger:season_workbook") + (f"?{urlencode(dates)}" if dates else "")
    context = {
        "filter": date_range,
        "table": table,
        "season": season,
        "workbook": workbook,
        "ratings": ratings,
        **ratings_tables(request, ratings),
    }
    return render(request, "ledger/money/house.html", context)


@host_required
@require_GET
def audit_log(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Every change to money records, newest first; ``?event=ID`` for one event."""
    entries = AuditEntry.objects.select_related("event", "by")
    event_id = id_or_none(request.GET.get("event", ""))
    if event_id is not None:
        entries = entries.filter(event_id=event_id)
    table = AuditTable(entries)
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "ledger/audit_log.html", {"table": table})
