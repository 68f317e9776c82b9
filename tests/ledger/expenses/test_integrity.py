"""``check_ledger`` covers expenses: a clean night with expenses and voids has no problem, and a
tampered row is named with what is wrong."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.expenses import services
from ledger.expenses.integrity import (
    MSG_EXPENSE_NOT_ON_LIST,
    MSG_EXPENSE_SHARES_RULE,
    MSG_EXPENSE_SHARES_SUM,
    MSG_EXPENSE_VOID_NOT_OPPOSITE,
)
from ledger.guests import services as guest_services
from ledger.integrity import check_ledger
from ledger.models import Expense, ExpenseShare
from ledger.money.results import event_settlement

D = Decimal
pytestmark = pytest.mark.django_db


@pytest.fixture
def night(event, guests, host):
    aki, ben, chie = guests[:3]
    kept = services.expense_record(
        event=event, what="Pizza", amount=D(100), paid_by=aki,
        sharers=[(aki, 1), (ben, 1), (chie, 1), (None, 1)], by=host,
    )  # fmt: skip
    voided = services.expense_record(
        event=event, what="Drinks", amount=D("10.01"), paid_by=None,
        sharers=[(ben, 2), (chie, 1)], split="shares", by=host,
    )  # fmt: skip
    void = services.expense_void(expense=voided, reason="wrong night", by=host)
    return kept, voided, void


def named(event=None) -> set[tuple[str, int, str]]:
    return {(p.model, p.pk, p.message) for p in check_ledger(event).problems}


def test_a_night_with_expenses_and_a_void_is_clean(event, night):
    assert check_ledger().problems == []
    assert check_ledger(event).problems == []
    assert event_settlement(event)  # the list the check compares against


def test_a_share_changed_underneath_is_named(event, night, guests):
    kept, _voided, _void = night
    share = ExpenseShare.objects.get(expense=kept, guest=guests[1])
    ExpenseShare.objects.filter(pk=share.pk).update(amount=D("30"))
    found = named(event)
    assert ("Expense", kept.pk, MSG_EXPENSE_SHARES_SUM) in found


def test_shares_that_add_up_but_break_the_odd_cent_rule_are_named(event, night, guests):
    kept, _voided, _void = night
    # 25 each, 100 in all: the first by id had the odd cent... move it to the house.
    ExpenseShare.objects.filter(expense=kept, guest=guests[0]).update(amount=D(25))
    ExpenseShare.objects.filter(expense=kept, guest__isnull=True).update(amount=D(25))
    assert ("Expense", kept.pk, MSG_EXPENSE_SHARES_RULE) not in named(event)  # 100/4: even
    ExpenseShare.objects.filter(expense=kept, guest=guests[0]).update(amount=D("24.99"))
    ExpenseShare.objects.filter(expense=kept, guest__isnull=True).update(amount=D("25.01"))
    assert ("Expense", kept.pk, MSG_EXPENSE_SHARES_RULE) in named(event)


def test_a_sharer_of_another_night_is_named(event, make_event, night, host):
    kept, _voided, _void = night
    other = make_event(name="Elsewhere")
    zed = guest_services.event_guest_add(event=other, name="Zed", by=host)
    ExpenseShare.objects.filter(expense=kept, guest__isnull=True).update(guest=zed)
    assert ("Expense", kept.pk, MSG_EXPENSE_NOT_ON_LIST) in named()


def test_a_void_that_is_not_its_row_s_opposite_is_named(event, night):
    _kept, voided, void = night
    Expense.objects.filter(pk=void.pk).update(amount=D("-10.00"))
    ExpenseShare.objects.filter(expense=void).update(amount=D("-5.00"))
    assert ("Expense", voided.pk, MSG_EXPENSE_VOID_NOT_OPPOSITE) in named(event)
