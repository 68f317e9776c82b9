"""The admin shows the money records and changes none of them; a guest's login is the one link
it still sets."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Event
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import (
    AuditEntry,
    Bet,
    Coup,
    EventGuest,
    Guest,
    GuestEventResult,
    HandRevision,
    Seating,
    Settlement,
)
from ledger.money import services as money_services
from tests.admin_pages import admin_url, assert_view_only, stored
from tests.conftest import bet
from tests.ledger.hands.coup_entries import coup_entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(seated, shoe, record, host):
    """A night with a row in every ledger table: bets, a hand undone, a settlement."""
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 40)])
    hand_services.hand_undo(shoe=shoe, by=host)
    money_services.settlement_record(
        guest=seated[1], event=shoe.event, amount=Decimal("-10"), method="cash", by=host
    )
    return seated


@pytest.mark.parametrize(
    "model",
    [EventGuest, Seating, Bet, HandRevision, Settlement, GuestEventResult, AuditEntry],
    ids=lambda m: m.__name__,
)
def test_the_admin_shows_the_money_records_and_changes_nothing(admin_client, played, model):
    assert_view_only(admin_client, model.objects.order_by("pk").first())


@pytest.fixture
def aki(played) -> Guest:
    return played[1]


@pytest.fixture
def login() -> User:
    return User.objects.create_user("aki", password="pw-for-tests")


def test_a_guests_login_is_linked_and_unlinked_in_the_admin(admin_client, aki, login):
    page = admin_client.get(admin_url(aki, "change")).content.decode()
    assert 'name="_save"' in page and 'name="user"' in page

    response = admin_client.post(admin_url(aki, "change"), {"user": login.pk, "_save": "Save"})
    assert response.status_code == 302
    aki.refresh_from_db()
    assert aki.user == login

    response = admin_client.post(admin_url(aki, "change"), {"user": "", "_save": "Save"})
    assert response.status_code == 302
    aki.refresh_from_db()
    assert aki.user is None


def test_nothing_but_the_login_changes_on_a_guest(admin_client, aki, login):
    guest_services.guest_link_issue(guest=aki)
    before = stored(aki)
    page = admin_client.get(admin_url(aki, "change")).content.decode()
    assert 'name="name"' not in page and 'name="access_token"' not in page
    assert before["access_token"] not in page  # the private link is never shown here

    response = admin_client.post(
        admin_url(aki, "change"),
        {
            "name": "Renamed",
            "access_token": "typed-in",
            "created_at_0": "2000-01-01",
            "created_at_1": "00:00:00",
            "user": login.pk,
            "_save": "Save",
        },
    )
    assert response.status_code == 302
    assert stored(aki) == before | {"user_id": login.pk}


def test_guests_are_neither_added_nor_deleted_in_the_admin(admin_client, aki):
    count = Guest.objects.count()
    assert admin_client.get(admin_url(Guest, "changelist")).status_code == 200
    assert admin_client.get(admin_url(Guest, "add")).status_code == 403
    assert admin_client.post(admin_url(Guest, "add"), {"name": "Ichiro"}).status_code == 403
    assert admin_client.get(admin_url(aki, "delete")).status_code == 403
    assert admin_client.post(admin_url(aki, "delete"), {"post": "yes"}).status_code == 403
    admin_client.post(
        admin_url(Guest, "changelist"),
        {"action": "delete_selected", "_selected_action": [aki.pk], "post": "yes"},
    )
    assert Guest.objects.count() == count
    assert Guest.objects.filter(pk=aki.pk, name="Aki").exists()


def test_users_are_still_created_in_the_admin(admin_client):
    response = admin_client.post(
        admin_url(User, "add"),
        {
            "username": "ichiro",
            "password1": "a-long-enough-pass-9",
            "password2": "a-long-enough-pass-9",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302
    assert User.objects.filter(username="ichiro").exists()


@pytest.mark.parametrize(
    "model",
    [
        "event",
        "shoe",
        "hand",
        "guest",
        "eventguest",
        "seating",
        "bet",
        "handrevision",
        "settlement",
        "guesteventresult",
    ],
)
def test_every_model_has_an_admin_page(admin_client, seated, shoe, record, model):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    app = "games" if model in ("event", "shoe", "hand") else "ledger"
    assert admin_client.get(reverse(f"admin:{app}_{model}_changelist")).status_code == 200


def test_a_coup_is_shown_and_never_changed_in_the_admin(admin_client, seated, shoe, host):
    Event.objects.filter(pk=shoe.event_id).update(game="chemin_de_fer", table_min=100)
    shoe.refresh_from_db()
    hand_services.record_hand(
        shoe=shoe, number=1, entry=coup_entry((2, "ordinary", "100")), by=host
    )
    assert admin_client.get(reverse("admin:ledger_coup_changelist")).status_code == 200
    assert_view_only(admin_client, Coup.objects.get())
