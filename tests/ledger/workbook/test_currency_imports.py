"""A night's currency goes out with its workbook and comes back with it; a workbook exported
before nights had a currency (its Rules sheet heading the rate ``yen_per_chip``, no currency
column) is still read, its nights in yen."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from openpyxl import Workbook, load_workbook

from games import services as game_services
from games.models import Event
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import ledger_problems
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.imports.night_workbook import (
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from shoebook.base.roles import HOSTS
from tests.conftest import bet, make_user

pytestmark = pytest.mark.django_db
D = Decimal


def fresh_database() -> None:
    """Every table emptied, inside the test's transaction (as the round trips do)."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def imported(content: bytes) -> list[Event]:
    nights = read_night_workbook("night.xlsx", content)
    assert nights is not None, "not read as a night's workbook"
    host = make_user("importer", HOSTS)
    return night_workbook_import(nights=check_night_workbook(nights), by=host).events


@pytest.fixture
def played(make_event, host, record):
    def build(**fields):
        event = make_event(**fields)
        aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
        shoe = game_services.shoe_start(event=event, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        record(shoe, "8 K", "9 K", [bet(1, "player", "10.50")])
        game_services.mark_shoe_closed(shoe=shoe, by=host)
        return event

    return build


def sheets(content: bytes) -> dict[str, list[tuple[object, ...]]]:
    book = load_workbook(io.BytesIO(content))
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in book.worksheets}


@pytest.mark.parametrize(("currency", "rate"), [("KWD", D("0.375")), ("EUR", D("12.35"))])
def test_a_nights_currency_goes_out_and_comes_back(played, currency, rate):
    event = played(currency=currency, money_per_chip=rate)
    first = workbook_bytes([event])
    fresh_database()
    [again] = imported(first)
    assert (again.currency, again.money_per_chip) == (currency, rate)
    assert sheets(workbook_bytes([again])) == sheets(first)
    assert ledger_problems() == []


def as_before_currencies(content: bytes) -> bytes:
    """The workbook as the release before nights had a currency wrote it: the rate headed
    ``yen_per_chip`` and no currency column."""
    book = load_workbook(io.BytesIO(content))
    rules = book["Rules"]
    header = [cell.value for cell in rules[1]]
    assert header[-1] == "currency"
    rules.cell(row=1, column=header.index("money_per_chip") + 1, value="yen_per_chip")
    rules.delete_cols(len(header))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_workbook_from_before_currencies_is_read_in_yen(played):
    event = played(money_per_chip=D("0.5"), date=date(2026, 11, 20))
    old = as_before_currencies(workbook_bytes([event]))
    assert "yen_per_chip" in sheets(old)["Rules"][0]
    fresh_database()
    [again] = imported(old)
    assert (again.currency, again.money_per_chip) == ("JPY", D("0.5"))
    assert ledger_problems() == []


def test_a_rules_sheet_with_a_currency_that_is_none_is_refused_by_its_column(played):
    event = played(currency="EUR", money_per_chip=D(1))
    book = load_workbook(io.BytesIO(workbook_bytes([event])))
    rules = book["Rules"]
    rules.cell(row=2, column=rules.max_column, value="eur")
    out = io.BytesIO()
    book.save(out)
    fresh_database()
    from ledger.workbook.reading import ScoresheetInvalid

    with pytest.raises(ScoresheetInvalid) as refused:
        imported(out.getvalue())
    assert any(problem.column == "currency" for problem in refused.value.problems)
    assert not Event.objects.exists()


def test_an_empty_workbook_is_not_a_nights(db):
    out = io.BytesIO()
    Workbook().save(out)
    assert read_night_workbook("x.xlsx", out.getvalue()) is None
