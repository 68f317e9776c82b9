"""Property tests: for random nights, every chip is accounted for."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import F, Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import services as game_services
from games.chips import MoneyField
from games.entry import BetEntry
from games.models import Hand
from games.payouts import BetType, RuleSet, SideBet, resolve_bet
from games.rules import Winner
from games.shoe import Shoe as DealingShoe
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Bet
from ledger.money import services as money_services
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import event_settlement, event_shoe_rows, guest_balances, guest_history
from tests.conftest import entry, examples

pytestmark = pytest.mark.django_db
RULES = RuleSet(commission_rate=Decimal("0.05"), side_bets=frozenset(SideBet))

stakes = st.decimals(min_value=Decimal("10"), max_value=Decimal("1000"), places=2)
seat_bets = st.dictionaries(st.sampled_from(list(BetType)), stakes, max_size=3)
hands = st.lists(st.dictionaries(st.integers(1, 7), seat_bets, max_size=7), min_size=1, max_size=8)
nights = st.fixed_dictionaries(
    {
        "seed": st.integers(0, 10_000),
        "shoes": st.lists(hands, min_size=1, max_size=3),
        "settlements": st.lists(
            st.tuples(
                st.integers(0, 6),
                st.decimals(min_value=-500, max_value=500, places=2).filter(
                    lambda amount: amount != 0
                ),
            ),
            max_size=4,
        ),
    }
)


@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@given(night=nights)
def test_every_hand_shoe_and_event_balances_to_zero(night, make_event, host):
    with transaction.atomic():
        event = make_event(rules=RULES, table_min=Decimal(10))
        guests = [
            guest_services.event_guest_add(event=event, name=f"G{n}", by=host) for n in range(7)
        ]
        expected_net: dict[int, Decimal] = defaultdict(lambda: ZERO)
        expected_shoes = []
        dealer = DealingShoe(8, seed=night["seed"])
        for shoe_hands in night["shoes"]:
            shoe = game_services.shoe_start(event=event, by=host)
            for seat in range(1, 8):
                hand_services.seat_guest(shoe=shoe, seat=seat, guest=guests[seat - 1], by=host)
            shoe_total = [ZERO, ZERO, ZERO]  # gross, commission, net
            for number, bets in enumerate(shoe_hands, start=1):
                dealt = dealer.play_hand()
                inputs = [
                    BetEntry(seat, bet_type, stake)
                    for seat, by_type in bets.items()
                    for bet_type, stake in by_type.items()
                ]
                hand_services.record_hand(
                    shoe=shoe,
                    entry=entry(
                        " ".join(map(str, dealt.player)), " ".join(map(str, dealt.banker)), inputs
                    ),
                    number=number,
                    by=host,
                )
                for bet in inputs:
                    result = resolve_bet(RULES, bet.bet, bet.stake, dealt.outcome())
                    expected_net[guests[bet.seat - 1].pk] += result.net
                    shoe_total[0] += result.gross
                    shoe_total[1] += result.commission
                    shoe_total[2] += result.net
            game_services.mark_shoe_closed(shoe=shoe, by=host)
            expected_shoes.append(tuple(shoe_total))
        for index, amount in night["settlements"]:
            money_services.settlement_record(
                guest=guests[index], event=event, amount=amount, method="cash", by=host
            )
            expected_net[guests[index].pk] += amount

        # Every hand: the guests' net and the house's take (stakes lost and commission, less
        # winnings paid) cancel out.
        per_hand = Hand.objects.filter(shoe__event=event).annotate(
            guests=money_sum("bets__net"),
            house=Sum(
                F("bets__commission") - F("bets__gross"), default=0, output_field=MoneyField()
            ),
        )
        for hand in per_hand:
            assert isinstance(hand.house, Decimal)
            assert hand.guests + hand.house == 0
        rows, totals = event_shoe_rows(event)
        assert [
            (r.figures.gross, r.figures.commission, r.figures.net) for r in rows
        ] == expected_shoes
        assert totals.figures.net + totals.figures.house_net == 0
        assert totals.figures.net == sum(net for _, _, net in expected_shoes)
        balances = guest_balances()
        for guest in guests:
            expected = expected_net[guest.pk]
            assert balances.get(guest.pk, ZERO) == expected
            assert guest_history(guest).balance == expected
        assert {line.guest_id: line.after for line in event_settlement(event)} == {
            guest.pk: expected_net[guest.pk] for guest in guests
        }
        assert (
            Bet.objects.filter(hand__shoe__event=event)
            .exclude(net=F("gross") - F("commission"))
            .count()
            == 0
        )
        assert_results_match_bets()
        # A correction (clearing the last hand's bets) keeps the totals equal to the bets' sums.
        hand = Hand.objects.filter(shoe__event=event).order_by("-shoe__number", "-number").first()
        if hand.bets.exists():
            hand_services.hand_correct(
                hand=hand, entry=entry(result=Winner.TIE), reason="property test", by=host
            )
            assert_results_match_bets()
        transaction.set_rollback(True)


def assert_results_match_bets() -> None:
    from django.db.models import Count

    from ledger.models import GuestEventResult

    from_bets = {
        (row["guest_id"], row["event_id"]): (row["hands"], row["n"], row["c"])
        for row in Bet.objects.values("guest_id", "event_id")
        .annotate(hands=Count("hand", distinct=True), n=money_sum("net"), c=money_sum("commission"))
        .order_by()
    }
    kept = {
        (r.guest_id, r.event_id): (r.hands, r.net, r.commission)
        for r in GuestEventResult.objects.all()
    }
    assert kept == from_bets
