"""The dealers' tips on a 360 px phone at a 300 ms round trip: a dealer starts dealing from their
own page, the host records a tip from a hand's win from the hand's page (htmx: the panel swaps in
place), a tip typed wrong is refused beside its box, the dealer stops, the pool is shown shared,
and the dealer's own page shows their share. Nothing is wider than the screen."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from ledger.models import DealerShift, Tip
from shoebook.base.roles import DEALERS
from tests.browser.conftest import log_in, slow_network
from tests.conftest import bet, entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= innerWidth"


def test_a_tip_from_a_win_is_recorded_and_shared_on_a_phone(phone, browser, host, full_table):
    from ledger.hands import services as hand_services

    base_url, shoe = full_table
    event = shoe.event
    hand = hand_services.record_hand(
        shoe=shoe, number=1, entry=entry("9 7", "J J 10", [bet(1, "player", 100)]), by=host
    ).hand
    dealer = User.objects.create_user("deala", password="pw-for-tests")
    dealer.groups.add(Group.objects.get_or_create(name=DEALERS)[0])
    slow_network(phone, 300)

    log_in(phone, base_url, "deala")
    phone.goto(base_url + reverse("ledger:dealer_tips"))
    assert phone.evaluate(FITS)
    phone.get_by_role("button", name=f"Start dealing at {event.name}").tap()
    phone.get_by_role("button", name="Stop dealing").wait_for()
    assert DealerShift.objects.filter(dealer=dealer, ended_at__isnull=True).count() == 1
    phone.context.clear_cookies()

    log_in(phone, base_url, host.username)
    phone.goto(base_url + reverse("ledger:hand_detail", args=[hand.pk]))
    phone.get_by_role("link", name="A tip from this hand's win").tap()
    phone.wait_for_url(f"**/events/{event.pk}/tips/?hand={hand.pk}#tip")
    assert phone.evaluate(FITS)
    form = phone.locator(".tip-form")
    form.locator("select[name=guest]").select_option(label="田中")  # seat 1: won 100
    form.locator("input[name=amount]").fill("120")  # more than 田中 won
    form.get_by_role("button", name="Record the tip").tap()
    phone.locator(".tip-form .errorlist").wait_for()
    assert not Tip.objects.exists()
    assert phone.evaluate(FITS)
    phone.locator(".tip-form input[name=amount]").fill("25")
    phone.locator(".tip-form").get_by_role("button", name="Record the tip").tap()
    phone.locator("#tips .messages").get_by_text("Recorded").wait_for()
    (tip,) = Tip.objects.all()
    assert (tip.amount, tip.hand_id, tip.source) == (Decimal(25), hand.pk, "hand_win")
    phone.locator(f"#share-{dealer.pk}").get_by_text("$25").wait_for()
    assert phone.evaluate(FITS)
    phone.context.clear_cookies()

    log_in(phone, base_url, "deala")
    phone.goto(base_url + reverse("ledger:dealer_tips"))
    phone.get_by_role("button", name="Stop dealing").tap()
    phone.get_by_text("stopped dealing").wait_for()
    phone.locator(f"#night-{event.pk}").get_by_text("$25").wait_for()
    assert phone.evaluate(FITS)
