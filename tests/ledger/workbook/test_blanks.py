"""The blank scoresheets (ledger.workbook.blanks): the .xlsx template of each game reads as its
CSV does, offers the import's words as lists, and survives a save by LibreOffice."""

from __future__ import annotations

import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from games.entry import TableRules
from games.kinds import Game
from games.models import Event
from games.payouts import BetType, RuleSet
from ledger.workbook.blanks import template_csv, template_xlsx
from ledger.workbook.count_imports import COUNT_TEMPLATE, check_count_sheet
from ledger.workbook.imports.coup_sheet import BankedGame, check_coup_sheet
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet

pytestmark = pytest.mark.django_db
TABLE = TableRules(RuleSet(), 8, Decimal(10), Decimal(1000))
BANKED = {Game.CHEMIN_DE_FER: BankedGame(Game.CHEMIN_DE_FER),
          Game.BACCARA_BANQUE: BankedGame(Game.BACCARA_BANQUE, taxe=Event.Cut.CAPITAL)}  # fmt: skip


def checked(game: Game, name: str, content: bytes):
    if game is Game.PUNTO_BANCO:
        return check_scoresheet(name, content, TABLE)
    return check_coup_sheet(name, content, TABLE, BANKED[game])


def validations(content: bytes) -> dict[str, tuple[str, str | None]]:
    """Each checked column's header: the check's type and its list or lower bound."""
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    header = {cell.column_letter: cell.value for cell in sheet[1]}
    found = {}
    for check in sheet.data_validations.dataValidation:
        for cells in check.sqref.ranges:
            found[header[cells.coord.split(":")[0].rstrip("0123456789")]] = (
                check.type,
                check.formula1,
            )
    return found


@pytest.mark.parametrize("game", list(Game))
def test_the_xlsx_template_reads_as_the_csv_one(game):
    csv_night = checked(game, "t.csv", template_csv(game).encode())
    assert csv_night  # the template holds an example night
    assert checked(game, "t.xlsx", template_xlsx(game)) == csv_night


def test_the_punto_banco_template_offers_the_import_s_words_as_lists():
    checks = validations(template_xlsx(Game.PUNTO_BANCO))
    assert checks["result"] == ("list", '"P,B,T"')
    assert checks["player_pair"] == checks["banker_pair"] == ("list", '"yes,no"')
    assert checks["bet"] == ("list", '"' + ",".join(bet.value for bet in BetType) + '"')
    assert checks["seat"] == ("whole", "1") and checks["stake"] == ("decimal", "0")
    assert "guest" not in checks and "player_cards" not in checks


def test_the_guest_banked_templates_offer_their_game_s_stakes_and_moves():
    chemin = validations(template_xlsx(Game.CHEMIN_DE_FER))
    assert chemin["stake_kind"][1] == '"suivi,banco_solo,banco_a_deux,avec_la_table,ordinary"'
    assert chemin["move"][1] == '"keep,suite,pass,retire"'
    banque = validations(template_xlsx(Game.BACCARA_BANQUE))
    assert banque["stake_kind"][1] == '"tableau_1,tableau_2"'
    assert banque["move"][1] == '"keep,retire"'
    assert banque["banker_choice"][1] == '"draw,stand"'


def test_the_upload_page_offers_each_template_as_a_workbook(client, host):
    client.force_login(host)
    page = client.get(reverse("ledger:scoresheet_upload")).content.decode()
    for game in Game:
        query = (
            "?format=xlsx" if game is Game.PUNTO_BANCO else f"?game={game.value}&amp;format=xlsx"
        )
        assert reverse("ledger:scoresheet_template") + query in page
    response = client.get(
        reverse("ledger:scoresheet_template"), {"format": "xlsx", "game": "chemin_de_fer"}
    )
    assert response["Content-Disposition"].endswith('filename="scoresheet-chemin-de-fer.xlsx"')
    content = b"".join(response.streaming_content)
    assert validations(content) == validations(template_xlsx(Game.CHEMIN_DE_FER))


SOFFICE = shutil.which("soffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
@pytest.mark.parametrize("game", list(Game))
def test_a_template_saved_again_by_libreoffice_imports(game, tmp_path):
    """As a host fills it: the workbook opened and saved by LibreOffice, as .xlsx and as .ods."""
    source = tmp_path / "template.xlsx"
    source.write_bytes(template_xlsx(game))
    expected = checked(game, "t.csv", template_csv(game).encode())
    for suffix in ("ods", "xlsx"):
        out = tmp_path / suffix
        subprocess.run(
            [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path}/profile",
             "--convert-to", suffix, "--outdir", str(out), str(source)],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        saved = (out / f"template.{suffix}").read_bytes()
        assert checked(game, f"saved.{suffix}", saved) == expected
    assert validations((tmp_path / "xlsx" / "template.xlsx").read_bytes())["result"][0] == "list"


@pytest.mark.parametrize("game", list(Game))
def test_the_xlsx_template_s_numbers_are_number_cells(game):
    sheet = load_workbook(io.BytesIO(template_xlsx(game))).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    numbers = {"shoe", "hand", "coup", "seat", "banker_seat", "stake", "bank"}
    cells = [
        (column, cell)
        for row in sheet.iter_rows(min_row=2)
        for column, cell in zip(header, row, strict=True)
        if column in numbers and cell.value is not None
    ]
    assert cells and all(cell.data_type == "n" for _column, cell in cells), [
        (column, cell.value) for column, cell in cells if cell.data_type != "n"
    ]


def test_the_count_template_is_a_workbook_too_with_numbers_and_a_list_of_payments(client, host):
    client.force_login(host)
    page = client.get(reverse("ledger:scoresheet_upload")).content.decode()
    assert reverse("ledger:scoresheet_template") + "?layout=count&amp;format=xlsx" in page
    assert reverse("ledger:scoresheet_template") + '?layout=count"' in page
    response = client.get(reverse("ledger:scoresheet_template"), {"layout": "count",
                                                                  "format": "xlsx"})  # fmt: skip
    assert response["Content-Disposition"].endswith('filename="scoresheet-count.xlsx"')
    content = b"".join(response.streaming_content)
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    assert [[cell.value for cell in row] for row in sheet.iter_rows()] == [
        ["guest", "bought", "cashed_out", "paid_by"],
        ["Aki", 500, 720, "cash"],
        ["Ben", 300, 0, "marker"],
    ]
    checks = validations(content)
    assert checks["paid_by"] == ("list", '"cash,marker,balance"')
    assert checks["bought"] == checks["cashed_out"] == ("decimal", "0")
    rows = check_count_sheet("count.xlsx", content)
    assert [(row.name, row.bought, row.cashed_out) for row in rows] == [
        ("Aki", Decimal(500), Decimal(720)),
        ("Ben", Decimal(300), Decimal(0)),
    ]
    assert rows == check_count_sheet("count.csv", COUNT_TEMPLATE.encode())
