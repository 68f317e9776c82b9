"""Scoresheets as spreadsheet programs save them (ledger.workbook.reading): the same night in
Japanese Excel's CSV (Shift_JIS), Excel's semicolon CSV with its byte-order mark, Excel's
"Unicode text" (UTF-16, tabs) and LibreOffice's .ods reads as the plain UTF-8 CSV does. The files
in ``files/`` were written as those programs write them (the .ods by LibreOffice itself)."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from games.entry import TableRules
from games.models import Event
from games.payouts import RuleSet
from ledger.models import Bet
from ledger.workbook import reading
from ledger.workbook.imports.punto_banco_sheet import COLUMNS, check_scoresheet

FILES = Path(__file__).parent / "files"
NIGHT = [
    ["shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
     "seat", "guest", "bet", "stake"],
    ["1", "1", "9 7", "J J 10", "P", "", "", "1", "田中", "player", "100"],
    ["1", "1", "9 7", "J J 10", "P", "", "", "2", "鈴木", "banker", "50"],
    ["1", "2", "", "", "B", "no", "yes", "1", "田中", "banker_pair", "10"],
    ["1", "2", "", "", "B", "no", "yes", "2", "鈴木", "banker", "50"],
]  # fmt: skip
SAVED = ["excel-japanese.csv", "excel-semicolons.csv", "excel-unicode-text.txt", "libreoffice.ods"]
TABLE = TableRules(RuleSet(), 8, Decimal(10), Decimal(1000))


def plain_csv() -> bytes:
    return "".join(",".join(row) + "\n" for row in NIGHT).encode()


def rows_of(name: str, content: bytes) -> list[dict[str, str]]:
    return [cells for _line, cells in reading.read_rows(name, content, COLUMNS)]


@pytest.mark.parametrize("name", SAVED)
def test_a_night_saved_by_a_spreadsheet_program_reads_as_the_plain_csv(name):
    content = (FILES / name).read_bytes()
    assert rows_of(name, content) == rows_of("plain.csv", plain_csv())
    assert [cells["guest"] for cells in rows_of(name, content)] == ["田中", "鈴木", "田中", "鈴木"]


@pytest.mark.django_db  # names are matched against the guests known
@pytest.mark.parametrize("name", SAVED)
def test_it_settles_as_the_plain_csv_does(name):
    content = (FILES / name).read_bytes()
    assert check_scoresheet(name, content, TABLE) == check_scoresheet("p.csv", plain_csv(), TABLE)


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("店;日付\n".encode("cp932"), "read as Shift_JIS (cp932) text, separated by semicolons"),
        ("\ufeffa\tb\n".encode("utf-16-le"), "read as UTF-16 text, separated by tabs"),
        ("\ufeffx,y\n".encode(), "read as UTF-8 text, separated by commas"),
    ],
)
def test_a_header_with_no_scoresheet_column_names_the_encoding_and_separator_read(content, said):
    with pytest.raises(reading.ScoresheetUnreadable) as refused:
        rows_of("odd.csv", content)
    assert said in str(refused.value)


def test_semicolons_and_tabs_are_told_apart_from_commas_in_the_header():
    assert reading.separator("shoe;hand;player_cards") == ";"
    assert reading.separator("shoe\thand\tplayer_cards") == "\t"
    assert reading.separator("shoe,hand,player_cards") == ","
    assert reading.separator("shoe") == ","


@pytest.mark.parametrize(
    "content",
    [b"PK\x03\x04 not a zip", b"", b"\x00" * 10],
)
def test_an_ods_that_is_not_one_is_refused_in_words(content):
    with pytest.raises(reading.ScoresheetUnreadable, match=r"not a readable \.ods spreadsheet"):
        rows_of("broken.ods", content)


@pytest.mark.django_db
def test_the_upload_form_takes_japanese_excel_s_csv_and_an_ods(client, host):
    client.force_login(host)
    fields = {"date": "2026-11-21", "yen_per_chip": "100", "table_min": "10",
              "table_max": "1000", "decks": "8", "no_commission": "none", "tie_pays": "8",
              "pair_pays": "11"}  # fmt: skip
    for name in ("excel-japanese.csv", "libreoffice.ods"):
        upload = io.BytesIO((FILES / name).read_bytes())
        upload.name = name
        response = client.post(
            reverse("ledger:scoresheet_upload"), fields | {"event_name": name, "file": upload}
        )
        event = Event.objects.get(name=name)
        assert response.url == reverse("ledger:event_detail", args=[event.pk])
        names = set(Bet.objects.filter(event=event).values_list("guest__name", flat=True))
        assert names == {"田中", "鈴木"}
