"""The settlement workbook and the scoresheet import."""

from __future__ import annotations

import io
import zipfile
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from games.entry import (
    MSG_NO_RESULT,
    MSG_NOT_A_NUMBER,
    MSG_PAIR_CONTRADICTS,
    MSG_PAIR_MISSED,
    MSG_PAIR_NOT_NOTED,
    MSG_RESULT_CONTRADICTS,
    MSG_UNDER_MINIMUM,
    MSG_UNKNOWN_BET,
    TableRules,
)
from games.models import Event, Hand
from games.payouts import MSG_STAKE_NOT_POSITIVE, RuleSet
from ledger.guests import services as guest_services
from ledger.integrity import ledger_problems
from ledger.models import Bet, Guest, Seating, Settlement
from ledger.money import services as money_services
from ledger.money.results import event_guest_results, event_shoe_rows
from ledger.workbook.blanks import template_csv
from ledger.workbook.exports import HANDS_COLUMNS, workbook_bytes
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.reading import ScoresheetInvalid, ScoresheetUnreadable, SheetProblem
from shoebook.base.roles import COMMAND_LINE
from tests.adversary.inputs import xlsx_of
from tests.conftest import bet
from tests.ledger.workbook.sheets import only_our_totals, sheet_rows

D = Decimal


pytestmark = pytest.mark.django_db


HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


@pytest.fixture
def demo(demo_night):
    return demo_night


def test_the_workbook_summary_is_the_reference_table_in_numbers(demo):
    content = workbook_bytes([demo])
    # The totals as SUM formulas over the shoes, their values cached beside them: a viewer that
    # does not recalculate reads the figures the page shows.
    formulas = load_workbook(io.BytesIO(content))["Summary"]
    assert [formulas.cell(8, column).value for column in (8, 9, 10, 11, 12)] == [
        f"=SUM({letter}2:{letter}7)" for letter in "HIJKL"
    ]
    workbook = load_workbook(io.BytesIO(content), data_only=True)
    assert workbook.sheetnames == [
        "Summary", "Guests", "Hands", "Count", "Ratings", "Settlements", "Rules",
        "Chips and settlements",
    ]  # fmt: skip
    summary = workbook["Summary"]
    rows = list(summary.iter_rows(min_row=2, values_only=True))
    assert [(r[5], r[8], r[9]) for r in rows] == [
        (1, 280, 59.5),
        (2, -680, 64),
        (3, 480, 75),
        (4, 840, 59.5),
        (5, -320, 55.5),
        (6, 440, 72.5),
        ("Total", 1040, 386),
    ]
    assert rows[-1][11:13] == (-654, -65400)
    # The drop: the count's buy-ins and top-ups; the hold: the house's result over it.
    assert rows[-1][13:] == (15500, -4.22)
    assert all(row[13:] == (None, None) for row in rows[:-1])
    assert rows[0][0] == "Reference night"
    assert rows[0][1].date() == demo.date  # a real date cell
    # Chips with the night's symbol and yen as the pages write them, negatives in red.
    assert summary["I2"].number_format == '"$"#,##0.00;[Red]-"$"#,##0.00'
    assert summary["M2"].number_format == '"¥"#,##0;[Red]-"¥"#,##0'
    for sheet in workbook:
        # Filter arrows on every table with rows, over every row.
        last = sheet.cell(1, sheet.max_column).column_letter
        assert sheet.auto_filter.ref == (f"A1:{last}{sheet.max_row}" if sheet.max_row > 1 else None)
        assert sheet.freeze_panes == "A2"
        assert sheet.page_setup.orientation == "landscape"
        assert sheet.page_setup.fitToWidth == 1
        assert sheet.sheet_properties.pageSetUpPr.fitToPage


