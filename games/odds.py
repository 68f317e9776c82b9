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


# The counts are kept in a flat list while they are added up: the loops add to it some 100,000
# times for any number of decks, and a list index costs a fraction of hashing a dataclass key.
# A deal's cell is ``player_total·40 + banker_total·4 + 2·(Player drew) + (Banker drew)``.
_CELLS = 400
_PLAYER_DREW = 2
_BANKER_DREW = 1


def _cell_shape(cell: int) -> DealShape:
    return DealShape(
        player_total=cell // 40,
        banker_total=cell // 4 % 10,
        player_card_count=2 + cell // _PLAYER_DREW % 2,
        banker_card_count=2 + cell % 2,
    )


# For a Banker two-card total: whether it draws against each Player third card, and the offset of
# the cell (within a Player total's row) that each Banker third card leads to.
_BANKER_DRAWS_AGAINST = [[banker_draws(total, third) for third in range(10)] for total in range(10)]
_BANKER_THIRD_OFFSETS = [
    [(total + third) % 10 * 4 + _BANKER_DREW for third in range(10)] for total in range(10)
]


@cache
def deal_counts(decks: int) -> dict[DealShape, int]:
    """How many ordered six-card sequences lead to each deal shape."""
    check_decks(decks)
    cells = _deal_cells(decks)
    return {_cell_shape(cell): count for cell, count in enumerate(cells) if count}


def _deal_cells(decks: int) -> list[int]:
    """The ordered six-card sequences per cell (see ``_cell_shape``)."""
    full_shoe = [16 * decks] + [4 * decks] * 9
    remaining = full_shoe[:]
    cards = CARDS_PER_DECK * decks
    after_four, after_five = (cards - 4) * (cards - 5), cards - 5
    cells = [0] * _CELLS
    # The Banker's third card could be any card left: rather than ten additions per deal, each
    # deal adds its weight once to ``to_spread`` (its cell before the Banker's card), as if from
    # the full shoe, and takes back the four or five cards already out of it.
    to_spread = [0] * _CELLS
    for p_low, p_high, p_orders in TWO_CARD_VALUES:
        p_ways = remaining[p_low]
        remaining[p_low] -= 1
        p_ways *= remaining[p_high] * p_orders
        remaining[p_high] -= 1
        player_two = (p_low + p_high) % 10
        for b_low, b_high, b_orders in TWO_CARD_VALUES:
            ways = remaining[b_low]
            remaining[b_low] -= 1
            ways *= remaining[b_high] * b_orders * p_ways
            remaining[b_high] -= 1
            if ways:
                out = (p_low, p_high, b_low, b_high)
                banker_two = (b_low + b_high) % 10
                _count_draws(cells, to_spread, remaining, out, ways, player_two, banker_two)
            remaining[b_high] += 1
            remaining[b_low] += 1
        remaining[p_high] += 1
        remaining[p_low] += 1

    for cell, weight in enumerate(to_spread):
        if weight:
            banker_two = cell // 4 % 10
            row = cell - banker_two * 4
            offsets = _BANKER_THIRD_OFFSETS[banker_two]
            for offset, value_ways in zip(offsets, full_shoe, strict=True):
                cells[row + offset] += weight * value_ways
    # A hand of four or five cards stands for every order the unused cards of the six could
    # follow it in: one factor per cell, taken out of the loops above.
    for cell in range(_CELLS):
        cards_dealt = 4 + cell // _PLAYER_DREW % 2 + cell % 2
        cells[cell] *= {4: after_four, 5: after_five, 6: 1}[cards_dealt]
    return cells


def _count_draws(
    cells: list[int],
    to_spread: list[int],
    remaining: list[int],
    out: tuple[int, int, int, int],
    ways: int,
    player_two: int,
    banker_two: int,
) -> None:
    """Add the deals that follow given first four cards (``ways`` orderings of them)."""
    row = player_two * 40
    if player_two >= 8 or banker_two >= 8 or not player_draws(player_two):
        # Natural, or the Player stands: the Banker acts alone on its total.
        if player_two < 8 and banker_two < 8 and banker_draws(banker_two, None):
            offsets = _BANKER_THIRD_OFFSETS[banker_two]
            to_spread[row + banker_two * 4] += ways
            for value in out:
                cells[row + offsets[value]] -= ways
        else:
            cells[row + banker_two * 4] += ways
        return

    draws_against, offsets = _BANKER_DRAWS_AGAINST[banker_two], _BANKER_THIRD_OFFSETS[banker_two]
    out_offsets = [offsets[value] for value in out]
    for third in range(10):
        third_ways = remaining[third]
        if not third_ways:
            continue
        row = (player_two + third) % 10 * 40 + _PLAYER_DREW
        both_ways = ways * third_ways
        if not draws_against[third]:
            cells[row + banker_two * 4] += both_ways
            continue
        to_spread[row + banker_two * 4] += both_ways
        cells[row + offsets[third]] -= both_ways
        for offset in out_offsets:
            cells[row + offset] -= both_ways


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
    return _edge_over(rules, bet_type, _deal_outcomes(decks), deal_denominator(decks))


def _deal_outcomes(decks: int) -> list[tuple[Outcome, int]]:
    return [(shape.outcome(), count) for shape, count in deal_counts(decks).items()]


def _edge_over(
    rules: RuleSet, bet_type: BetType, outcomes: list[tuple[Outcome, int]], denominator: int
) -> Fraction:
    # A bet returns one of a handful of amounts: add up the deals per amount in integers and
    # turn each sum into a fraction once, rather than a fraction per deal shape.
    deals_per_return: defaultdict[tuple[int, int, int, int], int] = defaultdict(int)
    for outcome, count in outcomes:
        unit = bet_return(rules, bet_type, outcome)
        win, commission = unit.win, unit.commission
        key = (win.numerator, win.denominator, commission.numerator, commission.denominator)
        deals_per_return[key] += count
    expected = sum(
        (Fraction(win, win_per) - Fraction(cut, cut_per)) * deals
        for (win, win_per, cut, cut_per), deals in deals_per_return.items()
    )
    return -Fraction(expected) / denominator


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
    deal_outcomes = _deal_outcomes(decks)
    edges = {
        bet: _pair_edge(pricing, bet, decks)
        if bet in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR)
        else _edge_over(pricing, bet, deal_outcomes, denominator)
        for bet in BetType
    }
    return OddsTable(decks=decks, rules=rules, outcomes=outcomes, house_edge=edges)
