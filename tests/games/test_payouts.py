from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import payouts
from games.payouts import (
    BetError,
    BetResult,
    BetType,
    NoCommission,
    RuleSet,
    RuleSetError,
    SideBet,
    resolve_bet,
    round_money,
)
from games.rules import Outcome, Winner
from games.shoe import Shoe

D = Decimal
ALL_SIDES = frozenset(SideBet)
EVERYTHING = RuleSet(side_bets=ALL_SIDES)
EZ = RuleSet.from_options(no_commission=NoCommission.EZ)
SUPER6 = RuleSet.from_options(no_commission=NoCommission.SUPER6)


def settle(rules, bet, stake, outcome):
    result = resolve_bet(rules, BetType(bet), D(stake), outcome)
    return (result.gross, result.commission, result.net)


def test_the_reference_coup_leaves_the_owner_180_up(hand_from):
    # The blog's example coup: Player bets 10+30+70, Banker bets 100+80+60+50; Player wins.
    outcome = hand_from("9 7", "J J 10").outcome()
    results = [resolve_bet(EVERYTHING, BetType.PLAYER, D(s), outcome) for s in (10, 30, 70)]
    results += [resolve_bet(EVERYTHING, BetType.BANKER, D(s), outcome) for s in (100, 80, 60, 50)]
    assert sum(r.house_net for r in results) == D("180.00")


@pytest.mark.parametrize(
    ("rules", "bet", "winner", "expected"),
    [
        (RuleSet(), "banker", Winner.BANKER, ("100.00", "5.00", "95.00")),
        (RuleSet(commission_rate=D("0.04")), "banker", Winner.BANKER, ("100.00", "4.00", "96.00")),
        (RuleSet(commission_rate=D("0")), "banker", Winner.BANKER, ("100.00", "0.00", "100.00")),
        (RuleSet(), "banker", Winner.PLAYER, ("-100.00", "0.00", "-100.00")),
        (RuleSet(), "banker", Winner.TIE, ("0.00", "0.00", "0.00")),
        (RuleSet(), "player", Winner.PLAYER, ("100.00", "0.00", "100.00")),
        (RuleSet(), "player", Winner.BANKER, ("-100.00", "0.00", "-100.00")),
        (RuleSet(), "player", Winner.TIE, ("0.00", "0.00", "0.00")),
        (RuleSet(), "tie", Winner.TIE, ("800.00", "0.00", "800.00")),
        (RuleSet(tie_pays=9), "tie", Winner.TIE, ("900.00", "0.00", "900.00")),
        (RuleSet(), "tie", Winner.BANKER, ("-100.00", "0.00", "-100.00")),
    ],
)
def test_main_bets_without_cards(rules, bet, winner, expected):
    assert settle(rules, bet, "100", Outcome(winner)) == tuple(D(x) for x in expected)


@pytest.mark.parametrize(
    ("stake", "commission"),
    [("0.10", "0.01"), ("0.30", "0.02"), ("0.50", "0.03"), ("0.70", "0.04"), ("1190", "59.50")],
)
def test_commission_is_rounded_half_up_to_the_cent(stake, commission):
    _, cut, net = settle(RuleSet(), "banker", stake, Outcome(Winner.BANKER))
    assert cut == D(commission)
    assert net == D(stake) - D(commission)


def test_round_money_is_half_up_away_from_zero():
    assert round_money(D("0.005")) == D("0.01")
    assert round_money(D("-0.005")) == D("-0.01")
    assert round_money(D("0.0049")) == D("0.00")


@pytest.mark.parametrize(
    ("pair_pays", "player_pair", "expected"),
    [(11, True, "110.00"), (12, True, "120.00"), (11, False, "-10.00")],
)
def test_pair_bets(pair_pays, player_pair, expected):
    rules = RuleSet(pair_pays=pair_pays)
    outcome = Outcome(Winner.PLAYER, player_pair=player_pair, banker_pair=not player_pair)
    assert settle(rules, "player_pair", "10", outcome)[0] == D(expected)


def test_ez_pushes_a_banker_three_card_seven_and_takes_no_commission(hand_from):
    three_card_seven = hand_from("K K 3", "4 J 3").outcome()
    assert settle(EZ, "banker", "100", three_card_seven) == (D(0), D(0), D(0))
    plain_banker_win = hand_from("9 8", "9 K").outcome()
    assert settle(EZ, "banker", "100", plain_banker_win) == (D(100), D(0), D(100))


