"""Workbooks out, scoresheets in: the settlement download and the scoresheet upload."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.forms import RuleSetForm
from games.kinds import Game
from games.models import Event
from ledger.money.filters import EventDateRange
from ledger.workbook.blanks import template_csv, template_xlsx
from ledger.workbook.count_imports import (
    COUNT_TEMPLATE,
    CountImported,
    CountRow,
    check_count_sheet,
    count_sheet_import,
    is_count_sheet,
)
from ledger.workbook.exports import workbook_bytes, xlsx_response
from ledger.workbook.forms import ScoresheetForm, ScoresheetGameForm
from ledger.workbook.imports import (
    COUP_SHEET_COLUMNS,
    Imported,
    check_coup_sheet,
    check_scoresheet,
    coup_sheet_import,
    scoresheet_import,
)
from ledger.workbook.reading import ScoresheetInvalid, ScoresheetUnreadable
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

TEMPLATE_NAMES = {
    Game.PUNTO_BANCO: "scoresheet-template",
    Game.CHEMIN_DE_FER: "scoresheet-chemin-de-fer",
    Game.BACCARA_BANQUE: "scoresheet-baccara-banque",
}


MSG_SEASON_DATES = gettext_lazy("Give the season's dates as YYYY-MM-DD (From and To).")


@host_required
@require_GET
def season_workbook(request: AuthenticatedHttpRequest) -> HttpResponse | FileResponse:
    """The workbook of every night between two dates (the House page's filter), in the reader's
    language: what ``manage.py export_settlement --from --to`` writes."""
    date_range = EventDateRange(request.GET, queryset=Event.objects.nights())
    if not date_range.is_valid():
        return HttpResponseBadRequest(str(MSG_SEASON_DATES), content_type="text/plain")
    events = list(date_range.qs.order_by("date", "id"))
    dates = [f"{events[0].date:%Y-%m-%d}", f"{events[-1].date:%Y-%m-%d}"] if events else []
    name = " ".join([_("Season"), *dict.fromkeys(dates)])
    return xlsx_response(workbook_bytes(events), f"{name}.xlsx")


@host_required
@require_GET
def event_workbook(request: AuthenticatedHttpRequest, event_id: int) -> FileResponse:
    event = get_object_or_404(Event, pk=event_id)
    return xlsx_response(workbook_bytes([event]), f"{event.date:%Y-%m-%d} {event.name}.xlsx")


@host_required
def scoresheet_upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ScoresheetForm(
        request.POST or None,
        request.FILES or None,
        initial=RuleSetForm.initial_data()
        | {"yen_per_chip": 100, "table_min": 10, "table_max": 1000},
    )
    game_form = ScoresheetGameForm(request.POST or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid() and game_form.is_valid():
        upload, data = form.cleaned_data["file"], form.cleaned_data
        game = game_form.banked_game()
        counted: list[CountRow] | None = None
        try:
            content = upload.read()
            if is_count_sheet(upload.name, content):
                counted = check_count_sheet(upload.name, content)
            elif game is None:
                hands = check_scoresheet(upload.name, content, data["table"])
            else:
                coups = check_coup_sheet(upload.name, content, data["table"], game)
        except ScoresheetUnreadable as error:
            problems = [str(error)]
        except ScoresheetInvalid as invalid:
            problems = [str(problem) for problem in invalid.problems]
        else:
            name, on, table, yen = (data["event_name"], data["date"], data["table"],
                                    data["yen_per_chip"])  # fmt: skip
            if counted is not None:
                done = count_sheet_import(
                    rows=counted, name=name, on=on, by=request.user, yen_per_chip=yen
                )
                messages.success(request, _count_imported_text(done))
                return redirect("ledger:event_detail", done.event_id)
            imported = (
                scoresheet_import(
                    hands=hands, name=name, on=on, table=table, by=request.user, yen_per_chip=yen
                )
                if game is None
                else coup_sheet_import(
                    coups=coups,
                    game=game,
                    name=name,
                    on=on,
                    table=table,
                    by=request.user,
                    yen_per_chip=yen,
                )
            )
            messages.success(request, _imported_text(imported, coups=game is not None))
            return redirect("ledger:event_detail", imported.event.pk)
    status = 400 if problems else 200
    context = {
        "form": form,
        "game_form": game_form,
        "problems": problems,
        "coup_columns": ", ".join(COUP_SHEET_COLUMNS),
        "templates": [
            (game.value, _(game.label), TEMPLATE_NAMES[game]) for game in Game if game.guest_banked
        ],
    }
    return render(request, "ledger/workbook/scoresheet_upload.html", context, status=status)


def _count_imported_text(imported: CountImported) -> str:
    text = _("Imported a night kept by its count alone: {guests} guests.").format(
        guests=imported.guests
    )
    if imported.created_guests:
        text += " " + _("New guests: {names}.").format(names=", ".join(imported.created_guests))
    return text


def _imported_text(imported: Imported, *, coups: bool) -> str:
    text = (
        _("Imported {hands} coups and {bets} bets.")
        if coups
        else _("Imported {hands} hands and {bets} bets.")
    ).format(hands=imported.hands, bets=imported.bets)
    if imported.created_guests:
        text += " " + _("New guests: {names}.").format(names=", ".join(imported.created_guests))
    return text


@host_required
@require_GET
def scoresheet_template(request: AuthenticatedHttpRequest) -> HttpResponse | FileResponse:
    """The template of a game's scoresheet (``?game=chemin_de_fer``; none: Punto Banco's), as a
    CSV or (``?format=xlsx``) a workbook whose cells check what is typed; ``?layout=count``, a
    night kept by its count alone (a CSV)."""
    if request.GET.get("layout") == "count":
        response = HttpResponse(COUNT_TEMPLATE, content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="scoresheet-count.csv"'
        return response
    try:
        game = Game(request.GET.get("game", Game.PUNTO_BANCO.value))
    except ValueError:
        raise Http404 from None
    name = TEMPLATE_NAMES[game]
    if request.GET.get("format") == "xlsx":
        return xlsx_response(template_xlsx(game), f"{name}.xlsx")
    response = HttpResponse(template_csv(game), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response
