"""The admin shows the nights as played and changes none of them, not even for a superuser."""

from __future__ import annotations

import pytest

from games.models import Event, Hand, Shoe
from games.rules import Winner
from tests.admin_pages import admin_url, assert_view_only
from tests.conftest import bet

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(seated, shoe, record):
    """A night with a hand logged: an event, its shoe and the hand."""
    return record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])


@pytest.mark.parametrize("model", [Event, Shoe, Hand], ids=lambda m: m.__name__)
def test_the_admin_shows_the_night_and_changes_nothing(admin_client, played, model):
    assert_view_only(admin_client, model.objects.get())


def test_the_event_page_shows_the_event_without_its_display_link(admin_client, played, event):
    event.display_token = "secret-display-token"
    event.save(update_fields=["display_token"])
    html = admin_client.get(admin_url(event, "change")).content.decode()
    assert "Friday night" in html
    assert "secret-display-token" not in html


def test_a_hand_cannot_be_edited_even_when_it_has_no_bets(admin_client, shoe, record, host):
    hand = record(shoe, result=Winner.BANKER)
    response = admin_client.post(
        admin_url(hand, "change"), {"winner": "player", "player_cards": "9 7", "_save": "Save"}
    )
    assert response.status_code == 403
    hand.refresh_from_db()
    assert (hand.winner, hand.player_cards, hand.version) == ("banker", "", 1)
