"""Baccara banque's exact odds: one banker against two tableaux, every deal of a finite shoe
counted.

The play is :mod:`banque_drawing`'s. Each ponte follows Chemin de fer's ponte (draws on 0–4,
stands on 6–7, chooses on 5); the banker, with one hand against both, follows Chemin de fer's
table where it gives one answer against every tableau still playing, and chooses where it
pulls two ways (or gives him a choice against both). A natural of the banker's ends the coup; a
ponte's natural wins his tableau at once (a banker without a natural cannot match it) and the
banker then plays against the other tableau alone.

What each side decides on, here:

- **A ponte** chooses on 5 once and for all: always draw or always stand (``Choice``). We price
  the four pairs of choices and find the pontes' best: the pair where neither ponte loses less
  on his own tableau by changing his (:attr:`BanqueOdds.fives`).
- **The banker** sees his own two-card total and what each tableau showed: a natural, that the
  ponte stood, or the ponte's third card (dealt face up). In each cell where he may choose he
  takes whatever gives him more over both tableaux, the stakes on them weighted as given
  (equal, by default), knowing how the pontes play their 5s; on an exact tie he stands.
  Reading his two cards rather than their total would tell him a little more about the shoe;
  we give him the total, so that his play is a table one can print.

Counting is :mod:`games.odds`'s, for nine cards: every deal is counted as the first nine cards
of the shoe (common denominator ``N·(N−1)·…·(N−8)``), cards by baccarat value, integers and
Fractions only: exact, no simulation and no infinite-deck shortcut (``decks=None`` gives the
infinite shoe, cards dealt with replacement, for comparison). A count runs for a few seconds,
so the page reads :func:`priced`: the figures for one to eight decks, written to
``games/guest_banked_odds.json`` by ``python -m games.guest_banked.banque_odds`` (with Chemin de
fer's best play, :func:`chemin_priced`) and checked against a fresh count by the tests.

Plain Python, no Django.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import accumulate
from math import lcm
from pathlib import Path
from typing import Any

from games.cards import MAX_DECKS, MIN_DECKS, check_decks
from games.guest_banked.banque_drawing import banque_banker_choices
from games.guest_banked.chemin_drawing import Choice, ponte_choices
from games.guest_banked.chemin_odds import BankerCell, Solution, chemin_odds
from games.odds import TWO_CARD_VALUES
from games.rules import Winner

CARDS_DEALT = 9  # at most: three to each tableau and to the banker
# What the banker sees of a tableau: the value of its ponte's third card (0–9), or these.
STOOD, NATURAL = 10, 11
STATES = (*range(10), STOOD, NATURAL)
# A tableau's result, as an index: the banker wins it, its ponte wins, égalité.
BANKER_WINS, PONTE_WINS, EGALITE = 0, 1, 2
RESULTS = (Winner.BANKER, Winner.PLAYER, Winner.TIE)
GAIN = (1, -1, 0)  # the banker's, per unit staked on the tableau
# Both tableaux' results (9 counts, index = first * 3 + second), in ways out of the denominator.
Joint = tuple[int, ...]
Fives = tuple[Choice, Choice]
PROFILES: tuple[Fives, ...] = tuple((one, two) for one in Choice for two in Choice)
EQUAL_STAKES = (1, 1)


@dataclass(frozen=True, order=True)
class BanqueCell:
    """Where the banker decides: his two-card total and what each tableau shows."""

    banker_total: int
    first: int  # 0–9: the ponte's third card; STOOD; NATURAL
    second: int

    @property
    def thirds(self) -> list[int | None]:
        """The tableaux still playing, as Chemin de fer's table reads them."""
        return [
            None if state == STOOD else state
            for state in (self.first, self.second)
            if state != NATURAL
        ]

    def options(self) -> frozenset[Choice]:
        return banque_banker_choices(self.banker_total, self.thirds)


