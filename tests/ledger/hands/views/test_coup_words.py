"""A guest-banked table in its game's words: a coup is saved and counted as a coup, its sides
are the bank and the ponte, and the banker's own row offers no suivi (he covers no bank, his
own least of all)."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from django.urls import reverse

from games import services as game_services
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Coup
from tests.ledger.banked_nights import coup
from tests.pages import HTMX, posted_form, table_url, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def chemin(client, host):
    client.force_login(host)
    event = game_services.event_create(
        name="Chemin night", date=date(2026, 11, 27), rules=RuleSet(), by=host, game="chemin_de_fer"
    )
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(("Aki", "Ben", "Chie", "Daisuke"), start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return shoe


def seat_row(page: str, seat: int) -> str:
    start = page.index(f'<tr data-seat="{seat}"')
    return page[start : page.index("</tr>", start)]


def test_the_coup_page_saves_a_coup_by_its_number(client, chemin):
    page = text(client.get(table_url(chemin)))
    assert "Save coup 1" in page and "Save hand" not in page
    assert "No coups yet." in page


def test_the_table_counts_coups_and_names_the_bank_and_the_ponte(client, host, chemin):
    coup(chemin, host, banker=1, bank="100", result="banker", covers=[(2, "banco_solo", "100")])
    page = text(client.get(table_url(chemin)))
    assert re.search(r'class="hand-no">Coup <strong data-hand-number>2</strong>', page)
    recent = page[page.index('id="table-recent"') :]
    assert re.search(r'<td class="winner-banker">Bank</td>', recent)
    assert "<h2>Coups</h2>" in page and "<h2>Hands</h2>" not in page
    assert "1 coup ·" in page and "Bank 1 (100.0%)" in page
    last = page[page.index('id="table-last"') : page.index("</div>", page.index('id="table-last"'))]
    assert ">coup 1</a>" in last and ">Bank</span>" in last and "hand 1" not in last
    assert "Undo coup 1" in page and "Undo hand" not in page


def test_the_suivi_seat_banking_is_not_offered_suivi_in_its_own_row(client, chemin):
    # Seat 2 loses a banco solo (so suivi is its own), then takes the suite: it banks.
    form = posted_form(text(client.get(table_url(chemin))), "coup-form")
    form |= {"bank": "100", "stake_2": "100", "kind_2": "banco_solo"}
    form |= {"player_cards": "10 6", "banker_cards": "9 K", "move": "suite", "suite_seat": "2"}
    response = client.post(reverse("ledger:hand_record", args=[chemin.pk]), form, **HTMX)
    assert response.status_code == 200 and Coup.objects.get().suivi_seat == 2, text(response)
    page = text(client.get(table_url(chemin)))
    assert posted_form(page, "coup-form")["banker_seat"] == "2"
    assert 'class="banker' in seat_row(page, 2) and 'value="suivi"' not in seat_row(page, 2)
    assert Coup.objects.get().bank_after == Decimal(195)


def test_a_coup_another_phone_recorded_first_is_refused_in_coup_words(client, host, chemin):
    stale = posted_form(text(client.get(table_url(chemin))), "coup-form")
    coup(chemin, host, banker=1, bank="100", result="banker", covers=[(2, "banco_solo", "100")])
    stale |= {"bank": "100", "stake_3": "100", "kind_3": "banco_solo", "result": "player"}
    page = text(client.post(reverse("ledger:hand_record", args=[chemin.pk]), stale, **HTMX))
    assert "Coup 1 was already recorded by" in page and "the table now shows coup 2" in page
    assert "Hand 1 was already" not in page
    assert Coup.objects.count() == 1


def test_a_coup_sent_with_no_bank_under_a_number_taken_is_refused_as_taken(client, host, chemin):
    # Another screen's coup 1 came first; this phone's coup 1 went before it knew its bank.
    stale = posted_form(text(client.get(table_url(chemin))), "coup-form")
    coup(chemin, host, banker=1, bank="100", result="banker", covers=[(2, "banco_solo", "100")])
    stale |= {"banker_seat": "", "bank": "", "stake_3": "50", "result": "player"}
    response = client.post(reverse("ledger:hand_record", args=[chemin.pk]), stale, **HTMX)
    page = text(response)
    assert "Shoebook-Hand-Saved" not in response.headers
    assert "Coup 1 was already recorded by" in page
    assert Coup.objects.count() == 1
