"""The bank of a coup, both games alike: who holds it and with how much, whether that follows from
the coup before (a bank kept plays on with all it holds, a lost bank passes to the right, a suite
goes to its taker), whose right it passes to when it loses, and its side of the settled stakes.
The rules it applies are written once, in :mod:`chemin_money` (:func:`chemin_money.bank_open`,
:func:`chemin_money.check_withdrawal`, :func:`chemin_money.seat_to_the_right`), which both games
share. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from games.entry import MSG_SEAT_MISSING, Field, SettledBet
from games.guest_banked.chemin_money import (
    MSG_CO_BANKER_IS_BANKER,
    Bank,
    BankError,
    BankResult,
    bank_open,
    check_withdrawal,
    seat_to_the_right,
    shares,
)
from games.guest_banked.reading import Reading, amount_field, seat_field
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup
from games.kinds import TABLE_SEATS, BankerMove, BankRotation, Game, SuiteReturn, SuiteWay
from games.messages import RuleError, gettext_noop, plain
from games.payouts import ZERO, BankedBet, BetResult

MSG_HELD_BY = gettext_noop(
    "Seat {seat} kept the bank after the last coup: it holds the bank for this one."
)
MSG_PASSED_TO = gettext_noop(
    "The bank of seat {banker} lost the last coup: it passes to seat {seat}, to the right of "
    "seat {rotation}."
)
MSG_PASSED_PAST_LOSER = gettext_noop(
    "The bank of seat {banker} lost the last coup: it passes to seat {seat}, the next to the right"
    " of seat {rotation} after seat {banker}, who just lost it."
)
MSG_SUITE_TO = gettext_noop(
    "Seat {giver} passed the bank and seat {seat} took the suite at {amount}: seat {seat} banks."
)
MSG_SUITE_BOUGHT = gettext_noop(
    "Seat {giver} passed the bank, nobody took it at its amount and seat {seat} bought it at "
    "auction for {amount}: seat {seat} banks."
)
MSG_SUITE_IN_TURN = gettext_noop(
    "Seat {giver} passed the bank and nobody took it: seat {seat}, next in turn, banks at the "
    "minimum banco ({amount})."
)
SUITE_NOTES = {
    SuiteWay.TAKEN: MSG_SUITE_TO,
    SuiteWay.AUCTIONED: MSG_SUITE_BOUGHT,
    SuiteWay.NEXT_IN_TURN: MSG_SUITE_IN_TURN,
}
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


def read_bank(
    terms: CoupTerms,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    previous: PreviousCoup | None,
    reading: Reading,
) -> Bank | None:
    banker_seat = seat_field(terms.banker_seat, seated, Field.BANKER_SEAT, reading)
    if terms.banker_seat is None or not plain(str(terms.banker_seat)):
        reading.refuse(Field.BANKER_SEAT, RuleError(MSG_SEAT_MISSING, last=TABLE_SEATS))
    co_seat = seat_field(terms.co_banker_seat, seated, Field.CO_BANKER_SEAT, reading)
    amount = amount_field(terms.bank, Field.BANK, reading)
    if banker_seat is None or amount is None:
        return None
    banker = seated[banker_seat]
    co_banker = seated[co_seat] if co_seat is not None else None
    if co_seat == banker_seat:
        reading.refuse(Field.CO_BANKER_SEAT, RuleError(MSG_CO_BANKER_IS_BANKER, guest=banker))
        return None
    problem = continuity_problem(previous, banker_seat, co_seat, amount, seated, rules.rotation)
    if problem is None:
        try:
            if plays_on(previous, banker_seat, co_seat):  # it plays what it holds
                return Bank(banker, amount, co_banker)
            # A new bank (or a co-banker joining) is set by its holders.
            return bank_open(banker, amount, co_banker=co_banker, minimum_banco=rules.minimum_banco)
        except BankError as error:
            problem = error
    reading.refuse(Field.BANK, problem)
    return None


def plays_on(previous: PreviousCoup | None, banker_seat: int, co_seat: int | None) -> bool:
    """Whether the bank of this coup is the one the coup before left (kept, or taken as a
    suite), with nobody joining it: its amount is then what it holds, not what its holder sets."""
    if previous is None:
        return False
    if previous.move is BankerMove.KEEP:
        return banker_seat == previous.banker_seat and co_seat == previous.co_banker_seat
    suite_taken = previous.move is BankerMove.SUITE and banker_seat == previous.suite_seat
    return suite_taken and co_seat is None


@dataclass(frozen=True)
class NextBank:
    """Who banks the coup after another, as the table passes the bank on, and why (a note that
    names the seats). ``banker_seat`` ``None``: the host says (a new bank in Baccara banque, or
    nobody else is seated); ``amount`` ``None``: the new banker sets it."""

    banker_seat: int | None
    amount: Decimal | None = None
    co_banker_seat: int | None = None
    why: RuleError | None = None


def next_bank(
    game: Game,
    previous: PreviousCoup | None,
    seats: Collection[int],
    rotation: BankRotation = BankRotation.SKIPS_LOSER,
) -> NextBank:
    """The bank of the coup after ``previous``: kept, it plays on with all it holds (and its
    co-banker); passed after a win, the suite's taker banks at what he took it for; lost, it
    passes to the right of the rotation's seat (:func:`rotation_seat_for`), never back to the
    banker who lost it (under the night's ``rotation``; the original reading could). A shoe's
    first bank in Chemin de fer is the first seat's (at the croupier's right); Baccara banque's
    is auctioned."""
    if previous is None or previous.move is BankerMove.RETIRE:
        if game is not Game.CHEMIN_DE_FER or not seats:
            return NextBank(None)
        if previous is None:
            return NextBank(min(seats))
        return NextBank(_right_of(previous.banker_seat, seats, previous.banker_seat))
    if previous.move is BankerMove.KEEP:
        why = RuleError(MSG_HELD_BY, seat=previous.banker_seat)
        return NextBank(previous.banker_seat, previous.bank_after, previous.co_banker_seat, why)
    if previous.move is BankerMove.SUITE and previous.suite_seat is not None:
        note = SUITE_NOTES[previous.suite_way or SuiteWay.TAKEN]
        amount = previous.suite_amount
        why = RuleError(
            note, giver=previous.banker_seat, seat=previous.suite_seat, amount=amount or ZERO
        )
        return NextBank(previous.suite_seat, amount, None, why)
    if rotation is BankRotation.ORIGINAL:
        return _original_passed(previous, seats)
    seat = _right_of(previous.rotation_seat, seats, previous.banker_seat)
    if seat is None:
        return NextBank(None)
    rotation_seat, banker = previous.rotation_seat, previous.banker_seat
    skipped = rotation_seat != banker and _right_of(rotation_seat, seats, rotation_seat) == banker
    note = MSG_PASSED_PAST_LOSER if skipped else MSG_PASSED_TO
    return NextBank(seat, why=RuleError(note, banker=banker, seat=seat, rotation=rotation_seat))


def _original_passed(previous: PreviousCoup, seats: Collection[int]) -> NextBank:
    """A lost bank as the original reading passed it: to the seat at the right of its rotation
    seat, whoever sits there — the banker who just lost it too."""
    rotation_seat = previous.rotation_seat
    try:
        seat = seat_to_the_right(rotation_seat, {*seats, rotation_seat})
    except BankError:  # nobody else is seated
        return NextBank(None)
    why = RuleError(MSG_PASSED_TO, banker=previous.banker_seat, seat=seat, rotation=rotation_seat)
    return NextBank(seat, why=why)


def _right_of(seat: int, seats: Collection[int], leaving: int) -> int | None:
    """The seat at the right of ``seat``, round the table back to ``seat`` itself if it is
    seated, but never to ``leaving``."""
    others = set(seats) - {leaving}
    try:
        return seat_to_the_right(seat, others | {seat})
    except BankError:  # nobody else is seated
        return seat if seat in others else None


def continuity_problem(
    previous: PreviousCoup | None,
    banker_seat: int,
    co_seat: int | None,
    amount: Decimal,
    seated: Collection[int],
    rotation: BankRotation = BankRotation.SKIPS_LOSER,
) -> RuleError | None:
    """Whether a coup's bank follows from the coup before (:func:`next_bank`): a bank kept plays
    on with all it holds (nothing out, a co-banker joining doubles it), a lost bank passes to the
    right of the rotation, a suite goes to its taker at its amount. ``None``: it follows."""
    if previous is None or previous.move is BankerMove.RETIRE:
        return None
    expected = next_bank(Game.CHEMIN_DE_FER, previous, seated, rotation)
    if expected.banker_seat is not None and banker_seat != expected.banker_seat:
        return expected.why
    try:
        if previous.move is BankerMove.KEEP:
            return _kept_problem(previous, co_seat, amount)
        if previous.move is BankerMove.SUITE:
            return _suite_problem(previous, co_seat, amount)
    except BankError as broken:
        return broken
    return None


def _kept_problem(previous: PreviousCoup, co_seat: int | None, amount: Decimal) -> RuleError | None:
    """A bank kept: its holder banks again with all it holds; a co-banker stays, and one joining
    brings as much as the bank."""
    if previous.co_banker_seat is not None and co_seat != previous.co_banker_seat:
        return RuleError(MSG_CO_BANKER_KEPT, seat=previous.co_banker_seat)
    expected = previous.bank_after
    if co_seat is not None and previous.co_banker_seat is None:
        if amount != 2 * expected:
            return RuleError(MSG_DOUBLE_AMOUNT, bank=expected, expected=2 * expected, amount=amount)
        return None
    if amount < expected:
        check_withdrawal(expected - amount)
    if amount != expected:
        return RuleError(MSG_BANK_STANDS_AT, expected=expected, amount=amount)
    return None


def _suite_problem(
    previous: PreviousCoup, co_seat: int | None, amount: Decimal
) -> RuleError | None:
    """A suite: its taker banks, at the amount he took it for."""
    taken = previous.suite_amount
    if taken is not None and co_seat is not None and amount != 2 * taken:
        # A co-banker joining the bank just taken brings as much as it holds.
        return RuleError(MSG_DOUBLE_AMOUNT, bank=taken, expected=2 * taken, amount=amount)
    if taken is not None and co_seat is None and amount != taken:
        return RuleError(MSG_BANK_STANDS_AT, expected=taken, amount=amount)
    return None


def rotation_seat_for(
    previous: PreviousCoup | None,
    banker_seat: int,
    returns: SuiteReturn = SuiteReturn.GIVER,
    rotation: BankRotation = BankRotation.SKIPS_LOSER,
) -> int:
    """Whose right the bank passes to when it loses. A bank that came in turn (the shoe's first,
    passed after a loss, a suite nobody took given to the next in turn) continues from its
    holder; a bank kept keeps its rotation; a bank taken out of turn (a suite taken at its
    amount or bought at auction) returns to the right of the banker it came from, or, if the
    event reads seed 002 so, of the banker who last held it in turn. The original reading
    (``rotation``) returned every suite, even one nobody took, to its giver's right."""
    if rotation is BankRotation.ORIGINAL:
        if previous is None or previous.banker_seat != banker_seat:
            suite = previous is not None and previous.move is BankerMove.SUITE
            return previous.banker_seat if previous is not None and suite else banker_seat
        return previous.rotation_seat if previous.move is BankerMove.KEEP else banker_seat
    if previous is None or previous.move in (BankerMove.RETIRE, BankerMove.PASS):
        return banker_seat
    if previous.move is BankerMove.KEEP:
        return previous.rotation_seat
    if previous.suite_way is SuiteWay.NEXT_IN_TURN:
        return banker_seat
    if returns is SuiteReturn.IN_TURN:
        return previous.rotation_seat
    return previous.banker_seat


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
