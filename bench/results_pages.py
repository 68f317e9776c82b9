"""Render time of the results pages over a season: `.venv/bin/python bench/results_pages.py`.

Builds a throwaway SQLite season (default 100 events × 6 shoes × 40 hands × 7 bets, about
168,000 bets, settled by the rules core from really dealt shoes) with bulk inserts, then renders
the event page, a guest's page and the season's standings through the real views, and prints the
p50 and p95 of each. Goal: p50 under 100 ms each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import date, timedelta
from decimal import Decimal

from throwaway import django_on_throwaway_sqlite


def build_season(events: int, shoes: int, hands: int) -> None:
    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from games.models import Event, Hand, Shoe
    from games.payouts import STANDARD_RULES, BetType, resolve_bet
    from games.shoe import Shoe as DealingShoe
    from ledger.demo import GUEST_NAMES
    from ledger.models import Bet, EventGuest, Guest, Settlement

    host = User.objects.create_user("bench-host", password="x", is_superuser=True)
    host.groups.add(Group.objects.get(name="Hosts"))
    guests = Guest.objects.bulk_create(Guest(name=n, name_key=n.casefold()) for n in GUEST_NAMES)
    rng = random.Random(1)
    now = timezone.now()
    for n in range(events):
        event = Event.objects.create(
            name=f"Night {n + 1}", date=date(2026, 1, 1) + timedelta(days=n), created_by=host
        )
        EventGuest.objects.bulk_create(EventGuest(event=event, guest=g) for g in guests)
        bets = []
        for s in range(1, shoes + 1):
            shoe = Shoe.objects.create(event=event, number=s, opened_by=host, closed_at=now)
            dealt = list(DealingShoe(8, seed=n * 10 + s).hands(hands))
            rows = Hand.objects.bulk_create(
                Hand(
                    shoe=shoe,
                    number=i,
                    player_cards=" ".join(map(str, h.player)),
                    banker_cards=" ".join(map(str, h.banker)),
                    winner=h.outcome().winner.value,
                    player_pair=h.outcome().player_pair,
                    banker_pair=h.outcome().banker_pair,
                    logged_by=host,
                )
                for i, h in enumerate(dealt, start=1)
            )
            seated = rng.sample(guests, 7)
            for row, hand in zip(rows, dealt, strict=True):
                for seat, guest in enumerate(seated, start=1):
                    bet_type = rng.choice((BetType.BANKER, BetType.PLAYER))
                    stake = Decimal(rng.choice((10, 20, 50, 100)))
                    result = resolve_bet(STANDARD_RULES, bet_type, stake, hand.outcome())
                    bets.append(
                        Bet(
                            hand=row,
                            event=event,
                            seat=seat,
                            guest=guest,
                            bet_type=bet_type.value,
                            stake=stake,
                            gross=result.gross,
                            commission=result.commission,
                            net=result.net,
                        )
                    )
        Bet.objects.bulk_create(bets, batch_size=2000)
        Settlement.objects.create(
            guest=guests[n % len(guests)],
            event=event,
            amount=Decimal(100),
            method="cash",
            recorded_by=host,
        )


def time_page(client, url: str, repeat: int) -> tuple[float, float]:
    client.get(url)  # warm the template cache
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(url)
        timings.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--shoes", type=int, default=6)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=30)
    options = parser.parse_args()

    django_on_throwaway_sqlite("season")
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from games.models import Event
    from ledger import services
    from ledger.models import Bet, Guest

    started = time.perf_counter()
    build_season(options.events, options.shoes, options.hands)
    services.results_rebuild()  # bulk inserts bypass the services that keep these
    print(f"season built: {Bet.objects.count():,} bets in {time.perf_counter() - started:.0f} s")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(User.objects.get(username="bench-host"))  # no login throttling in a bench
    guest = Guest.objects.first()
    token = services.guest_link_issue(guest=guest)
    event = Event.objects.order_by("date")[options.events // 2]
    pages = {
        "event page": reverse("ledger:event_detail", args=[event.pk]),
        "guest page": reverse("ledger:guest_page", args=[guest.pk, token]),
        "standings (season)": reverse("ledger:standings"),
    }
    for name, url in pages.items():
        p50, p95 = time_page(client, url, options.repeat)
        print(f"{name:<20} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
