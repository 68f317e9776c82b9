"""A coup of a guest-banked game, from what was entered to what is stored: the pipeline's
branch for Chemin de fer and Baccara banque (Punto Banco's is :func:`games.entry.settle_hand`).

The entry is a :class:`games.entry.HandEntry` whose ``coup`` says who banks and how much, the
choices taken and what the banker did next; its bets are the pontes' stakes — a cover of a kind
(Chemin de fer: ``ordinary``, ``banco_solo``, ``banco_a_deux``, ``avec_la_table``, ``suivi``) or a
tableau (Baccara banque: ``tableau_1``, ``tableau_2``). The ledger adds who sits where and the
previous coup of the shoe (:class:`PreviousCoup`): a bank kept plays on as it stands, a bank
passed goes to the right, a suite to whoever took it. The answer is every stake settled — the
pontes' and the bank's, the house's cut as the bank's commission, so guests' nets and the
house's sum to zero — and the coup's record (:class:`SettledCoup`), or every problem at once.

The table charge per shoe (Chemin de fer, when the event chooses it over the 5% taxe) is paid by
the banker of the shoe's first coup; Baccara banque's taxe on capital by each banker bringing a
bank in (the first coup of his bank). Each shoe starts a new bank. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from games.banque import (
    TABLEAUX,
    BanqueTaxe,
    deal_banque,
    settle_banque_coup,
)
from games.banque import cards_next as banque_cards_next
from games.cards import Card, CardError, format_cards, parse_cards
from games.chemin import Choice, CoupError, deal
from games.chemin_bank import (
    MSG_BANK_BELOW_MINIMUM,
    MSG_BANK_CENTS,
    MSG_BANK_KEPT,
    MSG_BANK_LOST,
    MSG_BANK_NOT_POSITIVE,
    MSG_CO_BANKER_AGAINST_HIMSELF,
    MSG_CO_BANKER_IS_BANKER,
    MSG_NO_MONEY_OUT,
    MSG_SUITE_AFTER_LOSS,
    Bank,
    BankerMove,
    BankError,
    BankResult,
    CoupMoney,
    Cover,
    CoverKind,
    SuiteWay,
    Taxe,
    covers_accepted,
    seat_order,
    seat_to_the_right,
    settle_coup,
    shares,
    suite,
    suivi_for,
)
from games.entry import (
    MSG_EMPTY_SEAT,
    MSG_NO_RESULT,
    MSG_NO_SUCH_SEAT,
    MSG_NOT_A_NUMBER,
    MSG_SEAT_MISSING,
    EntryRejected,
    Field,
    HandEntry,
    Problem,
    SettledBet,
    SettledHand,
    check_agrees,
    read_amount,
    read_result,
    read_seat,
)
from games.messages import Label, RuleError, Typed, gettext_noop, plain, whole_cents
from games.payouts import ZERO, BankedBet, BetResult
from games.rules import Outcome, Winner


class Game(StrEnum):
    PUNTO_BANCO = "punto_banco"
    CHEMIN_DE_FER = "chemin_de_fer"
    BACCARA_BANQUE = "baccara_banque"

    @property
    def label(self) -> Label:
        return Label(_GAME_LABELS[self])

    @property
    def guest_banked(self) -> bool:
        return self is not Game.PUNTO_BANCO


_GAME_LABELS = {
    Game.PUNTO_BANCO: gettext_noop("Punto Banco"),
    Game.CHEMIN_DE_FER: gettext_noop("Chemin de fer"),
    Game.BACCARA_BANQUE: gettext_noop("Baccara banque"),
}

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
MSG_TAKES_ALL = gettext_noop(
    "Giving the bank up, the banker takes all it holds, {amount}: not {taken}."
)

MOVES = {
    Game.CHEMIN_DE_FER: (BankerMove.KEEP, BankerMove.SUITE, BankerMove.PASS, BankerMove.RETIRE),
    Game.BACCARA_BANQUE: (BankerMove.KEEP, BankerMove.RETIRE),
}
MOVE_LABELS = {
    BankerMove.KEEP: Label(gettext_noop("Keeps the bank")),
    BankerMove.SUITE: Label(gettext_noop("Suite")),
    BankerMove.PASS: Label(gettext_noop("Passes the bank")),
    BankerMove.RETIRE: Label(gettext_noop("Retires")),
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
class _Reading:
    """What the entry says, read; problems gathered on the way."""

    problems: list[Problem] = field(default_factory=list)

    def refuse(self, where: Field, error: RuleError, bet: int | None = None) -> None:
        self.problems.append(Problem(where, error, bet=bet))


def settle_coup_entry(
    entry: HandEntry,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    *,
    previous: PreviousCoup | None = None,
) -> SettledHand:
    """Check a coup against the game's rules and the coup before, and settle every stake, or
    raise :class:`EntryRejected` listing every problem. ``seated``: each occupied seat's guest."""
    reading = _Reading()
    terms = entry.coup
    if not rules.game.guest_banked:
        raise EntryRejected([Problem(Field.BANKER_SEAT, RuleError(MSG_NOT_GUEST_BANKED))])
    if terms is None:
        raise EntryRejected([Problem(Field.BANKER_SEAT, RuleError(MSG_COUP_MISSING))])
    bank = _read_bank(terms, rules, seated, previous, reading)
    if rules.game is Game.CHEMIN_DE_FER:
        settled = _settle_chemin(entry, terms, rules, seated, previous, bank, reading)
    else:
        settled = _settle_banque(entry, terms, rules, seated, previous, bank, reading)
    if reading.problems:
        raise EntryRejected(reading.problems)
    assert settled is not None  # every way to lack it is a problem above
    return settled


