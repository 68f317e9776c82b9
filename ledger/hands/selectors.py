"""Reads for the table and a hand's page: each seat's state and totals, the latest hands, who sat
where at a hand, a hand's history, the shoe's index of hands. Each runs a fixed number of
queries, however long the shoe."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import TypedDict

from django.db.models import Count
from django_stubs_ext import WithAnnotations

from games.models import MAX_HAND_NUMBER, Event, Hand, Shoe
from games.payouts import BetType
from games.roads import HandMark
from ledger.hands import hot_reads
from ledger.models import Bet, Guest, HandRevision, Seating
from ledger.money.amounts import ZERO, money_sum


@dataclass
class SeatState:
    seat: int
    guest: Guest | None
    last_bets: list[Bet] = field(default_factory=list)
    shoe_net: Decimal | None = ZERO  # None: not read (a save's answer leaves it to the board)

    @property
    def last_net(self) -> Decimal | None:
        """This seat's net on the last hand; ``None`` when it had no bet."""
        if not self.last_bets:
            return None
        return sum((bet.net for bet in self.last_bets), ZERO)


class HandSums(TypedDict):
    """What the table's list of recent hands shows of each hand's bets."""

    guests_net: Decimal
    bet_count: int


@dataclass
class TableState:
    shoe: Shoe
    event: Event
    next_number: int
    last_hand: Hand | None
    seats: list[SeatState]
    recent_hands: list[WithAnnotations[Hand, HandSums]]

    @cached_property
    def guests(self) -> list[Guest]:
        """The event's guests, for seating (read only by the pages that seat)."""
        return list(Guest.objects.filter(events=self.event))

    @property
    def seating(self) -> dict[int, int]:
        """Who sits where for the next hand: seat → guest id."""
        return {seat.seat: seat.guest.pk for seat in self.seats if seat.guest is not None}

    @property
    def planned_reached(self) -> bool:
        return self.next_number > self.event.hands_per_shoe

    def repeat_stakes(self) -> dict[tuple[int, BetType], Decimal]:
        """The last hand's stakes, for seats whose guest is still the one who placed them."""
        return {
            (bet.seat, BetType(bet.bet_type)): bet.stake
            for seat in self.seats
            for bet in seat.last_bets
            if seat.guest is not None and bet.guest_id == seat.guest.pk
        }


def table_state(shoe: Shoe, recent: int = 8) -> TableState:
    event = shoe.event
    recent_hands = _recent_hands(shoe, recent)
    last_hand = recent_hands[0] if recent_hands else None
    next_number = last_hand.number + 1 if last_hand else 1
    seated = {
        s.seat: s.guest for s in Seating.objects.at(shoe, next_number).select_related("guest")
    }
    last_bets = Bet.objects.filter(hand=last_hand) if last_hand else Bet.objects.none()
    return TableState(
        shoe=shoe,
        event=event,
        next_number=next_number,
        last_hand=last_hand,
        seats=_seat_states(event, seated, last_bets, hot_reads.shoe_nets(shoe.pk)),
        recent_hands=recent_hands,
    )


def table_state_after(
    shoe: Shoe, hand: Hand, bets: Iterable[Bet], seated: Mapping[int, Guest]
) -> TableState:
    """The table as recording ``hand`` left it, from what recording it read and wrote (its
    ``bets``, and who sat where, who still sits there for the next hand), for a save's answer:
    no query. Without what grows with the shoe — the latest hands, each seat's total over the
    shoe — which comes with the board (:func:`shoe_so_far`, :func:`seat_totals`)."""
    return TableState(
        shoe=shoe,
        event=shoe.event,
        next_number=hand.number + 1,
        last_hand=hand,
        seats=_seat_states(shoe.event, seated, bets, None),
        recent_hands=[],
    )


@dataclass(frozen=True)
class ShoeSoFar:
    """The shoe's latest hands, for the list under the scoreboard (``_table_recent.html``)."""

    shoe: Shoe
    event: Event
    recent_hands: list[WithAnnotations[Hand, HandSums]]

    @property
    def last_hand(self) -> Hand | None:
        return self.recent_hands[0] if self.recent_hands else None

    @property
    def next_number(self) -> int:
        return self.last_hand.number + 1 if self.last_hand else 1

    @property
    def planned_reached(self) -> bool:
        return self.next_number > self.event.hands_per_shoe


def seat_totals(shoe: Shoe, number: int) -> list[SeatState]:
    """Who sits where for hand ``number`` and each one's total over the shoe (two queries)."""
    seated = hot_reads.seated_at(shoe.pk, number)
    return _seat_states(shoe.event, seated, [], hot_reads.shoe_nets(shoe.pk))


def shoe_so_far(shoe: Shoe, recent: int = 8) -> ShoeSoFar:
    return ShoeSoFar(shoe=shoe, event=shoe.event, recent_hands=_recent_hands(shoe, recent))


