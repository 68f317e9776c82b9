"""Every results page runs the same number of queries with a 1-event or a 100-event history."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Event, Hand, Shoe
from ledger.guests import services as guest_services
from ledger.models import Bet, EventGuest, Guest, GuestEventResult, Settlement
from ledger.money import services as money_services

pytestmark = pytest.mark.django_db


def build_history(events: int, host) -> Guest:
    """``events`` closed nights of one shoe, two hands and a few bets; returns a regular guest."""
    guests = Guest.objects.bulk_create(
        Guest(name=n, name_key=n.casefold()) for n in ("Aki", "Ben", "Chie")
    )
    created = Event.objects.bulk_create(
        Event(name=f"Night {n}", date=date(2024, 1, 1) + timedelta(days=n), created_by=host)
        for n in range(events)
    )
    EventGuest.objects.bulk_create(EventGuest(event=e, guest=g) for e in created for g in guests)
    shoes = Shoe.objects.bulk_create(Shoe(event=e, number=1, opened_by=host) for e in created)
    hands = Hand.objects.bulk_create(
        Hand(shoe=s, number=n, winner=w, logged_by=host)
        for s in shoes
        for n, w in ((1, "player"), (2, "banker"))
    )
    bets = []
    for hand in hands:
        for seat, guest in enumerate(guests, start=1):
            won = (hand.winner == "player") == (seat % 2 == 1)
            gross = Decimal(20) if won else Decimal(-20)
            bets.append(
                Bet(
                    hand=hand,
                    event_id=hand.shoe.event_id,
                    seat=seat,
                    guest=guest,
                    stake=Decimal(20),
                    bet_type="player" if seat % 2 else "banker",
                    gross=gross,
                    commission=Decimal(0),
                    net=gross,
                )
            )
    Bet.objects.bulk_create(bets)
    Settlement.objects.bulk_create(
        Settlement(guest=guests[0], event=e, amount=Decimal(5), method="cash", recorded_by=host)
        for e in created
    )
    money_services.results_rebuild()  # bulk inserts bypass the services that keep these
    guest_services.guest_link_issue(guest=guests[0])
    return guests[0]


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
