"""Run by tests/test_concurrency.py in a fresh interpreter against a real database (a SQLite file
or PostgreSQL): for ``--seconds``, four devices write at one night at once through the real views
and middleware, with no pause between a device's answer and its next tap —

- the dealer saves hands (seven bets each) at the open shoe;
- the cashier records settlements for the seated guests;
- the floor seats newcomers in seat 7 and moves seated guests between seats;
- the host merges guests into each other, some of them the ones the floor is seating.

Prints a JSON report: per device the answers by status, the requests answered 5xx, how many
writes lost a race for the database and were run again, and ``check_ledger``'s problems after.
Statuses under 500 are the app saying yes or no (a seat taken, a merge refused while the guest
is seated, a hand number already used); a 5xx is an error, whatever it says.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import threading
import time
import uuid
from collections import Counter

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.signals import got_request_exception  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from games import services as game_services  # noqa: E402
from games.payouts import STANDARD_RULES  # noqa: E402
from ledger.guests import services as guest_services  # noqa: E402
from ledger.hands import services as hand_services  # noqa: E402
from ledger.hands.forms import seating_token  # noqa: E402
from ledger.hands.selectors import seating_of  # noqa: E402
from ledger.integrity import check_ledger  # noqa: E402
from ledger.models import Guest  # noqa: E402
from shoebook.base.roles import HOSTS  # noqa: E402


class RetryCounter(logging.Handler):
    """Counts the middleware's "trying once more" lines: writes that lost a race and ran again."""

    def __init__(self) -> None:
        super().__init__()
        self.retries = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "trying once more" in record.getMessage():
            self.retries += 1


class Night:
    def __init__(self) -> None:
        tag = uuid.uuid4().hex[:8]
        self.host = User.objects.create_user(f"mixed-{tag}")
        self.host.groups.add(Group.objects.get_or_create(name=HOSTS)[0])
        self.event = game_services.event_create(
            name=f"Mixed {tag}", date="2026-11-25", rules=STANDARD_RULES, by=self.host
        )
        self.shoe = game_services.shoe_start(event=self.event, by=self.host)
        self.players = [self.newcomer(f"P{n}") for n in range(1, 7)]
        for seat, guest in enumerate(self.players, start=1):
            hand_services.seat_guest(shoe=self.shoe, seat=seat, guest=guest, by=self.host)
        self.answers: dict[str, Counter[str]] = {}
        self.failures: list[str] = []
        self.hands_saved = 0
        self.lock = threading.Lock()

    def newcomer(self, label: str) -> Guest:
        name = f"{label} {uuid.uuid4().hex[:6]}"
        return guest_services.event_guest_add(event=self.event, name=name, by=self.host)

    def client(self) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(self.host)
        return client

    def post(self, client: Client, device: str, url: str, data: dict[str, str]) -> int:
        status = client.post(url, data).status_code
        with self.lock:
            self.answers.setdefault(device, Counter())[str(status)] += 1
            if status >= 500:
                self.failures.append(f"{device}: {status} {url}")
        return status


def dealer(night: Night, until: float) -> None:
    client = night.client()
    url = reverse("ledger:hand_record", args=[night.shoe.pk])
    rng = random.Random("dealer")
    while time.monotonic() < until:
        number = hand_services.next_hand_number(night.shoe)
        seated = seating_of(night.shoe, number)  # what the dealer's page shows
        data = {
            "number": str(number),
            "idempotency_key": str(uuid.uuid4()),
            "seating": seating_token(seated),
            "result": rng.choice(["player", "banker", "tie"]),
        }
        data |= {f"stake_{seat}_{rng.choice(['player', 'banker'])}": "20" for seat in seated}
        if night.post(client, "dealer", url, data) == 302:
            with night.lock:
                night.hands_saved += 1


def cashier(night: Night, until: float) -> None:
    client = night.client()
    url = reverse("ledger:settlement_record", args=[night.event.pk])
    rng = random.Random("cashier")
    while time.monotonic() < until:
        data = {
            "guest": str(rng.choice(night.players).pk),
            "direction": rng.choice(["guest_paid", "house_paid"]),
            "amount": "10",
            "method": "cash",
            "confirm": "on",
            "idempotency_key": str(uuid.uuid4()),
        }
        night.post(client, "cashier", url, data)


def floor(night: Night, until: float, pool: list[Guest]) -> None:
    client = night.client()
    url = reverse("ledger:seat_change", args=[night.shoe.pk])
    rng = random.Random("floor")
    while time.monotonic() < until:
        if rng.random() < 0.6:
            guest, seat = rng.choice(pool), 7  # a newcomer, often one the host is merging
        else:
            guest, seat = rng.choice(night.players), rng.randint(1, 6)
        night.post(client, "floor", url, {"seat": str(seat), "guest": str(guest.pk)})


def host(night: Night, until: float, pool: list[Guest]) -> None:
    client = night.client()
    rng = random.Random("host")
    while time.monotonic() < until:
        other, guest = rng.sample(pool, 2)
        url = reverse("ledger:guest_merge", args=[guest.pk])
        status = night.post(client, "host", url, {"other": str(other.pk)})
        if status == 302:  # merged: the pool gets a new face for the one that is gone
            with night.lock:
                pool[pool.index(other)] = night.newcomer("N")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60)
    options = parser.parse_args()
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    settings.AXES_ENABLED = False
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # refusals are expected
    retries = RetryCounter()
    logging.getLogger("shoebook.middleware").addHandler(retries)
    errors: Counter[str] = Counter()

    def note_error(sender: object, request: object = None, **kwargs: object) -> None:
        error = sys.exc_info()[1]
        errors[f"{type(error).__name__}: {str(error).splitlines()[0][:160]}"] += 1

    got_request_exception.connect(note_error)
    call_command("migrate", verbosity=0)
    night = Night()
    pool = [night.newcomer("N") for _ in range(6)]
    until = time.monotonic() + options.seconds
    devices = [
        threading.Thread(target=job, args=args)
        for job, args in (
            (dealer, (night, until)),
            (cashier, (night, until)),
            (floor, (night, until, pool)),
            (host, (night, until, pool)),
        )
    ]

    def run(device: threading.Thread) -> None:
        try:
            device.run()
        except Exception as error:  # an exception out of the client: an error too
            with night.lock:
                night.failures.append(f"{device.name}: {error!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(device,)) for device in devices]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    problems = check_ledger().problems
    report = {
        "vendor": connection.vendor,
        "answers": {device: dict(counts) for device, counts in night.answers.items()},
        "failures": night.failures[:20],
        "failure_count": len(night.failures),
        "errors": dict(errors),
        "retried": retries.retries,
        "hands_saved": night.hands_saved,
        "hands": night.shoe.hands.count(),
        "ledger_problems": [str(problem) for problem in problems[:10]],
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
