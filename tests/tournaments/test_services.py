"""The tournament services, played through the real pipeline: stacks, rounds, advancement,
prizes, and the money through the ledger."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from games import services as game_services
from games.chips import MAX_CHIPS
from games.entry import MSG_NOT_UNIT, MSG_OVER_STACK
from games.models import Event
from ledger.hands import services as hand_services
from ledger.integrity import ledger_problems
from ledger.models import Charge, GuestEventResult, StackRow
from ledger.money.results import event_settlement, guest_balance_now, house_rows
from ledger.nights import services as night_services
from tests.conftest import bet, entry, on_seat
from tests.tournaments.conftest import open_shoe
from tournaments import services
from tournaments.models import Entrant
from tournaments.results import event_pools
from tournaments.selectors import round_board

pytestmark = pytest.mark.django_db


def messages(error: ValidationError) -> str:
    return " ".join(error.messages)


def test_an_entry_fee_is_what_the_guest_owes_the_house(make_tournament):
    tournament = make_tournament()
    entrant = tournament.entrants.first()
    assert guest_balance_now(guest_id=entrant.guest_id) == Decimal("-50.00")
    lines = event_settlement(tournament.event)
    assert len(lines) == 14
    assert {line.result for line in lines} == {Decimal("-50.00")}


def test_a_player_registers_once_and_not_after_the_start(make_tournament, add_round, host):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    with pytest.raises(ValidationError) as error:
        services.entrant_add(tournament=tournament, name="aki", by=host)
    assert messages(error.value) == str(services.MSG_ALREADY_REGISTERED).format(guest="Aki")
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    with pytest.raises(ValidationError) as error:
        services.entrant_add(tournament=tournament, name="Dee", by=host)
    assert messages(error.value) == str(services.MSG_REGISTRATION_CLOSED)
    assert tournament.entrants.count() == 3


def test_the_draw_is_seeded_shown_and_redrawable_until_the_start(make_tournament, add_round, host):
    tournament = make_tournament()
    round_ = add_round(tournament)

    def seats():
        return sorted(round_.seats.values_list("table__number", "seat", "entrant_id"))

    services.round_draw(round_=round_, by=host, seed=7)
    first = seats()
    assert len(first) == 14 and round_.tables.count() == 2
    services.round_draw(round_=round_, by=host, seed=7)
    assert seats() == first
    services.round_draw(round_=round_, by=host, seed=8)
    assert seats() != first
    assert Event.objects.filter(kind=Event.Kind.TOURNAMENT_TABLE).count() == 2
    round_ = services.round_start(round_=round_, by=host)
    with pytest.raises(ValidationError):
        services.round_draw(round_=round_, by=host, seed=9)


def test_a_stack_is_its_rows_plus_results_and_no_bet_passes_it(
    make_tournament, add_round, host, play
):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament, hands=5)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    play(table, "B", {1: ("banker", 300), 2: ("player", 200)})
    board = round_board(round_)
    stacks = {line.seat: line.stack for line in board.lines}
    assert stacks == {1: Decimal("1285.00"), 2: Decimal("800.00")}
    with pytest.raises(ValidationError) as error:
        play(table, "P", {2: ("player", 500), 1: ("banker", 10)} | {2: ("banker", 810)})
    assert messages(error.value) == on_seat(2, "Banker", MSG_OVER_STACK, total=810, stack=800)
    with pytest.raises(ValidationError) as error:
        play(table, "P", {1: ("banker", 15)})
    assert messages(error.value) == on_seat(1, "Banker", MSG_NOT_UNIT, stake=15, unit=10)


def test_tournament_chips_never_reach_a_balance(make_tournament, add_round, host, play):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    play(table, "B", {1: ("banker", 500), 2: ("player", 500)})
    for entrant in tournament.entrants.all():
        assert guest_balance_now(guest_id=entrant.guest_id) == Decimal("-50.00")
    assert not GuestEventResult.objects.filter(event=table.event).exists()
    assert ledger_problems() == []


def test_a_round_plays_its_hands_and_no_more(make_tournament, add_round, host, play):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament, hands=2)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    play(table, "B")
    play(table, "P")
    with pytest.raises(ValidationError) as error:
        play(table, "T")
    assert messages(error.value) == str(hand_services.MSG_ROUND_OVER).format(hands=2)


def test_a_correction_that_breaks_a_later_stake_is_refused(make_tournament, add_round, host, play):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament, hands=3, table_max=Decimal(5000))
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    first = play(table, "B", {1: ("banker", 1000)})  # seat 1: 1000 -> 1950
    play(table, "B", {1: ("banker", 1500)})
    with pytest.raises(ValidationError) as error:
        hand_services.hand_correct(
            hand=first,
            entry=entry(bets=[bet(1, "banker", 1000)], result="P"),  # 1000 -> 0
            reason="It was Player",
            by=host,
        )
    assert messages(error.value) == str(hand_services.MSG_LATER_OVER_STACK).format(number=2)
    first.refresh_from_db()
    assert first.winner == "banker"


def test_rebuys_within_the_window_and_the_add_on_once(make_tournament, add_round, host, play):
    tournament = make_tournament(
        players=["Aki", "Ben"],
        rebuy_price=Decimal(40),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=1,
        rebuy_until_hand=2,
        max_rebuys=1,
        add_on_price=Decimal(20),
        add_on_chips=Decimal(500),
        add_on_round=1,
    )
    round_ = add_round(tournament, hands=4)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = Entrant.objects.get(tournament=tournament, guest__name="Aki")
    aki_seat = table.seats.get(entrant=aki).seat
    with pytest.raises(ValidationError):  # a full stack buys no rebuy
        services.rebuy(entrant=aki, by=host)
    play(table, "P", {aki_seat: ("banker", 1000)})  # Aki busts
    services.rebuy(entrant=aki, by=host)
    with pytest.raises(ValidationError) as error:
        services.rebuy(entrant=aki, by=host)
    assert messages(error.value) == str(services.MSG_REBUYS_USED).format(guest=aki.guest, count=1)
    services.add_on(entrant=aki, by=host)
    with pytest.raises(ValidationError):
        services.add_on(entrant=aki, by=host)
    stacks = {line.entrant_id: line.stack for line in round_board(round_).lines}
    assert stacks[aki.pk] == Decimal("1500.00")
    assert guest_balance_now(guest_id=aki.guest_id) == Decimal("-110.00")
    kinds = sorted(StackRow.objects.filter(guest=aki.guest).values_list("kind", flat=True))
    assert kinds == ["add_on", "rebuy", "start"]
    play(table, "B")
    play(table, "B")
    ben = Entrant.objects.get(tournament=tournament, guest__name="Ben")
    play(table, "P", {table.seats.get(entrant=ben).seat: ("banker", 1000)})  # hand 4: too late
    with pytest.raises(ValidationError) as error:
        services.rebuy(entrant=ben, by=host)
    assert messages(error.value) == str(services.MSG_NO_REBUYS)


def test_advancement_then_a_final_pays_the_pool_exactly(
    make_tournament, add_round, host, play_round
):
    tournament = make_tournament(prize_table="50%, 30%, 20%", stacks="carried")
    heat = add_round(tournament, hands=2, per_table=2, wildcards=2)
    final = add_round(tournament, hands=2, is_final=True)
    services.round_draw(round_=heat, by=host, seed=1)
    heat = services.round_start(round_=heat, by=host)
    play_round(heat)
    board = round_board(heat)
    assert board.is_done
    # Banker won every hand: seat n staked n*10 twice, so the stacks follow the seats. Top two
    # at each table are seats 7 and 6; the wildcards are the two seat 5s.
    qualifying = sorted((line.table, line.seat) for line in board.lines if line.qualifying)
    assert qualifying == [(1, 5), (1, 6), (1, 7), (2, 5), (2, 6), (2, 7)]
    services.round_close(round_=heat, by=host)
    assert tournament.entrants.filter(out_after_round=1).count() == 8
    services.round_draw(round_=final, by=host, seed=1)
    final = services.round_start(round_=final, by=host)
    carried = {line.entrant_id: line.stack for line in round_board(final).lines}
    stacks_after_heat = {line.entrant_id: line.stack for line in board.lines if line.qualifying}
    assert carried == stacks_after_heat
    play_round(final)
    services.round_close(round_=final, by=host)
    tournament.refresh_from_db()
    assert tournament.is_finished
    cut, pool = services.tournament_pool(tournament)
    assert (cut, pool) == (Decimal("70.00"), Decimal("630.00"))
    prizes = Charge.objects.filter(event=tournament.event, kind=Charge.Kind.PRIZE)
    assert sum(p.amount for p in prizes) == pool
    winners = tournament.entrants.filter(place__isnull=False).order_by("place")
    assert [w.place for w in winners][:3] == [1, 2, 3]
    assert guest_balance_now(guest_id=winners[0].guest_id) == Decimal("265.00")  # 315 - 50
    house = house_rows(Event.objects.filter(pk=tournament.event_id))[0]
    assert house.figures.house_net == cut
    assert ledger_problems() == []


def test_a_tie_across_the_cut_waits_for_the_playoff(make_tournament, add_round, host, play):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"], tie_break="playoff")
    heat = add_round(tournament, hands=1, per_table=1)
    add_round(tournament, hands=1, is_final=True)
    services.round_draw(round_=heat, by=host)
    heat = services.round_start(round_=heat, by=host)
    table = heat.tables.get()
    play(table, "B", {1: ("banker", 100), 2: ("banker", 100)})
    with pytest.raises(ValidationError):
        services.round_close(round_=heat, by=host)
    assert not Entrant.objects.filter(out_after_round=1).exists()
    tied = [line.entrant_id for line in round_board(heat).lines if line.seat in (1, 2)]
    services.round_close(round_=heat, by=host, playoff_order={tied[1]: 1, tied[0]: 2})
    going_on = Entrant.objects.filter(out_after_round__isnull=True)
    assert list(going_on.values_list("pk", flat=True)) == [tied[1]]


def test_the_draw_seats_as_many_a_table_as_the_tournament_says(make_tournament, add_round, host):
    for players, seats, sizes in ((7, 7, [7]), (7, 6, [4, 3]), (9, 9, [9]), (9, 8, [5, 4])):
        names = [f"Player {n}" for n in range(1, players + 1)]
        tournament = make_tournament(players=names, seats_per_table=seats)
        round_ = services.round_draw(round_=add_round(tournament), by=host, seed=3)
        tables = list(round_.tables.select_related("event"))
        assert [table.seats.count() for table in tables] == sizes
        # Each table's page has the tournament's seats, whoever is drawn to it.
        assert {table.event.seats for table in tables} == {seats}


def test_the_seats_and_the_finals_rule_are_fixed_once_a_round_is_drawn(
    make_tournament, add_round, host
):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    round_ = add_round(tournament)
    services.tournament_update(tournament=tournament, by=host, seats_per_table=6)
    services.round_draw(round_=round_, by=host)
    for change in ({"seats_per_table": 7}, {"final_overflow": "playoff"}):
        with pytest.raises(ValidationError, match="Round 1 is drawn") as refused:
            services.tournament_update(tournament=tournament, by=host, **change)
        assert list(refused.value.message_dict) == list(change)
    services.tournament_update(tournament=tournament, by=host, seats_per_table=6, cut_fixed=1)
    with pytest.raises(ValidationError) as refused:
        services.tournament_update(tournament=tournament, by=host, seats_per_table=10)
    assert "seats_per_table" in refused.value.message_dict


def level_heat(make_tournament, add_round, host, play, **settings):
    """14 players at two tables, 2 going on from each, after a hand nobody bet on: everyone
    is level, so split ties would send all 14 on."""
    tournament = make_tournament(tie_break="split", **settings)
    heat = add_round(tournament, hands=1, per_table=2)
    final = add_round(tournament, hands=1, is_final=True)
    services.round_draw(round_=heat, by=host, seed=1)
    heat = services.round_start(round_=heat, by=host)
    for table in heat.tables.all():
        play(table, "B")
    return heat, final


def test_a_final_of_one_table_makes_split_ties_play_off(make_tournament, add_round, host, play):
    heat, final = level_heat(make_tournament, add_round, host, play, final_overflow="playoff")
    board = round_board(heat)
    assert board.overflow_playoff
    assert [len(group) for group in board.playoffs] == [7, 7]
    with pytest.raises(ValidationError, match="play-off"):
        services.round_close(round_=heat, by=host)
    order = {entrant: rank for group in board.playoffs for rank, entrant in enumerate(group, 1)}
    services.round_close(round_=heat, by=host, playoff_order=order)
    final = services.round_draw(round_=final, by=host)
    assert [table.seats.count() for table in final.tables.all()] == [4]


def test_a_second_final_table_takes_the_split_ties(make_tournament, add_round, host, play):
    heat, final = level_heat(make_tournament, add_round, host, play, final_overflow="second")
    assert not round_board(heat).overflow_playoff
    services.round_close(round_=heat, by=host)
    final = services.round_draw(round_=final, by=host)
    assert [table.seats.count() for table in final.tables.all()] == [7, 7]
    final = services.round_start(round_=final, by=host)
    first, second = final.tables.all()
    play(first, "B", {1: ("banker", 100)})
    play(second, "B", {2: ("player", 100)})
    services.round_close(round_=final, by=host)
    places = dict(Entrant.objects.values_list("guest__name", "place"))
    assert places[first.seats.get(seat=1).entrant.guest.name] == 1  # across both tables
    assert places[second.seats.get(seat=2).entrant.guest.name] == 14


def test_a_shoe_of_a_tournament_table_is_its_round(make_tournament, add_round, host):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    night_services.shoe_close(shoe=open_shoe(table), by=host)
    with pytest.raises(ValidationError) as error:
        game_services.shoe_start(event=table.event, by=host)
    assert messages(error.value) == str(game_services.MSG_ONE_SHOE_A_ROUND)
    with pytest.raises(ValidationError) as error:
        game_services.shoe_start(event=tournament.event, by=host)
    assert messages(error.value) == str(game_services.MSG_TOURNAMENT_HAS_TABLES)


def test_a_prize_table_that_does_not_add_up_is_refused_on_its_field(host):
    from datetime import date

    from games.tournament import MSG_SHARES_SUM

    with pytest.raises(ValidationError) as error:
        services.tournament_create(
            name="Cup",
            date=date(2026, 5, 1),
            by=host,
            entry_fee=Decimal(10),
            prize_table="60%, 30%",
        )
    assert error.value.message_dict == {"prize_table": [MSG_SHARES_SUM.format(total=90)]}
    assert not Event.objects.filter(name="Cup").exists()


def test_the_ledger_check_names_a_tournament_result_gone_missing(make_tournament):
    tournament = make_tournament(players=["Aki"])
    GuestEventResult.objects.filter(event=tournament.event).delete()
    problems = ledger_problems()
    assert [p.model for p in problems if p.model == "GuestEventResult"] == ["GuestEventResult"]


def test_a_players_history_counts_the_tournament_money(make_tournament):
    from ledger.money.results import guest_history

    tournament = make_tournament(players=["Aki"])
    aki = tournament.entrants.get().guest
    history = guest_history(aki)
    assert [(p.event.pk, p.result, p.balance) for p in history.points] == [
        (tournament.event_id, Decimal("-50.00"), Decimal("-50.00"))
    ]
    assert history.balance == guest_balance_now(guest_id=aki.pk)


def test_fees_that_would_take_the_pool_past_one_ledger_amount_are_refused(
    make_tournament, add_round, host, play
):
    # Three entries of the largest amount made a prize of 299,999,999,999.97 that no settlement
    # could ever square.
    tournament = make_tournament(players=["Aki"], entry_fee=MAX_CHIPS - 10, cut_percent=0,
                                 rebuy_price=Decimal(20), rebuy_chips=Decimal(1000),
                                 rebuy_rounds=1)  # fmt: skip
    with pytest.raises(ValidationError) as refused:
        services.entrant_add(tournament=tournament, name="Ben", by=host)
    said = str(services.MSG_POOL_FULL).split("{")[0]
    assert messages(refused.value).startswith(said)
    assert not Entrant.objects.filter(tournament=tournament, guest__name="Ben").exists()
    tournament.entry_fee = Decimal(0)
    tournament.save(update_fields=["entry_fee"])
    services.entrant_add(tournament=tournament, name="Ben", by=host)  # a free entry still fits
    round_ = add_round(tournament, hands=4)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = Entrant.objects.get(tournament=tournament, guest__name="Aki")
    play(table, "P", {table.seats.get(entrant=aki).seat: ("banker", 1000)})  # Aki busts
    with pytest.raises(ValidationError) as refused:  # 20 more would pass the maximum
        services.rebuy(entrant=aki, by=host)
    assert messages(refused.value).startswith(said)
    assert event_pools([tournament.event_id])[tournament.event_id].pool <= MAX_CHIPS


def test_a_hand_a_later_rebuy_stood_on_cannot_be_undone_or_corrected(
    make_tournament, add_round, host, play
):
    # Undone and logged again so that the player wins, hand 1 would leave a stack of 2,010 with a
    # rebuy the rules refuse at any stack from 1,000 up.
    tournament = make_tournament(players=["Aki", "Ben"], rebuy_price=Decimal(40),
                                 rebuy_chips=Decimal(1000), rebuy_rounds=1)  # fmt: skip
    round_ = add_round(tournament, hands=4)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = Entrant.objects.get(tournament=tournament, guest__name="Aki")
    play(table, "P", {table.seats.get(entrant=aki).seat: ("banker", 10)})  # 990: under 1,000
    services.rebuy(entrant=aki, by=host)
    shoe = open_shoe(table)
    said = hand_services.MSG_REBUY_RESTS_ON_HAND.format(guest="Aki", after=1, number=1)
    with pytest.raises(ValidationError) as refused:
        hand_services.hand_undo(shoe=shoe, by=host)
    assert messages(refused.value) == said
    hand = shoe.hands.get(number=1)
    with pytest.raises(ValidationError) as refused:
        hand_services.hand_correct(hand=hand, entry=entry(result="B"), reason="misread", by=host)
    assert messages(refused.value) == said
    assert shoe.hands.get(number=1).version == 1
    play(table, "B")  # hand 2, after the rebuy, can still be undone
    hand_services.hand_undo(shoe=shoe, by=host)
    assert shoe.hands.count() == 1


def test_a_round_s_limits_stay_where_a_hand_fits_one_ledger_amount(make_tournament, add_round):
    tournament = make_tournament(players=["Aki", "Ben"])
    with pytest.raises(ValidationError) as refused:
        add_round(tournament, table_max=Decimal("50000000.01"))
    assert "A table limit is at most 50,000,000" in messages(refused.value)
    assert not tournament.rounds.exists()
    assert add_round(tournament, table_max=Decimal(50_000_000)).table_max == 50_000_000
