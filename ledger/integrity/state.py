"""What every check reads: the rows loaded once, the sums kept, and the checker's ground."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, fields
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q

from games.guest_banked.terms import BankRules
from games.kinds import TABLE_SEATS
from games.messages import RuleError
from games.models import Event, Shoe
from games.payouts import EXACT, ChipRounding, Rounding, RuleSet
from games.rules import Outcome
from ledger.integrity.report import LedgerCheck, LedgerProblem, totals_text
from ledger.models import Bet, Coup
from ledger.money.amounts import ZERO

MSG_NOT_ON_LIST = "its guest is not on the event's guest list"
MSG_EVENT_RULES = "its rules are not a rule set"


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


@dataclass(frozen=True)
class SeatingRow:
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


@dataclass
class Sums:
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
        return totals_text(len(self.hands), self.stake, self.gross, self.commission, self.net)


@dataclass
class EventInfo:
    pk: int
    date: date
    decks: int
    table_min: Decimal
    table_max: Decimal
    rules: RuleSet | None
    bank_rules: BankRules | None = None  # a guest-banked game's
    seats: int = TABLE_SEATS
    rounding: ChipRounding = EXACT  # Punto Banco's: how its bets were rounded


# Every field Event.bank_rules reads: a night is checked by its own rules.
GAME_FIELDS = (
    "game",
    "taxe",
    "taxe_rate",
    "shoe_charge",
    "banco",
    "suite_returns",
    "bank_rotation",
)


def bank_rules(row: dict[str, Any]) -> BankRules | None:
    """A guest-banked event's rules as the services read them (``Event.bank_rules``)."""
    event = Event(
        decks=row["decks"], table_min=row["table_min"], **{name: row[name] for name in GAME_FIELDS}
    )
    try:
        return event.bank_rules if event.is_guest_banked else None
    except (RuleError, ValueError):  # a cut no coup can be settled under
        return None


# Every field Event.chip_rounding reads: a Punto Banco night is checked by its own rounding.
ROUNDING_FIELDS = ("rounding", "smallest_chip")


def chip_rounding(row: dict[str, Any]) -> ChipRounding:
    """A Punto Banco event's rounding as the services read it (``Event.chip_rounding``); a
    rounding no bet can be settled under reads as exact, and its bets are found wrong."""
    try:
        return ChipRounding(Rounding(row["rounding"]), row["smallest_chip"])
    except (RuleError, ValueError):
        return EXACT


class CheckerState:
    """The checker's rows and sums, shared by the checks of each concept."""

    def __init__(self, event: Event | None) -> None:
        self.scope = event
        self.report = LedgerCheck()
        self.events: dict[int, EventInfo] = {}
        self.shoe_event: dict[int, int] = {}
        self.hands: dict[int, tuple[int, int, Outcome | None]] = {}  # id -> shoe, number, outcome
        self.guest_lists: set[tuple[int, int]] = set()  # (event, guest)
        self.names: dict[int, str] = {}
        self.seatings: dict[tuple[int, int], list[SeatingRow]] = defaultdict(list)
        # From the bets: per (guest, event the bet names); per event of the bet's hand.
        self.sums: dict[tuple[int, int], Sums] = defaultdict(Sums)
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

    # --- loading ----------------------------------------------------------------------------

    def _load_events(self) -> None:
        # Every event and shoe (a season holds a few hundred): a bet may name another event.
        for row in Event.objects.order_by().values(
            "pk", "date", "decks", "table_min", "table_max", "rules", "kind", "seats",
            *GAME_FIELDS, *ROUNDING_FIELDS,
        ):  # fmt: skip
            if row["kind"] == Event.Kind.TOURNAMENT_TABLE:
                self.tournament_tables.add(row["pk"])
            try:
                rules: RuleSet | None = RuleSet.from_dict(row["rules"])
            except (RuleError, AttributeError, TypeError) as error:
                rules = None
                if self.scope is None or self.scope.pk == row["pk"]:
                    self.problem("Event", row["pk"], MSG_EVENT_RULES, "a rule set", str(error))
            self.events[row["pk"]] = EventInfo(
                row["pk"],
                row["date"],
                row["decks"],
                row["table_min"],
                row["table_max"],
                rules,
                bank_rules(row),
                row["seats"],
                chip_rounding(row),
            )
        self.shoe_event = dict(Shoe.objects.order_by().values_list("pk", "event_id"))

    def _hand_scope(self) -> Q:
        if self.scope is None:
            return Q()
        # The event's hands, and any hand one of its bets names.
        named = Bet.objects.filter(event_id=self.scope.pk).values("hand_id")
        return Q(shoe__event_id=self.scope.pk) | Q(pk__in=named)

    def _check_on_list(self, model: str, pk: int, event_id: int, guest_id: int) -> None:
        if (event_id, guest_id) not in self.guest_lists:
            expected = f"a guest on event {event_id}'s list"
            self.problem(model, pk, MSG_NOT_ON_LIST, expected, self.guest(guest_id))
