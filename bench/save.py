"""Save hands of 7 bets through the real table view, beside a raw-sqlite3 floor, interleaved.

    .venv/bin/python bench/save.py [--hands 200]

A throwaway SQLite file (WAL, IMMEDIATE, as in production) gets one event with a shoe open
and 7 guests seated; ``--hands`` hands are POSTed to the table page with seven bets, as the
host's phone sends them (urlencoded, htmx), and the answer comes back: only what the hand changed.
After each save the page asks for the scoreboard and the hand index (timed apart: the host does
not wait for them to enter the next hand). Between two saves, the floor does the
same durable writes with the ``sqlite3`` module alone in a file of its own set up the same way
(WAL, ``synchronous=NORMAL``): one hand, 7 bets, 7 per-guest totals (an upsert each), one audit
row with the hand as JSON, commit; and ``hand_services.hand_record`` alone saves the same hand at a
second table. Prints the save's p50 over the whole shoe and over its first and last tenth; then
side by side, 40 saves at a fresh shoe of a third table and at the long shoe in turn, so that
the machine's drift weighs on both alike; the service's p50, the board's p50, the floor's p50,
the ratio of the save to the floor, and the queries one save makes. Goal (docs/operations.md,
"Benchmarks"): p50 ≤ 8 ms
and ≤ 20× the floor on a 2-core machine; a save at the long shoe within 10% of one at the fresh
shoe.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

from throwaway import django_on_throwaway_sqlite

FLOOR_SCHEMA = """
CREATE TABLE hand (id INTEGER PRIMARY KEY, shoe_id INTEGER NOT NULL, number INTEGER NOT NULL,
    player_cards TEXT, banker_cards TEXT, winner TEXT, logged_at TEXT, UNIQUE (shoe_id, number));
CREATE TABLE bet (id INTEGER PRIMARY KEY, hand_id INTEGER NOT NULL REFERENCES hand (id),
    event_id INTEGER, guest_id INTEGER, seat INTEGER, bet_type TEXT, stake INTEGER,
    gross INTEGER, commission INTEGER, net INTEGER);
CREATE INDEX bet_hand ON bet (hand_id);
CREATE TABLE result (id INTEGER PRIMARY KEY, guest_id INTEGER, event_id INTEGER,
    hands INTEGER, stake INTEGER, gross INTEGER, commission INTEGER, net INTEGER,
    UNIQUE (guest_id, event_id));
CREATE TABLE audit (id INTEGER PRIMARY KEY, event_id INTEGER, action TEXT, summary TEXT,
    after TEXT, at TEXT);
"""
TWENTY = Decimal(20)
FORM_ENCODED = "application/x-www-form-urlencoded"
SIDE_BY_SIDE = 40  # saves at a fresh shoe and at the long one, in turn
UPSERT = (
    "INSERT INTO result (guest_id, event_id, hands, stake, gross, commission, net) "
    "VALUES (?, 1, 1, ?, ?, ?, ?) ON CONFLICT (guest_id, event_id) DO UPDATE SET "
    "hands = hands + 1, stake = stake + excluded.stake, gross = gross + excluded.gross, "
    "commission = commission + excluded.commission, net = net + excluded.net"
)


def floor_connection() -> sqlite3.Connection:
    path = Path(tempfile.mkdtemp(prefix="shoebook-floor-")) / "floor.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" + FLOOR_SCHEMA)
    return db


def floor_save(db: sqlite3.Connection, number: int) -> None:
    """One hand's durable writes, as a hand-written program would make them."""
    bets = [(seat, seat + 100, ("banker", "player")[seat % 2], 2000) for seat in range(1, 8)]
    db.execute("BEGIN IMMEDIATE")
    hand_id = db.execute(
        "INSERT INTO hand (shoe_id, number, player_cards, banker_cards, winner, logged_at) "
        "VALUES (1, ?, '9 7', 'K 5 2', 'player', datetime('now'))",
        (number,),
    ).lastrowid
    db.executemany(
        "INSERT INTO bet (hand_id, event_id, guest_id, seat, bet_type, stake, gross, "
        "commission, net) VALUES (?, 1, ?, ?, ?, ?, ?, 0, ?)",
        [(hand_id, guest, seat, kind, stake, stake, stake) for seat, guest, kind, stake in bets],
    )
    for _seat, guest, _kind, stake in bets:
        db.execute(UPSERT, (guest, stake, stake, 0, stake))
    after = json.dumps({"number": number, "bets": [list(bet) for bet in bets]})
    db.execute(
        "INSERT INTO audit (event_id, action, summary, after, at) "
        "VALUES (1, 'hand_logged', ?, ?, datetime('now'))",
        (f"Shoe 1 · hand {number}", after),
    )
    db.execute("COMMIT")


