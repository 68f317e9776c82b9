"""The night's expenses through its pages: the panel the night's page loads in place, the form
(equal or by shares, everyone or some, the house too), a double tap recorded once, refusals in
words with a 400, voids, and a constant number of queries."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils.html import escape

from ledger.expenses import services
from ledger.expenses.forms import MSG_EXPENSE_UNKNOWN_BOX
from ledger.expenses.views import MSG_ODD_CENT
from ledger.models import Expense, ExpenseShare
from ledger.money.results import guest_balance_now

D = Decimal
pytestmark = pytest.mark.django_db
EXPENSES_PAGE_QUERIES = 9


def post(client, event, headers=None, **fields):
    data = {
        "what": "Pizza",
        "amount": "60",
        "paid_by": "house",
        "paid_in": "money",
        "split": "equal",
        "idempotency_key": str(uuid.uuid4()),
    } | fields
    return client.post(reverse("ledger:expense_record", args=[event.pk]), data, headers=headers)


def test_the_night_s_page_loads_the_expenses_panel_in_place(client, host, event, guests):
    client.force_login(host)
    page = client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    assert f'hx-get="{reverse("ledger:expense_page", args=[event.pk])}"' in page
    panel = client.get(reverse("ledger:expense_page", args=[event.pk]), HTTP_HX_REQUEST="true")
    text = panel.content.decode()
    assert text.startswith('<section id="expenses"') and str(MSG_ODD_CENT)[:40] in text
    assert f'name="share_{guests[0].pk}"' in text and 'name="share_house"' in text


def test_everyone_at_the_night_shares_equally_and_a_double_tap_records_once(
    client, host, event, guests
):
    client.force_login(host)
    key = str(uuid.uuid4())
    first = post(client, event, everyone="on", amount="80", idempotency_key=key)
    assert first.status_code == 302 and first.url.endswith("#expenses")
    assert post(client, event, everyone="on", amount="80", idempotency_key=key).status_code == 302
    expense = Expense.objects.get()
    assert expense.shares.count() == len(guests) and expense.paid_by is None
    assert {s.amount for s in expense.shares.all()} == {D(10)}
    assert guest_balance_now(guest_id=guests[0].pk) == D(-10)


def test_by_shares_a_guest_pays_from_their_stack_for_two_and_the_house(client, host, event, guests):
    client.force_login(host)
    aki, ben = guests[:2]
    fields = {
        "split": "shares",
        "paid_by": str(aki.pk),
        "paid_in": "stack",
        f"share_{aki.pk}": "２",  # a Japanese phone's full-width digit
        f"share_{ben.pk}": "1",
        "share_house": "1",
        "amount": "10.01",
    }
    answer = post(client, event, {"HX-Request": "true"}, **fields)
    assert answer.status_code == 200 and answer.headers["HX-Refresh"] == "true"
    shares = [(s.guest_id, s.weight, s.amount) for s in ExpenseShare.objects.order_by("id")]
    assert shares == [(aki.pk, 2, D("5.01")), (ben.pk, 1, D("2.50")), (None, 1, D("2.50"))]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"amount": "0", "share_house": "1"}, "above zero"),
        ({"amount": "1e9", "share_house": "1"}, "Type an amount"),
        ({"share_house": "①"}, "a whole number from 0 to 1000"),
        ({"share_house": "1001"}, "a whole number from 0 to 1000"),
        ({}, "Say who shares"),
        ({"share_house": "1", "paid_in": "tray", "paid_by": "GUEST"}, "the house paid"),
        ({"share_house": "1", "what": "  "}, "Say what"),
        ({"share_house": "1", "share_99999": "1"}, "share_99999"),
    ],
)
def test_a_refused_expense_comes_back_with_its_reason_and_nothing_recorded(
    client, host, event, guests, fields, words
):
    client.force_login(host)
    fields = {k: (str(guests[0].pk) if v == "GUEST" else v) for k, v in fields.items()}
    answer = post(client, event, **fields)
    assert answer.status_code == 400
    assert words in answer.content.decode().replace("&#x27;", "'")
    assert not Expense.objects.exists()


def test_a_share_box_of_a_guest_of_another_night_is_refused_by_name(
    client, host, event, make_event, guests
):
    from ledger.guests import services as guest_services

    other = make_event(name="Elsewhere")
    zed = guest_services.event_guest_add(event=other, name="Zed", by=host)
    client.force_login(host)
    answer = post(client, event, **{"share_house": "1", f"share_{zed.pk}": "1"})
    assert answer.status_code == 400
    refusal = escape(MSG_EXPENSE_UNKNOWN_BOX.format(box=f"share_{zed.pk}"))
    assert refusal in answer.content.decode()
    assert not Expense.objects.exists()


def test_a_void_from_the_page_takes_the_expense_back(client, host, event, guests):
    expense = services.expense_record(
        event=event, what="Drinks", amount=D(20), paid_by=None, sharers=[(guests[0], 1)], by=host
    )
    client.force_login(host)
    url = reverse("ledger:expense_void", args=[expense.pk])
    assert client.post(url, {"reason": ""}).status_code == 400
    assert client.post(url, {"reason": "wrong night"}).status_code == 302
    assert guest_balance_now(guest_id=guests[0].pk) == 0
    again = client.post(url, {"reason": "again"})
    assert again.status_code == 400 and "already voided" in again.content.decode()


@pytest.mark.parametrize("size", [1, 12])
def test_the_expenses_page_reads_a_constant_number_of_queries(
    client, host, event, guests, size, django_assert_max_num_queries
):
    for n in range(size):
        expense = services.expense_record(
            event=event, what=f"Round {n}", amount=D(7), paid_by=guests[n % 3],
            sharers=[(g, 1) for g in guests], by=host,
        )  # fmt: skip
        if n % 2:
            services.expense_void(expense=expense, reason="no", by=host)
    client.force_login(host)
    with django_assert_max_num_queries(EXPENSES_PAGE_QUERIES):
        page = client.get(reverse("ledger:expense_page", args=[event.pk]))
    assert page.status_code == 200 and page.content.decode().count('class="expense') >= size


def test_the_night_s_page_gives_the_house_s_side_of_the_expenses(client, host, event, guests):
    services.expense_record(
        event=event, what="Pizza", amount=D(60), paid_by=None,
        sharers=[(guests[0], 1), (guests[1], 1), (None, 1)], by=host,
    )  # fmt: skip
    client.force_login(host)
    page = client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    assert "the house's side (what it paid less its shares): +$40" in page.replace("&#x27;", "'")


def test_the_panel_s_ids_are_its_own_beside_the_settle_form(client, host, event, guests):
    # Loaded into the night's page, a second ``id_amount`` would take the settle form's
    # "Amount" label (and a tap on it) to the expense's amount.
    client.force_login(host)
    address = reverse("ledger:event_detail", args=[event.pk]) + f"?settle={guests[0].pk}"
    page = client.get(address).content.decode()
    panel = client.get(reverse("ledger:expense_page", args=[event.pk]), HTTP_HX_REQUEST="true")
    ids = re.compile(r'\sid="([^"]+)"')
    on_the_page, in_the_panel = set(ids.findall(page)), set(ids.findall(panel.content.decode()))
    assert "id_amount" in on_the_page  # the settle form is there
    assert on_the_page & in_the_panel == {"expenses"}  # the section the panel replaces
