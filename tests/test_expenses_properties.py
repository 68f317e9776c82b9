"""Property tests of expenses: the shares add up to the expense exactly by the odd cent's rule;
every night with expenses is zero-sum; the fewest transfers stay the fewest with expenses."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.expenses import services as expense_services
from ledger.expenses.shares import ordered, split_amount
from ledger.integrity import check_ledger
from ledger.money.clearing import fewest_transfers
from ledger.money.figures import night_figures
from ledger.money.transfers import HOUSE, night_balances, proposed_transfers
from tests.conftest import examples
from tests.ledger.banked_nights import SEVEN, play_debts, seven_guest_night

D = Decimal

cents_amounts = st.integers(1, 10**13 - 1)
weight_lists = st.lists(st.integers(1, 1000), min_size=1, max_size=12)


@settings(max_examples=500, deadline=None)
@given(cents=cents_amounts, weights=weight_lists)
def test_shares_add_up_to_the_expense_to_the_cent_the_odd_cents_by_the_rule(cents, weights):
    amount = D(cents).scaleb(-2)
    shares = split_amount(amount, list(enumerate(weights)))
    assert sum(shares) == amount
    total = sum(weights)
    exact = [amount * weight / total for weight in weights]
    fraction = [cents * weight % total for weight in weights]  # the part rounding down loses
    plus_one = []
    for index, (share, weight) in enumerate(zip(shares, weights, strict=True)):
        assert share == share.quantize(D("0.01"))
        floor = D(cents * weight // total).scaleb(-2)
        assert share in (floor, floor + D("0.01"))  # never a cent from the exact part
        assert abs(share - exact[index]) < D("0.01")
        if share != floor:
            plus_one.append(index)
    assert len(plus_one) < len(weights)
    # The odd cents went to the largest fractional parts first, ties to the one listed first.
    for i in plus_one:
        for j in set(range(len(weights))) - set(plus_one):
            assert (fraction[i], -i) > (fraction[j], -j)


def test_the_rule_s_order_is_guests_by_id_then_the_house():
    assert ordered([9, 3, 5, 3], True) == [3, 5, 9, None]
    assert split_amount(D(100), [(3, 1), (5, 1), (None, 1)]) == [D("33.34"), D("33.33"), D("33.33")]
    assert split_amount(D("0.02"), [(3, 1), (5, 1), (None, 1)]) == [D("0.01"), D("0.01"), D(0)]


def set_partitions(items: list[int]) -> Iterator[list[list[int]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for i, block in enumerate(partition):
            yield [*partition[:i], [first, *block], *partition[i + 1 :]]


def brute_force_fewest(cents: list[int]) -> int:
    """The clearing tests' oracle: n − the most zero-sum blocks over every split."""
    people = [i for i, amount in enumerate(cents) if amount]
    most = max(
        len(partition)
        for partition in set_partitions(people)
        if all(sum(cents[i] for i in block) == 0 for block in partition)
    )
    return len(people) - most


debts = st.lists(
    st.tuples(
        st.sampled_from(SEVEN), st.sampled_from(SEVEN), st.sampled_from(["5", "20", "35"])
    ).filter(lambda debt: debt[0] != debt[1]),
    max_size=3,
)
payers = st.sampled_from([None, *SEVEN])
sharer_sets = st.lists(
    st.tuples(st.sampled_from([None, *SEVEN]), st.integers(1, 3)), min_size=1, max_size=8
)
expenses = st.lists(
    st.tuples(
        payers,
        sharer_sets,
        st.sampled_from(["equal", "shares"]),
        st.integers(1, 20_000),  # cents; small round amounts give zero-sum groups too
        st.booleans(),  # voided
    ),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=examples(20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@pytest.mark.django_db
@given(owed=debts, bought=expenses)
def test_a_night_with_expenses_is_zero_sum_and_settles_in_the_fewest_transfers(
    owed, bought, make_event, host
):
    with transaction.atomic():
        event, shoe, guests = seven_guest_night(make_event, host)
        play_debts(shoe, host, {name: seat for seat, name in enumerate(SEVEN, 1)}, owed)
        expected: dict[object, Decimal] = defaultdict(Decimal)
        for debtor, creditor, amount in owed:
            expected[guests[debtor].pk] -= D(amount)
            expected[guests[creditor].pk] += D(amount)
        for payer, sharers, split, cents, voided in bought:
            weights = {who: (1 if split == "equal" else w) for who, w in sharers}
            row = expense_services.expense_record(
                event=event,
                what="Pizza 🍕",
                amount=D(cents).scaleb(-2),
                paid_by=None if payer is None else guests[payer],
                sharers=[(None if who is None else guests[who], w) for who, w in weights.items()],
                split=split,
                by=host,
            )
            if voided:
                expense_services.expense_void(expense=row, reason="mistake", by=host)
                continue
            # The shares computed here, apart from the service: by the rule's order.
            by_id = {(None if who is None else guests[who].pk): w for who, w in weights.items()}
            order = ordered([pk for pk in by_id if pk is not None], None in by_id)
            shares = split_amount(D(cents).scaleb(-2), [(pk, by_id[pk]) for pk in order])
            expected[HOUSE if payer is None else guests[payer].pk] += D(cents).scaleb(-2)
            for pk, share in zip(order, shares, strict=True):
                expected[HOUSE if pk is None else pk] -= share
        # The house's side of the bets is minus the guests'; of the expenses, what it paid less
        # its shares.
        guests_total = sum((v for k, v in expected.items() if k != HOUSE), D(0))
        expected[HOUSE] = -guests_total

        night = night_figures(event)
        guests_side = sum((g.net + g.expenses for g in night.guests), D(0))
        assert guests_side + night.house_result == 0
        balances = night_balances(event)
        assert sum(balances.balances.values()) == 0
        assert {k: v for k, v in balances.balances.items() if v} == {
            k: v for k, v in expected.items() if v
        }
        proposal = proposed_transfers(event, balances)
        cents_list = [int(v * 100) for v in balances.balances.values()]
        assert len(proposal) == brute_force_fewest(cents_list)
        assert len(fewest_transfers(balances.balances)) == len(proposal)
        settled: dict[object, Decimal] = defaultdict(Decimal)
        for line in proposal:
            settled[HOUSE if line.payer.guest_id is None else line.payer.guest_id] -= line.amount
            settled[HOUSE if line.payee.guest_id is None else line.payee.guest_id] += line.amount
        assert {k: v for k, v in settled.items() if v} == {
            k: v for k, v in balances.balances.items() if v
        }
        assert check_ledger(event).problems == []
        transaction.set_rollback(True)