# --- the bank -----------------------------------------------------------------------------


def _seat(
    value: int | str | None, seated: Mapping[int, Hashable], where: Field, reading: _Reading
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


def _amount(value: Decimal | str, where: Field, reading: _Reading) -> Decimal | None:
    amount = read_amount(value)
    if amount is None:
        reading.refuse(where, RuleError(MSG_NOT_A_NUMBER, text=Typed(plain(str(value)))))
    return amount


def _read_bank(
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    reading: _Reading,
) -> Bank | None:
    banker_seat = _seat(terms.banker_seat, seated, Field.BANKER_SEAT, reading)
    if banker_seat is None and not plain(str(terms.banker_seat)):
        reading.refuse(Field.BANKER_SEAT, RuleError(MSG_SEAT_MISSING))
    co_seat = _seat(terms.co_banker_seat, seated, Field.CO_BANKER_SEAT, reading)
    amount = _amount(terms.bank, Field.BANK, reading)
    if banker_seat is None or amount is None:
        return None
    problem = _bank_problem(amount, rules, co_seat, banker_seat, seated)
    problem = problem or continuity_problem(previous, banker_seat, co_seat, amount, seated)
    if problem is not None:
        where = Field.CO_BANKER_SEAT if problem.template == MSG_CO_BANKER_IS_BANKER else Field.BANK
        reading.refuse(where, problem)
        return None
    co_banker = seated[co_seat] if co_seat is not None else None
    return Bank(seated[banker_seat], amount, co_banker)


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
        if previous.suite_amount is not None and amount != previous.suite_amount:
            return RuleError(MSG_BANK_STANDS_AT, expected=previous.suite_amount, amount=amount)
        return None
    try:
        to_the_right = seat_to_the_right(previous.rotation_seat, {*seated, previous.rotation_seat})
    except BankError as nobody:
        return nobody
    if banker_seat != to_the_right:
        return RuleError(MSG_PASSED_TO, seat=to_the_right)
    return None


def _rotation_seat(previous: PreviousCoup | None, banker_seat: int) -> int:
    """Whose right a lost bank passes to: the banker's, or the giver's while a suite plays."""
    if previous is None or previous.banker_seat != banker_seat:
        if previous is not None and previous.move is BankerMove.SUITE:
            return previous.banker_seat
        return banker_seat
    return previous.rotation_seat if previous.move is BankerMove.KEEP else banker_seat


# --- the cards ----------------------------------------------------------------------------


def _choice(value: Choice | str | None, where: Field, reading: _Reading) -> Choice | None:
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


def _cards(text: str, where: Field, reading: _Reading) -> tuple[Card, ...] | None:
    try:
        return parse_cards(text)
    except CardError as error:
        reading.refuse(where, error)
        return None


def _no_choices_without_cards(
    choices: Sequence[tuple[Field, Choice | None]], reading: _Reading
) -> None:
    for where, choice in choices:
        if choice is not None:
            reading.refuse(where, RuleError(MSG_CHOICE_WITHOUT_CARDS))


def _winner_alone(value: Winner | str | None, where: Field, reading: _Reading) -> Winner | None:
    problems: list[Problem] = []
    winner = read_result(value, problems)
    for problem in problems:
        reading.refuse(where, problem.error)
    if winner is None and not problems:
        reading.refuse(where, RuleError(MSG_NO_RESULT))
    return winner


def _agrees(outcome: Outcome, value: Winner | str | None, where: Field, reading: _Reading) -> None:
    problems: list[Problem] = []
    unnoted: dict[Field, bool | None] = {Field.PLAYER_PAIR: None, Field.BANKER_PAIR: None}
    check_agrees(outcome, read_result(value, problems), unnoted, problems)
    for problem in problems:
        reading.refuse(where, problem.error)


# --- Chemin de fer ------------------------------------------------------------------------


def _settle_chemin(
    entry: HandEntry,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    bank: Bank | None,
    reading: _Reading,
) -> SettledHand | None:
    if plain(terms.second_cards) or plain(str(terms.second_result or "")):
        reading.refuse(Field.SECOND_CARDS, RuleError(MSG_ONE_TABLEAU))
    hand = _chemin_cards(entry, terms, rules, reading)
    offers = _covers(entry, seated, bank, reading)
    move = _move(terms, rules.game, reading)
    if bank is None or hand is None or offers is None or move is None:
        return None
    outcome, ponte_choice, banker_choice = hand
    suivi = previous.suivi_seat if previous is not None else None
    by_guest = {offer.guest: index for index, (_seat, offer) in offers.items()}
    result = covers_accepted(
        bank,
        [offer for _seat, offer in offers.values()],
        suivi=seated.get(suivi) if suivi is not None else None,
        minimum_banco=rules.minimum_banco,
    )
    for refusal in result.refused:
        reading.refuse(Field.STAKE, refusal.error, bet=by_guest[refusal.cover.guest])
    if not result.accepted:
        if not result.refused:
            reading.refuse(Field.STAKE, RuleError(MSG_NO_COVER))
        return None
    money = settle_coup(bank, result.accepted, outcome.winner, rules.taxe)
    banker_seat = _seat_of(seated, bank.banker)
    charge = rules.shoe_charge if previous is None else ZERO
    next_move = _chemin_next(money, move, terms, rules, seated, banker_seat, reading)
    if next_move is None:
        return None
    seat_of = {guest: seat for seat, guest in seated.items()}
    holder = card_holder_seat(result.card_holder, seat_of)
    bets = [
        SettledBet(
            by_guest[cover.guest],
            seat_of[cover.guest],
            BankedBet.COVER,
            cover.amount,
            BetResult(net, ZERO, net),
            kind=cover.kind.value,
        )
        for cover, (_guest, net) in zip(money.covers, money.ponte_nets, strict=True)
    ]
    bets += _bank_bets(money, seat_of, money.covered, charge)
    suivi_guest = suivi_for(money)
    coup = SettledCoup(
        game=rules.game,
        banker_seat=banker_seat,
        co_banker_seat=seat_of.get(bank.co_banker) if bank.co_banker is not None else None,
        bank=bank.amount,
        covered=money.covered,
        holder_seats=(holder, None),
        ponte_choice=ponte_choice,
        banker_choice=banker_choice,
        second_choice=None,
        second_cards="",
        second_winner=None,
        banker_cards=entry_banker_cards(outcome, entry),
        house_cut=money.house_cut + charge,
        rotation_seat=_rotation_seat(previous, banker_seat),
        suivi_seat=seat_of[suivi_guest] if suivi_guest is not None else None,
        move=next_move.move,
        taken=next_move.taken,
        bank_after=next_move.bank_after,
        suite_seat=next_move.suite_seat,
        suite_amount=next_move.suite_amount,
        suite_way=next_move.suite_way,
    )
    return _settled_hand(outcome, entry, bets, coup)


def card_holder_seat(guest: Hashable | None, seat_of: Mapping[Hashable, int]) -> int | None:
    return seat_of[guest] if guest is not None else None


def _seat_of(seated: Mapping[int, Hashable], guest: Hashable) -> int:
    return next(seat for seat, someone in seated.items() if someone == guest)


def entry_banker_cards(outcome: Outcome, entry: HandEntry) -> str:
    return _formatted(entry.banker_cards) if outcome.player_total is not None else ""


def _formatted(text: str) -> str:
    return format_cards(parse_cards(text))


def _chemin_cards(
    entry: HandEntry, terms: CoupTerms, rules: BankRules, reading: _Reading
) -> tuple[Outcome, Choice | None, Choice | None] | None:
    ponte_choice = _choice(terms.ponte_choice, Field.PONTE_CHOICE, reading)
    banker_choice = _choice(terms.banker_choice, Field.BANKER_CHOICE, reading)
    if entry.taps:
        reading.refuse(Field.CARDS, RuleError(MSG_CARDS_TYPED_ONLY))
        return None
    if not (plain(entry.player_cards) or plain(entry.banker_cards)):
        _no_choices_without_cards(
            [(Field.PONTE_CHOICE, ponte_choice), (Field.BANKER_CHOICE, banker_choice)], reading
        )
        winner = _winner_alone(entry.result, Field.RESULT, reading)
        return None if winner is None else (Outcome(winner), None, None)
    player = _cards(entry.player_cards, Field.PLAYER_CARDS, reading)
    banker = _cards(entry.banker_cards, Field.BANKER_CARDS, reading)
    if player is None or banker is None:
        return None
    try:
        coup = deal(
            player, banker, ponte_choice=ponte_choice, banker_choice=banker_choice,
            decks=rules.decks,
        )  # fmt: skip
    except (CoupError, RuleError) as error:
        reading.refuse(Field.CARDS, error)
        return None
    outcome = coup.outcome()
    _agrees(outcome, entry.result, Field.RESULT, reading)
    return outcome, coup.ponte_choice, coup.banker_choice


def _covers(
    entry: HandEntry,
    seated: Mapping[int, Hashable],
    bank: Bank | None,
    reading: _Reading,
) -> dict[int, tuple[int, Cover]] | None:
    """The covers as offered, by index of the entry's bet, in seat order from the banker's right
    (``None`` when one could not be read)."""
    offers: dict[int, tuple[int, Cover]] = {}
    complete = True
    for index, bet in enumerate(entry.bets):
        seat = _stake_seat(bet.seat, seated, index, reading)
        kind = _cover_kind(bet.bet, index, reading)
        stake = _stake(bet.stake, index, reading)
        if seat is None or kind is None or stake is None:
            complete = False
            continue
        offers[index] = (seat, Cover(seated[seat], stake, kind))
    if not complete or bank is None:
        return None
    banker_seat = _seat_of(seated, bank.banker)
    place = {seat: n for n, seat in enumerate(seat_order(banker_seat, seated))}
    place[banker_seat] = len(place)
    return dict(sorted(offers.items(), key=lambda item: (place[item[1][0]], item[0])))


def _stake_seat(
    value: int | str, seated: Mapping[int, Hashable], index: int, reading: _Reading
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


def _cover_kind(value: object, index: int, reading: _Reading) -> CoverKind | None:
    text = plain(str(value)).casefold()
    if text in ("", BankedBet.COVER):
        return CoverKind.ORDINARY
    try:
        return CoverKind(text)
    except ValueError:
        offered = ", ".join(kind.value for kind in CoverKind)
        reading.refuse(
            Field.BET, RuleError(MSG_UNKNOWN_COVER, text=Typed(str(value)), offered=offered),
            bet=index,
        )  # fmt: skip
        return None


def _stake(value: Decimal | str, index: int, reading: _Reading) -> Decimal | None:
    stake = read_amount(value)
    if stake is None:
        error = RuleError(MSG_NOT_A_NUMBER, text=Typed(plain(str(value))))
        reading.refuse(Field.STAKE, error, bet=index)
    return stake


def _move(terms: CoupTerms, game: Game, reading: _Reading) -> BankerMove | str | None:
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


def _taken(terms: CoupTerms, reading: _Reading) -> Decimal | None:
    text = plain(str(terms.taken))
    if not text:
        return ZERO
    amount = read_amount(terms.taken)
    if amount is None:
        reading.refuse(Field.TAKEN, RuleError(MSG_TAKEN_NOT_NUMBER, text=Typed(text)))
    return amount


def _chemin_next(
    money: CoupMoney,
    move: BankerMove | str,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    banker_seat: int,
    reading: _Reading,
) -> NextMove | None:
    lost = money.bank_after == 0
    chosen = move if isinstance(move, BankerMove) else BankerMove.PASS if lost else BankerMove.KEEP
    taken = _taken(terms, reading)
    suite_seat = _seat(terms.suite_seat, seated, Field.SUITE_SEAT, reading)
    suite_amount = (
        _amount(terms.suite_amount, Field.SUITE_AMOUNT, reading)
        if plain(str(terms.suite_amount))
        else None
    )
    if taken is None:
        return None
    if chosen is not BankerMove.SUITE and (suite_seat is not None or suite_amount is not None):
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_NEEDS_SUITE))
        return None
    if lost and chosen is not BankerMove.PASS:
        template = MSG_SUITE_AFTER_LOSS if chosen is BankerMove.SUITE else MSG_BANK_LOST
        reading.refuse(Field.MOVE, RuleError(template))
        return None
    if not lost and chosen is BankerMove.PASS:
        reading.refuse(Field.MOVE, RuleError(MSG_BANK_KEPT))
        return None
    if taken and chosen is BankerMove.KEEP:
        reading.refuse(Field.TAKEN, RuleError(MSG_NO_MONEY_OUT, amount=taken))
        return None
    if taken and taken != money.bank_after:
        reading.refuse(Field.TAKEN, RuleError(MSG_TAKES_ALL, amount=money.bank_after, taken=taken))
        return None
    if chosen is BankerMove.KEEP:
        return NextMove(chosen, ZERO, money.bank_after)
    if chosen is BankerMove.PASS:
        return NextMove(chosen, ZERO, ZERO)
    if chosen is BankerMove.RETIRE:
        return NextMove(chosen, money.bank_after, money.bank_after)
    return _suite(money, rules, seated, banker_seat, suite_seat, suite_amount, reading)


