"""The demo tournament (``make run``): played from dealt shoes through the real services, its money
in the guests' balances beside the reference night's, and the night's figures untouched."""

from __future__ import annotations

from collections import Counter
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import Event, Hand, Shoe
from games.rules import validate_hand
from ledger.demo import GUEST_NAMES
from ledger.hands.services import table_stacks
from ledger.integrity import ledger_problems
from ledger.models import Bet, Charge, GuestEventResult, StackRow
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import guest_balance_now
from tournaments.demo import NEWCOMERS
from tournaments.models import Tournament
from tournaments.selectors import round_board

pytestmark = pytest.mark.django_db
D = Decimal


def load() -> str:
    out = StringIO()
    call_command("load_demo_tournament", stdout=out)
    return out.getvalue()


def test_the_demo_tournament_is_played_from_dealt_shoes_and_paid_into_the_balances(demo_night):
    night_results = dict(
        GuestEventResult.objects.filter(event=demo_night).values_list("guest__name", "net")
    )
    assert "Loaded Summer cup" in load()
    tournament = Tournament.objects.select_related("event").get()
    assert tournament.is_finished and tournament.event.date.isoformat() == "2008-07-19"

    # 14 players: twelve of the night's guests (the same guests, not namesakes) and two more.
    entrants = list(tournament.entrants.select_related("guest"))
    names = [entrant.guest.name for entrant in entrants]
    assert len(names) == 14 and set(NEWCOMERS) <= set(names)
    assert len(set(names) & set(GUEST_NAMES)) == 12
    assert {name for name in names if name in night_results} == set(names) - set(NEWCOMERS)

    # Two heats of 14 hands on 2 tables, then a final table of 6.
    rounds = list(tournament.rounds.order_by("number"))
    shape = [(r.is_final, r.tables.count(), r.seats.count(), r.hands) for r in rounds]
    assert shape == [(False, 2, 14, 14), (False, 2, 10, 14), (True, 1, 6, 14)]
    assert [(r.per_table, r.wildcards) for r in rounds[:2]] == [(4, 2), (3, 0)]
    assert [sorted(round_board(r).qualified) for r in rounds[:2]] == [
        sorted(rounds[1].seats.values_list("entrant_id", flat=True)),
        sorted(rounds[2].seats.values_list("entrant_id", flat=True)),
    ]
    # Every hand dealt from a shoe (cards, a complete hand under the drawing rules), every stake
    # a legal one: in $10 units, within the round's limits — or a short stack's all-in, under
    # the minimum (the pipeline checked it was the whole stack).
    hands = Hand.objects.filter(shoe__event__kind=Event.Kind.TOURNAMENT_TABLE)
    assert hands.count() == 14 * 5
    for hand in hands:
        validate_hand(*hand.cards)
        assert hand.winner == hand.outcome().winner.value
    for round_ in rounds:
        bets = Bet.objects.filter(event__tournament_table__round=round_)
        assert bets.exists()
        for bet in bets:
            all_in = bet.stake < round_.table_min
            assert all_in or (bet.stake % 10 == 0 and bet.stake <= round_.table_max)
    # Some players sat hands out; some went all in (staked all the limits let them).
    sat_out = all_in = 0
    for hand in hands.select_related("shoe__event__tournament_table__round"):
        round_ = hand.shoe.event.tournament_table.round
        stacks = table_stacks(hand.shoe.event, before_hand=hand.number)
        staked = Counter[int]()
        for bet in hand.bets.all():
            staked[bet.guest_id] += bet.stake
        sat_out += len(stacks) - len(staked)
        for guest_id, stake in staked.items():
            assert stake <= stacks[guest_id]
            all_in += stake == min(stacks[guest_id], round_.table_max) // 10 * 10
    assert sat_out and all_in

    # The final's places and the prizes: 50%, 30% and 20% of the pool, to the cent.
    paid_in = (
        -Charge.objects.filter(event=tournament.event)
        .exclude(kind="prize")
        .aggregate(n=money_sum("amount"))["n"]
    )
    rebuys = StackRow.objects.filter(kind=StackRow.Kind.REBUY).count()
    add_ons = StackRow.objects.filter(kind=StackRow.Kind.ADD_ON).count()
    assert rebuys and add_ons  # the demo shows both
    assert paid_in == 14 * D(50) + rebuys * D(50) + add_ons * D(25)
    cut = (paid_in / 10).quantize(D("0.01"), ROUND_HALF_UP)
    pool = paid_in - cut
    placed = sorted((e for e in entrants if e.place), key=lambda e: e.place)
    assert [e.place for e in placed] == [1, 2, 3, 4, 5, 6]
    shares = [(pool * share / 100).quantize(D("0.01"), ROUND_DOWN) for share in (50, 30, 20)]
    shares[0] += pool - sum(shares)
    assert [e.prize for e in placed] == [*shares, ZERO, ZERO, ZERO]
    assert {e.prize for e in entrants if not e.place} == {None}

    # The money is in the balances: the night's result, less what they paid in, plus the prize.
    for entrant in entrants:
        guest = entrant.guest
        paid = D(50)
        paid += D(50) * StackRow.objects.filter(guest=guest, kind=StackRow.Kind.REBUY).count()
        paid += D(25) * StackRow.objects.filter(guest=guest, kind=StackRow.Kind.ADD_ON).count()
        night = night_results.get(guest.name, ZERO)
        assert guest_balance_now(guest_id=guest.pk) == night - paid + (entrant.prize or ZERO)

    # The reference night is its own event, its figures unchanged.
    totals = Bet.objects.filter(event=demo_night).aggregate(
        gross=money_sum("gross"), commission=money_sum("commission"), net=money_sum("net")
    )
    assert totals == {"gross": D("1040.00"), "commission": D("386.00"), "net": D("654.00")}
    assert ledger_problems() == []

    out = StringIO()
    call_command("load_demo_tournament", "--if-empty", stdout=out)
    assert "no demo tournament loaded" in out.getvalue()
    with pytest.raises(CommandError, match="already has a tournament"):
        load()
    assert Tournament.objects.count() == 1


def test_the_demo_tournament_needs_the_demo_night(db):
    with pytest.raises(CommandError, match="demo night first"):
        load()
    out = StringIO()
    call_command("load_demo_tournament", "--if-empty", stdout=out)
    assert "no demo tournament loaded" in out.getvalue()
    assert not Tournament.objects.exists()


def test_the_demo_tournament_happened_on_its_evening(demo_night):
    # Its rounds, shoes and prizes at the 2008 evening's times, not the day the demo is loaded.
    call_command("load_demo_tournament", stdout=StringIO())
    tournament = Tournament.objects.get()
    day = tournament.event.date
    moments = [
        *(moment for round_ in tournament.rounds.all()
          for moment in (round_.drawn_at, round_.started_at, round_.closed_at)),
        tournament.finished_at,
        *Charge.objects.filter(event=tournament.event).values_list("recorded_at", flat=True),
        *Shoe.objects.filter(event__tournament_table__round__tournament=tournament)
        .values_list("closed_at", flat=True),
    ]  # fmt: skip
    assert moments and all(timezone.localtime(moment).date() == day for moment in moments)
    closed = [round_.closed_at for round_ in tournament.rounds.order_by("number")]
    assert closed == sorted(closed) and tournament.finished_at == closed[-1]