def test_guests_and_hands_sheets_keep_names_and_numbers(demo):
    content = workbook_bytes([demo])
    guests = sheet_rows(content, "Guests")
    names = {row[1] for row in guests[1:]}
    assert "田中" in names and "Kenji" in names and len(names) == 15
    nets = sum(D(str(row[6])) for row in guests[1:])
    assert nets == D("654")
    hands = sheet_rows(content, "Hands")
    assert hands[0] == ("Event", *HANDS_COLUMNS)
    assert len(hands) - 1 == Bet.objects.count()
    first = hands[1]
    assert isinstance(first[11], int | float) and isinstance(first[14], int | float)


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil.example","click")', "+1+2", "@SUM(A1:A9)", "\tTab", "-3+4"]
)
def test_what_a_guest_typed_never_becomes_a_formula(seated, shoe, record, host, name):
    Guest.objects.filter(pk=seated[1].pk).update(name=name)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    content = workbook_bytes([shoe.event])
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [
            archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/")
        ]
        styles = archive.read("xl/styles.xml").decode()
    assert only_our_totals(sheets)  # no formula but the totals' SUMs of the sheet's own cells
    assert 'quotePrefix="1"' in styles
    hands = sheet_rows(content, "Hands")
    assert hands[1][9] == name  # the name, as text
    assert hands[1][11] == 100  # the stake, still a number


def test_the_export_command_by_name_id_or_date_range(demo, tmp_path, make_event):
    out = tmp_path / "night.xlsx"
    call_command(
        "export_settlement", "--event", "Reference night", "--output", str(out), stdout=StringIO()
    )
    assert sheet_rows(out.read_bytes(), "Summary")[7][8] == 1040
    call_command(
        "export_settlement", "--event", str(demo.pk), "--output", str(out), stdout=StringIO()
    )
    make_event(name="Later", date=date(2026, 11, 20))
    season = tmp_path / "season.xlsx"
    call_command(
        "export_settlement",
        "--from",
        "2008-01-01",
        "--to",
        "2026-12-31",
        "--output",
        str(season),
        stdout=StringIO(),
    )
    rows = sheet_rows(season.read_bytes(), "Summary")[1:]
    assert {row[0] for row in rows[:-1]} == {"Reference night", "Later"}
    assert rows[-1][:6] == (None, None, None, None, None, "Season total")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--event", "Nope"], "No event"),
        (["--event", "x", "--from", "2020-01-01"], "not both"),
        ([], "Give --event"),
        (["--from", "2020-13-45"], "not a date"),
        (["--from", "1999-01-01", "--to", "1999-12-31"], "No event in that date range"),
    ],
)
def test_the_export_command_refuses_clearly(demo, tmp_path, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("export_settlement", *args, "--output", str(tmp_path / "x.xlsx"))


def test_a_round_trip_through_the_hands_sheet_reproduces_the_night(demo, tmp_path):
    before_shoes, _ = event_shoe_rows(demo)
    before_guests = {r.name: r.figures for r in event_guest_results(demo)}
    path = tmp_path / "night.xlsx"
    path.write_bytes(workbook_bytes([demo]))
    out = StringIO()
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Again",
        "--date",
        "2008-07-12",
        "--yen-per-chip",
        "100",
        stdout=out,
    )
    assert "Imported Again (2008-07-12): 240 hands" in out.getvalue()
    again = Event.objects.get(name="Again")
    after_shoes, _ = event_shoe_rows(again)
    assert [r.figures for r in after_shoes] == [r.figures for r in before_shoes]
    assert {r.name: r.figures for r in event_guest_results(again)} == before_guests
    assert Guest.objects.count() == 15  # matched by name, none created


def write(tmp_path, text: str, name="sheet.csv", bom=False):
    path = tmp_path / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    return path


