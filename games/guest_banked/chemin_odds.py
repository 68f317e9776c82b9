"""Chemin de fer's exact odds when the ponte and the banker both make their best choices.

A coup of Chemin de fer is a two-person zero-sum game (house-free: the banker wins or loses the
ponte's stake, a tie is void). The ponte, seeing his two-card total, chooses on 5; the banker,
seeing his own two cards and what the ponte did (his third card, or that he stood), chooses in
his optional cells. The ponte's strategy is the chance ``p`` that he draws on 5; the banker's, a
draw or stand (or a mix) for each of his cells. Every probability is linear in ``p`` and in the
banker's choice at each cell separately, so the ponte's best ``p`` minimises a convex piecewise
linear function — the banker's best response, cell by cell — whose corners are the ``p`` at which
some cell's best choice turns over. We evaluate it exactly at every corner and at 0 and 1; where
the minimum falls on a corner, the banker mixes in that cell so that the ponte cannot gain by
moving ``p`` (the minimax theorem makes this pair optimal).

Counting is :mod:`games.odds`'s: every ordered deal is counted as the first six cards of the shoe
(common denominator ``N·(N−1)·…·(N−5)``), cards by baccarat value, integers and Fractions only.
``decks=None`` is an infinite shoe (cards dealt with replacement, one deck's proportions): the
model of Kemeny and Snell (1957). With a finite shoe the banker may read his two cards, not only
their total (the model of Downton and Lockwood, 1975); the ponte reads his total only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from games.cards import CARDS_PER_DECK, check_decks
from games.guest_banked.chemin_drawing import Choice, banker_choices
from games.odds import TWO_CARD_VALUES, deal_denominator
from games.rules import Winner

# Banker wins, ponte wins, ties: ways out of the deal denominator.
Counts = tuple[int, int, int]
# A branch's counts when the ponte stands on 5 (p = 0) and when he draws on 5 (p = 1); at any
# other p they are the mix of the two.
Line = tuple[Counts, Counts]
BankerRules = Callable[[int, int | None], frozenset[Choice]]


@dataclass(frozen=True)
class BankerCell:
    """Where the banker decides: his two-card total (and his two cards' values, lower first,
    when he reads them) against the value of the ponte's third card (``None``: the ponte stood)."""

    banker_total: int
    ponte_third: int | None
    banker_cards: tuple[int, int] | None = None

    def sort_key(self) -> tuple[int, int, tuple[int, int]]:
        third = -1 if self.ponte_third is None else self.ponte_third
        return (self.banker_total, third, self.banker_cards or (-1, -1))

    def __str__(self) -> str:
        against = "stood" if self.ponte_third is None else f"third card {self.ponte_third}"
        cards = f" ({self.banker_cards[0]}+{self.banker_cards[1]})" if self.banker_cards else ""
        return f"banker {self.banker_total}{cards} vs {against}"


@dataclass(frozen=True)
class _Deals:
    """Every deal, counted: the naturals (nobody chooses) and, for each banker cell, the counts
    if he draws and if he stands."""

    denominator: int
    naturals: Counts
    cells: Mapping[BankerCell, Mapping[Choice, Line]]


def _shoe(decks: int | None) -> tuple[list[int], int, bool]:
    if decks is not None:
        check_decks(decks)
    per_deck = 1 if decks is None else decks
    return [16 * per_deck] + [4 * per_deck] * 9, CARDS_PER_DECK * per_deck, decks is None