@dataclass(frozen=True)
class BanqueDeals:
    """Every deal, counted: the banker's naturals (nobody chooses) and, for each cell where the
    banker acts, both tableaux' results if he draws and if he stands."""

    denominator: int
    naturals: Joint
    cells: Mapping[BanqueCell, Mapping[Choice, Joint]]


def _shoe(decks: int | None) -> tuple[tuple[int, ...], bool]:
    if decks is not None:
        check_decks(decks)
    per_deck = 1 if decks is None else decks
    return (16 * per_deck, *([4 * per_deck] * 9)), decks is None


def _pad(cards: int, infinite: bool) -> list[int]:
    """``pad[k]``: the ways the unused cards of a ``k``-card deal may follow it, up to nine."""
    pad = [1] * (CARDS_DEALT + 1)
    for used in range(CARDS_DEALT - 1, -1, -1):
        pad[used] = pad[used + 1] * (cards if infinite else cards - used)
    return pad


def _stands(two_card_total: int, five: Choice) -> bool:
    allowed = ponte_choices(two_card_total)
    return (five if len(allowed) == 2 else next(iter(allowed))) is Choice.STAND


def banque_deals(decks: int | None, fives: Fives) -> BanqueDeals:
    """Every deal of a ``decks``-deck shoe (``None``: infinite), counted, when the pontes of
    tableau 1 and 2 play their 5s as ``fives`` says."""
    shoe, infinite = _shoe(decks)
    return count_deals(shoe, fives, infinite=infinite)


@cache
def count_deals(shoe: tuple[int, ...], fives: Fives, *, infinite: bool = False) -> BanqueDeals:
    """The count for any shoe: ``shoe[v]`` cards of value ``v`` (at least nine cards)."""
    if sum(shoe) < CARDS_DEALT and not infinite:
        raise ValueError("A coup of Baccara banque may take nine cards.")
    pad = _pad(sum(shoe), infinite)
    cut = 0 if infinite else 1  # what a card dealt takes out of the shoe
    remaining = list(shoe)
    # First the banker's two cards and tableau 1's hand; what tableau 2 and the banker's third
    # card can be depends only on the cards left, so the deals are grouped by them.
    groups: defaultdict[tuple[int, ...], list[tuple[int, int, int, int, int]]] = defaultdict(list)
    natural_groups: defaultdict[tuple[int, ...], list[tuple[int, int, int]]] = defaultdict(list)

    def take(value: int) -> int:
        ways = remaining[value]
        remaining[value] -= cut
        return ways

    def put_back(*values: int) -> None:
        for value in values:
            remaining[value] += cut

    for b_low, b_high, b_orders in TWO_CARD_VALUES:
        banker_ways = take(b_low) * take(b_high) * b_orders
        banker_total = (b_low + b_high) % 10
        for p_low, p_high, p_orders in TWO_CARD_VALUES if banker_ways else ():
            ways = banker_ways * take(p_low) * take(p_high) * p_orders
            two = (p_low + p_high) % 10
            if not ways:
                pass
            elif banker_total >= 8:
                natural_groups[tuple(remaining)].append((banker_total, two, ways))
            elif two >= 8:
                groups[tuple(remaining)].append((banker_total, NATURAL, two, ways, 4))
            elif _stands(two, fives[0]):
                groups[tuple(remaining)].append((banker_total, STOOD, two, ways, 4))
            else:
                for third in range(10):
                    third_ways = take(third)
                    if third_ways:
                        entry = (banker_total, third, (two + third) % 10, ways * third_ways, 5)
                        groups[tuple(remaining)].append(entry)
                    put_back(third)
            put_back(p_high, p_low)
        put_back(b_high, b_low)

    naturals = [0] * 9
    for left, settled in natural_groups.items():
        _add_naturals(naturals, left, settled, pad, cut)
    cells: dict[tuple[int, int, int], list[list[int]]] = {}
    for left, entries in groups.items():
        _add_second(cells, left, entries, fives[1], pad, cut)
    frozen = {
        BanqueCell(*key): {Choice.STAND: tuple(stand), Choice.DRAW: tuple(draw)}
        for key, (stand, draw) in sorted(cells.items())
    }
    return BanqueDeals(pad[0], tuple(naturals), frozen)


