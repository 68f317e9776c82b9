"""Every upload is sent once: the import form carries an idempotency key; the same upload sent
again (a retry after a lost answer) is answered with the night it made, never imported twice —
a scoresheet, a coup sheet, a count sheet and a workbook this site exported. Two at once: see
tests/ledger/workbook/test_upload_races.py."""

from __future__ import annotations

import io
import re
import uuid
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from games.entry import TableRules
from games.kinds import Game
from games.models import Event
from games.payouts import RuleSet
from ledger.integrity import check_ledger
from ledger.models import Bet, ChipMove, Coup, ImportKey
from ledger.workbook.blanks import template_csv
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.imports.night_writer import scoresheet_import
from ledger.workbook.imports.punto_banco_sheet import check_scoresheet
from ledger.workbook.imports.upload_keys import MSG_KEY_USED_FOR_IMPORT, nights_text
from ledger.workbook.views import MSG_ALREADY_IMPORTED, MSG_BAD_KEY
from tests.ledger.workbook.upload_files import COUNT, HANDS, RULES

pytestmark = pytest.mark.django_db

URL = "ledger:scoresheet_upload"
BANKED = {"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": "0.05", "shoe_charge": "0",
          "banco": "limitee", "clearing": "direct"}  # fmt: skip


def fields(content: bytes, name: str, key: object, **more: str) -> dict[str, object]:
    upload = io.BytesIO(content)
    upload.name = name
    sent: dict[str, object] = {"file": upload, "event_name": "Paper night", "date": "2026-11-21"}
    return sent | RULES | more | ({"idempotency_key": str(key)} if key is not None else {})


def last_message(response) -> str:
    return [str(message) for message in response.wsgi_request._messages][-1]


def sent_twice(client, make):
    first = client.post(reverse(URL), make())
    again = client.post(reverse(URL), make())
    return first, again


def test_the_upload_page_draws_a_fresh_key_in_its_form(client, host):
    client.force_login(host)
    pages = [client.get(reverse(URL)).content.decode() for _ in range(2)]
    found = [re.search(r'name="idempotency_key" value="([0-9a-f-]{36})"', page) for page in pages]
    keys = [match[1] for match in found if match]
    assert len(keys) == 2 and keys[0] != keys[1] and all(uuid.UUID(key) for key in keys)


@pytest.mark.parametrize(
    ("content", "name", "more"),
    [
        (HANDS.encode(), "hands.csv", {}),
        (template_csv(Game.CHEMIN_DE_FER).encode(), "coups.csv", BANKED),
        (COUNT.encode(), "count.csv", {}),
    ],
    ids=["punto-banco", "chemin-de-fer", "count"],
)
def test_an_upload_sent_again_under_its_key_answers_with_the_night_it_made(
    client, host, content, name, more
):
    client.force_login(host)
    key = uuid.uuid4()
    first, again = sent_twice(client, lambda: fields(content, name, key, **more))
    night = Event.objects.get()
    assert first.status_code == again.status_code == 302
    assert first.url == again.url == reverse("ledger:event_detail", args=[night.pk])
    assert last_message(again) == str(MSG_ALREADY_IMPORTED).format(nights=nights_text([night]))
    assert list(ImportKey.objects.get(key=key).events.all()) == [night]
    assert check_ledger().problems == []


def test_without_the_key_a_resend_is_refused_as_the_night_already_in(client, host):
    """An older page's form (no key): the name and date still keep a second copy out."""
    client.force_login(host)
    first, again = sent_twice(client, lambda: fields(HANDS.encode(), "hands.csv", None))
    assert (first.status_code, again.status_code) == (302, 200)  # the form, with its error
    assert Event.objects.count() == 1


def test_a_workbook_sent_again_under_its_key_answers_with_its_night(client, host):
    table = TableRules(RuleSet(), 8, Decimal(10), Decimal(1000))
    hands = check_scoresheet("hands.csv", HANDS.encode(), table)
    night = scoresheet_import(
        hands=hands, name="Exported", on=date(2026, 11, 20), table=table, by=host
    ).event
    content = workbook_bytes([night])
    Event.objects.filter(pk=night.pk).update(name="Exported (the first copy)")
    client.force_login(host)
    key = uuid.uuid4()

    def workbook() -> dict[str, object]:
        upload = io.BytesIO(content)
        upload.name = "night.xlsx"
        return {"file": upload, "idempotency_key": str(key)}

    first, again = sent_twice(client, workbook)
    imported = Event.objects.get(name="Exported")
    assert first.url == again.url == reverse("ledger:event_detail", args=[imported.pk])
    assert last_message(again) == str(MSG_ALREADY_IMPORTED).format(nights=nights_text([imported]))
    assert Event.objects.count() == 2
    assert Bet.objects.filter(event=imported).count() == Bet.objects.filter(event=night).count()


def test_another_file_under_a_used_key_is_refused_and_imports_nothing(client, host):
    client.force_login(host)
    key = uuid.uuid4()
    client.post(reverse(URL), fields(HANDS.encode(), "hands.csv", key))
    night = Event.objects.get()
    response = client.post(
        reverse(URL), fields(COUNT.encode(), "count.csv", key, event_name="Another night")
    )
    assert response.status_code == 400
    assert MSG_KEY_USED_FOR_IMPORT.format(nights=nights_text([night])) in (
        response.content.decode().replace("&quot;", '"').replace("&#x27;", "'")
    )
    assert list(Event.objects.all()) == [night] and not ChipMove.objects.exists()


def test_a_refused_upload_keeps_nothing_under_its_key_and_the_mended_file_imports(client, host):
    client.force_login(host)
    key = uuid.uuid4()
    wrong = client.post(reverse(URL), fields(b"guest,bought,cashed_out\nAki,lots,0\n", "c.csv",
                                             key))  # fmt: skip
    assert wrong.status_code == 400 and not ImportKey.objects.exists()
    mended = client.post(reverse(URL), fields(COUNT.encode(), "count.csv", key))
    assert mended.status_code == 302 and Event.objects.count() == 1


def test_a_key_that_is_no_uuid_is_a_400_that_says_so(client, host):
    client.force_login(host)
    response = client.post(reverse(URL), fields(HANDS.encode(), "hands.csv", "not-a-key"))
    assert response.status_code == 400
    assert response.content.decode() == str(MSG_BAD_KEY)
    assert not Event.objects.exists()


def test_a_coup_sheet_resent_keeps_one_night_of_coups(client, host):
    client.force_login(host)
    key = uuid.uuid4()
    content = template_csv(Game.CHEMIN_DE_FER).encode()
    sent_twice(client, lambda: fields(content, "coups.csv", key, **BANKED))
    night = Event.objects.get()
    assert Coup.objects.filter(event=night).count() == Coup.objects.count() > 0
