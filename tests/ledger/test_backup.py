from __future__ import annotations

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Event, Hand
from ledger import services
from ledger.models import Bet, Guest, GuestEventResult, HandRevision, Settlement
from ledger.results import event_shoe_rows, guest_balances
from shoebook.roles import is_host
from tests.conftest import entry

pytestmark = pytest.mark.django_db


# Flush and restore as on a real database, outside a test transaction (PostgreSQL's TRUNCATE needs
# that).
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_an_empty_database_with_every_balance_identical(tmp_path, host):
    call_command("load_demo", stdout=StringIO())
    event = Event.objects.get()
    guest = event.guests.first()
    demo_host = type(host).objects.get(username="host")
    services.settlement_record(guest=guest, event=event, amount=Decimal("-12.50"), method="cash",
                               by=demo_host)  # fmt: skip
    hand = Hand.objects.filter(bets__isnull=False).first()
    services.hand_correct(
        hand=hand, entry=entry(result=hand.outcome().winner), reason="backup test", by=demo_host
    )
    before = {
        "balances": guest_balances(),
        "shoes": [row.figures for row in event_shoe_rows(event)[0]],
        "counts": (Bet.objects.count(), Settlement.objects.count(), HandRevision.objects.count(),
                   GuestEventResult.objects.count()),
    }  # fmt: skip
    backup = tmp_path / "shoebook.json.gz"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    assert backup.stat().st_size > 10_000

    call_command("flush", interactive=False, verbosity=0)
    assert not Event.objects.exists()
    out = StringIO()
    call_command("restore", str(backup), stdout=out)
    assert "Restored 1 event(s) and 15 guest(s)." in out.getvalue()
    restored = Event.objects.get()
    assert guest_balances() == before["balances"]
    assert [row.figures for row in event_shoe_rows(restored)[0]] == before["shoes"]
    assert (Bet.objects.count(), Settlement.objects.count(), HandRevision.objects.count(),
            GuestEventResult.objects.count()) == before["counts"]  # fmt: skip
    assert is_host(type(host).objects.get(username="host"))
    # The restored database keeps working: the next hand gets a fresh id.
    services.guest_link_issue(guest=restored.guests.first())


def test_restore_refuses_a_database_that_is_not_empty(tmp_path, event):
    backup = tmp_path / "b.json"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(backup))
    with pytest.raises(CommandError, match="No backup"):
        call_command("restore", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match=r"\.json"):
        call_command("backup", "--output", str(tmp_path / "b.txt"))


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_backup_with_names_the_rule_refuses(tmp_path):
    backup = tmp_path / "crafted.json"
    backup.write_text(json.dumps([
        {"model": "ledger.guest", "pk": 1, "fields": {
            "name": "Ken\u0001", "name_key": "ken\u0001", "created_at": "2026-11-20T00:00:00Z",
            "access_token": "", "user": None}},
    ]))  # fmt: skip
    with pytest.raises(CommandError, match="break the name rule"):
        call_command("restore", str(backup), stdout=StringIO())
    assert not Guest.objects.exists()