def _recent_hands(shoe: Shoe, recent: int) -> list[WithAnnotations[Hand, HandSums]]:
    hands = shoe.hands.select_related("logged_by")
    if shoe.event.is_guest_banked:  # each coup's bank, in the list of recent hands
        hands = hands.select_related("coup")
    # The latest hands first, then their sums: summing first would read every hand of the shoe.
    latest = shoe.hands.order_by("-number").values("pk")[:recent]
    return list(
        hands.filter(pk__in=latest)
        .annotate(guests_net=money_sum("bets__net"), bet_count=Count("bets"))
        .order_by("-number")
    )


def _seat_states(
    event: Event,
    seated: Mapping[int, Guest],
    last_bets: Iterable[Bet],
    shoe_net: Mapping[int, Decimal] | None,
) -> list[SeatState]:
    by_seat: dict[int, list[Bet]] = defaultdict(list)
    for bet in sorted(last_bets, key=lambda bet: (bet.seat, bet.pk)):
        by_seat[bet.seat].append(bet)
    return [
        SeatState(
            seat=seat,
            guest=seated.get(seat),
            last_bets=by_seat.get(seat, []),
            shoe_net=None
            if shoe_net is None
            else shoe_net.get(seated[seat].pk, ZERO)
            if seat in seated
            else ZERO,
        )
        for seat in event.seat_numbers
    ]


def hand_with_history(hand: Hand) -> tuple[list[Bet], list[HandRevision]]:
    bets = list(hand.bets.select_related("guest").order_by("seat", "id"))
    revisions = list(
        HandRevision.objects.filter(shoe_id=hand.shoe_id, hand_number=hand.number)
        .select_related("changed_by")
        .order_by("-changed_at", "-id")
    )
    return bets, revisions


def seating_of(shoe: Shoe, number: int) -> dict[int, int]:
    """Who sits where for hand ``number`` of ``shoe``: seat → guest id."""
    return dict(Seating.objects.at(shoe, number).values_list("seat", "guest_id"))


def guests_at(shoe: Shoe, number: int) -> dict[int, Guest]:
    """Who sat where for hand ``number`` of ``shoe``: seat → guest (one query)."""
    return {s.seat: s.guest for s in Seating.objects.at(shoe, number).select_related("guest")}


@dataclass(frozen=True)
class IndexedHand:
    pk: int
    number: int
    winner: str  # a Winner's value


@dataclass(frozen=True)
class HandIndex:
    """Every hand of a shoe by number and winner, for ``ledger/hands/_hand_index.html``; ``current``
    is the number of the hand whose page shows it (``None`` on the table page)."""

    shoe_id: int
    hands: list[IndexedHand]
    current: int | None = None
    coups: bool = False  # a guest-banked game's: its words are coups

    def _at(self, step: int) -> IndexedHand | None:
        numbers = [hand.number for hand in self.hands]
        if self.current not in numbers:
            return None
        position = numbers.index(self.current) + step
        return self.hands[position] if 0 <= position < len(self.hands) else None

    @property
    def previous(self) -> IndexedHand | None:
        return self._at(-1)

    @property
    def next(self) -> IndexedHand | None:
        return self._at(1)


def hand_index(shoe_id: int, current: int | None = None, *, coups: bool = False) -> HandIndex:
    """The shoe's hands, numbers and winners only, in one query whatever the shoe's size."""
    rows = Hand.objects.filter(shoe_id=shoe_id).order_by("number")
    hands = [IndexedHand(*row) for row in rows.values_list("pk", "number", "winner")]
    return HandIndex(shoe_id=shoe_id, hands=hands, current=current, coups=coups)


def hand_index_of(
    shoe_id: int, marks: list[HandMark], ids: Mapping[int, int], *, coups: bool = False
) -> HandIndex:
    """:func:`hand_index` from the scoreboard's read of the shoe (``games.scoreboard.shoe_marks``:
    its marks and hand number → id), on the page that draws both."""
    hands = [IndexedHand(ids[mark.number], mark.number, mark.winner.value) for mark in marks]
    return HandIndex(shoe_id=shoe_id, hands=hands, coups=coups)


def hand_id_by_number(shoe_id: int, number: int) -> int | None:
    """The id of hand ``number`` of a shoe, or ``None`` if no such hand was played."""
    if not 1 <= number <= MAX_HAND_NUMBER:
        return None
    return Hand.objects.filter(shoe_id=shoe_id, number=number).values_list("pk", flat=True).first()


def facts_stamp() -> int:
    """When a table's facts (next hand, last hand, seats) are read, in microseconds: the page,
    each answer and each push carry one, and the phone keeps the newest facts it was given
    (static/js/table_state.js), so that a page drawn before them never takes it back."""
    return time.time_ns() // 1000
