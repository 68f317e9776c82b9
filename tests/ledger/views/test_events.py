"""The event page's own forms: editing an event before and after its first hand."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import Event
from games.payouts import RuleSet
from games.services import MSG_FROZEN_AFTER_FIRST_HAND
from ledger import services
from ledger.models import AuditEntry
from tests.conftest import bet

pytestmark = pytest.mark.django_db

FIELDS = {
    "name": "Friday night",
    "date": "2026-11-20",
    "venue": "",
    "format": "mini",
    "decks": "8",
    "no_commission": "none",
    "commission": "",
    "tie_pays": "8",
    "pair_pays": "11",
    "side_bets": ["pairs"],
    "currency_symbol": "$",
    "yen_per_chip": "100",
    "table_min": "10",
    "table_max": "1000",
    "hands_per_shoe": "40",
}


def edit(client, event, **changes):
    return client.post(reverse("ledger:event_edit", args=[event.pk]), FIELDS | changes)


def test_before_the_first_hand_the_host_changes_anything(client, host, event):
    client.force_login(host)
    page = client.get(reverse("ledger:event_edit", args=[event.pk])).content.decode()
    assert 'value="Friday night"' in page and "disabled" not in page
    response = edit(client, event, commission="4", decks="6", table_max="500", tie_pays="9")
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.rule_set == RuleSet(commission_rate=Decimal("0.04"), tie_pays=9)
    assert (event.decks, event.table_max) == (6, Decimal(500))
    audit = AuditEntry.objects.get(action=AuditEntry.Action.EVENT_EDITED)
    assert audit.before["decks"] == "8" and audit.after["decks"] == "6"


def test_after_the_first_hand_only_name_date_and_venue_change(
    client, host, event, seated, shoe, record
):
    hand = record(shoe, "9 7", "J J 8", [bet(1, "banker", 100)])
    client.force_login(host)
    page = client.get(reverse("ledger:event_edit", args=[event.pk])).content.decode()
    assert page.count("disabled") >= 8  # rules, decks, format, currency, chip rate, limits
    response = edit(client, event, name="Friday, late", venue="Bar K", decks="1", commission="4",
                    table_min="200", yen_per_chip="1")  # fmt: skip
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.venue) == ("Friday, late", "Bar K")
    assert (event.decks, event.table_min, event.yen_per_chip) == (8, Decimal(10), Decimal(100))
    assert event.rule_set == RuleSet()
    assert hand.bets.get().commission == Decimal("5.00")  # priced as it was
    audit = AuditEntry.objects.get(action=AuditEntry.Action.EVENT_EDITED)
    assert set(audit.after) == {"name", "venue"}
    log = client.get(reverse("ledger:audit_log")).content.decode()
    assert "Event edited" in log and "Bar K" in log


def test_the_service_refuses_a_frozen_field_even_without_the_form(
    event, seated, shoe, record, host
):
    record(shoe, "9 7", "J J 8", [bet(1, "banker", 100)])
    with pytest.raises(ValidationError) as raised:
        services.event_edit(event=event, by=host, table_min=Decimal(20))
    assert str(MSG_FROZEN_AFTER_FIRST_HAND.format(field="Table min")) in str(raised.value)
    assert Event.objects.get(pk=event.pk).table_min == Decimal(10)
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.EVENT_EDITED).exists()


def test_dealers_cannot_edit_an_event(client, dealer, event):
    client.force_login(dealer)
    assert edit(client, event, name="Mine").status_code == 403
    assert Event.objects.get(pk=event.pk).name == "Friday night"
