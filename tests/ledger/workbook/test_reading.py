"""Scoresheets as spreadsheet programs save them (ledger.workbook.reading): the same night in
Japanese Excel's CSV (Shift_JIS), Excel's semicolon CSV with its byte-order mark, Excel's
"Unicode text" (UTF-16, tabs) and LibreOffice's .ods reads as the plain UTF-8 CSV does. The files
in ``files/`` were written as those programs write them (the .ods by LibreOffice itself)."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from babel.numbers import format_currency, format_decimal
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from games.entry import TableRules, read_amount
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
    fields = {"date": "2026-11-21", "money_per_chip": "100", "table_min": "10",
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


# --- amounts as the file's convention writes them ----------------------------------------------

HEADER = ",".join(NIGHT[0])


def night_with_stakes(stakes: list[str], separator: str = ",") -> bytes:
    """The night with the given stakes, its cells joined by ``separator`` (a cell holding it
    quoted, as spreadsheet programs write it)."""
    rows = [
        [f'"{cell}"' if separator in cell else cell for cell in [*row[:-1], stake]]
        for row, stake in zip(NIGHT[1:], stakes, strict=True)
    ]
    return "".join(separator.join(row) + "\n" for row in [NIGHT[0], *rows]).encode()


def stakes_read(name: str, content: bytes) -> list[str]:
    return [cells["stake"] for cells in rows_of(name, content)]


def test_a_semicolon_file_writes_a_decimal_comma_and_dots_for_thousands():
    content = night_with_stakes(["1.000", "387,5", "1.000,50", "10"], ";")
    assert stakes_read("night.csv", content) == ["1000", "387.5", "1000.5", "10"]


def test_a_comma_file_writes_a_decimal_point_and_commas_for_thousands():
    content = night_with_stakes(["1,000", "387.5", "1,000.50", "10"])
    assert stakes_read("night.csv", content) == ["1000", "387.5", "1000.5", "10"]


@pytest.mark.parametrize(
    ("stake", "read"),
    [
        ("¥1,000", "1000"),
        ("\\1,000", "1000"),  # Japanese Excel's CSV: the yen sign is Shift_JIS's 0x5C
        ("￥1,000", "1000"),
        ("1,000円", "1000"),
        ("1.000 ¥", "1000"),  # German Excel's yen: no decimals, so the dot groups
        ("1\u00a0000,00 €", "1000"),  # French Excel: a no-break space groups
        ("1\u202f000,00 €", "1000"),  # and LibreOffice's narrow one
        ("€ 387,50", "387.5"),
        ("$10", "10"),
    ],
)
def test_currency_signs_and_groups_are_taken_where_they_read_one_way(stake, read):
    content = night_with_stakes([stake, "10", "10", "10"], ";")
    assert stakes_read("night.csv", content)[0] == read


@pytest.mark.parametrize(
    ("stakes", "separator", "problem"),
    [
        # A decimal-point file's "1.000": 1 by its convention, but a thousand as Germans write it.
        (["10", "1.000", "10", "10"], ",", "Row 2 (line 3), stake: “1.000” reads two ways: 1"
         " (with a decimal point) or 1000 (with a decimal comma). Write it without a thousands"
         " separator (1 or 1000)."),
        # A decimal-comma file's "1,000": 1 by its convention, a thousand in English.
        (["10", "10", "1,000", "10"], ";", "Row 3 (line 4), stake: “1,000” reads two ways: 1"
         " (with a decimal comma) or 1000 (with a decimal point). Write it without a thousands"
         " separator (1 or 1000)."),
        # A tab file whose amounts show no convention.
        (["10", "10", "10", "2,500"], "\t", "Row 4 (line 5), stake: “2,500” reads two ways: 2.5"
         " (with a decimal comma) or 2500 (with a decimal point). Write it without a thousands"
         " separator (2.5 or 2500)."),
    ],
)  # fmt: skip
def test_a_cell_that_reads_two_ways_is_refused_naming_row_column_and_both(
    stakes, separator, problem
):
    with pytest.raises(reading.ScoresheetInvalid) as refused:
        rows_of("night.csv", night_with_stakes(stakes, separator))
    assert [str(found) for found in refused.value.problems] == [problem]


def test_a_tab_file_shows_its_convention_by_the_cells_that_read_one_way():
    comma = night_with_stakes(["1.000", "387,5", "10", "10"], "\t")
    point = night_with_stakes(["1,000", "387.5", "10", "10"], "\t")
    assert stakes_read("night.txt", comma) == ["1000", "387.5", "10", "10"]
    assert stakes_read("night.txt", point) == ["1000", "387.5", "10", "10"]


def workbook_with_stakes(stakes: list[object]) -> bytes:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.append(NIGHT[0])
    for row, stake in zip(NIGHT[1:], stakes, strict=True):
        sheet.append([*row[:-1], stake])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_workbook_s_number_cells_are_numbers_and_its_text_cells_show_the_convention():
    # "387,5" as text shows the decimal comma: the text "1.125" is then 1125, while the number
    # cell 1.125 is never read again as text.
    content = workbook_with_stakes(["1.125", "387,5", 1.125, 1000])
    assert stakes_read("night.xlsx", content) == ["1125", "387.5", "1.125", "1000"]
    with pytest.raises(reading.ScoresheetInvalid) as refused:
        rows_of("night.xlsx", workbook_with_stakes(["1.125", 10, 10, 10]))
    assert "Row 1 (line 2), stake: “1.125” reads two ways: 1.125" in str(refused.value.problems[0])


@pytest.mark.django_db
def test_a_punto_banco_stake_of_1_000_in_a_semicolon_file_is_a_thousand():
    content = night_with_stakes(["1.000", "387,5", "10", "50"], ";")
    hands = check_scoresheet("night.csv", content, TABLE)
    assert [row.bet.stake for hand in hands for row in hand.rows] == ["1000", "387.5", "10", "50"]
    assert [bet.stake for bet in hands[0].settled.bets] == [Decimal(1000), Decimal("387.5")]


@pytest.mark.django_db
def test_an_upload_with_a_cell_that_reads_two_ways_imports_nothing(client, host):
    client.force_login(host)
    upload = io.BytesIO(night_with_stakes(["1.000", "10", "10", "10"]))
    upload.name = "night.csv"
    fields = {"date": "2026-11-21", "money_per_chip": "100", "table_min": "10",
              "table_max": "1000", "decks": "8", "no_commission": "none", "tie_pays": "8",
              "pair_pays": "11"}  # fmt: skip
    response = client.post(
        reverse("ledger:scoresheet_upload"), fields | {"event_name": "Two ways", "file": upload}
    )
    assert response.status_code == 400
    assert "reads two ways: 1 (with a decimal point) or 1000 (with a decimal comma)" in (
        response.content.decode()
    )
    assert not Event.objects.exists() and not Bet.objects.exists()


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("guest;bought\nClément;10\n", "Windows-1252"),  # "ém" would be a kanji in Shift_JIS
        ("guest;bought\nMüller;10\n", "Windows-1252"),
        ("guest,bought\n田中,10\nｶﾀｶﾅ,10\n", "Shift_JIS (cp932)"),
    ],
)
def test_german_and_french_excel_s_plain_csv_is_windows_1252_japanese_excel_s_shift_jis(
    text, encoding
):
    saved = text.encode("cp1252" if encoding == "Windows-1252" else "cp932")
    assert reading.decoded(saved) == (text, encoding)


def test_a_capital_accent_inside_a_latin_word_is_windows_1252():
    assert reading.decoded("guest;bought\nPEÑA;10\n".encode("cp1252"))[1] == "Windows-1252"


@settings(max_examples=400, deadline=None)
@given(
    cents=st.integers(0, 10**10),
    locale=st.sampled_from(["en_US", "ja_JP", "de_DE", "fr_FR", "de_AT", "it_IT", "es_ES"]),
    currency=st.sampled_from(["", "EUR", "JPY", "USD"]),
    separator=st.sampled_from([",", ";", "\t"]),
)
def test_no_amount_is_ever_read_as_another(cents, locale, currency, separator):
    """An amount as a spreadsheet program of any of these locales shows it, put in any kind of
    file: read as itself, or refused (in words, or as not a number by the checker); never read
    as another amount, least of all a thousand times smaller."""
    amount = Decimal(cents) / 100
    if currency == "JPY":
        amount = Decimal(cents // 100)  # a yen amount has no decimals
        text = format_currency(amount, currency, locale=locale)
    elif currency:
        text = format_currency(amount, currency, locale=locale)
    else:
        text = format_decimal(amount, locale=locale)
    cell = f'"{text}"' if separator in text else text
    content = f"guest{separator}stake\nAki{separator}{cell}\n".encode()
    # In a file of its own locale's kind (semicolons where the decimal mark is a comma), it is
    # always read as itself.
    own = separator == (";" if locale[:2] in ("de", "fr", "it", "es") else ",")
    try:
        [(_line, cells)] = reading.read_rows("night.csv", content, ("guest", "stake"))
    except reading.ScoresheetInvalid as invalid:
        refused = invalid.problems
    else:
        refused = []
        assert read_amount(cells["stake"]) in ((amount,) if own else (None, amount)), text
    assert not (own and refused), text
    assert all("reads two ways" in str(problem) for problem in refused)


def test_a_whole_column_that_reads_two_ways_lists_the_first_two_hundred():
    content = ("guest;stake\n" + "Aki;1,000\n" * 500).encode()
    with pytest.raises(reading.ScoresheetInvalid) as refused:
        reading.read_rows("night.csv", content, ("guest", "stake")).__next__()
    assert len(refused.value.problems) == reading.MAX_AMOUNT_PROBLEMS
    assert str(refused.value.problems[-1]).startswith("Row 200 (line 201), stake:")


def test_every_amount_column_of_a_coup_sheet_is_read_in_the_file_s_convention():
    header = "shoe;coup;banker;banker_seat;bank;seat;guest;stake_kind;stake;suite_amount;taken"
    content = f"{header}\n1;1;Aki;1;1.950;2;Ben;;975,5;1.000;1.950,5\n".encode("cp1252")
    [(_line, cells)] = reading.read_rows("coups.csv", content, ("shoe", "coup"))
    assert [cells[column] for column in ("bank", "stake", "suite_amount", "taken")] == [
        "1950", "975.5", "1000", "1950.5",
    ]  # fmt: skip
    assert {"stake", "bank", "suite_amount", "taken"} <= set(reading.AMOUNT_COLUMNS)


@pytest.mark.parametrize("cell", ["𝟗", "٣", "१०", "①", "¹²", "NaN", "sNaN", "Infinity", "-inf"])
def test_an_amount_cell_in_other_digits_or_no_number_is_read_by_no_convention(cell):
    # Decimal() and babel would read 𝟗 and ٣ as 9 and 3: left as written, the sheet's checker
    # refuses the cell in its own words.
    assert reading.readings(cell) == {}
    assert reading.read_cell(cell, None) is None
    assert read_amount(cell) is None
