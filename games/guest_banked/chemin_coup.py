"""A coup of Chemin de fer read and settled: the covers in seat order from the banker's right,
the cards with the choices taken, the taxe (or the table charge on the shoe's first coup), and
what the banker did next (keep, suite, pass, retire). Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from decimal import Decimal

from games.entry import (
    Field,
    HandEntry,
    SettledBet,
    SettledHand,
)
from games.guest_banked.bank import bank_bets, rotation_seat_for
from games.guest_banked.chemin_drawing import Choice, CoupError, deal
from games.guest_banked.chemin_money import (
    MSG_BANK_LOST,
    MSG_NO_MONEY_OUT,
    MSG_SUITE_AFTER_LOSS,
    Bank,
    BankError,
    CoupMoney,
    Cover,
    bank_kept,
    check_passes,
    covers_accepted,
    in_seat_order,
    settle_coup,
    suite,
    suivi_for,
)
from games.guest_banked.reading import (
    MSG_CARDS_TYPED_ONLY,
    MSG_NO_COVER,
    MSG_SUITE_NEEDS_SUITE,
    MSG_TAKES_ALL,
    MSG_UNKNOWN_COVER,
    Reading,
    agrees,
    amount_field,
    cards_field,
    choice_field,
    formatted_cards,
    no_choices_without_cards,
    read_move,
    read_taken,
    seat_field,
    seat_of_guest,
    stake_amount,
    stake_seat,
    winner_alone,
)
from games.guest_banked.terms import BankRules, CoupTerms, NextMove, PreviousCoup, SettledCoup
from games.kinds import BankerMove, BankRotation, CoverKind
from games.messages import RuleError, Typed, gettext_noop, plain
from games.payouts import ZERO, BankedBet, BetResult
from games.rules import Outcome

MSG_ONE_TABLEAU = gettext_noop("Chemin de fer plays one hand against the bank: no second tableau.")
MSG_SUITE_SEAT_IS_BANKER = gettext_noop(
    "The suite goes to another guest, not to the banker's seat."
)
MSG_SUITE_TAKER_MISSING = gettext_noop(
    "A suite's amount is what its taker bid or took: say which seat took the bank."
)

# --- Chemin de fer ------------------------------------------------------------------------


def settle_chemin(
    entry: HandEntry,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    bank: Bank | None,
    reading: Reading,
) -> SettledHand | None:
    if plain(terms.second_cards) or plain(str(terms.second_result or "")):
        reading.refuse(Field.SECOND_CARDS, RuleError(MSG_ONE_TABLEAU))
    hand = _chemin_cards(entry, terms, rules, reading)
    offers = _covers(entry, seated, reading)
    move = read_move(terms, rules.game, reading)
    if bank is None or hand is None or offers is None or move is None:
        return None
    outcome, ponte_choice, banker_choice = hand
    suivi = previous.suivi_seat if previous is not None else None
    seat_of = {guest: seat for seat, guest in seated.items()}
    banker_seat = seat_of_guest(seated, bank.banker)
    # A cover's row in the entry, by the offer itself: one guest may have offered twice.
    index_of = {id(offer): index for index, offer in offers.items()}
    result = covers_accepted(
        bank,
        in_seat_order(offers.values(), seat_of, banker_seat),
        suivi=seated.get(suivi) if suivi is not None else None,
        minimum_banco=rules.minimum_banco,
    )
    for refusal in result.refused:
        reading.refuse(Field.STAKE, refusal.error, bet=index_of[id(refusal.cover)])
    if not result.accepted:
        if not result.refused:
            reading.refuse(Field.STAKE, RuleError(MSG_NO_COVER))
        return None
    money = settle_coup(bank, result.accepted, outcome.winner, rules.taxe)
    charge = rules.shoe_charge if previous is None else ZERO
    rotation_seat = rotation_seat_for(previous, banker_seat, rules.suite_returns, rules.rotation)
    # A suite nobody takes goes to the next in turn: after the rotation's seat, or, as the
    # original reading had it, the seat at the giver's right.
    in_turn_after = banker_seat if rules.rotation is BankRotation.ORIGINAL else rotation_seat
    next_move = _chemin_next(
        money, move, terms, rules, seated, (banker_seat, in_turn_after), reading
    )
    if next_move is None:
        return None
    holder = card_holder_seat(result.card_holder, seat_of)
    bets = [
        SettledBet(
            index_of[id(cover)],
            seat_of[cover.guest],
            BankedBet.COVER,
            cover.amount,
            BetResult(net, ZERO, net),
            kind=cover.kind.value,
        )
        for cover, (_guest, net) in zip(money.covers, money.ponte_nets, strict=True)
    ]
    bets += bank_bets(money, seat_of, money.covered, {bank.banker: charge})
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
        rotation_seat=rotation_seat,
        winners=(outcome.winner,),
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


def entry_banker_cards(outcome: Outcome, entry: HandEntry) -> str:
    return formatted_cards(entry.banker_cards) if outcome.player_total is not None else ""


def _chemin_cards(
    entry: HandEntry, terms: CoupTerms, rules: BankRules, reading: Reading
) -> tuple[Outcome, Choice | None, Choice | None] | None:
    ponte_choice = choice_field(terms.ponte_choice, Field.PONTE_CHOICE, reading)
    banker_choice = choice_field(terms.banker_choice, Field.BANKER_CHOICE, reading)
    if entry.taps:
        reading.refuse(Field.CARDS, RuleError(MSG_CARDS_TYPED_ONLY))
        return None
    if not (plain(entry.player_cards) or plain(entry.banker_cards)):
        no_choices_without_cards(
            [(Field.PONTE_CHOICE, ponte_choice), (Field.BANKER_CHOICE, banker_choice)], reading
        )
        winner = winner_alone(entry.result, Field.RESULT, reading)
        return None if winner is None else (Outcome(winner), None, None)
    player = cards_field(entry.player_cards, Field.PLAYER_CARDS, reading)
    banker = cards_field(entry.banker_cards, Field.BANKER_CARDS, reading)
    if player is None or banker is None:
        return None
    try:
        coup = deal(
            player,
            banker,
            ponte_choice=ponte_choice,
            banker_choice=banker_choice,
            decks=rules.decks,
        )
    except (CoupError, RuleError) as error:
        reading.refuse(Field.CARDS, error)
        return None
    outcome = coup.outcome()
    agrees(outcome, entry.result, Field.RESULT, reading)
    return outcome, coup.ponte_choice, coup.banker_choice


def _covers(
    entry: HandEntry, seated: Mapping[int, Hashable], reading: Reading
) -> dict[int, Cover] | None:
    """The covers as offered, by index of the entry's bet (``None`` when one could not be
    read)."""
    offers: dict[int, Cover] = {}
    complete = True
    for index, bet in enumerate(entry.bets):
        seat = stake_seat(bet.seat, seated, index, reading)
        kind = _cover_kind(bet.bet, index, reading)
        stake = stake_amount(bet.stake, index, reading)
        if seat is None or kind is None or stake is None:
            complete = False
            continue
        offers[index] = Cover(seated[seat], stake, kind)
    return offers if complete else None


def _cover_kind(value: object, index: int, reading: Reading) -> CoverKind | None:
    text = plain(str(value)).casefold()
    if text in ("", BankedBet.COVER):
        return CoverKind.ORDINARY
    try:
        return CoverKind(text)
    except ValueError:
        offered = ", ".join(kind.value for kind in CoverKind)
        reading.refuse(
            Field.BET,
            RuleError(MSG_UNKNOWN_COVER, text=Typed(str(value)), offered=offered),
            bet=index,
        )
        return None


def _chemin_next(
    money: CoupMoney,
    move: BankerMove | str,
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    seats: tuple[int, int],
    reading: Reading,
) -> NextMove | None:
    """What the banker did after the coup. Passing a bank that won is what players mean by it:
    a suite, offered round the table (``seats``: the banker's and the rotation's)."""
    lost = money.bank_after == 0
    chosen = move if isinstance(move, BankerMove) else BankerMove.PASS if lost else BankerMove.KEEP
    if chosen is BankerMove.PASS and not lost:
        chosen = BankerMove.SUITE
    taken = read_taken(terms, reading)
    suite_seat = seat_field(terms.suite_seat, seated, Field.SUITE_SEAT, reading)
    suite_amount = (
        amount_field(terms.suite_amount, Field.SUITE_AMOUNT, reading)
        if plain(str(terms.suite_amount))
        else None
    )
    if taken is None:
        return None
    if chosen is not BankerMove.SUITE and (suite_seat is not None or suite_amount is not None):
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_NEEDS_SUITE))
        return None
    try:
        moved = _moved(money, chosen, taken)
    except BankError as error:
        taking = error.template in (MSG_NO_MONEY_OUT, MSG_TAKES_ALL)
        reading.refuse(Field.TAKEN if taking else Field.MOVE, error)
        return None
    if moved is not None:
        return moved
    return _suite(money, rules, seated, seats, suite_seat, suite_amount, reading)


def _moved(money: CoupMoney, chosen: BankerMove, taken: Decimal) -> NextMove | None:
    """The bank after the banker keeps it, passes it or retires (``None``: he gives a suite, which
    :func:`_suite` reads). Raises :class:`BankError` naming the rule the move breaks."""
    if chosen is BankerMove.KEEP:
        return NextMove(chosen, ZERO, bank_kept(money, taken=taken).amount)
    if chosen is BankerMove.PASS:
        check_passes(money)
    elif money.bank_after == 0:
        raise BankError(MSG_SUITE_AFTER_LOSS if chosen is BankerMove.SUITE else MSG_BANK_LOST)
    if taken and taken != money.bank_after:
        raise BankError(MSG_TAKES_ALL, amount=money.bank_after, taken=taken)
    if chosen is BankerMove.PASS:
        return NextMove(chosen, ZERO, ZERO)
    if chosen is BankerMove.RETIRE:
        return NextMove(chosen, money.bank_after, money.bank_after)
    return None


def _suite(
    money: CoupMoney,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    seats: tuple[int, int],
    suite_seat: int | None,
    suite_amount: Decimal | None,
    reading: Reading,
) -> NextMove | None:
    banker_seat, rotation_seat = seats
    if suite_seat == banker_seat:
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_SEAT_IS_BANKER))
        return None
    if suite_seat is None and suite_amount is not None:
        reading.refuse(Field.SUITE_SEAT, RuleError(MSG_SUITE_TAKER_MISSING))
        return None
    taker = seated[suite_seat] if suite_seat is not None else None
    takers = {taker} if taker is not None and suite_amount in (None, money.bank_after) else set()
    bids = {taker: suite_amount} if taker is not None and suite_amount is not None else None
    if takers:
        bids = None
    try:
        given = suite(
            money,
            banker_seat=banker_seat,
            seated=seated,
            takers=takers,
            bids=bids,
            minimum_banco=rules.minimum_banco,
            rotation_seat=rotation_seat,
        )
    except BankError as error:
        reading.refuse(Field.SUITE_AMOUNT, error)
        return None
    after = money.bank_after
    return NextMove(BankerMove.SUITE, after, after, given.seat, given.bank.amount, given.way)


def _settled_hand(
    outcome: Outcome, entry: HandEntry, bets: list[SettledBet], coup: SettledCoup
) -> SettledHand:
    has_cards = outcome.player_total is not None
    return SettledHand(
        outcome=outcome,
        player_cards=formatted_cards(entry.player_cards) if has_cards else "",
        banker_cards=formatted_cards(entry.banker_cards) if has_cards else "",
        bets=tuple(bets),
        coup=coup,
    )
