"""The pool's split: exact to the cent, adding up to the pool, the odd cents by the stated rule."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ledger.tips.split import Weighted, split_pool

D = Decimal
pools = st.decimals(min_value=D(0), max_value=D(1_000_000), places=2)
dealers = st.lists(
    st.tuples(st.text(min_size=1, max_size=5), st.integers(0, 100_000)), min_size=1, max_size=8
).map(lambda rows: [Weighted(n, name, weight) for n, (name, weight) in enumerate(rows, start=1)])


@given(pool=pools, dealers=dealers)
def test_the_shares_add_up_to_the_pool_exactly_and_each_is_within_a_cent(pool, dealers):
    shares = split_pool(pool, dealers)
    assert sum(shares.values(), D(0)) == pool
    assert set(shares) == {d.dealer_id for d in dealers}
    total = sum(d.weight for d in dealers)
    for d in dealers:
        exact = pool * d.weight / total if total else pool / len(dealers)
        assert shares[d.dealer_id] == shares[d.dealer_id].quantize(D("0.01"))
        assert abs(shares[d.dealer_id] - exact) < D("0.01")


def test_the_odd_cents_go_to_the_largest_fractions_then_by_name():
    # 1.00 by 1:1:1 is 0.333… each: one odd cent, all fractions equal, so the first name takes it.
    three = [Weighted(3, "Cho", 1), Weighted(1, "Ami", 1), Weighted(2, "Bo", 1)]
    assert split_pool(D("1.00"), three) == {1: D("0.34"), 2: D("0.33"), 3: D("0.33")}
    # 5 cents by 1:2 is 1⅔ and 3⅓ cents: Ami's fraction (⅔) is the larger, Ami takes the odd cent.
    two = [Weighted(1, "Ami", 1), Weighted(2, "Bo", 2)]
    assert split_pool(D("0.05"), two) == {1: D("0.02"), 2: D("0.03")}


def test_no_weight_shares_equally_and_no_dealer_leaves_the_pool_whole():
    assert split_pool(D("10.00"), [Weighted(1, "A", 0), Weighted(2, "B", 0)]) == {
        1: D("5.00"),
        2: D("5.00"),
    }
    assert split_pool(D("10.00"), []) == {}