def _suite(
    money: CoupMoney,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    banker_seat: int,
    suite_seat: int | None,
    suite_amount: Decimal | None,
    reading: _Reading,
) -> NextMove | None:
    if suite_seat == banker_seat:
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_SEAT_IS_BANKER))
        return None
    taker = seated[suite_seat] if suite_seat is not None else None
    takers = {taker} if taker is not None and suite_amount in (None, money.bank_after) else set()
    bids = {taker: suite_amount} if taker is not None and not takers and suite_amount else None
    try:
        given = suite(
            money, banker_seat=banker_seat, seated=seated, takers=takers, bids=bids,
            minimum_banco=rules.minimum_banco,
        )  # fmt: skip
    except BankError as error:
        reading.refuse(Field.SUITE_AMOUNT, error)
        return None
    after = money.bank_after
    return NextMove(BankerMove.SUITE, after, after, given.seat, given.bank.amount, given.way)


def _bank_bets(
    money: BankResult, seat_of: Mapping[Hashable, int], stake: Decimal, charge: Decimal
) -> list[SettledBet]:
    """The bank's side of a coup: the banker's (and co-banker's) share of the result, the
    house's cut as their commission; a charge due on this coup (table charge, taxe on capital)
    is the banker's alone."""
    bank = money.bank
    gross = -sum((net for _guest, net in money.ponte_nets), ZERO)
    gross_banker, gross_co = shares(bank, gross)
    stake_banker, stake_co = shares(bank, stake) if stake > 0 else (ZERO, ZERO)
    rows = [(bank.banker, stake_banker, gross_banker, money.banker_net - charge)]
    if bank.co_banker is not None:
        rows.append((bank.co_banker, stake_co, gross_co, money.co_banker_net))
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


