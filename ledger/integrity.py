"""The ledger checks itself: every invariant recomputed from the raw rows.

:func:`check_ledger` reads the rows in bulk (a fixed number of queries, however many events,
hands or bets), recomputes in Python what they must agree on, and returns each row that does
not as a :class:`LedgerProblem` (model, primary key, what is wrong, expected and found):

1. Hands: stored cards are a complete hand under the drawing rules and the event's decks, and
   the stored winner and pair flags are the cards'. Bets: what the rules core pays
   (``Hand.outcome()``, ``resolve_bet``) under the event's rules; the bet's event is its hand's;
   its type is offered; its stake is within the table limits; its guest sat in that seat for
   that hand and is on the event's list.
2. Each bet's net is its gross less its commission, and the commission is not negative (the
   database's check constraints hold these too; :func:`bet_arithmetic_problems` is the check).
3. Zero-sum: per event, the house's net as the app reports it (``results.house_rows``, read from
   ``GuestEventResult``) plus the guests' net over the event's shoes (from the bets of its
   hands) is zero. A hand or a shoe keeps no figure of its own: its house net is minus its bets'
   net by definition, so the per-event sum is where the two sides can disagree.
4. ``GuestEventResult``: one row per guest and event with bets, each equal to the sums of the
   bets (missing, extra and wrong rows are named).
5. Balances as the app reads them (``results.guest_balances``; with one event, also that
   event's settlement list, ``results.event_settlement``) equal the guest's bets' nets plus
   their settlements (``Settlement.amount`` is what the guest paid the house) and the transfers
   between guests (``Transfer``: settled for the payer, owed back by the payee).
6. Seatings: no two seatings of one seat in a shoe, and no two of one guest in a shoe, cover a
   common hand; a seated guest is on the event's list.
7. Coups (Chemin de fer, Baccara banque): each is settled again through the one pipeline
   (``games.settle.settle``) from what is stored — its hand, its ``Coup`` row, the
   pontes' stakes, who sat where and the coup before it in the shoe — and its bets (the bank's
   side too), its ``Coup`` row and its hand's cards and winner must be what that settles. Invariant
   1's Punto Banco checks (drawing rules, payouts, table limits) do not apply to a coup.
8. The count (``ledger.count.integrity``): chips taken and counted, adjustments and nights kept
   by their count alone. A void is exactly its row's opposite, voided once; a count by
   denomination adds up to its chips; a guest's rows are at a night whose list has them; a night
   kept by its count alone has no hand. Its guests' results are their counts less their chips
   taken, and an adjustment is in its guest's result at its night: both join invariant 4's sums.
9. What the apps above the ledger register (:func:`register_check`): a tournament's rebuys and
   add-ons, each within its window and count, and each rebuy bought under the starting stack
   by the stack its hands had left (``tournaments.integrity``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django.db.models import Q

from games.entry import EntryRejected, SettledHand
from games.guest_banked.terms import BankRules
from games.kinds import SEATS, TABLE_SEATS
from games.messages import RuleError
from games.models import Event, Hand, Shoe
from games.payouts import BetError, BetResult, BetType, RuleSet, resolve_bet
from games.rules import Hand as DealtHand
from games.rules import Outcome
from games.settle import GuestBankedTable, settle
from ledger.count.integrity import count_problems, results_without_hands
from ledger.hands.coups import COUP_FIELDS, coup_row, coup_state, stored_entry
from ledger.models import (
    Bet,
    Charge,
    Coup,
    EventGuest,
    Guest,
    GuestEventResult,
    Seating,
    Settlement,
    Transfer,
)
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import event_settlement, guest_balances, house_rows

MSG_EVENT_RULES = "its rules are not a rule set"
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
MSG_NOT_ON_LIST = "its guest is not on the event's guest list"
MSG_SEATING_SEAT_OVERLAP = "another seating of its seat in the shoe covers some of its hands"
MSG_SEATING_GUEST_OVERLAP = "another seating of its guest in the shoe covers some of its hands"
MSG_RESULT_TOTALS = "its totals are not the sums of the guest's bets at the event"
MSG_RESULT_MISSING = "the guest has bets at the event but no totals row"
MSG_RESULT_EXTRA = "the guest has no bets at the event"
MSG_EVENT_NOT_ZERO_SUM = "the house's net and the guests' net over its shoes do not sum to zero"
MSG_GUEST_BALANCE = "the balance the app shows is not the sum of the bets' nets and settlements"
MSG_COUP_UNSETTLED = "its coup cannot be settled again from what is stored"
MSG_COUP_MISSING = "it is a hand of a guest-banked game with no coup beside it"
MSG_COUP_HAND = "its cards or winner are not what its coup settles"
MSG_COUP_RECORD = "it is not what its hand and stakes settle"
MSG_COUP_BET = "it is not what its coup settles"
MSG_COUP_BET_EXTRA = "its coup settles no such stake"
MSG_COUP_BET_MISSING = "its coup settles a stake that is not stored"
MSG_SETTLEMENT_LINE = (
    "its line in the event's settlement list is not the sum of its bets' nets and settlements"
)


@dataclass(frozen=True)
class LedgerProblem:
    """One broken row: ``str()`` is the line ``check_ledger`` prints."""

    model: str
    pk: int | str
    message: str
    expected: str = ""
    found: str = ""

    def __str__(self) -> str:
        text = f"{self.model} {self.pk}: {self.message}"
        if self.expected or self.found:
            text += f" (expected {self.expected}; found {self.found})"
        return text


def missing_result_key(guest_id: int, event_id: int) -> str:
    """How a missing ``GuestEventResult`` row is named, having no primary key."""
    return f"(guest {guest_id}, event {event_id})"


@dataclass
class LedgerCheck:
    problems: list[LedgerProblem] = field(default_factory=list)
    bets: int = 0
    hands: int = 0
    guests: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class BetRow:
    """A bet as stored: the columns the checks read."""

    pk: int
    hand_id: int
    event_id: int
    seat: int
    guest_id: int
    bet_type: str
    stake: Decimal
    gross: Decimal
    commission: Decimal
    net: Decimal
    cover_kind: str = ""


BET_COLUMNS = tuple(column.name for column in fields(BetRow))


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"


def bet_arithmetic_problems(bet: BetRow) -> list[LedgerProblem]:
    """Invariant 2: net = gross − commission, commission ≥ 0."""
    problems = []
    if bet.net != bet.gross - bet.commission:
        problems.append(
            LedgerProblem(
                "Bet",
                bet.pk,
                MSG_BET_NET_ARITHMETIC,
                _money(bet.gross - bet.commission),
                _money(bet.net),
            )
        )
    if bet.commission < 0:
        problems.append(
            LedgerProblem(
                "Bet", bet.pk, MSG_BET_COMMISSION_NEGATIVE, "0.00 or more", _money(bet.commission)
            )
        )
    return problems


def bet_payout_problems(
    bet: BetRow, rules: RuleSet, outcome: Outcome | None
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
        result = _resolve(rules, bet_type, bet.stake, outcome)
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
            problems.append(LedgerProblem("Bet", bet.pk, message, _money(expected), _money(found)))
    return problems


@lru_cache(maxsize=256)
def _offered(rules: RuleSet) -> frozenset[BetType]:
    return frozenset(rules.offered_bets)


@lru_cache(maxsize=65536)
def _resolve(rules: RuleSet, bet_type: BetType, stake: Decimal, outcome: Outcome) -> BetResult:
    """``resolve_bet``, remembered: a season repeats the same few stakes on the same outcomes."""
    return resolve_bet(rules, bet_type, stake, outcome)


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


@dataclass(frozen=True)
class _Seating:
    pk: int
    shoe_id: int
    seat: int
    guest_id: int
    from_hand: int
    to_hand: int | None

    @property
    def end(self) -> float:
        return float("inf") if self.to_hand is None else self.to_hand

    def covers(self, number: int) -> bool:
        return self.from_hand <= number <= self.end

    @property
    def hands(self) -> str:
        return f"hands {self.from_hand}–{'' if self.to_hand is None else self.to_hand}"


def overlapping_seatings(
    seatings: Iterable[_Seating], key: str
) -> Iterator[tuple[_Seating, _Seating]]:
    """Pairs (later, earlier) of seatings with the same ``key`` (``seat`` or ``guest_id``) in a
    shoe that cover a common hand; the later one starts later (or was written later)."""
    groups: dict[tuple[int, int], list[_Seating]] = defaultdict(list)
    for seating in seatings:
        groups[(seating.shoe_id, getattr(seating, key))].append(seating)
    for group in groups.values():
        group.sort(key=lambda s: (s.from_hand, s.pk))
        furthest: _Seating | None = None  # of those so far, the one that runs longest
        for seating in group:
            if furthest is not None and furthest.end >= seating.from_hand:
                yield seating, furthest
            if furthest is None or seating.end > furthest.end:
                furthest = seating


@dataclass
class _Sums:
    hands: set[int] = field(default_factory=set)
    stake: Decimal = ZERO
    gross: Decimal = ZERO
    commission: Decimal = ZERO
    net: Decimal = ZERO

    def add(self, bet: BetRow) -> None:
        self.hands.add(bet.hand_id)
        self.stake += bet.stake
        self.gross += bet.gross
        self.commission += bet.commission
        self.net += bet.net

    def add_charge(self, amount: Decimal) -> None:
        self.gross += amount
        self.net += amount

    def describe(self) -> str:
        return _totals(len(self.hands), self.stake, self.gross, self.commission, self.net)


def _totals(hands: int, stake: Decimal, gross: Decimal, commission: Decimal, net: Decimal) -> str:
    return (
        f"hands {hands}, stake {_money(stake)}, gross {_money(gross)}, "
        f"commission {_money(commission)}, net {_money(net)}"
    )


@dataclass
class _EventInfo:
    pk: int
    date: date
    decks: int
    table_min: Decimal
    table_max: Decimal
    rules: RuleSet | None
    bank_rules: BankRules | None = None  # a guest-banked game's
    seats: int = TABLE_SEATS


# Checks of rows the ledger keeps for the apps above it (a tournament's rebuys and add-ons
# against its stacks): each app registers its own from its AppConfig.ready(), since the ledger
# does not import the apps that stand on it.
LedgerCheckFunction = Callable[[Event | None], Iterable[LedgerProblem]]
REGISTERED_CHECKS: list[LedgerCheckFunction] = []


def register_check(check: LedgerCheckFunction) -> LedgerCheckFunction:
    if check not in REGISTERED_CHECKS:
        REGISTERED_CHECKS.append(check)
    return check


def check_ledger(event: Event | None = None) -> LedgerCheck:
    """Recompute every invariant (of one event, if given) from the rows; see the module's doc."""
    report = _Checker(event).run()
    for check in REGISTERED_CHECKS:
        report.problems.extend(check(event))
    return report


