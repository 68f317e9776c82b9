"""The tips' pages: the host records a tip (with htmx too, a resend recording nothing more),
the pool and its shares shown in a fixed number of queries, a dealer sees their own share only,
and a settlement against the tab shows its tab."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger.guests import services as guest_services
from ledger.models import Settlement, Tip
from ledger.tips import services
from shoebook.base.roles import DEALERS
from tests.conftest import bet, make_user

D = Decimal
pytestmark = pytest.mark.django_db


def _ago(minutes: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=minutes)


def test_the_host_records_a_tip_once_whatever_the_resends(client, event, guests, host):
    client.force_login(host)
    data = {
        "guest": guests[0].pk,
        "amount": "12.50",
        "source": "chips",
        "idempotency_key": str(uuid.uuid4()),
    }
    url = reverse("ledger:tip_add", args=[event.pk])
    first = client.post(url, data)
    assert first.status_code == 302
    again = client.post(url, data, headers={"HX-Request": "true"}, follow=True)
    assert again.status_code == 200
    assert Tip.objects.get().amount == D("12.50")
    assert "Recorded" in again.content.decode()


def test_a_refused_tip_comes_back_with_its_reason_and_to_htmx_as_a_200(client, event, guests, host):
    client.force_login(host)
    key = uuid.uuid4()
    data = {"guest": guests[0].pk, "amount": "0", "source": "chips", "idempotency_key": key}
    url = reverse("ledger:tip_add", args=[event.pk])
    assert client.post(url, data).status_code == 400
    answer = client.post(url, data, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'id="tips"' in answer.content.decode()
    assert not Tip.objects.exists()


def _night(event, guests, host, n_dealers, n_tips):
    for n in range(n_dealers):
        dealer = make_user(f"dealer{n}", DEALERS)
        services.shift_start(
            event=event, dealer=dealer, by=host, started_at=_ago(60 - n), ended_at=_ago(1)
        )
    for n in range(n_tips):
        services.tip_record(
            event=event, guest=guests[n % len(guests)], amount=D(n + 1), source="money", by=host
        )


@pytest.mark.parametrize("size", [1, 4])
def test_the_tips_page_reads_a_fixed_number_of_queries(
    client, event, guests, host, size, django_assert_max_num_queries
):
    _night(event, guests, host, size, size * 3)
    client.force_login(host)
    with django_assert_max_num_queries(16):
        page = client.get(reverse("ledger:tips_page", args=[event.pk]))
    assert page.status_code == 200
    assert page.content.decode().count('id="share-') == size


def test_a_dealer_sees_their_own_share_and_no_other(client, event, guests, host, dealer):
    other = make_user("other-dealer", DEALERS)
    services.shift_start(event=event, dealer=dealer, by=host, started_at=_ago(30), ended_at=_ago(0))
    services.shift_start(event=event, dealer=other, by=host, started_at=_ago(90), ended_at=_ago(30))
    services.tip_record(event=event, guest=guests[0], amount=D("10.00"), source="money", by=host)
    client.force_login(dealer)
    page = client.get(reverse("ledger:dealer_tips")).content.decode()
    assert "3.33" in page  # a third of the time
    assert "6.67" not in page and "other-dealer" not in page


def test_a_dealer_starts_and_stops_their_own_shift(client, event, dealer):
    client.force_login(dealer)
    assert client.post(reverse("ledger:shift_add", args=[event.pk])).status_code == 302
    shift = dealer.dealer_shifts.get()
    assert shift.ended_at is None
    assert client.post(reverse("ledger:shift_stop", args=[shift.pk])).status_code == 302
    shift.refresh_from_db()
    assert shift.ended_at is not None


def test_a_tab_settlement_shows_its_tab_on_the_event_page(
    client, event, guests, host, seated, shoe, record
):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    client.force_login(host)
    data = {
        "guest": guests[0].pk,
        "direction": "house_paid",
        "amount": "100",
        "method": "tab",
        "tab_reference": "Tab 7",
        "idempotency_key": uuid.uuid4(),
        "confirm": "on",
    }
    answer = client.post(reverse("ledger:settlement_record", args=[event.pk]), data, follow=True)
    assert Settlement.objects.get().tab_reference == "Tab 7"
    assert "Settled against the tab Tab 7" in answer.content.decode()


def test_a_guest_sees_their_own_tips_on_their_page_and_no_one_else_s(client, event, guests, host):
    aki, ben = guests[0], guests[1]
    first = services.tip_record(event=event, guest=aki, amount=D(7), source="money", by=host)
    services.tip_void(tip=first, reason="typed twice", by=host)
    services.tip_record(event=event, guest=aki, amount=D(3), source="chips", by=host)
    services.tip_record(event=event, guest=ben, amount=D(11), source="money", by=host)
    for guest in (aki, ben):
        guest_services.guest_link_issue(guest=guest)
        guest.refresh_from_db()
    page = client.get(reverse("ledger:guest_page", args=[aki.pk, aki.access_token]))
    text = page.content.decode()
    assert "Your tips to the dealers" in text
    assert "In money at the end" in text and "In chips at the table" in text
    assert "typed twice" in text and "voided" in text
    assert "11.00" not in text  # Ben's tip
    ben_page = client.get(reverse("ledger:guest_page", args=[ben.pk, ben.access_token]))
    assert "typed twice" not in ben_page.content.decode()