def _settled_hand(
    outcome: Outcome, entry: HandEntry, bets: list[SettledBet], coup: SettledCoup
) -> SettledHand:
    has_cards = outcome.player_total is not None
    return SettledHand(
        outcome=outcome,
        player_cards=_formatted(entry.player_cards) if has_cards else "",
        banker_cards=_formatted(entry.banker_cards) if has_cards else "",
        bets=tuple(bets),
        coup=coup,
    )


# --- Baccara banque -----------------------------------------------------------------------


def tableau_halves(banker_seat: int, seats: Collection[int]) -> tuple[list[int], list[int]]:
    """The two halves of the table, each a tableau's: the seats below the banker's (tableau 1)
    and above it (tableau 2), each nearest the banker first."""
    below = sorted((seat for seat in seats if seat < banker_seat), reverse=True)
    above = sorted(seat for seat in seats if seat > banker_seat)
    return below, above


def holders(
    banker_seat: int, seats: Collection[int], previous: PreviousCoup | None
) -> tuple[int | None, int | None]:
    """Who holds each tableau's cards: the holder of the coup before, unless his tableau lost
    (then the next seat in his half), or the seat nearest the banker in each half."""
    found: list[int | None] = []
    for index, half in enumerate(tableau_halves(banker_seat, seats)):
        before = previous.holder_seats[index] if previous is not None else None
        if before is not None and before in half and previous is not None and previous.winners:
            found.append(banque_cards_next(before, previous.winners[index], half))
        elif before is not None and before in half:
            found.append(before)
        else:
            found.append(half[0] if half else None)
    return found[0], found[1]


