"""The scoresheet upload on a phone: a refused file's problems are the first thing the host sees."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_refused_upload_shows_its_problems_on_the_first_screen(phone, host, live_server):
    base_url = live_server.url
    log_in(phone, base_url, host.username)
    phone.goto(base_url + reverse("ledger:scoresheet_upload"))
    phone.fill("input[name=event_name]", "Friday")
    phone.fill("input[name=date]", "2026-11-20")
    phone.set_input_files(
        "input[name=file]",
        files=[{"name": "count.csv", "mimeType": "text/csv",
                "buffer": b"guest,bought,cashed_out\nAki,lots,0\n"}],
    )  # fmt: skip
    phone.click("button[type=submit]")
    refusal = phone.wait_for_selector(".refusal")
    box = refusal.bounding_box()
    assert box is not None and box["y"] < 740  # on the phone's first screen
    assert "bought" in refusal.inner_text()
    help_box = phone.locator("h2", has_text="A workbook this site exported").bounding_box()
    assert help_box is not None and box["y"] < help_box["y"]
