"""A night under load, on loopback only: `.venv/bin/python bench/load.py [--seconds 60]`.

Starts the production server (gunicorn with uvicorn workers, ASGI, as `make serve`; DEBUG off,
WhiteNoise) on 127.0.0.1 over a throwaway copy
of the demo night — SQLite by default; under `scripts/with-postgres` on PostgreSQL — then, for
``--seconds``: 20 guests refresh their own pages (every 0.5–1.5 s each) and one host logs a hand
every 2 s through the table page. Prints requests per second, p50/p95/p99 latency, errors, and
the slowest kinds of request (by method and URL pattern: the guest page, the table page, the save)
with their count, p50, p99 and max.

Goal (docs/operations.md, "Benchmarks"): zero errors and p99 ≤ 150 ms on SQLite with 20 guests + 1
host; the server's database connections are production's (none kept past a request under ASGI,
psycopg's pool on PostgreSQL). Every loop is
bounded in time; the server is stopped at the end whatever happens. The workers are warmed (each
page fetched a few times, not counted) before the clock starts, as a running server is warm.

``--profile tournament`` (``night``, the above, is the default): a tournament's heat in full
swing. ``--players`` (100) are drawn by the tournament services (``round_draw``: tables of at
most 7, as even as possible — 100 players sit at 15 tables, 10 of 7 and 5 of 6; 98 would fit
14), the round started and ``--played`` hands (10) already logged at every table, so the boards
have a round's worth of hands behind them. Then, for ``--seconds``:

- a dealer at every table (each logged in as a dealer of their own) logs a hand every
  ``--hand-every`` seconds (20) through the table page, as its script sends it — the next
  number, a new key, 20 on Banker or Player for every seated player (within the round's 10–1,000
  limits and the bet unit of 10; no secret bets: the tournament has none), then the board it
  asks for after each answer (``?part=board``). Their first hands are spread at random over the
  first interval, as dealers do not start together. A tournament table's save is answered with
  the whole table (its seats' stacks change), not the cash table's parts; a refused save counts
  as an error here.
- every player's phone asks, alternately, for the live leaderboard (``Tournament now``, which
  their page's script asks for itself: ``/tournaments/table/standings/<id>/<token>/``, with
  ``HX-Request``) and for their own page by its private link (``/g/<id>/<token>/``, which
  shows the same leaderboard), one request every 2–6 s (uniform, 4 s on average: each kind
  about every 8 s). That is busier than a phone left alone — its page polls the leaderboard
  every 10 s (``LEADERBOARD_REFRESH_SECONDS``) — as players also reload and come back to it.
- 3 TV displays, each by a table (``/display/<event>/<token>/``, a table's read-only link:
  that table's roads and the whole round's leaderboard), fetched every 5 s, the display's own
  poll (``DISPLAY_REFRESH_SECONDS``; htmx asks for the whole page and keeps ``#display``).

It prints the same figures, with the load average and the CPU time the server and the load
generator took (the generator runs on the same 2 cores: its parsing is kept to the dealers'
first page).
"""

from __future__ import annotations

import argparse
import functools
import html
import os
import random
import re
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUESTS = 20
TVS = 3  # the tournament profile's displays
STAKE = "20"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.timings: list[tuple[str, float]] = []  # (kind of request, seconds)
        self.errors: list[str] = []

    def call(self, request: urllib.request.Request) -> tuple[int, str, dict[str, str]]:
        kind = request_kind(request)
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                body, status, headers = (
                    response.read().decode(),
                    response.status,
                    dict(response.headers),
                )
        except urllib.error.HTTPError as error:
            body, status, headers = error.read().decode(errors="replace"), error.code, {}
        except OSError as error:
            body, status, headers = str(error), 0, {}
        elapsed = time.perf_counter() - start
        with self.lock:
            self.timings.append((kind, elapsed))
            if not 200 <= status < 400:
                reason = f" ({body})" if status == 0 else ""  # no answer: why not
                self.errors.append(f"{status} {request.full_url}{reason}")
        return status, body, headers


def request_kind(request: urllib.request.Request) -> str:
    """The method and the URL pattern the request resolves to: ``GET /g/<int:guest_id>/…``."""
    return _kind(request.get_method(), request.full_url)


@functools.lru_cache(maxsize=4096)
def _kind(method: str, full_url: str) -> str:
    """Resolved once per URL: the generator shares the server's two cores."""
    from django.urls import Resolver404, resolve

    url = urllib.parse.urlsplit(full_url)
    try:
        route = resolve(url.path).route
    except Resolver404:
        route = url.path.lstrip("/")
    part = urllib.parse.parse_qs(url.query).get("part")  # the table's board
    return f"{method} /{route}" + (f"?part={part[0]}" if part else "")