def test_importing_a_csv_with_a_bom_creates_the_guests_it_names(tmp_path, host):
    path = write(tmp_path, template_csv(), bom=True)
    out = StringIO()
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Paper night",
        "--date",
        "2026-11-21",
        "--by",
        host.username,
        stdout=out,
    )
    assert "New guests: Aki, Ben" in out.getvalue()
    event = Event.objects.get(name="Paper night")
    assert [h.winner for h in Hand.objects.filter(shoe__event=event)] == ["player", "banker"]
    assert sorted(Bet.objects.values_list("guest__name", "net")) == [
        ("Aki", D("100.00")),
        ("Aki", D("110.00")),
        ("Ben", D("-50.00")),
        ("Ben", D("47.50")),
    ]


def test_an_xlsx_scoresheet_and_its_first_sheet(tmp_path, host):
    workbook = Workbook()
    for row in template_csv().splitlines():
        workbook.active.append(row.split(","))
    path = tmp_path / "night.xlsx"
    workbook.save(path)
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Sheet night",
        "--date",
        "2026-11-21",
        "--by",
        host.username,
        stdout=StringIO(),
    )
    assert Bet.objects.filter(event__name="Sheet night").count() == 4


ALL_BETS = ", ".join(bet.value for bet in RuleSet.from_options().offered_bets)


def row_problem(column: str, template: str, **params: object) -> str:
    """The import's report of a rules-core problem on the first data row."""
    return str(SheetProblem(1, 2, column, template.format(**params)))


PROBLEMS = [
    (
        "1,1,10 5,10 7,,,,1,Aki,player,10",
        "Row 1 (line 2), player_cards/banker_cards: Player has 5 and must draw",
    ),
    (
        "1,1,9 7,J J 10,B,,,1,Aki,player,10",
        row_problem(
            "result", MSG_RESULT_CONTRADICTS, actual="Player", player=6, banker=0, given="Banker"
        ),
    ),
    ("1,1,9 X,J J 10,,,,1,Aki,player,10", "Row 1 (line 2), player_cards: Unknown card 'X'"),
    (
        "1,1,9 7,J J 10,,,,1,Aki,roulette,10",
        row_problem("bet", MSG_UNKNOWN_BET, text="roulette", offered=ALL_BETS),
    ),
    (
        "1,1,9 7,J J 10,,,,1,Aki,player,0",
        row_problem("stake", MSG_STAKE_NOT_POSITIVE, stake="0"),
    ),
    (
        "1,1,9 7,J J 10,,,,1,Aki,player,-5",
        row_problem("stake", MSG_STAKE_NOT_POSITIVE, stake="−5"),
    ),
    ("1,1,9 7,J J 10,,,,1,Aki,player,lots", row_problem("stake", MSG_NOT_A_NUMBER, text="lots")),
    (
        "1,1,9 7,J J 10,,,,1,Aki,player,5",
        row_problem("stake", MSG_UNDER_MINIMUM, stake="5", minimum="10"),
    ),
    (
        "1,1,9 9,J 10,,no,,1,Aki,player_pair,10",
        row_problem("player_pair", MSG_PAIR_MISSED, side="Player"),
    ),
    (
        "1,1,9 7,J J 10,,yes,,1,Aki,player,10",
        row_problem("player_pair", MSG_PAIR_CONTRADICTS, side="Player"),
    ),
    (
        "1,1,,,P,,,1,Aki,player_pair,10",
        row_problem("player_pair", MSG_PAIR_NOT_NOTED, side="Player"),
    ),
    (
        "1,1,9 7,J J 10,,,,1,Aki,player,10\n1,1,9 7,J J 9,,,,2,Ben,player,10",
        "Row 2 (line 3), player_cards/banker_cards/result: "
        "this row's cards or result differ from row 1",
    ),
    ("1,1,,,,,,1,Aki,player,10", row_problem("result", MSG_NO_RESULT)),
    ("1,2,,,P,,,1,Aki,player,10", "Row 1 (line 2), hand: hands are numbered 1, 2, 3…"),
]


