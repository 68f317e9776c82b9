"""Exact odds by combinatorial count of every ordered deal from a finite shoe.

Every deal is counted as the first six cards out of the shoe, so that hands of four, five and six
cards share one denominator, ``N·(N−1)·…·(N−5)`` for an ``N``-card shoe: a four-card hand stands
for the ``(N−4)(N−5)`` ways the two unused cards could follow it. For eight decks that denominator
is 4,998,398,275,503,360, the figure the published tables count over.

Cards are enumerated by baccarat value (tens and pictures are one value, 16 per deck), and the
two cards of each side in value order, doubling unequal pairs: the count of an ordered deal
depends only on how many cards of each value it takes out, not on their order. All counting is in
integers and :class:`fractions.Fraction`; floats appear only when printing.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from functools import cache

from games.cards import CARDS_PER_DECK, check_decks
from games.payouts import BetType, RuleSet, SideBet, bet_return
from games.rules import Outcome, Winner, banker_draws, decide_winner, player_draws

# Two cards by value, lower first, with the number of orders they can come in.
TWO_CARD_VALUES = [
    (low, high, 1 if low == high else 2) for low in range(10) for high in range(low, 10)
]


@dataclass(frozen=True, order=True)
class DealShape:
    """What a deal decides for every bet except the pairs."""

    player_total: int
    banker_total: int
    player_card_count: int
    banker_card_count: int

    def outcome(self) -> Outcome:
        return Outcome(
            winner=decide_winner(self.player_total, self.banker_total),
            player_total=self.player_total,
            banker_total=self.banker_total,
            player_card_count=self.player_card_count,
            banker_card_count=self.banker_card_count,
        )


def deal_denominator(decks: int) -> int:
    """The number of ordered six-card sequences from the top of an ``decks``-deck shoe."""
    cards = CARDS_PER_DECK * decks
    result = 1
    for taken in range(6):
        result *= cards - taken
    return result


@cache
def deal_counts(decks: int) -> dict[DealShape, int]:
    """How many ordered six-card sequences lead to each deal shape."""
    check_decks(decks)
    remaining = [16 * decks] + [4 * decks] * 9
    cards = CARDS_PER_DECK * decks
    after_four, after_five = (cards - 4) * (cards - 5), cards - 5
    counts: defaultdict[DealShape, int] = defaultdict(int)

    def take(value: int) -> int:
        ways = remaining[value]
        remaining[value] -= 1
        return ways

    for p_low, p_high, p_orders in TWO_CARD_VALUES:
        p_ways = take(p_low) * take(p_high) * p_orders
        player_two = (p_low + p_high) % 10
        for b_low, b_high, b_orders in TWO_CARD_VALUES:
            ways = p_ways * take(b_low) * take(b_high) * b_orders
            if ways:
                _count_draws(
                    counts,
                    remaining,
                    ways,
                    player_two,
                    (b_low + b_high) % 10,
                    after_four,
                    after_five,
                )
            remaining[b_high] += 1
            remaining[b_low] += 1
        remaining[p_high] += 1
        remaining[p_low] += 1
    return dict(counts)


def _count_draws(
    counts: defaultdict[DealShape, int],
    remaining: list[int],
    ways: int,
    player_two: int,
    banker_two: int,
    after_four: int,
    after_five: int,
) -> None:
    """Add the deals that follow a given first four cards (``ways`` orderings of them)."""
    if player_two >= 8 or banker_two >= 8 or not player_draws(player_two):
        # Natural, or the Player stands: the Banker acts alone on its total.
        if player_two < 8 and banker_two < 8 and banker_draws(banker_two, None):
            for value in range(10):
                if remaining[value]:
                    shape = DealShape(player_two, (banker_two + value) % 10, 2, 3)
                    counts[shape] += ways * remaining[value] * after_five
        else:
            counts[DealShape(player_two, banker_two, 2, 2)] += ways * after_four
        return

    for third in range(10):
        third_ways = remaining[third]
        if not third_ways:
            continue
        player_total = (player_two + third) % 10
        if not banker_draws(banker_two, third):
            shape = DealShape(player_total, banker_two, 3, 2)
            counts[shape] += ways * third_ways * after_five
            continue
        remaining[third] -= 1
        for value in range(10):
            if remaining[value]:
                shape = DealShape(player_total, (banker_two + value) % 10, 3, 3)
                counts[shape] += ways * third_ways * remaining[value]
        remaining[third] += 1


def fraction_to_decimal(value: Fraction, places: int) -> Decimal:
    """An exact fraction printed to ``places`` decimals, rounded half-even (no float detour)."""
    with localcontext() as context:
        context.prec = places + 30
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def pair_probability(decks: int) -> Fraction:
    """Chance that a side's first two cards share a rank: 13 ranks of 4·d cards each."""
    check_decks(decks)
    per_rank, cards = 4 * decks, CARDS_PER_DECK * decks
    return Fraction(13 * per_rank * (per_rank - 1), cards * (cards - 1))


