"""What a coup of a guest-banked game says and how it is read: the game, the bank's terms as
entered, the coup before and the coup settled, and the readings both games share (seats, amounts,
choices, cards, the bank and whether it follows from the coup before). The games' own rules are
in :mod:`chemin_coup` and :mod:`banque_coup`; :mod:`pipeline` is the way in. Plain Python, no
Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
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
    SettledBet,
    check_agrees,
    read_amount,
    read_result,
    read_seat,
)
from games.guest_banked.banque_drawing import (
    BanqueTaxe,
)
from games.guest_banked.chemin_drawing import Choice
from games.guest_banked.chemin_money import (
    MSG_BANK_BELOW_MINIMUM,
    MSG_BANK_CENTS,
    MSG_BANK_NOT_POSITIVE,
    MSG_CO_BANKER_IS_BANKER,
    MSG_NO_MONEY_OUT,
    Bank,
    BankError,
    BankResult,
    Taxe,
    seat_to_the_right,
    shares,
)
from games.kinds import MOVE_LABELS, BankerMove, Game, SuiteWay
from games.messages import RuleError, Typed, gettext_noop, plain, whole_cents
from games.payouts import ZERO, BankedBet, BetResult
from games.rules import Outcome, Winner

MSG_NOT_GUEST_BANKED = gettext_noop("Punto Banco has no banker among the guests: no coup here.")
MSG_COUP_MISSING = gettext_noop("Say who holds the bank and how much it is.")
MSG_CARDS_TYPED_ONLY = gettext_noop("A coup's cards are typed in the boxes, not tapped.")
MSG_CHOICE_NOT_READ = gettext_noop("“{text}” is not a choice: draw or stand.")
MSG_CHOICE_WITHOUT_CARDS = gettext_noop(
    "A choice is recorded with the cards: without them only the result is."
)
MSG_UNKNOWN_COVER = gettext_noop("“{text}” is not a stake here (one of: {offered}).")
MSG_NO_COVER = gettext_noop("Nobody covered the bank: there is no coup to record.")
MSG_UNKNOWN_MOVE = gettext_noop("“{text}” is not a move here (one of: {offered}).")
MSG_MOVE_NOT_IN_GAME = gettext_noop("{move} is not a move of {game}.")
MSG_HELD_BY = gettext_noop(
    "Seat {seat} kept the bank after the last coup: it holds the bank for this one."
)
MSG_PASSED_TO = gettext_noop(
    "The bank lost the last coup and passed to seat {seat}, to the right: seat {seat} banks."
)
MSG_SUITE_TO = gettext_noop("Seat {seat} took the suite: seat {seat} holds the bank.")
MSG_BANK_STANDS_AT = gettext_noop(
    "The bank stands at {expected} after the last coup: it plays {expected}, not {amount}."
)
MSG_CO_BANKER_KEPT = gettext_noop(
    "Seat {seat} shares the bank since an earlier coup: the co-banker stays while it is held."
)
MSG_DOUBLE_AMOUNT = gettext_noop(
    "Banco double: the co-banker brings as much as the bank ({bank}), so it plays {expected}, "
    "not {amount}."
)
MSG_CO_BANKER_CENTS = gettext_noop(
    "A shared bank is two equal halves: {amount} does not split into whole cents."
)
MSG_TAKEN_NOT_NUMBER = gettext_noop("“{text}” is not an amount taken out.")
MSG_SUITE_SEAT_IS_BANKER = gettext_noop(
    "The suite goes to another guest, not to the banker's seat."
)
MSG_SUITE_NEEDS_SUITE = gettext_noop("A taker and an amount are for a suite only.")
MSG_STAKE_BANKER = gettext_noop("{guest} holds the bank and cannot stake against it.")
MSG_ONE_TABLEAU = gettext_noop("Chemin de fer plays one hand against the bank: no second tableau.")
MSG_SUITE_TAKER_MISSING = gettext_noop(
    "A suite's amount is what its taker bid or took: say which seat took the bank."
)
MSG_TAKES_ALL = gettext_noop(
    "Giving the bank up, the banker takes all it holds, {amount}: not {taken}."
)

MSG_TOO_LARGE = gettext_noop("{amount} is more than the ledger takes (at most {maximum}).")
# games.chips.MAX_CHIPS, which the rules core cannot import (it is a Django field's module).
LARGEST_AMOUNT = Decimal("99999999999.99")

MOVES = {
    Game.CHEMIN_DE_FER: (BankerMove.KEEP, BankerMove.SUITE, BankerMove.PASS, BankerMove.RETIRE),
    Game.BACCARA_BANQUE: (BankerMove.KEEP, BankerMove.RETIRE),
}
TABLEAU_BETS = (BankedBet.TABLEAU_1, BankedBet.TABLEAU_2)


@dataclass(frozen=True)
class BankRules:
    """What an event's guest-banked game allows: the game, its cut, its minimum banco (the
    event's table minimum) and its shoe."""

    game: Game
    minimum_banco: Decimal
    decks: int = 8
    taxe: Taxe = field(default_factory=Taxe)
    shoe_charge: Decimal = ZERO  # Chemin de fer with a table charge: once a shoe
    banque_taxe: BanqueTaxe = field(default_factory=BanqueTaxe)


