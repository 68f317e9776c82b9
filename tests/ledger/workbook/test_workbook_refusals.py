"""A night's workbook that would write a broken night is refused: every problem named by its
sheet, row and column on the re-rendered upload page (never a 500), and nothing written."""

from __future__ import annotations

import io
from datetime import date, datetime

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from games.models import Event
from ledger.demo_banked import load_demo_chemin
from ledger.demo_count import load_count_only_night
from ledger.models import MSG_DATED_BEFORE, MSG_DATED_LATER, ChipMove
from ledger.workbook.exports import COUPS_COLUMNS, RECORD_COLUMNS, RULES_COLUMNS, workbook_bytes
from ledger.workbook.imports.night_workbook import (
    MSG_EVENT_TWICE,
    MSG_FORMULA,
    MSG_NIGHT_EXISTS,
    MSG_NOT_A_DATE,
    check_night_workbook,
    read_night_workbook,
)
from ledger.workbook.reading import ScoresheetInvalid
from shoebook.base.roles import HOSTS
from tests.conftest import make_user
from tests.ledger.workbook.test_round_trips import banque_night, fresh_database

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

COUNT_ONLY, CHEMIN = "count_only", "chemin"


@pytest.fixture
def by(db):
    return make_user("night-host", HOSTS)


def night_of(kind: str, by) -> bytes:
    event = load_count_only_night(by=by) if kind == COUNT_ONLY else load_demo_chemin(by=by)
    return workbook_bytes([event])


def edited(content: bytes, sheet: str, line: int, column: str, value: object) -> bytes:
    workbook = load_workbook(io.BytesIO(content))
    columns = RULES_COLUMNS if sheet == "Rules" else RECORD_COLUMNS
    workbook[sheet].cell(line, list(columns).index(column) + 1).value = value
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def upload(client, content: bytes):
    from django.contrib.auth import get_user_model

    host = get_user_model().objects.filter(username="uploader").first()
    client.force_login(host or make_user("uploader", HOSTS))
    file = io.BytesIO(content)
    file.name = "night.xlsx"
    return client.post(reverse("ledger:scoresheet_upload"), {"file": file})


def refused_on(client, content: bytes) -> str:
    answer = upload(client, content)
    page = answer.content.decode()
    assert answer.status_code == 400, page[:3000]
    assert not Event.objects.exists()  # all or nothing
    return page


@pytest.mark.parametrize(
    ("kind", "column", "value"),
    [
        (COUNT_ONLY, "opening_float", -5000),
        (COUNT_ONLY, "opening_float", "-5000"),
        (COUNT_ONLY, "opening_float", 10**15),
        (COUNT_ONLY, "commission_total", -50),
        (COUNT_ONLY, "commission_total", 1e30),
        (COUNT_ONLY, "commission_total", 10**15),
        (COUNT_ONLY, "denominations", "abc"),
        (COUNT_ONLY, "denominations", "0 -1"),
        (COUNT_ONLY, "denominations", "1e400"),
        (COUNT_ONLY, "denominations", None),
        (COUNT_ONLY, "table_max", "1e400"),
        (CHEMIN, "taxe_rate", 5),
        (CHEMIN, "taxe_rate", -0.5),
        (CHEMIN, "banco", "xx"),
        (CHEMIN, "shoe_charge", 10**13),
    ],
)
def test_a_rules_value_the_forms_would_refuse_is_a_problem_on_its_cell(
    client, by, kind, column, value
):
    content = edited(night_of(kind, by), "Rules", 2, column, value)
    fresh_database()
    page = refused_on(client, content)
    assert f"Rules, row 1 (line 2), {column}: " in page


def test_a_formula_in_a_rules_cell_is_refused_as_one(client, by):
    content = edited(night_of(COUNT_ONLY, by), "Rules", 2, "table_max", "=500*2")
    fresh_database()
    page = refused_on(client, content)
    reason = str(MSG_FORMULA).format(formula="=500*2")
    assert f"Rules, row 1 (line 2), table_max: {reason}" in page.replace("&quot;", '"')


def test_a_guests_cell_past_the_row_limit_is_refused(by):
    # A spreadsheet program writes at most 32,767 characters to a cell; another tool may not.
    nights = read_night_workbook("night.xlsx", night_of(COUNT_ONLY, by))
    nights[0].terms["guests"] = "\n".join(f"Guest {number}" for number in range(50_000))
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(nights)
    assert [str(p) for p in refused.value.problems] == [
        "Rules, row 1 (line 2), guests: more than 20,000 guests."
    ]