def percentile(timings: list[float], p: float) -> float:
    """The ``p`` quantile (0–1) of sorted ``timings``, nearest rank below."""
    return timings[min(len(timings) - 1, int(len(timings) * p))]


def setup_django(database_url: str) -> None:
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def session_of(user: object, backend: str = "django.contrib.auth.backends.ModelBackend") -> str:
    """A logged-in session of ``user``, in the database the server reads: its key."""
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = backend
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def prepare(database_url: str) -> dict[str, object]:
    """Load the demo, open a shoe with seven guests, issue 20 guest links and a host session."""
    setup_django(database_url)
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from games import services as game_services
    from games.models import Event
    from ledger.guests import services as guest_services
    from ledger.hands import services as hand_services

    call_command("migrate", verbosity=0)
    if not Event.objects.exists():
        call_command("load_demo", verbosity=0, stdout=open(os.devnull, "w"))  # noqa: SIM115
    host = User.objects.get(username="host")
    event = Event.objects.get(name="Reference night")
    for n in range(GUESTS - event.guests.count()):
        guest_services.event_guest_add(event=event, name=f"Visitor {n + 1}", by=host)
    shoe = event.shoes.filter(closed_at__isnull=True).first() or game_services.shoe_start(
        event=event, by=host
    )
    guests = list(event.guests.all()[:GUESTS])
    for seat, guest in enumerate(guests[:7], start=1):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    links = [f"/g/{g.pk}/{guest_services.guest_link_issue(guest=g)}/" for g in guests]
    return {"links": links, "shoe": shoe.pk, "session": session_of(host)}


def prepare_tournament(
    database_url: str, *, players: int, played: int, hands: int
) -> dict[str, object]:
    """A tournament of ``players`` through its services: registered, a heat of ``hands`` hands
    added, drawn and started, ``played`` hands logged at every table; a dealer (and a session)
    for every table, each player's private link, and the display links of the first tables."""
    setup_django(database_url)
    from datetime import date
    from decimal import Decimal

    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import transaction

    from games import services as game_services
    from games.entry import BetEntry, HandEntry
    from games.payouts import BetType
    from games.shoe import Shoe as DealingShoe
    from ledger.guests import services as guest_services
    from ledger.hands import services as hand_services
    from shoebook.base.roles import DEALERS, HOSTS
    from tournaments import services
    from tournaments.models import TableSeat

    call_command("migrate", verbosity=0)
    roles = "shoebook.base.roles.RolesBackend"  # what a login today names
    with transaction.atomic():
        host, _new = User.objects.get_or_create(username="load-host")
        host.groups.add(Group.objects.get_or_create(name=HOSTS)[0])
        tournament = services.tournament_create(
            name="Load cup", date=date.today(), by=host, entry_fee=Decimal(50)
        )
        for n in range(1, players + 1):
            services.entrant_add(tournament=tournament, name=f"Player {n:03d}", by=host)
        round_ = services.round_add(
            tournament=tournament,
            by=host,
            hands=hands,
            table_min=Decimal(10),
            table_max=Decimal(1000),
            bet_unit=Decimal(10),
            per_table=2,
        )
        services.round_draw(round_=round_, by=host, seed=1)
        round_ = services.round_start(round_=round_, by=host)
    dealers_group = Group.objects.get_or_create(name=DEALERS)[0]
    tables = []
    for table in round_.tables.select_related("event").order_by("number"):
        shoe = table.event.shoes.get(closed_at__isnull=True)
        seats = sorted(TableSeat.objects.filter(table=table).values_list("seat", flat=True))
        dealing = DealingShoe(8, seed=f"load-{table.number}")
        for number in range(1, played + 1):
            dealt = dealing.play_hand()
            bets = tuple(
                BetEntry(seat, (BetType.BANKER, BetType.PLAYER)[seat % 2], Decimal(STAKE))
                for seat in seats
            )
            hand_services.record_hand(
                shoe=shoe,
                number=number,
                entry=HandEntry(
                    player_cards=" ".join(map(str, dealt.player)),
                    banker_cards=" ".join(map(str, dealt.banker)),
                    bets=bets,
                ),
                by=host,
            )
        dealer, _new = User.objects.get_or_create(username=f"load-dealer-{table.number}")
        dealer.set_unusable_password()  # no password hashing: the session is made here
        dealer.save()
        dealer.groups.add(dealers_group)
        display = ""
        if table.number <= TVS:
            token = game_services.event_display_link_issue(event=table.event)
            display = f"/display/{table.event_id}/{token}/"
        tables.append(
            {
                "shoe": shoe.pk,
                "seats": seats,
                "session": session_of(dealer, roles),
                "display": display,
                "dealing": dealing,
            }
        )
    phones = []
    for entrant in tournament.entrants.select_related("guest").order_by("number"):
        guest = entrant.guest
        token = guest_services.guest_link_issue(guest=guest)
        phones.append(
            (f"/g/{guest.pk}/{token}/", f"/tournaments/table/standings/{guest.pk}/{token}/")
        )
    return {"tables": tables, "phones": phones, "displays": [t["display"] for t in tables[:TVS]]}


