"""A host on a 360 px phone makes a night that rounds to its $0.50 chips: the two boxes fit the
screen, the night says its rule, and its first hand's commission is in chips."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.models import Event
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Bet
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_host_chooses_the_rounding_on_a_phone_and_the_night_shows_it(phone, host, live_server):
    base_url = live_server.url
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/events/new/")
    phone.fill("input[name=name]", "Fifty-cent chips")
    phone.fill("input[name=date]", "2026-11-27")
    phone.select_option("select[name=rounding]", "half_up")
    phone.fill("input[name=smallest_chip]", "0.50")
    for box in ("select[name=rounding]", "input[name=smallest_chip]"):
        right = phone.eval_on_selector(box, "e => e.getBoundingClientRect().right")
        assert right <= 360, box
    phone.locator("#event-form button[type=submit]:not([name])").tap()
    phone.locator("h1", has_text="Fifty-cent chips").wait_for()
    phone.get_by_text("rounded to the smallest chip (0.50), half a chip up").wait_for()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360

    event = Event.objects.get()
    assert (event.rounding, event.smallest_chip) == ("half_up", Decimal("0.50"))
    shoe = game_services.shoe_start(event=event, by=host)
    guest = guest_services.event_guest_add(event=event, name="Aki", by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guest, by=host)
    hand_services.record_hand(
        shoe=shoe,
        number=1,
        by=host,
        entry=HandEntry(result="banker", bets=(BetEntry(1, "banker", "10.20"),)),
    )
    assert Bet.objects.get().commission == Decimal("0.50")  # $0.51 is not owed
    phone.reload()
    phone.get_by_text("$0.50").first.wait_for()