def ledger_problems(event: Event | None = None) -> list[LedgerProblem]:
    return check_ledger(event).problems


class _Checker:
    def __init__(self, event: Event | None) -> None:
        self.scope = event
        self.report = LedgerCheck()
        self.events: dict[int, _EventInfo] = {}
        self.shoe_event: dict[int, int] = {}
        self.hands: dict[int, tuple[int, int, Outcome | None]] = {}  # id -> shoe, number, outcome
        self.guest_lists: set[tuple[int, int]] = set()  # (event, guest)
        self.names: dict[int, str] = {}
        self.seatings: dict[tuple[int, int], list[_Seating]] = defaultdict(list)
        # From the bets: per (guest, event the bet names); per event of the bet's hand.
        self.sums: dict[tuple[int, int], _Sums] = defaultdict(_Sums)
        self.net_over_shoes: dict[int, Decimal] = defaultdict(lambda: ZERO)
        # Tournament tables: their bets are in tournament chips, in no guest's totals.
        self.tournament_tables: set[int] = set()
        self.coups: dict[int, Coup] = {}  # hand id → its coup, with the hand
        self.coup_bets: dict[int, list[BetRow]] = defaultdict(list)  # hand id → its bets

    def problem(
        self, model: str, pk: int | str, message: str, expected: str = "", found: str = ""
    ) -> None:
        self.report.problems.append(LedgerProblem(model, pk, message, expected, found))

    def guest(self, guest_id: int) -> str:
        return f"{self.names.get(guest_id, '?')} (guest {guest_id})"

    def run(self) -> LedgerCheck:
        self._load_events()
        self.names = dict(Guest.objects.order_by().values_list("pk", "name"))
        self._load_coups()
        self._check_hands()
        self._load_lists_and_seatings()
        self._check_bets()
        self._check_coups()
        self._add_charges()
        self._add_count()
        self._check_results()
        self._check_zero_sum()
        self._check_balances()
        return self.report

    # --- loading ----------------------------------------------------------------------------

    def _load_events(self) -> None:
        # Every event and shoe (a season holds a few hundred): a bet may name another event.
        for row in Event.objects.order_by().values(
            "pk", "date", "decks", "table_min", "table_max", "rules", "kind", "seats", *GAME_FIELDS
        ):
            if row["kind"] == Event.Kind.TOURNAMENT_TABLE:
                self.tournament_tables.add(row["pk"])
            try:
                rules: RuleSet | None = RuleSet.from_dict(row["rules"])
            except (RuleError, AttributeError, TypeError) as error:
                rules = None
                if self.scope is None or self.scope.pk == row["pk"]:
                    self.problem("Event", row["pk"], MSG_EVENT_RULES, "a rule set", str(error))
            self.events[row["pk"]] = _EventInfo(
                row["pk"],
                row["date"],
                row["decks"],
                row["table_min"],
                row["table_max"],
                rules,
                _bank_rules(row),
                row["seats"],
            )
        self.shoe_event = dict(Shoe.objects.order_by().values_list("pk", "event_id"))

    def _hand_scope(self) -> Q:
        if self.scope is None:
            return Q()
        # The event's hands, and any hand one of its bets names.
        named = Bet.objects.filter(event_id=self.scope.pk).values("hand_id")
        return Q(shoe__event_id=self.scope.pk) | Q(pk__in=named)

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

    def _load_lists_and_seatings(self) -> None:
        events = {self.shoe_event[shoe] for shoe, _number, _outcome in self.hands.values()}
        shoes = {shoe for shoe, _number, _outcome in self.hands.values()}
        lists = EventGuest.objects.all()
        seatings = Seating.objects.order_by("pk")
        if self.scope is not None:
            events.add(self.scope.pk)
            shoes |= {pk for pk, event_id in self.shoe_event.items() if event_id == self.scope.pk}
            lists = lists.filter(event_id__in=events)
            seatings = seatings.filter(shoe_id__in=shoes)
        self.guest_lists = set(lists.values_list("event_id", "guest_id"))
        columns = ("pk", "shoe_id", "seat", "guest_id", "from_hand", "to_hand")
        every = [_Seating(*row) for row in seatings.values_list(*columns)]
        for seating in every:
            self.seatings[(seating.shoe_id, seating.seat)].append(seating)
            self._check_on_list(
                "Seating", seating.pk, self.shoe_event[seating.shoe_id], seating.guest_id
            )
        for key, message in (
            ("seat", MSG_SEATING_SEAT_OVERLAP),
            ("guest_id", MSG_SEATING_GUEST_OVERLAP),
        ):
            for later, earlier in overlapping_seatings(every, key):
                what = f"seat {later.seat}" if key == "seat" else self.guest(later.guest_id)
                self.problem(
                    "Seating",
                    later.pk,
                    message,
                    f"no other seating of {what} over {later.hands}",
                    f"Seating {earlier.pk}: {self.guest(earlier.guest_id)} in seat "
                    f"{earlier.seat}, {earlier.hands}",
                )

    def _check_on_list(self, model: str, pk: int, event_id: int, guest_id: int) -> None:
        if (event_id, guest_id) not in self.guest_lists:
            expected = f"a guest on event {event_id}'s list"
            self.problem(model, pk, MSG_NOT_ON_LIST, expected, self.guest(guest_id))

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
            problems.extend(bet_payout_problems(bet, hand_event.rules, outcome))
        # At a tournament table a stake under the minimum may be a short stack's all-in (the
        # pipeline checked it was the whole stack, and the tournament's rule).
        lowest = hand_event.table_min
        if hand_event.pk in self.tournament_tables:
            lowest = min(lowest, SMALLEST_STAKE)
        if not banked and not lowest <= bet.stake <= hand_event.table_max:
            limits = f"{_money(hand_event.table_min)} to {_money(hand_event.table_max)}"
            self.problem("Bet", bet.pk, MSG_BET_STAKE, limits, _money(bet.stake))
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

    # --- coups -------------------------------------------------------------------------------

    def _load_coups(self) -> None:
        coups = Coup.objects.select_related("hand").order_by("hand__shoe_id", "hand__number")
        if self.scope is not None:
            coups = coups.filter(hand__in=Hand.objects.filter(self._hand_scope()))
        self.coups = {coup.hand_id: coup for coup in coups.iterator(chunk_size=2000)}

    def _seated(self, shoe_id: int, number: int) -> dict[int, int]:
        """Who sat where for a hand, as the services read it (seat → guest id)."""
        seated = {}
        for seat in SEATS:
            for seating in self.seatings.get((shoe_id, seat), ()):
                if seating.covers(number):
                    seated[seat] = seating.guest_id
        return seated

    def _check_coups(self) -> None:
        """Invariant 7: each coup settled again, the coup before it as stored."""
        previous: Coup | None = None
        for coup in self.coups.values():  # in shoe and number order
            hand = coup.hand
            if previous is not None and previous.hand.shoe_id != hand.shoe_id:
                previous = None
            rules = self.events[self.shoe_event[hand.shoe_id]].bank_rules
            if rules is not None:
                self._check_coup(coup, previous, rules)
            previous = coup

    def _check_coup(self, coup: Coup, previous: Coup | None, rules: BankRules) -> None:
        hand = coup.hand
        by_id = self._seated(hand.shoe_id, hand.number)
        seated = {seat: self.guest(guest_id) for seat, guest_id in by_id.items()}
        bets = sorted(self.coup_bets.get(hand.pk, ()), key=lambda bet: (bet.seat, bet.pk))
        before = coup_state(previous) if previous is not None else None
        try:
            entry = stored_entry(hand, coup, [_bet(row) for row in bets])
            settled = settle(entry, GuestBankedTable(rules, seated, before))
        except EntryRejected as rejected:
            found = "; ".join(problem.message() for problem in rejected.problems)
            self.problem("Hand", hand.pk, MSG_COUP_UNSETTLED, "a coup the rules settle", found)
            return
        self._compare_hand(hand, settled)
        self._compare_bets(hand, bets, settled, by_id)
        assert settled.coup is not None  # a coup's settlement
        guests = {seat: Guest(pk=guest_id) for seat, guest_id in by_id.items()}
        again = coup_row(hand, Event(pk=coup.event_id), settled.coup, guests)
        for name in ("banker_id", "co_banker_id", *COUP_FIELDS):
            expected, found = getattr(again, name), getattr(coup, name)
            if expected != found:
                self.problem(
                    "Coup", coup.pk, MSG_COUP_RECORD, f"{name} {expected}", f"{name} {found}"
                )

    def _compare_hand(self, hand: Hand, settled: SettledHand) -> None:
        expected = (settled.player_cards, settled.banker_cards, settled.outcome.winner.value)
        found = (hand.player_cards, hand.banker_cards, hand.winner)
        if expected != found:
            self.problem("Hand", hand.pk, MSG_COUP_HAND, _hand_text(*expected), _hand_text(*found))

    def _compare_bets(
        self, hand: Hand, bets: list[BetRow], settled: SettledHand, seated: dict[int, int]
    ) -> None:
        expected = {(bet.seat, bet.bet_type.value): bet for bet in settled.bets}
        for bet in bets:
            again = expected.pop((bet.seat, bet.bet_type), None)
            if again is None:
                found = f"{bet.bet_type} {_money(bet.stake)} in seat {bet.seat}"
                self.problem("Bet", bet.pk, MSG_COUP_BET_EXTRA, "no such stake", found)
                continue
            result = again.result
            settles = (seated.get(again.seat), again.kind, again.stake, result.gross,
                       result.commission, result.net)  # fmt: skip
            stored = (bet.guest_id, bet.cover_kind, bet.stake, bet.gross, bet.commission, bet.net)
            if settles != stored:
                self.problem(
                    "Bet", bet.pk, MSG_COUP_BET, self._bet_text(*settles), self._bet_text(*stored)
                )
        for (seat, bet_type), again in expected.items():
            what = f"{bet_type} {_money(again.stake)} in seat {seat}"
            self.problem("Hand", hand.pk, MSG_COUP_BET_MISSING, what, "no such bet")

    def _bet_text(
        self,
        guest_id: int | None,
        kind: str,
        stake: Decimal,
        gross: Decimal,
        commission: Decimal,
        net: Decimal,
    ) -> str:
        who = self.guest(guest_id) if guest_id is not None else "nobody"
        kind = f" {kind}" if kind else ""
        return f"{who}{kind}, " + _totals(1, stake, gross, commission, net).split(", ", 1)[1]

    def _add_charges(self) -> None:
        """A tournament's entry fees, rebuys, add-ons and prizes: its guests' results there."""
        charges = Charge.objects.order_by()
        if self.scope is not None:
            charges = charges.filter(event_id=self.scope.pk)
        for guest_id, event_id, amount in charges.values_list("guest_id", "event_id", "amount"):
            self.sums[(guest_id, event_id)].add_charge(amount)
            self.net_over_shoes[event_id] += amount

    def _add_count(self) -> None:
        """A count-only night's results (counts less chips taken) and the count's adjustments:
        results without hands, like a charge (``ledger.count.integrity``)."""
        for (guest_id, event_id), amount in results_without_hands(self.scope).items():
            self.sums[(guest_id, event_id)].add_charge(amount)
            self.net_over_shoes[event_id] += amount
        self.report.problems.extend(LedgerProblem(*row) for row in count_problems(self.scope))

    # --- totals -----------------------------------------------------------------------------

    def _check_results(self) -> None:
        results = GuestEventResult.objects.order_by("pk")
        if self.scope is not None:
            results = results.filter(event_id=self.scope.pk)
        seen = set()
        columns = ("pk", "guest_id", "event_id", "hands", "stake", "gross", "commission", "net")
        for pk, guest_id, event_id, *figures in results.values_list(*columns):
            seen.add((guest_id, event_id))
            found = _totals(*figures)
            sums = self.sums.get((guest_id, event_id))
            if sums is None:
                self.problem("GuestEventResult", pk, MSG_RESULT_EXTRA, "no row", found)
            elif sums.describe() != found:
                self.problem("GuestEventResult", pk, MSG_RESULT_TOTALS, sums.describe(), found)
        for (guest_id, event_id), sums in sorted(self.sums.items()):
            if (guest_id, event_id) not in seen:
                self.problem(
                    "GuestEventResult",
                    missing_result_key(guest_id, event_id),
                    MSG_RESULT_MISSING,
                    sums.describe(),
                    "no row",
                )

    def _check_zero_sum(self) -> None:
        events = Event.objects.nights()
        if self.scope is not None:
            events = events.filter(pk=self.scope.pk)
        for row in house_rows(events):
            guests = self.net_over_shoes.get(row.event.pk, ZERO)
            house = row.figures.house_net
            if house + guests != 0:
                self.problem(
                    "Event",
                    row.event.pk,
                    MSG_EVENT_NOT_ZERO_SUM,
                    f"house net {_money(-guests)} against the guests' {_money(guests)}",
                    f"house net {_money(house)}",
                )

    # --- balances ---------------------------------------------------------------------------

    def _check_balances(self) -> None:
        net: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)  # (guest, event)
        for key, sums in self.sums.items():
            net[key] += sums.net
        settled: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)
        settlements = Settlement.objects.all()
        if self.scope is None:
            guests = set(self.names)
        else:
            guests = {g for e, g in self.guest_lists if e == self.scope.pk}
            guests |= {guest_id for guest_id, _event in self.sums}
            settlements = settlements.filter(guest_id__in=guests)
            bets = Bet.objects.exclude(event__kind=Event.Kind.TOURNAMENT_TABLE)
            for rows, column in ((bets, "net"), (Charge.objects.all(), "amount")):
                elsewhere = (
                    rows.filter(guest_id__in=guests)
                    .exclude(event_id=self.scope.pk)
                    .values_list("guest_id", "event_id")
                    .annotate(net=money_sum(column))
                    .order_by()
                )
                for guest_id, event_id, amount in elsewhere:
                    net[(guest_id, event_id)] += amount
        for guest_id, event_id, amount in settlements.values_list("guest_id", "event_id", "amount"):
            settled[(guest_id, event_id)] += amount
        # A transfer between guests settles for its payer what it unsettles for its payee.
        transfers = Transfer.objects.all()
        if self.scope is not None:
            transfers = transfers.filter(Q(payer_id__in=guests) | Q(payee_id__in=guests))
        for payer_id, payee_id, event_id, amount in transfers.values_list(
            "payer_id", "payee_id", "event_id", "amount"
        ):
            if payer_id is not None:
                settled[(payer_id, event_id)] += amount
            if payee_id is not None:
                settled[(payee_id, event_id)] -= amount
        self.report.guests = len(guests)

        balance: dict[int, Decimal] = defaultdict(lambda: ZERO)
        for (guest_id, _event), amount in [*net.items(), *settled.items()]:
            balance[guest_id] += amount
        shown = guest_balances()
        for guest_id in sorted(guests):
            expected, found = balance.get(guest_id, ZERO), shown.get(guest_id, ZERO)
            if expected != found:
                self.problem("Guest", guest_id, MSG_GUEST_BALANCE, _money(expected), _money(found))
        if self.scope is not None:
            self._check_settlement_list(net, settled)

    def _check_settlement_list(
        self, net: dict[tuple[int, int], Decimal], settled: dict[tuple[int, int], Decimal]
    ) -> None:
        assert self.scope is not None
        tonight = self.events[self.scope.pk]
        earlier = {
            e.pk for e in self.events.values() if (e.date, e.pk) < (tonight.date, tonight.pk)
        }
        for line in event_settlement(self.scope):
            guest_id = line.guest_id
            before = sum(
                (
                    amount
                    for (g, e), amount in [*net.items(), *settled.items()]
                    if g == guest_id and e in earlier
                ),
                ZERO,
            )
            expected = (
                before,
                net.get((guest_id, tonight.pk), ZERO),
                settled.get((guest_id, tonight.pk), ZERO),
            )
            found = (line.before, line.result, line.settled)
            if expected != found:
                self.problem(
                    "Guest", guest_id, MSG_SETTLEMENT_LINE, _line(*expected), _line(*found)
                )


GAME_FIELDS = ("game", "taxe", "taxe_rate", "shoe_charge", "banco")


def _bank_rules(row: dict[str, Any]) -> BankRules | None:
    """A guest-banked event's rules as the services read them (``Event.bank_rules``)."""
    event = Event(
        decks=row["decks"], table_min=row["table_min"], **{name: row[name] for name in GAME_FIELDS}
    )
    try:
        return event.bank_rules if event.is_guest_banked else None
    except (RuleError, ValueError):  # a cut no coup can be settled under
        return None


def _bet(row: BetRow) -> Bet:
    """A bet row as the model, in memory (what ``ledger.hands.coups.stored_entry`` reads)."""
    return Bet(
        pk=row.pk, seat=row.seat, bet_type=row.bet_type, cover_kind=row.cover_kind, stake=row.stake
    )


def _hand_text(player_cards: str, banker_cards: str, winner: str) -> str:
    cards = f"P {player_cards} / B {banker_cards}, " if player_cards else ""
    return f"{cards}{winner}"


def _line(before: Decimal, result: Decimal, settled: Decimal) -> str:
    after = before + result + settled
    return (
        f"before {_money(before)}, result {_money(result)}, settled {_money(settled)}, "
        f"after {_money(after)}"
    )
