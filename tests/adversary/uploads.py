"""Uploads sent again, and nights read by the rules they were played under.

``uploads``: the import form's idempotency key. The same upload sent again under its key — a
scoresheet, a coup sheet, a count sheet, one a host retries after a lost answer — is answered with
the night it made and imports nothing more; another file under a used key, or a key that is no
UUID, is refused saying so and imports nothing; (``threads``) the same upload three times at once
makes one night.

``rules``: a Chemin de fer night recorded under the first release's reading of the bank's
rotation (a suite lost at its giver's right went back to the seat that lost it) has clean books
read by its own reading; the event form cannot change the reading (a posted ``bank_rotation`` is
ignored), and ``night_rules`` refuses a reading its coups do not settle under, changing nothing.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal

from django.core.management import CommandError, call_command
from django.http import HttpResponseBase
from django.urls import reverse

from games.kinds import BankRotation, Game
from games.models import Event
from ledger.integrity import check_ledger
from ledger.workbook.blanks import template_csv
from ledger.workbook.imports.upload_keys import MSG_KEY_USED_FOR_IMPORT
from ledger.workbook.views import MSG_BAD_KEY
from tests.adversary.ground import (
    Case,
    Night,
    ledger_problems,
    race,
    refused_saying,
    user_client,
)
from tests.ledger.banked_nights import coup, guest_banked

HANDS = (
    "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake\n"
    "1,1,9 7,J J 10,P,,,1,{a},player,100\n"
    "1,2,,,B,no,yes,2,{b},banker,50\n"
)
COUNT = "guest,bought,cashed_out\n{a},500,720\n{b},300,80\n"
RULES = {"money_per_chip": "100", "table_min": "10", "table_max": "1000", "decks": "8",
         "no_commission": "none", "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
BANKED = {"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": "0.05", "shoe_charge": "0",
          "banco": "limitee", "clearing": "direct"}  # fmt: skip


def _form(content: bytes, file_name: str, night: str, key: str, **more: str) -> dict[str, object]:
    upload = io.BytesIO(content)
    upload.name = file_name
    return {"file": upload, "event_name": night, "date": "2026-11-21",
            "idempotency_key": key} | RULES | more  # fmt: skip


def upload_cases(night: Night, tag: str, *, threads: bool) -> Iterator[Case]:
    url = reverse("ledger:scoresheet_upload")
    names = {"a": f"Up A {tag}", "b": f"Up B {tag}"}
    sheets: list[tuple[str, bytes, str, dict[str, str]]] = [
        ("a scoresheet", HANDS.format(**names).encode(), "hands.csv", {}),
        ("a coup sheet", template_csv(Game.CHEMIN_DE_FER).encode(), "coups.csv", BANKED),
        ("a count sheet", COUNT.format(**names).encode(), "count.csv", {}),
    ]

    def nights_named(name: str) -> list[int]:
        return list(Event.objects.filter(name=name).values_list("pk", flat=True))

    def sent_again(label: str, content: bytes, file_name: str, more: dict[str, str]) -> Case:
        name, key = f"Resent {label} {tag}", str(uuid.uuid4())

        def run() -> str:
            first = night.client.post(url, _form(content, file_name, name, key, **more))
            again = night.client.post(url, _form(content, file_name, name, key, **more))
            if max(first.status_code, again.status_code) >= 500:
                return "crashed"
            made = nights_named(name)
            if len(made) != 1:
                return f"wrong: {len(made)} nights for one upload sent twice"
            where = reverse("ledger:event_detail", args=made)
            if (first.status_code, again.status_code) != (302, 302) or again["Location"] != where:
                return f"wrong: sent again it answered {again.status_code}, not its night"
            return (ledger_problems() and f"wrong: {ledger_problems()}") or "accepted"

        return Case("uploads", f"{label} sent again under its key", run)

    def another_file() -> str:
        key = str(uuid.uuid4())
        content, file_name, more = sheets[0][1], sheets[0][2], sheets[0][3]
        night.client.post(url, _form(content, file_name, f"Keyed {tag}", key, **more))
        before = Event.objects.count()
        other = COUNT.format(**names).encode()
        answer = night.client.post(url, _form(other, "count.csv", f"Other {tag}", key))
        changed = Event.objects.count() != before
        return refused_saying(answer, MSG_KEY_USED_FOR_IMPORT, changed=changed)

    def not_a_key() -> str:
        before = Event.objects.count()
        content = HANDS.format(**names).encode()
        answer = night.client.post(url, _form(content, "hands.csv", f"Bad key {tag}", "1 OR 1=1"))
        return refused_saying(answer, MSG_BAD_KEY, changed=Event.objects.count() != before)

    for label, content, file_name, more in sheets:
        yield sent_again(label, content, file_name, more)
    yield Case("uploads", "another file under a used key", another_file)
    yield Case("uploads", "a key that is no UUID", not_a_key)
    if threads:
        yield Case("uploads", "one upload three times at once", _at_once(night, tag, names))


def _at_once(night: Night, tag: str, names: dict[str, str]) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:scoresheet_upload")
        name, key = f"At once {tag}", str(uuid.uuid4())
        content = HANDS.format(**names).encode()
        clients = [user_client(night.host) for _ in range(3)]

        def send(client=None) -> Callable[[], HttpResponseBase]:
            return lambda: client.post(url, _form(content, "hands.csv", name, key))

        answers = race(*(send(client) for client in clients))
        if any(isinstance(answer, str) or answer.status_code >= 500 for answer in answers):
            return "crashed"
        made = list(Event.objects.filter(name=name).values_list("pk", flat=True))
        if len(made) != 1:
            return f"wrong: {len(made)} nights for one upload sent three times at once"
        where = reverse("ledger:event_detail", args=made)
        if any(getattr(answer, "get", lambda _k: "")("Location") != where for answer in answers):
            return "wrong: an answer was not the night the upload made"
        return "accepted"

    return run


def rule_cases(night: Night, tag: str) -> Iterator[Case]:
    """A night of the first release's reading: clean by its own, not to be changed by a form
    or to a reading its coups do not settle under."""
    event = Event.objects.get(pk=night.event.pk)
    Event.objects.filter(pk=event.pk).update(name=f"Rules {tag}", table_min=Decimal(10))
    event = guest_banked(event, taxe_rate=Decimal(0))
    Event.objects.filter(pk=event.pk).update(bank_rotation=BankRotation.ORIGINAL.value)
    shoe = night.shoe
    shoe.event.refresh_from_db()
    played: list[str] = []

    def play() -> str:
        coup(shoe, night.host, banker=1, bank="100", result="banker",
             covers=[(2, "ordinary", "100")], move="suite", suite_seat=2)  # fmt: skip
        coup(shoe, night.host, banker=2, bank="200", result="player",
             covers=[(3, "ordinary", "200")])  # fmt: skip
        # Seat 2 lost the suite and banks again: the first release's reading.
        coup(shoe, night.host, banker=2, bank="50", result="banker",
             covers=[(4, "ordinary", "50")], move="retire")  # fmt: skip
        played.append("yes")
        problems = check_ledger(event).problems
        return f"wrong: {problems[0]}" if problems else "accepted"

    def posted_reading() -> str:
        if not played:
            return "wrong: the night was not played"
        form = {"name": f"Rules {tag}", "date": "2026-11-20", "bank_rotation": "skips_loser"}
        answer = night.client.post(reverse("ledger:event_edit", args=[event.pk]), form)
        if answer.status_code >= 500:
            return "crashed"
        kept = Event.objects.get(pk=event.pk).bank_rotation
        return "refused" if kept == BankRotation.ORIGINAL.value else "wrong: the form changed it"

    def wrong_reading() -> str:
        try:
            call_command("night_rules", str(event.pk), "--bank-rotation", "skips_loser",
                         stdout=io.StringIO())  # fmt: skip
        except CommandError:
            kept = Event.objects.get(pk=event.pk).bank_rotation
            return "refused" if kept == BankRotation.ORIGINAL.value else "wrong: changed"
        return "wrong: set a reading the night's coups do not settle under"

    yield Case("rules", "a night of the first release's rotation, by its own", play)
    yield Case("rules", "the event form posting another rotation", posted_reading)
    yield Case("rules", "night_rules to a reading that does not settle", wrong_reading)
