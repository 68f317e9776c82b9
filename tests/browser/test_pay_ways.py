"""The ways to pay on a 360 px phone, with htmx: the host adds a way and gives the house's
PayPal handle in place, fills in a guest's handles, settles a loser by PayPay with no note, and
the guest's own page shows the pay link and its QR code."""

from __future__ import annotations

import pytest

from ledger.guests import services as guest_services
from ledger.models import GuestPayHandle, PayWay, Settlement
from tests.browser.conftest import log_in
from tests.conftest import bet, seed_pay_ways

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def owing_night(full_table, record):
    """小林 (seat 4) lost 50 on Banker: he owes the house $50 (¥5,000)."""
    seed_pay_ways()
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(4, "banker", 50)])
    return base_url, shoe.event


def fits(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width


def test_the_host_keeps_the_ways_on_a_phone(phone, host, owing_night):
    base_url, _event = owing_night
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/ways/")
    fits(phone)
    add = phone.locator("#pay-ways form.pay-way-form").last
    add.get_by_label("Name").fill("Bizum")
    add.get_by_label("Paid by").select_option("details")
    add.get_by_label("The house's details").fill("+34 600 000 000")
    add.get_by_role("button", name="Add").tap()
    phone.locator("#pay-ways .notice", has_text="Added “Bizum”").wait_for()
    assert PayWay.objects.filter(name="Bizum").exists()
    paypal = PayWay.objects.get(name="PayPal")
    row = phone.locator(f"#way-{paypal.pk}")
    row.locator("summary").tap()
    row.get_by_label("The house's handle").fill("shoebook-house")
    row.get_by_role("button", name="Save").tap()
    phone.locator("#pay-ways .notice", has_text="Saved “PayPal”").wait_for()
    fits(phone)
    assert PayWay.objects.get(pk=paypal.pk).house_handle == "shoebook-house"


def test_a_guest_s_handles_and_a_settlement_by_paypay(phone, host, owing_night):
    base_url, event = owing_night
    kobayashi = event.guests.get(name="小林")
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/guests/{kobayashi.pk}/")
    handles = phone.locator("#pay-handles")
    handles.get_by_label("Venmo").fill("@kobayashi-k")
    handles.get_by_role("button", name="Save the handles").tap()
    phone.locator("#pay-handles .notice").wait_for()
    fits(phone)
    assert GuestPayHandle.objects.get(guest=kobayashi).handle == "kobayashi-k"
    phone.goto(f"{base_url}/events/{event.pk}/?settle={kobayashi.pk}#settle")
    phone.locator("#settle").get_by_role("button", name="PayPay").tap()
    phone.wait_for_url("**/#settlement")
    assert "· PayPay" in phone.inner_text("#settlements-recorded + ul")
    paid = Settlement.objects.get()
    assert (paid.way.name, paid.note) == ("PayPay", "")


def test_a_guest_who_owes_sees_the_pay_link_and_its_qr(phone, owing_night):
    base_url, event = owing_night
    PayWay.objects.filter(name="PayPal").update(house_handle="shoebook-house")
    kobayashi = event.guests.get(name="小林")
    guest_services.guest_link_issue(guest=kobayashi)
    phone.goto(f"{base_url}/g/{kobayashi.pk}/{kobayashi.access_token}/")
    link = phone.get_by_role("link", name="Pay by link")
    assert link.get_attribute("href") == "https://paypal.me/shoebook-house/5000JPY"
    assert phone.locator("#pay-request .qr svg").count() == 1
    fits(phone)
