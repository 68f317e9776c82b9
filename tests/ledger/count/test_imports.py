"""A night kept by its count alone, from a scoresheet (``guest, bought, cashed_out``): through the
upload page and the command, all or nothing, each problem named by row and column."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from games.models import Event
from ledger.count.selectors import night_count
from ledger.integrity import check_ledger
from ledger.models import ChipMove, CountSetup, Guest, GuestEventResult
from ledger.workbook.count_imports import COUNT_TEMPLATE, is_count_sheet
from tests.pages import text

D = Decimal
pytestmark = pytest.mark.django_db

SHEET = "guest,bought,cashed_out,paid_by\nAki,500,720,cash\nBen,300,0,marker\nChie,200,280,\n"


def upload(client, content: str, name="count.csv"):
    return client.post(
        reverse("ledger:scoresheet_upload"),
        {
            "file": SimpleUploadedFile(name, content.encode()),
            "event_name": "Poker-style night",
            "date": "2026-11-20",
            "money_per_chip": "100",
            "table_min": "10",
            "table_max": "1000",
            "decks": "8",
            "no_commission": "none",
            "commission": "5",
            "tie_pays": "8",
            "pair_pays": "11",
        },
    )


def test_a_count_sheet_makes_a_count_only_night_whose_results_are_the_counts(client, host):
    client.force_login(host)
    response = upload(client, SHEET)
    assert response.status_code == 302, text(response)
    event = Event.objects.get()
    assert CountSetup.objects.get(event=event).count_only
    results = {row.guest.name: row.net for row in GuestEventResult.objects.select_related("guest")}
    assert results == {"Aki": D(220), "Ben": D(-300), "Chie": D(80)}
    assert ChipMove.objects.get(guest__name="Ben", kind="buy_in").source == "marker"
    assert ChipMove.objects.get(guest__name="Chie", kind="buy_in").source == "cash"
    assert check_ledger().problems == []


def test_a_guest_who_cashed_out_nothing_is_counted_at_zero(client, host):
    client.force_login(host)
    response = upload(
        client, "guest,bought,cashed_out,paid_by\nWinner,100,200,cash\nLoser,100,0,cash\n"
    )
    assert response.status_code == 302, text(response)
    count = ChipMove.objects.get(guest__name="Loser", kind="count")
    assert count.chips == 0
    night = night_count(Event.objects.get())
    assert night.reconciliation.uncounted == []
    loser_id = Guest.objects.get(name="Loser").pk
    loser = next(row for row in night.reconciliation.guests if row.guest == loser_id)
    assert (loser.counted, loser.difference) == (D(0), D(0))


@pytest.mark.parametrize(
    ("sheet", "nets"),
    [
        # German Excel: semicolons, "1.000" a thousand, "387,5" 387.50.
        ("guest;bought;cashed_out;paid_by\r\nTanaka;1.000;1.430;marker\r\nAki;387,5;0;cash\r\n",
         {"Tanaka": D(430), "Aki": D("-387.5")}),
        # Japanese Excel: yen cells, quoted for their comma.
        ('guest,bought,cashed_out\n田中,"¥1,000","¥1,430"\n', {"田中": D(430)}),
    ],
)  # fmt: skip
def test_a_count_sheet_reads_amounts_as_its_convention_writes_them(client, host, sheet, nets):
    client.force_login(host)
    response = upload(client, sheet)
    assert response.status_code == 302, text(response)
    results = {row.guest.name: row.net for row in GuestEventResult.objects.select_related("guest")}
    assert results == nets


def test_a_count_sheet_cell_that_reads_two_ways_imports_nothing(client, host):
    client.force_login(host)
    response = upload(client, "guest;bought;cashed_out\nAki;1.000;0\nBen;1,000;0\n")
    assert response.status_code == 400
    assert "Row 2 (line 3), bought: “1,000” reads two ways: 1 (with a decimal comma)" in text(
        response
    )
    assert not Event.objects.exists() and not Guest.objects.exists()


@pytest.mark.parametrize(
    ("sheet", "where"),
    [
        ("guest,bought,cashed_out\nAki,abc,10\n", "Row 1 (line 2), bought"),
        ("guest,bought,cashed_out\nAki,10,-5\n", "Row 1 (line 2), cashed_out"),
        ("guest,bought,cashed_out\nAki,10,5\naki,10,5\n", "Row 2 (line 3), guest"),
        ("guest,bought,cashed_out,paid_by\nAki,10,5,iou\n", "Row 1 (line 2), paid_by"),
        ("guest,bought,cashed_out\n,10,5\n", "Row 1 (line 2), guest"),
        ("guest,bought,cashed_out\nAki,0,0\n", "Row 1 (line 2), bought"),
        ("guest,bought,cashed_out\n", "file: no guests in the file."),
        ("guest,bought,cashout\nAki,10,5\n", "cashed_out: missing column"),
    ],
)
def test_a_bad_count_sheet_imports_nothing_and_names_the_row(client, host, sheet, where):
    client.force_login(host)
    response = upload(client, sheet)
    assert response.status_code == 400
    assert where in text(response)
    assert not Event.objects.exists() and not Guest.objects.exists()


def test_the_command_imports_a_count_sheet(tmp_path, host):
    path = tmp_path / "count.csv"
    path.write_text(SHEET)
    out = StringIO()
    call_command(
        "import_scoresheet", str(path), "--event-name", "Count", "--date", "2026-11-20", stdout=out
    )
    assert "kept by its count alone: 3 guests" in out.getvalue()
    path.write_text("guest,bought,cashed_out\nAki,x,1\n")
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command(
            "import_scoresheet",
            str(path),
            "--event-name",
            "Count 2",
            "--date",
            "2026-11-20",
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert Event.objects.count() == 1


def test_the_count_template_is_a_count_sheet_and_a_hands_sheet_is_not(client, host):
    client.force_login(host)
    response = client.get(reverse("ledger:scoresheet_template") + "?layout=count")
    assert response.content.decode() == COUNT_TEMPLATE
    assert is_count_sheet("count.csv", COUNT_TEMPLATE.encode())
    hands = "shoe,hand,player_cards,banker_cards,result,seat,guest,bet,stake\n"
    assert not is_count_sheet("hands.csv", hands.encode())


def test_a_refused_upload_lists_its_problems_before_the_help(client, host):
    client.force_login(host)
    response = upload(client, "guest,bought,cashed_out\nAki,lots,0\n")
    assert response.status_code == 400
    page = response.content.decode()
    problems = page.index('class="refusal"')
    assert problems < page.index("A workbook this site exported")
    assert problems < page.index('id="count-layout"')
    assert page.index("<h1>") < problems
