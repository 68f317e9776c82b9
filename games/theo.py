"""What a stake is worth to the house before the cards come out, and how far its result may stray.

For each stake kind under a night's rules and game: the house's expected take per unit staked
(its edge: the casino's "theoretical win" once multiplied by the stake), the bettor's expected
result per unit, and the variance of the bettor's result per unit staked (multiply it by the
stake squared). Exact, by :mod:`games.odds`'s count of every ordered deal; plain Python.

**Punto Banco**: the house banks every bet, so its edge is the bettor's expected loss.

**The guest-banked games** (Chemin de fer, Baccara banque): a guest banks, the house is no
player. Its take is its cut, charged to the bank (``Bet.commission`` of the ``bank`` row). So
per unit of each stake: ``house_edge`` is the house's expected cut (on the bank's stake; nothing
on a ponte's, whose loss is the bank's gain), ``mean`` the guest's expected result against the
other guests after the cut, and ``variance`` that result's. Over a coup the stakes times their
means plus the stakes times the house's edges sum to zero, as the money does.

- The bank's stake is what it played against: in Chemin de fer what was covered (the uncovered
  rest goes back untouched), in Baccara banque the stakes on both tableaux together (the rows
  :func:`games.guest_banked.bank.bank_bets` writes).
- The cut per coup is priced as the night's rule takes it, exactly, before its rounding to the
  cent (which moves a coup's cut by half a cent at most): Chemin de fer's taxe, a share of each
  coup the bank wins; Baccara banque's taxe on winnings, a share of what the bank wins on a coup
  over both tableaux (2% limitée, 1.25% ouverte). A fixed charge, a table charge per shoe or the
  5% on the capital a banker brings in, is no function of the stakes: it is priced at nothing
  here, and the ledger knows it exactly (it is in the bank row's commission; a rating counts it
  as theoretical and actual alike).
- **The strategy model**: both sides play best, as :mod:`games.guest_banked.chemin_odds` and
  :mod:`games.guest_banked.banque_odds` solve it, read from the priced figures
  (``games/guest_banked_odds.json``). In Chemin de fer the ponte (reading his total) and the
  banker (reading his two cards) each play the game's minimax strategy: neither can gain by
  changing alone, so it is the one expectation that assumes no one's mistake (at eight decks it
  is Punto Banco's tableau, and the bank's figures are Punto Banco's Banker bet's under a 5% taxe).
  In Baccara banque each ponte plays his 5 as the stable pair of choices at equal stakes
  (``banque_odds``), and the banker answers with his best play on his total against what both
  tableaux show, for the stakes he faces: it matters (at equal stakes he keeps 0.873% of them at
  8 decks, with three times as much on one tableau 0.962%). Counting the deals takes seconds a
  deck count, so his best answer is counted ahead for 21 splits of the stakes
  (``games/guest_banked_splits.json``, written by ``python -m games.theo``) and a coup is
  priced at the nearest.
- Every kind of cover (banco, suivi, à deux, avec la table, ordinary) is one unit against the
  bank's hand alike: the same figures.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from games.cards import MAX_DECKS, MIN_DECKS, check_decks
from games.guest_banked.banque_money import WINNINGS_RATES, BanqueTaxeKind
from games.guest_banked.banque_odds import RESULTS, banque_deals, chemin_priced, priced, solve
from games.guest_banked.chemin_money import TaxeKind
from games.guest_banked.terms import BankRules
from games.kinds import CoverKind, Game
from games.messages import RuleError
from games.odds import deal_counts, deal_denominator, pair_probability
from games.payouts import BankedBet, BetType, RuleSet, SideBet, bet_return
from games.rules import Outcome, Winner

MSG_NOT_PRICED = "{stake} in {game} is not priced."


class NotPriced(RuleError):
    """A stake whose moments are not known: ratings leave it out and say so."""


@dataclass(frozen=True)
class Moments:
    house_edge: Fraction  # the house's expected gain per unit staked
    mean: Fraction  # the bettor's expected result per unit staked
    variance: Fraction  # of the bettor's result per unit staked, in units squared

    def standard_deviation(self, places: int = 4) -> Decimal:
        """The square root of the variance, rounded half-even to ``places`` decimals."""
        with localcontext() as context:
            context.prec = places + 30
            variance = Decimal(self.variance.numerator) / Decimal(self.variance.denominator)
            return variance.sqrt().quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


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


def _pricing(rules: RuleSet) -> RuleSet:
    """``rules`` with every side bet offered, at its standard payout, as the odds page prices."""
    return RuleSet(
        commission_rate=rules.commission_rate,
        no_commission=rules.no_commission,
        tie_pays=rules.tie_pays,
        pair_pays=rules.pair_pays,
        side_bets=frozenset(SideBet),
    )


@cache
def punto_banco_moments(rules: RuleSet, bet_type: BetType, decks: int) -> Moments:
    """The moments of one unit on ``bet_type`` under ``rules``, the house banking every bet.

    Side bets the rules do not offer are priced with their standard payouts, as the odds page does.
    """
    pricing = _pricing(rules)
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


@cache
def _hand_moments(
    rules: RuleSet, decks: int, stakes: tuple[tuple[BetType, Fraction], ...]
) -> Moments:
    pricing = _pricing(rules)
    staked = sum((stake for _bet, stake in stakes), Fraction(0))
    denominator = deal_denominator(decks)
    ways: defaultdict[Fraction, int] = defaultdict(int)
    for shape, count in deal_counts(decks).items():
        outcome = shape.outcome()
        result = Fraction(0)
        for bet_type, stake in stakes:
            unit = bet_return(pricing, bet_type, outcome)
            result += stake * (unit.win - unit.commission)
        ways[result / staked] += count
    return _moments({value: Fraction(count, denominator) for value, count in ways.items()})


def hand_moments(rules: RuleSet, decks: int, stakes: Mapping[BetType, Fraction]) -> Moments:
    """The moments per unit staked of several stakes on one Punto Banco hand together (their
    results move together: Banker and Player never both win), e.g. a guest's bets on a hand.
    Pair bets read the cards' ranks, which the count by value does not keep: :class:`NotPriced`
    with other stakes (alone, :func:`punto_banco_moments` prices one)."""
    if not stakes or any(stake <= 0 for stake in stakes.values()):
        raise NotPriced(MSG_NOT_PRICED, stake="no stake", game=Game.PUNTO_BANCO)
    for bet_type in stakes:
        if bet_type in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR) and len(stakes) > 1:
            raise NotPriced(MSG_NOT_PRICED, stake=bet_type, game=Game.PUNTO_BANCO)
    if len(stakes) == 1:
        return punto_banco_moments(rules, next(iter(stakes)), decks)
    return _hand_moments(rules, decks, tuple(sorted(stakes.items())))


# --- the guest-banked games ----------------------------------------------------------------------


def _with_cut(gains: dict[Fraction, Fraction], cut: Fraction) -> Moments:
    """The bank's moments when its gross gain per unit is ``gain`` with chance ``gains[gain]``
    and the house takes ``cut`` of every positive gain."""
    after: defaultdict[Fraction, Fraction] = defaultdict(Fraction)
    taken = Fraction(0)
    for gain, chance in gains.items():
        share = cut * gain if gain > 0 else Fraction(0)
        after[gain - share] += chance
        taken += share * chance
    return _moments(dict(after), house_edge=taken)


def _ponte(outcomes: dict[Winner, Fraction]) -> Moments:
    """A ponte's unit: won 1:1, lost, or void on an égalité; the house takes nothing of it."""
    returns = {
        Fraction(1): outcomes[Winner.PLAYER],
        Fraction(-1): outcomes[Winner.BANKER],
        Fraction(0): outcomes[Winner.TIE],
    }
    return _moments(returns, house_edge=Fraction(0))


