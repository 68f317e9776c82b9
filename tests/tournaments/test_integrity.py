"""check_ledger holds a tournament's rebuys and add-ons to its rules (tournaments.integrity):
the window, the count, the stack they were bought under, the chips."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.integrity import check_ledger
from ledger.models import StackRow
from tests.tournaments.conftest import open_shoe
from tournaments import integrity, services
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_with_a_rebuy(make_tournament, add_round, host, play):
    """Aki loses 10 of a 1,000 stack and buys a rebuy (one allowed, in round 1); Ben plays on."""
    tournament = make_tournament(players=["Aki", "Ben"], rebuy_price=Decimal(40),
                                 rebuy_chips=Decimal(1000), rebuy_rounds=1, max_rebuys=1,
                                 add_on_price=Decimal(20), add_on_chips=Decimal(500),
                                 add_on_round=1)  # fmt: skip
    round_ = add_round(tournament, hands=6)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = Entrant.objects.get(tournament=tournament, guest__name="Aki")
    play(table, "P", {table.seats.get(entrant=aki).seat: ("banker", 10)})
    services.rebuy(entrant=aki, by=host)
    services.add_on(entrant=aki, by=host)
    return table, aki


def found(event=None):
    return [(p.model, p.pk, p.message) for p in check_ledger(event).problems]


def copy_of(row: StackRow, **changes) -> StackRow:
    fields = {"event": row.event, "guest": row.guest, "kind": row.kind, "chips": row.chips,
              "after_hand": row.after_hand, "recorded_by": row.recorded_by} | changes  # fmt: skip
    return StackRow.objects.create(**fields)


def test_rebuys_and_add_ons_the_services_sold_are_clean(table_with_a_rebuy):
    assert found() == []


def test_a_rebuy_bought_at_the_starting_stack_is_named(table_with_a_rebuy, play):
    table, aki = table_with_a_rebuy
    play(table, "B")  # hand 2: Aki's stack is 1,990 + 500 now
    rebuy = StackRow.objects.get(guest=aki.guest, kind=StackRow.Kind.REBUY)
    forged = copy_of(rebuy, after_hand=2)
    assert ("StackRow", forged.pk, integrity.MSG_REBUY_STACK) in found(table.event)
    assert ("StackRow", forged.pk, integrity.MSG_REBUY_COUNT) in found()


def test_a_rebuy_outside_its_window_or_with_other_chips_is_named(table_with_a_rebuy):
    table, aki = table_with_a_rebuy
    rebuy = StackRow.objects.get(guest=aki.guest, kind=StackRow.Kind.REBUY)
    StackRow.objects.filter(pk=rebuy.pk).update(chips=Decimal(5000))
    tournament = table.round.tournament
    type(tournament).objects.filter(pk=tournament.pk).update(rebuy_rounds=0)
    assert set(found()) == {
        ("StackRow", rebuy.pk, integrity.MSG_REBUY_CHIPS),
        ("StackRow", rebuy.pk, integrity.MSG_REBUY_WINDOW),
    }


def test_a_second_add_on_or_one_in_another_round_is_named(table_with_a_rebuy):
    table, aki = table_with_a_rebuy
    add_on = StackRow.objects.get(guest=aki.guest, kind=StackRow.Kind.ADD_ON)
    second = copy_of(add_on)
    assert set(found()) == {
        ("StackRow", second.pk, integrity.MSG_ADD_ON_COUNT),
        ("StackRow", second.pk, integrity.MSG_NOT_PAID),  # and no second fee for it
    }
    tournament = table.round.tournament
    type(tournament).objects.filter(pk=tournament.pk).update(add_on_round=2)
    assert ("StackRow", add_on.pk, integrity.MSG_ADD_ON_ROUND) in found()


def test_a_hand_undone_under_a_rebuy_behind_the_services_back_is_caught(table_with_a_rebuy, play):
    # The services refuse this undo; a file restored with the hand gone would not be.
    table, _aki = table_with_a_rebuy
    shoe = open_shoe(table)
    hand = shoe.hands.get(number=1)
    hand.bets.all().delete()
    assert [message for _model, _pk, message in found() if _model == "StackRow"] == [
        integrity.MSG_REBUY_STACK
    ]


def test_the_check_reads_a_fixed_number_of_rows_however_many_rebuys(
    table_with_a_rebuy, play, django_assert_max_num_queries
):
    table, aki = table_with_a_rebuy
    for _ in range(5):
        play(table, "B")
    for number in range(3):
        copy_of(StackRow.objects.filter(guest=aki.guest).first(), kind="rebuy", after_hand=number)
    with django_assert_max_num_queries(4):
        integrity.stack_row_problems()


def test_a_rebuy_with_no_fee_charged_for_it_is_named(table_with_a_rebuy, host):
    # Free chips: a rebuy row a file added without the fee the rebuy service charges with it.
    table, aki = table_with_a_rebuy
    ben = Entrant.objects.get(tournament=table.round.tournament, guest__name="Ben")
    rebuy = StackRow.objects.get(guest=aki.guest, kind=StackRow.Kind.REBUY)
    free = copy_of(rebuy, guest=ben.guest)
    problems = [(p.pk, p.message) for p in check_ledger().problems if p.model == "StackRow"]
    assert (free.pk, integrity.MSG_NOT_PAID) in problems
    assert (rebuy.pk, integrity.MSG_NOT_PAID) not in problems