def _result(ponte: int, banker: int) -> int:
    return BANKER_WINS if banker > ponte else PONTE_WINS if ponte > banker else EGALITE


def _add_naturals(
    naturals: list[int],
    left: Sequence[int],
    entries: list[tuple[int, int, int]],
    pad: list[int],
    cut: int,
) -> None:
    """The banker has a natural: tableau 2's two cards only, everything settled at once."""
    by_total = [0] * 10
    for low, high, orders in TWO_CARD_VALUES:
        by_total[(low + high) % 10] += left[low] * (left[high] - cut * (low == high)) * orders
    for banker_total, first, ways in entries:
        for second, count in enumerate(by_total):
            if count:
                index = _result(first, banker_total) * 3 + _result(second, banker_total)
                naturals[index] += ways * count * pad[6]


def _second_hands(
    left: Sequence[int], five: Choice, cut: int
) -> tuple[list[list[int]], list[list[list[int]]]]:
    """Tableau 2's hands from the cards ``left``, as running sums over its final total ``t``:
    ``below[state][t]``, the ways to end below ``t``, and ``held[state][value][t]``, the same
    weighted by how many cards of ``value`` each hand holds (what it takes from the chances of
    the banker's third card)."""
    ways = [[0] * 10 for _ in STATES]
    holding = [[[0] * 10 for _ in range(10)] for _ in STATES]
    for low, high, orders in TWO_CARD_VALUES:
        two_ways = left[low] * (left[high] - cut * (low == high)) * orders
        if not two_ways:
            continue
        two = (low + high) % 10
        if two >= 8 or _stands(two, five):
            state = NATURAL if two >= 8 else STOOD
            ways[state][two] += two_ways
            holding[state][low][two] += two_ways
            holding[state][high][two] += two_ways
            continue
        for third in range(10):
            hand_ways = two_ways * (left[third] - cut * ((third == low) + (third == high)))
            if hand_ways:
                final = (two + third) % 10
                ways[third][final] += hand_ways
                for value in (low, high, third):
                    holding[third][value][final] += hand_ways
    below = [list(accumulate(by_total, initial=0)) for by_total in ways]
    held = [[list(accumulate(row, initial=0)) for row in by_value] for by_value in holding]
    return below, held


def _add_second(
    cells: dict[tuple[int, int, int], list[list[int]]],
    left: Sequence[int],
    entries: list[tuple[int, int, int, int, int]],
    five: Choice,
    pad: list[int],
    cut: int,
) -> None:
    """Tableau 2 and the banker's third card, for every deal in a group (same cards left).
    ``cells[banker total, first, second]``: the joint results if he stands and if he draws."""
    below, held = _second_hands(left, five, cut)
    merged: defaultdict[tuple[int, int], defaultdict[tuple[int, int], int]] = defaultdict(
        lambda: defaultdict(int)
    )
    for banker_total, first, first_total, ways, used in entries:
        merged[banker_total, used][first, first_total] += ways
    for (banker_total, used), firsts in merged.items():
        for state in STATES:
            cards = used + (2 if state >= STOOD else 3)
            stand, draw = _against(below[state], held[state], left, banker_total, state, cut)
            for (first, first_total), ways in firsts.items():
                actions = cells.setdefault((banker_total, first, state), [[0] * 9, [0] * 9])
                weight = ways * pad[cards]
                row = 3 * (PONTE_WINS if first == NATURAL else _result(first_total, banker_total))
                kept = actions[0]
                for index in range(3):
                    kept[row + index] += weight * stand[index]
                weight = ways * pad[cards + 1]
                drawn = actions[1]
                if first == NATURAL:
                    row = 3 * PONTE_WINS
                    for index, running in enumerate(draw):
                        drawn[row + index] += weight * running[10]
                    continue
                for index, running in enumerate(draw):
                    under, upto = running[first_total], running[first_total + 1]
                    drawn[3 * BANKER_WINS + index] += weight * (running[10] - upto)
                    drawn[3 * PONTE_WINS + index] += weight * under
                    drawn[3 * EGALITE + index] += weight * (upto - under)


