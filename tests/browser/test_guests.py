"""Guests managed on a phone: a host merges two entries of one guest and sees one balance; a
guest makes a login from a one-time invitation and sees their own page."""

from __future__ import annotations

import pytest

from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest
from ledger.money.amounts import format_chips
from ledger.money.results import guest_balances
from tests.browser.conftest import log_in, new_page
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS_360 = "document.documentElement.scrollWidth <= window.innerWidth"
SMALL_TARGETS = """(controls) => controls.filter((control) => control.checkVisibility())
    .map((control) => [control.outerHTML.slice(0, 60), control.getBoundingClientRect()])
    .filter(([html, box]) => box.height < 44)
    .map(([html, box]) => `${html} ${Math.round(box.width)}×${Math.round(box.height)}`)"""


@pytest.fixture
def two_entries(night, host, record):
    """Aki played hands 1–2 in seat 1; "Aki T" (the same woman, entered again) hands 3–4."""
    base_url, shoe = night
    aki = Guest.objects.get(name="Aki")
    again = guest_services.event_guest_add(event=shoe.event, name="Aki T", by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(shoe, "8 K", "9 K", [bet(1, "banker", 40)])
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=again, by=host)
    record(shoe, "9 7", "J J 10", [bet(2, "banker", 30)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 60)])
    hand_services.seat_clear(shoe=shoe, seat=2, by=host)
    return base_url, aki, again


def test_a_host_merges_two_guests_on_a_phone(phone, host, two_entries):
    base_url, aki, again = two_entries
    balances = guest_balances()
    combined = format_chips(balances[aki.pk] + balances[again.pk], "$", signed=True)
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/guests/{aki.pk}/")
    assert phone.evaluate(FITS_360)
    small = phone.eval_on_selector_all(
        ".guest-login button, .guest-names button, .guest-names input, .guest-merge button, "
        ".guest-merge select",
        SMALL_TARGETS,
    )
    assert small == []
    phone.select_option("select[name=other]", label="Aki T")
    phone.tap("text=Check the merge")
    assert phone.inner_text("#merged-balance") == combined
    assert phone.evaluate(FITS_360)
    phone.tap("button:has-text('Merge them')")
    phone.wait_for_url(f"{base_url}/guests/{aki.pk}/")
    assert "Aki T is merged into Aki" in phone.inner_text(".messages")
    total = balances[aki.pk] + balances[again.pk]
    assert phone.inner_text(".balance strong") == format_chips(total, "$", signed=True)
    assert "Aki T" in phone.inner_text(".aliases")  # the old name still finds her
    assert not Guest.objects.filter(pk=again.pk).exists()
    phone.goto(f"{base_url}/guests/")
    assert "Aki T" not in phone.inner_text("table")


def test_a_guest_makes_a_login_from_an_invitation(browser, phone, host, night):
    base_url, _shoe = night
    aki = Guest.objects.get(name="Aki")
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/guests/{aki.pk}/")
    phone.tap("text=Invite to make a login")
    link = phone.inner_text("#invite-link")
    assert "/invite/" in link and phone.evaluate(FITS_360)

    guest_phone = new_page(browser, 360, 740, has_touch=True)
    guest_phone.goto(link)
    assert "Welcome, Aki" in guest_phone.inner_text("h1")
    assert guest_phone.evaluate(FITS_360)
    guest_phone.fill("input[name=username]", "aki")
    guest_phone.fill("input[name=password1]", "short")
    guest_phone.fill("input[name=password2]", "short")
    with guest_phone.expect_navigation():
        guest_phone.tap("button:has-text('Make my login')")
    assert "too short" in guest_phone.inner_text(".invitation-form .errorlist")  # Django's
    guest_phone.fill("input[name=password1]", "Quiet-harbour-2026")
    guest_phone.fill("input[name=password2]", "Quiet-harbour-2026")
    guest_phone.tap("button:has-text('Make my login')")
    guest_phone.wait_for_url(f"{base_url}/me/")
    assert guest_phone.inner_text("#guest-page h1") == "Aki"
    guest_phone.goto(f"{base_url}/events/")  # where a login lands: the guest's own page
    assert guest_phone.url == f"{base_url}/me/"
    response = guest_phone.goto(f"{base_url}/guests/{aki.pk}/")
    assert response is not None and response.status == 403

    used = new_page(browser, 360, 740, has_touch=True)
    response = used.goto(link)
    assert response is not None and response.status == 410
    assert "already used" in used.inner_text(".refusal")
    phone.goto(f"{base_url}/guests/{aki.pk}/")
    assert "Aki logs in as aki" in phone.inner_text(".guest-login")
    for page in (guest_phone, used):
        assert not page.script_errors, page.script_errors
        page.context.close()


def test_a_name_of_eighty_letters_with_no_space_fits_a_phone(phone, host, night, record):
    # As a scoresheet may bring one: the guest's own page and the host's page of the guest.
    base_url, shoe = night
    long = guest_services.event_guest_add(event=shoe.event, name="W" * 40 + "長い名前" * 10,
                                          by=host)  # fmt: skip
    hand_services.seat_guest(shoe=shoe, seat=3, guest=long, by=host)
    record(shoe, "9 7", "J J 10", [bet(3, "player", 100)])
    token = guest_services.guest_link_issue(guest=long)
    phone.goto(f"{base_url}/g/{long.pk}/{token}/")
    assert phone.evaluate(FITS_360)
    log_in(phone, base_url, host.username)
    phone.goto(f"{base_url}/guests/{long.pk}/")
    assert phone.evaluate(FITS_360)
    phone.goto(f"{base_url}/events/{shoe.event_id}/")
    # The expenses panel, with its row per guest, comes in after the page: measure with it there.
    phone.wait_for_selector("#expenses .expense-sharers")
    assert "W" * 40 in phone.inner_text("#expenses .expense-sharers")
    assert phone.evaluate(FITS_360)
