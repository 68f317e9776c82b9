"""check_ledger over the count: a night counted, adjusted and kept by its count alone checks
clean; each row tampered with behind the services is named."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.count import services
from ledger.guests import services as guest_services
from ledger.integrity import check_ledger
from ledger.models import Adjustment, ChipMove, CountSetup, GuestEventResult
from tests.conftest import bet

D = Decimal
pytestmark = pytest.mark.django_db


def problems(event=None):
    return [(p.model, p.message) for p in check_ledger(event).problems]


@pytest.fixture
def counted_night(event, guests, seated, shoe, host, record):
    aki, ben = guests[0], guests[1]
    services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    wrong = services.chips_record(
        event=event, guest=ben, kind="buy_in", chips=D(300), source="marker", by=host
    )
    services.chips_void(move=wrong, reason="another guest's", by=host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.chips_record(
        event=event, guest=aki, kind="count", by_denomination={"100": 6, "25": 1}, by=host
    )
    services.adjustment_record(event=event, guest=aki, amount=D(-25), reason="a lost bet", by=host)
    return event


def test_a_counted_and_adjusted_night_checks_clean(counted_night):
    assert problems() == []
    assert problems(counted_night) == []


def test_a_count_only_night_checks_clean_and_its_results_are_checked(event, guests, host):
    services.count_setup_save(event=event, by=host, count_only=True)
    services.chips_record(
        event=event, guest=guests[0], kind="buy_in", chips=D(500), source="cash", by=host
    )
    services.chips_record(event=event, guest=guests[0], kind="count", chips=D(650), by=host)
    assert problems() == []
    GuestEventResult.objects.filter(event=event).update(gross=D(100), net=D(100))
    assert "GuestEventResult" in {model for model, _ in problems()}


def test_one_night_checks_clean_when_its_guest_has_results_at_a_count_only_night(
    make_event, event, guests, host
):
    # The guest's balance counts their result at another night kept by its count alone, and an
    # adjustment at a third: checking this night alone must count them too.
    counted, adjusted = make_event(name="Counted elsewhere"), make_event(name="Adjusted")
    for night in (counted, adjusted):
        guest_services.event_guest_add(event=night, name=guests[0].name, by=host)
    services.count_setup_save(event=counted, by=host, count_only=True)
    services.chips_record(event=counted, guest=guests[0], kind="buy_in", chips=D(500), by=host,
                          source="cash")  # fmt: skip
    services.chips_record(event=counted, guest=guests[0], kind="count", chips=D(400), by=host)
    services.adjustment_record(event=adjusted, guest=guests[0], amount=D(-5), reason="x", by=host)
    assert problems() == []
    assert problems(event) == []


def test_rows_tampered_with_are_named(counted_night, shoe, host, record):
    void = ChipMove.objects.get(voids__isnull=False)
    ChipMove.objects.filter(pk=void.pk).update(chips=D(-30))
    counted = ChipMove.objects.get(kind="count")
    ChipMove.objects.filter(pk=counted.pk).update(by_denomination={"100": 5})
    found = problems()
    assert ("ChipMove", "its void is not its exact opposite") in found
    assert ("ChipMove", "its chips by denomination do not add up to its chips") in found


def test_an_adjustment_outside_the_services_is_caught_in_the_results(counted_night, guests, host):
    Adjustment.objects.create(
        event=counted_night, guest=guests[1], amount=D(40), reason="x", recorded_by=host
    )
    assert any(model == "GuestEventResult" for model, _ in problems())


def test_a_count_only_night_with_hands_is_named(counted_night):
    CountSetup.objects.update_or_create(event=counted_night, defaults={"count_only": True})
    assert ("Event", "it is kept by its count alone but has hands logged") in problems()
