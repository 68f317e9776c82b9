"""Who may do what (shoebook/base/roles.py), walked as each role would."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from games import services as game_services
from games.models import Hand
from tests.pages import HTMX, save, table_url, text

D = Decimal
pytestmark = pytest.mark.django_db


def test_anyone_not_logged_in_is_sent_to_the_login_page(client, seated, shoe, record):
    hand = record(shoe, "9 7", "J J 10")
    for url in (
        reverse("ledger:event_list"),
        reverse("ledger:event_detail", args=[shoe.event_id]),
        table_url(shoe),
        reverse("ledger:hand_detail", args=[hand.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert response.url.startswith(reverse("login"))
    response = save(client, shoe, htmx=False, result="tie")
    assert response.url.startswith(reverse("login"))
    assert Hand.objects.count() == 1


def test_a_dealer_logs_and_seats_but_touches_nothing_else(
    client, dealer, event, seated, shoe, guests, record
):
    client.force_login(dealer)
    assert client.get(table_url(shoe)).status_code == 200
    assert "Hand 1 saved" in text(save(client, shoe, result="player", stake_1_player="10"))
    seat = client.post(
        reverse("ledger:seat_change", args=[shoe.pk]), {"seat": 7, "guest": guests[7].pk}, **HTMX
    )
    assert "Hana sits in seat 7; Goro leaves the table." in text(seat)
    hand = Hand.objects.get()
    forbidden = [
        client.get(reverse("ledger:event_create")),
        client.post(reverse("ledger:event_guest_add", args=[event.pk]), {"name": "Mallory"}),
        client.get(reverse("ledger:shoe_close", args=[shoe.pk])),
        client.post(reverse("ledger:shoe_close", args=[shoe.pk])),
        client.post(reverse("ledger:shoe_reopen", args=[shoe.pk])),
        client.get(reverse("ledger:event_close", args=[event.pk])),
        client.post(reverse("ledger:event_close", args=[event.pk])),
        client.post(reverse("ledger:event_reopen", args=[event.pk])),
        client.post(
            reverse("ledger:hand_detail", args=[hand.pk]), {"reason": "x", "result": "banker"}
        ),
    ]
    assert [response.status_code for response in forbidden] == [403] * 9
    assert "Correct this hand" not in text(
        client.get(reverse("ledger:hand_detail", args=[hand.pk]))
    )
    game_services.mark_shoe_closed(shoe=shoe, by=dealer)  # (closing is a host's act in the pages)
    closed = text(save(client, shoe, result="banker"))
    assert game_services.MSG_SHOE_CLOSED.format(number=1) in closed
    assert Hand.objects.count() == 1


def test_a_logged_in_stranger_sees_none_of_it(client, outsider, shoe):
    client.force_login(outsider)
    assert client.get(table_url(shoe)).status_code == 403
    assert client.get(reverse("ledger:event_list")).status_code == 403
    assert save(client, shoe, result="tie").status_code == 403


def test_who_is_asking_and_their_roles_are_one_query_and_read_afresh_each_request(
    client, host, dealer, shoe, django_assert_num_queries
):
    from django.contrib.auth.models import Group

    from shoebook.base.roles import DEALERS, HOSTS, RolesBackend, is_host, is_table_staff

    backend = RolesBackend()
    with django_assert_num_queries(1):
        user = backend.get_user(host.pk)
        assert is_host(user) and is_table_staff(user)
    with django_assert_num_queries(1):
        user = backend.get_user(dealer.pk)
        assert not is_host(user) and is_table_staff(user)
    client.force_login(host)
    assert client.get(table_url(shoe)).status_code == 200
    host.groups.remove(Group.objects.get(name=HOSTS))  # taken away between two requests
    host.groups.add(Group.objects.get(name=DEALERS))
    assert client.get(reverse("ledger:guest_list")).status_code == 403
    host.is_active = False
    host.save()
    assert backend.get_user(host.pk) is None
    assert client.get(table_url(shoe)).status_code == 302  # logged out
