"""A tournament's results: its final standings (or the standings so far) and its workbook; and
the season's standings with tournament points."""

from __future__ import annotations

from typing import Any

from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET
from django_tables2 import RequestConfig

from games.models import Event
from ledger.money.filters import EventDateRange
from ledger.workbook.exports import xlsx_response
from shoebook.base.roles import AuthenticatedHttpRequest, host_required, table_staff_required
from tournaments.exports import tournament_workbook_bytes
from tournaments.models import Tournament
from tournaments.report_tables import SeasonTable
from tournaments.results import SeasonLine, season_standings, tournament_report


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("event"), pk=tournament_id)


@table_staff_required
@require_GET
def final_standings(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament(tournament_id)
    report = tournament_report(tournament)
    return render(request, "tournaments/standings.html", {"report": report})


@host_required
@require_GET
def tournament_workbook(request: AuthenticatedHttpRequest, tournament_id: int) -> FileResponse:
    tournament = _tournament(tournament_id)
    name = f"{tournament.event.date:%Y-%m-%d} {tournament.event.name}.xlsx"
    return xlsx_response(tournament_workbook_bytes(tournament), name)


def _ranked(lines: list[SeasonLine]) -> list[dict[str, Any]]:
    """The lines as table rows, ranked by points: equal points share a rank (1, 2, 2, 4)."""
    rows = []
    rank = 0
    for index, line in enumerate(lines, start=1):
        if index == 1 or line.points != lines[index - 2].points:
            rank = index
        rows.append(
            {
                "rank": rank,
                "name": line.name,
                "points": line.points,
                "played": line.played,
                "best": line.best,
                "net": line.net,
                "hands": line.hands,
            }
        )
    return rows


@table_staff_required
@require_GET
def season(request: AuthenticatedHttpRequest) -> HttpResponse:
    date_range = EventDateRange(request.GET, queryset=Event.objects.nights())
    lines = season_standings(date_range.qs) if date_range.is_valid() else []
    table = SeasonTable(_ranked(lines))
    RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return render(request, "tournaments/season.html", {"filter": date_range, "table": table})
