"""check_ledger over the tips and the tab: a night with tips checks clean, each row tampered
with behind the services is named, and every night with tips stays zero-sum with its pool."""

from __future__ import annotations

from decimal import Decimal
from uuid import uuid4

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services as game_services
from games.models import Event
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import check_ledger
from ledger.models import Settlement, Tip
from ledger.money import services as money_services
from ledger.money.lines import ledger_lines
from ledger.money.results import house_rows
from ledger.tips import integrity, services
from ledger.tips.selectors import night_pool
from tests.conftest import bet, examples

D = Decimal
pytestmark = pytest.mark.django_db


def problems(event=None):
    return [(p.model, p.pk, p.message) for p in check_ledger(event).problems]


@pytest.fixture
def tipped(event, guests, seated, shoe, host, dealer, record):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.shift_start(event=event, dealer=dealer, by=host)
    services.tip_record(
        event=event, guest=guests[0], amount=D(10), source="hand_win", hand=hand, by=host
    )
    wrong = services.tip_record(event=event, guest=guests[1], amount=D(3), source="chips", by=host)
    services.tip_void(tip=wrong, reason="another guest's", by=host)
    money_services.settlement_record(
        guest=guests[0], event=event, amount=D(-90), method="tab", tab_reference="Table 4", by=host
    )
    return event


def test_a_night_with_tips_and_the_tab_checks_clean(tipped):
    assert problems() == []
    assert problems(tipped) == []


def test_a_tip_changed_behind_the_services_is_named(tipped):
    tip = Tip.objects.get(source="hand_win")
    Tip.objects.filter(pk=tip.pk).update(amount=D(150))
    assert ("Tip", tip.pk, integrity.MSG_MORE_THAN_WON) in problems(tipped)
    void = Tip.objects.get(voids__isnull=False)
    Tip.objects.filter(pk=void.pk).update(amount=D(-4))
    assert ("Tip", void.pk, integrity.MSG_VOID_NOT_OPPOSITE) in problems(tipped)


def test_a_keyed_tip_changed_behind_the_services_is_named(event, guests, host):
    tip = services.tip_record(
        event=event, guest=guests[0], amount=D(5), source="money", by=host, idempotency_key=uuid4()
    )
    assert problems(event) == []
    Tip.objects.filter(pk=tip.pk).update(amount=D(6))
    assert ("Tip", tip.pk, integrity.MSG_DIGEST) in problems(event)


def test_a_tip_of_a_guest_off_the_list_is_named(tipped, make_event, host):
    other = make_event(name="Other night")
    stranger = guest_services.event_guest_add(event=other, name="Zed", by=host)
    tip = Tip.objects.filter(voids__isnull=True).first()
    Tip.objects.filter(pk=tip.pk).update(guest=stranger)
    assert ("Tip", tip.pk, integrity.MSG_NOT_ON_LIST) in problems(tipped)


def test_a_tab_reference_on_another_way_is_named(tipped):
    settlement = Settlement.objects.get()
    Settlement.objects.filter(pk=settlement.pk).update(method="cash")
    assert ("Settlement", settlement.pk, integrity.MSG_TAB_REFERENCE) in problems(tipped)


def test_a_tab_settlement_s_void_keeps_its_tab(tipped, host):
    settlement = Settlement.objects.get()
    void = money_services.settlement_void(settlement=settlement, reason="not yet", by=host)
    assert void.tab_reference == "Table 4"
    assert problems(tipped) == []
    Settlement.objects.filter(pk=void.pk).update(tab_reference="Table 5")
    assert ("Settlement", void.pk, integrity.MSG_TAB_VOID) in problems(tipped)


def test_only_the_tab_names_a_tab(event, guests, host):
    with pytest.raises(ValidationError) as error:
        money_services.settlement_record(
            guest=guests[0], event=event, amount=D(5), method="cash", tab_reference="4", by=host
        )
    assert error.value.message_dict["tab_reference"] == [money_services.MSG_TAB_ONLY]


tips = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.decimals(min_value=D("0.01"), max_value=D(50), places=2),
        st.sampled_from(["chips", "money"]),
        st.booleans(),  # voided
    ),
    max_size=6,
)


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    stakes=st.lists(st.decimals(min_value=D(10), max_value=D(500), places=2), max_size=4),
    tips=tips,
)
def test_every_night_with_tips_is_zero_sum_with_its_pool(stakes, tips, make_event, host, record):
    with transaction.atomic():
        event = make_event()
        add = guest_services.event_guest_add
        guests = [add(event=event, name=f"T{n}", by=host) for n in range(4)]
        shoe = game_services.shoe_start(event=event, by=host)
        for seat, guest in enumerate(guests, start=1):
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
        for n, stake in enumerate(stakes):
            record(shoe, "9 7", "J J 10", [bet(n % 4 + 1, "banker" if n % 2 else "player", stake)])
        for index, amount, source, voided in tips:
            tip = services.tip_record(
                event=event, guest=guests[index], amount=amount, source=source, by=host
            )
            if voided:
                services.tip_void(tip=tip, reason="mistake", by=host)
        night = Event.objects.filter(pk=event.pk)
        guests_net = sum((line.amount for line in ledger_lines(events=night)), D(0))
        house = house_rows(night)[0].figures.house_net
        pool = night_pool(event).total
        assert pool == sum((a for _i, a, _s, voided in tips if not voided), D(0))
        assert guests_net + house + pool == 0
        assert check_ledger(event).problems == []
        transaction.set_rollback(True)
