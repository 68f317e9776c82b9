"""Invariants 1 and 2: a Punto Banco hand against the drawing rules, its bets against their pay."""

from __future__ import annotations

from decimal import Decimal
from functools import lru_cache

from django.db.models import Q

from games.messages import RuleError
from games.models import Hand
from games.payouts import (
    EXACT,
    BetError,
    BetResult,
    BetType,
    ChipRounding,
    RuleSet,
    resolve_bet,
)
from games.rules import Hand as DealtHand
from games.rules import Outcome
from ledger.integrity.coups import MSG_COUP_MISSING
from ledger.integrity.report import LedgerProblem, money_text
from ledger.integrity.state import BET_COLUMNS, BetRow, CheckerState
from ledger.models import Bet

MSG_HAND_CARDS = "its cards are not a complete hand under the drawing rules and the event's decks"
MSG_HAND_RESULT = "its winner is not player, banker or tie"
MSG_HAND_WINNER = "its winner is not what its cards say"
MSG_HAND_PLAYER_PAIR = "its Player pair flag is not what its cards say"
MSG_HAND_BANKER_PAIR = "its Banker pair flag is not what its cards say"
MSG_BET_EVENT = "its event is not its hand's event"
MSG_BET_TYPE = "its bet type is not a bet type"
MSG_BET_NOT_OFFERED = "its bet type is not offered under the event's rules"
MSG_BET_STAKE = "its stake is outside the event's table limits"
SMALLEST_STAKE = Decimal("0.01")
MSG_BET_SEAT = "its seat is not one its table has"
MSG_BET_UNSETTLED = "it cannot be settled from its hand"
MSG_BET_GROSS = "its gross is not what the bet pays under the event's rules"
MSG_BET_COMMISSION = "its commission is not what the event's rules charge"
MSG_BET_NET = "its net is not what the bet pays under the event's rules"
MSG_BET_NET_ARITHMETIC = "its net is not its gross less its commission"
MSG_BET_COMMISSION_NEGATIVE = "its commission is negative"
MSG_BET_NOT_SEATED = "its guest did not sit in its seat for its hand"


def bet_arithmetic_problems(bet: BetRow) -> list[LedgerProblem]:
    """Invariant 2: net = gross − commission, commission ≥ 0."""
    problems = []
    if bet.net != bet.gross - bet.commission:
        problems.append(
            LedgerProblem(
                "Bet",
                bet.pk,
                MSG_BET_NET_ARITHMETIC,
                money_text(bet.gross - bet.commission),
                money_text(bet.net),
            )
        )
    if bet.commission < 0:
        problems.append(
            LedgerProblem(
                "Bet",
                bet.pk,
                MSG_BET_COMMISSION_NEGATIVE,
                "0.00 or more",
                money_text(bet.commission),
            )
        )
    return problems


def bet_payout_problems(
    bet: BetRow, rules: RuleSet, outcome: Outcome | None, rounding: ChipRounding = EXACT
) -> list[LedgerProblem]:
    """Invariant 1, the payout: the bet type is one the rules offer, and the bet's figures are
    what the rules core pays on its hand's outcome (``None``: the hand has none to settle on)."""
    try:
        bet_type = BetType(bet.bet_type)
    except ValueError:
        return [
            LedgerProblem("Bet", bet.pk, MSG_BET_TYPE, "one of " + ", ".join(BetType), bet.bet_type)
        ]
    if bet_type not in _offered(rules):
        offered = ", ".join(rules.offered_bets)
        return [
            LedgerProblem("Bet", bet.pk, MSG_BET_NOT_OFFERED, f"one of {offered}", bet.bet_type)
        ]
    if outcome is None:
        return []
    try:
        result = _resolve(rules, bet_type, bet.stake, outcome, rounding)
    except BetError as error:
        return [
            LedgerProblem("Bet", bet.pk, MSG_BET_UNSETTLED, "a bet its hand settles", str(error))
        ]
    problems = []
    for name, message in (
        ("gross", MSG_BET_GROSS),
        ("commission", MSG_BET_COMMISSION),
        ("net", MSG_BET_NET),
    ):
        expected, found = getattr(result, name), getattr(bet, name)
        if expected != found:
            problems.append(
                LedgerProblem("Bet", bet.pk, message, money_text(expected), money_text(found))
            )
    return problems


@lru_cache(maxsize=256)
def _offered(rules: RuleSet) -> frozenset[BetType]:
    return frozenset(rules.offered_bets)


@lru_cache(maxsize=65536)
def _resolve(
    rules: RuleSet, bet_type: BetType, stake: Decimal, outcome: Outcome, rounding: ChipRounding
) -> BetResult:
    """``resolve_bet``, remembered: a season repeats the same few stakes on the same outcomes."""
    return resolve_bet(rules, bet_type, stake, outcome, rounding)


