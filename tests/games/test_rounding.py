"""Rounding to the smallest chip (docs/rules.md, "Money and rounding"): each bet's payout and
commission, in the night's way, never more than a chip from the exact figure."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.entry import BetEntry, HandEntry, TableRules, settle_hand
from games.payouts import (
    EXACT,
    MSG_SMALLEST_CHIP,
    BetType,
    ChipRounding,
    NoCommission,
    Rounding,
    RuleSet,
    RuleSetError,
    SideBet,
    bet_return,
    resolve_bet,
)
from games.rules import Outcome, Winner
from games.shoe import Shoe

D = Decimal
CHIP = D("0.50")
HALF_UP = ChipRounding(Rounding.HALF_UP, CHIP)
HOUSE = ChipRounding(Rounding.HOUSE, CHIP)
BANKER_WINS = Outcome(Winner.BANKER)

rule_sets = st.one_of(
    st.builds(
        RuleSet,
        commission_rate=st.decimals(min_value=0, max_value=D("0.10"), places=4),
        tie_pays=st.sampled_from([8, 9]),
        pair_pays=st.sampled_from([11, 12]),
        side_bets=st.just(frozenset(SideBet)),
    ),
    st.just(RuleSet.from_options(no_commission=NoCommission.SUPER6)),
    st.just(RuleSet.from_options(no_commission=NoCommission.EZ)),
)
stakes = st.decimals(min_value=D("0.01"), max_value=D("100000"), places=2)
chips = st.sampled_from(["0.01", "0.05", "0.10", "0.25", "0.50", "1", "5", "25", "100"]).map(D)
roundings = st.builds(ChipRounding, st.sampled_from([Rounding.HALF_UP, Rounding.HOUSE]), chips)


def test_a_51_cent_commission_is_not_owed_at_a_table_whose_smallest_chip_is_50_cents():
    # 5% of a $10.20 Banker win is $0.51: half up it is one $0.50 chip; the house's way, two.
    exact = resolve_bet(RuleSet(), BetType.BANKER, D("10.20"), BANKER_WINS)
    half_up = resolve_bet(RuleSet(), BetType.BANKER, D("10.20"), BANKER_WINS, HALF_UP)
    house = resolve_bet(RuleSet(), BetType.BANKER, D("10.20"), BANKER_WINS, HOUSE)
    assert (exact.gross, exact.commission, exact.net) == (D("10.20"), D("0.51"), D("9.69"))
    assert (half_up.gross, half_up.commission, half_up.net) == (D("10.00"), D("0.50"), D("9.50"))
    assert (house.gross, house.commission, house.net) == (D("10.00"), D("1.00"), D("9.00"))


def test_half_a_chip_goes_up_and_a_lost_stake_is_never_rounded():
    assert resolve_bet(RuleSet(), BetType.BANKER, D(15), BANKER_WINS, HALF_UP).commission == D(
        "1.00"
    )  # $0.75 is one chip and a half: up
    assert resolve_bet(RuleSet(), BetType.BANKER, D(5), BANKER_WINS, HALF_UP).commission == D(
        "0.50"
    )  # $0.25, half a chip: up
    lost = resolve_bet(RuleSet(), BetType.PLAYER, D("10.20"), BANKER_WINS, HOUSE)
    assert (lost.gross, lost.commission, lost.net) == (D("-10.20"), D(0), D("-10.20"))


def test_super_6s_half_payout_goes_down_in_the_houses_favour(hand_from):
    super6 = RuleSet.from_options(no_commission=NoCommission.SUPER6)
    six = hand_from("2 3 10", "3 3").outcome()
    assert (six.winner, six.banker_total) == (Winner.BANKER, 6)
    # $0.50 staked on a Banker 6 pays $0.25: nothing the house's way, one chip half up.
    assert resolve_bet(super6, BetType.BANKER, CHIP, six, HOUSE).gross == D(0)
    assert resolve_bet(super6, BetType.BANKER, CHIP, six, HALF_UP).gross == CHIP


@given(rule_sets, st.sampled_from(list(BetType)), stakes, st.integers(0, 10_000))
def test_exact_is_the_rounding_every_night_had_before(rules, bet_type, stake, seed):
    """A night that reads "exact" settles every bet as the code did before the rule existed:
    the cent, half up (``round_money``, which the other payout tests pin down)."""
    outcome = Shoe(8, seed=seed, burn=False).play_hand().outcome()
    try:
        before = resolve_bet(rules, bet_type, stake, outcome)
    except Exception as error:  # a bet the hand cannot settle: refused the same way
        with pytest.raises(type(error)):
            resolve_bet(rules, bet_type, stake, outcome, EXACT)
        return
    assert resolve_bet(rules, bet_type, stake, outcome, EXACT) == before
    assert resolve_bet(rules, bet_type, stake, outcome, ChipRounding(Rounding.HALF_UP)) == before


@given(rule_sets, st.sampled_from(list(BetType)), stakes, roundings, st.integers(0, 10_000))
def test_a_rounded_figure_is_within_a_chip_of_the_exact_one_and_on_the_right_side(
    rules, bet_type, stake, rounding, seed
):
    outcome = Shoe(8, seed=seed, burn=False).play_hand().outcome()
    try:
        unit = bet_return(rules, bet_type, outcome)
        result = resolve_bet(rules, bet_type, stake, outcome, rounding)
    except Exception:  # a bet this hand cannot settle (no cards): none to round
        return
    exact_gross = Fraction(stake) * unit.win
    exact_commission = Fraction(stake) * unit.commission
    chip = Fraction(rounding.chip)
    gross_off = Fraction(result.gross) - exact_gross
    commission_off = Fraction(result.commission) - exact_commission
    assert abs(gross_off) < chip and abs(commission_off) < chip
    if exact_gross < 0:
        assert result.gross == -stake  # the stake on the table, as it is
    elif rounding.way is Rounding.HOUSE:  # the house pays no more, and is owed no less
        assert gross_off <= 0 and commission_off >= 0
    else:  # the nearest chip; exactly half a chip goes up (Super 6's half payout of a cent)
        assert -chip / 2 < gross_off <= chip / 2
        assert -chip / 2 < commission_off <= chip / 2
    if exact_gross >= 0:
        assert Fraction(result.gross) / chip == int(Fraction(result.gross) / chip)
    assert Fraction(result.commission) / chip == int(Fraction(result.commission) / chip)
    assert result.net == result.gross - result.commission


seats_and_bets = st.lists(
    st.tuples(st.integers(1, 7), st.sampled_from([BetType.PLAYER, BetType.BANKER, BetType.TIE])),
    min_size=1,
    max_size=12,
    unique=True,
)


@given(rule_sets, seats_and_bets, st.lists(stakes, min_size=12, max_size=12), roundings, st.data())
def test_every_hand_stays_zero_sum_after_rounding(rules, placed, amounts, rounding, data):
    """What the guests win and lose on a hand is what the house loses and wins: every bet's net
    is its rounded gross less its rounded commission, and the house takes the commission and
    pays the gross."""
    seed = data.draw(st.integers(0, 10_000))
    hand = Shoe(8, seed=seed, burn=False).play_hand()
    entry = HandEntry(
        player_cards=" ".join(str(card) for card in hand.player),
        banker_cards=" ".join(str(card) for card in hand.banker),
        bets=tuple(
            BetEntry(seat, bet_type, stake)
            for (seat, bet_type), stake in zip(placed, amounts, strict=False)
        ),
    )
    table = TableRules(rules, 8, D("0.01"), D("100000"), rounding=rounding)
    settled = settle_hand(entry, table)
    guests = sum((bet.result.net for bet in settled.bets), D(0))
    house = sum((bet.result.commission - bet.result.gross for bet in settled.bets), D(0))
    assert guests + house == 0
    assert all(bet.result.house_net == -bet.result.net for bet in settled.bets)


@pytest.mark.parametrize("chip", [D(0), D("-0.50"), D("0.005")])
def test_a_smallest_chip_of_nothing_or_under_a_cent_is_refused(chip):
    with pytest.raises(RuleSetError) as raised:
        ChipRounding(Rounding.HALF_UP, chip)
    assert raised.value.template == MSG_SMALLEST_CHIP


def test_the_rounding_is_said_in_words():
    assert "(0.50)" in HALF_UP.describe() and "half a chip up" in HALF_UP.describe()
    assert "down" in HOUSE.describe() and "commission up" in HOUSE.describe()
