"""Render time of the results pages over a season: `.venv/bin/python bench/results_pages.py`.

Builds a throwaway SQLite season (default 100 events × 6 shoes × 40 hands × 7 bets, about
168,000 bets, settled by the rules core from really dealt shoes) with bulk inserts, then renders
the event page, a guest's page and the season's standings through the real views, and prints the
p50 and p95 of each. It does so for a season of 100 events and one of 1,000 (`--events 100
1000`); a built season is kept in bench/.cache, named by its size and by the code that builds it,
so a second run only times the pages. Beside each page, its floor: the same figures read the
simplest way with the sqlite3 module from the same stored totals and written out with f-strings.
Goal (docs/operations.md, "Benchmarks"): every page flat with history, p50 ≤ 30 ms at 100 events
and ≤ 40 ms at 1,000.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import inspect
import logging
import os
import random
import shutil
import sqlite3
import statistics
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from throwaway import ROOT, django_on_throwaway_sqlite, throwaway_path

CACHE = ROOT / "bench" / ".cache"


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


def time_page(client, url: str, repeat: int) -> tuple[float, float, float]:
    """p50 and p95 of the wall time, and p50 of this process's CPU time (the same on a busy
    machine), in ms."""
    client.get(url)  # warm the template cache
    timings, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        timings.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    timings.sort()
    p95 = timings[min(len(timings) - 1, round(len(timings) * 0.95))]
    return statistics.median(timings), p95, statistics.median(cpu)


def floor_pages(database: Path, event_id: int, guest_id: int) -> dict[str, Callable[[], str]]:
    """Each page's figures read the simplest way, with the sqlite3 module alone from the same
    stored totals the pages read (each guest's result per event, the settlements, the bets of
    one event), and written out as HTML with f-strings: the floor each page is set beside."""
    db = sqlite3.connect(database)
    results, events = "ledger_guesteventresult", "games_event"

    def event_page() -> str:
        shoes = db.execute(
            "SELECT s.number, SUM(b.stake), SUM(b.gross), SUM(b.commission), SUM(b.net) "
            "FROM ledger_bet b JOIN games_hand h ON h.id = b.hand_id JOIN games_shoe s "
            "ON s.id = h.shoe_id WHERE b.event_id = ? GROUP BY s.number ORDER BY s.number",
            (event_id,),
        ).fetchall()
        guests = db.execute(
            f"SELECT g.name, r.hands, r.stake, r.gross, r.commission, r.net FROM {results} r "
            "JOIN ledger_guest g ON g.id = r.guest_id WHERE r.event_id = ? ORDER BY g.name",
            (event_id,),
        ).fetchall()
        rows = [
            f"<tr><td>{n}</td><td>{a}</td><td>{b}</td><td>{c}</td><td>{d}</td></tr>"
            for n, a, b, c, d in shoes
        ]
        rows += [
            f"<tr><td>{html.escape(n)}</td><td>{h}</td><td>{a}</td><td>{b}</td><td>{c}</td>"
            f"<td>{d}</td></tr>"
            for n, h, a, b, c, d in guests
        ]
        return "<table>" + "".join(rows) + "</table>"

    def guest_page() -> str:
        nights = db.execute(
            f"SELECT e.id, e.name, e.date, r.net FROM {results} r JOIN {events} e "
            "ON e.id = r.event_id "
            "WHERE r.guest_id = ? ORDER BY e.date",
            (guest_id,),
        ).fetchall()
        paid = dict(
            db.execute(
                "SELECT event_id, SUM(amount) FROM ledger_settlement WHERE guest_id = ? "
                "GROUP BY event_id",
                (guest_id,),
            ).fetchall()
        )
        balance, lines = 0, []
        for event, name, day, net in nights:
            balance += net + paid.get(event, 0)
            lines.append(f"<li>{html.escape(name)} {day} {net} {balance}</li>")
        return "<ol>" + "".join(lines[-25:]) + "</ol>"  # the latest in full, a page of lines

    def standings() -> str:
        rows = db.execute(
            f"SELECT g.name, SUM(r.hands), SUM(r.net), SUM(r.commission) FROM {results} r "
            "JOIN ledger_guest g ON g.id = r.guest_id GROUP BY g.id ORDER BY SUM(r.net) DESC"
        ).fetchall()
        return (
            "<table>"
            + "".join(
                f"<tr><td>{html.escape(n)}</td><td>{h}</td><td>{net}</td><td>{c}</td></tr>"
                for n, h, net, c in rows
            )
            + "</table>"
        )

    return {"event page": event_page, "guest page": guest_page, "standings (season)": standings}


def time_floor(floor: Callable[[], str], repeat: int) -> float:
    floor()
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        floor()
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)


def season_key(events: int, shoes: int, hands: int) -> str:
    """Names a built season by its size and the code that builds it: this builder, the guests'
    names, the dealing and paying code and the schema."""
    sources = [Path(__file__), ROOT / "ledger" / "demo.py", ROOT / "games" / "shoe.py"]
    sources += [ROOT / "games" / "payouts.py"]
    sources += sorted(ROOT.glob("*/migrations/0*.py"))
    digest = hashlib.sha256(inspect.getsource(build_season).encode())
    for source in sources[1:]:
        digest.update(source.read_bytes())
    return f"season-{events}x{shoes}x{hands}-{digest.hexdigest()[:12]}"


def use_database(path: Path) -> None:
    from django.db import connections

    connections["default"].close()
    connections["default"].settings_dict["NAME"] = str(path)


def season_database(events: int, shoes: int, hands: int, *, cache: bool) -> Path:
    """A copy of the built season, from bench/.cache when it was built before by the same code."""
    from django.core.management import call_command

    from ledger.models import Bet
    from ledger.money import services as money_services

    key = season_key(events, shoes, hands)
    cached = CACHE / f"{key}.sqlite3"
    work = throwaway_path(key)
    if cache and cached.exists():
        shutil.copyfile(cached, work)
        use_database(work)
        print(f"{events:,} events: season from {cached.relative_to(ROOT)}")
        return work
    use_database(work)
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    build_season(events, shoes, hands)
    money_services.results_rebuild()  # bulk inserts bypass the services that keep these
    built = f"{Bet.objects.count():,} bets in {time.perf_counter() - started:.0f} s"
    print(f"{events:,} events: season built: {built}")
    if cache:
        use_database(work)  # closing checkpoints the WAL into the file
        CACHE.mkdir(exist_ok=True)
        partial = cached.with_suffix(".partial")
        shutil.copyfile(work, partial)
        os.replace(partial, cached)
    return work


def time_pages(events: int, repeat: int, database: Path) -> None:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from games.models import Event
    from ledger.guests import services as guest_services
    from ledger.models import Guest

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(User.objects.get(username="bench-host"))  # no login throttling in a bench
    guest = Guest.objects.order_by("pk").first()
    token = guest_services.guest_link_issue(guest=guest)
    event = Event.objects.order_by("date")[events // 2]
    pages = {
        "event page": reverse("ledger:event_detail", args=[event.pk]),
        "guest page": reverse("ledger:guest_page", args=[guest.pk, token]),
        "standings (season)": reverse("ledger:standings"),
    }
    floors = floor_pages(database, event.pk, guest.pk)
    for name, url in pages.items():
        p50, p95, cpu = time_page(client, url, repeat)
        floor = time_floor(floors[name], repeat)
        size = len(client.get(url).content) / 1000
        print(
            f"{events:>5,} events  {name:<20} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   "
            f"cpu p50 {cpu:6.1f} ms   {size:6.0f} kB   floor {floor:5.2f} ms "
            f"({p50 / floor:4.0f}×)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--shoes", type=int, default=6)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--no-cache", action="store_true", help="build every season afresh")
    options = parser.parse_args()

    django_on_throwaway_sqlite("setup")
    logging.getLogger("axes").setLevel(logging.WARNING)
    for events in options.events:
        database = season_database(events, options.shoes, options.hands, cache=not options.no_cache)
        time_pages(events, options.repeat, database)


if __name__ == "__main__":
    main()
