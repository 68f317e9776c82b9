"""Tips recorded and voided, the dealers' shifts, the pool and each dealer's share, and the
night that stays zero-sum with its pool."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.models import Event
from ledger.models import AuditEntry, Bet, DealerShift, Tip
from ledger.money.lines import LineKind, ledger_lines
from ledger.money.results import event_settlement, guest_balance_now, house_rows
from ledger.nights import services as night_services
from ledger.tips import services
from ledger.tips.selectors import BY_TIME, BY_TIME_SO_FAR, EQUALLY, dealer_nights, night_pool
from shoebook.base.roles import DEALERS
from tests.conftest import bet, make_user

D = Decimal
pytestmark = pytest.mark.django_db


def test_a_tip_leaves_the_guest_s_balance_and_not_the_house_s_result(
    event, guests, seated, shoe, host, record
):
    aki = guests[0]
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # Aki wins 100

    house_before = house_rows(Event.objects.filter(pk=event.pk))[0].figures.house_net
    tip = services.tip_record(
        event=event, guest=aki, amount=D(10), source=Tip.Source.HAND_WIN, hand=hand, by=host
    )
    assert guest_balance_now(guest_id=aki.pk) == D(90)
    house_after = house_rows(Event.objects.filter(pk=event.pk))[0].figures.house_net
    assert house_after == house_before == D(-100)
    assert night_pool(event).total == D(10)
    line = next(line for line in event_settlement(event) if line.guest_id == aki.pk)
    assert (line.result, line.after) == (D(90), D(90))
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TIP).count() == 1
    # guests' net (results and tips) + the house's net + the pool = 0
    night = Event.objects.filter(pk=event.pk)
    guests_net = sum((line.amount for line in ledger_lines(events=night)), D(0))
    assert guests_net + house_after + night_pool(event).total == 0
    services.tip_void(tip=tip, reason="wrong guest", by=host)
    assert guest_balance_now(guest_id=aki.pk) == D(100)
    assert night_pool(event).total == 0


def test_a_tip_from_a_win_is_at_most_the_win_and_the_hand_is_the_night_s(
    event, guests, seated, shoe, host, record
):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    with pytest.raises(ValidationError) as error:
        services.tip_record(
            event=event, guest=guests[0], amount=D(101), source="hand_win", hand=hand, by=host
        )
    assert "amount" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.tip_record(
            event=event, guest=guests[1], amount=D(1), source="hand_win", hand=hand, by=host
        )  # Ben did not bet on it
    assert "amount" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        services.tip_record(
            event=event, guest=guests[0], amount=D(1), source="money", hand=hand, by=host
        )
    assert error.value.message_dict["hand"] == [services.MSG_HAND_ONLY_FROM_A_WIN]
    assert not Tip.objects.exists()


@pytest.mark.parametrize("amount", [D(0), D(-5), D("0.001"), D("NaN")])
def test_a_tip_is_a_positive_amount_in_cents(event, guests, host, amount):
    with pytest.raises(ValidationError) as error:
        services.tip_record(event=event, guest=guests[0], amount=amount, source="chips", by=host)
    assert "amount" in error.value.message_dict


def test_the_same_key_records_one_tip_and_other_content_is_refused(event, guests, host):
    key = uuid.uuid4()
    first = services.tip_record(
        event=event, guest=guests[0], amount=D(5), source="money", by=host, idempotency_key=key
    )
    again = services.tip_record(
        event=event, guest=guests[0], amount=D(5), source="money", by=host, idempotency_key=key
    )
    assert again.pk == first.pk
    with pytest.raises(ValidationError):
        services.tip_record(
            event=event, guest=guests[0], amount=D(6), source="money", by=host, idempotency_key=key
        )
    assert Tip.objects.count() == 1


def test_a_void_is_voided_once_and_never_voided_itself(event, guests, host):
    tip = services.tip_record(event=event, guest=guests[0], amount=D(5), source="chips", by=host)
    void = services.tip_void(tip=tip, reason="mistake", by=host)
    assert void.amount == D(-5) and void.voids_id == tip.pk
    with pytest.raises(ValidationError):
        services.tip_void(tip=tip, reason="again", by=host)
    with pytest.raises(ValidationError):
        services.tip_void(tip=void, reason="void of void", by=host)


def _ago(minutes: int) -> dt.datetime:
    return timezone.now() - dt.timedelta(minutes=minutes)


def test_the_pool_is_shared_by_time_at_the_table_to_the_cent(event, guests, host, dealer):
    other = make_user("second", DEALERS)
    services.shift_start(
        event=event, dealer=dealer, by=host, started_at=_ago(90), ended_at=_ago(30)
    )
    services.shift_start(event=event, dealer=other, by=host, started_at=_ago(30), ended_at=_ago(0))
    services.tip_record(event=event, guest=guests[0], amount=D("100.00"), source="money", by=host)
    pool = night_pool(event)
    assert pool.rule == BY_TIME
    shares = {share.dealer_id: share.amount for share in pool.shares}
    assert shares == {dealer.pk: D("66.67"), other.pk: D("33.33")}
    services.tip_sharing_set(event=event, way="equal", by=host)
    pool = night_pool(event)
    assert pool.rule == EQUALLY
    assert {share.amount for share in pool.shares} == {D("50.00")}
    # Each dealer's page reads their own share only.
    (night,) = dealer_nights(other)
    assert night.share.dealer_id == other.pk and night.share.amount == D("50.00")


def test_while_a_shift_is_open_its_time_so_far_counts_and_the_close_ends_it(
    event, guests, seated, shoe, host, dealer, record
):
    # The host logs every hand: the hands a dealer logged are no measure of their time.
    other = make_user("second", DEALERS)
    services.shift_start(event=event, dealer=dealer, by=host, started_at=_ago(15))
    services.shift_start(event=event, dealer=other, by=host, started_at=_ago(10), ended_at=_ago(5))
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)], by=host)
    services.tip_record(event=event, guest=guests[0], amount=D("10.00"), source="chips", by=host)
    pool = night_pool(event)
    assert pool.rule == BY_TIME_SO_FAR
    shares = {share.dealer_id: share.amount for share in pool.shares}
    assert shares == {dealer.pk: D("7.50"), other.pk: D("2.50")}  # 15 minutes so far to 5
    night_services.shoe_close(shoe=shoe, by=host)
    night_services.event_close(event=event, by=host)
    assert not DealerShift.objects.filter(event=event, ended_at__isnull=True).exists()
    assert night_pool(event).rule == BY_TIME


def test_a_closed_night_takes_no_tip_shift_or_sharing(event, guests, seated, shoe, host, dealer):
    tip = services.tip_record(event=event, guest=guests[0], amount=D(5), source="money", by=host)
    night_services.shoe_close(shoe=shoe, by=host)
    night_services.event_close(event=event, by=host)
    for write in (
        lambda: services.tip_record(
            event=event, guest=guests[0], amount=D(1), source="money", by=host
        ),
        lambda: services.tip_void(tip=tip, reason="typed twice", by=host),
        lambda: services.tip_sharing_set(event=event, way="equal", by=host),
        lambda: services.shift_start(event=event, dealer=dealer, by=dealer),
    ):
        with pytest.raises(ValidationError, match="closed"):
            write()
    assert Tip.objects.count() == 1 and not DealerShift.objects.exists()


def test_tips_from_one_hand_add_up_to_at_most_its_win(event, guests, seated, shoe, host, record):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 25)])
    won = Bet.objects.get(hand=hand).net
    first = services.tip_record(
        event=event, guest=seated[1], amount=D(5), source="hand_win", hand=hand, by=host
    )
    with pytest.raises(ValidationError, match="at most"):
        services.tip_record(
            event=event, guest=seated[1], amount=won, source="hand_win", hand=hand, by=host
        )
    services.tip_void(tip=first, reason="typed twice", by=host)  # a voided tip frees its part
    services.tip_record(
        event=event, guest=seated[1], amount=won, source="hand_win", hand=hand, by=host
    )


def test_a_dealer_s_shifts_do_not_overlap(event, host, dealer):
    services.shift_start(
        event=event, dealer=dealer, by=host, started_at=_ago(60), ended_at=_ago(30)
    )
    with pytest.raises(ValidationError, match="overlap"):
        services.shift_start(
            event=event, dealer=dealer, by=host, started_at=_ago(45), ended_at=_ago(20)
        )
    with pytest.raises(ValidationError, match="overlap"):
        services.shift_start(event=event, dealer=dealer, by=host, started_at=_ago(50))


def test_a_dealer_records_only_their_own_shift_once_at_a_time(event, host, dealer, outsider):
    other = make_user("second", DEALERS)
    with pytest.raises(ValidationError):
        services.shift_start(event=event, dealer=other, by=dealer)
    with pytest.raises(ValidationError) as error:
        services.shift_start(event=event, dealer=outsider, by=host)
    assert "dealer" in error.value.message_dict
    shift = services.shift_start(event=event, dealer=dealer, by=dealer)
    with pytest.raises(ValidationError):
        services.shift_start(event=event, dealer=dealer, by=dealer)
    with pytest.raises(ValidationError):
        services.shift_stop(shift=shift, by=other)
    services.shift_stop(shift=shift, by=dealer)
    with pytest.raises(ValidationError):
        services.shift_stop(shift=shift, by=dealer)
    assert DealerShift.objects.get().ended_at is not None


def test_a_tip_line_is_minus_the_tip(event, guests, host):
    services.tip_record(event=event, guest=guests[0], amount=D(7), source="money", by=host)
    (line,) = ledger_lines(guests=[guests[0].pk], kinds={LineKind.TIP})
    assert line.amount == D(-7)


def test_chips_tipped_at_the_table_go_to_the_tips_box_and_the_count_reconciles(
    event, guests, seated, shoe, host, record
):
    from ledger.count import services as count_services
    from ledger.count.selectors import night_count

    aki = guests[0]
    count_services.chips_record(
        event=event, guest=aki, kind="buy_in", chips=D(500), source="cash", by=host
    )
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # Aki: 600 on the table
    services.tip_record(event=event, guest=aki, amount=D(25), source="hand_win", hand=hand, by=host)
    services.tip_record(event=event, guest=aki, amount=D(40), source="money", by=host)  # not chips
    count_services.chips_record(event=event, guest=aki, kind="count", chips=D(575), by=host)
    rec = night_count(event).reconciliation
    (row,) = [row for row in rec.guests if row.guest == aki.pk]
    assert (row.tipped, row.expected, row.difference) == (D(25), D(575), D(0))
    assert rec.tips_box == D(25)
    assert rec.table.taken == rec.table.expected


def test_a_night_kept_by_its_count_alone_takes_tips_in_money_only(event, guests, host):
    from ledger.count import services as count_services

    count_services.count_setup_save(event=event, by=host, count_only=True)
    with pytest.raises(ValidationError) as error:
        services.tip_record(event=event, guest=guests[0], amount=D(5), source="chips", by=host)
    assert error.value.message_dict["source"] == [services.MSG_CHIPS_IN_THE_COUNT]
    services.tip_record(event=event, guest=guests[0], amount=D(5), source="money", by=host)


def test_a_shift_entered_by_mistake_is_removed_with_its_reason(event, guests, host, dealer):
    other = make_user("second", DEALERS)
    services.shift_start(event=event, dealer=dealer, by=host, started_at=_ago(60), ended_at=_ago(0))
    wrong = services.shift_start(
        event=event, dealer=other, by=host, started_at=_ago(60), ended_at=_ago(0)
    )
    services.tip_record(event=event, guest=guests[0], amount=D(10), source="money", by=host)
    with pytest.raises(ValidationError):
        services.shift_remove(shift=wrong, reason=" ", by=host)
    services.shift_remove(shift=wrong, reason="not tonight", by=host)
    assert [share.amount for share in night_pool(event).shares] == [D(10)]
    with pytest.raises(ValidationError) as error:
        services.shift_remove(shift=wrong, reason="again", by=host)
    assert error.value.messages == [services.MSG_SHIFT_GONE]
    assert AuditEntry.objects.filter(summary="second: not tonight", after__isnull=True).exists()
