"""Reads for the events list and an event's page: its shoes, and what is still going on in a shoe or
an event before it closes."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, QuerySet

from games.models import Event, Hand, Shoe
from ledger.models import Guest, Seating


def events_for_list() -> QuerySet[Event]:
    return Event.objects.nights().annotate(shoe_count=Count("shoes", distinct=True))


def event_shoes(event: Event) -> QuerySet[Shoe]:
    return event.shoes.annotate(hand_count=Count("hands"))


@dataclass
class ShoeOpenThings:
    """What is still going on in a shoe, for the page that asks before closing it."""

    hands: int
    seated: list[Guest]  # still seated, in seat order
    past_plan: int = 0  # hands played past the event's planned length


def shoe_open_things(shoe: Shoe) -> ShoeOpenThings:
    still_seated = Seating.objects.filter(shoe=shoe, to_hand__isnull=True).select_related("guest")
    hands = shoe.hands.count()
    return ShoeOpenThings(
        hands=hands,
        seated=[seating.guest for seating in still_seated.order_by("seat")],
        past_plan=max(0, hands - shoe.event.hands_per_shoe),
    )


@dataclass
class EventOpenThings:
    """What is still going on in an event, for the page that asks before closing it."""

    shoes: int
    hands: int
    open_shoes: list[Shoe]


def event_open_things(event: Event) -> EventOpenThings:
    shoes = list(event.shoes.order_by("number"))
    return EventOpenThings(
        shoes=len(shoes),
        hands=Hand.objects.filter(shoe__event=event).count(),
        open_shoes=[shoe for shoe in shoes if shoe.is_open],
    )
