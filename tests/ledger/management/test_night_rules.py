"""``manage.py night_rules``: what an operator runs when a check fails after an upgrade. A night
recorded under the original reading of the bank's rotation, read by today's, fails the check;
the command shows which reading settles it and sets it only if the books are then clean; restore
and check_ledger read each night by its own."""

from __future__ import annotations

import io
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from openpyxl import load_workbook

from games.kinds import BankRotation
from games.models import Event
from ledger.integrity import check_ledger
from ledger.integrity.coups import MSG_COUP_UNSETTLED
from ledger.integrity.readings import read_as_played, settling_reading
from ledger.models import AuditEntry
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.imports.night_workbook import (
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.reading import ScoresheetInvalid
from tests.ledger.banked_nights import coup, seven_guest_night
from tests.pages import table_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_the_original_way(make_event, host):
    """A suite taken at the giver's right and lost, then banked again by the seat that lost it:
    recorded under the original reading."""
    event, shoe, _guests = seven_guest_night(make_event, host, table_min=10)
    Event.objects.filter(pk=event.pk).update(bank_rotation=BankRotation.ORIGINAL.value)
    shoe.event.refresh_from_db()
    coup(shoe, host, banker=1, bank="100", result="banker", covers=[(2, "ordinary", "100")],
         move="suite", suite_seat=2)  # fmt: skip
    coup(shoe, host, banker=2, bank="200", result="player", covers=[(3, "ordinary", "200")])
    coup(shoe, host, banker=2, bank="50", result="banker", covers=[(4, "ordinary", "50")],
         move="retire")  # fmt: skip
    event.refresh_from_db()
    return event


def test_read_by_todays_rule_the_night_fails_and_by_its_own_it_is_clean(played_the_original_way):
    event = played_the_original_way
    assert check_ledger().problems == []
    Event.objects.filter(pk=event.pk).update(bank_rotation=BankRotation.SKIPS_LOSER.value)
    problems = check_ledger().problems
    assert [problem.message for problem in problems] == [MSG_COUP_UNSETTLED]
    event.refresh_from_db()
    assert settling_reading(event) is BankRotation.ORIGINAL


def test_the_command_lists_the_readings_and_sets_only_one_that_settles(
    played_the_original_way, host
):
    event = played_the_original_way
    Event.objects.filter(pk=event.pk).update(bank_rotation=BankRotation.SKIPS_LOSER.value)
    out = StringIO()
    call_command("night_rules", str(event.pk), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith(" * skips_loser: 1 problem(s)")
    assert lines[2].startswith("   original: clean")
    call_command("night_rules", str(event.pk), "--bank-rotation", "original", stdout=StringIO())
    event.refresh_from_db()
    assert event.bank_rotation == BankRotation.ORIGINAL.value
    assert check_ledger().problems == []
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.EVENT_EDITED).get()
    assert (entry.before, entry.after) == ({"bank_rotation": "skips_loser"},
                                           {"bank_rotation": "original"})  # fmt: skip
    with pytest.raises(CommandError, match="nothing was changed"):
        call_command("night_rules", str(event.pk), "--bank-rotation", "skips_loser",
                     stdout=StringIO())  # fmt: skip
    event.refresh_from_db()
    assert event.bank_rotation == BankRotation.ORIGINAL.value


def test_a_night_whose_reading_is_not_known_is_read_as_its_coups_settle(played_the_original_way):
    event = played_the_original_way
    Event.objects.filter(pk=event.pk).update(bank_rotation=BankRotation.SKIPS_LOSER.value)
    assert [changed.pk for changed in read_as_played([event.pk])] == [event.pk]
    event.refresh_from_db()
    assert event.bank_rotation == BankRotation.ORIGINAL.value


def test_an_unknown_night_is_a_one_line_refusal(db):
    with pytest.raises(CommandError, match="No event with the id 999"):
        call_command("night_rules", "999")


def test_a_nights_workbook_carries_its_rotation_back_in(played_the_original_way, host):
    """Exported and imported again (here after the night is renamed), a night of the first
    release's reading keeps it: its coups check under it; a Rules sheet without the column (a
    workbook exported before) reads today's."""
    event = played_the_original_way
    content = workbook_bytes([event])
    Event.objects.filter(pk=event.pk).update(name="The first copy")
    done = night_workbook_import(
        nights=check_night_workbook(read_night_workbook("night.xlsx", content) or []), by=host
    )
    (imported,) = done.events
    assert imported.bank_rotation == BankRotation.ORIGINAL.value
    assert check_ledger().problems == []
    book = load_workbook(io.BytesIO(content))
    rules = next(sheet for sheet in book.worksheets if sheet["A1"].value == "event")
    assert rules.cell(1, rules.max_column - 1).value == "bank_rotation"
    assert rules.cell(1, rules.max_column).value == "currency"  # the column after it
    rules.delete_cols(rules.max_column - 1, 2)  # as a workbook exported before the columns
    older = io.BytesIO()
    book.save(older)
    Event.objects.filter(pk=imported.pk).update(name="The second copy")
    nights = read_night_workbook("older.xlsx", older.getvalue())
    assert nights is not None  # still read as a night's workbook, by today's reading:
    with pytest.raises(ScoresheetInvalid) as refused:
        check_night_workbook(nights)
    assert "who just lost it" in str(refused.value.problems[0])  # today's reading


@pytest.mark.parametrize(("reading", "next_banker"), [("original", "2"), ("skips_loser", "3")])
def test_the_table_prefills_the_next_bank_by_the_nights_reading(
    client, make_event, host, reading, next_banker
):
    event, shoe, _guests = seven_guest_night(make_event, host, table_min=10)
    Event.objects.filter(pk=event.pk).update(bank_rotation=reading)
    shoe.event.refresh_from_db()
    coup(shoe, host, banker=1, bank="100", result="banker", covers=[(2, "ordinary", "100")],
         move="suite", suite_seat=2)  # fmt: skip
    coup(shoe, host, banker=2, bank="200", result="player", covers=[(3, "ordinary", "200")])
    client.force_login(host)
    prefill = client.get(table_url(shoe), {"part": "prefill"}).json()
    assert prefill["banker_seat"] == next_banker