@dataclass(frozen=True)
class CoupTerms:
    """The bank and the play of one coup, as entered (text from a form or a scoresheet, or values
    already read). ``taken`` is money the banker asks to take out while keeping the bank (always
    refused); a suite names its taker (``suite_seat``) and amount (the bank's: taken; more or
    less: the highest bid) or neither (nobody bid: the next in turn at the minimum banco)."""

    banker_seat: int | str
    bank: Decimal | str
    co_banker_seat: int | str | None = None
    ponte_choice: Choice | str | None = None
    banker_choice: Choice | str | None = None
    second_cards: str = ""
    second_result: Winner | str | None = None
    second_choice: Choice | str | None = None
    move: BankerMove | str = ""
    taken: Decimal | str = ""
    suite_seat: int | str | None = None
    suite_amount: Decimal | str = ""


@dataclass(frozen=True)
class PreviousCoup:
    """The coup before, in the same shoe, as the ledger recorded it: what the next coup's bank
    follows from."""

    banker_seat: int
    co_banker_seat: int | None
    bank_after: Decimal
    move: BankerMove
    rotation_seat: int
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suivi_seat: int | None = None
    holder_seats: tuple[int | None, int | None] = (None, None)
    winners: tuple[Winner, ...] = ()


@dataclass(frozen=True)
class SettledCoup:
    """A coup ready to store beside its hand."""

    game: Game
    banker_seat: int
    co_banker_seat: int | None
    bank: Decimal  # on the table before the coup
    covered: Decimal  # what the bank played against (Chemin de fer) or the stakes (banque)
    holder_seats: tuple[int | None, int | None]  # who held the cards (per tableau in banque)
    ponte_choice: Choice | None
    banker_choice: Choice | None
    second_choice: Choice | None
    second_cards: str
    second_winner: Winner | None
    banker_cards: str  # the banker's cards as dealt (in banque, against both tableaux)
    house_cut: Decimal  # the taxe, and the table charge or the taxe on capital if due here
    move: BankerMove
    taken: Decimal  # what the banker took off the table when he gave the bank up
    bank_after: Decimal
    rotation_seat: int  # whose right the bank passes to when it loses
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suite_way: SuiteWay | None = None
    suivi_seat: int | None = None  # who may call suivi on the next coup
    winners: tuple[Winner, ...] = ()  # per hand against the bank (two in Baccara banque)

    @property
    def next_state(self) -> PreviousCoup:
        return PreviousCoup(
            banker_seat=self.banker_seat,
            co_banker_seat=self.co_banker_seat,
            bank_after=self.bank_after,
            move=self.move,
            rotation_seat=self.rotation_seat,
            suite_seat=self.suite_seat,
            suite_amount=self.suite_amount,
            suivi_seat=self.suivi_seat,
            holder_seats=self.holder_seats,
            winners=self.winners,
        )


@dataclass(frozen=True)
class NextMove:
    """What the banker did after the coup."""

    move: BankerMove
    taken: Decimal
    bank_after: Decimal
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suite_way: SuiteWay | None = None