@pytest.mark.parametrize(("rows", "problem"), PROBLEMS)
def test_a_bad_scoresheet_imports_nothing_and_names_each_problem(tmp_path, host, rows, problem):
    path = write(tmp_path, f"{HEADER}\n{rows}\n")
    err = StringIO()
    with pytest.raises(CommandError, match="nothing was imported"):
        call_command(
            "import_scoresheet",
            str(path),
            "--event-name",
            "Bad",
            "--date",
            "2026-11-21",
            "--by",
            host.username,
            stderr=err,
        )
    assert problem in err.getvalue()
    assert not Event.objects.exists() and not Guest.objects.exists()


def test_every_problem_is_listed_not_just_the_first(tmp_path):
    text = (
        HEADER
        + "\n"
        + "\n".join(
            row.replace("1,1,", f"1,{n},", 1) for n, (row, _) in enumerate(PROBLEMS[:4], start=1)
        )
    )
    with pytest.raises(ScoresheetInvalid) as raised:
        check_scoresheet("x.csv", text.encode(), TableRules(RuleSet(), 8, D(10), D(1000)))
    assert [p.row for p in raised.value.problems] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"shoe,hand,stake\n1,1,10\n", "player_cards: missing column"),
        (b"\xff\xfe\x00garbage", "none of a scoresheet's columns (read as UTF-16 text"),
        (b"\xff\xfe\x00garbag", "starts as UTF-16 text but is not UTF-16 throughout"),
        (b"shoe,hand\xff\x81", "tried UTF-8, UTF-16, Shift_JIS (cp932) and Windows-1252"),
    ],
)
def test_a_file_that_is_not_a_scoresheet_is_refused_without_a_traceback(tmp_path, content, message):
    path = tmp_path / "odd.csv"
    path.write_bytes(content)
    err = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command(
            "import_scoresheet", str(path), "--event-name", "x", "--date", "2026-11-21", stderr=err
        )
    assert message in str(raised.value) + err.getvalue()
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK not really a zip")
    with pytest.raises(CommandError, match=r"not a readable \.xlsx"):
        call_command("import_scoresheet", str(broken), "--event-name", "x", "--date", "2026-11-21")


def test_the_upload_form_imports_or_lists_the_problems(client, host, dealer):
    client.force_login(host)
    url = reverse("ledger:scoresheet_upload")
    fields = {
        "event_name": "Uploaded",
        "date": "2026-11-21",
        "money_per_chip": "100",
        "table_min": "10",
        "table_max": "1000",
        "decks": "8",
        "no_commission": "none",
        "tie_pays": "8",
        "pair_pays": "11",
    }
    bad = io.BytesIO(f"{HEADER}\n{PROBLEMS[0][0]}\n".encode())
    bad.name = "bad.csv"
    response = client.post(url, fields | {"file": bad})
    assert response.status_code == 400
    assert PROBLEMS[0][1] in response.content.decode()
    good = io.BytesIO(template_csv().encode())
    good.name = "good.csv"
    response = client.post(url, fields | {"file": good})
    event = Event.objects.get(name="Uploaded")
    assert response.url == reverse("ledger:event_detail", args=[event.pk])
    template = client.get(reverse("ledger:scoresheet_template"))
    assert template.content.decode().startswith(HEADER)
    client.force_login(dealer)
    assert client.get(url).status_code == 403