def _settle_banque(
    entry: HandEntry,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    bank: Bank | None,
    reading: _Reading,
) -> SettledHand | None:
    cards = _banque_cards(entry, terms, rules, reading)
    stakes = _tableau_stakes(entry, seated, bank, reading)
    move = _move(terms, rules.game, reading)
    taken = _taken(terms, reading)
    if plain(str(terms.suite_seat or "")) or plain(str(terms.suite_amount)):
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_NEEDS_SUITE))
    if bank is None or cards is None or stakes is None or move is None or taken is None:
        return None
    outcomes, banker_cards, counted, choices = cards
    if not any(stakes):
        reading.refuse(Field.STAKE, RuleError(MSG_NO_COVER))
        return None
    winners = (outcomes[0].winner, outcomes[1].winner)
    try:
        money = settle_banque_coup(
            bank, [[cover for _i, cover in tableau] for tableau in stakes], winners,
            rules.banque_taxe,
        )  # fmt: skip
    except BankError as error:
        reading.refuse(Field.STAKE, error)
        return None
    new_bank = previous is None or previous.move is BankerMove.RETIRE
    capital = rules.banque_taxe.on_capital(bank.amount) if new_bank else ZERO
    spent = money.bank_after <= 0
    default = BankerMove.RETIRE if spent else BankerMove.KEEP
    chosen = move if isinstance(move, BankerMove) else default
    if taken and chosen is BankerMove.KEEP:
        reading.refuse(Field.TAKEN, RuleError(MSG_NO_MONEY_OUT, amount=taken))
        return None
    if spent and chosen is BankerMove.KEEP:
        reading.refuse(Field.MOVE, RuleError(MSG_BANK_LOST))
        return None
    seat_of = {guest: seat for seat, guest in seated.items()}
    banker_seat = seat_of[bank.banker]
    nets = dict(money.ponte_nets)
    bets = [
        SettledBet(
            index,
            seat_of[cover.guest],
            bet_type,
            cover.amount,
            BetResult(nets[cover.guest], ZERO, nets[cover.guest]),
        )
        for bet_type, tableau in zip(TABLEAU_BETS, stakes, strict=True)
        for index, cover in tableau
    ]
    bets += _bank_bets(money, seat_of, sum((b.stake for b in bets), ZERO), capital)
    coup = SettledCoup(
        game=rules.game,
        banker_seat=banker_seat,
        co_banker_seat=seat_of.get(bank.co_banker) if bank.co_banker is not None else None,
        bank=bank.amount,
        covered=sum((b.stake for b in bets if b.bet_type in TABLEAU_BETS), ZERO),
        holder_seats=holders(banker_seat, seated, previous),
        ponte_choice=choices[0],
        banker_choice=choices[2],
        second_choice=choices[1],
        second_cards=_formatted(terms.second_cards) if banker_cards else "",
        second_winner=winners[1],
        banker_cards=banker_cards,
        house_cut=money.house_cut + capital,
        move=chosen,
        taken=max(money.bank_after, ZERO) if chosen is BankerMove.RETIRE else ZERO,
        bank_after=money.bank_after,
        rotation_seat=banker_seat,
    )
    first_cards = _formatted(entry.player_cards) if banker_cards else ""
    return SettledHand(outcomes[0], first_cards, counted, tuple(bets), coup)