def p50(values: list[float]) -> float:
    return statistics.median(values) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--queries", action="store_true", help="list the queries of a save")
    options = parser.parse_args()

    django_on_throwaway_sqlite("save")
    from django.contrib.auth.models import Group, User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games import services as game_services
    from games.entry import BetEntry, HandEntry
    from games.models import Hand, Shoe
    from games.payouts import STANDARD_RULES, BetType
    from games.shoe import Shoe as DealingShoe
    from ledger.demo import GUEST_NAMES
    from ledger.guests import services as guest_services
    from ledger.hands import services as hand_services
    from ledger.hands.forms import seating_token

    host = User.objects.create_user("bench-host", password="x")
    host.groups.add(Group.objects.get(name="Hosts"))

    def seated_table(name: str) -> tuple[Shoe, str]:
        """A night with a shoe open and seven guests seated; the seating token its page holds."""
        event = game_services.event_create(
            name=name, date="2026-11-22", rules=STANDARD_RULES, by=host
        )
        shoe = game_services.shoe_start(event=event, by=host)
        seated = {}
        for seat in range(1, 8):
            guest = guest_services.event_guest_add(event=event, name=GUEST_NAMES[seat], by=host)
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
            seated[seat] = guest.pk
        return shoe, seating_token(seated)

    shoe, seating = seated_table("Bench night")
    # The service alone, on a shoe of its own at another table: the same hands, no page.
    other_shoe, _other_seating = seated_table("Bench night, table 2")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(host)
    url = reverse("ledger:hand_record", args=[shoe.pk])
    dealt = []  # a real shoe deals about 80 hands: deal from as many as it takes
    for seed in range((options.hands + SIDE_BY_SIDE) // 50 + 2):
        dealt.extend(DealingShoe(8, seed=seed).hands(50))

    def post(number: int, at: str = url, seats: str = seating) -> None:
        hand = dealt[number - 1]
        data = {
            "number": str(number),
            "idempotency_key": str(uuid.uuid4()),
            "seating": seats,  # who the page showed in each seat
            "player_cards": " ".join(str(c) for c in hand.player),
            "banker_cards": " ".join(str(c) for c in hand.banker),
            **{f"stake_{seat}_{('banker', 'player')[seat % 2]}": "20" for seat in range(1, 8)},
        }
        # As the page's script sends it: urlencoded, with htmx's header.
        body = urlencode(data)
        response = client.post(at, body, content_type=FORM_ENCODED, HTTP_HX_REQUEST="true")
        if response.headers.get("Shoebook-Hand-Saved") != str(number):
            raise SystemExit(f"Hand {number} was not saved.")
        if response.headers.get("Shoebook-Table-Part") != "saved":
            raise SystemExit(f"Hand {number} was answered with the whole table, not what changed.")

    board_url = reverse("ledger:shoe_table", args=[shoe.pk]) + "?part=board"

    def board() -> None:
        if client.get(board_url, HTTP_HX_REQUEST="true").status_code != 200:
            raise SystemExit("The board did not come.")

    def record(number: int) -> None:
        hand = dealt[number - 1]
        hand_services.record_hand(
            shoe=other_shoe,
            number=number,
            idempotency_key=uuid.uuid4(),
            by=host,
            entry=HandEntry(
                player_cards=" ".join(str(c) for c in hand.player),
                banker_cards=" ".join(str(c) for c in hand.banker),
                bets=tuple(
                    BetEntry(seat=seat, bet=BetType(("banker", "player")[seat % 2]), stake=TWENTY)
                    for seat in range(1, 8)
                ),
            ),
        )

    floor = floor_connection()
    services_only: list[float] = []
    saves: list[float] = []
    boards: list[float] = []
    floors: list[float] = []
    for number in range(1, options.hands + 1):
        begin = time.perf_counter()
        post(number)
        saves.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        board()
        boards.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        record(number)
        services_only.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        floor_save(floor, number)
        floors.append(time.perf_counter() - begin)
    with CaptureQueriesContext(connection) as captured:
        post(options.hands + 1)
    queries = list(captured.captured_queries)  # read now: the log keeps only the latest 9,000
    assert Hand.objects.filter(shoe=shoe).count() == options.hands + 1

    # Side by side: a fresh shoe at a third table and this long one, a save at each in turn.
    fresh, fresh_seating = seated_table("Bench night, table 3")
    fresh_url = reverse("ledger:hand_record", args=[fresh.pk])
    short_saves: list[float] = []
    long_saves: list[float] = []
    side = min(SIDE_BY_SIDE, options.hands)
    for number in range(1, side + 1):
        begin = time.perf_counter()
        post(number, fresh_url, fresh_seating)
        short_saves.append(time.perf_counter() - begin)
        begin = time.perf_counter()
        post(options.hands + 1 + number)
        long_saves.append(time.perf_counter() - begin)

    tenth = max(options.hands // 10, 1)
    first, last = p50(saves[:tenth]), p50(saves[-tenth:])
    print(f"hands saved         {options.hands} (one shoe, 7 bets each)")
    print(f"save p50            {p50(saves):.2f} ms")
    print(f"  first {tenth:<3} hands   {first:.2f} ms")
    print(f"  last {tenth:<3} hands    {last:.2f} ms ({(last / first - 1) * 100:+.0f}%)")
    short, long = p50(short_saves), p50(long_saves)
    print(
        f"  side by side       {short:.2f} ms at hands 1–{side} of a fresh shoe, {long:.2f} ms at "
        f"hands {options.hands + 2}–{options.hands + 1 + side} ({(long / short - 1) * 100:+.0f}%)"
    )
    print(f"service p50         {p50(services_only):.2f} ms (hand_record alone)")
    first_board, last_board = p50(boards[:tenth]), p50(boards[-tenth:])
    print(
        f"board p50           {p50(boards):.2f} ms (the scoreboard and hand index the page asks "
        f"for after a save; first tenth {first_board:.2f}, last {last_board:.2f})"
    )
    first_floor, last_floor = p50(floors[:tenth]), p50(floors[-tenth:])
    print(
        f"floor p50           {p50(floors):.3f} ms (raw sqlite3, same durable writes; first "
        f"tenth {first_floor:.3f}, last {last_floor:.3f})"
    )
    print(f"save / floor        {p50(saves) / p50(floors):.0f}×")
    print(f"queries per save    {len(queries)}")
    if options.queries:
        for query in queries:
            print("   ", query["sql"][:160])


if __name__ == "__main__":
    main()
