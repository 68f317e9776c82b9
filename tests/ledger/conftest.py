"""Fixtures for the ledger's tests of guest-banked nights."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.kinds import Game
from games.models import Event


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
