"""Walk 15: recording a proposed transfer on the event page must show it recorded. The view
answers htmx with HX-Redirect to the same page plus ``#clearing``; the browser treats that as a
jump within the page and never reloads, so the host sees the old proposals (or an old refusal)
and no new line under "Transfers recorded" — and records the payment again."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Transfer
from tests.browser.conftest import NAMES, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_recorded_transfer_shows_on_the_event_page(phone, host, live_server):
    event = game_services.event_create(
        name="Chemin de fer night",
        date=date(2026, 11, 27),
        rules=RuleSet(),
        by=host,
        game="chemin_de_fer",
        taxe="percent",
        taxe_rate=Decimal("0.05"),
    )
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES[:3], start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    hand_services.record_hand(
        shoe=shoe,
        number=1,
        by=host,
        entry=HandEntry(
            result="banker",
            bets=(BetEntry(2, "banco_solo", "100"),),
            coup=CoupTerms(banker_seat=1, bank="100"),
        ),
    )
    base_url = live_server.url
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/events/{event.pk}/")
    line = phone.locator("#clearing li[data-payer]").first
    line.locator("[name=amount]").fill("10")
    line.locator("button").tap()
    # stored and shown, without the host reloading by hand (a recorded transfer's line is the
    # page's sign that the answer came back)
    phone.locator("#clearing li[id^='transfer-']").first.wait_for(timeout=6500)
    transfer = Transfer.objects.get()
    phone.locator(f"#clearing #transfer-{transfer.pk}").wait_for(timeout=5000)
