"""The bank of a coup, both games alike: who holds it and with how much, whether that follows from
the coup before (a bank kept plays on with all it holds, a lost bank passes to the right, a suite
goes to its taker), whose right it passes to when it loses, and its side of the settled stakes.
The rules it applies are written once, in :mod:`chemin_money` (:func:`chemin_money.bank_open`,
:func:`chemin_money.check_withdrawal`, :func:`chemin_money.seat_to_the_right`), which both games
share. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
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
from games.kinds import BankerMove
from games.messages import RuleError, gettext_noop, plain
from games.payouts import ZERO, BankedBet, BetResult

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
    banker = seated[banker_seat]
    co_banker = seated[co_seat] if co_seat is not None else None
    if co_seat == banker_seat:
        reading.refuse(Field.CO_BANKER_SEAT, RuleError(MSG_CO_BANKER_IS_BANKER, guest=banker))
        return None
    problem = continuity_problem(previous, banker_seat, co_seat, amount, seated)
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
    try:
        if previous.move is BankerMove.KEEP:
            return _kept_problem(previous, banker_seat, co_seat, amount)
        if previous.move is BankerMove.SUITE:
            return _suite_problem(previous, banker_seat, co_seat, amount)
        return _passed_problem(previous, banker_seat, seated)
    except BankError as broken:
        return broken


def _kept_problem(
    previous: PreviousCoup, banker_seat: int, co_seat: int | None, amount: Decimal
) -> RuleError | None:
    """A bank kept: its holder banks again with all it holds; a co-banker stays, and one joining
    brings as much as the bank."""
    if banker_seat != previous.banker_seat:
        return RuleError(MSG_HELD_BY, seat=previous.banker_seat)
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
    previous: PreviousCoup, banker_seat: int, co_seat: int | None, amount: Decimal
) -> RuleError | None:
    """A suite: its taker banks, at the amount he took it for."""
    if banker_seat != previous.suite_seat:
        return RuleError(MSG_SUITE_TO, seat=previous.suite_seat)
    taken = previous.suite_amount
    if taken is not None and co_seat is not None and amount != 2 * taken:
        # A co-banker joining the bank just taken brings as much as it holds.
        return RuleError(MSG_DOUBLE_AMOUNT, bank=taken, expected=2 * taken, amount=amount)
    if taken is not None and co_seat is None and amount != taken:
        return RuleError(MSG_BANK_STANDS_AT, expected=taken, amount=amount)
    return None


def _passed_problem(
    previous: PreviousCoup, banker_seat: int, seated: Collection[int]
) -> RuleError | None:
    """A bank lost: the seat to the right of the banker (or of the suite's giver) banks."""
    to_the_right = seat_to_the_right(previous.rotation_seat, {*seated, previous.rotation_seat})
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
