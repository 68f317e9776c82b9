"""Every output of a set of nights fetched as a host (or a guest by their link, or the group by
the shared link) fetches it, and read back into one :class:`Seen`."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook

from games import services as game_services
from games.models import Event
from ledger.guests import services as guest_services
from ledger.guests.previews import preview_png
from ledger.models import ChipMove, EventGuest, Guest, GuestEventResult
from tests.crosscheck import outputs
from tests.crosscheck.outputs import Seen
from tournaments.models import Tournament

SOFFICE = shutil.which("soffice")


def body(response: Any) -> bytes:
    assert response.status_code == 200, (response.status_code, response.get("Location"))
    if response.streaming:
        return b"".join(response.streaming_content)
    return bytes(response.content)


def guests_of(night: Event) -> list[Guest]:
    ids = set(EventGuest.objects.filter(event=night).values_list("guest_id", flat=True))
    ids |= set(GuestEventResult.objects.filter(event=night).values_list("guest_id", flat=True))
    return list(Guest.objects.filter(pk__in=ids).order_by("name"))


def collect(
    client: Any, nights: Iterable[Event], *, monkeypatch: Any, recompute: bool = False
) -> Seen:
    """Every output of ``nights`` (and of their season) read back. ``client`` is logged in as
    a host. With ``recompute``, each workbook is also recomputed by LibreOffice and read again."""
    nights = list(nights)
    names = {night.name for night in nights}
    seen = Seen()
    drawn: list[tuple[str, ...]] = []

    def preview(*texts: str, **flags: Any) -> bytes:
        drawn.append(texts)
        return preview_png(*texts, **flags)

    # The preview is a PNG: its words are read as the view hands them to be drawn.
    monkeypatch.setattr("ledger.guests.views.sharing.preview_png", preview)
    for night in nights:
        name = night.name
        outputs.event_page(seen, name, body(client.get(url("ledger:event_detail", night.pk))))
        outputs.results_page(
            seen, name, body(client.get(url("ledger:event_guest_results", night.pk)))
        )
        game_services.event_share_names_set(event=night, share_names=True)
        token = game_services.event_results_link_issue(event=night)
        outputs.shared_page(
            seen, name, body(client.get(url("ledger:shared_results", night.pk, token)))
        )
        drawn.clear()
        body(client.get(url("ledger:shared_results_preview", night.pk, token)))
        outputs.preview_source(seen, name, drawn[0])
        tournament = Tournament.objects.filter(event=night).first()
        if tournament is not None:
            page = body(client.get(reverse("tournaments:tournament_detail", args=[tournament.pk])))
            outputs.tournament_page(seen, name, page)
        if ChipMove.objects.filter(event=night).exists():
            outputs.count_page(seen, name, body(client.get(url("ledger:count_page", night.pk))))
        content = body(client.get(url("ledger:event_workbook", night.pk)))
        outputs.workbook(seen, "night's workbook", content, scope=outputs.NIGHT)
        if recompute:
            outputs.workbook(
                seen, "night's workbook (LibreOffice)", recomputed(content), scope=outputs.NIGHT
            )
        for guest in guests_of(night):
            receipt = url("ledger:guest_receipt", guest.pk, night.pk)
            outputs.receipt_page(seen, name, guest.name, body(client.get(receipt)))
            pdf = url("ledger:guest_receipt_pdf", guest.pk, night.pk)
            outputs.receipt_pdf(seen, name, guest.name, body(client.get(pdf)))
    every = sorted({guest.pk: guest for night in nights for guest in guests_of(night)}.values(),
                   key=lambda guest: guest.name)  # fmt: skip
    for guest in every:
        page = body(client.get(url("ledger:guest_detail", guest.pk)))
        outputs.guest_page(seen, "guest page (host)", guest.name, names, page)
        token = guest_services.guest_link_issue(guest=guest)
        page = body(client.get(url("ledger:guest_page", guest.pk, token)))
        outputs.guest_page(seen, "guest page (link)", guest.name, names, page)
        statement = body(client.get(url("ledger:guest_statement", guest.pk, token)))
        outputs.workbook(seen, "guest's statement", statement, scope="guest")
    outputs.house_page(seen, names, body(client.get(reverse("ledger:house"))))
    outputs.standings_page(seen, body(client.get(reverse("ledger:standings"))))
    season = season_workbook(nights)
    outputs.workbook(seen, "season workbook", season)
    if recompute:
        outputs.workbook(seen, "season workbook (LibreOffice)", recomputed(season))
    seen.keep_only(names)
    if Event.objects.nights().count() != len(nights):
        seen.drop_season()
    return seen


def url(name: str, *args: object) -> str:
    return reverse(name, args=args)


def season_workbook(nights: list[Event]) -> bytes:
    """The season's workbook as the host writes it: ``export_settlement --from --to``."""
    first: date = min(night.date for night in nights)
    last: date = max(night.date for night in nights)
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "season.xlsx"
        call_command(
            "export_settlement", "--from", first.isoformat(), "--to", last.isoformat(),
            "--output", str(target), stdout=io.StringIO(),
        )  # fmt: skip
        return target.read_bytes()


def recomputed(content: bytes) -> bytes:
    """The workbook with every formula's cached value taken out, opened by LibreOffice and
    saved again as .xlsx: each formula's value is then what LibreOffice computed. Every
    formula must have one."""
    assert SOFFICE, "LibreOffice (soffice) is not installed"
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "book.xlsx"
        source.write_bytes(without_cached_values(content))
        out = Path(folder) / "out"
        subprocess.run(
            [SOFFICE, "--headless", f"-env:UserInstallation=file://{folder}/profile",
             "--convert-to", "xlsx", "--outdir", str(out), str(source)],
            check=True, capture_output=True, timeout=180,
        )  # fmt: skip
        saved = (out / "book.xlsx").read_bytes()
    formulas = load_workbook(io.BytesIO(content))
    values = load_workbook(io.BytesIO(saved), data_only=True)
    for sheet in formulas.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and cell.value.startswith("="):
                    computed = values[sheet.title][cell.coordinate].value
                    assert computed is not None, f"{sheet.title}!{cell.coordinate} {cell.value}"
    return saved


def without_cached_values(content: bytes) -> bytes:
    """The .xlsx with each formula cell's cached value removed."""
    source = zipfile.ZipFile(io.BytesIO(content))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = CACHED.sub(rb"\1", data)
            target.writestr(item, data)
    return out.getvalue()


CACHED = re.compile(rb"(<f>[^<]*</f>)<v>[^<]*</v>")
