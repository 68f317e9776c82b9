"""Settling up a guest-banked night from the event page: the stints at the bank, the proposed
transfers, recording them (in full, in part, refused), voiding one; who may; constant queries."""

from __future__ import annotations

import html
import re
import uuid
from decimal import Decimal as D

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.forms import MSG_CHIPS_AMOUNT
from ledger.guests import services as guest_services
from ledger.models import Transfer
from ledger.money.transfer_forms import MSG_UNKNOWN_PARTY
from ledger.money.transfers import (
    HOUSE,
    MSG_OVER_PAYEE,
    MSG_OVER_PAYER,
    MSG_TRANSFER_NOT_POSITIVE,
    MSG_TRANSFER_SELF,
    MSG_TRANSFER_VOID_REASON,
    proposed_transfers,
)
from ledger.money.views.clearing import MSG_TRANSFER_RECORDED, MSG_TRANSFER_VOIDED
from tests.ledger.banked_nights import SEVEN, coup, play_debts, seven_guest_night

pytestmark = pytest.mark.django_db

# A owes 50, B is owed 50; C owes 30, D is owed 20 and E 10 (F and G net to zero).
NINE_DEBTS = [
    ("A", "F", "50.00"), ("F", "B", "30.00"), ("F", "G", "20.00"), ("G", "B", "20.00"),
    ("C", "D", "15.00"), ("C", "G", "10.00"), ("G", "E", "10.00"), ("C", "A", "5.00"),
    ("A", "D", "5.00"),
]  # fmt: skip
SEAT_OF = {name: seat for seat, name in enumerate(SEVEN, start=1)}
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def night(make_event, host):
    event, shoe, guests = seven_guest_night(make_event, host)
    play_debts(shoe, host, SEAT_OF, NINE_DEBTS)
    return event, shoe, guests


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"\s+", " ", response.content.decode())))


def clean(value: str) -> str:
    return re.sub(r"\s+", " ", value)


def pay(client, event, payer, payee, amount, headers=None, **extra):
    data = {
        "payer": HOUSE if payer is None else payer.pk,
        "payee": HOUSE if payee is None else payee.pk,
        "amount": amount,
        "note": "",
        "idempotency_key": str(uuid.uuid4()),
    }
    url = reverse("ledger:transfer_record", args=[event.pk])
    return client.post(url, data | extra, **(headers or {}))


def proposal(response) -> list[str]:
    """The proposed lines as the page words them."""
    lines = re.findall(r'<span class="clearing-line">(.*?)</span>', response.content.decode())
    return [clean(html.unescape(re.sub(r"<[^>]+>", "", line))).strip() for line in lines]


def test_the_event_page_proposes_the_fewest_transfers_and_shows_the_stints(client, host, night):
    event, _shoe, _g = night
    client.force_login(host)
    response = client.get(reverse("ledger:event_detail", args=[event.pk]))
    assert response.status_code == 200
    assert proposal(response) == ["A pays B $50", "C pays D $20", "C pays E $10"]
    page = text(response)
    assert "Settling up between guests · Guests pay each other (fewest transfers)" in page
    assert "At the bank" in page and "The house's cut tonight: $0." in page
    assert 'action="{}"'.format(reverse("ledger:transfer_record", args=[event.pk])) in (
        response.content.decode()
    )


def test_a_dealer_sees_the_proposal_but_records_nothing(client, dealer, night):
    event, _shoe, g = night
    client.force_login(dealer)
    response = client.get(reverse("ledger:event_detail", args=[event.pk]))
    assert proposal(response) == ["A pays B $50", "C pays D $20", "C pays E $10"]
    assert reverse("ledger:transfer_record", args=[event.pk]) not in response.content.decode()
    assert pay(client, event, g["A"], g["B"], "50").status_code == 403
    assert not Transfer.objects.exists()


def test_a_punto_banco_night_has_no_settling_up_between_guests(client, host, event):
    client.force_login(host)
    response = client.get(reverse("ledger:event_detail", args=[event.pk]))
    assert 'id="clearing"' not in response.content.decode()
    assert 'id="stints"' not in response.content.decode()


def test_recording_a_line_in_part_leaves_the_rest_proposed(client, host, night):
    event, _shoe, g = night
    client.force_login(host)
    response = pay(client, event, g["A"], g["B"], "20")
    assert response.status_code == 302
    assert response["Location"].endswith("#clearing")
    page = client.get(response["Location"])
    assert MSG_TRANSFER_RECORDED.format(payer="A", payee="B", amount="$20") in text(page)
    assert proposal(page) == ["A pays B $30", "C pays D $20", "C pays E $10"]
    # With htmx the page reloads where it stands (a redirect to the same page and a fragment
    # would load nothing): its settlement list counts the transfer.
    response = pay(client, event, g["A"], g["B"], "30", HTMX)
    assert response.status_code == 200
    assert response["HX-Refresh"] == "true"
    page = client.get(reverse("ledger:event_detail", args=[event.pk]))
    assert MSG_TRANSFER_RECORDED.format(payer="A", payee="B", amount="$30") in text(page)
    assert proposal(page) == ["C pays D $20", "C pays E $10"]
    # A paid B all 50: square in the settlement list; B received it: square too.
    for guest in (g["A"], g["B"]):
        row = re.search(rf'data-guest="{guest.pk}">(.*?)</tr>', page.content.decode(), re.S)
        assert row is not None and ">square<" in row.group(1)
    assert [(t.payer, t.payee, t.amount) for t in Transfer.objects.order_by("pk")] == [
        (g["A"], g["B"], D("20")),
        (g["A"], g["B"], D("30")),
    ]


