"""Nights recorded before nights had a currency keep yen: the migration renames the rate
(``yen_per_chip`` → ``money_per_chip``), keeps every rate as it was, gives every night JPY, and
the rate's constraint (more than zero) holds under its new name."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from games.models import Event
from ledger.money.amounts import format_money, to_money

BEFORE = [("games", "0015_event_bank_rotation")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_night_recorded_in_yen_keeps_its_rate_and_is_in_yen():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("games", "Event")
    reference = old.objects.create(name="Reference", date=date(2026, 11, 20), yen_per_chip=100)
    half = old.objects.create(name="Half", date=date(2026, 11, 21), yen_per_chip=Decimal("0.5"))
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    nights = Event.objects.in_bulk([reference.pk, half.pk])
    assert (nights[reference.pk].currency, nights[reference.pk].money_per_chip) == ("JPY", 100)
    assert (nights[half.pk].currency, nights[half.pk].money_per_chip) == ("JPY", Decimal("0.5"))
    # The reference night's house result, −654 chips, is ¥−65,400 as before.
    night = nights[reference.pk]
    assert format_money(to_money(Decimal(-654), night.money_per_chip, night.currency), "JPY") == (
        "−¥65,400"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.filter(pk=half.pk).update(money_per_chip=0)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_migration_goes_back_to_the_yen_column():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    assert "yen_per_chip" in columns() and "currency" not in columns()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert {"money_per_chip", "currency"} <= columns() and "yen_per_chip" not in columns()


def columns() -> set[str]:
    with connection.cursor() as cursor:
        described = connection.introspection.get_table_description(cursor, "games_event")
    return {column.name for column in described}
