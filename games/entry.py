"""From what a person entered to a settled hand: the one pipeline every way in goes through.

The table's Save, a correction, a scoresheet row and the card keypad all hand this module what
was typed or tapped — cards as text or as taps in deal order, the result, the pair flags, the
bets as text — with the event's rules, decks and limits. It answers with the outcome and every
bet settled, or with every problem at once, each keyed by the field it concerns and worded by
one of the constants below. Callers translate the messages and map fields to their own (a form
field, a spreadsheet column); none of them decides a rule. Plain Python, no Django.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import StrEnum
from typing import Any

from games.cards import Card, CardError, format_cards, parse_card, parse_cards
from games.guest_banked.terms import CoupTerms, SettledCoup
from games.kinds import SEATS, TABLE_SEATS, CoverKind, ShortStack
from games.messages import (
    Label,
    RuleError,
    Text,
    Translate,
    Typed,
    gettext_noop,
    plain,
    untranslated,
)
from games.payouts import (
    EXACT,
    MSG_BET_NOT_OFFERED,
    PAIR_BETS,
    ZERO,
    BankedBet,
    BetError,
    BetResult,
    BetType,
    ChipRounding,
    RuleSet,
    check_stake,
    resolve_bet,
)
from games.rules import (
    MSG_HAND_COMPLETE,
    MSG_TOO_MANY_COPIES,
    Hand,
    HandError,
    Outcome,
    Winner,
    cards_due,
    check_copies,
)


class Field(StrEnum):
    """What a problem is about: the names forms and scoresheet columns use."""

    PLAYER_CARDS = "player_cards"
    BANKER_CARDS = "banker_cards"
    CARDS = "cards"  # both sides together: a drawing rule, a card dealt too often
    RESULT = "result"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    SEAT = "seat"
    BET = "bet"
    STAKE = "stake"
    # A guest-banked coup (``games.guest_banked``): the bank, the choices, what the banker did next.
    BANKER_SEAT = "banker_seat"
    BANK = "bank"
    CO_BANKER_SEAT = "co_banker_seat"
    PONTE_CHOICE = "ponte_choice"
    BANKER_CHOICE = "banker_choice"
    SECOND_CARDS = "second_cards"
    SECOND_RESULT = "second_result"
    SECOND_CHOICE = "second_choice"
    MOVE = "move"
    TAKEN = "taken"
    SUITE_SEAT = "suite_seat"
    SUITE_AMOUNT = "suite_amount"


BET_FIELDS = frozenset({Field.SEAT, Field.BET, Field.STAKE})

MSG_NO_COUP_HERE = gettext_noop(
    "This table plays Punto Banco: the house banks, and no guest holds a bank to enter."
)
MSG_NO_RESULT = gettext_noop("Enter the cards, or the result (Player, Banker or Tie).")
MSG_CARDS_TWICE = gettext_noop("Give the cards either typed or tapped, not both.")
MSG_UNKNOWN_RESULT = gettext_noop("“{text}” is not a result: P, B or T (Player, Banker, Tie).")
MSG_NOT_YES_NO = gettext_noop("“{text}” is not yes or no.")
MSG_RESULT_CONTRADICTS = gettext_noop("The cards say {actual} ({player}–{banker}), not {given}.")
MSG_PAIR_CONTRADICTS = gettext_noop("The cards show no {side} pair.")
MSG_PAIR_MISSED = gettext_noop("The cards show a {side} pair.")
MSG_PAIR_NOT_NOTED = gettext_noop(
    "A {side} pair bet is settled by the cards or by noting the pair (yes or no)."
)
MSG_NO_SUCH_SEAT = gettext_noop("There is no seat {seat}: seats run 1–{last}.")
MSG_SEAT_MISSING = gettext_noop("A bet needs its seat (1–{last}).")
MSG_EMPTY_SEAT = gettext_noop("The seat is empty: seat a guest before taking a bet there.")
MSG_UNKNOWN_BET = gettext_noop("“{text}” is not a bet here (one of: {offered}).")
MSG_DUPLICATE_BET = gettext_noop("This bet is entered twice for the same seat.")
MSG_NOT_A_NUMBER = gettext_noop("“{text}” is not an amount.")
MSG_UNDER_MINIMUM = gettext_noop("{stake} is under the table minimum of {minimum}.")
MSG_OVER_MAXIMUM = gettext_noop("{stake} is over the table maximum of {maximum}.")
MSG_NOT_UNIT = gettext_noop("{stake} is not a multiple of the bet unit ({unit}).")
MSG_OVER_STACK = gettext_noop("{total} staked in all, over the stack of {stack}.")
MSG_SHORT_STACK_OUT = gettext_noop(
    "The stack of {stack} is under the table minimum of {minimum}: this player is out."
)
MSG_SHORT_STACK_ALL_IN = gettext_noop(
    "{stake} is under the table minimum of {minimum}: a stack under it bets all of it ({stack}),"
    " in one bet."
)
MSG_ON_SEAT = gettext_noop("Seat {seat} · {bet}: {problem}")

# What the keypad says while the cards are tapped in.
MSG_TAP_START = gettext_noop("Tap the cards in deal order: Player, Banker, Player, Banker.")
MSG_TAP_NEXT = gettext_noop("Next: {card}.")
MSG_PLAYER_DRAWS = gettext_noop("Player draws a third card.")
MSG_THIRD_CARD_EARLY = gettext_noop("{side} has a third card before both sides have two.")
MSG_TYPED_OUT_OF_ORDER = gettext_noop(
    "The typed cards are not in deal order: correct them in the boxes, or clear them to tap."
)
MSG_BANKER_DRAWS = gettext_noop("Banker draws a third card.")
# How a hand came out, the winner's total first ("Banker wins 9–8").
MSG_WINS = gettext_noop("{winner} wins {high}–{low}.")
MSG_WINS_NATURAL = gettext_noop("{winner} wins {high}–{low} (natural).")
MSG_WINS_NO_CARDS = gettext_noop("{winner} wins.")
MSG_TIE = gettext_noop("Tie {high}–{low}.")
MSG_TIE_NATURAL = gettext_noop("Tie {high}–{low} (natural).")
MSG_TIE_NO_CARDS = gettext_noop("Tie.")
# A coup of a guest-banked game, in its words: the ponte's hand against the bank's; a tie is void.
MSG_EGALITE = gettext_noop("Égalité {high}–{low}.")
MSG_EGALITE_NO_CARDS = gettext_noop("Égalité.")
COUP_SIDES = {
    Winner.PLAYER: Label(gettext_noop("Ponte")),
    Winner.BANKER: Label(gettext_noop("Bank")),
}

PLAYER, BANKER = Label(gettext_noop("Player")), Label(gettext_noop("Banker"))
WINNER_LABELS = {
    Winner.PLAYER: PLAYER,
    Winner.BANKER: BANKER,
    Winner.TIE: Label(gettext_noop("Tie")),
}
CARD_NAMES = (
    Label(gettext_noop("Player's first card")),
    Label(gettext_noop("Banker's first card")),
    Label(gettext_noop("Player's second card")),
    Label(gettext_noop("Banker's second card")),
)
_RESULTS = {
    "p": Winner.PLAYER,
    "player": Winner.PLAYER,
    "b": Winner.BANKER,
    "banker": Winner.BANKER,
    "t": Winner.TIE,
    "tie": Winner.TIE,
}
YES, NO = frozenset({"yes", "y", "1", "true"}), frozenset({"no", "n", "0", "false"})
# Thousands grouped with commas ("1,000", "12,500.50"); any other comma is refused, never guessed.
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?")
_AMOUNT = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
_COUNT = re.compile(r"[0-9]+")  # ASCII digits only, where \d would take any script's
MAX_AMOUNT_DIGITS = 15  # no table takes a stake of a thousand trillion chips


# --- what came in -------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRules:
    """What a table allows: the event's rule set, its shoe and its limits."""

    rules: RuleSet
    decks: int
    table_min: Decimal
    table_max: Decimal
    # A tournament table's: each seat's stack in tournament chips (a seat's stakes together may
    # not pass it), and the bet unit (every stake a multiple of it). ``None``: a cash table.
    stacks: Mapping[int, Decimal] | None = None
    unit: Decimal | None = None
    # A tournament's rule for a stack under the table minimum: bet whole, or out.
    short_stack: ShortStack = ShortStack.ALL_IN
    # How many seats the table has: a cash table 7, a tournament's its seats per table.
    seats: int = TABLE_SEATS
    # The night's rounding of payouts and commission (``Event.rounding``): to the cent unless
    # the night rounds to its smallest chip.
    rounding: ChipRounding = EXACT


