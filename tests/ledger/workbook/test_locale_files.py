"""German, French and Japanese files of each kind (Punto Banco, coups, a count) as Excel and
LibreOffice save them (``files/locales``, written by its ``make.py``), imported through the upload
page to the amounts they show: "1.000" in a German sheet is a thousand, "387,5" is 387.50,
"1 000,00 €" and Japanese Excel's "\\1,000" are a thousand, a yen cell of an .xlsx is its number."""

from __future__ import annotations

import io
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from ledger.integrity import check_ledger
from ledger.models import CountSetup, GuestEventResult
from tests.pages import text

D = Decimal
pytestmark = pytest.mark.django_db
FILES = Path(__file__).parent / "files" / "locales"

# Hand 1: the Player wins (Aki's player stake, the other's banker stake lost); hand 2: the
# Banker wins with a pair (Aki's 10 on the pair pays 11 to 1; the banker stake 95%).
PUNTO_BANCO = {
    "de-punto-banco.csv": {"Aki": D(1110), "Jürgen": D("-387.5") + D(1140)},
    "de-punto-banco.ods": {"Aki": D(1110), "Jürgen": D("-387.5") + D(1140)},
    "fr-punto-banco.csv": {"Aki": D(1110), "Gaëlle": D("-387.5") + D(1140)},
    "fr-punto-banco.ods": {"Aki": D(1110), "Gaëlle": D("-387.5") + D(1140)},
    "ja-punto-banco.csv": {"田中": D(1110), "鈴木": D(-400) + D(1140)},
    "ja-punto-banco.xlsx": {"田中": D(1110), "鈴木": D(-400) + D(1140)},
}
# Coup 1: the bank of 1,000 wins 600 and 400 (5% taxe on the 1,000 won: the bank is 1,950);
# coup 2: the bank of 1,950 loses to both covers.
COUPS = {
    "de-coups.csv": {"Aki": D(-1000), "Jürgen": D("375.5"), "Chie": D("574.5")},
    "de-coups.ods": {"Aki": D(-1000), "Jürgen": D("375.5"), "Chie": D("574.5")},
    "fr-coups.csv": {"Aki": D(-1000), "Gaëlle": D("375.5"), "Chie": D("574.5")},
    "fr-coups.ods": {"Aki": D(-1000), "Gaëlle": D("375.5"), "Chie": D("574.5")},
    "ja-coups.csv": {"田中": D(-1000), "鈴木": D(375), "佐藤": D(575)},
    "ja-coups.xlsx": {"田中": D(-1000), "鈴木": D(375), "佐藤": D(575)},
}
GERMAN_COUNT = {"Tanaka": D(430), "Müller": D("-1200.5"), "Schmidt": D("112.5")}
COUNT = {
    "de-count.csv": GERMAN_COUNT,
    "de-count.ods": GERMAN_COUNT,
    "de-count.txt": GERMAN_COUNT,  # tabs: the decimal comma shown by "1.200,50" and "387,5"
    "fr-count.csv": {"Éloïse": D(430), "Gaëlle": D("112.5")},
    "fr-count.ods": {"Éloïse": D(430), "Gaëlle": D("112.5")},
    "ja-count.csv": {"田中": D(430), "鈴木": D(-400)},
    "ja-count.xlsx": {"田中": D(430), "鈴木": D(-400)},
}


def upload(client, name: str, **changes: str):
    upload = io.BytesIO((FILES / name).read_bytes())
    upload.name = name
    fields = {"file": upload, "event_name": name, "date": "2026-11-21", "money_per_chip": "100",
              "table_min": "1", "table_max": "5000", "decks": "8", "no_commission": "none",
              "commission": "5", "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
    return client.post(reverse("ledger:scoresheet_upload"), fields | changes)


def nets(name: str) -> dict[str, Decimal]:
    rows = GuestEventResult.objects.filter(event__name=name).select_related("guest")
    return {row.guest.name: row.net for row in rows}


@pytest.mark.parametrize(("name", "expected"), PUNTO_BANCO.items(), ids=list(PUNTO_BANCO))
def test_a_punto_banco_sheet_imports_to_the_amounts_it_shows(client, host, name, expected):
    client.force_login(host)
    response = upload(client, name)
    assert response.status_code == 302, text(response)
    assert nets(name) == expected
    assert check_ledger().problems == []


@pytest.mark.parametrize(("name", "expected"), COUPS.items(), ids=list(COUPS))
def test_a_coups_sheet_imports_to_the_amounts_it_shows(client, host, name, expected):
    client.force_login(host)
    cut = {"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": "0.05", "shoe_charge": "0",
           "banco": "limitee", "clearing": "direct"}  # fmt: skip
    response = upload(client, name, **cut)
    assert response.status_code == 302, text(response)
    assert nets(name) == expected
    assert check_ledger().problems == []


@pytest.mark.parametrize(("name", "expected"), COUNT.items(), ids=list(COUNT))
def test_a_count_sheet_imports_to_the_amounts_it_shows(client, host, name, expected):
    client.force_login(host)
    response = upload(client, name)
    assert response.status_code == 302, text(response)
    assert CountSetup.objects.get(event__name=name).count_only
    assert nets(name) == expected
    assert check_ledger().problems == []
