"""Workbooks out, scoresheets in: the settlement download and the scoresheet upload."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET

from games.currencies import DEFAULT_CURRENCY
from games.forms import RuleSetForm
from games.kinds import Game
from games.models import Event
from ledger.audit import AUDIT_COLUMNS, audit_rows
from ledger.models import AuditEntry
from ledger.money.filters import EventDateRange
from ledger.workbook.blanks import count_template_xlsx, template_csv, template_xlsx
from ledger.workbook.count_imports import (
    COUNT_TEMPLATE,
    CountImported,
    CountRow,
    check_count_sheet,
    count_sheet_import,
    is_count_sheet,
)
from ledger.workbook.exports import events_between, workbook_bytes, xlsx_response
from ledger.workbook.forms import (
    MAX_UPLOAD_BYTES,
    MSG_NIGHT_EXISTS,
    ScoresheetForm,
    ScoresheetGameForm,
)
from ledger.workbook.imports.coup_sheet import COUP_SHEET_COLUMNS, check_coup_sheet
from ledger.workbook.imports.night_workbook import (
    WorkbookImported,
    WorkbookNight,
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.imports.night_writer import (
    MSG_BETS,
    MSG_COUPS,
    MSG_GUESTS,
    MSG_HANDS,
    MSG_NIGHTS,
    Imported,
    NightTaken,
    coup_sheet_import,
    scoresheet_import,
)
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.imports.upload_keys import (
    import_once,
    imported_under,
    nights_text,
    upload_digest,
)
from ledger.workbook.open_data import (
    TABLE_NAMES,
    csv_zip,
    export_json,
    rows_csv,
    table_csv,
    table_named,
)
from ledger.workbook.reading import ScoresheetInvalid, ScoresheetUnreadable
from shoebook.base.converters import id_or_none
from shoebook.base.downloads import content_disposition
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

TEMPLATE_NAMES = {
    Game.PUNTO_BANCO: "scoresheet-template",
    Game.CHEMIN_DE_FER: "scoresheet-chemin-de-fer",
    Game.BACCARA_BANQUE: "scoresheet-baccara-banque",
}


MSG_BAD_DATE = gettext_lazy("“{text}” is not a date: write it as YYYY-MM-DD.")
# Download names, in the reader's language as the receipt's (MSG_RECEIPT_FILE).
MSG_SEASON_FILE = pgettext_lazy("file name", "season")
MSG_FROM_FILE = pgettext_lazy("file name", "from {date}")
MSG_TO_FILE = pgettext_lazy("file name", "to {date}")
MSG_CSV_ZIP_FILE = pgettext_lazy("file name", "{name} (csv).zip")
MSG_AUDIT_FILE = pgettext_lazy("file name", "audit")
MSG_AUDIT_EVENT_FILE = pgettext_lazy("file name", "audit event {id}")
MSG_BAD_ID = gettext_lazy("“{text}” is not a night's id: give ?{name}= a night's number.")


def season_bounds(request: HttpRequest) -> tuple[date | None, date | None] | HttpResponse:
    """The season's ``?start=`` and ``?end=`` (either may be left out) as the House page's
    filter reads them, for every answer of a season; a date it cannot read answers 400."""
    date_range = EventDateRange(request.GET, queryset=Event.objects.none())
    form = date_range.form
    if not form.is_valid():
        key = next(key for key in ("start", "end") if key in form.errors)
        message = MSG_BAD_DATE.format(text=request.GET.get(key, ""))
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    return form.cleaned_data.get("start"), form.cleaned_data.get("end")


@host_required
@require_GET
def season_workbook(request: AuthenticatedHttpRequest) -> HttpResponse | FileResponse:
    """The workbook of every night between two dates (the House page's filter), in the reader's
    language: what ``manage.py export_settlement --from --to`` writes."""
    bounds = season_bounds(request)
    if isinstance(bounds, HttpResponse):
        return bounds
    events = events_between(*bounds)
    dates = [f"{events[0].date:%Y-%m-%d}", f"{events[-1].date:%Y-%m-%d}"] if events else []
    name = " ".join([_("Season"), *dict.fromkeys(dates)])
    return xlsx_response(workbook_bytes(events), f"{name}.xlsx")


@host_required
@require_GET
def event_workbook(request: AuthenticatedHttpRequest, event_id: int) -> FileResponse:
    event = get_object_or_404(Event, pk=event_id)
    return xlsx_response(workbook_bytes([event]), f"{event.date:%Y-%m-%d} {event.name}.xlsx")


MSG_IMPORTED = gettext_lazy("Imported {hands} and {bets}.")
MSG_IMPORTED_COUNT_ONLY = gettext_lazy("Imported a night kept by its count alone: {guests}.")
MSG_IMPORTED_WORKBOOK = gettext_lazy("Imported {nights} from the workbook: {hands} and {bets}.")
MSG_NEW_GUESTS = gettext_lazy("New guests: {names}.")


@host_required
def scoresheet_upload(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The upload: a scoresheet, a count sheet or a workbook this site exported. Each carries
    the form's idempotency key: the same upload sent again is answered with the nights it made."""
    key: uuid.UUID | None = None
    digest = ""
    if request.method == "POST":
        sent = _sent_key(request)
        if isinstance(sent, HttpResponse):
            return sent
        key, digest = sent, _upload_digest(request)
        try:
            done = imported_under(key, digest)
        except ValidationError as used:
            refused = [str(message) for message in used.messages]
            return _upload_page(request, _blank_form(), ScoresheetGameForm(), refused)
        if done is not None:
            return _already_imported(request, done)
    nights = _night_workbook(request)
    if nights is not None:  # a workbook Shoebook exported: its nights as they were
        return _workbook_upload(request, nights, key, digest)
    form = _blank_form(request.POST or None, request.FILES or None)
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

            def imported() -> HttpResponse:
                name, on, table, rate = (data["event_name"], data["date"], data["table"],
                                         data["money_per_chip"])  # fmt: skip
                terms = {"currency": data["currency"]}
                by = request.user
                if counted is not None:
                    rows = counted
                    count = import_once(
                        key=key,
                        digest=digest,
                        by=by,
                        nights=[(name, on)],
                        write=lambda: count_sheet_import(
                            rows=rows,
                            name=name,
                            on=on,
                            by=by,
                            money_per_chip=rate,
                            currency=data["currency"],
                        ),
                        events_of=lambda done: [Event.objects.get(pk=done.event_id)],
                    )
                    if count.written is None:
                        return _already_imported(request, count.events)
                    messages.success(request, _count_imported_text(count.written))
                    return redirect("ledger:event_detail", count.written.event_id)

                def write() -> Imported:
                    if game is None:
                        return scoresheet_import(
                            hands=hands,
                            name=name,
                            on=on,
                            table=table,
                            by=by,
                            money_per_chip=rate,
                            terms=terms,
                        )
                    return coup_sheet_import(
                        coups=coups, game=game, name=name, on=on, table=table, by=by,
                        money_per_chip=rate, terms=terms,
                    )  # fmt: skip

                sheet = import_once(
                    key=key,
                    digest=digest,
                    by=by,
                    nights=[(name, on)],
                    write=write,
                    events_of=lambda done: [done.event],
                )
                if sheet.written is None:
                    return _already_imported(request, sheet.events)
                messages.success(request, _imported_text(sheet.written, coups=game is not None))
                return redirect("ledger:event_detail", sheet.written.event.pk)

            try:
                return imported()
            except NightTaken as taken:  # another upload of the night wrote it at this moment
                on_day = f"{taken.event.date:%Y-%m-%d}"
                problems = [str(MSG_NIGHT_EXISTS.format(event=taken.event.name, date=on_day))]
    return _upload_page(request, form, game_form, problems)


MSG_BAD_KEY = gettext_lazy(
    "This upload's key is not one the import form makes: reload the page and upload again."
)
MSG_ALREADY_IMPORTED = gettext_lazy(
    "Already imported: this upload was imported once as {nights}. Nothing was imported again."
)


def _sent_key(request: AuthenticatedHttpRequest) -> uuid.UUID | HttpResponse | None:
    """The upload's idempotency key (``None``: a form without one, as an older page's)."""
    text = request.POST.get("idempotency_key", "").strip()
    if not text:
        return None
    try:
        return uuid.UUID(text)
    except ValueError:
        return HttpResponseBadRequest(str(MSG_BAD_KEY), content_type="text/plain; charset=utf-8")


def _upload_digest(request: AuthenticatedHttpRequest) -> str:
    upload = request.FILES.get("file")
    content = b""
    if upload is not None and (upload.size or 0) <= MAX_UPLOAD_BYTES:
        content = upload.read()
        upload.seek(0)
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "idempotency_key")
        for value in values
    ]
    name = upload.name if upload is not None and upload.name else ""
    return upload_digest(content, [*fields, ("file", name)])


