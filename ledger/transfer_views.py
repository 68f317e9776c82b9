"""Workbooks out, scoresheets in: the settlement download and the scoresheet upload."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib import messages
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from games.entry import TableRules
from games.forms import RuleSetForm
from games.models import Event
from ledger.exports import workbook_bytes
from ledger.imports import (
    ScoresheetInvalid,
    ScoresheetUnreadable,
    check_scoresheet,
    scoresheet_import,
    template_csv,
)
from ledger.models import Guest
from shoebook.roles import host_required

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
MAX_UPLOAD_BYTES = 20 * 1024 * 1024


def xlsx_response(content: bytes, filename: str) -> FileResponse:
    from io import BytesIO

    return FileResponse(BytesIO(content), as_attachment=True, filename=filename, content_type=XLSX)


@host_required
@require_GET
def event_workbook(request: HttpRequest, event_id: int) -> FileResponse:
    event = get_object_or_404(Event, pk=event_id)
    return xlsx_response(workbook_bytes([event]), f"{event.date:%Y-%m-%d} {event.name}.xlsx")


def guest_workbook(guest: Guest) -> FileResponse:
    """A guest's own statement: their rows only, every event they played."""
    events = list(Event.objects.filter(guests=guest).order_by("date", "id"))
    return xlsx_response(workbook_bytes(events, guest=guest), f"{guest.name}.xlsx")


class ScoresheetForm(RuleSetForm):
    file = forms.FileField(label=gettext_lazy("Scoresheet (.csv or .xlsx)"))
    event_name = forms.CharField(label=gettext_lazy("Event name"), max_length=120)
    date = forms.DateField(
        label=gettext_lazy("Date"), widget=forms.DateInput(attrs={"type": "date"})
    )
    yen_per_chip = forms.DecimalField(
        label=gettext_lazy("Yen per chip"), min_value=0.0001, max_digits=12, decimal_places=4,
        initial=100,
    )  # fmt: skip
    table_min = forms.DecimalField(
        label=gettext_lazy("Table minimum"), min_value=Decimal("0.01"), max_digits=13,
        decimal_places=2, initial=10,
    )  # fmt: skip
    table_max = forms.DecimalField(
        label=gettext_lazy("Table maximum"), min_value=Decimal("0.01"), max_digits=13,
        decimal_places=2, initial=1000,
    )  # fmt: skip
    field_order = ["file", "event_name", "date", "yen_per_chip", "table_min", "table_max"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        low, high = data.get("table_min"), data.get("table_max")
        if low is not None and high is not None and high < low:
            self.add_error("table_max", _("The table maximum is under the minimum."))
        elif "rules" in data and low is not None:
            data["table"] = TableRules(data["rules"], data["decks"], low, high)
        return data

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB."))
        return upload


@host_required
def scoresheet_upload(request: HttpRequest) -> HttpResponse:
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
def scoresheet_template(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="scoresheet-template.csv"'
    return response