@dataclass(frozen=True)
class OddsTable:
    decks: int
    rules: RuleSet
    outcomes: dict[Winner, Fraction]
    house_edge: dict[BetType, Fraction]

    def as_json(self) -> dict[str, object]:
        return {
            "decks": self.decks,
            "rules": self.rules.to_dict(),
            "outcomes": {
                winner.value: {
                    "p": float(p),
                    "exact": f"{p.numerator}/{p.denominator}",
                }
                for winner, p in self.outcomes.items()
            },
            "house_edge": {bet.value: float(edge) for bet, edge in self.house_edge.items()},
        }


def _pair_edge(rules: RuleSet, bet_type: BetType, decks: int) -> Fraction:
    # A pair bet depends on its two cards only, so its edge needs the pair chance alone;
    # the winner below is a placeholder the pair payout never reads.
    p_pair = pair_probability(decks)
    flag = "player_pair" if bet_type is BetType.PLAYER_PAIR else "banker_pair"
    paid = bet_return(rules, bet_type, Outcome(Winner.TIE, **{flag: True})).win
    lost = bet_return(rules, bet_type, Outcome(Winner.TIE)).win
    return -(p_pair * paid + (1 - p_pair) * lost)


def house_edge(rules: RuleSet, bet_type: BetType, decks: int) -> Fraction:
    """The house's expected gain per unit staked, positive when the house has the edge."""
    if bet_type in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        return _pair_edge(rules, bet_type, decks)
    denominator = deal_denominator(decks)
    expected = Fraction(0)
    for shape, count in deal_counts(decks).items():
        unit = bet_return(rules, bet_type, shape.outcome())
        expected += Fraction(count, denominator) * (unit.win - unit.commission)
    return -expected


def odds_table(rules: RuleSet, decks: int) -> OddsTable:
    """Every outcome's probability and every bet type's house edge, priced under ``rules``.

    Side bets the rules do not offer are still priced, with their standard payouts, so a host can
    compare before offering them.
    """
    check_decks(decks)
    pricing = RuleSet(
        commission_rate=rules.commission_rate,
        no_commission=rules.no_commission,
        tie_pays=rules.tie_pays,
        pair_pays=rules.pair_pays,
        side_bets=frozenset(SideBet),
    )
    denominator = deal_denominator(decks)
    by_winner: defaultdict[Winner, int] = defaultdict(int)
    for shape, count in deal_counts(decks).items():
        by_winner[decide_winner(shape.player_total, shape.banker_total)] += count
    outcomes = {winner: Fraction(by_winner[winner], denominator) for winner in Winner}
    edges = {bet: house_edge(pricing, bet, decks) for bet in BetType}
    return OddsTable(decks=decks, rules=rules, outcomes=outcomes, house_edge=edges)
