from __future__ import annotations

import pytest

from games.cards import parse_cards
from games.rules import Hand


@pytest.fixture
def hand_from():
    """Build a validated hand from two strings of cards: ``hand_from("9 7", "J J 10")``."""

    def build(player: str, banker: str) -> Hand:
        return Hand.from_cards(parse_cards(player), parse_cards(banker))

    return build