def _already_imported(request: AuthenticatedHttpRequest, events: list[Event]) -> HttpResponse:
    messages.info(request, str(MSG_ALREADY_IMPORTED).format(nights=nights_text(events)))
    if len(events) == 1:
        return redirect("ledger:event_detail", events[0].pk)
    return redirect("ledger:event_list")


def _workbook_upload(
    request: AuthenticatedHttpRequest,
    nights: list[WorkbookNight],
    key: uuid.UUID | None,
    digest: str,
) -> HttpResponse:
    try:
        checked = check_night_workbook(nights)
        keyed = import_once(
            key=key,
            digest=digest,
            by=request.user,
            nights=[(night.name, night.on) for night in checked],
            write=lambda: night_workbook_import(nights=checked, by=request.user),
            events_of=lambda done: done.events,
        )
    except ScoresheetInvalid as invalid:
        problems = [str(problem) for problem in invalid.problems]
        return _upload_page(request, _blank_form(), ScoresheetGameForm(), problems)
    except NightTaken as taken:  # another upload of the night wrote it at this moment
        on = f"{taken.event.date:%Y-%m-%d}"
        problems = [str(MSG_NIGHT_EXISTS.format(event=taken.event.name, date=on))]
        return _upload_page(request, _blank_form(), ScoresheetGameForm(), problems)
    if keyed.written is None:
        return _already_imported(request, keyed.events)
    messages.success(request, _workbook_imported_text(keyed.written))
    if len(keyed.events) == 1:
        return redirect("ledger:event_detail", keyed.events[0].pk)
    return redirect("ledger:event_list")


