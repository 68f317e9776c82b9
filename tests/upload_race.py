"""Run by tests/ledger/workbook/test_upload_races.py in a fresh interpreter against a real
database (a SQLite file or PostgreSQL): the same upload, under one key, sent by several threads
at once through the upload page, while the first is still writing. Prints a JSON report."""

from __future__ import annotations

import io
import json
import sys
import threading
import time
import uuid

import django

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from games.models import Event  # noqa: E402
from ledger.integrity import check_ledger  # noqa: E402
from ledger.models import Bet, ChipMove, ImportKey  # noqa: E402
from ledger.workbook import views  # noqa: E402
from shoebook.base.roles import HOSTS  # noqa: E402
from tests.ledger.workbook.upload_files import COUNT, HANDS, RULES  # noqa: E402

SENDERS = 3


def slowed(write):
    """The import, then a pause still inside its transaction: the first upload is still
    running when the others arrive."""

    def run(*args, **kwargs):
        done = write(*args, **kwargs)
        time.sleep(0.4)
        return done

    return run


def send_at_once(host: User, fields) -> list[tuple[int, str]]:
    barrier = threading.Barrier(SENDERS)
    answers: list[tuple[int, str]] = [(0, "")] * SENDERS

    def send(index: int) -> None:
        client = Client()
        client.force_login(host)
        barrier.wait()
        try:
            response = client.post(reverse("ledger:scoresheet_upload"), fields())
            answers[index] = (response.status_code, response.get("Location", ""))
        except Exception as error:  # a 500 under the test client
            answers[index] = (500, f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(n,)) for n in range(SENDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    call_command("migrate", verbosity=0)
    views.scoresheet_import = slowed(views.scoresheet_import)
    views.count_sheet_import = slowed(views.count_sheet_import)
    tag = uuid.uuid4().hex[:8]
    host = User.objects.create_user(f"host-{tag}")
    host.groups.add(Group.objects.get_or_create(name=HOSTS)[0])
    report: dict[str, object] = {"vendor": connection.vendor, "rounds": []}
    for number in range(rounds):
        sends = (("hands", HANDS, "hands.csv"), ("count", COUNT, "count.csv"),
                 ("keys", HANDS, "hands.csv"))  # fmt: skip
        for kind, content, name in sends:
            key, night = str(uuid.uuid4()), f"Race {tag} {kind} {number}"

            def fields(content=content, name=name, night=night, key=key, kind=kind) -> dict:
                upload = io.BytesIO(content.encode())
                upload.name = name
                # "keys": the same night from three pages, each with a key of its own.
                sent = str(uuid.uuid4()) if kind == "keys" else key
                return {"file": upload, "event_name": night, "date": "2026-11-21",
                        "idempotency_key": sent} | RULES  # fmt: skip

            answers = send_at_once(host, fields)
            events = list(Event.objects.filter(name=night).values_list("pk", flat=True))
            report["rounds"].append(
                {
                    "kind": kind,
                    "answers": answers,
                    "nights": events,
                    "keys": ImportKey.objects.filter(events__name=night).count(),
                    "bets": Bet.objects.filter(event__name=night).count(),
                    "chips": ChipMove.objects.filter(event__name=night).count(),
                }
            )
    report["ledger_problems"] = [str(problem) for problem in check_ledger().problems]
    print(json.dumps(report))


if __name__ == "__main__":
    main()
