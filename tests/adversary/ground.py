"""The ground every group of the adversary stands on; it attacks nothing itself. A ``Case`` is one
input: its kind, a label, and a run that answers "refused", "accepted", "crashed" or "wrong:" and
why. A ``Night`` is a host, an event with seven guests seated and a client logged in as the host;
``hand_form`` is what the table's form posts for a shoe's next hand. What must happen, whatever the
group: no answer is a 5xx (``status``: a crash), each outcome is the one it must be (``expect``), a
refusal says why on its page (``refused_saying``) and the books add up after (``ledger_problems``).
Browsers of their own (``user_client``, with the CSRF check if asked), requests released at once in
threads (``race``) and a zip that is no workbook serve more than one group.
"""

from __future__ import annotations

import io
import re
import threading
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from html import unescape

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.models import Shoe
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.forms import seating_token
from ledger.hands.selectors import seating_of
from ledger.integrity import check_ledger
from shoebook.base.roles import HOSTS


@dataclass
class Case:
    kind: str  # names, amounts, files, urls, races, charsets, keys, ...
    label: str
    run: Callable[[], str]  # "refused", "accepted", or "wrong: why"


class Night:
    """A host, an event with seven guests seated, and a client logged in as the host."""

    def __init__(self, tag: str) -> None:
        self.host = User.objects.create_user(f"adversary-{tag}", password="x")
        self.host.groups.add(Group.objects.get_or_create(name=HOSTS)[0])
        self.event = game_services.event_create(
            name=f"Night {tag}",
            date=date(2026, 11, 20),
            rules=RuleSet(),
            by=self.host,
            table_min=Decimal(10),
            table_max=Decimal(1000),
        )
        self.shoe = game_services.shoe_start(event=self.event, by=self.host)
        self.guests = [
            guest_services.event_guest_add(event=self.event, name=f"G{n}-{tag}", by=self.host)
            for n in range(1, 8)
        ]
        for seat, guest in enumerate(self.guests, start=1):
            hand_services.seat_guest(shoe=self.shoe, seat=seat, guest=guest, by=self.host)
        self.client = Client(raise_request_exception=False)
        self.client.force_login(self.host)

    def hand_data(self, **fields: str) -> dict[str, str]:
        return hand_form(self.shoe, **fields)

    def save(self, **fields: str) -> int:
        url = reverse("ledger:hand_record", args=[self.shoe.pk])
        return self.client.post(url, self.hand_data(**fields)).status_code


def hand_form(shoe: Shoe, **fields: str) -> dict[str, str]:
    """What the table's form posts for the shoe's next hand."""
    number = hand_services.next_hand_number(shoe)
    return {
        "number": str(number),
        "idempotency_key": str(uuid.uuid4()),
        "seating": seating_token(seating_of(shoe, number)),
    } | fields


def status(code: int, *, accepted: bool) -> str:
    if code >= 500:
        return "crashed"
    return "accepted" if accepted else "refused"


def expect(outcome: str, should: str) -> str:
    if outcome == "crashed" or outcome == should:
        return outcome
    return f"wrong: {outcome} where it must be {should}"


# --- what a refusal said -------------------------------------------------------------------


def page_text(response: HttpResponseBase) -> str:
    """The page an answer carries, unescaped (what a person reads on it)."""
    content: bytes = b"" if response.streaming else getattr(response, "content", b"")
    return unescape(content.decode(errors="replace"))


def said(response: HttpResponseBase) -> str:
    """What an answer tells its reader: the page it carries, or for a redirect, the messages on
    the page it leads to (a refusal said as a message there, as the round page's are)."""
    client = getattr(response, "client", None)
    if response.status_code in (301, 302, 303) and client is not None:
        page = page_text(client.get(response["Location"]))
        return " ".join(re.findall(r'<ul class="messages">(.*?)</ul>', page, re.DOTALL))
    return page_text(response)


def _opening(message: object) -> str:
    """A message's words before its first blank to fill in: what any refusal of its kind says."""
    return str(message).split("{")[0]


def ledger_problems() -> str:
    """The first of ``check_ledger``'s problems, or nothing."""
    problems = check_ledger().problems
    return f"check_ledger: {problems[0]}" if problems else ""


def refused_saying(response: HttpResponseBase, *messages: object, changed: bool) -> str:
    """A request that must be refused: no 5xx, nothing written, and one of ``messages`` on the
    page."""
    if response.status_code >= 500:
        return "crashed"
    if changed:
        return f"wrong: recorded (answered {response.status_code})"
    page = page_text(response)
    if not any(_opening(message) in page for message in messages):
        return f"wrong: refused without saying {_opening(messages[0])[:50]!r}"
    return "refused"


# --- browsers of their own, and racing ones ------------------------------------------------


def user_client(user: User | None, *, csrf: bool = False) -> Client:
    """A browser of its own, logged in as ``user`` (or no one); with ``csrf``, one that the
    CSRF check applies to, holding the cookie a page it opened would have set."""
    client = Client(raise_request_exception=False, enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    if csrf:
        client.cookies[settings.CSRF_COOKIE_NAME] = CSRF_SECRET
    return client


CSRF_SECRET = "adversary" * 3 + "csrfs"  # 32 characters, as Django's own secrets
HTMX = {"HX-Request": "true"}  # the table page's script asks for the part it replaces


def race(*requests: Callable[[], HttpResponseBase]) -> list[HttpResponseBase | str]:
    """Each request in a thread of its own, released at once; its answer, or the error that
    escaped it. Each thread's database connection is closed after."""
    barrier = threading.Barrier(len(requests))
    answers: list[HttpResponseBase | str] = ["not run"] * len(requests)

    def run(index: int, request: Callable[[], HttpResponseBase]) -> None:
        try:
            barrier.wait()
            answers[index] = request()
        except Exception as error:  # what escaped the app: counted as a crash
            answers[index] = f"{type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def zipfile_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    return buffer.getvalue()