def _blank_form(data: Any = None, files: Any = None) -> ScoresheetForm:
    return ScoresheetForm(
        data,
        files,
        initial=RuleSetForm.initial_data()
        | {"currency": DEFAULT_CURRENCY, "money_per_chip": 100, "table_min": 10, "table_max": 1000},
    )


def _night_workbook(request: AuthenticatedHttpRequest) -> list[WorkbookNight] | None:
    """The nights of the upload, if it is a workbook Shoebook exported (its Rules sheet says
    each night's terms: the form's name, date and rules are not asked for)."""
    upload = request.FILES.get("file") if request.method == "POST" else None
    if upload is None or upload.name is None or (upload.size or 0) > MAX_UPLOAD_BYTES:
        return None
    content = upload.read()
    upload.seek(0)
    try:
        return read_night_workbook(upload.name, content)
    except ScoresheetUnreadable:
        return None  # read as a scoresheet, which says why


def _upload_page(
    request: AuthenticatedHttpRequest,
    form: ScoresheetForm,
    game_form: ScoresheetGameForm,
    problems: list[str],
) -> HttpResponse:
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


def _new_guests(names: list[str]) -> str:
    return " " + str(MSG_NEW_GUESTS).format(names=", ".join(names)) if names else ""


def _count_imported_text(imported: CountImported) -> str:
    guests = MSG_GUESTS % {"count": imported.guests}
    text = str(MSG_IMPORTED_COUNT_ONLY).format(guests=guests)
    return text + _new_guests(imported.created_guests)


def _imported_text(imported: Imported, *, coups: bool) -> str:
    hands = (MSG_COUPS if coups else MSG_HANDS) % {"count": imported.hands}
    text = str(MSG_IMPORTED).format(hands=hands, bets=MSG_BETS % {"count": imported.bets})
    return text + _new_guests(imported.created_guests)


def _workbook_imported_text(imported: WorkbookImported) -> str:
    text = str(MSG_IMPORTED_WORKBOOK).format(
        nights=MSG_NIGHTS % {"count": len(imported.events)},
        hands=MSG_HANDS % {"count": imported.hands},
        bets=MSG_BETS % {"count": imported.bets},
    )
    return text + _new_guests(imported.created_guests)