def _against(
    below: list[int],
    held: list[list[int]],
    left: Sequence[int],
    banker_total: int,
    state: int,
    cut: int,
) -> tuple[tuple[int, int, int], tuple[list[int], list[int], list[int]]]:
    """Tableau 2's results (banker wins, ponte wins, égalité), unpadded: against the banker's
    total if he stands; if he draws, each result summed over his final totals below ``f`` (for
    ``f`` from 0 to 10), so that any range of finals is a difference."""
    whole = below[10]
    wins, losses, ties = [0] * 10, [0] * 10, [0] * 10
    if state == NATURAL:  # wins at once against a banker without a natural
        stand = (0, whole, 0)
        for value in range(10):
            losses[(banker_total + value) % 10] = left[value] * whole - cut * held[value][10]
    else:
        under, upto = below[banker_total], below[banker_total + 1]
        stand = (under, whole - upto, upto - under)
        for value in range(10):
            final = (banker_total + value) % 10
            chances, taken = left[value], held[value]
            under = chances * below[final] - cut * taken[final]
            upto = chances * below[final + 1] - cut * taken[final + 1]
            wins[final] = under
            losses[final] = chances * whole - cut * taken[10] - upto
            ties[final] = upto - under
    running = (
        list(accumulate(wins, initial=0)),
        list(accumulate(losses, initial=0)),
        list(accumulate(ties, initial=0)),
    )
    return stand, running


# --- best play ------------------------------------------------------------------------------


