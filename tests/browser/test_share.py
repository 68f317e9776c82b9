"""Sharing a guest's balance: the device's share sheet when there is one, else the copy button,
else the text to select; a receipt and the group's results print. Checked with axe-core."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from ledger.guests import services as guest_services
from ledger.guests.sharing import MSG_SHARE_OWED
from ledger.models import Guest
from tests.browser.conftest import log_in, new_page
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SHARE_SHEET = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"
STUB_SHARE_SHEET = """
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.sharedWith = data; return Promise.resolve(); },
});
"""
NO_CLIPBOARD = (
    NO_SHARE_SHEET
    + 'Object.defineProperty(Navigator.prototype, "clipboard", {get: () => undefined});'
)
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa"]}}


@pytest.fixture
def shared_guest(full_table, host, record):
    """田中 (seat 1) up $100, with a private link: the guest detail page's address and the
    message it shares."""
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    guest = Guest.objects.get(name="田中")
    token = guest_services.guest_link_issue(guest=guest)
    line = str(MSG_SHARE_OWED).format(name="田中", chips="+$100", money="¥10,000")
    link = f"{base_url}/g/{guest.pk}/{token}/"
    return base_url, f"{base_url}/guests/{guest.pk}/", line, link


@pytest.fixture
def guest_page(browser, host):
    """Open a page as the host, ``script`` run before any of the page's own; closed at the end."""
    pages = []

    def open_page(base_url, address, script=None, **options):
        page = new_page(browser, 360, 740, has_touch=True, **options)
        pages.append(page)
        if script:
            page.context.add_init_script(script)
        log_in(page, base_url, host.username)
        page.goto(address)
        return page

    yield open_page
    for page in pages:
        page.context.close()
    for page in pages:
        assert not page.script_errors, page.script_errors


def test_without_a_share_sheet_the_copy_button_copies_the_message(guest_page, shared_guest):
    base_url, address, line, link = shared_guest
    page = guest_page(
        base_url,
        address,
        NO_SHARE_SHEET,
        permissions=["clipboard-read", "clipboard-write"],
    )
    assert page.is_hidden("[data-share-sheet]")
    assert page.input_value("[data-share-text]") == f"{line}\n{link}"
    page.tap("[data-share-copy]")
    page.wait_for_selector("[data-share-status]:has-text('Copied.')")
    assert page.evaluate("navigator.clipboard.readText()") == f"{line}\n{link}"


def test_the_share_sheet_gets_the_message_and_the_link(guest_page, shared_guest):
    base_url, address, line, link = shared_guest
    page = guest_page(base_url, address, STUB_SHARE_SHEET)
    page.tap("[data-share-sheet]")
    page.wait_for_function("window.sharedWith !== undefined")
    assert page.evaluate("window.sharedWith") == {"title": "田中", "text": line, "url": link}


def test_with_neither_the_message_is_there_to_select(guest_page, shared_guest):
    base_url, address, line, link = shared_guest
    page = guest_page(base_url, address, NO_CLIPBOARD)
    assert page.is_hidden("[data-share-sheet]") and page.is_hidden("[data-share-copy]")
    page.tap("[data-share-text]")
    selected = page.evaluate(
        "(() => { const f = document.querySelector('[data-share-text]');"
        " return f.value.slice(f.selectionStart, f.selectionEnd); })()"
    )
    assert selected == f"{line}\n{link}"
    assert page.get_attribute("a[href^='https://line.me/R/share?text=']", "href")


def test_without_javascript_the_text_and_the_links_are_there(guest_page, shared_guest):
    base_url, address, line, link = shared_guest
    page = guest_page(base_url, address, java_script_enabled=False)
    assert page.input_value("[data-share-text]") == f"{line}\n{link}"
    assert page.is_visible(f"a[href='{link}']")
    assert page.is_visible("a[href^='https://line.me/R/share?text=']")
    assert page.is_hidden("[data-share-copy]") and page.is_hidden("[data-share-sheet]")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_share_panel_receipt_and_results_pass_axe(guest_page, shared_guest, scheme):
    base_url, address, _line, _link = shared_guest
    page = guest_page(base_url, address, color_scheme=scheme)
    assert _violations(page) == []
    page.click("text=Receipt for this night")
    expect(page.locator("h1:has-text('田中')")).to_be_visible()
    expect(page.locator("[data-print]")).to_be_visible()  # shown by its script, once it runs
    assert _violations(page) == []
    page.emulate_media(media="print")
    assert page.is_hidden(".topbar") and page.is_hidden("[data-print]")
    page.emulate_media(media="screen")
    event_id = page.evaluate("location.pathname").split("/")[-2]
    page.goto(f"{base_url}/events/{event_id}/share/")
    assert page.is_visible("text=Guest 1")
    assert _violations(page) == []


def _violations(page):
    results = Axe().run(page, options=WCAG_AA)
    return [
        (violation["id"], [node["target"] for node in violation["nodes"]][:5])
        for violation in results.response["violations"]
    ]
