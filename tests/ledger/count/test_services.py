"""The count's writes and its reconciliation as the ledger keeps them: chips out and in by
denomination or as a total, keyed, audited and voided by their opposite; a bet missing from the
log named at its guest and found again by a correction; adjustments in the balance; nights kept
by their count alone."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledger.count import services
from ledger.count.selectors import guest_hands, night_count
from ledger.hands import services as hand_services
from ledger.models import Adjustment, AuditEntry, ChipMove, GuestEventResult
from ledger.money.results import event_settlement, guest_balance_now
from ledger.nights import services as night_services
from tests.conftest import bet, entry

D = Decimal
pytestmark = pytest.mark.django_db


def errors(caught) -> str:
    return " ".join(
        message for messages in caught.value.message_dict.values() for message in messages
    )


def buy_in(event, guest, host, chips, source="marker", **extra):
    return services.chips_record(
        event=event, guest=guest, kind="buy_in", chips=D(chips), source=source, by=host, **extra
    )


def count(event, guest, host, **extra):
    return services.chips_record(event=event, guest=guest, kind="count", by=host, **extra)


def test_chips_by_denomination_add_up_and_are_kept_as_counted(event, guests, host):
    aki = guests[0]
    moved = count(event, aki, host, by_denomination={"100": "12", "25": 3, "5": ""})
    assert moved.chips == D(1275)
    assert moved.by_denomination == {"100": 12, "25": 3}
    audit = AuditEntry.objects.get(action=AuditEntry.Action.CHIPS)
    assert audit.after["chips"] == "1275.00" and audit.summary == "Aki"


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"by_denomination": {"7": 2}}, "chips", "7 is not a chip of this night"),
        ({"by_denomination": {"100": -1}}, "chips", "whole number from 0 to 10000"),
        ({"by_denomination": {"100": "2.5"}}, "chips", "whole number"),
        ({"by_denomination": {"100": 2}, "chips": D(250)}, "total", "add up to 200"),
        ({"chips": D("10.001")}, "total", "whole cents"),
        ({"chips": D(-5)}, "total", "positive amount"),
        ({"chips": D("NaN")}, "total", "positive amount"),
        ({}, "__all__", "Nothing was counted"),
    ],
)
def test_a_count_that_does_not_add_up_is_refused_with_its_reason(
    event, guests, host, fields, field, words
):
    with pytest.raises(ValidationError) as caught:
        count(event, guests[0], host, **fields)
    assert field in caught.value.message_dict
    assert words in errors(caught)
    assert not ChipMove.objects.exists()


def test_a_buy_in_of_nothing_is_refused(event, guests, host):
    with pytest.raises(ValidationError) as caught:
        buy_in(event, guests[0], host, 0)
    assert "Nothing was counted" in errors(caught)
    assert not ChipMove.objects.exists()


def test_a_buy_in_says_how_it_was_paid_and_a_count_does_not(event, guests, host):
    with pytest.raises(ValidationError) as caught:
        buy_in(event, guests[0], host, 500, source="")
    assert "how Aki paid" in errors(caught)
    with pytest.raises(ValidationError):
        count(event, guests[0], host, chips=D(500), source="cash")
    assert not ChipMove.objects.exists()


def test_chips_of_a_guest_not_on_the_list_or_at_a_closed_night_are_refused(
    event, guests, host, make_event
):
    other = make_event(name="Other night")
    with pytest.raises(ValidationError) as caught:
        buy_in(other, guests[0], host, 500)
    assert "not on this night" in errors(caught)
    night_services.event_close(event=event, by=host)
    with pytest.raises(ValidationError) as caught:
        buy_in(event, guests[0], host, 500)
    assert "reopen it" in errors(caught)
    assert not ChipMove.objects.exists()


def test_a_second_tap_records_once_and_a_key_reused_for_other_chips_is_refused(event, guests, host):
    key = uuid.uuid4()
    first = buy_in(event, guests[0], host, 500, idempotency_key=key)
    again = buy_in(event, guests[0], host, 500, idempotency_key=key)
    assert again.pk == first.pk
    with pytest.raises(ValidationError) as caught:
        buy_in(event, guests[0], host, 600, idempotency_key=key)
    assert "Aki: a buy-in of $500" in errors(caught)
    assert ChipMove.objects.count() == 1


def test_chips_entered_by_mistake_are_voided_by_their_opposite_once(event, guests, host):
    wrong = buy_in(event, guests[0], host, 500)
    void = services.chips_void(move=wrong, reason="typed 500 for 50", by=host)
    assert (void.chips, void.voids_id, void.note) == (D(-500), wrong.pk, "typed 500 for 50")
    assert night_count(event).guests[0].count.taken == 0
    with pytest.raises(ValidationError) as twice:
        services.chips_void(move=wrong, reason="again", by=host)
    assert "already voided" in errors(twice)
    with pytest.raises(ValidationError) as of_void:
        services.chips_void(move=void, reason="undo", by=host)
    assert "itself a void" in errors(of_void)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CHIPS_VOIDED).count() == 1


def test_a_logged_night_reconciles_and_a_missing_bet_is_named_then_found(
    event, guests, seated, shoe, host, record
):
    aki, ben = guests[0], guests[1]
    services.count_setup_save(event=event, by=host, opening_float=D(2000))
    buy_in(event, aki, host, 500, source="cash")
    buy_in(event, ben, host, 300)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])  # player 9
    # Played: Aki +100, Ben −50, then Ben's 40 on Player in hand 2 won, but was not logged.
    second = record(shoe, "8 K", "2 3", [bet(1, "banker", 20)])
    count(event, aki, host, chips=D(580))
    count(event, ben, host, chips=D(290))
    services.chips_record(event=event, guest=None, kind="tray", chips=D(1930), by=host)
    night = night_count(event)
    assert night.reconciliation.differences == {ben.pk: D(40)}
    assert night.reconciliation.tray.difference == D(-40)
    assert not night.reconciliation.reconciled
    # The host looks through Ben's bets, finds hand 2 and corrects it with his bet.
    # Every hand he sat at is listed, the one without a bet of his too.
    rows = [
        (row.hand.number, [bet.bet_type for bet in row.bets]) for row in guest_hands(event, ben)
    ]
    assert rows == [(1, ["banker"]), (2, [])]
    hand_services.hand_correct(
        hand=second,
        entry=entry("8 K", "2 3", [bet(1, "banker", 20), bet(2, "player", 40)]),
        reason="Ben's 40 on Player, found by the count",
        by=host,
    )
    assert night_count(event).reconciliation.reconciled


def test_an_adjustment_books_a_difference_into_the_guest_s_result_and_balance(
    event, guests, seated, shoe, host, record
):
    aki = guests[0]
    buy_in(event, aki, host, 500)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    count(event, aki, host, chips=D(650))  # 50 more than the hands explain
    assert night_count(event).reconciliation.differences == {aki.pk: D(50)}
    before = guest_balance_now(guest_id=aki.pk)
    adjustment = services.adjustment_record(
        event=event, guest=aki, amount=D(50), reason="a bet nobody remembers", by=host
    )
    assert night_count(event).reconciliation.differences == {}
    assert guest_balance_now(guest_id=aki.pk) == before + D(50)
    line = next(line for line in event_settlement(event) if line.guest_id == aki.pk)
    assert line.result == D(150)  # the hands' 100 and the adjustment's 50
    services.adjustment_void(adjustment=adjustment, reason="found the hand", by=host)
    assert guest_balance_now(guest_id=aki.pk) == before
    assert Adjustment.objects.count() == 2
    assert AuditEntry.objects.filter(action=AuditEntry.Action.ADJUSTMENT_VOIDED).exists()


@pytest.mark.parametrize(
    ("amount", "reason", "field"),
    [(D(0), "x", "amount"), (D("0.001"), "x", "amount"), (D(10), "  ", "reason")],
)
def test_an_adjustment_needs_an_amount_and_a_reason(event, guests, host, amount, reason, field):
    with pytest.raises(ValidationError) as caught:
        services.adjustment_record(
            event=event, guest=guests[0], amount=amount, reason=reason, by=host
        )
    assert field in caught.value.message_dict
    assert not Adjustment.objects.exists()


def test_a_count_only_night_s_results_are_counts_less_chips_taken(event, guests, host):
    aki, ben = guests[0], guests[1]
    services.count_setup_save(event=event, by=host, count_only=True, commission_total=D(40))
    buy_in(event, aki, host, 500)
    buy_in(event, ben, host, 500)
    services.chips_record(
        event=event, guest=aki, kind="top_up", chips=D(200), source="cash", by=host
    )
    count(event, aki, host, chips=D(900))
    count(event, ben, host, chips=D(260))
    results = dict(GuestEventResult.objects.filter(event=event).values_list("guest_id", "net"))
    assert results == {aki.pk: D(200), ben.pk: D(-240)}
    assert guest_balance_now(guest_id=ben.pk) == D(-240)
    night = night_count(event)
    assert night.reconciliation.differences == {}
    assert night.reconciliation.tray.expected == D(40)  # the house's result: 240 − 200


def test_a_night_with_hands_cannot_be_kept_by_its_count_alone(event, seated, shoe, host, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    with pytest.raises(ValidationError) as caught:
        services.count_setup_save(event=event, by=host, count_only=True)
    assert "1 hands logged" in errors(caught)


@pytest.mark.parametrize("chips", [["0"], ["5", "5"], ["abc"], [], ["1.005"]])
def test_a_chip_set_is_distinct_positive_whole_cents(event, host, chips):
    with pytest.raises(ValidationError) as caught:
        services.count_setup_save(event=event, by=host, denominations=chips or [""])
    assert "denominations" in caught.value.message_dict


def test_a_merge_takes_the_count_rows_with_it(event, guests, host):
    from ledger.guests import services as guest_services
    from ledger.integrity import check_ledger

    aki, ben = guests[0], guests[1]
    services.count_setup_save(event=event, by=host, count_only=True)
    buy_in(event, aki, host, 500)
    count(event, aki, host, chips=D(650))
    buy_in(event, ben, host, 300)
    count(event, ben, host, chips=D(250))
    guest_services.guest_merge(guest=aki, other=ben, by=host)
    assert ChipMove.objects.filter(guest=aki).count() == 4
    results = dict(GuestEventResult.objects.filter(event=event).values_list("guest_id", "net"))
    assert results == {aki.pk: D(100)}  # 150 and −50, one guest now
    assert check_ledger().problems == []


def test_a_count_from_a_page_older_than_another_count_is_refused(event, guests, host):
    aki = guests[0]
    count(event, aki, host, chips=D(300), seen_counted="")
    with pytest.raises(ValidationError) as caught:  # a second tab, opened before that count
        count(event, aki, host, chips=D(300), seen_counted="")
    assert "Aki was counted on another device since this page was opened ($300 so far)" in errors(
        caught
    )
    count(event, aki, host, chips=D(50), seen_counted="300.00")  # back later: it adds up
    assert night_count(event).guests[0].count.counted == D(350)


@pytest.mark.parametrize(("total", "fine"), [("0.3", False), ("0.5", True), ("12.5", True)])
def test_a_total_no_chips_make_is_refused(event, guests, host, total, fine):
    if fine:
        assert count(event, guests[0], host, chips=D(total)).chips == D(total)
        return
    with pytest.raises(ValidationError) as caught:
        count(event, guests[0], host, chips=D(total))
    assert "No chips of this night add up to 0.30" in errors(caught)


def test_a_debt_settled_in_chips_at_the_table_moves_the_expected_chips(host, make_event):
    from games import services as game_services
    from ledger.guests import services as guest_services
    from ledger.money import transfers
    from tests.ledger.banked_nights import guest_banked, play_debts, seat_all

    event = guest_banked(make_event(table_min=D(1)), taxe_rate=D(0))
    aki, ben = (
        guest_services.event_guest_add(event=event, name=n, by=host) for n in ("Aki", "Ben")
    )
    shoe = game_services.shoe_start(event=event, by=host)
    seat_all(shoe, [aki, ben], host)
    for guest in (aki, ben):
        buy_in(event, guest, host, 500)
    play_debts(shoe, host, {"Aki": 1, "Ben": 2}, [("Aki", "Ben", "50.00")])
    # Ben's bank won 50 from Aki; then Aki settles the night's debt by handing Ben 50 in chips
    # (a transfer marked so), before both are counted: the chips left one stack for the other.
    transfers.transfer_record(
        event=event, payer=aki, payee=ben, amount=D(50), by=host, in_chips=True
    )
    count(event, aki, host, chips=D(400))
    count(event, ben, host, chips=D(600))
    assert night_count(event).reconciliation.differences == {}


def test_a_guest_who_lost_every_chip_is_counted_at_zero(event, guests, host):
    aki = guests[0]
    buy_in(event, aki, host, 100)
    assert night_count(event).reconciliation.uncounted == [aki.pk]
    count(event, aki, host, by_denomination={"100": "0"})
    night = night_count(event)
    assert night.reconciliation.uncounted == []
    assert night.guests[0].count.counted == 0 and night.guests[0].count.difference == -100
    with pytest.raises(ValidationError):  # nothing typed at all is still nothing counted
        count(event, aki, host)
    services.chips_record(event=event, guest=None, kind="tray", chips=D(0), by=host)
    assert night_count(event).reconciliation.tray.counted == 0


def test_a_resent_count_is_answered_with_what_it_recorded_not_refused(event, guests, host):
    key = uuid.uuid4()
    first = count(event, guests[0], host, chips=D(300), seen_counted="", idempotency_key=key)
    again = count(event, guests[0], host, chips=D(300), seen_counted="", idempotency_key=key)
    assert again.pk == first.pk and ChipMove.objects.count() == 1


def test_a_night_with_nothing_counted_does_not_reconcile(event, guests, host):
    assert not night_count(event).reconciliation.reconciled