@dataclass
class Reading:
    """What the entry says, read; problems gathered on the way."""

    problems: list[Problem] = field(default_factory=list)

    def refuse(self, where: Field, error: RuleError, bet: int | None = None) -> None:
        self.problems.append(Problem(where, error, bet=bet))


# --- the bank -----------------------------------------------------------------------------


def seat_field(
    value: int | str | None, seated: Mapping[int, Hashable], where: Field, reading: Reading
) -> int | None:
    text = "" if value is None else plain(str(value))
    if not text:
        return None
    seat = read_seat(value if isinstance(value, int) else text)
    if seat is None:
        reading.refuse(where, RuleError(MSG_NO_SUCH_SEAT, seat=Typed(text)))
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


def read_bank(
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    reading: Reading,
) -> Bank | None:
    banker_seat = seat_field(terms.banker_seat, seated, Field.BANKER_SEAT, reading)
    if terms.banker_seat is None or not plain(str(terms.banker_seat)):
        reading.refuse(Field.BANKER_SEAT, RuleError(MSG_SEAT_MISSING))
    co_seat = seat_field(terms.co_banker_seat, seated, Field.CO_BANKER_SEAT, reading)
    amount = amount_field(terms.bank, Field.BANK, reading)
    if banker_seat is None or amount is None:
        return None
    problem = continuity_problem(previous, banker_seat, co_seat, amount, seated)
    if co_seat is not None and co_seat == banker_seat:
        problem = RuleError(MSG_CO_BANKER_IS_BANKER, guest=seated[banker_seat])
    elif problem is None and not plays_on(previous, banker_seat, co_seat):
        # A new bank (or a co-banker joining) is set by its holders: at least the minimum,
        # in equal halves when shared. A bank kept or taken as a suite plays what it holds.
        problem = _bank_problem(amount, rules, co_seat, banker_seat, seated)
    elif problem is None and not (amount > 0 and whole_cents(amount)):
        problem = RuleError(MSG_BANK_NOT_POSITIVE if not amount > 0 else MSG_BANK_CENTS,
                            amount=amount)  # fmt: skip
    if problem is not None:
        where = Field.CO_BANKER_SEAT if problem.template == MSG_CO_BANKER_IS_BANKER else Field.BANK
        reading.refuse(where, problem)
        return None
    co_banker = seated[co_seat] if co_seat is not None else None
    return Bank(seated[banker_seat], amount, co_banker)


def plays_on(previous: PreviousCoup | None, banker_seat: int, co_seat: int | None) -> bool:
    """Whether the bank of this coup is the one the coup before left (kept, or taken as a
    suite), with nobody joining it: its amount is then what it holds, not what its holder sets."""
    if previous is None:
        return False
    if previous.move is BankerMove.KEEP:
        return banker_seat == previous.banker_seat and co_seat == previous.co_banker_seat
    suite_taken = previous.move is BankerMove.SUITE and banker_seat == previous.suite_seat
    return suite_taken and co_seat is None


def _bank_problem(
    amount: Decimal,
    rules: BankRules,
    co_seat: int | None,
    banker_seat: int,
    seated: Mapping[int, Hashable],
) -> RuleError | None:
    if not amount > 0:
        return RuleError(MSG_BANK_NOT_POSITIVE, amount=amount)
    if not whole_cents(amount):
        return RuleError(MSG_BANK_CENTS, amount=amount)
    if co_seat is not None:
        if co_seat == banker_seat:
            return RuleError(MSG_CO_BANKER_IS_BANKER, guest=seated[banker_seat])
        if not whole_cents(amount / 2):
            return RuleError(MSG_CO_BANKER_CENTS, amount=amount)
    own = amount / 2 if co_seat is not None else amount
    if own < rules.minimum_banco:
        return RuleError(MSG_BANK_BELOW_MINIMUM, amount=own, minimum=rules.minimum_banco)
    return None


