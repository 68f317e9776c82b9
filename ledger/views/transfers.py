"""Workbooks out, scoresheets in: the settlement download and the scoresheet upload."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.forms import RuleSetForm
from games.models import Event
from ledger.exports import workbook_bytes, xlsx_response
from ledger.forms import ScoresheetForm
from ledger.imports import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    check_scoresheet,
    scoresheet_import,
    template_csv,
)
from shoebook.roles import AuthenticatedHttpRequest, host_required


@host_required
@require_GET
def event_workbook(request: AuthenticatedHttpRequest, event_id: int) -> FileResponse:
    event = get_object_or_404(Event, pk=event_id)
    return xlsx_response(workbook_bytes([event]), f"{event.date:%Y-%m-%d} {event.name}.xlsx")


@host_required
def scoresheet_upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = ScoresheetForm(request.POST or None, request.FILES or None,
                          initial=RuleSetForm.initial_data()
                          | {"yen_per_chip": 100, "table_min": 10, "table_max": 1000})  # fmt: skip
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            hands = check_scoresheet(upload.name, upload.read(), form.cleaned_data["table"])
        except ScoresheetUnreadable as error:
            problems = [str(error)]
        except ScoresheetInvalid as invalid:
            problems = [str(problem) for problem in invalid.problems]
        else:
            imported = scoresheet_import(
                hands=hands, name=form.cleaned_data["event_name"], on=form.cleaned_data["date"],
                table=form.cleaned_data["table"], by=request.user,
                yen_per_chip=form.cleaned_data["yen_per_chip"],
            )  # fmt: skip
            text = _("Imported {hands} hands and {bets} bets.").format(
                hands=imported.hands, bets=imported.bets
            )
            if imported.created_guests:
                text += " " + _("New guests: {names}.").format(
                    names=", ".join(imported.created_guests)
                )
            messages.success(request, text)
            return redirect("ledger:event_detail", imported.event.pk)
    status = 400 if problems else 200
    return render(request, "ledger/scoresheet_upload.html", {"form": form, "problems": problems},
                  status=status)  # fmt: skip


@host_required
@require_GET
def scoresheet_template(request: AuthenticatedHttpRequest) -> HttpResponse:
    response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="scoresheet-template.csv"'
    return response
