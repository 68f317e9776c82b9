"""Fixtures for the ledger's tests of guest-banked nights."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.kinds import Game
from games.models import Event
from tests.conftest import bet


@pytest.fixture
def chemin(event):
    """The event as a Chemin de fer night, the minimum banco 100."""
    Event.objects.filter(pk=event.pk).update(game=Game.CHEMIN_DE_FER, table_min=Decimal(100))
    event.refresh_from_db()
    return event


@pytest.fixture
def table(chemin, shoe, seated):
    """The Chemin de fer night's shoe, seven guests seated."""
    shoe.refresh_from_db()
    return shoe


@pytest.fixture
def played(seated, shoe, record):
    """Aki won 100 (the house owes him), Ben lost 50 (he owes the house)."""
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    return shoe.event