@cache
def _count_deals(decks: int | None, banker_sees_cards: bool) -> _Deals:
    remaining, cards, infinite = _shoe(decks)
    # pad[k]: the ways the unused cards of a k-card deal may follow it, up to six cards.
    pad = [1] * 7
    for used in range(5, -1, -1):
        pad[used] = pad[used + 1] * (cards if infinite else cards - used)
    denominator = pad[0] if decks is None else deal_denominator(decks)
    naturals = [0, 0, 0]
    cells: dict[BankerCell, dict[Choice, list[list[int]]]] = {}

    def take(value: int) -> int:
        ways = remaining[value]
        if not infinite:
            remaining[value] -= 1
        return ways

    def put_back(value: int) -> None:
        if not infinite:
            remaining[value] += 1

    def tally(counts: list[int], ponte: int, banker: int, ways: int) -> None:
        counts[0 if banker > ponte else 1 if ponte > banker else 2] += ways

    def banker_plays(
        cell: BankerCell, at: tuple[int, ...], ponte: int, banker: int, ways: int, used: int
    ) -> None:
        """Both of the banker's actions after ``used`` cards, for the ponte strategies ``at``."""
        branches = cells.setdefault(cell, {choice: [[0, 0, 0], [0, 0, 0]] for choice in Choice})
        for p in at:
            tally(branches[Choice.STAND][p], ponte, banker, ways * pad[used])
        for value in range(10):
            if remaining[value]:
                drawn = ways * remaining[value] * pad[used + 1]
                for p in at:
                    tally(branches[Choice.DRAW][p], ponte, (banker + value) % 10, drawn)

    for p_low, p_high, p_orders in TWO_CARD_VALUES:
        ponte_ways = take(p_low) * take(p_high) * p_orders
        ponte_two = (p_low + p_high) % 10
        for b_low, b_high, b_orders in TWO_CARD_VALUES:
            ways = ponte_ways * take(b_low) * take(b_high) * b_orders
            banker_two = (b_low + b_high) % 10
            seen = (b_low, b_high) if banker_sees_cards else None
            natural = ponte_two >= 8 or banker_two >= 8
            if ways and natural:
                tally(naturals, ponte_two, banker_two, ways * pad[4])
            elif ways:
                if ponte_two >= 5:  # 6, 7 stand; 5 stands at p = 0
                    at = (0,) if ponte_two == 5 else (0, 1)
                    cell = BankerCell(banker_two, None, seen)
                    banker_plays(cell, at, ponte_two, banker_two, ways, 4)
                if ponte_two <= 5:  # 0–4 draw; 5 draws at p = 1
                    at = (1,) if ponte_two == 5 else (0, 1)
                    for third in range(10):
                        third_ways = take(third)
                        if third_ways:
                            cell = BankerCell(banker_two, third, seen)
                            ponte = (ponte_two + third) % 10
                            banker_plays(cell, at, ponte, banker_two, ways * third_ways, 5)
                        put_back(third)
            put_back(b_high)
            put_back(b_low)
        put_back(p_high)
        put_back(p_low)

    frozen = {
        cell: {choice: (_counts(line[0]), _counts(line[1])) for choice, line in branches.items()}
        for cell, branches in cells.items()
    }
    return _Deals(denominator, _counts(naturals), frozen)


def _counts(values: list[int]) -> Counts:
    return (values[0], values[1], values[2])