# --- dated ------------------------------------------------------------------------------------

RECORDS = "Chips and settlements"


@pytest.mark.parametrize(
    ("dated", "reason"),
    [
        (datetime(2099, 1, 1), str(MSG_DATED_LATER)),
        ("2099-01-01", str(MSG_DATED_LATER)),
        (datetime(2000, 1, 1), str(MSG_DATED_BEFORE).format(night="2008-07-26")),
        ("2000-01-01", str(MSG_DATED_BEFORE).format(night="2008-07-26")),
        ("last tuesday", str(MSG_NOT_A_DATE).format(text="last tuesday")),
    ],
)
def test_a_row_dated_outside_the_night_is_refused_as_the_forms_refuse_it(client, by, dated, reason):
    content = edited(night_of(COUNT_ONLY, by), RECORDS, 2, "dated", dated)
    fresh_database()
    nights = read_night_workbook("night.xlsx", content)
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(nights)
    assert [(p.sheet, p.line, p.column, p.reason) for p in refused.value.problems] == [
        (RECORDS, 2, "dated", reason)
    ]
    refused_on(client, content)


def test_a_text_date_is_read_as_the_date_it_says(client, by):
    content = edited(night_of(COUNT_ONLY, by), RECORDS, 2, "dated", "2008-07-27")
    fresh_database()
    answer = upload(client, content)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert ChipMove.objects.order_by("pk").first().dated == date(2008, 7, 27)


# --- the same night twice ---------------------------------------------------------------------


def test_a_night_already_in_the_ledger_is_refused_by_name_until_renamed(client, by):
    content = night_of(COUNT_ONLY, by)
    answer = upload(client, content)
    assert answer.status_code == 400
    reason = str(MSG_NIGHT_EXISTS).format(event="Count-only night", date="2008-07-26")
    assert f"Rules, row 1 (line 2), event: {reason}" in answer.content.decode().replace(
        "&#x27;", "'"
    )
    assert Event.objects.count() == 1  # not doubled
    renamed = edited(content, "Rules", 2, "event", "Count-only night, again")
    renamed = edited(renamed, RECORDS, 2, "event", "Count-only night, again")
    workbook = load_workbook(io.BytesIO(renamed))
    for row in workbook[RECORDS].iter_rows(min_row=2):
        row[0].value = "Count-only night, again"
    out = io.BytesIO()
    workbook.save(out)
    assert upload(client, out.getvalue()).status_code == 302
    assert Event.objects.count() == 2


def test_a_season_with_two_played_nights_of_one_name_says_so_once(by):
    content = workbook_bytes([banque_night(by), banque_night(by)])
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("season.xlsx", content))
    assert [p.reason for p in refused.value.problems] == [
        str(MSG_EVENT_TWICE).format(event="Banque night", first=1)
    ]


# --- a Rules sheet that lies ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value", "named"),
    [
        ("tie_pays", 9, "tie_pays"),
        ("commission_rate", 0.04, "commission_rate"),
    ],
)
def test_a_rules_row_other_than_the_hands_were_settled_by_is_refused(
    client, demo_night, column, value, named
):
    content = edited(workbook_bytes([demo_night]), "Rules", 2, column, value)
    fresh_database()
    nights = read_night_workbook("night.xlsx", content)
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(nights)
    [problem] = refused.value.problems
    assert (problem.sheet, problem.line) == ("Rules", 2)
    assert named in problem.column.split("/")
    assert "of the Hands sheet come out otherwise: line " in problem.reason
    assert problem.reason.count("(by the rules: ") <= 5  # the first rows, not every one
    refused_on(client, content)


def test_a_rules_row_with_another_cut_than_the_coups_were_settled_by_is_refused(client, by):
    # The banks carried from coup to coup already disagree with the cut: refused on the Coups.
    content = edited(night_of(CHEMIN, by), "Rules", 2, "taxe_rate", 0.04)
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("night.xlsx", content))
    assert {problem.sheet for problem in refused.value.problems} == {"Coups"}
    refused_on(client, content)


