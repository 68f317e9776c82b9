from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import CommandError, call_command
from django.db.models import Count

from games.models import Event, Hand, Shoe
from games.rules import validate_hand
from ledger.demo import DEMO_PASSWORD
from ledger.models import Bet, Guest, Seating
from ledger.money.amounts import money_sum
from ledger.money.results import house_rows
from ledger.ratings.selectors import ratings_for
from shoebook.base.roles import is_host, is_table_staff

D = Decimal

# The reference night (docs/rules.md): guests' gross result and commission per shoe.
REFERENCE = [
    ("280", "59.50"),
    ("-680", "64.00"),
    ("480", "75.00"),
    ("840", "59.50"),
    ("-320", "55.50"),
    ("440", "72.50"),
]


@pytest.fixture
def demo(db):
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_the_demo_is_the_reference_night_built_from_real_hands(demo):
    # Loading takes seconds, so one test reads all of it.
    per_shoe = Shoe.objects.order_by("number").annotate(
        gross=money_sum("hands__bets__gross"), commission=money_sum("hands__bets__commission")
    )
    assert [(s.gross, s.commission) for s in per_shoe] == [(D(g), D(c)) for g, c in REFERENCE]
    totals = Bet.objects.aggregate(
        gross=money_sum("gross"), commission=money_sum("commission"), net=money_sum("net")
    )
    assert totals == {"gross": D("1040.00"), "commission": D("386.00"), "net": D("654.00")}
    event = Event.objects.get()
    assert -totals["net"] * event.money_per_chip == D("-65400")

    assert list(Shoe.objects.annotate(n=Count("hands")).values_list("n", flat=True)) == [40] * 6
    for hand in Hand.objects.all():
        player, banker = hand.cards
        validate_hand(player, banker)
        assert hand.winner == hand.outcome().winner.value
    assert Guest.objects.count() == 15
    assert Bet.objects.values("guest").distinct().count() == 15
    assert set(Seating.objects.values_list("seat", flat=True)) == set(range(1, 8))
    assert all(bet.stake % 10 == 0 for bet in Bet.objects.all())  # $10 chips
    (night,) = house_rows(Event.objects.all())
    assert night.hands_per_hour == D("48.0")  # 240 hands from midnight to five, 75 s apart
    # Shoes open and guests sit when the hands say, so the ratings' time at the table is the
    # night's: every guest played, none beyond the five hours of the night.
    ratings = ratings_for([event]).nights[0]
    hours = [rating.seconds / 3600 for rating in ratings.guests]
    assert len(hours) == 15 and all(0 < spent <= 5 for spent in hours)
    assert max(hours) > 2
    assert (
        Shoe.objects.order_by("number").first().opened_at
        < Hand.objects.earliest("logged_at").logged_at
    )

    assert f"host / {DEMO_PASSWORD}" in demo
    host = authenticate(username="host", password=DEMO_PASSWORD)
    dealer = authenticate(username="dealer", password=DEMO_PASSWORD)
    assert is_host(host) and is_table_staff(dealer) and not is_host(dealer)


def test_the_demo_loads_only_into_an_empty_database(demo):
    out = StringIO()
    call_command("load_demo", "--if-empty", stdout=out)
    assert "no demo loaded" in out.getvalue()
    with pytest.raises(CommandError, match="already has events"):
        call_command("load_demo")
    assert Event.objects.count() == 1
