"""A guest's long history of nights, built for the tests of pages that must not grow with it."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from games.models import Event, Hand, Shoe
from ledger.guests import services as guest_services
from ledger.models import Bet, EventGuest, Guest, Settlement
from ledger.money import services as money_services


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