def test_downloads_host_and_guest_own_rows_only(client, host, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 40)])
    client.force_login(host)
    response = client.get(reverse("ledger:event_workbook", args=[shoe.event_id]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    content = b"".join(response.streaming_content)
    assert len(sheet_rows(content, "Hands")) == 3
    client.logout()
    aki = seated[1]
    token = guest_services.guest_link_issue(guest=aki)
    statement = client.get(reverse("ledger:guest_statement", args=[aki.pk, token]))
    content = b"".join(statement.streaming_content)
    workbook = load_workbook(io.BytesIO(content))
    assert "Summary" not in workbook.sheetnames
    hands = list(workbook["Hands"].iter_rows(min_row=2, values_only=True))
    assert [row[9] for row in hands] == ["Aki"]
    assert [row[1] for row in workbook["Guests"].iter_rows(min_row=2, values_only=True)] == ["Aki"]
    assert client.get(reverse("ledger:guest_statement", args=[aki.pk, "wrong"])).status_code == 404


def test_a_guest_moving_seats_in_a_scoresheet_never_sits_twice(tmp_path, host):
    rows = [
        "1,1,,,P,,,1,Aki,player,10",
        "1,2,,,P,,,3,Aki,player,10",  # Aki moves to seat 3 …
        "1,3,,,P,,,1,Aki,player,10",  # … and back
        "1,3,,,P,,,3,Ben,banker,10",
    ]
    path = write(tmp_path, HEADER + "\n" + "\n".join(rows) + "\n")
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Moves",
        "--date",
        "2026-11-21",
        "--by",
        host.username,
        stdout=StringIO(),
    )
    seatings = Seating.objects.order_by("from_hand", "seat")
    assert list(seatings.values_list("guest__name", "seat", "from_hand", "to_hand")) == [
        ("Aki", 1, 1, 1),
        ("Aki", 3, 2, 2),
        ("Aki", 1, 3, 3),
        ("Ben", 3, 3, 3),
    ]
    assert ledger_problems() == []


def broken_workbook() -> bytes:
    """A real .xlsx whose sheet XML is cut short: a zip that opens, a sheet that does not."""
    book = Workbook()
    book.active.append(HEADER.split(","))
    buffer = io.BytesIO()
    book.save(buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as broken:
        for item in source.infolist():
            data = source.read(item.filename)
            broken.writestr(
                item, data[: len(data) // 2] if "worksheets/sheet" in item.filename else data
            )
    return out.getvalue()


def test_a_broken_workbook_is_refused_on_the_page_not_a_server_error(client, host):
    client.force_login(host)
    upload = io.BytesIO(broken_workbook())
    upload.name = "broken.xlsx"
    fields = {"event_name": "x", "date": "2026-11-21", "money_per_chip": "100", "table_min": "10",
              "table_max": "1000", "decks": "8", "no_commission": "none", "tie_pays": "8",
              "pair_pays": "11"}  # fmt: skip
    response = client.post(reverse("ledger:scoresheet_upload"), fields | {"file": upload})
    assert response.status_code == 400
    assert "not a readable .xlsx workbook" in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--yen-per-chip", "NaN"], "are amounts"),
        (["--yen-per-chip", "1e3"], "are amounts"),
        (["--table-min", "500", "--table-max", "100"], "0 < --table-min <= --table-max"),
        (["--event-name", ""], "Nothing was imported"),
        (["--yen-per-chip", "0.00001"], "JPY has no decimals"),
        (["--currency", "EUR", "--money-per-chip", "0.001"], "EUR is written with 2 decimals"),
        (["--currency", "eur"], "ISO 4217 code"),
    ],
)
def test_the_import_command_refuses_bad_options_without_a_traceback(tmp_path, host, args, message):
    path = write(tmp_path, template_csv())
    base = ["--event-name", "Night", "--date", "2026-11-21", "--by", host.username]
    with pytest.raises(CommandError, match=message):
        call_command("import_scoresheet", str(path), *base, *args, stdout=StringIO())
    assert not Event.objects.exists()


def test_the_import_command_works_on_a_fresh_install_with_no_account(tmp_path):
    path = write(tmp_path, template_csv())
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Night",
        "--date",
        "2026-11-21",
        stdout=StringIO(),
    )
    assert {hand.logged_by.username for hand in Hand.objects.all()} == {COMMAND_LINE}
    assert not Hand.objects.first().logged_by.has_usable_password()


