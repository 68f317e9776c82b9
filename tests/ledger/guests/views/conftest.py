"""Fixtures for the guests' pages."""

from __future__ import annotations

import pytest

from tests.conftest import bet


@pytest.fixture
def played(seated, shoe, record):
    """Aki won 100 and Ben lost 40: the seated guests, by seat."""
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 40)])
    return seated
