"""A tournament built through the real services, and a way to play its tables' hands."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

import pytest

from ledger.hands import services as hand_services
from ledger.models import Seating
from tests.conftest import bet, entry
from tournaments import services
from tournaments.models import Round

NAMES = [f"Player {n:02d}" for n in range(1, 15)]


@pytest.fixture
def make_tournament(host):
    def make(players=NAMES, **settings):
        settings = {
            "entry_fee": Decimal(50),
            "cut_percent": Decimal(10),
            "starting_stack": Decimal(1000),
            **settings,
        }
        tournament = services.tournament_create(
            name="Spring cup", date=date(2026, 4, 1), by=host, **settings
        )
        for name in players:
            services.entrant_add(tournament=tournament, name=name, by=host)
        return tournament

    return make


@pytest.fixture
def add_round(host):
    def add(tournament, **settings):
        settings = {"hands": 3, "table_min": Decimal(10), "table_max": Decimal(1000), **settings}
        settings.setdefault("bet_unit", Decimal(10))
        return services.round_add(tournament=tournament, by=host, **settings)

    return add


def open_shoe(table):
    return table.event.shoes.get()


def seat_of(table, guest_id):
    shoe = open_shoe(table)
    return Seating.objects.get(shoe=shoe, guest_id=guest_id, to_hand__isnull=True).seat


@pytest.fixture
def play(host):
    """Play hands at a table: ``play(table, "B", {seat: ("banker", 100)})`` records one hand
    won by ``result`` with those bets (cards not entered)."""

    def do(table, result, stakes=None, *, by=None):
        shoe = open_shoe(table)
        bets = [bet(seat, kind, amount) for seat, (kind, amount) in (stakes or {}).items()]
        return hand_services.record_hand(
            shoe=shoe,
            number=hand_services.next_hand_number(shoe),
            entry=entry(bets=bets, result=result),
            by=by or host,
            idempotency_key=uuid.uuid4(),
        ).hand

    return do


@pytest.fixture
def play_round(play):
    """Play every table of a started round to its end: seat ``n`` bets ``n`` × 10 on Banker,
    and Banker wins each hand, so stacks follow the seat numbers."""

    def do(round_: Round):
        for table in round_.tables.all():
            seats = list(table.seats.values_list("seat", flat=True))
            for _ in range(round_.hands):
                play(table, "B", {seat: ("banker", seat * 10) for seat in seats})

    return do