@pytest.mark.parametrize("who", ["dealer", "nobody-at-all"])
def test_the_import_command_records_only_a_host(tmp_path, dealer, who):
    path = write(tmp_path, template_csv())
    with pytest.raises(CommandError, match="names a host's username"):
        call_command(
            "import_scoresheet",
            str(path),
            "--event-name",
            "Night",
            "--date",
            "2026-11-21",
            "--by",
            who,
            stdout=StringIO(),
        )
    assert not Event.objects.exists()


def test_a_control_character_in_old_rows_never_breaks_a_workbook(demo, host):
    guest = demo.guests.first()
    Guest.objects.filter(pk=guest.pk).update(name="Ak\u0001i")  # a row from before the name rule
    money_services.settlement_record(
        guest=guest, event=demo, amount=D("-10"), method="other", note="tab paid", by=host
    )
    Settlement.objects.update(note="tab \u0007 paid")  # likewise
    [(_recorded, _event, name, amount, _how, note, _number, _voids, _dated)] = sheet_rows(
        workbook_bytes([demo]), "Settlements"
    )[1:]
    assert (name, amount, note) == ("Aki", -10, "tab  paid")


def test_a_failed_export_leaves_no_file_and_keeps_an_older_one(demo, tmp_path, monkeypatch):
    target = tmp_path / "night.xlsx"
    target.write_bytes(b"last week's workbook")

    def broken(events, output):
        output.write(b"half a workbook")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("ledger.management.commands.export_settlement.settlement_workbook", broken)
    with pytest.raises(CommandError, match="No space left"):
        call_command("export_settlement", "--event", str(demo.pk), "--output", str(target))
    assert target.read_bytes() == b"last week's workbook"
    assert [path.name for path in tmp_path.iterdir()] == ["night.xlsx"]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_file_past_the_row_bound_is_refused_unread(monkeypatch, kind):
    monkeypatch.setattr("ledger.workbook.reading.MAX_ROWS", 100)
    rows = [HEADER.split(","), *(["1", str(n), "", "", "P"] for n in range(1, 151))]
    content = xlsx_of(rows) if kind == "xlsx" else "\n".join(",".join(row) for row in rows).encode()
    with pytest.raises(ScoresheetUnreadable, match="more than 100 rows"):
        check_scoresheet(f"junk.{kind}", content, TableRules(RuleSet(), 8, D(10), D(1000)))


def test_every_row_is_read_whatever_size_the_workbook_declares():
    rows = [HEADER.split(","), *(["1", str(n), "", "", "P"] for n in range(1, 6))]
    original = zipfile.ZipFile(io.BytesIO(xlsx_of(rows)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as lying:
        for item in original.infolist():
            data = original.read(item.filename)
            if "worksheets/sheet" in item.filename:
                data = data.replace(b"<sheetData>", b'<dimension ref="A1:K2"/><sheetData>', 1)
            lying.writestr(item, data)
    hands = check_scoresheet("lying.xlsx", out.getvalue(), TableRules(RuleSet(), 8, D(10), D(1000)))
    assert [hand.number for hand in hands] == [1, 2, 3, 4, 5]


def test_a_workbook_that_unpacks_past_the_bound_is_refused_unread(monkeypatch):
    monkeypatch.setattr("ledger.workbook.reading.MAX_UNPACKED_BYTES", 10_000)
    rows = [HEADER.split(","), *(["1", str(n), "", "", "P"] for n in range(1, 200))]
    with pytest.raises(ScoresheetUnreadable, match="unpacks to more than 0 MB"):
        check_scoresheet("big.xlsx", xlsx_of(rows), TableRules(RuleSet(), 8, D(10), D(1000)))


def test_the_guests_sheet_lists_a_nights_guests_by_name_whatever_their_balances(demo):
    from ledger.guests.names import name_key

    guests = sheet_rows(workbook_bytes([demo]), "Guests")[1:]
    names = [row[1] for row in guests]
    assert names == sorted(names, key=lambda name: (name_key(name), name))
    # What a guest owes does not move their row (an import's balances start afresh).
    balances = [row[10] for row in guests]
    assert balances != sorted(balances)
