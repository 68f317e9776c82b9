"""What a stake is worth to the house before the cards come out, and how far its result may stray.

For each stake kind under a night's rules and game: the house's expected take per unit staked
(its edge: the casino's "theoretical win" once multiplied by the stake), the bettor's expected
result per unit, and the variance of the bettor's result per unit staked (multiply it by the
stake squared). Exact, by :mod:`games.odds`'s count of every ordered deal; plain Python.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from games.kinds import Game
from games.messages import RuleError
from games.odds import deal_counts, deal_denominator, pair_probability
from games.payouts import BetType, RuleSet, SideBet, bet_return
from games.rules import Outcome, Winner

MSG_NOT_PRICED = "{stake} in {game} is not priced."


class NotPriced(RuleError):
    """A stake whose moments are not known: ratings leave it out and say so."""


@dataclass(frozen=True)
class Moments:
    house_edge: Fraction  # the house's expected gain per unit staked
    mean: Fraction  # the bettor's expected result per unit staked
    variance: Fraction  # of the bettor's result per unit staked, in units squared


def _moments(returns: dict[Fraction, Fraction], house_edge: Fraction | None = None) -> Moments:
    """Moments of a result that is ``value`` with probability ``returns[value]``; where the house
    banks the bet its edge is the bettor's expected loss."""
    mean = sum((value * chance for value, chance in returns.items()), Fraction(0))
    square = sum((value * value * chance for value, chance in returns.items()), Fraction(0))
    return Moments(
        house_edge=-mean if house_edge is None else house_edge,
        mean=mean,
        variance=square - mean * mean,
    )


@cache
def punto_banco_moments(rules: RuleSet, bet_type: BetType, decks: int) -> Moments:
    """The moments of one unit on ``bet_type`` under ``rules``, the house banking every bet.

    Side bets the rules do not offer are priced with their standard payouts, as the odds page does.
    """
    pricing = RuleSet(
        commission_rate=rules.commission_rate,
        no_commission=rules.no_commission,
        tie_pays=rules.tie_pays,
        pair_pays=rules.pair_pays,
        side_bets=frozenset(SideBet),
    )
    chances: defaultdict[Fraction, Fraction] = defaultdict(Fraction)
    if bet_type in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        # A pair bet reads its side's two cards only: the pair chance alone decides it.
        paired = pair_probability(decks)
        flag = "player_pair" if bet_type is BetType.PLAYER_PAIR else "banker_pair"
        for outcome, chance in (
            (Outcome(Winner.TIE, **{flag: True}), paired),
            (Outcome(Winner.TIE), 1 - paired),
        ):
            unit = bet_return(pricing, bet_type, outcome)
            chances[unit.win - unit.commission] += chance
        return _moments(dict(chances))
    denominator = deal_denominator(decks)
    ways: defaultdict[Fraction, int] = defaultdict(int)
    for shape, count in deal_counts(decks).items():
        unit = bet_return(pricing, bet_type, shape.outcome())
        ways[unit.win - unit.commission] += count
    return _moments({value: Fraction(count, denominator) for value, count in ways.items()})


def stake_moments(
    game: str, rules: RuleSet, decks: int, bet_type: str, cover_kind: str = ""
) -> Moments:
    """The moments of one unit of a stored stake (``Bet.bet_type``, ``Bet.cover_kind``) in a night
    of ``game``; :class:`NotPriced` for a stake this module cannot price."""
    if game == Game.PUNTO_BANCO and bet_type in set(BetType):
        return punto_banco_moments(rules, BetType(bet_type), decks)
    raise NotPriced(MSG_NOT_PRICED, stake=bet_type, game=game)