def hand_problems(hand: Hand, decks: int) -> tuple[list[LedgerProblem], Outcome | None]:
    """A stored hand against the drawing rules; returns its problems and its outcome (``None``
    when it has none: its bets cannot be settled)."""
    if hand.has_cards:
        try:
            player, banker = hand.cards
            DealtHand.from_cards(player, banker, decks=decks)
        except RuleError as error:  # an unknown card, or a hand no shoe deals
            found = f"P {hand.player_cards} / B {hand.banker_cards}: {error}"
            expected = f"a complete hand from a shoe of {decks} decks"
            return [LedgerProblem("Hand", hand.pk, MSG_HAND_CARDS, expected, found)], None
        outcome = hand.outcome()
        problems = []
        if hand.winner != outcome.winner.value:
            problems.append(
                LedgerProblem("Hand", hand.pk, MSG_HAND_WINNER, outcome.winner.value, hand.winner)
            )
        for message, stored, actual in (
            (MSG_HAND_PLAYER_PAIR, hand.player_pair, outcome.player_pair),
            (MSG_HAND_BANKER_PAIR, hand.banker_pair, outcome.banker_pair),
        ):
            if stored != actual:
                problems.append(LedgerProblem("Hand", hand.pk, message, str(actual), str(stored)))
        return problems, outcome
    try:
        return [], hand.outcome()
    except ValueError:
        return [
            LedgerProblem("Hand", hand.pk, MSG_HAND_RESULT, "player, banker or tie", hand.winner)
        ], None


class HandChecks(CheckerState):
    """Hands and bets, and the bets' sums."""

    def _check_hands(self) -> None:
        hands = (
            Hand.objects.filter(self._hand_scope())
            .only(
                "pk",
                "shoe_id",
                "number",
                "player_cards",
                "banker_cards",
                "winner",
                "player_pair",
                "banker_pair",
            )
            .order_by("pk")
        )
        for hand in hands.iterator(chunk_size=5000):
            event_id = self.shoe_event[hand.shoe_id]
            if hand.pk in self.coups:  # settled again with its coup (:meth:`_check_coups`)
                problems, outcome = [], None
            elif self.events[event_id].bank_rules is not None:
                problems = [LedgerProblem("Hand", hand.pk, MSG_COUP_MISSING, "a coup", "none")]
                outcome = None
            else:
                problems, outcome = hand_problems(hand, self.events[event_id].decks)
            if self.scope is None or event_id == self.scope.pk:
                self.report.problems.extend(problems)
                self.report.hands += 1
            self.hands[hand.pk] = (hand.shoe_id, hand.number, outcome)

    # --- bets -------------------------------------------------------------------------------

    def _check_bets(self) -> None:
        bets = Bet.objects.order_by("pk")
        if self.scope is not None:
            bets = bets.filter(Q(event_id=self.scope.pk) | Q(hand__shoe__event_id=self.scope.pk))
        for row in bets.values_list(*BET_COLUMNS).iterator(chunk_size=5000):
            self._check_bet(BetRow(*row))

    def _check_bet(self, bet: BetRow) -> None:
        self.report.bets += 1
        shoe_id, number, outcome = self.hands[bet.hand_id]
        hand_event = self.events[self.shoe_event[shoe_id]]
        problems = self.report.problems
        if bet.event_id != hand_event.pk:
            expected = f"event {hand_event.pk}"
            self.problem("Bet", bet.pk, MSG_BET_EVENT, expected, f"event {bet.event_id}")
        problems.extend(bet_arithmetic_problems(bet))
        # A coup's bets are settled again with it (:meth:`_check_coups`); a guest-banked hand
        # without its coup is named already.
        banked = bet.hand_id in self.coups or hand_event.bank_rules is not None
        if bet.hand_id in self.coups:
            self.coup_bets[bet.hand_id].append(bet)
        elif hand_event.rules is not None and not banked:
            problems.extend(
                bet_payout_problems(bet, hand_event.rules, outcome, hand_event.rounding)
            )
        # At a tournament table a stake under the minimum may be a short stack's all-in (the
        # pipeline checked it was the whole stack, and the tournament's rule).
        lowest = hand_event.table_min
        if hand_event.pk in self.tournament_tables:
            lowest = min(lowest, SMALLEST_STAKE)
        if not banked and not lowest <= bet.stake <= hand_event.table_max:
            limits = f"{money_text(hand_event.table_min)} to {money_text(hand_event.table_max)}"
            self.problem("Bet", bet.pk, MSG_BET_STAKE, limits, money_text(bet.stake))
        if not 1 <= bet.seat <= hand_event.seats:
            self.problem("Bet", bet.pk, MSG_BET_SEAT, f"1 to {hand_event.seats}", str(bet.seat))
        seated = [s for s in self.seatings[(shoe_id, bet.seat)] if s.covers(number)]
        if not any(s.guest_id == bet.guest_id for s in seated):
            who = " or ".join(self.guest(s.guest_id) for s in seated) or "nobody"
            expected = f"{who} in seat {bet.seat} at hand {number}"
            self.problem("Bet", bet.pk, MSG_BET_NOT_SEATED, expected, self.guest(bet.guest_id))
        self._check_on_list("Bet", bet.pk, hand_event.pk, bet.guest_id)
        if hand_event.pk in self.tournament_tables:
            return
        if self.scope is None or bet.event_id == self.scope.pk:
            self.sums[(bet.guest_id, bet.event_id)].add(bet)
        if self.scope is None or hand_event.pk == self.scope.pk:
            self.net_over_shoes[hand_event.pk] += bet.net
