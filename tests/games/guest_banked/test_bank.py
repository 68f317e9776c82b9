"""The bank of a coup (games/guest_banked/bank.py): who holds it and with how much, and whether
that follows from the coup before."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

from games.entry import Field
from games.guest_banked.bank import (
    MSG_CO_BANKER_KEPT,
    MSG_DOUBLE_AMOUNT,
    continuity_problem,
    read_bank,
)
from games.guest_banked.chemin_money import (
    MSG_BANK_BELOW_MINIMUM,
    MSG_CO_BANKER_CENTS,
    MSG_CO_BANKER_IS_BANKER,
    Bank,
)
from games.guest_banked.reading import Reading
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup
from games.kinds import BankerMove, Game

D = Decimal
SEATED = {1, 2, 3, 4, 5, 6, 7}
GUESTS = {1: "Aki", 2: "Ben", 3: "Chie", 4: "Dai", 5: "Emi"}
RULES = BankRules(Game.CHEMIN_DE_FER, minimum_banco=D(100))


def bank_read(terms: CoupTerms, previous: PreviousCoup | None = None) -> Bank | list[tuple]:
    """The bank as the pipeline reads it, or what is wrong with it."""
    reading = Reading()
    bank = read_bank(terms, RULES, GUESTS, previous, reading)
    return bank if bank is not None else [(p.field, p.template) for p in reading.problems]


# A co-banker joining a bank just taken as a suite must double it (banco double: a stake equal to
# the bank), as after a kept bank. Found on the table page: after a suite at 195, seat 6 joined as
# co-banker with the bank left at 195 and the coup was saved; the next winning coup gave the
# co-banker half the winnings for nothing brought in.


def suite_to_5(amount: str = "195") -> PreviousCoup:
    return PreviousCoup(
        banker_seat=3,
        co_banker_seat=None,
        bank_after=Decimal(amount),
        move=BankerMove.SUITE,
        rotation_seat=3,
        suite_seat=5,
        suite_amount=Decimal(amount),
    )


def test_a_suite_taken_plays_at_its_amount():
    assert continuity_problem(suite_to_5(), 5, None, Decimal(195), SEATED) is None


def test_a_co_banker_joining_a_suite_must_double_the_bank():
    undoubled = continuity_problem(suite_to_5(), 5, 6, Decimal(195), SEATED)
    assert undoubled is not None and undoubled.template == MSG_DOUBLE_AMOUNT
    assert continuity_problem(suite_to_5(), 5, 6, Decimal(390), SEATED) is None


def test_banco_double_brings_a_stake_equal_to_the_bank():
    """A co-banker brings as much as the bank holds, so it doubles; the banker cannot share his
    own bank, and a shared bank keeps its one co-banker while it is held."""
    kept = PreviousCoup(
        banker_seat=1, co_banker_seat=None, bank_after=D(250), move=BankerMove.KEEP, rotation_seat=1
    )
    assert continuity_problem(kept, 1, 3, D(500), SEATED) is None
    assert bank_read(CoupTerms(1, "500", co_banker_seat=3), kept) == Bank("Aki", D(500), "Chie")
    unequal = continuity_problem(kept, 1, 3, D(450), SEATED)
    assert unequal is not None and unequal.template == MSG_DOUBLE_AMOUNT
    himself = bank_read(CoupTerms(1, "500", co_banker_seat=1), kept)
    assert himself == [(Field.CO_BANKER_SEAT, MSG_CO_BANKER_IS_BANKER)]
    shared = replace(kept, co_banker_seat=3, bank_after=D(500))
    another = continuity_problem(shared, 1, 5, D(1000), SEATED)
    assert another is not None and another.template == MSG_CO_BANKER_KEPT


def test_a_new_bank_shared_from_the_start_is_two_equal_halves_each_at_least_the_minimum():
    assert bank_read(CoupTerms(1, "200", co_banker_seat=3)) == Bank("Aki", D(200), "Chie")
    assert bank_read(CoupTerms(1, "200.02", co_banker_seat=3)) == Bank("Aki", D("200.02"), "Chie")
    assert bank_read(CoupTerms(1, "200.01", co_banker_seat=3)) == [
        (Field.BANK, MSG_CO_BANKER_CENTS)
    ]
    assert bank_read(CoupTerms(1, "150", co_banker_seat=3)) == [
        (Field.BANK, MSG_BANK_BELOW_MINIMUM)
    ]
    assert bank_read(CoupTerms(1, "150")) == Bank("Aki", D(150))
