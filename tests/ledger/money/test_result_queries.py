"""Every results page runs the same number of queries with a 1-event or a 100-event history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Event, Hand, Shoe
from ledger.models import Bet, EventGuest, Guest, GuestEventResult, Settlement
from tests.ledger.money.histories import build_history

pytestmark = pytest.mark.django_db


PAGES = {
    "event page": lambda guest: reverse(
        "ledger:event_detail", args=[Event.objects.latest("date").pk]
    ),
    "guest results": lambda guest: reverse(
        "ledger:event_guest_results", args=[Event.objects.latest("date").pk]
    ),
    "guest page": lambda guest: reverse("ledger:guest_page", args=[guest.pk, guest.access_token]),
    "guest detail": lambda guest: reverse("ledger:guest_detail", args=[guest.pk]),
    "guest list": lambda guest: reverse("ledger:guest_list"),
    "standings": lambda guest: reverse("ledger:standings"),
    "house": lambda guest: reverse("ledger:house"),
    "events": lambda guest: reverse("ledger:event_list"),
}


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.parametrize("page", PAGES)
def test_results_pages_run_constant_queries(client, host, page, django_assert_max_num_queries):
    client.force_login(host)
    guest = build_history(1, host)
    small = count_queries(client, PAGES[page](guest))
    GuestEventResult.objects.all().delete()
    Bet.objects.all().delete()
    Settlement.objects.all().delete()
    Hand.objects.all().delete()
    Shoe.objects.all().delete()
    EventGuest.objects.all().delete()
    Event.objects.all().delete()
    Guest.objects.all().delete()
    guest = build_history(100, host)
    url = PAGES[page](guest)
    with django_assert_max_num_queries(small):
        large = count_queries(client, url)
    assert large == small
