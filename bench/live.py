"""Pushed live, timed: `.venv/bin/python bench/live.py [--players 98] [--seconds 60]`.

Starts the production server (gunicorn with uvicorn workers, ASGI, DEBUG off) on loopback over a
throwaway tournament (``bench/load.py``'s: ``--players`` drawn at tables of 7, a heat started,
a few hands played; SQLite by default, PostgreSQL under ``scripts/with-postgres``), then:

(a) **Save to screen.** Three streams of the first table: a second phone (``/shoes/<id>/live/``,
    logged in as a dealer), its TV display's and one of its players' private link's, all through
    ``tests/browser/network.py``'s proxy with ``--latency-ms`` (300) added to every round trip
    (half each way), as the dealer's own phone is. ``--saves`` hands are saved one after the
    other; for each, the time from the save sent to the change read on each stream. The proxy's
    own 150 ms each way is in it: a save's request and the stream's message each cross it once,
    so 300 ms is the floor; the figure beyond it is the server's.
(b) **A tournament night, pushed beside polled, in one run.** Every table's dealer saves a hand
    every ``--hand-every`` s (30) through the table page, for ``--seconds`` twice over:
    - *polled*, as before: each player's page asks for its live part every 15 s and its
      leaderboard every 10 s, each of the ``--tvs`` (3) TV displays for itself every 5 s;
    - *pushed*: each player's page and each TV holds its stream; a player's page fetches its
      live part (which brings the leaderboard) when its stream names the player, the
      leaderboard alone when it names their tournament; a TV fetches itself on each message.
    For each part: the requests, the server's CPU seconds (its processes' user + system time,
    from /proc), and for the pushed part the delivery of each hand to each stream that shows it
    (from the save sent, on loopback: no latency added) at p50 and p99.

Goals (issue "one table, one truth"): p99 ≤ 150 ms from save to screen (server side) and the
pushed night's server CPU at most half the polled one's.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import http.client
import json
import os
import random
import re
import secrets
import signal
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
from collections.abc import Callable
from pathlib import Path

from load import Recorder, free_port, percentile, prepare_tournament, server_environment

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.network import Proxy  # noqa: E402

STAKE = "20"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- the server's CPU ---------------------------------------------------------------------


def cpu_seconds(root_pid: int) -> float:
    """User + system CPU of a process and its children (gunicorn's master and its workers)."""
    pids = {root_pid}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == root_pid:
                pids.add(int(entry))
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


# --- a table's phone ----------------------------------------------------------------------


class Dealer:
    """A table's phone: the table page once (its form's token, number and seating), then each
    hand saved as the page's script sends it. ``sent`` notes when each hand left."""

    def __init__(self, base: str, table: dict[str, object], sent: dict[tuple[int, int], float]):
        self.base, self.table, self.sent = base, table, sent
        self.cookies = {"sessionid": str(table["session"])}
        self.form: dict[str, str] = {}
        self.saved = 0
        self.refused = 0

    def _cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _load(self) -> None:
        request = urllib.request.Request(
            f"{self.base}/shoes/{self.table['shoe']}/", headers={"Cookie": self._cookie()}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            page = answer.read().decode()
            cookie = re.search(r"csrftoken=([^;]+)", answer.headers.get("Set-Cookie", ""))
        if cookie:
            self.cookies["csrftoken"] = cookie.group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        number = re.search(r'name="number" value="(\d+)"', page)
        seating = re.search(r'name="seating" value="([^"]*)"', page)
        assert token and number and seating, "the table page has no entry form"
        self.form = {"csrfmiddlewaretoken": token.group(1), "number": number.group(1),
                     "seating": html.unescape(seating.group(1))}  # fmt: skip

    def save(self) -> None:
        if not self.form:
            self._load()
        hand = self.table["dealing"].play_hand()  # type: ignore[attr-defined]
        seats: list[int] = self.table["seats"]  # type: ignore[assignment]
        data = {
            **self.form, "idempotency_key": str(uuid.uuid4()),
            "player_cards": " ".join(map(str, hand.player)),
            "banker_cards": " ".join(map(str, hand.banker)),
            **{f"stake_{seat}_{('banker', 'player')[seat % 2]}": STAKE for seat in seats},
        }  # fmt: skip
        request = urllib.request.Request(
            f"{self.base}/shoes/{self.table['shoe']}/hands/",
            data=urllib.parse.urlencode(data).encode(),
            headers={
                "Cookie": self._cookie(),
                "HX-Request": "true",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
            },
        )
        number = int(self.form["number"])
        self.sent[(int(self.table["shoe"]), number)] = time.monotonic()  # type: ignore[arg-type]
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                saved = "Shoebook-Hand-Saved" in answer.headers or "data-saved-hand" in (
                    answer.read().decode()
                )
        except urllib.error.HTTPError:
            saved = False
        if saved:
            self.saved += 1
            self.form["number"] = str(number + 1)
        else:
            self.refused += 1
            self.form = {}


# --- a stream's reader --------------------------------------------------------------------


class StreamReader(threading.Thread):
    """Holds one stream open and hands each message (with the time it was read) to ``heard``."""

    def __init__(
        self, base: str, path: str, heard: Callable[[dict[str, object], float], None], **headers
    ):
        super().__init__(daemon=True)
        where = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(where.hostname, where.port, timeout=120)
        self.path, self.heard, self.headers = path, heard, headers
        self.opened = threading.Event()
        self.failed = ""

    def run(self) -> None:
        try:
            wanted = {**self.headers, "Accept": "text/event-stream"}
            self.connection.request("GET", self.path, headers=wanted)
            answer = self.connection.getresponse()
            if answer.status != 200:
                self.failed = f"{answer.status} {self.path}"
                return
            self.opened.set()
            while True:
                line = answer.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    self.heard(json.loads(line[6:]), time.monotonic())
        except (OSError, http.client.HTTPException, ValueError, AttributeError) as error:
            # (AttributeError: http.client's reader, its socket closed under it by close())
            if not self.failed and self.opened.is_set():
                self.failed = "" if isinstance(error, OSError) else str(error)
            elif not self.opened.is_set():
                self.failed = str(error)
        finally:
            self.opened.set()

    def close(self) -> None:
        sock = self.connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(2)
        self.connection.close()


def open_streams(readers: list[StreamReader]) -> None:
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.opened.wait(30)
    failed = [reader.failed for reader in readers if reader.failed]
    if failed:
        raise SystemExit(f"streams that did not open: {failed[:3]}")


# --- (a) save to screen -------------------------------------------------------------------


def save_to_screen(
    base: str, setup: dict[str, object], first: dict[str, object], saves: int, latency_ms: float
) -> dict[str, list[float]]:
    sent: dict[tuple[int, int], float] = {}
    seen: dict[str, list[float]] = {"second phone": [], "TV display": [], "private link": []}
    lock = threading.Lock()
    proxy = Proxy(base, latency_ms=latency_ms)
    try:

        def heard_by(kind: str) -> Callable[[dict[str, object], float], None]:
            def heard(message: dict[str, object], at: float) -> None:
                key = (int(message.get("shoe") or 0), int(message.get("last") or 0))
                if message.get("what") == "hand" and key in sent:
                    with lock:
                        seen[kind].append((at - sent[key]) * 1000)

            return heard

        shoe = first["shoe"]
        cookie = {"Cookie": f"sessionid={first['session']}"}
        readers = [
            StreamReader(proxy.url, f"/shoes/{shoe}/live/", heard_by("second phone"), **cookie),
            StreamReader(proxy.url, f"{first['display']}live/", heard_by("TV display")),
            StreamReader(proxy.url, f"{first['link']}live/", heard_by("private link")),
        ]
        open_streams(readers)
        dealer = Dealer(proxy.url, first, sent)
        for _ in range(saves):
            dealer.save()
            time.sleep(0.05)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and min(len(v) for v in seen.values()) < dealer.saved:
            time.sleep(0.05)
        for reader in readers:
            reader.close()
    finally:
        proxy.close()
    return seen


# --- (b) the night, polled and pushed -----------------------------------------------------


def night(
    base: str,
    setup: dict[str, object],
    *,
    pushed: bool,
    seconds: float,
    every: float,
    tvs: int,
) -> dict[str, object]:
    recorder = Recorder()
    sent: dict[tuple[int, int], float] = {}
    deliveries: list[float] = []
    lock = threading.Lock()
    until = time.monotonic() + seconds
    threads: list[threading.Thread] = []
    dealers = [Dealer(base, table, sent) for table in setup["tables"]]  # type: ignore[attr-defined]
    readers: list[StreamReader] = []
    fetchers: list[threading.Thread] = []  # the fetches a push set off, each a thread of its own
    rng = random.Random(f"night-{pushed}")

    def dealing(dealer: Dealer, start: float) -> None:
        time.sleep(start)
        while time.monotonic() < until:
            began = time.monotonic()
            dealer.save()
            time.sleep(max(0.0, min(every - (time.monotonic() - began), until - time.monotonic())))

    for dealer in dealers:
        threads.append(threading.Thread(target=dealing, args=(dealer, rng.uniform(0, every))))
    phones: list[tuple[str, str]] = setup["phones"]  # type: ignore[assignment]
    displays: list[str] = setup["displays"][:tvs]  # type: ignore[index]
    htmx = {"HX-Request": "true"}

    if pushed:
        fetching = threading.Semaphore(16)  # a phone fetches in the background, as htmx does

        def fetch(url: str, spread: float = 0.0) -> None:
            def run() -> None:
                time.sleep(random.uniform(0, spread))  # its page's data-live-spread
                with fetching:
                    recorder.call(urllib.request.Request(url, headers=htmx))

            fetcher = threading.Thread(target=run, daemon=True)
            with lock:
                fetchers.append(fetcher)
            fetcher.start()

        def phone_heard(page: str, standings: str) -> Callable[[dict[str, object], float], None]:
            def heard(message: dict[str, object], at: float) -> None:
                topic = str(message.get("topic", ""))
                if topic.startswith("guest:"):
                    fetch(f"{base}{page}?live=1", 1.0)  # the live part and the leaderboard
                elif topic.startswith(("tournament:", "*")):
                    fetch(base + standings, 1.0)
                note(message, at)

            return heard

        def tv_heard(display: str) -> Callable[[dict[str, object], float], None]:
            def heard(message: dict[str, object], at: float) -> None:
                fetch(base + display)
                note(message, at)

            return heard

        def note(message: dict[str, object], at: float) -> None:
            key = (int(message.get("shoe") or 0), int(message.get("last") or 0))
            if message.get("what") == "hand" and key in sent:
                with lock:
                    deliveries.append((at - sent[key]) * 1000)

        readers = [StreamReader(base, f"{page}live/", phone_heard(page, standings))
                   for page, standings in phones]  # fmt: skip
        readers += [
            StreamReader(base, f"{display}live/", tv_heard(display)) for display in displays
        ]
        open_streams(readers)
    else:

        def polling(url: str, period: float, start: float) -> None:
            time.sleep(start)
            ask = urllib.request.Request(url, headers=htmx)
            while time.monotonic() < until:
                began = time.monotonic()
                recorder.call(ask)
                wait = period - (time.monotonic() - began)
                time.sleep(max(0.0, min(wait, until - time.monotonic())))

        for page, standings in phones:
            threads.append(
                threading.Thread(
                    target=polling, args=(f"{base}{page}?live=1", 15.0, rng.uniform(0, 15))
                )
            )
            threads.append(threading.Thread(
                target=polling, args=(base + standings, 10.0, rng.uniform(0, 10))))  # fmt: skip
        for display in displays:
            threads.append(
                threading.Thread(target=polling, args=(base + display, 5.0, rng.uniform(0, 5)))
            )
    cpu_before = cpu_seconds(SERVER_PID[0])
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    for reader in readers:  # no push sets off a fetch after this
        reader.close()
    with lock:
        last_fetches = list(fetchers)
    for fetcher in last_fetches:  # answered before the server stops, not refused by it
        fetcher.join(timeout=30)
    cpu = cpu_seconds(SERVER_PID[0]) - cpu_before
    return {
        "requests": len(recorder.timings),
        "errors": recorder.errors,
        "cpu": cpu,
        "saved": sum(dealer.saved for dealer in dealers),
        "refused": sum(dealer.refused for dealer in dealers),
        "deliveries": sorted(deliveries),
    }


SERVER_PID = [0]


def figures(timings: list[float]) -> str:
    if not timings:
        return "none heard"
    timings = sorted(timings)
    return (f"p50 {statistics.median(timings):6.1f} ms   p99 {percentile(timings, 0.99):6.1f} ms"
            f"   ({len(timings)})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=98)
    parser.add_argument("--tvs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0, help="each of (b)'s two parts")
    parser.add_argument("--hand-every", type=float, default=30.0, help="(b): a table's pace")
    parser.add_argument("--saves", type=int, default=40, help="(a): hands timed")
    parser.add_argument("--latency-ms", type=float, default=300.0, help="(a): added latency")
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    seconds = min(options.seconds, 600.0)
    every = max(0.5, options.hand_every)
    players = max(2, min(options.players, 999))

    workdir = tempfile.mkdtemp(prefix="shoebook-live-")
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{workdir}/live.sqlite3"
    secret = secrets.token_urlsafe(50)
    os.environ["SECRET_KEY"] = secret
    hands = min(99, 2 + options.saves + 2 * int(seconds / every) + 6)
    setup = prepare_tournament(database_url, players=players, played=2, hands=hands)
    first = _first_table(setup)
    vendor = "PostgreSQL" if database_url.startswith("postgres") else "SQLite"
    workers = 1 if vendor == "SQLite" else options.workers  # SQLite: no NOTIFY between workers
    port = free_port()
    env = server_environment(database_url, secret, workdir)
    python = sys.executable
    server = subprocess.Popen(
        [str(Path(python).parent / "gunicorn"), "shoebook.asgi",
         "--worker-class", "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--graceful-timeout", "3", "--log-level", "warning"],
        cwd=ROOT, env=env,
    )  # fmt: skip
    SERVER_PID[0] = server.pid
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                urllib.request.urlopen(base + "/rules/", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        _warm(base, setup)
        seen = save_to_screen(base, setup, first, options.saves, options.latency_ms)
        polled = night(base, setup, pushed=False, seconds=seconds, every=every, tvs=options.tvs)
        pushed = night(base, setup, pushed=True, seconds=seconds, every=every, tvs=options.tvs)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)

    tables = len(setup["tables"])  # type: ignore[arg-type]
    print(f"{vendor}, gunicorn {workers} uvicorn worker(s) (ASGI), {players} players at "
          f"{tables} tables")  # fmt: skip
    print(
        f"(a) save → change on the stream, {options.latency_ms:g} ms added per round trip "
        f"(half each way: a save's request and the stream's message cross it once each)"
    )
    for kind, timings in seen.items():
        print(f"  {kind:<14} {figures(timings)}")
    print(f"(b) the night, {seconds:g} s each way: a hand every {every:g} s at each table")
    for name, part in (("polled", polled), ("pushed", pushed)):
        print(f"  {name}: {part['requests']} requests, {part['saved']} hands saved "
              f"({part['refused']} refused), server CPU {part['cpu']:.1f} s, "
              f"errors {len(part['errors'])}"
              + (f" e.g. {part['errors'][:2]}" if part["errors"] else ""))  # fmt: skip
    print(f"  pushed delivery, save → stream (loopback)   {figures(pushed['deliveries'])}"
          f"   (goal: p99 ≤ 150 ms)")  # fmt: skip
    ratio = pushed["cpu"] / polled["cpu"] if polled["cpu"] else float("nan")
    print(f"  server CPU pushed / polled  {ratio:.2f}   (goal: ≤ 0.5)")


def _first_table(setup: dict[str, object]) -> dict[str, object]:
    """The first table, with a player's private link there (for (a)'s third stream)."""
    from ledger.models import Seating

    first = dict(setup["tables"][0])  # type: ignore[index]
    seated = set(Seating.objects.filter(shoe_id=first["shoe"]).values_list("guest_id", flat=True))
    phones: list[tuple[str, str]] = setup["phones"]  # type: ignore[assignment]
    first["link"] = next(page for page, _ in phones if int(page.split("/")[2]) in seated)
    return first


def _warm(base: str, setup: dict[str, object]) -> None:
    """Every kind of page once or twice (imports, templates), not counted."""
    warm = Recorder()
    phones: list[tuple[str, str]] = setup["phones"]  # type: ignore[assignment]
    for page, standings in phones[:3]:
        warm.call(urllib.request.Request(f"{base}{page}?live=1", headers={"HX-Request": "true"}))
        warm.call(urllib.request.Request(base + standings, headers={"HX-Request": "true"}))
    for display in setup["displays"]:  # type: ignore[attr-defined]
        warm.call(urllib.request.Request(base + display, headers={"HX-Request": "true"}))
    if warm.errors:
        raise SystemExit(f"the warm-up failed: {warm.errors[:3]}")


if __name__ == "__main__":
    main()
