from __future__ import annotations

from collections import Counter
from decimal import Decimal
from fractions import Fraction
from itertools import product

import pytest

from games.cards import RANKS, Card
from games.odds import (
    deal_counts,
    deal_denominator,
    fraction_to_decimal,
    odds_table,
    pair_probability,
)
from games.payouts import BetType, NoCommission, RuleSet
from games.rules import Winner

D = Decimal

# The published exact odds, as printed (docs/rules.md, "Exact odds").
PUBLISHED_OUTCOMES = {
    6: {"banker": "0.458652719", "player": "0.446278570", "tie": "0.095068711"},
    8: {"banker": "0.458597423", "player": "0.446246609", "tie": "0.095155968"},
}
PUBLISHED_EDGES_PERCENT = {
    # (decks, rules, bet): edge in percent, 5 decimals
    (6, RuleSet(), "banker"): "1.05585",
    (8, RuleSet(), "banker"): "1.05791",
    (6, RuleSet(commission_rate=D("0.04")), "banker"): "0.59720",
    (8, RuleSet(commission_rate=D("0.04")), "banker"): "0.59931",
    (6, RuleSet(), "player"): "1.23741",
    (8, RuleSet(), "player"): "1.23508",
    (6, RuleSet(tie_pays=9), "tie"): "4.93129",
    (8, RuleSet(tie_pays=9), "tie"): "4.84403",
    (6, RuleSet(), "tie"): "14.43816",
    (8, RuleSet(), "tie"): "14.35963",
}


@pytest.mark.parametrize("decks", [6, 8])
@pytest.mark.parametrize("winner", ["banker", "player", "tie"])
def test_outcome_probabilities_match_rules_md_to_every_digit(decks, winner):
    p = odds_table(RuleSet(), decks).outcomes[Winner(winner)]
    assert fraction_to_decimal(p, 9) == D(PUBLISHED_OUTCOMES[decks][winner])


@pytest.mark.parametrize(("case", "edge"), PUBLISHED_EDGES_PERCENT.items())
def test_house_edges_match_rules_md_to_every_digit(case, edge):
    decks, rules, bet = case
    table = odds_table(rules, decks)
    assert fraction_to_decimal(table.house_edge[BetType(bet)] * 100, 5) == D(edge)


def test_eight_deck_counts_are_the_published_combinatorial_counts():
    by_winner: Counter[Winner] = Counter()
    for shape, count in deal_counts(8).items():
        by_winner[shape.outcome().winner] += count
    assert by_winner == {
        Winner.BANKER: 2_292_252_566_437_888,
        Winner.PLAYER: 2_230_518_282_592_256,
        Winner.TIE: 475_627_426_473_216,
    }
    assert deal_denominator(8) == 4_998_398_275_503_360


@pytest.mark.parametrize("decks", range(1, 9))
def test_every_deal_is_counted_once(decks):
    assert sum(deal_counts(decks).values()) == deal_denominator(decks)


def brute_force_counts(decks: int) -> Counter[tuple[int, int, int, int]]:
    """Every ordered deal of values, one card at a time, no symmetry shortcuts."""
    remaining = [16 * decks] + [4 * decks] * 9
    cards = 52 * decks
    counts: Counter[tuple[int, int, int, int]] = Counter()

    def draw(value: int) -> int:
        ways = remaining[value]
        remaining[value] -= 1
        return ways

    for p1, b1, p2, b2 in product(range(10), repeat=4):
        ways = draw(p1) * draw(b1) * draw(p2) * draw(b2)
        if ways:
            pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
            if pt >= 8 or bt >= 8 or (pt >= 6 and bt >= 6):
                counts[(pt, bt, 2, 2)] += ways * (cards - 4) * (cards - 5)
            elif pt >= 6:  # Player stands, Banker 0-5 draws
                for b3 in range(10):
                    counts[(pt, (bt + b3) % 10, 2, 3)] += ways * remaining[b3] * (cards - 5)
            else:
                for p3 in range(10):
                    ways3 = ways * draw(p3)
                    banker_draws = {
                        0: 1,
                        1: 1,
                        2: 1,
                        3: p3 != 8,
                        4: 2 <= p3 <= 7,
                        5: 4 <= p3 <= 7,
                        6: p3 in (6, 7),
                        7: 0,
                    }[bt]
                    if banker_draws:
                        for b3 in range(10):
                            counts[((pt + p3) % 10, (bt + b3) % 10, 3, 3)] += ways3 * remaining[b3]
                    else:
                        counts[((pt + p3) % 10, bt, 3, 2)] += ways3 * (cards - 5)
                    remaining[p3] += 1
        for value in (p1, b1, p2, b2):
            remaining[value] += 1
    return +counts


def test_the_counter_agrees_with_a_brute_force_enumeration_of_a_single_deck():
    fast = {
        (s.player_total, s.banker_total, s.player_card_count, s.banker_card_count): n
        for s, n in deal_counts(1).items()
    }
    assert fast == brute_force_counts(1)


def test_pair_probability_agrees_with_counting_every_two_card_start_of_one_deck():
    deck = [Card(rank, suit) for suit in "shdc" for rank in RANKS]
    pairs = sum(a.rank == b.rank for i, a in enumerate(deck) for j, b in enumerate(deck) if i != j)
    assert pair_probability(1) == Fraction(pairs, 52 * 51)
    assert pair_probability(8) == Fraction(31, 415)


# Published figures for 8 decks (Wizard of Odds side-bet tables), to the digits they print.
@pytest.mark.parametrize(
    ("rules", "bet", "percent"),
    [
        (RuleSet(), "player_pair", "10.36"),
        (RuleSet(pair_pays=12), "banker_pair", "2.89"),
        (RuleSet(), "dragon_bonus_player", "2.65"),
        (RuleSet(), "dragon_bonus_banker", "9.37"),
        (RuleSet(), "dragon_7", "7.61"),
        (RuleSet(), "panda_8", "10.19"),
        (RuleSet.from_options(no_commission=NoCommission.EZ), "banker", "1.02"),
        (RuleSet.from_options(no_commission=NoCommission.SUPER6), "banker", "1.46"),
    ],
)
def test_side_bets_and_no_commission_games_match_published_edges(rules, bet, percent):
    edge = odds_table(rules, 8).house_edge[BetType(bet)]
    assert fraction_to_decimal(edge * 100, 2) == D(percent)


def test_every_bet_type_is_priced_even_when_not_offered():
    table = odds_table(RuleSet(side_bets=frozenset()), 8)
    assert set(table.house_edge) == set(BetType)


def test_odds_are_exact_fractions_summing_to_one():
    table = odds_table(RuleSet(), 6)
    assert all(isinstance(p, Fraction) for p in table.outcomes.values())
    assert sum(table.outcomes.values()) == 1


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_decks_outside_one_to_eight_are_refused(decks):
    with pytest.raises(ValueError, match="1 to 8 decks"):
        odds_table(RuleSet(), decks)


def test_fraction_to_decimal_rounds_half_even_without_floats():
    assert fraction_to_decimal(Fraction(1, 3), 4) == D("0.3333")
    assert fraction_to_decimal(Fraction(5, 1000), 2) == D("0.00")
    assert fraction_to_decimal(Fraction(15, 1000), 2) == D("0.02")
