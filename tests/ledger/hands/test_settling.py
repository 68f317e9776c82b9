from __future__ import annotations

import random
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from games.chips import from_cents, to_cents
from games.models import Hand
from games.payouts import BetType, RuleSet
from ledger.models import Bet, Guest
from ledger.money.amounts import format_chips, money_sum
from tests.conftest import bet

D = Decimal


def test_cents_convert_exactly_and_refuse_fractions():
    assert to_cents(D("12.50")) == 1250
    assert to_cents(D("-0.01")) == -1
    assert from_cents(1250) == D("12.50")
    with pytest.raises(ValidationError):
        to_cents(D("0.005"))


@pytest.mark.parametrize(
    ("amount", "text"),
    [
        (D("1040"), "1,040"),
        (D("-680"), "−680"),
        (D("59.5"), "59.50"),
        (D("0"), "0"),
        (D("-65400"), "−65,400"),
        (D("0.05"), "0.05"),
    ],
)
def test_chip_amounts_read_like_the_reference_table(amount, text):
    assert format_chips(amount) == text


@pytest.mark.django_db
def test_money_is_stored_as_integer_cents(seated, shoe, record):
    record(shoe, "8 K", "9 K", [bet(2, "banker", "10.30")])
    with connection.cursor() as cursor:
        cursor.execute("SELECT stake, commission, net FROM ledger_bet")
        assert cursor.fetchone() == (1030, 52, 978)  # 5% of 10.30 = 0.515 → 0.52


@pytest.mark.django_db
def test_sums_over_thousands_of_rows_are_exact_to_the_cent(shoe, guests, host):
    # Amounts like these come back from SQLite's SUM over a decimal column as float noise.
    rng = random.Random(7)
    rules = RuleSet()
    hands = Hand.objects.bulk_create(
        Hand(shoe=shoe, number=n, winner="banker", logged_by=host) for n in range(1, 301)
    )
    expected = {"stake": D(0), "commission": D(0), "net": D(0)}
    bets = []
    for hand in hands:
        for seat in range(1, 8):
            stake = D(rng.randrange(1, 100_000)) / 100
            commission = (stake * rules.commission_rate).quantize(D("0.01"), "ROUND_HALF_UP")
            bets.append(
                Bet(
                    hand=hand,
                    event_id=shoe.event_id,
                    seat=seat,
                    guest=guests[seat - 1],
                    bet_type=BetType.BANKER,
                    stake=stake,
                    gross=stake,
                    commission=commission,
                    net=stake - commission,
                )
            )
            expected["stake"] += stake
            expected["commission"] += commission
            expected["net"] += stake - commission
    Bet.objects.bulk_create(bets)

    sums = Bet.objects.aggregate(**{name: money_sum(name) for name in expected})
    assert sums == expected
    assert all(isinstance(value, Decimal) for value in sums.values())
    per_guest = dict(Guest.objects.annotate(n=money_sum("bets__net")).values_list("name", "n"))
    assert sum(per_guest.values()) == expected["net"]
    assert Bet.objects.filter(stake__gt=D("500.00")).count() == sum(
        1 for b in bets if b.stake > 500
    )


@pytest.mark.django_db
def test_a_sum_over_nothing_is_zero_not_none():
    assert Bet.objects.aggregate(n=money_sum("net"))["n"] == D("0.00")
