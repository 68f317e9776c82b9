"""A coup of Baccara banque read and settled: two tableaux, one per half of the table, against
one bank; the taxe on the capital brought in or on the bank's winnings; the cards of each tableau
passing in its half after a loss. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from decimal import Decimal

from games.cards import format_cards
from games.entry import (
    Field,
    HandEntry,
    SettledBet,
    SettledHand,
)
from games.guest_banked.bank import bank_bets
from games.guest_banked.banque_drawing import TABLEAUX, deal_banque
from games.guest_banked.banque_money import BanqueMoney, cards_next, settle_banque_coup
from games.guest_banked.chemin_drawing import Choice, CoupError
from games.guest_banked.chemin_money import (
    MSG_CO_BANKER_AGAINST_HIMSELF,
    MSG_NO_MONEY_OUT,
    Bank,
    BankError,
    Cover,
    check_withdrawal,
)
from games.guest_banked.reading import (
    MSG_CARDS_TYPED_ONLY,
    MSG_NO_COVER,
    MSG_SUITE_NEEDS_SUITE,
    MSG_TAKES_ALL,
    MSG_UNKNOWN_COVER,
    Reading,
    agrees,
    cards_field,
    choice_field,
    formatted_cards,
    no_choices_without_cards,
    read_move,
    read_taken,
    stake_amount,
    stake_seat,
    winner_alone,
)
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup, SettledCoup
from games.kinds import BankerMove
from games.messages import RuleError, Typed, gettext_noop, plain
from games.payouts import ZERO, BankedBet, BetResult
from games.rules import Outcome

MSG_BANK_SPENT = gettext_noop(
    "The bank is spent: it cannot be kept. Its banker retires and the next bank is auctioned."
)
MSG_STAKE_BANKER = gettext_noop("{guest} holds the bank and cannot stake against it.")
TABLEAU_BETS = (BankedBet.TABLEAU_1, BankedBet.TABLEAU_2)

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
            found.append(cards_next(before, previous.winners[index], half))
        elif before is not None and before in half:
            found.append(before)
        else:
            found.append(half[0] if half else None)
    return found[0], found[1]


def _capital_charges(
    bank: Bank, rules: BankRules, previous: PreviousCoup | None
) -> dict[Hashable, Decimal]:
    """The taxe on capital due on this coup, from each holder who brings capital in: both
    halves of a new bank (one holder: all of it), or a co-banker joining a kept bank."""
    each = bank.amount / 2 if bank.co_banker is not None else bank.amount
    taxe = rules.banque_taxe
    if previous is None or previous.move is BankerMove.RETIRE:
        bringing = [bank.banker, bank.co_banker]
    elif previous.co_banker_seat is None:
        bringing = [bank.co_banker]
    else:
        bringing = []
    return {guest: taxe.on_capital(each) for guest in bringing if guest is not None}


def settle_banque(
    entry: HandEntry,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    bank: Bank | None,
    reading: Reading,
) -> SettledHand | None:
    cards = _banque_cards(entry, terms, rules, reading)
    stakes = _tableau_stakes(entry, seated, bank, reading)
    move = read_move(terms, rules.game, reading)
    taken = read_taken(terms, reading)
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
            bank,
            [[cover for _i, cover in tableau] for tableau in stakes],
            winners,
            rules.banque_taxe,
        )
    except BankError as error:
        reading.refuse(Field.STAKE, error)
        return None
    charges = _capital_charges(bank, rules, previous)
    capital = sum(charges.values(), ZERO)
    try:
        chosen = _moved(money, move, taken)
    except BankError as error:
        taking = error.template in (MSG_NO_MONEY_OUT, MSG_TAKES_ALL)
        reading.refuse(Field.TAKEN if taking else Field.MOVE, error)
        return None
    left = max(money.bank_after, ZERO)
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
    bets += bank_bets(money, seat_of, sum((b.stake for b in bets), ZERO), charges)
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
        second_cards=formatted_cards(terms.second_cards) if banker_cards else "",
        second_winner=winners[1],
        banker_cards=banker_cards,
        house_cut=money.house_cut + capital,
        move=chosen,
        taken=left if chosen is BankerMove.RETIRE else ZERO,
        bank_after=money.bank_after,
        rotation_seat=banker_seat,
        winners=winners,
    )
    first_cards = formatted_cards(entry.player_cards) if banker_cards else ""
    return SettledHand(outcomes[0], first_cards, counted, tuple(bets), coup)


def _moved(money: BanqueMoney, move: BankerMove | str, taken: Decimal) -> BankerMove:
    """What the banker does after the coup: he keeps the bank, after a loss too, with all it
    holds, or retires with what is left (by default when it is spent). Raises
    :class:`BankError` naming the rule the move breaks."""
    spent = money.bank_after <= 0
    default = BankerMove.RETIRE if spent else BankerMove.KEEP
    chosen = move if isinstance(move, BankerMove) else default
    if chosen is BankerMove.KEEP:
        check_withdrawal(taken)
        if spent:
            raise BankError(MSG_BANK_SPENT)
    left = max(money.bank_after, ZERO)
    if taken and taken != left:
        raise BankError(MSG_TAKES_ALL, amount=left, taken=taken)
    return chosen


def _banque_cards(
    entry: HandEntry, terms: CoupTerms, rules: BankRules, reading: Reading
) -> tuple[tuple[Outcome, Outcome], str, str, tuple[Choice | None, ...]] | None:
    choices = (
        choice_field(terms.ponte_choice, Field.PONTE_CHOICE, reading),
        choice_field(terms.second_choice, Field.SECOND_CHOICE, reading),
        choice_field(terms.banker_choice, Field.BANKER_CHOICE, reading),
    )
    if entry.taps:
        reading.refuse(Field.CARDS, RuleError(MSG_CARDS_TYPED_ONLY))
        return None
    texts = (entry.player_cards, terms.second_cards, entry.banker_cards)
    if not any(plain(text) for text in texts):
        fields = (Field.PONTE_CHOICE, Field.SECOND_CHOICE, Field.BANKER_CHOICE)
        no_choices_without_cards(list(zip(fields, choices, strict=True)), reading)
        first = winner_alone(entry.result, Field.RESULT, reading)
        second = winner_alone(terms.second_result, Field.SECOND_RESULT, reading)
        if first is None or second is None:
            return None
        return (Outcome(first), Outcome(second)), "", "", choices
    where = (Field.PLAYER_CARDS, Field.SECOND_CARDS, Field.BANKER_CARDS)
    read = [cards_field(text, side, reading) for text, side in zip(texts, where, strict=True)]
    first_cards, second_cards, banker = read
    if first_cards is None or second_cards is None or banker is None:
        return None
    try:
        coup = deal_banque(
            (first_cards, second_cards),
            banker,
            ponte_choices=(choices[0], choices[1]),
            banker_choice=choices[2],
            decks=rules.decks,
        )
    except (CoupError, RuleError) as error:
        reading.refuse(Field.CARDS, error)
        return None
    outcomes = coup.outcomes()
    agrees(outcomes[0], entry.result, Field.RESULT, reading)
    agrees(outcomes[1], terms.second_result, Field.SECOND_RESULT, reading)
    taken = (*coup.ponte_choices, coup.banker_choice)
    # The hand row holds tableau 1 against the banker as counted against it (his first two
    # cards against a natural); the banker's cards as dealt are the coup's.
    counted = format_cards(coup.hands()[0].banker)
    return outcomes, format_cards(banker), counted, taken


def _tableau_stakes(
    entry: HandEntry,
    seated: Mapping[int, Hashable],
    bank: Bank | None,
    reading: Reading,
) -> tuple[list[tuple[int, Cover]], ...] | None:
    tableaux: tuple[list[tuple[int, Cover]], ...] = tuple([] for _ in range(TABLEAUX))
    complete = True
    for index, bet in enumerate(entry.bets):
        seat = stake_seat(bet.seat, seated, index, reading)
        tableau = _tableau(bet.bet, index, reading)
        stake = stake_amount(bet.stake, index, reading)
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


def _tableau(value: object, index: int, reading: Reading) -> int | None:
    tableau = _TABLEAU_TEXTS.get(plain(str(value)).casefold())
    if tableau is None:
        offered = ", ".join(bet.value for bet in TABLEAU_BETS)
        error = RuleError(MSG_UNKNOWN_COVER, text=Typed(str(value)), offered=offered)
        reading.refuse(Field.BET, error, bet=index)
    return tableau