def _at(line: Line, p: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    stands, draws = line
    b, w, t = (Fraction(s) + p * (d - s) for s, d in zip(stands, draws, strict=True))
    return b, w, t


def _banker_gain(line: Line, p: Fraction) -> Fraction:
    """The banker's expected gain on a branch, in ways (house-free)."""
    banker_wins, ponte_wins, _ties = _at(line, p)
    return banker_wins - ponte_wins


@dataclass(frozen=True)
class Solution:
    """Both sides' best play and what it gives.

    ``ponte_draws_on_five``: the chance the ponte draws on 5; ``banker_draws``: for each of the
    banker's optional cells, the chance he draws; ``outcomes``: each result's probability under
    that play (``Winner.PLAYER`` is the ponte)."""

    decks: int | None
    ponte_draws_on_five: Fraction
    banker_draws: dict[BankerCell, Fraction]
    outcomes: dict[Winner, Fraction]

    @property
    def banker_edge(self) -> Fraction:
        """The banker's expected gain per unit the ponte stakes, house-free (ties included): the
        value of the game."""
        return self.outcomes[Winner.BANKER] - self.outcomes[Winner.PLAYER]

    def banker_edge_after(self, taxe: Fraction) -> Fraction:
        """The banker's edge when the house takes ``taxe`` of his winning coups (by rule, 5%)."""
        return (1 - taxe) * self.outcomes[Winner.BANKER] - self.outcomes[Winner.PLAYER]


@dataclass(frozen=True)
class CheminGame:
    """A coup of Chemin de fer as a game, for one shoe and one set of banker rules."""

    decks: int | None
    deals: _Deals
    options: Mapping[BankerCell, frozenset[Choice]]

    @property
    def choice_cells(self) -> list[BankerCell]:
        """The banker's cells with a choice, in table order."""
        cells = (cell for cell, allowed in self.options.items() if len(allowed) == 2)
        return sorted(cells, key=BankerCell.sort_key)

    def _line(self, cell: BankerCell, draws: Fraction) -> Iterator[tuple[Fraction, Line]]:
        allowed = self.options[cell]
        if len(allowed) == 1:
            (choice,) = allowed
            yield Fraction(1), self.deals.cells[cell][choice]
            return
        yield draws, self.deals.cells[cell][Choice.DRAW]
        yield 1 - draws, self.deals.cells[cell][Choice.STAND]

    def outcomes(
        self, ponte_draws_on_five: Fraction, banker_draws: Mapping[BankerCell, Fraction]
    ) -> dict[Winner, Fraction]:
        """Each result's probability when the ponte draws on 5 with the given chance and the
        banker draws in each optional cell with the given chance (a cell not given: he stands)."""
        totals = [Fraction(n) for n in self.deals.naturals]
        for cell in self.options:
            draws = banker_draws.get(cell, Fraction(0))
            for weight, line in self._line(cell, draws):
                if weight:
                    for index, ways in enumerate(_at(line, ponte_draws_on_five)):
                        totals[index] += weight * ways
        denominator = self.deals.denominator
        return {
            Winner.BANKER: totals[0] / denominator,
            Winner.PLAYER: totals[1] / denominator,
            Winner.TIE: totals[2] / denominator,
        }

    def cell_gain(self, cell: BankerCell, ponte_draws_on_five: Fraction) -> Fraction:
        """What drawing rather than standing in ``cell`` adds to the banker's edge (over all
        coups), when the ponte draws on 5 with the given chance."""
        branches = self.deals.cells[cell]
        gain = _banker_gain(branches[Choice.DRAW], ponte_draws_on_five)
        gain -= _banker_gain(branches[Choice.STAND], ponte_draws_on_five)
        return gain / self.deals.denominator

    def best_response(self, ponte_draws_on_five: Fraction) -> dict[BankerCell, frozenset[Choice]]:
        """The banker's best choices in each optional cell against the ponte's strategy (both,
        where they are worth the same)."""
        best = {}
        for cell in self.choice_cells:
            gain = self.cell_gain(cell, ponte_draws_on_five)
            best[cell] = (
                frozenset(Choice)
                if gain == 0
                else frozenset({Choice.DRAW if gain > 0 else Choice.STAND})
            )
        return best

    def banker_best_edge(self, ponte_draws_on_five: Fraction) -> Fraction:
        """The banker's edge when he answers the ponte's strategy with his best response."""
        edge = Fraction(self.deals.naturals[0] - self.deals.naturals[1])
        for cell, allowed in self.options.items():
            branches = self.deals.cells[cell]
            edge += max(_banker_gain(branches[choice], ponte_draws_on_five) for choice in allowed)
        return edge / self.deals.denominator

    def solve(self) -> Solution:
        """The ponte's best strategy against the banker's best response, and the banker's
        optimal answer to it (mixing where the ponte's best ``p`` is a corner)."""
        corners = {Fraction(0), Fraction(1)}
        for cell in self.choice_cells:
            at_zero, at_one = self.cell_gain(cell, Fraction(0)), self.cell_gain(cell, Fraction(1))
            if (at_zero < 0 < at_one) or (at_one < 0 < at_zero):
                corners.add(at_zero / (at_zero - at_one))
        # Ties go to the larger p: when drawing on 5 costs the ponte nothing, he draws.
        ponte = min(corners, key=lambda p: (self.banker_best_edge(p), -p))
        banker = {
            cell: Fraction(1) if Choice.DRAW in best else Fraction(0)
            for cell, best in self.best_response(ponte).items()
        }
        undecided = [cell for cell in self.choice_cells if self.cell_gain(cell, ponte) == 0]
        if undecided:
            banker |= self._keep_the_ponte_at(ponte, banker, undecided)
        return Solution(self.decks, ponte, banker, self.outcomes(ponte, banker))

    def _keep_the_ponte_at(
        self, ponte: Fraction, banker: dict[BankerCell, Fraction], undecided: list[BankerCell]
    ) -> dict[BankerCell, Fraction]:
        """The banker's mix in the cells where he is indifferent at the ponte's best ``p``: one
        chance to draw for all of them, such that the ponte gains nothing by moving ``p`` (the
        banker's edge flat in ``p`` inside; not falling inward from an end)."""

        def slope(draws: Fraction) -> Fraction:
            # The banker's edge is linear in p: its slope is its rise from p = 0 to p = 1.
            mix = banker | dict.fromkeys(undecided, draws)
            at_one, at_zero = self.outcomes(Fraction(1), mix), self.outcomes(Fraction(0), mix)
            return (at_one[Winner.BANKER] - at_one[Winner.PLAYER]) - (
                at_zero[Winner.BANKER] - at_zero[Winner.PLAYER]
            )

        never, always = slope(Fraction(0)), slope(Fraction(1))
        if 0 < ponte < 1 and never != always and 0 <= never / (never - always) <= 1:
            return dict.fromkeys(undecided, never / (never - always))
        for draws, rise in ((Fraction(1), always), (Fraction(0), never)):
            if (ponte == 1 and rise <= 0) or (ponte == 0 and rise >= 0) or (rise == 0):
                return dict.fromkeys(undecided, draws)
        raise ArithmeticError("no banker strategy keeps the ponte at his best play")


def chemin_game(
    decks: int | None,
    *,
    banker_sees_cards: bool | None = None,
    banker_rules: BankerRules = banker_choices,
) -> CheminGame:
    """The game for a shoe of ``decks`` decks (``None``: infinite). ``banker_sees_cards``: whether
    the banker decides on his two cards or only their total (default: cards for a finite shoe,
    where they tell him about the shoe; only the total for an infinite one, where they do not).
    ``banker_rules``: what the banker may do in each cell (Chemin de fer's table)."""
    sees_cards = decks is not None if banker_sees_cards is None else banker_sees_cards
    deals = _count_deals(decks, sees_cards)
    options = {cell: banker_rules(cell.banker_total, cell.ponte_third) for cell in deals.cells}
    return CheminGame(decks, deals, options)


def chemin_odds(decks: int | None) -> Solution:
    """Best play under Chemin de fer's rules and the edge it gives, for ``decks`` decks."""
    return chemin_game(decks).solve()
