"""A stack under the table minimum: bet whole (all-in), or out, as the tournament says."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from games.entry import MSG_SHORT_STACK_ALL_IN, MSG_SHORT_STACK_OUT
from games.kinds import ShortStack
from games.tournament import in_play, table_finished
from ledger.hands.services import MSG_LAST_STANDING
from tests.conftest import on_seat
from tournaments import services
from tournaments.selectors import round_board

pytestmark = pytest.mark.django_db


def _short_table(make_tournament, add_round, host, play, *, players, **settings):
    """A started table (minimum 100, unit 10) after one hand that left seat 2 with 50."""
    names = ["Aki", "Ben", "Chie"][:players]
    tournament = make_tournament(players=names, **settings)
    round_ = add_round(tournament, hands=6, table_min=Decimal(100), bet_unit=Decimal(10))
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    play(table, "B", {1: ("banker", 100), 2: ("player", 950)})
    return round_, table


def _stacks(round_):
    return {line.seat: line.stack for line in round_board(round_).lines}


def _refusal(error: ValidationError) -> str:
    return " ".join(error.messages)


def test_a_short_stack_bets_all_of_it_and_is_settled(make_tournament, add_round, host, play):
    round_, table = _short_table(make_tournament, add_round, host, play, players=3)
    assert _stacks(round_)[2] == Decimal("50.00")
    with pytest.raises(ValidationError) as error:
        play(table, "B", {2: ("banker", 40)})
    assert _refusal(error.value) == on_seat(
        2, "Banker", MSG_SHORT_STACK_ALL_IN, stake="40", minimum="100", stack="50"
    )
    play(table, "B", {2: ("banker", 50)})  # all-in, under the minimum
    assert _stacks(round_)[2] == Decimal("97.50")  # 50 back and 47.50 won (5% commission)
    play(table, "P", {2: ("player", Decimal("97.50"))})  # not a multiple of the unit: all of it
    assert _stacks(round_)[2] == Decimal("195.00")
    line = next(line for line in round_board(round_).lines if line.seat == 2)
    assert not line.is_out


def test_under_out_a_short_stack_is_out_and_its_bet_refused(make_tournament, add_round, host, play):
    round_, table = _short_table(
        make_tournament, add_round, host, play, players=3, short_stack="out"
    )
    board = round_board(round_)
    assert [line.seat for line in board.lines if line.is_out] == [2]
    assert 2 not in board.tables[0].in_play[-1], "the first-bet marker passes seat 2"
    with pytest.raises(ValidationError) as error:
        play(table, "B", {2: ("banker", 50)})
    assert _refusal(error.value) == on_seat(
        2, "Banker", MSG_SHORT_STACK_OUT, stack="50", minimum="100"
    )
    play(table, "B", {1: ("banker", 100), 3: ("player", 100)})  # the others play on


def test_under_out_the_last_player_over_the_minimum_wins_the_table(
    make_tournament, add_round, host, play
):
    round_, table = _short_table(
        make_tournament, add_round, host, play, players=2, short_stack="out"
    )
    board = round_board(round_)
    assert board.tables[0].is_done
    assert board.tables[0].last_standing.seat == 1
    with pytest.raises(ValidationError) as error:
        play(table, "B", {1: ("banker", 100)})
    assert _refusal(error.value) == MSG_LAST_STANDING.format(guest=board.tables[0].lines[0].name)


def test_under_all_in_two_short_of_the_minimum_still_play(make_tournament, add_round, host, play):
    round_, table = _short_table(make_tournament, add_round, host, play, players=2)
    assert not round_board(round_).tables[0].is_done
    play(table, "P", {2: ("player", 50)})
    assert _stacks(round_)[2] == Decimal("100.00")


def test_the_rule_in_the_rules_core():
    minimum = Decimal(100)
    assert in_play(Decimal(50), table_min=minimum, short_stack=ShortStack.ALL_IN)
    assert not in_play(Decimal(50), table_min=minimum, short_stack=ShortStack.OUT)
    assert in_play(Decimal(100), table_min=minimum, short_stack=ShortStack.OUT)
    assert not in_play(Decimal(0), table_min=minimum, short_stack=ShortStack.ALL_IN)
    stacks = [Decimal(500), Decimal(50)]
    assert not table_finished(stacks, played=1, hands=5, table_min=minimum)
    assert table_finished(stacks, played=1, hands=5, table_min=minimum, short_stack=ShortStack.OUT)
