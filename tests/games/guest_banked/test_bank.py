"""A co-banker joining a bank just taken as a suite must double it (banco double: a
stake equal to the bank), as after a kept bank. Found on the table page: after a suite at 195, seat
6 joined as co-banker with the bank left at 195 and the coup was saved; the next winning coup gave
the co-banker half the winnings for nothing brought in."""

from __future__ import annotations

from decimal import Decimal

from games.guest_banked.bank import MSG_DOUBLE_AMOUNT, continuity_problem
from games.guest_banked.terms import PreviousCoup
from games.kinds import BankerMove

SEATED = {1, 2, 3, 4, 5, 6, 7}


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
