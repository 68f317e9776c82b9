"""The event pages: a night from creation to close, editing an event before and after its
first hand, and closing and reopening it."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import services as game_services
from games.models import Event, Shoe
from games.payouts import RuleSet
from games.services import MSG_FROZEN_AFTER_FIRST_HAND
from ledger.models import AuditEntry
from ledger.money import services as money_services
from ledger.nights import services as night_services
from ledger.nights.views import MSG_EVENT_CLOSED, MSG_EVENT_REOPENED
from tests.conftest import bet
from tests.pages import HTMX, save, table_url, text

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
    "money_per_chip": "100",
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
    response = edit(
        client,
        event,
        name="Friday, late",
        venue="Bar K",
        decks="1",
        commission="4",
        table_min="200",
        money_per_chip="1",
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.name, event.venue) == ("Friday, late", "Bar K")
    assert (event.decks, event.table_min, event.money_per_chip) == (8, Decimal(10), Decimal(100))
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
        night_services.event_edit(event=event, by=host, table_min=Decimal(20))
    assert str(MSG_FROZEN_AFTER_FIRST_HAND.format(field="Table minimum")) in str(raised.value)
    assert Event.objects.get(pk=event.pk).table_min == Decimal(10)
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.EVENT_EDITED).exists()


def test_dealers_cannot_edit_an_event(client, dealer, event):
    client.force_login(dealer)
    assert edit(client, event, name="Mine").status_code == 403
    assert Event.objects.get(pk=event.pk).name == "Friday night"


def test_the_host_logs_a_night_from_event_to_close(client, host):
    client.force_login(host)
    response = client.post(
        reverse("ledger:event_create"),
        FIELDS
        | {
            "name": "Reference night",
            "date": "2008-07-12",
            "venue": "Bar",
            "hands_per_shoe": "2",
        },
    )
    event = Event.objects.get()
    assert response.url == reverse("ledger:event_detail", args=[event.pk])
    for name in ("Aki", "Ben"):
        client.post(reverse("ledger:event_guest_add", args=[event.pk]), {"name": name})
    response = client.post(reverse("ledger:shoe_start", args=[event.pk]))
    shoe = Shoe.objects.get()
    assert response.url == table_url(shoe)
    guests = {g.name: g for g in event.guests.all()}
    for seat, name in ((1, "Aki"), (2, "Ben")):
        response = client.post(
            reverse("ledger:seat_change", args=[shoe.pk]),
            {"seat": seat, "guest": guests[name].pk},
            **HTMX,
        )
        assert f"{name} sits in seat {seat}." in text(response)

    response = save(
        client,
        shoe,
        player_cards="9 7",
        banker_cards="J J 10",
        stake_1_player="100",
        stake_2_banker="50",
    )
    page = text(response)
    assert "Hand 1 saved: Player wins 6–0." in page
    assert 'data-seat-result="1">+100<' in page and 'data-seat-result="2">−50<' in page
    assert 'data-next-hand="2"' in page  # the page's entry moves on to the next hand
    table = text(client.get(reverse("ledger:shoe_table", args=[shoe.pk])))
    assert "<strong data-hand-number>2</strong>" in table

    response = save(client, shoe, result="tie", stake_1_player="100", stake_2_banker="30")
    page = text(response)
    assert 'data-seat-result="1">push<' in page
    board = text(client.get(reverse("ledger:shoe_table", args=[shoe.pk]) + "?part=board", **HTMX))
    assert 'data-seat-total="1">+100<' in board and 'data-seat-total="2">−50<' in board
    assert "The planned 2 hands are played." in page  # the reminder; closing stays explicit

    response = client.post(reverse("ledger:shoe_close", args=[shoe.pk]))
    assert response.url == reverse("ledger:event_detail", args=[event.pk])
    client.post(reverse("ledger:shoe_start", args=[event.pk]))
    assert event.shoes.count() == 2
    second = event.shoes.get(number=2)
    game_services.mark_shoe_closed(shoe=second, by=host)
    response = client.post(reverse("ledger:event_close", args=[event.pk]))
    event.refresh_from_db()
    assert event.closed_at is not None


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"table_min": "500", "table_max": "100"}, "The table maximum is under the minimum."),
        ({"hands_per_shoe": "70000"}, "999"),
        ({"decks": "0"}, "greater than or equal to 1"),
        # One hand at the limit, on the longest odds at every seat, must fit one ledger amount.
        ({"table_max": "50000000.01"}, "A table limit is at most 50,000,000"),
    ],
)
def test_event_limits_are_refused_in_words_not_constraint_names(
    client, host, event, changes, message
):
    client.force_login(host)
    response = edit(client, event, **changes)
    page = response.content.decode()
    assert response.status_code == 200
    assert message in page and "Constraint" not in page
    assert Event.objects.get(pk=event.pk).table_max == Decimal(1000)


def test_the_event_form_says_its_bounds_in_the_inputs_and_under_the_fields(client, host):
    client.force_login(host)
    page = client.get(reverse("ledger:event_create")).content.decode()
    assert re.search(
        r'name="decks"[^>]*min="1"[^>]*max="8"|max="8"[^>]*min="1"[^>]*name="decks"', page
    )
    assert 'max="999"' in page
    response = client.post(
        reverse("ledger:event_create"), FIELDS | {"decks": "9", "money_per_chip": "0"}
    )
    page = response.content.decode()
    assert "less than or equal to 8" in page and "greater than or equal to 0.0001" in page
    assert not Event.objects.exists()


def test_the_host_sees_the_display_link_as_a_qr_code_and_a_dealer_does_not(
    client, host, dealer, event
):
    client.force_login(host)
    url = reverse("ledger:event_detail", args=[event.pk])
    assert "<svg" not in client.get(url).content.decode().split('class="display-link"')[1][:400]
    client.post(reverse("ledger:display_link_issue", args=[event.pk]))
    page = client.get(url).content.decode()
    assert 'class="qr"' in page and "<svg" in page.split('class="qr"')[1][:200]
    client.force_login(dealer)
    assert 'class="qr"' not in client.get(url).content.decode()


# --- closing and reopening -----------------------------------------------------------------


def close_url(event) -> str:
    return reverse("ledger:event_close", args=[event.pk])


def detail_url(event) -> str:
    return reverse("ledger:event_detail", args=[event.pk])


def test_closing_an_event_with_an_open_shoe_names_it_and_offers_to_close_it(
    client, host, seated, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    assert f'href="{close_url(shoe.event)}"' in text(client.get(detail_url(shoe.event)))
    page = text(client.get(close_url(shoe.event)))
    assert str(game_services.MSG_CLOSE_SHOE_FIRST).format(number=1) in page
    assert f'href="{reverse("ledger:shoe_close", args=[shoe.pk])}">Close shoe 1</a>' in page
    assert f'action="{close_url(shoe.event)}"' not in page  # nothing to submit yet
    assert "Shoes: 1 · hands played: 1." in page
    refused = text(client.post(close_url(shoe.event), follow=True))  # the service still refuses
    assert str(game_services.MSG_CLOSE_SHOE_FIRST).format(number=1) in refused
    shoe.event.refresh_from_db()
    assert shoe.event.is_open


def test_closing_an_event_asks_first_then_closes_and_the_host_can_reopen_it(
    client, host, seated, shoe, record
):
    event = shoe.event
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "player", 50)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 50)])
    money_services.settlement_record(
        guest=seated[1], event=event, amount=Decimal("-100"), method="cash", by=host
    )
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    client.force_login(host)
    page = text(client.get(close_url(event)))
    assert "Close Friday night?" in page
    assert "Shoes: 1 · hands played: 2." in page
    settled = page.split("Balances not settled yet")[1].split("</ul>")[0]
    assert "Ben: $97.50 · the house owes" in settled  # +50 then +47.50
    assert "Aki" not in settled  # won 100, paid 100: square
    assert f'<form method="post" action="{close_url(event)}"' in page
    assert f'href="{detail_url(event)}">Cancel</a>' in page
    event.refresh_from_db()
    assert event.is_open  # asking closes nothing

    response = client.post(close_url(event), follow=True)
    assert MSG_EVENT_CLOSED.format(event="Friday night") in text(response)
    event.refresh_from_db()
    assert not event.is_open
    reopen = reverse("ledger:event_reopen", args=[event.pk])
    assert f'action="{reopen}"' in text(response)
    assert client.get(close_url(event)).url == detail_url(event)  # nothing left to ask

    response = client.post(reopen, follow=True)
    assert MSG_EVENT_REOPENED.format(event="Friday night") in text(response)
    event.refresh_from_db()
    assert event.is_open
    shoe_reopen = reverse("ledger:shoe_reopen", args=[shoe.pk])
    assert f'action="{shoe_reopen}"' in text(response)  # its closed shoe can reopen now
    assert list(
        AuditEntry.objects.filter(by=host).order_by("at", "id").values_list("action", flat=True)
    )[-2:] == [AuditEntry.Action.EVENT_CLOSED, AuditEntry.Action.EVENT_REOPENED]


def test_only_a_host_asks_closes_or_reopens_an_event(client, dealer, outsider, host, event):
    reopen = reverse("ledger:event_reopen", args=[event.pk])
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.get(close_url(event)).status_code == 403
        assert client.post(close_url(event)).status_code == 403
    game_services.mark_event_closed(event=event, by=host)
    client.force_login(dealer)
    assert f'action="{reopen}"' not in text(client.get(detail_url(event)))
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.post(reopen).status_code == 403
    event.refresh_from_db()
    assert not event.is_open
    assert not AuditEntry.objects.exists()
