"""The admin shows the nights as played and changes none of them, not even for a superuser."""

from __future__ import annotations

import pytest
from django.db.models import Model
from django.urls import reverse

from games.models import Event, Hand, Shoe
from games.rules import Winner
from tests.conftest import bet

pytestmark = pytest.mark.django_db


def admin_url(obj_or_model: Model | type[Model], view: str) -> str:
    opts = obj_or_model._meta
    name = f"admin:{opts.app_label}_{opts.model_name}_{view}"
    if view in ("changelist", "add"):
        return reverse(name)
    return reverse(name, args=[obj_or_model.pk])


def stored(obj: Model) -> dict[str, object]:
    return type(obj).objects.filter(pk=obj.pk).values().get()


def edited_form(obj: Model) -> dict[str, str]:
    """A change form as a tampering browser would send it: every field given a new value."""
    data = {field: "tampered" for field in stored(obj) if field != "id"}
    return data | {"_save": "Save"}


def assert_view_only(admin_client, obj: Model) -> None:
    """What "view only" means for one record, checked through the admin as a superuser."""
    model = type(obj)
    before, count = stored(obj), model.objects.count()

    changelist = admin_client.get(admin_url(model, "changelist"))
    assert changelist.status_code == 200
    assert admin_url(model, "add") not in changelist.content.decode()  # no "Add" button

    page = admin_client.get(admin_url(obj, "change"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="_save"' not in html and 'name="_continue"' not in html
    assert admin_url(obj, "delete") not in html
    assert admin_client.post(admin_url(obj, "change"), edited_form(obj)).status_code == 403

    assert admin_client.get(admin_url(model, "add")).status_code == 403
    assert admin_client.post(admin_url(model, "add"), edited_form(obj)).status_code == 403

    assert admin_client.get(admin_url(obj, "delete")).status_code == 403
    assert admin_client.post(admin_url(obj, "delete"), {"post": "yes"}).status_code == 403
    # Nor the changelist's bulk "Delete selected" action.
    admin_client.post(
        admin_url(model, "changelist"),
        {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"},
    )

    assert stored(obj) == before
    assert model.objects.count() == count


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