def test_a_coup_s_net_other_than_its_rules_settle_it_to_is_refused(client, by):
    workbook = load_workbook(io.BytesIO(night_of(CHEMIN, by)))
    coups = workbook["Coups"]
    net = list(COUPS_COLUMNS).index("net") + 2  # after the Event column
    line = next(row[0].row for row in coups.iter_rows(min_row=2) if row[net - 1].value)
    coups.cell(line, net).value = 12345
    out = io.BytesIO()
    workbook.save(out)
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("night.xlsx", out.getvalue()))
    [problem] = refused.value.problems
    assert (problem.sheet, problem.line, problem.column) == (
        "Rules",
        2,
        "/".join(("taxe", "taxe_rate", "shoe_charge", "banco", "suite_returns", "bank_rotation")),
    )
    assert f"line {line}, net 12345 (by the rules: " in problem.reason


def test_a_scoresheet_s_cut_past_ten_percent_is_a_form_error_not_a_server_error():
    # The constraint's message has a "%" that Django formats: a bare one raised a ValueError.
    from ledger.workbook.forms import ScoresheetGameForm

    form = ScoresheetGameForm({"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": "0.5"})
    assert not form.is_valid()
    assert "The cut runs from 0 to 10%." in str(form.errors)


def test_rows_of_a_night_the_rules_sheet_does_not_name_are_named_by_their_sheet(by):
    workbook = load_workbook(io.BytesIO(night_of(CHEMIN, by)))
    workbook["Coups"].cell(2, 1).value = "Ghost night"
    out = io.BytesIO()
    workbook.save(out)
    fresh_database()
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(read_night_workbook("night.xlsx", out.getvalue()))
    found = {(problem.sheet, problem.line, problem.column) for problem in refused.value.problems}
    assert ("Coups", 2, "event") in found


def renamed_night(content: bytes, name: str) -> bytes:
    """The workbook with its night's name changed on every sheet that names it."""
    workbook = load_workbook(io.BytesIO(content))
    for sheet in workbook.worksheets:
        header = [cell.value for cell in sheet[1]]
        column = next((i for i, title in enumerate(header) if title in ("event", "Event")), None)
        if column is not None:
            for row in sheet.iter_rows(min_row=2):
                if row[column].value:
                    row[column].value = name
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


@pytest.mark.parametrize(
    "retyped", ["count-only night", "Ｃount-only night", "Count-only  night", " Count-only night"]
)
def test_a_night_retyped_in_case_width_or_spaces_is_the_same_night(client, by, retyped):
    content = renamed_night(night_of(COUNT_ONLY, by), retyped)
    answer = upload(client, content)
    assert answer.status_code == 400
    reason = str(MSG_NIGHT_EXISTS).format(event="Count-only night", date="2008-07-26")
    assert reason in answer.content.decode().replace("&#x27;", "'")
    assert Event.objects.count() == 1  # not doubled


def test_a_chip_set_is_kept_as_the_count_setup_keeps_it(client, by):
    content = night_of(COUNT_ONLY, by)
    fresh_database()
    content = edited(content, "Rules", 2, "denominations", "5 1,000 1e2 １")
    assert upload(client, content).status_code == 302
    event = Event.objects.get()
    assert event.count_setup.denominations == ["1", "5", "100", "1000"]
    assert client.get(reverse("ledger:count_page", args=[event.pk])).status_code == 200


def test_a_scoresheet_or_a_count_sheet_sent_twice_is_refused_the_second_time(client, by):
    from ledger.workbook.forms import MSG_NIGHT_EXISTS as MSG_FORM_NIGHT_EXISTS

    client.force_login(by)
    sheet = b"guest,bought,cashed_out,paid_by\nWinner,100,250,cash\nLoser,100,0,cash\n"
    fields = {"event_name": "Zero count night", "date": "2008-07-28", "money_per_chip": "100",
              "table_min": "10", "table_max": "1000", "decks": "8", "no_commission": "none",
              "tie_pays": "8", "pair_pays": "11"}  # fmt: skip

    def send(name: str):
        file = io.BytesIO(sheet)
        file.name = "count.csv"
        return client.post(reverse("ledger:scoresheet_upload"), fields | {"event_name": name,
                                                                         "file": file})  # fmt: skip

    assert send("Zero count night").status_code == 302
    answer = send("zero count  night")
    reason = str(MSG_FORM_NIGHT_EXISTS).format(event="Zero count night", date="2008-07-28")
    assert reason in answer.content.decode().replace("&#x27;", "'")
    assert Event.objects.filter(date=date(2008, 7, 28)).count() == 1
