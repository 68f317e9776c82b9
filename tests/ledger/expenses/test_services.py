"""Expenses as the ledger keeps them: shares computed once and stored, in every balance and the
night's settlement list, in the count when paid in chips, keyed, audited and voided by their
opposite."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledger.count import services as count_services
from ledger.count.selectors import night_count
from ledger.expenses import services
from ledger.expenses.selectors import event_expense_rows, expense_nets, guest_expense_rows
from ledger.models import AuditEntry, Expense, ExpenseShare
from ledger.money.results import event_settlement, guest_balance_now
from ledger.nights import services as night_services

D = Decimal
pytestmark = pytest.mark.django_db


def errors(caught) -> str:
    return " ".join(m for messages in caught.value.message_dict.values() for m in messages)


def pizza(event, host, *, paid_by=None, sharers, amount="100", **extra):
    return services.expense_record(
        event=event, what="Pizza", amount=D(amount), paid_by=paid_by, sharers=sharers, by=host,
        **extra,
    )  # fmt: skip


def test_an_equal_split_stores_shares_to_the_cent_the_odd_cent_to_the_first_by_id(
    event, guests, host
):
    aki, ben, chie = guests[:3]
    expense = pizza(event, host, paid_by=aki, sharers=[(chie, 1), (aki, 1), (ben, 1)])
    shares = {s.guest_id: s.amount for s in expense.shares.all()}
    assert shares == {aki.pk: D("33.34"), ben.pk: D("33.33"), chie.pk: D("33.33")}
    # Aki paid 100 and owes 33.34; Ben and Chie owe their shares.
    assert guest_balance_now(guest_id=aki.pk) == D("66.66")
    assert guest_balance_now(guest_id=ben.pk) == D("-33.33")
    audit = AuditEntry.objects.get(action=AuditEntry.Action.EXPENSE)
    assert audit.after["amount"] == "100.00" and len(audit.after["shares"]) == 3


def test_by_shares_2_1_1_with_the_house_the_house_is_last_in_the_order(event, guests, host):
    aki, ben = guests[:2]
    expense = pizza(
        event, host, amount="10.01", sharers=[(None, 1), (ben, 1), (aki, 2)], split="shares"
    )
    shares = [(s.guest_id, s.weight, s.amount) for s in expense.shares.order_by("id")]
    assert shares == [(aki.pk, 2, D("5.01")), (ben.pk, 1, D("2.50")), (None, 1, D("2.50"))]
    nets, house = expense_nets(events=[event.pk])
    # The house paid 10.01 and owes its 2.50 share: it is owed the guests' 7.51.
    assert house == {event.pk: D("7.51")}
    assert sum(nets.values()) + house[event.pk] == 0


def test_an_expense_is_in_the_night_s_settlement_list_as_its_result(event, guests, host):
    aki, ben = guests[:2]
    pizza(event, host, paid_by=aki, sharers=[(aki, 1), (ben, 1)], amount="60")
    lines = {line.guest_id: line for line in event_settlement(event)}
    assert (lines[aki.pk].result, lines[aki.pk].settled) == (D(30), D(0))
    assert lines[ben.pk].result == D(-30)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"amount": D(0)}, "amount", "above zero"),
        ({"amount": D(-5)}, "amount", "above zero"),
        ({"amount": D("1.001")}, "amount", "whole cents"),
        ({"amount": D("NaN")}, "amount", "whole cents"),
        ({"amount": D("1e20")}, "amount", "at most"),
        ({"what": "  "}, "what", "Say what"),
        ({"what": "pizza\u200b"}, "what", "U+200B"),
        ({"what": "x" * 201}, "what", "200"),
        ({"sharers": []}, "sharers", "Say who shares"),
        ({"split": "shares", "sharers": [(None, 0)]}, "sharers", "from 1 to 1000"),
        ({"split": "shares", "sharers": [(None, 1001)]}, "sharers", "from 1 to 1000"),
        ({"paid_in": "stack"}, "paid_in", "say which guest"),
    ],
)
def test_what_an_expense_cannot_be_is_refused_by_its_box(event, guests, host, fields, field, words):
    values = {"what": "Pizza", "amount": D(10), "paid_by": None, "sharers": [(guests[0], 1)]}
    with pytest.raises(ValidationError) as caught:
        services.expense_record(event=event, by=host, **(values | fields))
    assert field in caught.value.message_dict and words in errors(caught)
    assert not Expense.objects.exists()


def test_a_sharer_or_payer_of_another_night_is_refused_by_name(event, make_event, guests, host):
    other = make_event(name="Other night")
    from ledger.guests import services as guest_services

    stranger = guest_services.event_guest_add(event=other, name="Zed", by=host)
    with pytest.raises(ValidationError) as caught:
        pizza(event, host, sharers=[(stranger, 1)])
    assert "Zed is not on this night's guest list" in errors(caught)
    with pytest.raises(ValidationError) as caught:
        pizza(event, host, paid_by=stranger, sharers=[(guests[0], 1)])
    assert "paid_by" in caught.value.message_dict
    assert not Expense.objects.exists()


def test_the_same_key_records_once_and_with_other_content_is_refused(event, guests, host):
    key = uuid.uuid4()
    first = pizza(event, host, sharers=[(guests[0], 1)], idempotency_key=key)
    assert pizza(event, host, sharers=[(guests[0], 1)], idempotency_key=key) == first
    with pytest.raises(ValidationError) as caught:
        pizza(event, host, sharers=[(guests[1], 1)], idempotency_key=key)
    assert "already used" in errors(caught)
    assert Expense.objects.count() == 1 and ExpenseShare.objects.count() == 1


def test_a_void_negates_the_expense_and_every_share_and_the_balances_come_back(event, guests, host):
    aki, ben = guests[:2]
    expense = pizza(event, host, paid_by=aki, sharers=[(aki, 1), (ben, 1)], amount="0.03")
    void = services.expense_void(expense=expense, reason="typed twice", by=host)
    assert void.voids == expense and void.amount == D("-0.03") and void.note == "typed twice"
    assert sorted(s.amount for s in void.shares.all()) == [D("-0.02"), D("-0.01")]
    assert guest_balance_now(guest_id=aki.pk) == 0 == guest_balance_now(guest_id=ben.pk)
    rows = event_expense_rows(event)
    assert [row.can_void for row in rows] == [False, False]
    assert rows[0].voided_by == void and rows[1].void_of == expense
    with pytest.raises(ValidationError) as caught:
        services.expense_void(expense=expense, reason="again", by=host)
    assert "already voided" in errors(caught)
    with pytest.raises(ValidationError) as caught:
        services.expense_void(expense=void, reason="again", by=host)
    assert "itself a void" in errors(caught)
    with pytest.raises(ValidationError) as caught:
        services.expense_void(expense=Expense.objects.get(pk=expense.pk), reason=" ", by=host)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.EXPENSE_VOIDED).count() == 1


def test_a_closed_night_takes_no_expense(event, guests, host):
    night_services.event_close(event=event, by=host)
    with pytest.raises(ValidationError) as caught:
        pizza(event, host, sharers=[(guests[0], 1)])
    assert str(services.MSG_EXPENSE_CLOSED) in errors(caught)


def test_a_guest_sees_what_they_paid_or_share_and_nothing_else(event, guests, host):
    aki, ben, chie = guests[:3]
    paid = pizza(event, host, paid_by=aki, sharers=[(ben, 1)])
    shared = pizza(event, host, sharers=[(chie, 1), (ben, 1)], amount="20")
    assert [row.expense for row in guest_expense_rows(aki)] == [paid]
    assert [row.expense for row in guest_expense_rows(ben)] == [paid, shared]
    assert [row.expense for row in guest_expense_rows(guests[3])] == []


def test_chips_paid_from_a_stack_or_the_tray_reconcile_in_the_count(event, guests, host):
    aki, ben = guests[:2]
    count_services.count_setup_save(event=event, denominations=["1", "5", "25"], by=host)
    for guest in (aki, ben):
        count_services.chips_record(
            event=event, guest=guest, kind="buy_in", chips=D(100), source="cash", by=host
        )
    # Aki pays 20 of drinks from his stack for both; the house pays 10 from the tray for Ben.
    pizza(event, host, paid_by=aki, sharers=[(aki, 1), (ben, 1)], amount="20", paid_in="stack")
    pizza(event, host, sharers=[(ben, 1)], amount="10", paid_in="tray")
    count = night_count(event)
    expected = {row.guest: row.count.expected for row in count.guests}
    assert expected[aki] == D(80) and expected[ben] == D(100)
    assert count.reconciliation.tray.expected == D(-10)


def test_a_merge_moves_the_expenses_and_refuses_two_sharers_of_one(event, guests, host):
    from ledger.guests import services as guest_services

    aki, ben, chie, daisuke = guests[:4]
    paid = pizza(event, host, paid_by=chie, sharers=[(aki, 1), (ben, 1)], amount="10")
    with pytest.raises(ValidationError) as caught:
        guest_services.guest_merge(guest=aki, other=ben, by=host)
    assert "each have a share of one expense (Pizza)" in errors(caught)
    before = guest_balance_now(guest_id=daisuke.pk) + guest_balance_now(guest_id=chie.pk)
    guest_services.guest_merge(guest=daisuke, other=chie, by=host)
    paid.refresh_from_db()
    assert paid.paid_by == daisuke
    assert guest_balance_now(guest_id=daisuke.pk) == before == D(10)


def test_the_guest_s_count_page_says_what_left_their_stack_for_an_expense(
    client, event, guests, host
):
    from django.urls import reverse

    aki, ben = guests[:2]
    count_services.count_setup_save(event=event, denominations=["1", "5", "25"], by=host)
    pizza(event, host, paid_by=aki, sharers=[(ben, 1)], amount="20", paid_in="stack")
    client.force_login(host)
    page = client.get(reverse("ledger:count_guest", args=[event.pk, aki.pk])).content.decode()
    assert "Chips paid or received at the table (transfers, expenses)" in page
    assert "−$20" in page
