"""Rule sets and bet resolution: what every bet pays under a table's rules.

One table of returns (:func:`bet_return`) serves both the ledger (:func:`resolve_bet`, in
``Decimal`` chips) and the odds engine (house edges, in exact fractions), so a payout cannot be
priced one way and paid another. Plain Python, no Django.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from typing import Any

from games.messages import (
    Label,
    RuleError,
    Translate,
    gettext_noop,
    render,
    untranslated,
    whole_cents,
)
from games.rules import Outcome, Winner

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
MAX_COMMISSION = Decimal("0.10")


def round_money(amount: Decimal | Fraction) -> Decimal:
    """The one rounding rule for money: half-up (away from zero) to the cent."""
    if isinstance(amount, Fraction):
        amount = Decimal(amount.numerator) / Decimal(amount.denominator)
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


class Rounding(StrEnum):
    """How a night rounds what a bet pays and the commission it owes (docs/rules.md, "Rounding
    to the smallest chip"), a rule each night keeps (``Event.rounding``).

    ``EXACT``: to the cent, half up — every night recorded before the rule existed, whatever its
    chips. ``HALF_UP``: to the nearest multiple of the smallest chip, a half chip up.
    ``HOUSE``: in the house's favour — what the house pays down, what a guest owes up."""

    EXACT = "exact"
    HALF_UP = "half_up"
    HOUSE = "house"

    @property
    def label(self) -> Label:
        return Label(ROUNDING_LABELS[self])


ROUNDING_LABELS = {
    Rounding.EXACT: gettext_noop("Exact, to the cent"),
    Rounding.HALF_UP: gettext_noop("To the smallest chip, half up"),
    Rounding.HOUSE: gettext_noop("To the smallest chip, in the house's favour"),
}
MSG_ROUNDING_EXACT = gettext_noop("payouts and commission to the cent")
MSG_ROUNDING_HALF_UP = gettext_noop(
    "payouts and commission rounded to the smallest chip ({chip}), half a chip up"
)
MSG_ROUNDING_HOUSE = gettext_noop(
    "payouts rounded down and commission up to the smallest chip ({chip})"
)
MSG_SMALLEST_CHIP = gettext_noop(
    "The smallest chip is more than zero, in whole cents (got {chip})."
)


@dataclass(frozen=True)
class ChipRounding:
    """A night's rounding: the way (:class:`Rounding`) and its smallest chip (what the table's
    lowest chip is worth, in chips as stakes are written: 0.50 for a $0.50 chip). A bet is
    rounded on its own, never the night's sum: each payout and each commission is handed over
    in chips at the table, hand by hand."""

    way: Rounding = Rounding.EXACT
    chip: Decimal = CENT

    def __post_init__(self) -> None:
        if not isinstance(self.chip, Decimal) or not self.chip > 0 or not whole_cents(self.chip):
            raise RuleSetError(MSG_SMALLEST_CHIP, chip=str(self.chip))

    def _to_chip(self, amount: Fraction, up: bool | None) -> Decimal:
        """``amount`` in whole smallest chips, exactly: down (``False``), up (``True``) or to
        the nearest, a half up (``None``)."""
        chips = amount / Fraction(self.chip)
        if up is None:
            whole = math.floor(chips + Fraction(1, 2))
        else:
            whole = math.ceil(chips) if up else math.floor(chips)
        return (whole * self.chip).quantize(CENT)

    def pays(self, amount: Fraction) -> Decimal:
        """What the house pays a guest (``amount`` ≥ 0, exact) in the night's rounding."""
        if self.way is Rounding.EXACT:
            return round_money(amount)
        return self._to_chip(amount, False if self.way is Rounding.HOUSE else None)

    def owes(self, amount: Fraction) -> Decimal:
        """What a guest owes the house (``amount`` ≥ 0, exact: a commission)."""
        if self.way is Rounding.EXACT:
            return round_money(amount)
        return self._to_chip(amount, True if self.way is Rounding.HOUSE else None)

    def describe(self, translate: Translate = untranslated) -> str:
        template = {
            Rounding.EXACT: MSG_ROUNDING_EXACT,
            Rounding.HALF_UP: MSG_ROUNDING_HALF_UP,
            Rounding.HOUSE: MSG_ROUNDING_HOUSE,
        }[self.way]
        return render(template, {"chip": self.chip}, translate)


class BetType(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    DRAGON_BONUS_PLAYER = "dragon_bonus_player"
    DRAGON_BONUS_BANKER = "dragon_bonus_banker"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"

    @property
    def label(self) -> Label:
        return Label(_BET_LABELS[self])


_BET_LABELS = {
    BetType.PLAYER: gettext_noop("Player"),
    BetType.BANKER: gettext_noop("Banker"),
    BetType.TIE: gettext_noop("Tie"),
    BetType.PLAYER_PAIR: gettext_noop("Player pair"),
    BetType.BANKER_PAIR: gettext_noop("Banker pair"),
    BetType.DRAGON_BONUS_PLAYER: gettext_noop("Dragon Bonus (Player)"),
    BetType.DRAGON_BONUS_BANKER: gettext_noop("Dragon Bonus (Banker)"),
    BetType.DRAGON_7: gettext_noop("Dragon 7"),
    BetType.PANDA_8: gettext_noop("Panda 8"),
}


class BankedBet(StrEnum):
    """A stake in a guest-banked game (Chemin de fer, Baccara banque): the bank's side, held by
    the banker (and co-banker), and the pontes' stakes against it."""

    BANK = "bank"
    COVER = "cover"  # Chemin de fer: a cover of the bank (its kind kept beside it)
    TABLEAU_1 = "tableau_1"  # Baccara banque: a stake on the first tableau
    TABLEAU_2 = "tableau_2"

    @property
    def label(self) -> Label:
        return Label(_BANKED_BET_LABELS[self])


_BANKED_BET_LABELS = {
    BankedBet.BANK: gettext_noop("Bank"),
    BankedBet.COVER: gettext_noop("Cover"),
    BankedBet.TABLEAU_1: gettext_noop("Tableau 1"),
    BankedBet.TABLEAU_2: gettext_noop("Tableau 2"),
}


def bet_label(value: str) -> Label:
    """The label of a stored bet type, Punto Banco's or a guest-banked game's."""
    try:
        return BetType(value).label
    except ValueError:
        return BankedBet(value).label


class SideBet(StrEnum):
    PAIRS = "pairs"
    DRAGON_BONUS = "dragon_bonus"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"

    @property
    def label(self) -> Label:
        return Label(_SIDE_BET_LABELS[self])


_SIDE_BET_LABELS = {
    SideBet.PAIRS: gettext_noop("Pairs"),
    SideBet.DRAGON_BONUS: gettext_noop("Dragon Bonus"),
    SideBet.DRAGON_7: gettext_noop("Dragon 7"),
    SideBet.PANDA_8: gettext_noop("Panda 8"),
}

SIDE_BET_TYPES: dict[SideBet, tuple[BetType, ...]] = {
    SideBet.PAIRS: (BetType.PLAYER_PAIR, BetType.BANKER_PAIR),
    SideBet.DRAGON_BONUS: (BetType.DRAGON_BONUS_PLAYER, BetType.DRAGON_BONUS_BANKER),
    SideBet.DRAGON_7: (BetType.DRAGON_7,),
    SideBet.PANDA_8: (BetType.PANDA_8,),
}
MAIN_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)
PAIR_BETS = (BetType.PLAYER_PAIR, BetType.BANKER_PAIR)


class NoCommission(StrEnum):
    NONE = "none"
    EZ = "ez"  # Banker win with a three-card 7 pushes
    SUPER6 = "super6"  # Banker win on 6 pays 1:2


class RuleSetError(RuleError):
    pass


class BetError(RuleError):
    pass


MSG_BET_NOT_OFFERED = gettext_noop("{bet} is not offered under these rules.")
MSG_NEEDS_CARDS = gettext_noop(
    "{bet} is settled from the cards; this hand was recorded without them."
)
MSG_STAKE_NOT_POSITIVE = gettext_noop("A stake must be more than zero (got {stake}).")
MSG_STAKE_CENTS = gettext_noop("A stake is counted to the cent at most (got {stake}).")
MSG_NOT_A_DECIMAL = gettext_noop("The commission rate is a Decimal fraction, e.g. Decimal('0.05').")
MSG_COMMISSION_RANGE = gettext_noop("Commission runs from 0% to 10%.")
MSG_COMMISSION_PRECISION = gettext_noop("Commission is set to a hundredth of a percent at most.")
MSG_NO_COMMISSION_GAME = gettext_noop("{game} is a no-commission game: the commission must be 0%.")
MSG_TIE_PAYS = gettext_noop("A tie pays 8:1 or 9:1.")
MSG_PAIR_PAYS = gettext_noop("A pair pays 11:1 or 12:1.")
MSG_LEAVE_COMMISSION_OUT = gettext_noop("{game} is a no-commission game: leave the commission out.")
MSG_NOT_A_RULE_SET = gettext_noop("Not a rule set: {error}")

# Dragon Bonus on a non-natural win, by margin (docs/rules.md, "Payouts"); margins under 4 lose.
DRAGON_BONUS_BY_MARGIN: dict[int, int] = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
DRAGON_7_PAYS = 40
PANDA_8_PAYS = 25


@dataclass(frozen=True)
class RuleSet:
    """A table's rules, as data. Copied onto an event so later edits never change past results."""

    commission_rate: Decimal = Decimal("0.05")
    no_commission: NoCommission = NoCommission.NONE
    tie_pays: int = 8
    pair_pays: int = 11
    side_bets: frozenset[SideBet] = field(default_factory=lambda: frozenset({SideBet.PAIRS}))

    def __post_init__(self) -> None:
        if not isinstance(self.commission_rate, Decimal):
            raise RuleSetError(MSG_NOT_A_DECIMAL)
        if not ZERO <= self.commission_rate <= MAX_COMMISSION:
            raise RuleSetError(MSG_COMMISSION_RANGE)
        if self.commission_rate != self.commission_rate.quantize(Decimal("0.0001")):
            raise RuleSetError(MSG_COMMISSION_PRECISION)
        if self.no_commission is not NoCommission.NONE and self.commission_rate != 0:
            raise RuleSetError(MSG_NO_COMMISSION_GAME, game=self.no_commission.value)
        if self.tie_pays not in (8, 9):
            raise RuleSetError(MSG_TIE_PAYS)
        if self.pair_pays not in (11, 12):
            raise RuleSetError(MSG_PAIR_PAYS)

    @cached_property
    def offered_bets(self) -> tuple[BetType, ...]:
        offered_sides = [side for side in SideBet if side in self.side_bets]
        return (*MAIN_BETS, *(bet for side in offered_sides for bet in SIDE_BET_TYPES[side]))

    @cached_property
    def _offered(self) -> frozenset[BetType]:
        return frozenset(self.offered_bets)

    def offers(self, bet_type: BetType) -> bool:
        return bet_type in self._offered

    def describe(self, translate: Translate = untranslated) -> str:
        if self.no_commission is NoCommission.EZ:
            banker = translate(
                gettext_noop("EZ Baccarat (no commission; Banker three-card 7 pushes)")
            )
        elif self.no_commission is NoCommission.SUPER6:
            banker = translate(gettext_noop("Super 6 (no commission; Banker win on 6 pays 1:2)"))
        else:
            banker = render(
                gettext_noop("Banker {pays}"),
                {"pays": pays_label(self, BetType.BANKER, translate)},
                translate,
            )
        offered = [translate(side.label) for side in SideBet if side in self.side_bets]
        return render(
            gettext_noop("{banker}; Tie {tie}:1; pairs {pair}:1; side bets: {sides}"),
            {
                "banker": banker,
                "tie": self.tie_pays,
                "pair": self.pair_pays,
                "sides": ", ".join(offered) or translate(gettext_noop("none")),
            },
            translate,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "commission_rate": str(self.commission_rate),
            "no_commission": self.no_commission.value,
            "tie_pays": self.tie_pays,
            "pair_pays": self.pair_pays,
            "side_bets": sorted(side.value for side in self.side_bets),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        try:
            rate = str(data.get("commission_rate", "0.05"))
            if not rate.isascii() or not Decimal(rate).is_finite():  # 𝟎.05, NaN: no rate
                raise InvalidOperation(rate)
            return cls(
                commission_rate=Decimal(rate),
                no_commission=NoCommission(data.get("no_commission", "none")),
                tie_pays=int(data.get("tie_pays", 8)),
                pair_pays=int(data.get("pair_pays", 11)),
                side_bets=frozenset(SideBet(s) for s in data.get("side_bets", ["pairs"])),
            )
        except (ValueError, TypeError, InvalidOperation) as error:
            raise RuleSetError(MSG_NOT_A_RULE_SET, error=str(error)) from error

    @classmethod
    def from_options(
        cls,
        *,
        commission_percent: Decimal | None = None,
        no_commission: NoCommission = NoCommission.NONE,
        tie_pays: int = 8,
        pair_pays: int = 11,
        side_bets: Iterable[SideBet] | None = None,
    ) -> RuleSet:
        """Build from the options hosts choose (commission as a percentage, as printed)."""
        if commission_percent is None:
            rate = Decimal("0.05") if no_commission is NoCommission.NONE else ZERO
        elif no_commission is not NoCommission.NONE and commission_percent != 0:
            raise RuleSetError(MSG_LEAVE_COMMISSION_OUT, game=no_commission.value)
        else:
            rate = commission_percent / 100
        return cls(
            commission_rate=rate,
            no_commission=no_commission,
            tie_pays=tie_pays,
            pair_pays=pair_pays,
            side_bets=frozenset(SideBet) if side_bets is None else frozenset(side_bets),
        )


STANDARD_RULES = RuleSet()
EXACT = ChipRounding()


def pays_label(rules: RuleSet, bet_type: BetType, translate: Translate = untranslated) -> str:
    """How a bet pays under ``rules``, in the words on a layout."""
    match bet_type:
        case BetType.BANKER if rules.no_commission is NoCommission.EZ:
            return translate(gettext_noop("1:1; a three-card 7 pushes"))
        case BetType.BANKER if rules.no_commission is NoCommission.SUPER6:
            return translate(gettext_noop("1:1; a win on 6 pays 1:2"))
        case BetType.BANKER:
            percent = (rules.commission_rate * 100).normalize()
            if not percent:
                return "1:1"
            return render(
                gettext_noop("1:1 less {percent}% commission"),
                {"percent": f"{percent:f}"},
                translate,
            )
        case BetType.TIE:
            return f"{rules.tie_pays}:1"
        case BetType.PLAYER_PAIR | BetType.BANKER_PAIR:
            return f"{rules.pair_pays}:1"
        case BetType.DRAGON_BONUS_PLAYER | BetType.DRAGON_BONUS_BANKER:
            return translate(gettext_noop("natural 1:1; by 9 30:1 … by 4 1:1"))
        case BetType.DRAGON_7:
            return f"{DRAGON_7_PAYS}:1"
        case BetType.PANDA_8:
            return f"{PANDA_8_PAYS}:1"
    return "1:1"


@dataclass(frozen=True)
class Return:
    """A bet's return per unit staked: ``win`` is the result at the bet's odds (−1 lost, 0 push),
    ``commission`` the house's cut of it."""

    win: Fraction
    commission: Fraction = Fraction(0)


LOSE = Return(Fraction(-1))
PUSH = Return(Fraction(0))


def _needs_cards(bet_type: BetType, outcome: Outcome) -> None:
    if not outcome.has_cards:
        raise BetError(MSG_NEEDS_CARDS, bet=bet_type.label)


def _banker_return(rules: RuleSet, outcome: Outcome) -> Return:
    if outcome.winner is Winner.TIE:
        return PUSH
    if outcome.winner is Winner.PLAYER:
        return LOSE
    if rules.no_commission is NoCommission.EZ:
        _needs_cards(BetType.BANKER, outcome)
        return PUSH if outcome.banker_three_card_seven else Return(Fraction(1))
    if rules.no_commission is NoCommission.SUPER6:
        _needs_cards(BetType.BANKER, outcome)
        return Return(Fraction(1, 2)) if outcome.banker_total == 6 else Return(Fraction(1))
    return Return(Fraction(1), Fraction(rules.commission_rate))


def _dragon_bonus_return(side: Winner, outcome: Outcome) -> Return:
    own_natural = outcome.player_natural if side is Winner.PLAYER else outcome.banker_natural
    if outcome.natural and outcome.winner is Winner.TIE:
        return PUSH
    if outcome.winner is not side:
        return LOSE
    if own_natural:
        return Return(Fraction(1))
    pays = DRAGON_BONUS_BY_MARGIN.get(outcome.margin or 0)
    return LOSE if pays is None else Return(Fraction(pays))


def bet_return(rules: RuleSet, bet_type: BetType, outcome: Outcome) -> Return:
    """What one unit staked on ``bet_type`` returns for ``outcome`` under ``rules``."""
    if not rules.offers(bet_type):
        raise BetError(MSG_BET_NOT_OFFERED, bet=bet_type.label)
    winner = outcome.winner
    match bet_type:
        case BetType.PLAYER:
            return {Winner.PLAYER: Return(Fraction(1)), Winner.TIE: PUSH}.get(winner, LOSE)
        case BetType.BANKER:
            return _banker_return(rules, outcome)
        case BetType.TIE:
            return Return(Fraction(rules.tie_pays)) if winner is Winner.TIE else LOSE
        case BetType.PLAYER_PAIR:
            return Return(Fraction(rules.pair_pays)) if outcome.player_pair else LOSE
        case BetType.BANKER_PAIR:
            return Return(Fraction(rules.pair_pays)) if outcome.banker_pair else LOSE
        case BetType.DRAGON_BONUS_PLAYER | BetType.DRAGON_BONUS_BANKER:
            _needs_cards(bet_type, outcome)
            side = Winner.PLAYER if bet_type is BetType.DRAGON_BONUS_PLAYER else Winner.BANKER
            return _dragon_bonus_return(side, outcome)
        case BetType.DRAGON_7:
            _needs_cards(bet_type, outcome)
            return Return(Fraction(DRAGON_7_PAYS)) if outcome.banker_three_card_seven else LOSE
        case BetType.PANDA_8:
            _needs_cards(bet_type, outcome)
            return Return(Fraction(PANDA_8_PAYS)) if outcome.player_three_card_eight else LOSE
    raise BetError(gettext_noop("Unknown bet type {bet!r}."), bet=str(bet_type))  # exhaustive


@dataclass(frozen=True)
class BetResult:
    """A settled bet, from the guest's side. The house's result is ``-net``."""

    gross: Decimal
    commission: Decimal
    net: Decimal

    @property
    def house_net(self) -> Decimal:
        return -self.net


def check_stake(stake: Decimal) -> None:
    if not stake > 0:
        raise BetError(MSG_STAKE_NOT_POSITIVE, stake=stake)
    if not whole_cents(stake):
        raise BetError(MSG_STAKE_CENTS, stake=stake)


def resolve_bet(
    rules: RuleSet,
    bet_type: BetType,
    stake: Decimal,
    outcome: Outcome,
    rounding: ChipRounding = EXACT,
) -> BetResult:
    """Settle one bet in chips: gross (before commission), commission, net = gross − commission.
    The one place a bet's figures are rounded, by the night's ``rounding``: a lost stake is the
    stake itself, never rounded (its chips are on the table)."""
    check_stake(stake)
    unit = bet_return(rules, bet_type, outcome)
    won = Fraction(stake) * unit.win
    gross = rounding.pays(won) if won >= 0 else round_money(won)
    commission = rounding.owes(Fraction(stake) * unit.commission)
    return BetResult(gross=gross, commission=commission, net=gross - commission)
