"""Playing a tournament: the heats for any number of players, and ``simulate_tournament``."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Event
from games.tournament import DEFAULT_SEATS, table_sizes
from ledger.models import Bet, Guest
from tournaments.models import Tournament
from tournaments.play import heats_for


def test_the_heats_bring_any_field_down_to_one_final_table():
    for players in range(2, 301):
        count = players
        for per_table, wildcards in heats_for(players):
            tables = len(table_sizes(count))
            assert tables >= 2  # a heat is played on two tables or more
            assert 1 <= per_table <= DEFAULT_SEATS and wildcards >= 0
            going_on = per_table * tables + wildcards
            assert going_on < count  # every heat sends someone home
            count = going_on
        assert count == min(players, DEFAULT_SEATS), players


def test_smaller_tables_bring_the_field_down_to_a_smaller_final():
    for players in range(2, 120):
        count = players
        for per_table, wildcards in heats_for(players, 6):
            count = per_table * len(table_sizes(count, 6)) + wildcards
        assert count == min(players, 6), players


@pytest.mark.django_db
def test_simulate_tournament_plays_tables_of_the_seats_asked():
    simulate("--players", "13", "--seed", "2", "--hands", "1", "--tables-of", "6", "--keep")
    tournament = Tournament.objects.get()
    assert tournament.seats_per_table == 6
    for round_ in tournament.rounds.all():
        sizes = [table.seats.count() for table in round_.tables.all()]
        assert max(sizes) <= 6, (round_, sizes)
    assert [table.seats.count() for table in tournament.rounds.first().tables.all()] == [5, 4, 4]


@pytest.mark.django_db
def test_simulate_tournament_plays_tables_of_nine():
    out = simulate("--players", "18", "--seed", "3", "--hands", "2", "--tables-of", "9", "--keep")
    assert "check_ledger problems: 0" in out
    tournament = Tournament.objects.get()
    first, final = tournament.rounds.first(), tournament.rounds.last()
    tables = list(first.tables.select_related("event"))
    assert [table.seats.count() for table in tables] == [9, 9]
    assert {table.event.seats for table in tables} == {9}
    seats_bet = Bet.objects.filter(hand__shoe__event__tournament_table__round=first)
    assert seats_bet.filter(seat__in=[8, 9]).exists()  # the eighth and ninth seats play
    assert final.is_final and final.tables.get().seats.count() <= 9


def test_a_big_field_plays_several_heats():
    assert heats_for(7) == []
    assert heats_for(14) == [(3, 1)]  # 2 tables: the top 3 of each and a wildcard
    assert len(heats_for(100)) == 3


def simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_simulate_tournament_plays_to_the_prizes_and_leaves_nothing_behind():
    output = simulate("--players", "9", "--seed", "3", "--hands", "2")
    assert "9 players, seed 3" in output
    assert "Heat 1: 9 players at 2 tables; 7 go on" in output
    assert "Final standings:" in output
    assert "check_ledger problems: 0" in output
    assert "rolled back" in output
    assert not Event.objects.exists() and not Guest.objects.exists()
    # The same seed plays the same tournament.
    again = simulate("--players", "9", "--seed", "3", "--hands", "2")
    assert again.splitlines()[:-1] == output.splitlines()[:-1]  # all but the time it took


@pytest.mark.django_db
def test_simulate_tournament_keeps_it_when_asked():
    simulate("--players", "3", "--seed", "1", "--hands", "1", "--keep")
    tournament = Tournament.objects.get()
    assert tournament.is_finished
    assert tournament.entrants.filter(place__isnull=False).count() == 3


@pytest.mark.django_db
def test_simulate_tournament_fails_on_a_problem(monkeypatch):
    from tournaments.management.commands import simulate_tournament

    monkeypatch.setattr(simulate_tournament, "ledger_problems", lambda: ["Bet 1: broken"])
    with pytest.raises(CommandError) as error:
        simulate("--players", "2", "--seed", "1", "--hands", "1")
    assert error.value.returncode == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "1"], "at least two players"),
        (["--players", "4", "--hands", "0"], "1 to 99 hands"),
        (["--players", "4", "--tables-of", "5"], "A table seats 6 to 9 players"),
        (["--players", "4", "--tables-of", "10"], "A table seats 6 to 9 players"),
    ],
)
def test_simulate_tournament_refuses_what_cannot_be_played(args, message):
    with pytest.raises(CommandError, match=message):
        simulate(*args)
