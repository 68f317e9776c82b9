"""Logging out on a phone leaves nothing of the tables on it: the service worker's copies of the
table pages and every table's state in the device's storage are gone — by the server's
``Clear-Site-Data`` answer, and by the page's own script before the form leaves (for a browser
that ignores the header). On the production server, where the worker keeps pages. Writes the
server has not received yet are not deleted without the host's say."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Hand
from tests.browser.conftest import open_night, open_table, seat_seven

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WHAT_THE_DEVICE_KEEPS = """async () => ({
  caches: (await caches.keys()).filter((name) => name.startsWith("shoebook-")),
  stored: Object.keys(localStorage).filter((key) => key.startsWith("shoebook-")),
})"""

# The form's submit() replaced by a mark: what the script cleared before sending it, the
# server's answer left out.
HOLD_THE_FORM = """() => {
  HTMLFormElement.prototype.submit = function () { document.documentElement.dataset.sent = "1"; };
}"""


@pytest.fixture
def kept_table(phone, host, production_server):
    """The host's phone at a table page, which the worker keeps and the device remembers."""
    shoe = open_night(host)
    seat_seven(shoe, host)
    base_url = production_server.url
    open_table(phone, base_url, shoe, host)
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "kept", timeout=15_000)
    phone.reload()  # the table's state is kept on the device once its page ran
    expect(phone.locator("#table")).to_be_visible()
    kept = phone.evaluate(WHAT_THE_DEVICE_KEEPS)
    assert "shoebook-table-pages" in kept["caches"]
    assert "shoebook-tables" in kept["stored"]
    return base_url


def log_out(page):
    page.locator("details.menu summary").click()
    page.locator("form[data-logout] button").click()


def test_logging_out_leaves_no_table_page_nor_table_state_on_the_phone(phone, kept_table):
    assert phone.viewport_size["width"] == 360
    log_out(phone)
    phone.wait_for_url(f"{kept_table}/")
    kept = phone.evaluate(WHAT_THE_DEVICE_KEEPS)
    assert kept["stored"] == []
    # The page it lands on installs the worker afresh, which may already have kept the files
    # every visitor gets (the stylesheet, the offline page) again: never a table's page.
    assert set(kept["caches"]) <= {"shoebook-static", "shoebook-offline"}


def test_the_page_forgets_them_itself_before_the_form_leaves(phone, kept_table):
    phone.evaluate(HOLD_THE_FORM)
    log_out(phone)
    expect(phone.locator("html")).to_have_attribute("data-sent", "1")
    assert phone.evaluate(WHAT_THE_DEVICE_KEEPS) == {"caches": [], "stored": []}


def test_a_hand_not_yet_sent_is_not_deleted_by_logging_out_without_a_word(phone, host, bar_wifi):
    """The bar's Wi-Fi is down, a hand waits in the outbox, the host taps Log out: the phone says
    what would be lost and asks; kept (Cancel), the hand is sent once the Wi-Fi is back."""
    shoe = open_night(host)
    seat_seven(shoe, host)
    open_table(phone, bar_wifi.url, shoe, host)
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "kept", timeout=15_000)
    bar_wifi.drop(phone)
    phone.tap("input[name=stake_1_banker]")
    phone.fill("input[name=stake_1_banker]", "100")
    for rank in ("9", "J", "7", "J", "10"):
        phone.tap(f".keypad [data-rank='{rank}']")
    phone.tap("button.save")
    expect(phone.locator("[data-outbox-list] li")).to_have_count(1)

    asked = []
    phone.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    log_out(phone)
    expect(phone.locator("[data-outbox-list] li")).to_have_count(1)
    assert len(asked) == 1 and "1 table entries" in asked[0] and "Log out anyway?" in asked[0]
    assert any(key.startswith("shoebook-table-") for key in phone.evaluate(
        WHAT_THE_DEVICE_KEEPS)["stored"])  # fmt: skip

    bar_wifi.restore(phone)
    expect(phone.locator("[data-outbox]")).to_be_hidden(timeout=15_000)
    assert list(Hand.objects.filter(shoe=shoe).values_list("number", "player_cards")) == [
        (1, "9 7")
    ]