@dataclass(frozen=True)
class BetEntry:
    """One stake as entered: text from a form or a spreadsheet, or values already read."""

    seat: int | str
    bet: BetType | str
    stake: Decimal | str


@dataclass(frozen=True)
class HandEntry:
    """A hand as entered. Cards are typed (``player_cards``/``banker_cards``) or tapped in deal
    order (``taps``); without cards the result decides. A pair flag is ``None`` when it was not
    noted, else yes or no (``True``/``False`` or the text of a scoresheet cell)."""

    player_cards: str = ""
    banker_cards: str = ""
    taps: tuple[str, ...] = ()
    result: Winner | str | None = None
    player_pair: bool | str | None = None
    banker_pair: bool | str | None = None
    bets: tuple[BetEntry, ...] = ()
    # A guest-banked game's coup: who banks, how much, the choices, the banker's next move.
    coup: CoupTerms | None = None

    def digest(self) -> str:
        """A fingerprint of what was entered: a retry has the same one, another entry not."""
        return hashlib.sha256(repr(self).encode()).hexdigest()


# --- what goes out ------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry. ``bet`` is the index of the bet concerned, if any."""

    field: Field
    error: RuleError
    bet: int | None = None

    def message(self, translate: Translate = untranslated) -> str:
        return self.error.message(translate)

    def message_in(self, entry: HandEntry, translate: Translate = untranslated) -> str:
        """The message where the whole hand is on one screen: a bet's problem names its seat and
        bet (``Seat 3 · Banker: …``)."""
        if self.bet is None:
            return self.message(translate)
        bet = entry.bets[self.bet]
        label = translate(stake_label(bet.bet))
        return translate(MSG_ON_SEAT).format(
            seat=plain(str(bet.seat)), bet=label, problem=self.message(translate)
        )

    @property
    def template(self) -> str:
        return self.error.template