def guest_loop(base: str, link: str, until: float, recorder: Recorder) -> None:
    rng = random.Random(link)
    while time.monotonic() < until:
        recorder.call(urllib.request.Request(base + link))
        time.sleep(rng.uniform(0.5, 1.5))


def host_loop(base: str, shoe: int, session: str, until: float, recorder: Recorder) -> int:
    """The host's phone: the table page once, then a hand every 2 s as its script sends it (the
    next number, a new key) and the board it asks for after each answer; the page again only
    when a save is not taken."""
    from games.shoe import Shoe as DealingShoe

    return table_loop(
        base, shoe, session, until, recorder, dealer=DealingShoe(8, seed="load"), every=2.0
    )


def table_loop(
    base: str,
    shoe: int,
    session: str,
    until: float,
    recorder: Recorder,
    *,
    dealer: object,
    every: float,
    seats: Sequence[int] = range(1, 8),
    start: float = 0.0,
    tournament: bool = False,
) -> int:
    """A phone logging a table's hands: the table page once, then a hand every ``every`` s (the
    first after ``start`` s) dealt by ``dealer``, a stake on every one of ``seats``, and the
    board the page asks for after each answer; the page again only when a save is not taken.
    The number of hands saved. ``tournament``: a refused save is an error, and the last wait
    ends with the clock (the night's host waits its full 2 s, as it always has)."""
    cookies = {"sessionid": session}
    saved = 0
    form: dict[str, str] = {}
    time.sleep(max(0.0, min(start, until - time.monotonic())))
    while time.monotonic() < until:
        started = time.monotonic()
        if not form:
            header = "; ".join(f"{k}={v}" for k, v in cookies.items())
            status, page, headers = recorder.call(
                urllib.request.Request(f"{base}/shoes/{shoe}/", headers={"Cookie": header})
            )
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
            number = re.search(r'name="number" value="(\d+)"', page)
            seating = re.search(r'name="seating" value="([^"]*)"', page)
            cookie = re.search(r"csrftoken=([^;]+)", headers.get("Set-Cookie", ""))
            if cookie:
                cookies["csrftoken"] = cookie.group(1)
            if status == 200 and token and number and seating:
                form = {"csrfmiddlewaretoken": token.group(1), "number": number.group(1),
                        "seating": html.unescape(seating.group(1))}  # fmt: skip
        if form:
            hand = dealer.play_hand()
            data = {
                **form, "idempotency_key": str(uuid.uuid4()),
                "player_cards": " ".join(map(str, hand.player)),
                "banker_cards": " ".join(map(str, hand.banker)),
                **{f"stake_{seat}_{('banker', 'player')[seat % 2]}": STAKE for seat in seats},
            }  # fmt: skip
            header = "; ".join(f"{k}={v}" for k, v in cookies.items())
            htmx = {"Cookie": header, "HX-Request": "true"}
            status, body, answer = recorder.call(
                urllib.request.Request(
                    f"{base}/shoes/{shoe}/hands/",
                    data=urllib.parse.urlencode(data).encode(),
                    headers={**htmx, "X-CSRFToken": cookies.get("csrftoken", "")},
                )
            )
            # A cash table answers with the parts a hand changed; a tournament table, whole.
            if status == 200 and ("data-saved-hand" in body or "Shoebook-Hand-Saved" in answer):
                saved += 1
                form["number"] = str(int(form["number"]) + 1)
                recorder.call(
                    urllib.request.Request(f"{base}/shoes/{shoe}/?part=board", headers=htmx)
                )
            else:
                if tournament and status == 200:
                    with recorder.lock:
                        recorder.errors.append(f"refused hand {form['number']} at shoe {shoe}")
                form = {}
        wait = every - (time.monotonic() - started)
        time.sleep(max(0.0, min(wait, until - time.monotonic()) if tournament else wait))
    return saved


