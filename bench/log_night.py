"""Log a whole night through the real views and time each save.

    .venv/bin/python bench/log_night.py [--shoes 6] [--hands 40]

A throwaway SQLite file (WAL, IMMEDIATE, as in production) gets one event, 15 guests and
``--shoes`` shoes of ``--hands`` hands; each hand is POSTed to the table page with seven bets, as
the host's phone sends it (htmx), and the partial comes back. Prints hands per second and the
p50/p95/max time per save. Goal (docs/operations.md, "Benchmarks"): save p50 ≤ 8 ms on SQLite, and
≤ 20× a raw-sqlite3
floor doing the same durable writes (1 hand, 7 bets, 7 per-guest totals, 1 audit row, commit),
run interleaved; flat in the hands already in the shoe (1 vs 200 within 10%).
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid

from throwaway import django_on_throwaway_sqlite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shoes", type=int, default=6)
    parser.add_argument("--hands", type=int, default=40)
    options = parser.parse_args()

    django_on_throwaway_sqlite("night")
    from django.contrib.auth.models import Group, User
    from django.test import Client
    from django.urls import reverse

    from games import services as game_services
    from games.models import Event
    from games.payouts import STANDARD_RULES
    from games.shoe import Shoe as DealingShoe
    from ledger.demo import GUEST_NAMES
    from ledger.guests import services as guest_services
    from ledger.hands import services as hand_services

    host = User.objects.create_user("bench-host", password="x")
    host.groups.add(Group.objects.get(name="Hosts"))
    event = game_services.event_create(
        name="Bench night", date="2026-11-22", rules=STANDARD_RULES, by=host
    )
    guests = [guest_services.event_guest_add(event=event, name=n, by=host) for n in GUEST_NAMES]
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(host)

    timings: list[float] = []
    started = time.perf_counter()
    for shoe_number in range(options.shoes):
        shoe = game_services.shoe_start(event=event, by=host)
        for seat in range(1, 8):
            guest = guests[(shoe_number * 3 + seat) % len(guests)]
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
        dealt = DealingShoe(8, seed=shoe_number).hands(options.hands)
        for number, hand in enumerate(dealt, start=1):
            data = {
                "number": str(number),
                "idempotency_key": str(uuid.uuid4()),
                "player_cards": " ".join(str(c) for c in hand.player),
                "banker_cards": " ".join(str(c) for c in hand.banker),
                **{f"stake_{seat}_{('banker', 'player')[seat % 2]}": "20" for seat in range(1, 8)},
            }
            url = reverse("ledger:hand_record", args=[shoe.pk])
            begin = time.perf_counter()
            response = client.post(url, data, HTTP_HX_REQUEST="true")
            timings.append(time.perf_counter() - begin)
            if b"saved" not in response.content:
                raise SystemExit(f"Hand {number} of shoe {shoe.number} was not saved.")
        game_services.mark_shoe_closed(shoe=shoe, by=host)
    elapsed = time.perf_counter() - started

    assert Event.objects.get().shoes.count() == options.shoes
    timings.sort()
    ms = [t * 1000 for t in timings]
    print(f"hands logged        {len(ms)} ({options.shoes} shoes × {options.hands}, 7 bets each)")
    print(f"hands per second    {len(ms) / elapsed:.1f} (whole run, incl. seating)")
    print(f"save p50            {statistics.median(ms):.1f} ms")
    print(f"save p95            {ms[int(len(ms) * 0.95) - 1]:.1f} ms")
    print(f"save max            {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