@cache
def chemin_moments(bet_type: BankedBet, decks: int, taxe: Fraction) -> Moments:
    """Chemin de fer under best play (:func:`chemin_priced`): the bank's unit covered, the house
    taking ``taxe`` of each coup it wins (0 with a table charge per shoe), or a cover's unit."""
    outcomes = chemin_priced(decks).outcomes
    if bet_type is BankedBet.COVER:
        return _ponte(outcomes)
    gains = {
        Fraction(1): outcomes[Winner.BANKER],
        Fraction(-1): outcomes[Winner.PLAYER],
        Fraction(0): outcomes[Winner.TIE],
    }
    return _with_cut(gains, taxe)


# Baccara banque: the banker answers the stakes he faces (his best draw or stand in each cell
# depends on how they are split between the tableaux). His best play is counted ahead for tableau
# 1 holding k/SPLITS of the stakes, k = 0 … SPLITS, and a coup is priced at the nearest split's
# play: never better for him than his best, and within a step of it.
SPLITS = 20
SPLITS_PATH = Path(__file__).resolve().parent / "guest_banked_splits.json"


def count_splits(decks: int) -> tuple[int, list[list[int]]]:
    """Both tableaux' joint results (``banque_odds``' order) under the banker's best answer to
    each split, the pontes playing their 5s as at equal stakes: (denominator, counts per k)."""
    fives = priced(decks).fives
    deals = banque_deals(decks, fives)
    joints = []
    for k in range(SPLITS + 1):
        solution = solve(deals, decks=decks, fives=fives, stakes=(k, SPLITS - k))
        joints.append([int(chance * deals.denominator) for chance in solution.joint])
    return deals.denominator, joints


def write_splits() -> None:
    """Count every deck count's splits afresh and write them (about a minute)."""
    data = {}
    for decks in range(MIN_DECKS, MAX_DECKS + 1):
        denominator, joints = count_splits(decks)
        data[str(decks)] = {"denominator": denominator, "joints": joints}
    SPLITS_PATH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