@host_required
@require_GET
def scoresheet_template(request: AuthenticatedHttpRequest) -> HttpResponse | FileResponse:
    """The template of a game's scoresheet (``?game=chemin_de_fer``; none: Punto Banco's), as a
    CSV or (``?format=xlsx``) a workbook whose cells check what is typed; ``?layout=count``, a
    night kept by its count alone (a CSV, or a workbook too)."""
    if request.GET.get("layout") == "count":
        if request.GET.get("format") == "xlsx":
            return xlsx_response(count_template_xlsx(), "scoresheet-count.xlsx")
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


# --- exports for other tools: CSV and JSON (``ledger.workbook.open_data``) -------------------

MSG_NO_SUCH_TABLE = gettext_lazy("There is no table called “{name}”: ask for one of {names}.")


def _csv_answer(
    request: HttpRequest, events: Sequence[Event], stem: str
) -> HttpResponse | StreamingHttpResponse:
    """Every table as a CSV file in a zip, or (``?table=bets``) one table as CSV text."""
    name = request.GET.get("table")
    if name is None:
        response = HttpResponse(csv_zip(events), content_type="application/zip")
        response["Content-Disposition"] = content_disposition(MSG_CSV_ZIP_FILE.format(name=stem))
        return response
    table = table_named(name)
    if table is None:
        message = MSG_NO_SUCH_TABLE.format(name=name, names=", ".join(TABLE_NAMES))
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    streamed = StreamingHttpResponse(
        table_csv(table, events), content_type="text/csv; charset=utf-8"
    )
    streamed["Content-Disposition"] = content_disposition(f"{stem} {table.name}.csv")
    return streamed


def _json_answer(
    events: Sequence[Event], scope: dict[str, object], stem: str
) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        export_json(events, scope), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = content_disposition(f"{stem}.json")
    return response


def _night_stem(event: Event) -> str:
    return f"{event.date:%Y-%m-%d} {event.name}"


@host_required
@require_GET
def event_export_csv(
    request: AuthenticatedHttpRequest, event_id: int
) -> HttpResponse | StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    return _csv_answer(request, [event], _night_stem(event))


@host_required
@require_GET
def event_export_json(request: AuthenticatedHttpRequest, event_id: int) -> StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    return _json_answer([event], {"kind": "night", "night_id": event.pk}, _night_stem(event))


def _season(request: HttpRequest) -> tuple[list[Event], dict[str, object], str] | HttpResponse:
    """The nights between ``?start=`` and ``?end=`` (either may be left out), as the House page
    and ``manage.py export_settlement --from --to`` choose them."""
    bounds = season_bounds(request)
    if isinstance(bounds, HttpResponse):
        return bounds
    start, end = bounds
    scope: dict[str, object] = {
        "kind": "season",
        "start": start.isoformat() if start else None,
        "end": end.isoformat() if end else None,
    }
    stem = " ".join(
        [
            str(MSG_SEASON_FILE),
            *([MSG_FROM_FILE.format(date=start)] if start else []),
            *([MSG_TO_FILE.format(date=end)] if end else []),
        ]
    )
    return events_between(start, end), scope, stem


@host_required
@require_GET
def season_export_csv(request: AuthenticatedHttpRequest) -> HttpResponse | StreamingHttpResponse:
    season = _season(request)
    if isinstance(season, HttpResponse):
        return season
    events, _scope, stem = season
    return _csv_answer(request, events, stem)


@host_required
@require_GET
def season_export_json(request: AuthenticatedHttpRequest) -> HttpResponse | StreamingHttpResponse:
    season = _season(request)
    if isinstance(season, HttpResponse):
        return season
    events, scope, stem = season
    return _json_answer(events, scope, stem)


@host_required
@require_GET
def audit_export_csv(request: AuthenticatedHttpRequest) -> HttpResponse | StreamingHttpResponse:
    """The audit log as CSV (``?event=ID``: one night's entries), as the Audit page lists it."""
    entries = AuditEntry.objects.all()
    text = request.GET.get("event", "")
    event_id = id_or_none(text)
    if text.strip() and event_id is None:
        message = MSG_BAD_ID.format(text=text, name="event")
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    if event_id is not None:
        entries = entries.filter(event_id=event_id)
    response = StreamingHttpResponse(
        rows_csv(AUDIT_COLUMNS, audit_rows(entries)), content_type="text/csv; charset=utf-8"
    )
    stem = MSG_AUDIT_FILE if event_id is None else MSG_AUDIT_EVENT_FILE.format(id=event_id)
    response["Content-Disposition"] = content_disposition(f"{stem}.csv")
    return response