def continuity_problem(
    previous: PreviousCoup | None,
    banker_seat: int,
    co_seat: int | None,
    amount: Decimal,
    seated: Collection[int],
) -> RuleError | None:
    """Whether a coup's bank follows from the coup before: a bank kept plays on with all it
    holds (nothing out, a co-banker joining doubles it), a lost bank passes to the right, a
    suite goes to its taker at its amount. ``None``: it follows."""
    if previous is None or previous.move is BankerMove.RETIRE:
        return None
    if previous.move is BankerMove.KEEP:
        if banker_seat != previous.banker_seat:
            return RuleError(MSG_HELD_BY, seat=previous.banker_seat)
        if previous.co_banker_seat is not None and co_seat != previous.co_banker_seat:
            return RuleError(MSG_CO_BANKER_KEPT, seat=previous.co_banker_seat)
        expected = previous.bank_after
        if co_seat is not None and previous.co_banker_seat is None:
            if amount != 2 * expected:
                return RuleError(
                    MSG_DOUBLE_AMOUNT, bank=expected, expected=2 * expected, amount=amount
                )
            return None
        if amount < expected:
            return RuleError(MSG_NO_MONEY_OUT, amount=expected - amount)
        if amount != expected:
            return RuleError(MSG_BANK_STANDS_AT, expected=expected, amount=amount)
        return None
    if previous.move is BankerMove.SUITE:
        if banker_seat != previous.suite_seat:
            return RuleError(MSG_SUITE_TO, seat=previous.suite_seat)
        taken = previous.suite_amount
        if taken is not None and co_seat is not None and amount != 2 * taken:
            # A co-banker joining the bank just taken brings as much as it holds.
            return RuleError(MSG_DOUBLE_AMOUNT, bank=taken, expected=2 * taken, amount=amount)
        if taken is not None and co_seat is None and amount != taken:
            return RuleError(MSG_BANK_STANDS_AT, expected=taken, amount=amount)
        return None
    try:
        to_the_right = seat_to_the_right(previous.rotation_seat, {*seated, previous.rotation_seat})
    except BankError as nobody:
        return nobody
    if banker_seat != to_the_right:
        return RuleError(MSG_PASSED_TO, seat=to_the_right)
    return None


def rotation_seat_for(previous: PreviousCoup | None, banker_seat: int) -> int:
    """Whose right a lost bank passes to: the banker's, or the giver's while a suite plays."""
    if previous is None or previous.banker_seat != banker_seat:
        if previous is not None and previous.move is BankerMove.SUITE:
            return previous.banker_seat
        return banker_seat
    return previous.rotation_seat if previous.move is BankerMove.KEEP else banker_seat


# --- the cards ----------------------------------------------------------------------------


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
    seat = read_seat(value)
    text = plain(str(value))
    if seat is None:
        template = MSG_SEAT_MISSING if not text else MSG_NO_SUCH_SEAT
        reading.refuse(Field.SEAT, RuleError(template, seat=Typed(text)), bet=index)
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


def bank_bets(
    money: BankResult,
    seat_of: Mapping[Hashable, int],
    stake: Decimal,
    charges: Mapping[Hashable, Decimal],
) -> list[SettledBet]:
    """The bank's side of a coup: the banker's (and co-banker's) share of the result, the
    house's cut as their commission, with the charges due on this coup from each of them (the
    table charge, the taxe on the capital each brought in)."""
    bank = money.bank
    gross = -sum((net for _guest, net in money.ponte_nets), ZERO)
    gross_banker, gross_co = shares(bank, gross)
    stake_banker, stake_co = shares(bank, stake) if stake > 0 else (ZERO, ZERO)
    banker_net = money.banker_net - charges.get(bank.banker, ZERO)
    rows = [(bank.banker, stake_banker, gross_banker, banker_net)]
    if bank.co_banker is not None:
        co_net = money.co_banker_net - charges.get(bank.co_banker, ZERO)
        rows.append((bank.co_banker, stake_co, gross_co, co_net))
    return [
        SettledBet(
            -1,
            seat_of[guest],
            BankedBet.BANK,
            share_stake,
            BetResult(share_gross, share_gross - net, net),
        )
        for guest, share_stake, share_gross, net in rows
    ]