def test_a_double_tap_records_a_transfer_once(client, host, night):
    event, _shoe, g = night
    client.force_login(host)
    key = str(uuid.uuid4())
    for _tap in range(2):
        assert pay(client, event, g["C"], g["E"], "10", idempotency_key=key).status_code == 302
    assert Transfer.objects.count() == 1


@pytest.mark.parametrize(
    ("payer", "payee", "amount", "message"),
    [
        ("A", "B", "0", str(MSG_TRANSFER_NOT_POSITIVE)),
        ("A", "B", "-5", MSG_CHIPS_AMOUNT.format(maximum="99,999,999,999.99")),
        ("A", "B", "10.005", MSG_CHIPS_AMOUNT.format(maximum="99,999,999,999.99")),
        ("A", "B", "ten", MSG_CHIPS_AMOUNT.format(maximum="99,999,999,999.99")),
        ("A", "B", "60", MSG_OVER_PAYER.format(payer="A", due="$50", amount="$60")),
        ("C", "E", "20", MSG_OVER_PAYEE.format(payee="E", due="$10", amount="$20")),
        ("A", "A", "10", MSG_TRANSFER_SELF.format(payer="A")),
        ("A", "stranger", "10", str(MSG_UNKNOWN_PARTY)),
    ],
)
@pytest.mark.parametrize("htmx", [False, True])
def test_bad_input_comes_back_with_the_reason_and_stores_nothing(
    client, host, night, payer, payee, amount, message, htmx
):
    event, _shoe, g = night
    stranger = guest_services.guest_create(name="Stranger")
    parties = g | {"stranger": stranger}
    client.force_login(host)
    response = pay(client, event, parties[payer], parties[payee], amount, HTMX if htmx else None)
    assert response.status_code == (200 if htmx else 400)
    assert message in text(response)
    assert not Transfer.objects.exists()
    # The line that was refused keeps what was typed; the proposal is unchanged.
    assert proposal(response) == ["A pays B $50", "C pays D $20", "C pays E $10"]


def test_a_refused_other_transfer_comes_back_in_its_form(client, host, night):
    event, _shoe, g = night
    client.force_login(host)
    response = pay(client, event, g["B"], g["D"], "5", other="1")
    assert response.status_code == 400
    assert '<details class="transfer-other" open>' in response.content.decode()
    assert not Transfer.objects.exists()


def test_a_transfer_is_voided_with_a_reason(client, host, night):
    event, _shoe, g = night
    client.force_login(host)
    pay(client, event, g["A"], g["B"], "50")
    transfer = Transfer.objects.get()
    url = reverse("ledger:transfer_void", args=[transfer.pk])
    response = client.post(url, {"reason": ""}, **HTMX)
    assert str(MSG_TRANSFER_VOID_REASON) in text(response)
    assert Transfer.objects.count() == 1
    assert 'id="clearing"' in response.content.decode() and "<html" not in response.content.decode()
    response = client.post(url, {"reason": "Wrong pair"})
    page = client.get(response["Location"])
    assert MSG_TRANSFER_VOIDED.format(
        payer="A", payee="B", amount="$50", reason="Wrong pair"
    ) in text(page)
    assert proposal(page) == ["A pays B $50", "C pays D $20", "C pays E $10"]
    assert Transfer.objects.filter(voids=transfer, payer=g["B"], payee=g["A"]).exists()


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_event_page_runs_constant_queries_with_3_or_30_coups(
    client, host, make_event, django_assert_max_num_queries
):
    client.force_login(host)
    event, shoe, g = seven_guest_night(make_event, host, taxe_rate=D("0.05"))
    for _n in range(3):
        coup(
            shoe,
            host,
            banker=1,
            bank="20",
            result="banker",
            covers=[(2, "ordinary", "20")],
            move="retire",
        )
    url = reverse("ledger:event_detail", args=[event.pk])
    small = queries(client, url)
    for n in range(27):
        banker, ponte = 1 + n % 7, 1 + (n + 3) % 7
        coup(
            shoe,
            host,
            banker=banker,
            bank="20",
            result="banker" if n % 3 else "player",
            covers=[(ponte, "ordinary", "20")],
            move="retire" if n % 3 else "",
        )
    for line in proposed_transfers(event)[:2]:
        payer, payee = g.get(line.payer.name), g.get(line.payee.name)
        assert pay(client, event, payer, payee, str(line.amount / 2)).status_code == 302
    transfer = Transfer.objects.first()
    assert transfer is not None
    pay_back = reverse("ledger:transfer_void", args=[transfer.pk])
    client.post(pay_back, {"reason": "x"})
    with django_assert_max_num_queries(small):
        assert client.get(url).status_code == 200