@cache
def split_joint(decks: int, k: int) -> tuple[Fraction, ...]:
    """The joint results when tableau 1 holds k/SPLITS of the stakes, as written."""
    check_decks(decks)
    stored = _splits()[str(decks)]
    return tuple(Fraction(count, stored["denominator"]) for count in stored["joints"][k])


@cache
def _splits() -> dict[str, Any]:
    loaded = json.loads(SPLITS_PATH.read_text())
    assert isinstance(loaded, dict)
    return loaded


def nearest_split(first_share: Fraction) -> int:
    """The k whose k/SPLITS is nearest ``first_share`` (a half step: the larger)."""
    return math.floor(first_share * SPLITS + Fraction(1, 2))


@lru_cache(maxsize=4096)  # keyed on each coup's split of the stakes: bounded, not one per coup
def banque_moments(
    bet_type: BankedBet, decks: int, taxe: Fraction, first_share: Fraction = Fraction(1, 2)
) -> Moments:
    """Baccara banque, ``first_share`` of the coup's stakes on tableau 1, the banker answering
    them (:func:`nearest_split`): a ponte's unit on a tableau, or the bank's unit of the stakes
    against it, the house taking ``taxe`` of what the bank wins on a coup over both (0 when it
    taxes the capital)."""
    joint = split_joint(decks, nearest_split(first_share))
    gain = {Winner.BANKER: 1, Winner.PLAYER: -1, Winner.TIE: 0}
    if bet_type in (BankedBet.TABLEAU_1, BankedBet.TABLEAU_2):
        outcomes: defaultdict[Winner, Fraction] = defaultdict(Fraction)
        first = bet_type is BankedBet.TABLEAU_1
        for index, chance in enumerate(joint):
            outcomes[RESULTS[index // 3 if first else index % 3]] += chance
        return _ponte(dict(outcomes))
    gains: defaultdict[Fraction, Fraction] = defaultdict(Fraction)
    for index, chance in enumerate(joint):
        one, two = RESULTS[index // 3], RESULTS[index % 3]
        gains[first_share * gain[one] + (1 - first_share) * gain[two]] += chance
    return _with_cut(dict(gains), taxe)


STANDARD_BANK = BankRules(Game.CHEMIN_DE_FER, minimum_banco=Decimal(0))
_BANKED_STAKES = {
    Game.CHEMIN_DE_FER: frozenset({BankedBet.BANK, BankedBet.COVER}),
    Game.BACCARA_BANQUE: frozenset({BankedBet.BANK, BankedBet.TABLEAU_1, BankedBet.TABLEAU_2}),
}


def chemin_taxe(bank_rules: BankRules) -> Fraction:
    """The share of each winning coup the house takes in a night's Chemin de fer."""
    if bank_rules.taxe.kind is TaxeKind.FIXED_PER_SHOE:
        return Fraction(0)
    return Fraction(bank_rules.taxe.rate)


def banque_taxe(bank_rules: BankRules) -> Fraction:
    """The share of the bank's winnings on a coup the house takes in a night's Baccara banque."""
    cut = bank_rules.banque_taxe
    if cut.kind is not BanqueTaxeKind.WINNINGS:
        return Fraction(0)
    return Fraction(WINNINGS_RATES[cut.banco])


def stake_moments(
    game: str,
    rules: RuleSet,
    decks: int,
    bet_type: str,
    cover_kind: str = "",
    *,
    bank_rules: BankRules = STANDARD_BANK,
    tableau_stakes: tuple[Decimal, Decimal] | None = None,
) -> Moments:
    """The moments of one unit of a stored stake (``Bet.bet_type``, ``Bet.cover_kind``) in a night
    of ``game``; :class:`NotPriced` for a stake this module cannot price.

    A guest-banked night's cut is ``bank_rules`` (``Event.bank_rules``; by default Chemin de
    fer's 5% taxe, Baccara banque's on the capital). A Baccara banque stake, the bank's or a
    ponte's, is priced with the coup's stakes on tableau 1 and 2 (``tableau_stakes``; equal if
    not given): the banker's play answers them, and the bank's result is their mix."""
    if game == Game.PUNTO_BANCO and bet_type in set(BetType):
        return punto_banco_moments(rules, BetType(bet_type), decks)
    if game in _BANKED_STAKES and bet_type in _BANKED_STAKES[Game(game)]:
        stake = BankedBet(bet_type)
        if cover_kind and (stake is not BankedBet.COVER or cover_kind not in set(CoverKind)):
            raise NotPriced(MSG_NOT_PRICED, stake=f"{bet_type} ({cover_kind})", game=game)
        if game == Game.CHEMIN_DE_FER:
            return chemin_moments(stake, decks, chemin_taxe(bank_rules))
        share = Fraction(1, 2)
        if tableau_stakes is not None and sum(tableau_stakes) > 0:
            share = Fraction(tableau_stakes[0]) / Fraction(sum(tableau_stakes))
        return banque_moments(stake, decks, banque_taxe(bank_rules), share)
    raise NotPriced(MSG_NOT_PRICED, stake=bet_type, game=game)


if __name__ == "__main__":
    write_splits()