def test_super6_pays_half_on_a_banker_six_rounding_half_up(hand_from):
    banker_six = hand_from("2 2 A", "3 3").outcome()  # Player 5 vs Banker 6, Banker stands
    assert banker_six.banker_total == 6 and banker_six.winner is Winner.BANKER
    assert settle(SUPER6, "banker", "100", banker_six) == (D(50), D(0), D(50))
    assert settle(SUPER6, "banker", "0.01", banker_six)[0] == D("0.01")
    assert settle(SUPER6, "banker", "100", hand_from("8 K", "9 K").outcome())[0] == D(100)


@pytest.mark.parametrize(
    ("player", "banker", "bet", "expected"),
    [
        ("8 K", "3 3", "dragon_bonus_player", 1),  # natural win
        ("8 K", "8 Q", "dragon_bonus_player", 0),  # natural tie pushes
        ("8 K", "8 Q", "dragon_bonus_banker", 0),
        ("9 K", "8 Q", "dragon_bonus_banker", -1),  # the other side's natural
        ("K 5 4", "K 6", "dragon_bonus_player", -1),  # non-natural win by 3 loses
        ("K 5 4", "K 7", "dragon_bonus_player", -1),  # ... by 2
        ("K 4 5", "K 5 K", "dragon_bonus_player", 1),  # by 4: Player 9, Banker 5 (drew 0)
        ("K 4 5", "K 4 K", "dragon_bonus_player", 2),  # by 5: Player 9, Banker 4
        ("K 6", "K K K", "dragon_bonus_player", 4),  # by 6: Player 6 stands, Banker 0 drew 0
        ("K 5 4", "K 6", "dragon_bonus_banker", -1),  # Banker lost
        ("K 2 7", "K 5 5", "dragon_bonus_player", 30),  # Player 9 vs Banker 0: by 9
        ("K K K", "K 2 6", "dragon_bonus_banker", 10),  # by 8: Banker 8 vs Player 0
        ("K 7", "K K K", "dragon_bonus_player", 6),  # by 7: Player 7 stands, Banker 0 drew 0
        ("5 K 2", "6 K", "dragon_bonus_player", -1),  # Player 7 vs Banker 6 by 1
        ("K 5 A", "K 6", "dragon_bonus_player", -1),  # tie 6-6 non-natural loses
    ],
)
def test_dragon_bonus(hand_from, player, banker, bet, expected):
    outcome = hand_from(player, banker).outcome()
    assert settle(EVERYTHING, bet, "10", outcome)[0] == D(10 * expected)


def test_dragon_7_and_panda_8(hand_from):
    dragon = hand_from("K K 3", "4 J 3").outcome()
    panda = hand_from("2 2 4", "5 Q 9").outcome()
    assert settle(EVERYTHING, "dragon_7", "5", dragon)[0] == D(200)
    assert settle(EVERYTHING, "dragon_7", "5", panda)[0] == D(-5)
    assert settle(EVERYTHING, "panda_8", "5", panda)[0] == D(125)
    assert settle(EVERYTHING, "panda_8", "5", dragon)[0] == D(-5)


def test_a_bet_the_rules_do_not_offer_is_refused():
    rules = RuleSet(side_bets=frozenset())
    with pytest.raises(BetError) as raised:
        resolve_bet(rules, BetType.PLAYER_PAIR, D(10), Outcome(Winner.TIE, player_pair=True))
    assert str(raised.value) == payouts.MSG_BET_NOT_OFFERED.format(bet="Player pair")


@pytest.mark.parametrize(
    ("rules", "bet"),
    [
        (EVERYTHING, "dragon_7"),
        (EVERYTHING, "dragon_bonus_player"),
        (EZ, "banker"),
        (SUPER6, "banker"),
    ],
)
def test_bets_settled_from_the_cards_need_the_cards(rules, bet):
    with pytest.raises(BetError) as raised:
        resolve_bet(rules, BetType(bet), D(10), Outcome(Winner.BANKER))
    assert str(raised.value) == payouts.MSG_NEEDS_CARDS.format(bet=BetType(bet).label)


@pytest.mark.parametrize("stake", ["0", "-5", "0.001", "10.005"])
def test_a_stake_must_be_positive_and_in_cents(stake):
    with pytest.raises(BetError):
        resolve_bet(RuleSet(), BetType.PLAYER, D(stake), Outcome(Winner.PLAYER))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"commission_rate": D("0.11")},
        {"commission_rate": D("-0.01")},
        {"commission_rate": D("0.00005")},
        {"commission_rate": D("0.05"), "no_commission": NoCommission.EZ},
        {"tie_pays": 7},
        {"pair_pays": 13},
    ],
)
def test_rule_sets_refuse_what_no_table_plays(kwargs):
    with pytest.raises(RuleSetError):
        RuleSet(**kwargs)


