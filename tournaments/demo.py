"""The demo tournament: a week after the reference night, at the same bar, 14 players (twelve of
the night's guests and two newcomers) on 2 tables: two heats of 14 hands, then a final table of
6. Played by ``tournaments.play`` from dealt shoes with a fixed seed, through the real services,
so the entry fees, rebuys, add-ons and prizes are in the guests' balances beside the night's
results.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import transaction

from games.models import Event, Hand, Shoe
from games.payouts import STANDARD_RULES
from ledger.demo import GUEST_NAMES
from ledger.models import Charge
from shoebook.base.roles import Actor
from tournaments import services
from tournaments.models import Round, Tournament
from tournaments.play import tournament_play

DEMO_SEED = 20080719
NEWCOMERS = ("Ren", "Nao")
PLAYERS = (*GUEST_NAMES[:12], *NEWCOMERS)
HANDS = 14
# Heat 1: 14 players at 2 tables, the top 4 of each and 2 wildcards go on; heat 2: 10 players at
# 2 tables, the top 3 of each go on; the final table: 6.
ROUNDS = (
    {"table_min": Decimal(10), "table_max": Decimal(1000), "per_table": 4, "wildcards": 2},
    {"table_min": Decimal(20), "table_max": Decimal(1000), "per_table": 3, "wildcards": 0},
    {"table_min": Decimal(20), "table_max": Decimal(2000), "is_final": True},
)
START = datetime(2008, 7, 19, 20, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
ROUND_TIME = timedelta(hours=1)
HAND_TIME = timedelta(minutes=3)


@transaction.atomic
def load_demo_tournament(*, by: Actor) -> Tournament:
    tournament = services.tournament_create(
        name="Summer cup",
        date=START.date(),
        venue="The bar, after closing",
        rules=STANDARD_RULES,
        by=by,
        currency_symbol="$",
        money_per_chip=Decimal(100),
        entry_fee=Decimal(50),
        cut_percent=Decimal(10),
        starting_stack=Decimal(1000),
        stacks=Tournament.Stacks.RESET,
        advancement=Tournament.Advancement.BY_TABLE,
        tie_break=Tournament.TieBreakChoice.PLAYOFF,
        rebuy_price=Decimal(50),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=1,
        rebuy_until_hand=7,
        max_rebuys=1,
        add_on_price=Decimal(25),
        add_on_chips=Decimal(500),
        add_on_round=2,
        prize_table="50%, 30%, 20%",
        seed=DEMO_SEED,
    )
    for name in PLAYERS:
        services.entrant_add(tournament=tournament, name=name, by=by)
    for settings in ROUNDS:
        services.round_add(
            tournament=tournament, by=by, hands=HANDS, bet_unit=Decimal(10), **settings
        )
    tournament = tournament_play(tournament=tournament, by=by, seed=DEMO_SEED)
    _spread_over_the_evening(tournament)
    return tournament


def _spread_over_the_evening(tournament: Tournament) -> None:
    """Hands logged from eight o'clock, a round an hour, its tables side by side; each round
    drawn, started and closed at that evening's times, the tournament finished with the last,
    and the shoes' and charges' times with them (a 2008 tournament closed in 2008)."""
    hands = list(
        Hand.objects.filter(shoe__event__tournament_table__round__tournament=tournament)
        .select_related("shoe__event__tournament_table__round")
        .order_by("id")
    )
    for hand in hands:
        round_number = hand.shoe.event.tournament_table.round.number
        hand.logged_at = START + ROUND_TIME * (round_number - 1) + HAND_TIME * hand.number
    Hand.objects.bulk_update(hands, ["logged_at"])
    rounds = list(tournament.rounds.order_by("number"))
    for round_ in rounds:
        round_.started_at = START + ROUND_TIME * (round_.number - 1)
        round_.drawn_at = round_.started_at - timedelta(minutes=5)
        round_.closed_at = round_.started_at + HAND_TIME * (round_.hands + 1)
    Round.objects.bulk_update(rounds, ["drawn_at", "started_at", "closed_at"])
    finished = rounds[-1].closed_at if rounds else START
    Tournament.objects.filter(pk=tournament.pk).update(finished_at=finished)
    for round_ in rounds:
        Shoe.objects.filter(event__tournament_table__round=round_).update(
            opened_at=round_.started_at, closed_at=round_.closed_at
        )
        Event.objects.filter(tournament_table__round=round_, closed_at__isnull=False).update(
            closed_at=round_.closed_at
        )
    Charge.objects.filter(event=tournament.event, kind=Charge.Kind.PRIZE).update(
        recorded_at=finished
    )
    Charge.objects.filter(event=tournament.event).exclude(kind=Charge.Kind.PRIZE).update(
        recorded_at=START - timedelta(minutes=30)
    )
