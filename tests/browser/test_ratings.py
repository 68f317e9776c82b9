"""A guest's rating on a phone: the figures and the chart fit a 360 px screen, the table scrolls
inside its own box, and nobody else's figures are there."""

from __future__ import annotations

import pytest

from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS_360 = "document.documentElement.scrollWidth <= window.innerWidth"
INSIDE = """(box) => { const r = box.getBoundingClientRect();
    return r.left >= 0 && r.right <= window.innerWidth; }"""


def test_a_guest_reads_their_rating_and_its_chart_on_a_phone(phone, host, night, record):
    base_url, shoe = night
    aki, ben = Guest.objects.get(name="Aki"), Guest.objects.get(name="Ben")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=ben, by=host)
    for _ in range(3):
        record(shoe, "9 J", "8 J", [bet(1, "banker", 100), bet(1, "tie", 50),
                                     bet(2, "banker", 1000)])  # fmt: skip
    token = guest_services.guest_link_issue(guest=aki)
    phone.goto(f"{base_url}/g/{aki.pk}/{token}/")
    rating = phone.locator("#guest-rating")
    rating.wait_for()
    assert "Rating" in rating.inner_text()
    night_row = phone.locator("#guest-rating tr.rating-night").first
    assert "Browser night" in night_row.inner_text() and "450" in night_row.inner_text()
    assert "3,000" not in rating.inner_text()  # Ben's handle is not on Aki's page
    chart = phone.locator("#guest-rating svg.band-chart")
    assert chart.count() == 1
    assert chart.evaluate(INSIDE)
    assert phone.locator("#guest-rating .bets-scroll").evaluate(INSIDE)
    assert phone.evaluate(FITS_360)