def test_rule_set_from_options_takes_percent_and_defaults_no_commission_to_zero():
    assert RuleSet.from_options(commission_percent=D(4)).commission_rate == D("0.04")
    assert RuleSet.from_options().commission_rate == D("0.05")
    assert EZ.commission_rate == 0
    with pytest.raises(RuleSetError):
        RuleSet.from_options(commission_percent=D(5), no_commission=NoCommission.SUPER6)


def test_rule_set_round_trips_through_a_dict_and_refuses_garbage():
    rules = RuleSet(commission_rate=D("0.04"), tie_pays=9, pair_pays=12, side_bets=ALL_SIDES)
    assert RuleSet.from_dict(rules.to_dict()) == rules
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({"tie_pays": "lots"})
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({"side_bets": ["roulette"]})


def test_offered_bets_follow_the_side_bets():
    assert RuleSet(side_bets=frozenset()).offered_bets == (
        BetType.PLAYER,
        BetType.BANKER,
        BetType.TIE,
    )
    assert set(EVERYTHING.offered_bets) == set(BetType)


rule_sets = st.one_of(
    st.builds(
        RuleSet,
        commission_rate=st.decimals(min_value=0, max_value=D("0.10"), places=4),
        tie_pays=st.sampled_from([8, 9]),
        pair_pays=st.sampled_from([11, 12]),
        side_bets=st.just(ALL_SIDES),
    ),
    st.just(RuleSet.from_options(no_commission=NoCommission.EZ)),
    st.just(RuleSet.from_options(no_commission=NoCommission.SUPER6)),
)
stakes = st.decimals(min_value=D("0.01"), max_value=D("100000"), places=2)


@given(rule_sets, st.sampled_from(list(BetType)), stakes, st.integers(0, 10_000))
def test_every_settled_bet_is_consistent(rules, bet_type, stake, seed):
    outcome = Shoe(8, seed=seed, burn=False).play_hand().outcome()
    result: BetResult = resolve_bet(rules, bet_type, stake, outcome)

    assert result.net == result.gross - result.commission
    assert result.house_net == -result.net
    assert result.commission >= 0
    assert result.gross >= -stake
    if result.gross <= 0:
        assert result.commission == 0
        assert result.gross in (0, -stake)
    if result.commission:
        assert bet_type is BetType.BANKER and outcome.winner is Winner.BANKER
        assert result.commission == round_money(stake * rules.commission_rate)
    for amount in (result.gross, result.commission, result.net):
        assert amount == amount.quantize(D("0.01"))


def test_a_hand_at_the_largest_table_limit_stays_within_one_ledger_amount():
    """Every seat staking the largest limit on every bet there is, each paying its longest odds
    under the richest rules (9:1 ties, 12:1 pairs, every side bet), wins less than one amount."""
    from games.cards import parse_cards
    from games.chips import MAX_CHIPS, MAX_TABLE_LIMIT
    from games.kinds import SEATS
    from games.odds import deal_counts
    from games.rules import Hand as DealtHand

    richest = RuleSet(tie_pays=9, pair_pays=12, side_bets=frozenset(payouts.SideBet))
    outcomes = [shape.outcome() for shape in deal_counts(8)]
    outcomes.append(
        DealtHand.from_cards(parse_cards("4 4"), parse_cards("9 9")).outcome()
    )  # both pairs
    longest = {
        bet_type: max(payouts.bet_return(richest, bet_type, outcome).win for outcome in outcomes)
        for bet_type in richest.offered_bets
    }
    assert longest[BetType.DRAGON_7] == 40 and longest[BetType.PLAYER_PAIR] == 12
    assert len(SEATS) * sum(longest.values()) * Fraction(MAX_TABLE_LIMIT) < Fraction(MAX_CHIPS)


@pytest.mark.parametrize("rate", ["NaN", "sNaN", "Infinity", "-Infinity", "𝟎.05", "٠.05"])
def test_a_stored_rule_set_whose_rate_is_no_number_in_0_to_9_is_refused(rate):
    with pytest.raises(RuleSetError):
        RuleSet.from_dict({"commission_rate": rate})
