"""One identity rule for guests' names (ledger/guests/names.py), on every way in."""

from __future__ import annotations

import io
from contextlib import redirect_stderr

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from ledger.guests import services as guest_services
from ledger.guests.names import (
    MSG_NAME_CHARACTER,
    MSG_NAME_EMPTY,
    MSG_NAME_TOO_LONG,
    InvalidName,
    clean_name,
    name_key,
)
from ledger.models import Bet, Guest
from ledger.workbook.imports.night_writer import scoresheet_import
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.reading import ScoresheetInvalid

HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [("  Aki   Tanaka ", "Aki Tanaka"), ("ＫＥＮ", "KEN"), ("田中\u3000一郎", "田中 一郎"),
     ("Zoë", "Zoë"), ("Aki\tTanaka", "Aki Tanaka")],
)  # fmt: skip
def test_a_name_is_kept_as_nfkc_with_its_spaces_collapsed(typed, kept):
    assert clean_name(typed) == kept


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", str(MSG_NAME_EMPTY)),
        ("   ", str(MSG_NAME_EMPTY)),
        ("A\u0001B", str(MSG_NAME_CHARACTER).format(code="U+0001")),
        ("Ken\u200b", str(MSG_NAME_CHARACTER).format(code="U+200B")),  # zero-width space
        ("\u202eneK", str(MSG_NAME_CHARACTER).format(code="U+202E")),  # right-to-left override
        ("A\x00", str(MSG_NAME_CHARACTER).format(code="U+0000")),
        ("x" * 81, str(MSG_NAME_TOO_LONG).format(limit=80, length=81)),
    ],
)
def test_a_name_with_what_a_name_cannot_hold_is_refused_with_the_reason(typed, message):
    with pytest.raises(InvalidName) as raised:
        clean_name(typed)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("one", "other"),
    [("Straße", "STRASSE"), ("ÉMILE", "émile"), ("ＫＥＮ", "Ken"), ("Ǆ", "ǆ")],
)
def test_names_that_differ_only_in_case_or_width_are_one_guest(one, other):
    assert name_key(clean_name(one)) == name_key(clean_name(other))


@pytest.mark.django_db
def test_the_guest_form_finds_the_guest_whatever_the_case_or_width(event, host):
    ken = guest_services.event_guest_add(event=event, name="Ken", by=host)
    assert guest_services.event_guest_add(event=event, name="ＫＥＮ", by=host) == ken
    strasse = guest_services.event_guest_add(event=event, name="Straße", by=host)
    with pytest.raises(ValidationError, match="already a guest called Straße"):
        guest_services.guest_create(name="STRASSE")
    assert guest_services.guest_named("strasse") == strasse
    with pytest.raises(ValidationError, match="U\\+200B"):
        guest_services.event_guest_add(event=event, name="Ken\u200b2", by=host)
    assert Guest.objects.count() == 2


@pytest.mark.django_db
def test_the_database_refuses_two_guests_with_one_key():
    Guest.objects.create(name="Émile", name_key=name_key("Émile"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Guest.objects.create(name="ÉMILE", name_key=name_key("ÉMILE"))


@pytest.mark.django_db
def test_the_import_lands_on_the_guest_the_name_means(event, host, make_event):
    strasse = guest_services.event_guest_add(event=event, name="Straße", by=host)
    rows = ["1,1,,,P,,,1,STRASSE,player,10", "1,1,,,P,,,2,ｅｍｉｌｅ,banker,10",
            "1,2,,,B,,,1,strasse,player,10", "1,2,,,B,,,2,Emile,banker,10"]  # fmt: skip
    hands = check_scoresheet("x.csv", "\n".join([HEADER, *rows]).encode(), event.table_rules)
    imported = scoresheet_import(
        hands=hands, name="Paper", on=event.date, table=event.table_rules, by=host
    )
    assert imported.created_guests == ["emile"]
    assert {bet.guest for bet in Bet.objects.filter(seat=1)} == {strasse}
    assert Guest.objects.count() == 2


@pytest.mark.django_db
def test_a_sheet_name_with_a_control_character_is_a_row_problem(event):
    rows = ["1,1,,,P,,,1,Ken\u0007,player,10"]
    with pytest.raises(ScoresheetInvalid) as raised:
        check_scoresheet("x.csv", "\n".join([HEADER, *rows]).encode(), event.table_rules)
    assert [str(problem) for problem in raised.value.problems] == [
        "Row 1 (line 2), guest: " + str(MSG_NAME_CHARACTER).format(code="U+0007")
    ]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_normalises_names_and_reports_collisions_without_merging():
    executor = MigrationExecutor(connection)
    before, after = [("ledger", "0004_audit_event_edited")], [("ledger", "0005_guest_name_key")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps.get_model("ledger", "Guest")
    ken = old.objects.create(name="Ken")
    wide = old.objects.create(name="ＫＥＮ")
    odd = old.objects.create(name="Ak\u200bi  Tanaka")
    executor = MigrationExecutor(connection)
    report = io.StringIO()
    with redirect_stderr(report):
        executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    guests = {guest.pk: (guest.name, guest.name_key) for guest in Guest.objects.all()}
    assert guests[ken.pk] == ("Ken", "ken")
    assert guests[wide.pk] == ("KEN", f"ken#{wide.pk}")  # kept apart, not merged
    assert guests[odd.pk] == ("Aki Tanaka", "aki tanaka")
    assert f"Guests {ken.pk} and {wide.pk} are both 'KEN'" in report.getvalue()
    with pytest.raises(ValidationError, match="could be any of Ken"):
        guest_services.guest_named("ken")


@pytest.mark.django_db
def test_a_sheet_name_that_could_be_two_guests_kept_apart_is_a_row_problem(event):
    first = Guest.objects.create(name="Ken", name_key="ken")
    later = Guest.objects.create(name="KEN", name_key="ken#99")
    rows = ["1,1,,,P,,,1,ｋｅｎ,player,10"]
    with pytest.raises(ScoresheetInvalid) as raised:
        check_scoresheet("x.csv", "\n".join([HEADER, *rows]).encode(), event.table_rules)
    [problem] = raised.value.problems
    assert (problem.column, f"Ken (#{first.pk})" in problem.reason) == ("guest", True)
    assert f"KEN (#{later.pk})" in problem.reason
