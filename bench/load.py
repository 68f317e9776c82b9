"""A night under load, on loopback only: `.venv/bin/python bench/load.py [--seconds 60]`.

Starts the production server (gunicorn, DEBUG off, WhiteNoise) on 127.0.0.1 over a throwaway copy
of the demo night — SQLite by default; under `scripts/with-postgres` on PostgreSQL — then, for
``--seconds``: 20 guests refresh their own pages (every 0.5–1.5 s each) and one host logs a hand
every 2 s through the table page. Prints requests per second, p50/p95/p99 latency, errors, and
the slowest kinds of request (by method and URL pattern: the guest page, the table page, the save)
with their count, p50, p99 and max.

Goal (docs/operations.md, "Benchmarks"): zero errors and p99 ≤ 150 ms on SQLite with 20 guests + 1
host; the server keeps
its database connections (``CONN_MAX_AGE``, production's default) as production does. Every loop is
bounded in time; the server is stopped at the end whatever happens. The workers are warmed (each
page fetched a few times, not counted) before the clock starts, as a running server is warm.
"""

from __future__ import annotations

import argparse
import html
import os
import random
import re
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUESTS = 20


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
                self.errors.append(f"{status} {request.full_url}")
        return status, body, headers


def request_kind(request: urllib.request.Request) -> str:
    """The method and the URL pattern the request resolves to: ``GET /g/<int:guest_id>/…``."""
    from django.urls import Resolver404, resolve

    url = urllib.parse.urlsplit(request.full_url)
    try:
        route = resolve(url.path).route
    except Resolver404:
        route = url.path.lstrip("/")
    part = urllib.parse.parse_qs(url.query).get("part")  # the table's board
    return f"{request.get_method()} /{route}" + (f"?part={part[0]}" if part else "")


def percentile(timings: list[float], p: float) -> float:
    """The ``p`` quantile (0–1) of sorted ``timings``, nearest rank below."""
    return timings[min(len(timings) - 1, int(len(timings) * p))]


def prepare(database_url: str) -> dict[str, object]:
    """Load the demo, open a shoe with seven guests, issue 20 guest links and a host session."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
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
    session = SessionStore()
    session["_auth_user_id"] = str(host.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = host.get_session_auth_hash()
    session.create()
    return {"links": links, "shoe": shoe.pk, "session": session.session_key}


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

    cookies = {"sessionid": session}
    dealer = DealingShoe(8, seed="load")
    saved = 0
    form: dict[str, str] = {}
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
                **{f"stake_{seat}_{('banker', 'player')[seat % 2]}": "20" for seat in range(1, 8)},
            }  # fmt: skip
            header = "; ".join(f"{k}={v}" for k, v in cookies.items())
            htmx = {"Cookie": header, "HX-Request": "true"}
            status, body, _ = recorder.call(
                urllib.request.Request(
                    f"{base}/shoes/{shoe}/hands/",
                    data=urllib.parse.urlencode(data).encode(),
                    headers={**htmx, "X-CSRFToken": cookies.get("csrftoken", "")},
                )
            )
            if status == 200 and "data-saved-hand" in body:
                saved += 1
                form["number"] = str(int(form["number"]) + 1)
                recorder.call(
                    urllib.request.Request(f"{base}/shoes/{shoe}/?part=board", headers=htmx)
                )
            else:
                form = {}
        time.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--workers", type=int, default=3)
    options = parser.parse_args()
    seconds = min(options.seconds, 600)  # bounded, whatever is asked

    workdir = tempfile.mkdtemp(prefix="shoebook-load-")
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir}/load.sqlite3"
    secret = secrets.token_urlsafe(50)
    os.environ["SECRET_KEY"] = secret  # the host's session is signed here and read by the server
    setup = prepare(database_url)
    port = free_port()
    env = {
        **os.environ, "DATABASE_URL": database_url, "DEBUG": "0",
        "SECRET_KEY": secret, "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0", "DJANGO_SETTINGS_MODULE": "shoebook.settings",
    }  # fmt: skip
    python = sys.executable
    subprocess.run(
        [python, "manage.py", "collectstatic", "--no-input", "-v0"], cwd=ROOT, env=env, check=True
    )
    server = subprocess.Popen(
        [
            str(Path(python).parent / "gunicorn"),
            "shoebook.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(options.workers),
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
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
        host_cookie = {"Cookie": f"sessionid={setup['session']}"}
        table = urllib.request.Request(f"{base}/shoes/{setup['shoe']}/", headers=host_cookie)
        for _ in range(options.workers):
            for link in setup["links"]:
                warm_up.call(urllib.request.Request(base + link))
            warm_up.call(table)
        recorder = Recorder()
        until = time.monotonic() + seconds
        threads = [
            threading.Thread(target=guest_loop, args=(base, link, until, recorder))
            for link in setup["links"]
        ]
        saved: list[int] = []
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
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    timings = sorted(taken * 1000 for _kind, taken in recorder.timings)
    by_kind: dict[str, list[float]] = {}
    for kind, taken in recorder.timings:
        by_kind.setdefault(kind, []).append(taken * 1000)
    for kind_timings in by_kind.values():
        kind_timings.sort()
    vendor = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    print(
        f"{vendor}, gunicorn {options.workers} workers × 4 threads, {GUESTS} guests + 1 host, "
        f"{seconds} s"
    )
    print(f"requests     {len(timings)} ({len(timings) / elapsed:.1f} per second)")
    print(f"hands saved  {saved[0] if saved else 0}")
    print(
        f"latency      p50 {statistics.median(timings):.1f} ms   "
        f"p95 {percentile(timings, 0.95):.1f} ms   p99 {percentile(timings, 0.99):.1f} ms   "
        f"max {timings[-1]:.1f} ms   (goal: p99 ≤ 150 ms on SQLite)"
    )
    print("slowest kinds of request, by p99:")
    print(f"  {'request':<40}{'count':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    for kind, kind_timings in sorted(by_kind.items(), key=lambda item: -percentile(item[1], 0.99)):
        print(
            f"  {kind:<40}{len(kind_timings):>7}{statistics.median(kind_timings):>9.1f}"
            f"{percentile(kind_timings, 0.99):>9.1f}{kind_timings[-1]:>9.1f}"
        )
    print(
        f"errors       {len(recorder.errors)}"
        + (f"  e.g. {recorder.errors[:3]}" if recorder.errors else "")
    )


if __name__ == "__main__":
    main()