@dataclass(frozen=True)
class BanqueSolution:
    """What a coup gives when the pontes play their 5s as ``fives`` and the banker answers
    with his best choice in each optional cell (``banker_draws``: draw or not), the stakes on
    the tableaux weighted ``stakes``. ``joint[first * 3 + second]``: the chance of each pair of
    results (:data:`RESULTS` order: the banker wins the tableau, its ponte wins, égalité)."""

    decks: int | None
    fives: Fives
    stakes: tuple[int, int]
    banker_draws: Mapping[BanqueCell, bool]
    joint: tuple[Fraction, ...]

    def outcomes(self, tableau: int) -> dict[Winner, Fraction]:
        """Tableau 1's (``0``) or 2's (``1``) results: ``Winner.PLAYER`` is its ponte."""
        found = dict.fromkeys(RESULTS, Fraction(0))
        for index, chance in enumerate(self.joint):
            found[RESULTS[index // 3 if tableau == 0 else index % 3]] += chance
        return found

    def ponte_edge(self, tableau: int) -> Fraction:
        """The ponte's expected result per unit he stakes on the tableau (negative: he loses)."""
        outcomes = self.outcomes(tableau)
        return outcomes[Winner.PLAYER] - outcomes[Winner.BANKER]

    def _banker_gains(self) -> list[tuple[Fraction, int]]:
        first, second = self.stakes
        return [
            (chance, first * GAIN[index // 3] + second * GAIN[index % 3])
            for index, chance in enumerate(self.joint)
        ]

    @property
    def banker_edge(self) -> Fraction:
        """The banker's expected gain per unit staked against him (house-free)."""
        gained = sum((chance * gain for chance, gain in self._banker_gains()), Fraction(0))
        return gained / sum(self.stakes)

    def banker_edge_after(self, taxe: Fraction) -> Fraction:
        """The banker's edge when the house takes ``taxe`` of what he wins on a coup over both
        tableaux (by the rules, 2% in a banque limitée, 1.25% in a banque ouverte)."""
        taken = sum(
            (chance * gain for chance, gain in self._banker_gains() if gain > 0), Fraction(0)
        )
        return self.banker_edge - taxe * taken / sum(self.stakes)


def _gain(joint: Joint, stakes: tuple[int, int]) -> int:
    first, second = stakes
    return sum(
        count * (first * GAIN[index // 3] + second * GAIN[index % 3])
        for index, count in enumerate(joint)
    )


def solve(
    deals: BanqueDeals,
    *,
    decks: int | None,
    fives: Fives,
    stakes: tuple[int, int] = EQUAL_STAKES,
    banker: Mapping[BanqueCell, bool] | None = None,
) -> BanqueSolution:
    """The banker's best answer in each cell where he may choose (or the play ``banker`` gives:
    whether he draws, in any cell, allowed or not), and what the coup then gives."""
    totals = list(deals.naturals)
    draws: dict[BanqueCell, bool] = {}
    for cell, actions in sorted(deals.cells.items()):
        options = cell.options()
        if banker is not None and cell in banker:
            drawing = banker[cell]
        elif len(options) == 1:
            drawing = Choice.DRAW in options
        else:
            gain_draw = _gain(actions[Choice.DRAW], stakes)
            drawing = gain_draw > _gain(actions[Choice.STAND], stakes)
        if len(options) == 2:
            draws[cell] = drawing
        for index, count in enumerate(actions[Choice.DRAW if drawing else Choice.STAND]):
            totals[index] += count
    joint = tuple(Fraction(count, deals.denominator) for count in totals)
    return BanqueSolution(decks, fives, stakes, draws, joint)


def banque_solution(
    decks: int | None, fives: Fives, stakes: tuple[int, int] = EQUAL_STAKES
) -> BanqueSolution:
    return solve(banque_deals(decks, fives), decks=decks, fives=fives, stakes=stakes)


# --- the pontes' choice, and the figures the page shows -------------------------------------


def _choice_cells() -> tuple[BanqueCell, ...]:
    cells = (
        BanqueCell(banker_total, first, second)
        for banker_total in range(8)
        for first in STATES
        for second in STATES
    )
    return tuple(cell for cell in cells if len(cell.options()) == 2)


CHOICE_CELLS = _choice_cells()  # where the banker may choose, in table order


@dataclass(frozen=True)
class BanqueOdds:
    """Every pair of the pontes' choices on 5 with the banker's best answer to it (equal stakes
    on the tableaux), and which pair the pontes play."""

    decks: int | None
    solutions: Mapping[Fives, BanqueSolution]

    def best_reply(self, tableau: int, other: Choice) -> Choice:
        """The ponte's better choice on 5, the other ponte choosing ``other`` (on a tie: draw)."""

        def edge(mine: Choice) -> Fraction:
            fives = (mine, other) if tableau == 0 else (other, mine)
            return self.solutions[fives].ponte_edge(tableau)

        return Choice.STAND if edge(Choice.STAND) > edge(Choice.DRAW) else Choice.DRAW

    @property
    def fives(self) -> Fives:
        """The pontes' play: a pair where neither does better on his own tableau by changing
        his choice (the one leaving the banker least, if several); with none, the pair leaving
        the banker least."""
        stable = [
            fives
            for fives in PROFILES
            if self.best_reply(0, fives[1]) is fives[0] and self.best_reply(1, fives[0]) is fives[1]
        ]
        return min(stable or PROFILES, key=lambda fives: self.solutions[fives].banker_edge)

    @property
    def best(self) -> BanqueSolution:
        return self.solutions[self.fives]


def banque_odds(decks: int | None) -> BanqueOdds:
    """Counted afresh (some seconds per deck count)."""
    return BanqueOdds(decks, {fives: banque_solution(decks, fives) for fives in PROFILES})


# --- the figures written out --------------------------------------------------------------
# The page reads both guest-banked games' best play from here: a count takes Chemin de fer a
# fraction of a second and Baccara banque some seconds, every deck count, every worker.

PRICED_PATH = Path(__file__).resolve().parent.parent / "guest_banked_odds.json"


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _banque_as_json(odds: BanqueOdds) -> dict[str, object]:
    solutions: dict[str, object] = {}
    for fives, solution in odds.solutions.items():
        denominator = lcm(*(chance.denominator for chance in solution.joint))
        solutions["/".join(fives)] = {
            "denominator": denominator,
            "joint": [int(chance * denominator) for chance in solution.joint],
            "banker_draws": "".join(
                "1" if solution.banker_draws[cell] else "0" for cell in CHOICE_CELLS
            ),
        }
    return solutions


def _banque_from_json(decks: int, data: Mapping[str, Mapping[str, object]]) -> BanqueOdds:
    solutions = {}
    for fives in PROFILES:
        stored = data["/".join(fives)]
        denominator, joint, draws = stored["denominator"], stored["joint"], stored["banker_draws"]
        assert isinstance(denominator, int) and isinstance(joint, list)
        assert isinstance(draws, str)
        solutions[fives] = BanqueSolution(
            decks,
            fives,
            EQUAL_STAKES,
            {cell: flag == "1" for cell, flag in zip(CHOICE_CELLS, draws, strict=True)},
            tuple(Fraction(count, denominator) for count in joint),
        )
    return BanqueOdds(decks, solutions)


def _chemin_as_json(solution: Solution) -> dict[str, object]:
    return {
        "ponte_draws_on_five": _ratio(solution.ponte_draws_on_five),
        "banker_draws": [
            [
                cell.banker_total,
                cell.ponte_third,
                list(cell.banker_cards) if cell.banker_cards else None,
                _ratio(draws),
            ]
            for cell, draws in sorted(
                solution.banker_draws.items(), key=lambda item: item[0].sort_key()
            )
        ],
        "outcomes": {winner.value: _ratio(chance) for winner, chance in solution.outcomes.items()},
    }


def _chemin_from_json(decks: int, data: Mapping[str, object]) -> Solution:
    draws, outcomes, ponte = data["banker_draws"], data["outcomes"], data["ponte_draws_on_five"]
    assert isinstance(draws, list) and isinstance(outcomes, dict) and isinstance(ponte, str)
    return Solution(
        decks,
        Fraction(ponte),
        {
            BankerCell(total, third, (cards[0], cards[1]) if cards else None): Fraction(chance)
            for total, third, cards, chance in draws
        },
        {Winner(winner): Fraction(chance) for winner, chance in outcomes.items()},
    )


@cache
def _priced() -> dict[str, Any]:
    loaded = json.loads(PRICED_PATH.read_text())
    assert isinstance(loaded, dict)
    return loaded


@cache
def priced(decks: int) -> BanqueOdds:
    """Baccara banque's figures for ``decks`` decks, as ``python -m
    games.guest_banked.banque_odds`` wrote them."""
    check_decks(decks)
    return _banque_from_json(decks, _priced()["baccara_banque"][str(decks)])


@cache
def chemin_priced(decks: int) -> Solution:
    """Chemin de fer's best play for ``decks`` decks (:func:`chemin_odds.chemin_odds`), as
    written."""
    check_decks(decks)
    return _chemin_from_json(decks, _priced()["chemin_de_fer"][str(decks)])


def write_priced() -> None:
    """Count one to eight decks afresh and write the figures the page reads."""
    shoes = range(MIN_DECKS, MAX_DECKS + 1)
    data = {
        "baccara_banque": {str(decks): _banque_as_json(banque_odds(decks)) for decks in shoes},
        "chemin_de_fer": {str(decks): _chemin_as_json(chemin_odds(decks)) for decks in shoes},
    }
    PRICED_PATH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    write_priced()
