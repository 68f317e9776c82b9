"""Every id in a URL, a query string or a form is validated: a huge one is not found, never a
server error (SQLite cannot hold an id past 64 bits)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.models import Seating
from tests.pages import HTMX, save, text

pytestmark = pytest.mark.django_db
HUGE = "9" * 23


@pytest.mark.parametrize(
    "path",
    [
        f"/events/{HUGE}/", f"/events/{HUGE}/results/", f"/shoes/{HUGE}/", f"/hands/{HUGE}/",
        f"/guests/{HUGE}/", f"/g/{HUGE}/token/", f"/display/{HUGE}/token/",
        f"/events/{HUGE}/settlement.xlsx",
    ],
)  # fmt: skip
def test_a_huge_id_in_a_url_is_not_found(admin_client, path):
    assert admin_client.get(path).status_code == 404


def test_a_huge_id_in_the_audit_filter_is_ignored(admin_client):
    assert admin_client.get(reverse("ledger:audit_log"), {"event": HUGE}).status_code == 200


def test_a_huge_guest_id_when_seating_is_refused_in_words(client, host, shoe, guests):
    client.force_login(host)
    url = reverse("ledger:seat_change", args=[shoe.pk])
    page = text(client.post(url, {"seat": "1", "guest": HUGE}, **HTMX))
    assert "Choose a seat and a guest." in page
    assert not Seating.objects.exists()


def test_a_huge_hand_number_is_a_form_error(client, host, seated, shoe):
    client.force_login(host)
    response = save(client, shoe, number=HUGE, result="tie")
    assert response.status_code == 200
    assert "Hand number:" in text(response)
