"""The Ratings sheet of the night's and the season's workbooks and of a guest's statement, read
back with openpyxl: the figures of the guest's page and the House page."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from games import services as game_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.workbook.exports import workbook_bytes
from tests.conftest import bet

pytestmark = pytest.mark.django_db
D = Decimal


def ratings(content: bytes) -> list[dict[str, object]]:
    sheet = load_workbook(io.BytesIO(content), data_only=True)["Ratings"]
    headers, *rows = list(sheet.iter_rows(values_only=True))
    return [dict(zip(headers, row, strict=True)) for row in rows]


def play(make_event, host, record, name):
    event = make_event(name=name)
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    ben = guest_services.event_guest_add(event=event, name="Ben", by=host)
    shoe = game_services.shoe_start(event=event, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=ben, by=host)
    record(
        shoe,
        "9 J",
        "8 J",
        [bet(1, "banker", 100), bet(1, "player", 200), bet(1, "tie", 50), bet(2, "banker", 1000)],
    )
    return event, aki


def test_the_night_s_ratings_sheet(make_event, host, record):
    event, _aki = play(make_event, host, record, "One")
    rows = ratings(workbook_bytes([event]))
    assert [(r["Event"], r["Guest"]) for r in rows] == [
        ("One", "Aki"), ("One", "Ben"), ("One", "The house"),
    ]  # fmt: skip
    aki, ben, house = rows
    assert (aki["Hands"], aki["Handle"], aki["Theoretical win"], aki["Actual"]) == (
        1,
        350,
        10.71,
        -50,
    )
    assert aki["Theoretical win (¥)"] == 1071 and aki["Actual (¥)"] == -5000
    assert aki["Average bet"] == 350 and aki["Handle not priced"] == 0
    assert ben["Theoretical win"] == 10.58 and ben["Actual"] == 1000
    assert house["Handle"] == 1350 and house["Theoretical win"] == 21.29
    assert house["Theoretical hold"] == 1.58 and house["Actual hold"] == 70.37
    assert aki["z"] == -0.37  # (−50 − 10.71) / 165.10, the three bets on one deal together


def test_the_season_adds_a_row_per_guest_and_the_guest_sees_only_theirs(make_event, host, record):
    one, aki = play(make_event, host, record, "One")
    two, _ = play(make_event, host, record, "Two")
    rows = ratings(workbook_bytes([one, two]))
    totals = [r for r in rows if r["Event"] == "All these nights"]
    assert [(r["Guest"], r["Handle"], r["Theoretical win"]) for r in totals] == [
        ("Aki", 700, 21.42), ("Ben", 2000, 21.16), ("The house", 2700, 42.57),  # summed exact
    ]  # fmt: skip
    mine = ratings(workbook_bytes([one, two], guest=aki))
    assert {r["Guest"] for r in mine} == {"Aki"} and len(mine) == 3
