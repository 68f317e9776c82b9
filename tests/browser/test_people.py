"""People in the site, on two phones at 360 px against the production server: the host invites a
dealer by a link from the People page, the dealer opens it on their own phone, makes a login
and logs a hand at once; the host revokes the dealer, whose next save and next page are refused,
and whose login no longer works."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Hand
from ledger.hands.views.table import MSG_LOG_IN_AGAIN
from ledger.models import AuditEntry
from tests.browser.conftest import log_in, new_page, open_night, seat_seven, touch_screen
from tests.browser.look import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "Quiet-harbour-2026"
TAPS = ("9", "J", "7", "J", "10")  # P1 B1 P2 B2, then the Banker's third card: Player wins 6–0


@pytest.fixture
def second_phone(browser):
    """The dealer's own phone: another device, with nothing of the host's."""
    yield from touch_screen(browser, 360, 740)


def log_a_hand(page, seat: int) -> None:
    page.tap(f"input[name=stake_{seat}_player]")
    page.tap("button.chip[data-chip='10']")
    for rank in TAPS:
        page.tap(f".keypad [data-rank='{rank}']")
    expect(page.locator("[name=banker_cards]")).to_have_value("J J 10")
    page.tap("button.save")


def test_a_dealer_invited_by_link_logs_a_hand_and_once_revoked_is_refused(
    phone, second_phone, host, production_server
):
    base_url = production_server.url
    shoe = open_night(host)
    seat_seven(shoe, host)

    # The host, from the menu to the People page, makes a dealer's invitation link.
    log_in(phone, base_url, host.username)
    assert phone.viewport_size["width"] == 360
    phone.locator("details.menu summary").click()
    phone.get_by_role("link", name="People").click()
    expect(phone.get_by_role("heading", name="People", exact=True)).to_be_visible()
    phone.get_by_label("Dealer", exact=True).check()
    phone.get_by_label("For whom").fill("Mika")
    phone.get_by_role("button", name="Make an invitation link").click()
    link = phone.locator("#staff-invite-link")
    expect(link).to_be_visible()
    expect(phone.locator(".people-invite .qr svg")).to_be_visible()
    url = link.inner_text()
    assert url.startswith(base_url + "/join/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360

    # The dealer opens it on their own phone, makes a login and lands at tonight's table.
    second_phone.goto(url)
    expect(second_phone.get_by_role("heading", name="Welcome, dealer")).to_be_visible()
    second_phone.fill("input[name=username]", "mika")
    second_phone.fill("input[name=password1]", PASSWORD)
    second_phone.fill("input[name=password2]", PASSWORD)
    second_phone.get_by_role("button", name="Make my login").click()
    second_phone.wait_for_url(f"{base_url}/shoes/{shoe.pk}/")
    log_a_hand(second_phone, 1)
    second_phone.get_by_text("Hand 1 saved: Player wins 6–0.").wait_for()
    mika = User.objects.get(username="mika")
    assert list(Hand.objects.filter(shoe=shoe).values_list("number", "logged_by")) == [(1, mika.pk)]

    expect(second_phone.locator("html")).to_have_attribute("data-live", "open")

    # The host revokes the dealer from the People page.
    phone.goto(f"{base_url}/people/")
    row = phone.locator("li[data-person='mika']")
    expect(row).to_contain_text("Dealer")
    row.locator("summary", has_text="Revoke access").click()  # asks first: no undo here
    row.get_by_role("button", name="Yes, revoke this access").click()
    expect(phone.get_by_text("mika can no longer log in")).to_be_visible()
    expect(phone.locator("#revoked li[data-person='mika']")).to_be_visible()
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ACCESS_REVOKED, by=host).exists()

    # The dealer's table stream ends and is refused when it opens again ...
    expect(second_phone.locator("html")).to_have_attribute("data-live", "closed")
    # ... the next save is refused (held on the phone, asking to log in) ...
    log_a_hand(second_phone, 2)
    expect(second_phone.get_by_text(str(MSG_LOG_IN_AGAIN))).to_be_visible()
    assert Hand.objects.filter(shoe=shoe).count() == 1
    # ... the next page asks for a login, and the login no longer works.
    second_phone.goto(f"{base_url}/shoes/{shoe.pk}/")
    second_phone.wait_for_url(f"{base_url}/accounts/login/**")
    second_phone.fill("input[name=username]", "mika")
    second_phone.fill("input[name=password]", PASSWORD)
    second_phone.click("button[type=submit]")
    expect(second_phone.locator("form input[name=password]")).to_be_visible()
    assert second_phone.url.startswith(f"{base_url}/accounts/login/")
    assert Hand.objects.filter(shoe=shoe).count() == 1


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_people_page_fits_a_phone_and_passes_axe(browser, host, dealer, live_server, scheme):
    page = new_page(browser, 360, 740, has_touch=True, color_scheme=scheme)
    log_in(page, live_server.url, host.username)
    page.goto(f"{live_server.url}/people/")
    page.get_by_label("Host", exact=True).check()
    page.get_by_label("For whom").fill("Rin, the Saturday co-host with a rather long name")
    page.get_by_role("button", name="Make an invitation link").click()
    expect(page.locator("#staff-invite-link")).to_be_visible()
    expect(page.locator("#invitations")).to_contain_text("Rin, the Saturday co-host")
    expect(page.locator("li[data-person='dealer']")).to_contain_text("Dealer")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert problems(page) == []
    page.context.close()