def phone_loop(base: str, page: str, standings: str, until: float, recorder: Recorder) -> None:
    """A player's phone: the leaderboard (as their page's script asks for it) and their own
    page, in turn, one request every 2–6 s."""
    rng = random.Random(page)
    time.sleep(rng.uniform(0, 4))  # the phones do not start together
    asks = (
        urllib.request.Request(base + standings, headers={"HX-Request": "true"}),
        urllib.request.Request(base + page),
    )
    turn = rng.randrange(2)
    while time.monotonic() < until:
        recorder.call(asks[turn])
        turn = 1 - turn
        time.sleep(max(0.0, min(rng.uniform(2.0, 6.0), until - time.monotonic())))


def display_loop(base: str, display: str, until: float, recorder: Recorder) -> None:
    """A TV by a table: its display every 5 s, as the display's own script asks for it."""
    rng = random.Random(display)
    time.sleep(rng.uniform(0, 5))
    ask = urllib.request.Request(base + display, headers={"HX-Request": "true"})
    while time.monotonic() < until:
        started = time.monotonic()
        recorder.call(ask)
        time.sleep(max(0.0, min(5.0 - (time.monotonic() - started), until - time.monotonic())))


def server_environment(database_url: str, secret: str, workdir: str) -> dict[str, str]:
    """The production server's environment, its static files collected into ``workdir``: a
    run of its own, so that two benchmarks at once never write one manifest together."""
    env = {
        **os.environ, "DATABASE_URL": database_url, "DEBUG": "0", "SECRET_KEY": secret,
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0",
        "DJANGO_SETTINGS_MODULE": "shoebook.settings", "STATIC_ROOT": f"{workdir}/static",
    }  # fmt: skip
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    return env


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--profile", choices=("night", "tournament"), default="night")
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--players", type=int, default=100, help="tournament: players (≥ 2)")
    parser.add_argument("--played", type=int, default=10, help="tournament: hands before")
    parser.add_argument(
        "--hand-every", type=float, default=20.0, help="tournament: seconds between a table's hands"
    )
    options = parser.parse_args()
    seconds = min(options.seconds, 600)  # bounded, whatever is asked
    tournament = options.profile == "tournament"

    workdir = tempfile.mkdtemp(prefix="shoebook-load-")
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir}/load.sqlite3"
    secret = secrets.token_urlsafe(50)
    os.environ["SECRET_KEY"] = secret  # the host's session is signed here and read by the server
    if tournament:
        players = max(2, min(options.players, 999))
        every = max(0.5, options.hand_every)
        # Enough hands that no table runs out within the run (a round has 99 at most).
        hands = min(99, options.played + int(seconds / every) + 3)
        played = max(0, min(options.played, hands - int(seconds / every) - 3))
        setup = prepare_tournament(database_url, players=players, played=played, hands=hands)
    else:
        setup = prepare(database_url)
    port = free_port()
    env = server_environment(database_url, secret, workdir)
    python = sys.executable
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server = subprocess.Popen(
        [
            str(Path(python).parent / "gunicorn"),
            "shoebook.asgi",
            "--worker-class",
            "uvicorn_worker.UvicornWorker",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(options.workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    saved: list[int] = []
    try:
        for _ in range(100):  # wait for the server, at most 10 s
            try:
                urllib.request.urlopen(base + "/rules/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        # Warm every worker (imports, templates, connections) as a running server is: the guest
        # pages and the table page, a few times over, not counted.
        warm_up = Recorder()
        if tournament:
            warm_tournament(base, setup, options.workers, warm_up)
        else:
            host_cookie = {"Cookie": f"sessionid={setup['session']}"}
            table = urllib.request.Request(f"{base}/shoes/{setup['shoe']}/", headers=host_cookie)
            for _ in range(options.workers):
                for link in setup["links"]:
                    warm_up.call(urllib.request.Request(base + link))
                warm_up.call(table)
        recorder = Recorder()
        load_before = os.getloadavg()
        self_before = resource.getrusage(resource.RUSAGE_SELF)
        until = time.monotonic() + seconds
        if tournament:
            threads = tournament_threads(base, setup, until, recorder, every, saved)
        else:
            threads = [
                threading.Thread(target=guest_loop, args=(base, link, until, recorder))
                for link in setup["links"]
            ]
            threads.append(
                threading.Thread(
                    target=lambda: saved.append(
                        host_loop(base, setup["shoe"], setup["session"], until, recorder)
                    )
                )
            )
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=seconds + 30)
        elapsed = time.monotonic() - started
        self_after = resource.getrusage(resource.RUSAGE_SELF)
        load_after = os.getloadavg()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    children_after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the workers, once reaped
    timings = sorted(taken * 1000 for _kind, taken in recorder.timings)
    by_kind: dict[str, list[float]] = {}
    for kind, taken in recorder.timings:
        by_kind.setdefault(kind, []).append(taken * 1000)
    for kind_timings in by_kind.values():
        kind_timings.sort()
    vendor = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    if tournament:
        tables = len(setup["tables"])
        print(
            f"{vendor}, gunicorn {options.workers} uvicorn workers, tournament: {players} "
            f"players at {tables} tables ({played} hands played of {hands}), {tables} dealers "
            f"(a hand every {every:g} s each), {players} phones (a request every 2–6 s each), "
            f"{len(setup['displays'])} TV displays (every 5 s), {seconds} s"
        )
    else:
        print(
            f"{vendor}, gunicorn {options.workers} uvicorn workers, {GUESTS} guests + 1 host, "
            f"{seconds} s"
        )
    print(f"requests     {len(timings)} ({len(timings) / elapsed:.1f} per second)")
    print(f"hands saved  {sum(saved)}")
    print(
        f"latency      p50 {statistics.median(timings):.1f} ms   "
        f"p95 {percentile(timings, 0.95):.1f} ms   p99 {percentile(timings, 0.99):.1f} ms   "
        f"max {timings[-1]:.1f} ms   (goal: p99 ≤ 150 ms on SQLite)"
    )
    print("slowest kinds of request, by p99:")
    width = max(40, *(len(kind) + 2 for kind in by_kind))
    print(f"  {'request':<{width}}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind, kind_timings in sorted(by_kind.items(), key=lambda item: -percentile(item[1], 0.99)):
        print(
            f"  {kind:<{width}}{len(kind_timings):>7}{statistics.median(kind_timings):>9.1f}"
            f"{percentile(kind_timings, 0.99):>9.1f}{kind_timings[-1]:>9.1f}"
        )
    print(
        f"errors       {len(recorder.errors)}"
        + (f"  e.g. {recorder.errors[:3]}" if recorder.errors else "")
    )
    server_cpu = sum(
        getattr(children_after, field) - getattr(children_before, field)
        for field in ("ru_utime", "ru_stime")
    )
    generator_cpu = sum(
        getattr(self_after, field) - getattr(self_before, field)
        for field in ("ru_utime", "ru_stime")
    )
    print(
        f"machine      {os.cpu_count()} cores, load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after; CPU over the run: server {server_cpu:.1f} s (with its "
        f"warm-up), load generator {generator_cpu:.1f} s, of {elapsed:.0f} s"
    )


def warm_tournament(base: str, setup: dict[str, object], workers: int, warm_up: Recorder) -> None:
    """Each kind of page a few times per worker, every table page once: not counted."""
    phones: list[tuple[str, str]] = setup["phones"]
    tables: list[dict[str, object]] = setup["tables"]
    displays: list[str] = setup["displays"]
    for _ in range(workers):
        for page, standings in phones[:4]:
            warm_up.call(urllib.request.Request(base + page))
            warm_up.call(urllib.request.Request(base + standings, headers={"HX-Request": "true"}))
        for display in displays:
            warm_up.call(urllib.request.Request(base + display, headers={"HX-Request": "true"}))
    for table in tables:
        cookie = {"Cookie": f"sessionid={table['session']}"}
        warm_up.call(urllib.request.Request(f"{base}/shoes/{table['shoe']}/", headers=cookie))
    if warm_up.errors:
        raise SystemExit(f"the warm-up failed: {warm_up.errors[:3]}")


def tournament_threads(
    base: str,
    setup: dict[str, object],
    until: float,
    recorder: Recorder,
    every: float,
    saved: list[int],
) -> list[threading.Thread]:
    """A dealer for every table (first hands spread over the first ``every`` s), a phone for
    every player, a thread for every TV."""
    rng = random.Random("dealers")
    threads = []
    for table in setup["tables"]:

        def deal(table: dict[str, object] = table, start: float = rng.uniform(0, every)) -> None:
            saved.append(
                table_loop(
                    base, table["shoe"], table["session"], until, recorder,
                    dealer=table["dealing"], every=every, seats=table["seats"],
                    start=start, tournament=True,
                )
            )  # fmt: skip

        threads.append(threading.Thread(target=deal))
    for page, standings in setup["phones"]:
        threads.append(
            threading.Thread(target=phone_loop, args=(base, page, standings, until, recorder))
        )
    for display in setup["displays"]:
        threads.append(threading.Thread(target=display_loop, args=(base, display, until, recorder)))
    return threads


if __name__ == "__main__":
    main()
