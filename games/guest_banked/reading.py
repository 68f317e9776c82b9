"""A coup's entry read, both games alike: seats, amounts, choices, cards, the result, the stakes,
the banker's move. Every problem is gathered in a :class:`Reading` rather than raised, so that the
pipeline answers with all of them at once, each keyed by its field. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from games.cards import Card, CardError, format_cards, parse_cards
from games.entry import (
    MSG_EMPTY_SEAT,
    MSG_NO_RESULT,
    MSG_NO_SUCH_SEAT,
    MSG_NOT_A_NUMBER,
    MSG_SEAT_MISSING,
    Field,
    Problem,
    check_agrees,
    read_amount,
    read_result,
    read_seat,
)
from games.guest_banked.chemin_drawing import Choice
from games.guest_banked.terms import MOVES, CoupTerms
from games.kinds import MOVE_LABELS, TABLE_SEATS, BankerMove, Game
from games.messages import RuleError, Typed, gettext_noop, plain
from games.payouts import ZERO
from games.rules import Outcome, Winner

MSG_CARDS_TYPED_ONLY = gettext_noop("A coup's cards are typed in the boxes, not tapped.")
MSG_CHOICE_NOT_READ = gettext_noop("“{text}” is not a choice: draw or stand.")
MSG_CHOICE_WITHOUT_CARDS = gettext_noop(
    "A choice is recorded with the cards: without them only the result is."
)
MSG_UNKNOWN_COVER = gettext_noop("“{text}” is not a stake here (one of: {offered}).")
MSG_NO_COVER = gettext_noop("Nobody covered the bank: there is no coup to record.")
MSG_UNKNOWN_MOVE = gettext_noop("“{text}” is not a move here (one of: {offered}).")
MSG_MOVE_NOT_IN_GAME = gettext_noop("{move} is not a move of {game}.")
MSG_TAKEN_NOT_NUMBER = gettext_noop("“{text}” is not an amount taken out.")
MSG_SUITE_NEEDS_SUITE = gettext_noop("A taker and an amount are for a suite only.")
MSG_TAKES_ALL = gettext_noop(
    "Giving the bank up, the banker takes all it holds, {amount}: not {taken}."
)

MSG_TOO_LARGE = gettext_noop("{amount} is more than the ledger takes (at most {maximum}).")
# games.chips.MAX_CHIPS, which the rules core cannot import (it is a Django field's module).
LARGEST_AMOUNT = Decimal("99999999999.99")


@dataclass
class Reading:
    """What the entry says, read; problems gathered on the way."""

    problems: list[Problem] = field(default_factory=list)

    def refuse(self, where: Field, error: RuleError, bet: int | None = None) -> None:
        self.problems.append(Problem(where, error, bet=bet))


def seat_field(
    value: int | str | None, seated: Mapping[int, Hashable], where: Field, reading: Reading
) -> int | None:
    text = "" if value is None else plain(str(value))
    if not text:
        return None
    seat = read_seat(value if isinstance(value, int) else text, TABLE_SEATS)
    if seat is None:
        reading.refuse(where, RuleError(MSG_NO_SUCH_SEAT, seat=Typed(text), last=TABLE_SEATS))
    elif seat not in seated:
        reading.refuse(where, RuleError(MSG_EMPTY_SEAT))
        return None
    return seat


def amount_field(value: Decimal | str, where: Field, reading: Reading) -> Decimal | None:
    amount = read_amount(value)
    if amount is None:
        reading.refuse(where, RuleError(MSG_NOT_A_NUMBER, text=Typed(plain(str(value)))))
    elif amount > LARGEST_AMOUNT:
        reading.refuse(where, RuleError(MSG_TOO_LARGE, amount=amount, maximum=LARGEST_AMOUNT))
        return None
    return amount


def choice_field(value: Choice | str | None, where: Field, reading: Reading) -> Choice | None:
    if value is None or isinstance(value, Choice):
        return value
    text = plain(value).casefold()
    if not text:
        return None
    try:
        return Choice(text)
    except ValueError:
        reading.refuse(where, RuleError(MSG_CHOICE_NOT_READ, text=Typed(value)))
        return None


def cards_field(text: str, where: Field, reading: Reading) -> tuple[Card, ...] | None:
    try:
        return parse_cards(text)
    except CardError as error:
        reading.refuse(where, error)
        return None


def no_choices_without_cards(
    choices: Sequence[tuple[Field, Choice | None]], reading: Reading
) -> None:
    for where, choice in choices:
        if choice is not None:
            reading.refuse(where, RuleError(MSG_CHOICE_WITHOUT_CARDS))


def winner_alone(value: Winner | str | None, where: Field, reading: Reading) -> Winner | None:
    problems: list[Problem] = []
    winner = read_result(value, problems)
    for problem in problems:
        reading.refuse(where, problem.error)
    if winner is None and not problems:
        reading.refuse(where, RuleError(MSG_NO_RESULT))
    return winner


def agrees(outcome: Outcome, value: Winner | str | None, where: Field, reading: Reading) -> None:
    problems: list[Problem] = []
    unnoted: dict[Field, bool | None] = {Field.PLAYER_PAIR: None, Field.BANKER_PAIR: None}
    check_agrees(outcome, read_result(value, problems), unnoted, problems)
    for problem in problems:
        reading.refuse(where, problem.error)


def seat_of_guest(seated: Mapping[int, Hashable], guest: Hashable) -> int:
    return next(seat for seat, someone in seated.items() if someone == guest)


def formatted_cards(text: str) -> str:
    return format_cards(parse_cards(text))


def stake_seat(
    value: int | str, seated: Mapping[int, Hashable], index: int, reading: Reading
) -> int | None:
    seat = read_seat(value, TABLE_SEATS)  # a guest-banked game is played at cash tables
    text = plain(str(value))
    if seat is None:
        template = MSG_SEAT_MISSING if not text else MSG_NO_SUCH_SEAT
        error = RuleError(template, seat=Typed(text), last=TABLE_SEATS)
        reading.refuse(Field.SEAT, error, bet=index)
        return None
    if seat not in seated:
        reading.refuse(Field.SEAT, RuleError(MSG_EMPTY_SEAT), bet=index)
        return None
    return seat


def stake_amount(value: Decimal | str, index: int, reading: Reading) -> Decimal | None:
    stake = read_amount(value)
    if stake is None:
        error = RuleError(MSG_NOT_A_NUMBER, text=Typed(plain(str(value))))
        reading.refuse(Field.STAKE, error, bet=index)
    elif stake > LARGEST_AMOUNT:
        error = RuleError(MSG_TOO_LARGE, amount=stake, maximum=LARGEST_AMOUNT)
        reading.refuse(Field.STAKE, error, bet=index)
        return None
    return stake


def read_move(terms: CoupTerms, game: Game, reading: Reading) -> BankerMove | str | None:
    """The move as entered; ``""`` when none was (the game's default follows the result)."""
    text = plain(str(terms.move)).casefold()
    if not text:
        return ""
    try:
        move = BankerMove(text)
    except ValueError:
        offered = ", ".join(move.value for move in MOVES[game])
        reading.refuse(
            Field.MOVE, RuleError(MSG_UNKNOWN_MOVE, text=Typed(str(terms.move)), offered=offered)
        )
        return None
    if move not in MOVES[game]:
        reading.refuse(
            Field.MOVE, RuleError(MSG_MOVE_NOT_IN_GAME, move=MOVE_LABELS[move], game=game.label)
        )
        return None
    return move


def read_taken(terms: CoupTerms, reading: Reading) -> Decimal | None:
    text = plain(str(terms.taken))
    if not text:
        return ZERO
    amount = read_amount(terms.taken)
    if amount is None:
        reading.refuse(Field.TAKEN, RuleError(MSG_TAKEN_NOT_NUMBER, text=Typed(text)))
    return amount