def _banque_cards(
    entry: HandEntry, terms: CoupTerms, rules: BankRules, reading: _Reading
) -> tuple[tuple[Outcome, Outcome], str, str, tuple[Choice | None, ...]] | None:
    choices = (
        _choice(terms.ponte_choice, Field.PONTE_CHOICE, reading),
        _choice(terms.second_choice, Field.SECOND_CHOICE, reading),
        _choice(terms.banker_choice, Field.BANKER_CHOICE, reading),
    )
    if entry.taps:
        reading.refuse(Field.CARDS, RuleError(MSG_CARDS_TYPED_ONLY))
        return None
    texts = (entry.player_cards, terms.second_cards, entry.banker_cards)
    if not any(plain(text) for text in texts):
        fields = (Field.PONTE_CHOICE, Field.SECOND_CHOICE, Field.BANKER_CHOICE)
        _no_choices_without_cards(list(zip(fields, choices, strict=True)), reading)
        first = _winner_alone(entry.result, Field.RESULT, reading)
        second = _winner_alone(terms.second_result, Field.SECOND_RESULT, reading)
        if first is None or second is None:
            return None
        return (Outcome(first), Outcome(second)), "", "", choices
    where = (Field.PLAYER_CARDS, Field.SECOND_CARDS, Field.BANKER_CARDS)
    read = [_cards(text, side, reading) for text, side in zip(texts, where, strict=True)]
    first_cards, second_cards, banker = read
    if first_cards is None or second_cards is None or banker is None:
        return None
    try:
        coup = deal_banque(
            (first_cards, second_cards), banker, ponte_choices=(choices[0], choices[1]),
            banker_choice=choices[2], decks=rules.decks,
        )  # fmt: skip
    except (CoupError, RuleError) as error:
        reading.refuse(Field.CARDS, error)
        return None
    outcomes = coup.outcomes()
    _agrees(outcomes[0], entry.result, Field.RESULT, reading)
    _agrees(outcomes[1], terms.second_result, Field.SECOND_RESULT, reading)
    taken = (*coup.ponte_choices, coup.banker_choice)
    # The hand row holds tableau 1 against the banker as counted against it (his first two
    # cards against a natural); the banker's cards as dealt are the coup's.
    counted = format_cards(coup.hands()[0].banker)
    return outcomes, format_cards(banker), counted, taken


