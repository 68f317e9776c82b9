"""A form that makes something is sent once (static/js/site.js, ``data-submit-once``): a double
tap on the People page's "Make an invitation link" at 360 px makes one invitation and shows its
link; back on the page, the form is sent again as before; a double tap on a guest's "Invite to
make a login" makes one invitation; a form marked so still says which of its buttons was tapped
("Revoke calendar link" beside "New calendar link").

The second tap lands while the first is on its way: the server holds its answer to the first
until the second tap has landed (a tap quicker than the browser sending the first is only a
replacement of the first, which the browser makes itself)."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.models import Series
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.models import AuditEntry, GuestInvitation, StaffInvitation
from ledger.people import services as people_services
from ledger.series import services as series_services
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, log_in, touch_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def browser_with_back_cache(browser):
    """Chromium as a phone has it: with the back-forward cache, which Playwright turns off (the
    page a host comes back to is the one they left, its form as it was)."""
    browser = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield browser
    browser.close()


@pytest.fixture
def phone_with_back_cache(browser_with_back_cache):
    yield from touch_screen(browser_with_back_cache, 360, 740)


@pytest.fixture
def held(monkeypatch):
    """``held(module, name)``: the live server's ``module.name`` (a service) does its work, then
    waits before the view answers, until the returned event is set (at the latest when the test
    ends)."""
    gates = []

    def hold(module, name):
        gate = threading.Event()
        work = getattr(module, name)

        def work_then_wait(**arguments):
            done = work(**arguments)
            gate.wait(timeout=15)
            return done

        monkeypatch.setattr(module, name, work_then_wait)
        gates.append(gate)
        return gate

    yield hold
    for gate in gates:
        gate.set()


def double_tap(page, button, gate):
    """A tap, and a second one at the same place while the first is on its way (a finger: the
    touch screen's taps, which wait for nothing on the page)."""
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    with page.expect_request(lambda request: request.method == "POST"):
        page.touchscreen.tap(x, y)
    page.touchscreen.tap(x, y)
    gate.set()


def open_people(page, base_url, host):
    log_in(page, base_url, host.username)
    page.goto(f"{base_url}/people/")
    assert page.viewport_size["width"] == 360


def make_a_link_with_a_double_tap(page, gate):
    page.get_by_label("Dealer", exact=True).check()
    page.get_by_label("For whom").fill("Mika")
    double_tap(page, page.get_by_role("button", name="Make an invitation link"), gate)
    expect(page.locator("#staff-invite-link")).to_be_visible()


def invitations_out(page):
    return page.locator("#invitations li form[action$='/withdraw/']")


def test_a_double_tap_makes_one_invitation_and_shows_its_link(phone, host, live_server, held):
    gate = held(people_services, "staff_invitation_issue")
    open_people(phone, live_server.url, host)
    make_a_link_with_a_double_tap(phone, gate)

    assert StaffInvitation.objects.count() == 1
    expect(invitations_out(phone)).to_have_count(1)
    link = phone.locator("#staff-invite-link").inner_text()
    assert link.startswith(f"{live_server.url}/join/")


def test_back_on_the_page_the_form_is_sent_again(phone_with_back_cache, host, live_server, held):
    phone = phone_with_back_cache
    gate = held(people_services, "staff_invitation_issue")
    open_people(phone, live_server.url, host)
    phone.evaluate("window.leftHere = true")  # gone unless the page comes back as it was left
    make_a_link_with_a_double_tap(phone, gate)
    first = phone.locator("#staff-invite-link").inner_text()

    phone.go_back(wait_until="commit")  # a page kept whole fires no load event
    expect(phone.get_by_role("heading", name="People", exact=True)).to_be_visible()
    assert phone.evaluate("window.leftHere === true"), "the page came back from the server"
    expect(phone.get_by_label("Dealer", exact=True)).to_be_checked()  # as the host left it
    button = phone.get_by_role("button", name="Make an invitation link")
    expect(button).not_to_have_attribute("aria-disabled", "true")

    button.click()
    expect(phone.locator("#staff-invite-link")).to_be_visible()
    assert phone.locator("#staff-invite-link").inner_text() != first
    assert StaffInvitation.objects.count() == 2
    expect(invitations_out(phone)).to_have_count(2)


def test_a_double_tap_on_a_guest_s_invitation_makes_one(phone, host, live_server, held):
    gate = held(guest_services, "guest_invitation_issue")
    guest = guest_services.guest_create(name="Aki")
    log_in(phone, live_server.url, host.username)
    phone.goto(f"{live_server.url}/guests/{guest.pk}/")
    double_tap(phone, phone.get_by_role("button", name="Invite to make a login"), gate)
    expect(phone.locator("#invite-link")).to_be_visible()

    assert GuestInvitation.objects.filter(guest=guest).count() == 1
    link = phone.locator("#invite-link").inner_text()
    assert link.startswith(f"{live_server.url}/invite/")


def test_the_button_tapped_is_sent_with_the_form(phone, host, live_server):
    night = game_services.event_create(
        name="Friday club", date=date(2026, 11, 27), rules=RuleSet(), by=host
    )
    series = series_services.series_from_night(
        event=night, by=host, name="Friday club", recurrence="weekly"
    )
    log_in(phone, live_server.url, host.username)
    phone.goto(f"{live_server.url}/series/{series.pk}/")
    hosts = phone.locator("form[action$='/feed-link/']")
    hosts.get_by_role("button", name="New calendar link").click()
    expect(phone.locator("[data-host-feed]")).to_be_visible()
    assert Series.objects.get(pk=series.pk).feed_token

    hosts.get_by_role("button", name="Revoke calendar link").click()
    expect(phone.locator("[data-host-feed]")).to_have_count(0)
    assert Series.objects.get(pk=series.pk).feed_token == ""
    actions = AuditEntry.objects.filter(action__startswith="calendar").order_by("pk")
    assert list(actions.values_list("action", flat=True)) == [
        AuditEntry.Action.CALENDAR_LINK_ISSUED,
        AuditEntry.Action.CALENDAR_LINK_REVOKED,
    ]
