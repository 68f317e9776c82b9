"""Logging out on a phone leaves nothing of the tables on it: the service worker's copies of the
table pages and every table's state in the device's storage are gone — by the server's
``Clear-Site-Data`` answer, and by the page's own script before the form leaves (for a browser
that ignores the header). On the production server, where the worker keeps pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

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
    assert phone.evaluate(WHAT_THE_DEVICE_KEEPS) == {"caches": [], "stored": []}


def test_the_page_forgets_them_itself_before_the_form_leaves(phone, kept_table):
    phone.evaluate(HOLD_THE_FORM)
    log_out(phone)
    expect(phone.locator("html")).to_have_attribute("data-sent", "1")
    assert phone.evaluate(WHAT_THE_DEVICE_KEEPS) == {"caches": [], "stored": []}
