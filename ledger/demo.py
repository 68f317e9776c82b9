"""The reference night (docs/rules.md, "The reference night") as demo data, built from real dealt
shoes.

Six shoes of 40 hands are dealt from seeded 8-deck shoes. Bets are drawn at random in $10 chips,
then adjusted, shoe by shoe, until the guests' gross result and the commission are exactly the
blog's figures: first the Banker stakes on Banker wins (they alone carry commission), then stakes
on Player wins (they move the gross result but not the commission). Everything is recorded
through the same services the host's pages use, so the demo is settled by the real engine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from itertools import cycle
from typing import TypedDict
from zoneinfo import ZoneInfo

from django.contrib.auth.models import Group, User
from django.db import transaction

from games import services as game_services
from games.cards import format_cards
from games.entry import BetEntry, HandEntry
from games.kinds import TABLE_SEATS, seats_of
from games.models import Event, Hand, Shoe
from games.payouts import STANDARD_RULES, BetType, bet_return
from games.rules import Hand as DealtHand
from games.rules import Winner
from games.shoe import Shoe as DealingShoe
from ledger.demo_count import count_the_night
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Seating
from ledger.nights import services as night_services
from shoebook.base.roles import DEALERS, HOSTS

# Guests' gross result and commission per shoe, in dollars (docs/rules.md, "The reference night").
REFERENCE_SHOES: tuple[tuple[int, Decimal], ...] = (
    (280, Decimal("59.5")),
    (-680, Decimal("64.0")),
    (480, Decimal("75.0")),
    (840, Decimal("59.5")),
    (-320, Decimal("55.5")),
    (440, Decimal("72.5")),
)
HANDS_PER_SHOE = 40
CHIP = 10
GUEST_NAMES = (
    "田中", "佐藤", "鈴木", "Kenji", "Yuki", "高橋", "Hiro", "渡辺",
    "Mika", "伊藤", "Taro", "山本", "Aiko", "中村", "Sho",
)  # fmt: skip
DEMO_PASSWORD = "shoebook-demo"
DEMO_USERS = (("host", HOSTS), ("dealer", DEALERS))

Stakes = dict[tuple[int, int, BetType], int]  # (hand index, seat, bet) -> dollars


@dataclass
class ShoePlan:
    hands: list[DealtHand]
    seating: dict[int, list[tuple[int, int]]]  # hand index -> [(seat, guest index)]
    stakes: Stakes


def _seating_plan(shoe_index: int) -> dict[int, list[tuple[int, int]]]:
    """Seven of the fifteen guests at a time; two seats change hands mid-shoe."""
    first = [(shoe_index * 5 + offset) % len(GUEST_NAMES) for offset in range(7)]
    second = list(first)
    second[1] = (first[-1] + 1) % len(GUEST_NAMES)
    second[4] = (first[-1] + 2) % len(GUEST_NAMES)
    half = HANDS_PER_SHOE // 2
    return {
        hand: list(zip(seats_of(TABLE_SEATS), first if hand < half else second, strict=True))
        for hand in range(HANDS_PER_SHOE)
    }


def _random_stakes(rng: random.Random, plan: dict[int, list[tuple[int, int]]]) -> Stakes:
    stakes: Stakes = {}
    for hand, seats in plan.items():
        for seat, _guest in seats:
            roll = rng.random()
            if roll < 0.08:
                continue  # sitting this one out
            side = BetType.BANKER if roll < 0.58 else BetType.PLAYER
            stakes[(hand, seat, side)] = CHIP * rng.choice((1, 2, 3, 5, 5, 8, 10))
            if rng.random() < 0.05:
                stakes[(hand, seat, BetType.TIE)] = CHIP
            if rng.random() < 0.04:
                stakes[(hand, seat, rng.choice((BetType.PLAYER_PAIR, BetType.BANKER_PAIR)))] = CHIP
    return stakes


def _gross(hands: list[DealtHand], stakes: Stakes) -> int:
    """The guests' gross result at the table's odds (no commission), in dollars."""
    return sum(
        int(stake * bet_return(STANDARD_RULES, bet, hands[hand].outcome()).win)
        for (hand, _seat, bet), stake in stakes.items()
    )


def _banker_win_stakes(hands: list[DealtHand], stakes: Stakes) -> int:
    return sum(
        stake
        for (hand, _seat, bet), stake in stakes.items()
        if bet is BetType.BANKER and hands[hand].outcome().winner is Winner.BANKER
    )


def _nudge(stakes: Stakes, keys: list[tuple[int, int, BetType]], steps: int) -> None:
    """Add (or, for negative ``steps``, take off) one chip at a time, round the given bets."""
    if not keys:
        raise RuntimeError("No bet to adjust: the demo plan cannot reach its figures.")
    for key in cycle(keys):
        if steps == 0:
            return
        if steps > 0:
            stakes[key] = stakes.get(key, 0) + CHIP
            steps -= 1
        elif stakes.get(key, 0) > CHIP:
            stakes[key] -= CHIP
            steps += 1


def plan_shoe(shoe_index: int, gross_target: int, commission_target: Decimal) -> ShoePlan:
    rng = random.Random(f"reference-night-{shoe_index}")
    hands = list(DealingShoe(8, seed=f"reference-night-{shoe_index}").hands(HANDS_PER_SHOE))
    seating = _seating_plan(shoe_index)
    stakes = _random_stakes(rng, seating)
    winners = [hand.outcome().winner for hand in hands]

    def seats_on(result: Winner, bet: BetType) -> list[tuple[int, int, BetType]]:
        return [
            (hand, seat, bet)
            for hand, winner in enumerate(winners)
            if winner is result
            for seat, _guest in seating[hand]
        ]

    # 1. Commission: only Banker stakes on Banker wins carry it (5% of each).
    banker_target = int(commission_target / STANDARD_RULES.commission_rate)
    banker_keys = [key for key in seats_on(Winner.BANKER, BetType.BANKER) if key in stakes]
    steps = (banker_target - _banker_win_stakes(hands, stakes)) // CHIP
    _nudge(stakes, banker_keys, steps)
    # 2. Gross: stakes on Player wins move it without touching the commission.
    steps = (gross_target - _gross(hands, stakes)) // CHIP
    if steps > 0:
        _nudge(stakes, seats_on(Winner.PLAYER, BetType.PLAYER), steps)
    elif steps < 0:
        _nudge(stakes, seats_on(Winner.PLAYER, BetType.BANKER), -steps)
    return ShoePlan(hands=hands, seating=seating, stakes=stakes)


def _demo_users() -> dict[str, User]:
    users = {}
    for username, role in DEMO_USERS:
        user = User.objects.create_user(username, password=DEMO_PASSWORD)
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        users[username] = user
    users["host"].is_staff = users["host"].is_superuser = True
    users["host"].save()
    return users


class DemoNight(TypedDict):
    event: Event
    users: list[str]  # the demo logins' usernames


@transaction.atomic
def load_reference_night() -> DemoNight:
    users = _demo_users()
    host = users["host"]
    event = game_services.event_create(
        name="Reference night",
        date=date(2008, 7, 12),
        venue="The bar, after closing",
        format=Event.Format.MINI,
        rules=STANDARD_RULES,
        by=host,
        decks=8,
        currency_symbol="$",
        money_per_chip=Decimal(100),
        table_min=Decimal(CHIP),
        table_max=Decimal(1000),
        hands_per_shoe=HANDS_PER_SHOE,
    )
    guests = [
        guest_services.event_guest_add(event=event, name=name, by=host) for name in GUEST_NAMES
    ]
    for shoe_index, (gross, commission) in enumerate(REFERENCE_SHOES):
        plan = plan_shoe(shoe_index, gross, commission)
        shoe = game_services.shoe_start(event=event, by=host)
        seated: dict[int, int] = {}
        by_hand: dict[int, list[BetEntry]] = defaultdict(list)
        for (hand, seat, bet), stake in sorted(plan.stakes.items()):
            by_hand[hand].append(BetEntry(seat, bet, Decimal(stake)))
        for index, dealt in enumerate(plan.hands):
            for seat, guest_index in plan.seating[index]:
                if seated.get(seat) != guest_index:
                    hand_services.seat_guest(
                        shoe=shoe, seat=seat, guest=guests[guest_index], by=host
                    )
                    seated[seat] = guest_index
            hand_services.record_hand(
                shoe=shoe,
                number=index + 1,
                entry=HandEntry(
                    player_cards=format_cards(dealt.player),
                    banker_cards=format_cards(dealt.banker),
                    bets=tuple(by_hand[index]),
                ),
                by=host,
            )
        night_services.shoe_close(shoe=shoe, by=host)
    _spread_over_the_night(event)
    count_the_night(event, by=host)
    return {"event": event, "users": [username for username, _ in DEMO_USERS]}


def _spread_over_the_night(event: Event) -> None:
    """Hands logged from midnight to five, as on the reference night (docs/rules.md), not in
    seconds."""
    midnight = datetime(2008, 7, 13, tzinfo=ZoneInfo("Asia/Tokyo"))
    hands = list(Hand.objects.filter(shoe__event=event).order_by("shoe__number", "number"))
    pace = timedelta(hours=5) / len(hands)
    for index, hand in enumerate(hands):
        hand.logged_at = midnight + pace * index
    Hand.objects.bulk_update(hands, ["logged_at"])
    seat_as_played(event, pace)


def seat_as_played(event: Event, pace: timedelta) -> None:
    """Shoes opened, and guests seated, when the night's hands say, not when the demo loaded: a
    shoe opens a hand's time before its first hand, a guest sits down as the hand before their
    first is logged (the ratings' time at the table reads these)."""
    shoes = list(Shoe.objects.filter(event=event))
    logged = {
        (shoe_id, number): at
        for shoe_id, number, at in Hand.objects.filter(shoe__event=event).values_list(
            "shoe_id", "number", "logged_at"
        )
    }
    for shoe in shoes:
        times = [at for (shoe_id, _number), at in logged.items() if shoe_id == shoe.pk]
        if times:
            shoe.opened_at = min(times) - pace
            if shoe.closed_at is not None:
                shoe.closed_at = max(times)
    Shoe.objects.bulk_update(shoes, ["opened_at", "closed_at"])
    opened = {shoe.pk: shoe.opened_at for shoe in shoes}
    seatings = list(Seating.objects.filter(shoe__event=event))
    for seating in seatings:
        seating.seated_at = logged.get(
            (seating.shoe_id, seating.from_hand - 1), opened[seating.shoe_id]
        )
    Seating.objects.bulk_update(seatings, ["seated_at"])
