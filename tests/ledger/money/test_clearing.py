"""Who pays whom with the fewest transfers (``ledger.money.clearing``, plain Python)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.money.clearing import (
    EXACT_LIMIT,
    MSG_BALANCE_CENTS,
    MSG_NOT_ZERO_SUM,
    Transfer,
    fewest_transfers,
    greedy_transfers,
    through_house,
)

D = Decimal


def nets(transfers: list[Transfer[str]] | list[Transfer[int]]) -> dict[object, Decimal]:
    """What each party ends up with: received minus paid."""
    net: dict[object, Decimal] = defaultdict(Decimal)
    for transfer in transfers:
        net[transfer.payer] -= transfer.amount
        net[transfer.payee] += transfer.amount
    return {party: amount for party, amount in net.items() if amount}


def balances_of(debts: list[tuple[str, str, str]]) -> dict[str, Decimal]:
    """Balances from "debtor owes creditor amount" rows."""
    balances: dict[str, Decimal] = defaultdict(Decimal)
    for debtor, creditor, amount in debts:
        balances[debtor] -= D(amount)
        balances[creditor] += D(amount)
    return dict(balances)


def settles(balances: Mapping[object, Decimal], transfers: list[Transfer[int]]) -> bool:
    return nets(transfers) == {party: amount for party, amount in balances.items() if amount}


# Nine debts among seven guests. F and G net to zero; A and B are a pair;
# C, D and E settle among themselves: 1 + 2 transfers.
NINE_DEBTS = [
    ("A", "F", "50.00"),
    ("F", "B", "30.00"),
    ("F", "G", "20.00"),
    ("G", "B", "20.00"),
    ("C", "D", "15.00"),
    ("C", "G", "10.00"),
    ("G", "E", "10.00"),
    ("C", "A", "5.00"),
    ("A", "D", "5.00"),
]


def test_nine_debts_among_seven_guests_settle_in_three_transfers():
    balances = balances_of(NINE_DEBTS)
    assert balances == {
        "A": D("-50.00"),
        "B": D("50.00"),
        "C": D("-30.00"),
        "D": D("20.00"),
        "E": D("10.00"),
        "F": D("0.00"),
        "G": D("0.00"),
    }
    assert fewest_transfers(balances) == [
        Transfer("A", "B", D("50.00")),
        Transfer("C", "D", D("20.00")),
        Transfer("C", "E", D("10.00")),
    ]


def test_groups_that_settle_among_themselves_take_one_transfer_fewer_than_their_size():
    balances = {"A": D(-30), "B": D(30), "C": D(-20), "D": D(10), "E": D(10), "F": D(-5)}
    balances["G"] = D(5)
    assert fewest_transfers(balances) == [
        Transfer("A", "B", D("30.00")),  # {A, B}
        Transfer("C", "D", D("10.00")),  # {C, D, E}
        Transfer("C", "E", D("10.00")),
        Transfer("F", "G", D("5.00")),  # {F, G}
    ]


def test_greedy_settling_takes_more_than_the_fewest():
    balances = {
        "A": D(-50),
        "B": D(70),
        "C": D(-30),
        "D": D(40),
        "E": D(80),
        "F": D(-110),
    }
    # Largest debtor to largest creditor: F pays E 80, A pays B 50, C pays D 30 (C before F
    # on equal debts), F pays B 20 and D 10: five. But {F, B, D} and {A, C, E} each sum to
    # zero: two transfers each, four.
    assert greedy_transfers(balances) == [
        Transfer("A", "B", D("50.00")),
        Transfer("C", "D", D("30.00")),
        Transfer("F", "B", D("20.00")),
        Transfer("F", "D", D("10.00")),
        Transfer("F", "E", D("80.00")),
    ]
    assert fewest_transfers(balances) == [
        Transfer("A", "E", D("50.00")),
        Transfer("C", "E", D("30.00")),
        Transfer("F", "B", D("70.00")),
        Transfer("F", "D", D("40.00")),
    ]


def test_opposite_balances_are_paired_off_first_which_greedy_misses():
    balances = {"A": D(-8), "B": D(-5), "C": D(5), "D": D(4), "E": D(4)}
    assert len(greedy_transfers(balances)) == 4  # A pays C 5 first, and B is left to split
    assert fewest_transfers(balances) == [
        Transfer("A", "D", D("4.00")),
        Transfer("A", "E", D("4.00")),
        Transfer("B", "C", D("5.00")),
    ]


def test_zero_balances_are_left_out_and_a_single_pair_is_one_transfer():
    balances = {"Aki": D("-298.50"), "Ken": D("0.00"), "Mio": D("298.50"), "Sho": D(0)}
    assert fewest_transfers(balances) == [Transfer("Aki", "Mio", D("298.50"))]
    assert fewest_transfers({"Ken": D(0)}) == []
    # Beyond Decimal's 28 digits (where -huge would round): still exact.
    digits = "12345678901234567890123456789012.34"
    huge = {"A": D(f"-{digits}"), "B": D(digits)}
    assert fewest_transfers(huge) == [Transfer("A", "B", D(digits))]
    assert fewest_transfers({"A": D("-1E+3"), "B": D("1000")}) == [Transfer("A", "B", D(1000))]
    assert fewest_transfers({}) == []


def test_the_proposal_does_not_depend_on_the_order_of_the_balances():
    balances = {n: D(amount) for n, amount in enumerate([-7, -7, 3, 4, 5, 2, -6, 6])}
    shuffled = dict(reversed(balances.items()))
    assert fewest_transfers(balances) == fewest_transfers(shuffled)
    assert greedy_transfers(balances) == greedy_transfers(shuffled)
    # Equal balances go by id: guest 0 pays first, and the lower-id creditor is paid first.
    assert fewest_transfers({3: D(5), 1: D(-5), 2: D(5), 0: D(-5)}) == [
        Transfer(0, 2, D("5.00")),
        Transfer(1, 3, D("5.00")),
    ]


def test_balances_that_do_not_sum_to_zero_are_refused_with_the_imbalance():
    with pytest.raises(ValueError, match=r"these sum to 0\.05") as refused:
        fewest_transfers({"A": D("-10.00"), "B": D("10.05")})
    assert refused.value.template == MSG_NOT_ZERO_SUM
    with pytest.raises(ValueError, match="these sum to −20"):
        greedy_transfers({"A": D("-30"), "B": D("10")})
    with pytest.raises(ValueError, match="these sum to 5"):
        through_house({"A": D("5")}, house="house")


def test_balances_are_decimals_to_the_cent():
    with pytest.raises(ValueError, match=r"to the cent at most \(got 0\.005\)") as refused:
        fewest_transfers({"A": D("0.005"), "B": D("-0.005")})
    assert refused.value.template == MSG_BALANCE_CENTS
    with pytest.raises(ValueError, match=r"\(got NaN\)"):
        fewest_transfers({"A": D("NaN"), "B": D("1")})
    with pytest.raises(TypeError, match="not float"):
        fewest_transfers({"A": 0.1, "B": D("-0.10")})


def test_through_the_house_every_guest_settles_with_the_house():
    balances = balances_of(NINE_DEBTS) | {"A": D("-52.00"), "house": D("2.00")}
    assert through_house(balances, house="house") == [
        Transfer("A", "house", D("52.00")),
        Transfer("house", "B", D("50.00")),
        Transfer("C", "house", D("30.00")),
        Transfer("house", "D", D("20.00")),
        Transfer("house", "E", D("10.00")),
    ]
    # The house need not be listed when it nets to zero.
    assert through_house({"A": D(-5), "B": D(5)}, house="house") == [
        Transfer("A", "house", D("5.00")),
        Transfer("house", "B", D("5.00")),
    ]


def six_groups() -> dict[int, Decimal]:
    """Twenty balances in six groups with no pairs among them (3 + 3 + 3 + 3 + 4 + 4): no split
    has more than six groups (each needs three), so the fewest is 20 − 6 = 14."""
    groups = [
        ["-10.01", "4.02", "5.99"],
        ["-20.03", "12.05", "7.98"],
        ["33.07", "-11.09", "-21.98"],
        ["-45.11", "20.13", "24.98"],
        ["-60.17", "-1.19", "30.21", "31.15"],
        ["75.23", "-2.29", "-40.31", "-32.63"],
    ]
    amounts = [D(amount) for group in groups for amount in group]
    assert all(sum(D(amount) for amount in group) == 0 for group in groups)
    return dict(enumerate(amounts, start=1))


def test_twenty_balances_are_settled_with_the_proven_fewest():
    balances = six_groups()
    transfers = fewest_transfers(balances)
    assert len(transfers) == 14
    assert settles(balances, transfers)
    # Small round amounts, the hardest case for the search: many subsets sum to zero.
    twos_and_threes = {guest: D(2) if guest < 12 else D(-3) for guest in range(EXACT_LIMIT)}
    transfers = fewest_transfers(twos_and_threes)
    assert len(transfers) == 16  # four groups of three 2s and two −3s
    assert settles(twos_and_threes, transfers)


def test_above_the_limit_greedy_settles_what_is_left_after_pairing_off_opposites():
    unpaired = six_groups() | {21: D("1.25"), 22: D("2.50"), 23: D("-3.75")}
    transfers = fewest_transfers(unpaired)
    assert transfers == greedy_transfers(unpaired)  # 23 balances, no opposites: greedy
    assert len(transfers) <= 22 and settles(unpaired, transfers)
    with_a_pair = unpaired | {24: D(-8), 25: D(-5), 26: D(5), 27: D(4), 28: D(4)}
    transfers = fewest_transfers(with_a_pair)
    assert Transfer(25, 26, D("5.00")) in transfers
    assert len(transfers) <= 27 and settles(with_a_pair, transfers)


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
    """n − the most zero-sum blocks over every way to split the non-zero balances."""
    people = [i for i, amount in enumerate(cents) if amount]
    most = max(
        len(partition)
        for partition in set_partitions(people)
        if all(sum(cents[i] for i in block) == 0 for block in partition)
    )
    return len(people) - most


def zero_sum_cents(people: int) -> st.SearchStrategy[list[int]]:
    """Balances in cents for up to ``people`` people that sum to zero: small round amounts
    (many zero-sum groups) as well as any cents."""
    scale = st.sampled_from([3, 20, 500, 10**7])
    size = st.integers(1, people - 1)
    return (
        st.tuples(scale, size)
        .flatmap(
            lambda top_and_size: st.lists(
                st.integers(-top_and_size[0], top_and_size[0]),
                min_size=top_and_size[1],
                max_size=top_and_size[1],
            )
        )
        .map(lambda amounts: [*amounts, -sum(amounts)])
    )


def as_balances(cents: list[int]) -> dict[int, Decimal]:
    return {guest: D(amount).scaleb(-2) for guest, amount in enumerate(cents)}


@settings(max_examples=150, deadline=None)
@given(cents=zero_sum_cents(EXACT_LIMIT))
def test_transfers_settle_every_balance_exactly_in_at_most_n_minus_one(cents):
    balances = as_balances(cents)
    people = sum(1 for amount in cents if amount)
    for transfers in (fewest_transfers(balances), greedy_transfers(balances)):
        assert settles(balances, transfers)
        assert len(transfers) <= max(people - 1, 0)
        for transfer in transfers:
            assert transfer.amount > 0 and transfer.amount == transfer.amount.quantize(D("0.01"))
            assert transfer.payer != transfer.payee
    assert len(fewest_transfers(balances)) <= len(greedy_transfers(balances))


@settings(max_examples=300, deadline=None)
@given(cents=zero_sum_cents(8))
def test_the_fewest_is_the_fewest_any_split_allows(cents):
    assert len(fewest_transfers(as_balances(cents))) == brute_force_fewest(cents)


@settings(max_examples=30, deadline=None)
@given(cents=zero_sum_cents(40))
def test_above_the_limit_the_transfers_still_settle_in_at_most_n_minus_one(cents):
    balances = as_balances(cents)
    transfers = fewest_transfers(balances)
    assert settles(balances, transfers)
    assert len(transfers) <= max(sum(1 for amount in cents if amount) - 1, 0)