def _tableau_stakes(
    entry: HandEntry,
    seated: Mapping[int, Hashable],
    bank: Bank | None,
    reading: _Reading,
) -> tuple[list[tuple[int, Cover]], ...] | None:
    tableaux: tuple[list[tuple[int, Cover]], ...] = tuple([] for _ in range(TABLEAUX))
    complete = True
    for index, bet in enumerate(entry.bets):
        seat = _stake_seat(bet.seat, seated, index, reading)
        tableau = _tableau(bet.bet, index, reading)
        stake = _stake(bet.stake, index, reading)
        if seat is None or tableau is None or stake is None:
            complete = False
            continue
        guest = seated[seat]
        if bank is not None and bank.holds(guest):
            template = MSG_STAKE_BANKER if guest == bank.banker else MSG_CO_BANKER_AGAINST_HIMSELF
            reading.refuse(Field.SEAT, RuleError(template, guest=guest), bet=index)
            complete = False
            continue
        tableaux[tableau].append((index, Cover(guest, stake)))
    return tableaux if complete else None


_TABLEAU_TEXTS = {"1": 0, "tableau_1": 0, "2": 1, "tableau_2": 1}


def _tableau(value: object, index: int, reading: _Reading) -> int | None:
    tableau = _TABLEAU_TEXTS.get(plain(str(value)).casefold())
    if tableau is None:
        offered = ", ".join(bet.value for bet in TABLEAU_BETS)
        error = RuleError(MSG_UNKNOWN_COVER, text=Typed(str(value)), offered=offered)
        reading.refuse(Field.BET, error, bet=index)
    return tableau