class EntryRejected(ValueError):
    """The entry cannot be recorded; ``problems`` lists everything wrong with it."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(problem.message() for problem in self.problems))


@dataclass(frozen=True)
class SettledBet:
    index: int  # position in the entry's bets (the bank's side of a coup: -1)
    seat: int
    bet_type: BetType | BankedBet
    stake: Decimal
    result: BetResult
    kind: str = ""  # a Chemin de fer cover's kind (banco solo, suivi…)


@dataclass(frozen=True)
class SettledHand:
    """A hand ready to store: its outcome, its cards in one spelling, its bets settled."""

    outcome: Outcome
    player_cards: str
    banker_cards: str
    bets: tuple[SettledBet, ...]
    coup: SettledCoup | None = None  # a guest-banked game's coup

    @property
    def has_cards(self) -> bool:
        return bool(self.player_cards)


# --- the pipeline -------------------------------------------------------------------------


def settle_hand(
    entry: HandEntry, table: TableRules, *, occupied: Collection[int] | None = None
) -> SettledHand:
    """Check an entry against the rules and settle its bets, or raise :class:`EntryRejected`
    listing every problem. ``occupied``: the seats with a guest in them (``None``: the caller
    vouches for the seats, as a scoresheet names its guests on each row)."""
    problems: list[Problem] = []
    if entry.coup is not None:  # a guest-banked game's coup at a Punto Banco table
        problems.append(Problem(Field.BANKER_SEAT, RuleError(MSG_NO_COUP_HERE)))
    dealt = _read_cards(entry, table.decks, problems)
    outcome = _decide_outcome(entry, dealt, problems)
    settled = _settle_bets(entry.bets, table, outcome, occupied, problems)
    if problems:
        raise EntryRejected(problems)
    assert outcome is not None  # every way to lack one is a problem above
    return SettledHand(
        outcome=outcome,
        player_cards=format_cards(dealt.player) if dealt else "",
        banker_cards=format_cards(dealt.banker) if dealt else "",
        bets=tuple(settled),
    )


def _read_cards(entry: HandEntry, decks: int, problems: list[Problem]) -> Hand | None:
    typed = bool(entry.player_cards.strip() or entry.banker_cards.strip())
    if typed and entry.taps:
        problems.append(Problem(Field.CARDS, RuleError(MSG_CARDS_TWICE)))
        return None
    if entry.taps:
        reading = read_taps(entry.taps, decks=decks)
        if reading.problem is not None:
            problems.append(Problem(Field.CARDS, reading.problem))
            return None
        player, banker = reading.player, reading.banker
    elif typed:
        sides: dict[Field, tuple[Card, ...]] = {}
        for side, text in (
            (Field.PLAYER_CARDS, entry.player_cards),
            (Field.BANKER_CARDS, entry.banker_cards),
        ):
            try:
                sides[side] = parse_cards(text)
            except CardError as error:
                problems.append(Problem(side, error))
        if len(sides) < 2:
            return None
        player, banker = sides[Field.PLAYER_CARDS], sides[Field.BANKER_CARDS]
    else:
        return None
    try:
        return Hand.from_cards(player, banker, decks=decks)
    except HandError as error:
        problems.append(Problem(Field.CARDS, error))
        return None


def _decide_outcome(
    entry: HandEntry, dealt: Hand | None, problems: list[Problem]
) -> Outcome | None:
    winner = read_result(entry.result, problems)
    flags = {
        Field.PLAYER_PAIR: _read_flag(Field.PLAYER_PAIR, entry.player_pair, problems),
        Field.BANKER_PAIR: _read_flag(Field.BANKER_PAIR, entry.banker_pair, problems),
    }
    cards_given = bool(entry.taps or entry.player_cards.strip() or entry.banker_cards.strip())
    if cards_given:
        if dealt is None:
            return None
        outcome = dealt.outcome()
        check_agrees(outcome, winner, flags, problems)
        return outcome
    if winner is None:
        if entry.result in (None, ""):
            problems.append(Problem(Field.RESULT, RuleError(MSG_NO_RESULT)))
        return None
    for bet_type, (flag_field, side) in _PAIR_FLAGS.items():
        if flags[flag_field] is None and _has_bet(entry.bets, bet_type):
            problems.append(Problem(flag_field, RuleError(MSG_PAIR_NOT_NOTED, side=side)))
    return Outcome(
        winner,
        player_pair=bool(flags[Field.PLAYER_PAIR]),
        banker_pair=bool(flags[Field.BANKER_PAIR]),
    )


_PAIR_FLAGS = {
    BetType.PLAYER_PAIR: (Field.PLAYER_PAIR, PLAYER),
    BetType.BANKER_PAIR: (Field.BANKER_PAIR, BANKER),
}
assert set(_PAIR_FLAGS) == set(PAIR_BETS)


def _has_bet(bets: Sequence[BetEntry], bet_type: BetType) -> bool:
    return any(_bet_type_or_none(bet.bet) is bet_type for bet in bets)


def check_agrees(
    outcome: Outcome,
    winner: Winner | None,
    flags: dict[Field, bool | None],
    problems: list[Problem],
) -> None:
    if winner is not None and winner is not outcome.winner:
        error = RuleError(
            MSG_RESULT_CONTRADICTS,
            actual=WINNER_LABELS[outcome.winner],
            player=outcome.player_total,
            banker=outcome.banker_total,
            given=WINNER_LABELS[winner],
        )
        problems.append(Problem(Field.RESULT, error))
    for flag_field, side, actual in (
        (Field.PLAYER_PAIR, PLAYER, outcome.player_pair),
        (Field.BANKER_PAIR, BANKER, outcome.banker_pair),
    ):
        claimed = flags[flag_field]
        if claimed is True and not actual:
            problems.append(Problem(flag_field, RuleError(MSG_PAIR_CONTRADICTS, side=side)))
        elif claimed is False and actual:
            problems.append(Problem(flag_field, RuleError(MSG_PAIR_MISSED, side=side)))


def read_result(value: Winner | str | None, problems: list[Problem]) -> Winner | None:
    if value is None or isinstance(value, Winner):
        return value
    text = plain(value)
    if not text:
        return None
    winner = _RESULTS.get(text.casefold())
    if winner is None:
        problems.append(Problem(Field.RESULT, RuleError(MSG_UNKNOWN_RESULT, text=Typed(value))))
    return winner


def _read_flag(where: Field, value: bool | str | None, problems: list[Problem]) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = plain(value).casefold()
    if not text:
        return None
    if text in YES:
        return True
    if text in NO:
        return False
    problems.append(Problem(where, RuleError(MSG_NOT_YES_NO, text=Typed(value))))
    return None


def _settle_bets(
    bets: Sequence[BetEntry],
    table: TableRules,
    outcome: Outcome | None,
    occupied: Collection[int] | None,
    problems: list[Problem],
) -> list[SettledBet]:
    settled: list[SettledBet] = []
    seen: set[tuple[int, BetType]] = set()
    staked: dict[int, tuple[Decimal, int]] = {}  # seat -> (stakes so far, index of the last bet)
    for index, entry in enumerate(bets):
        bet_problems: list[Problem] = []

        def refuse(
            where: Field,
            template: str,
            index: int = index,
            found: list[Problem] = bet_problems,
            **params: Any,
        ) -> None:
            found.append(Problem(where, RuleError(template, **params), bet=index))

        seat = read_seat(entry.seat, table.seats)
        if seat is None and not plain(str(entry.seat)):
            refuse(Field.SEAT, MSG_SEAT_MISSING, last=table.seats)
        elif seat is None:
            text = Typed(plain(str(entry.seat)))
            refuse(Field.SEAT, MSG_NO_SUCH_SEAT, seat=text, last=table.seats)
        elif occupied is not None and seat not in occupied:
            refuse(Field.SEAT, MSG_EMPTY_SEAT)
        bet_type = _bet_type_or_none(entry.bet)
        if bet_type is None:
            offered = ", ".join(bet.value for bet in table.rules.offered_bets)
            refuse(Field.BET, MSG_UNKNOWN_BET, text=Typed(str(entry.bet)), offered=offered)
        elif not table.rules.offers(bet_type):
            refuse(Field.BET, MSG_BET_NOT_OFFERED, bet=bet_type.label)
        elif seat is not None and (seat, bet_type) in seen:
            refuse(Field.BET, MSG_DUPLICATE_BET)
        stack = None if table.stacks is None or seat is None else table.stacks.get(seat, ZERO)
        stake = _read_stake(entry.stake, table, refuse, stack)
        if seat is not None and bet_type is not None:
            seen.add((seat, bet_type))
        if bet_problems or seat is None or bet_type is None or stake is None:
            problems.extend(bet_problems)
            continue
        total, _last = staked.get(seat, (ZERO, index))
        staked[seat] = (total + stake, index)
        if outcome is None:
            continue
        try:
            result = resolve_bet(table.rules, bet_type, stake, outcome, table.rounding)
        except BetError as error:
            problems.append(Problem(Field.BET, error, bet=index))
            continue
        settled.append(SettledBet(index, seat, bet_type, stake, result))
    if table.stacks is not None:
        for seat, (total, last) in staked.items():
            stack = table.stacks.get(seat, ZERO)
            if total > stack:
                over = RuleError(MSG_OVER_STACK, total=total, stack=stack)
                problems.append(Problem(Field.STAKE, over, bet=last))
    return settled


def _read_stake(
    value: Decimal | str, table: TableRules, refuse: Callable[..., None], stack: Decimal | None
) -> Decimal | None:
    """A stake within the table's limits. ``stack``: a tournament seat's stack, which under
    the table minimum is bet whole (all-in) or is out, as the tournament says."""
    stake = read_amount(value)
    if stake is None:
        refuse(Field.STAKE, MSG_NOT_A_NUMBER, text=Typed(plain(str(value))))
        return None
    try:
        check_stake(stake)
    except BetError as error:
        refuse(Field.STAKE, error.template, **error.params)
        return None
    short = stack is not None and ZERO < stack < table.table_min
    if short and table.short_stack is ShortStack.OUT:
        refuse(Field.STAKE, MSG_SHORT_STACK_OUT, stack=stack, minimum=table.table_min)
        return None
    if short and stake == stack:
        return stake  # all-in: the whole stack, whatever the minimum and the unit
    if stake < table.table_min:
        if short:
            minimum = table.table_min
            refuse(Field.STAKE, MSG_SHORT_STACK_ALL_IN, stake=stake, minimum=minimum, stack=stack)
        else:
            refuse(Field.STAKE, MSG_UNDER_MINIMUM, stake=stake, minimum=table.table_min)
        return None
    if stake > table.table_max:
        refuse(Field.STAKE, MSG_OVER_MAXIMUM, stake=stake, maximum=table.table_max)
        return None
    if table.unit and stake % table.unit:
        refuse(Field.STAKE, MSG_NOT_UNIT, stake=stake, unit=table.unit)
        return None
    return stake


def read_seat(value: int | str, seats: int = len(SEATS)) -> int | None:
    """A seat number of a table of ``seats`` seats (any table's: 1–9), from a number or its
    text; ``None`` when it is not one."""
    if isinstance(value, str):
        text = plain(value)
        if not (text.isascii() and text.isdigit() and len(text) < 3):
            return None
        value = int(text)
    return value if 1 <= value <= min(seats, len(SEATS)) else None


def stake_label(value: BetType | str) -> str:
    """How a stake's kind reads in a message: a bet type's label, or what was typed."""
    bet_type = _bet_type_or_none(value)
    if bet_type is not None:
        return bet_type.label
    for labelled in (BankedBet, CoverKind):
        try:
            return labelled(plain(str(value)).casefold()).label
        except ValueError:
            continue
    return str(value)


def _bet_type_or_none(value: BetType | str) -> BetType | None:
    if isinstance(value, BetType):
        return value
    try:
        return BetType(plain(value).casefold())
    except ValueError:
        return None


def read_amount(value: Decimal | str) -> Decimal | None:
    """An amount of chips as a person writes it: digits with an optional sign and decimals,
    thousands optionally grouped with commas (``1,000``), full-width digits read as digits.
    ``None`` for anything else — exponents, underscores, other commas, other digits, more than
    fifteen digits before the point: nothing is guessed. Range and cents are the caller's."""
    if isinstance(value, Decimal):
        return value if value.is_finite() and value.adjusted() < MAX_AMOUNT_DIGITS else None
    text = plain(value)
    if _GROUPED.fullmatch(text):
        text = text.replace(",", "")
    if not _AMOUNT.fullmatch(text):
        return None
    amount = Decimal(text)
    return amount if amount.adjusted() < MAX_AMOUNT_DIGITS else None


def read_count(value: str, *, digits: int = 9) -> int | None:
    """A whole number as a person types it: the digits 0 to 9, full-width ones (a Japanese
    phone's keyboard) read as them, at most ``digits`` of them. ``None`` for anything else —
    a sign, a point, circled, superscript or subscript digits, other scripts' digits, the
    mathematical alphabets' digits — which ``int()`` and ``str.isdigit`` would take."""
    text = plain(value)
    return int(text) if _COUNT.fullmatch(text) and len(text) <= digits else None


# --- the keypad ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TapReading:
    """Ranks tapped in deal order, read as the two hands. ``problem`` is set when a tap could
    not be taken (not a card, no card due, more copies than the shoe holds); the hands then
    hold the taps before it."""

    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()
    problem: RuleError | None = None
    taps_read: int = 0
    # Whether the Player's and the Banker's third cards are due (or, for the Banker, not decided).
    due: tuple[bool, bool] = (True, True)
    typed: bool = False  # read from typed boxes rather than from taps

    @property
    def complete(self) -> bool:
        return len(self.player) >= 2 and len(self.banker) >= 2 and not any(self.due)

    @property
    def taps(self) -> tuple[str, ...]:
        """The taps that were taken, in deal order."""
        order = [*_interleave(self.player[:2], self.banker[:2]), *self.player[2:]]
        return tuple(str(card) for card in [*order, *self.banker[2:]])

    def status(self) -> Text:
        """What the dealer does next, how the hand came out, or what is wrong."""
        if self.problem is not None:
            return Text(self.problem.template, **self.problem.params)
        if not self.player and not self.banker:
            return Text(MSG_TAP_START)
        first_four = ((self.player, 0), (self.banker, 0), (self.player, 1), (self.banker, 1))
        for name, (side, position) in zip(CARD_NAMES, first_four, strict=True):
            if len(side) <= position:
                return Text(MSG_TAP_NEXT, card=name)
        if self.due[0]:
            return Text(MSG_PLAYER_DRAWS)
        if self.due[1]:
            return Text(MSG_BANKER_DRAWS)
        return result_text(Hand(self.player, self.banker).outcome())


def result_text(outcome: Outcome, *, coup: bool = False) -> Text:
    """How a hand came out, in words: "Banker wins 9–8 (natural).", "Tie.", "Player wins."; a
    ``coup`` of a guest-banked game in its words: "Bank wins 6–5.", "Égalité."."""
    tie = outcome.winner is Winner.TIE
    sides = COUP_SIDES if coup else WINNER_LABELS
    if outcome.player_total is None or outcome.banker_total is None:
        if tie:
            return Text(MSG_EGALITE_NO_CARDS if coup else MSG_TIE_NO_CARDS)
        return Text(MSG_WINS_NO_CARDS, winner=sides[outcome.winner])
    high, low = sorted((outcome.player_total, outcome.banker_total), reverse=True)
    if tie:
        if coup:
            return Text(MSG_EGALITE, high=high, low=low)
        return Text(MSG_TIE_NATURAL if outcome.natural else MSG_TIE, high=high, low=low)
    template = MSG_WINS_NATURAL if outcome.natural else MSG_WINS
    return Text(template, winner=sides[outcome.winner], high=high, low=low)


def _interleave(player: tuple[Card, ...], banker: tuple[Card, ...]) -> list[Card]:
    dealt: list[Card] = []
    for index in range(max(len(player), len(banker))):
        dealt.extend(side[index] for side in (player, banker) if index < len(side))
    return dealt


def read_taps(taps: Sequence[str], *, decks: int | None = None) -> TapReading:
    """Read card taps in deal order — P1 B1 P2 B2, then the third cards the rules call for —
    into the two hands, what is due next, and the first problem if any."""
    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()
    due = (True, True)
    for count, tap in enumerate(taps):
        try:
            card = parse_card(tap)
        except CardError as error:
            return TapReading(player, banker, error, count, due)
        if len(player) < 2 or len(banker) < 2:
            to_player = len(player) <= len(banker)
        elif due[0] or due[1]:
            to_player = due[0]
        else:
            return TapReading(player, banker, RuleError(MSG_HAND_COMPLETE), count, due)
        copies = _too_many_copies((*player, *banker), card, decks)
        if copies is not None:
            return TapReading(player, banker, copies, count, due)
        if to_player:
            player = (*player, card)
        else:
            banker = (*banker, card)
        if len(player) >= 2 and len(banker) >= 2:
            cards = cards_due(player, banker)
            due = (cards.player, cards.banker is not False)
    return TapReading(player, banker, None, len(taps), due)


def read_typed(player_text: str, banker_text: str, *, decks: int | None = None) -> TapReading:
    """Cards typed side by side, read like taps: what is due next, and the problem if any."""
    try:
        player, banker = parse_cards(player_text), parse_cards(banker_text)
    except CardError as error:
        return TapReading(problem=error, typed=True)
    due = (len(player) < 2, len(banker) < 2)
    short = min(len(player), len(banker)) < 2
    sides = ((PLAYER, player), (BANKER, banker))
    early = next((side for side, cards in sides if short and len(cards) > 2), None)
    if early is not None:
        return TapReading(
            player, banker, RuleError(MSG_THIRD_CARD_EARLY, side=early), 0, due, typed=True
        )
    try:
        if len(player) >= 2 and len(banker) >= 2:
            cards = cards_due(player, banker)
            due = (cards.player, cards.banker is not False)
        else:
            cards_due(player, banker)  # more than three cards a side is already wrong
        if decks is not None:
            check_copies(player + banker, decks)
    except HandError as error:
        return TapReading(player, banker, error, 0, due, typed=True)
    return TapReading(player, banker, None, len(player) + len(banker), due, typed=True)


def press(
    taps: Sequence[str],
    player_text: str = "",
    banker_text: str = "",
    *,
    add: str = "",
    back: bool = False,
    decks: int | None = None,
) -> TapReading:
    """The card keypad. Its state is the taps so far, which the page keeps; a key adds a card
    (``add``) or takes the last one back (``back``), and without a key the typed boxes are read.
    If the boxes were typed in since the last tap, the typed cards become the taps — when they
    read in deal order; otherwise the key is refused and the typed cards kept as they are."""
    typed = read_typed(player_text, banker_text, decks=decks)
    if not (add or back):
        return typed
    so_far = read_taps(taps, decks=decks)
    if (so_far.player, so_far.banker) != (typed.player, typed.banker):
        if typed.problem is not None:
            return typed
        replay = read_taps(typed.taps, decks=decks)
        if replay.problem or (replay.player, replay.banker) != (typed.player, typed.banker):
            return replace(typed, problem=RuleError(MSG_TYPED_OUT_OF_ORDER))
        taps = typed.taps
    return read_taps([*taps, add] if add else list(taps)[:-1], decks=decks)


def _too_many_copies(dealt: tuple[Card, ...], card: Card, decks: int | None) -> RuleError | None:
    """Whether one more ``card`` is more copies than a shoe of ``decks`` holds."""
    if decks is None:
        return None
    same_rank = 1 + sum(other.rank == card.rank for other in dealt)
    if same_rank > 4 * decks:
        return RuleError(
            MSG_TOO_MANY_COPIES, card=card.rank, count=same_rank, decks=decks, limit=4 * decks
        )
    same_card = 1 + sum(other == card for other in dealt)
    if card.suit is not None and same_card > decks:
        return RuleError(
            MSG_TOO_MANY_COPIES, card=str(card), count=same_card, decks=decks, limit=decks
        )
    return None
