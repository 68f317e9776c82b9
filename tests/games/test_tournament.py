"""Baccarat tournaments: the draw, who goes on, the places and the prizes (games.tournament)."""

from __future__ import annotations

import random
from decimal import Decimal
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.tournament import (
    MSG_AMBIGUOUS_COMMA,
    MSG_AT_TWO_TABLES,
    MSG_CUT_PERCENT,
    MSG_DRAWN_TWICE,
    MSG_HAND_NUMBER,
    MSG_MONEY_CENTS,
    MSG_NEGATIVE_COUNT,
    MSG_NEGATIVE_ENTRIES,
    MSG_NEGATIVE_MONEY,
    MSG_NEGATIVE_PLAYERS,
    MSG_NEGATIVE_SHARE,
    MSG_NEGATIVE_STACK,
    MSG_NO_OCCUPIED_SEATS,
    MSG_NO_SEATS,
    MSG_NO_SUCH_PLACE,
    MSG_PERCENT_MIXED,
    MSG_PLACE_CENTS,
    MSG_PLACE_NEGATIVE,
    MSG_PLACE_NOT_A_NUMBER,
    MSG_PLACE_PAYS_MORE,
    MSG_PLACE_PERCENT_PRECISION,
    MSG_PLACE_ZERO,
    MSG_PLACED_TWICE,
    MSG_POINTS_MORE,
    MSG_POINTS_NEGATIVE,
    MSG_POINTS_NOT_WHOLE,
    MSG_POINTS_TOO_MANY,
    MSG_PRIZE_TABLE_EMPTY,
    MSG_SHARES_SUM,
    MSG_STANDINGS_ORDER,
    MSG_TOO_MANY_PLACES,
    Advancement,
    Place,
    TieBreak,
    TournamentError,
    advance_by_stack,
    advance_by_table,
    draw_seats,
    first_bet_among,
    first_bet_seat,
    needs_playoff,
    parse_points,
    parse_prize_table,
    places,
    points_for,
    prize_pool,
    prizes,
    table_finished,
    table_sizes,
)

D = Decimal
SPLIT, PLAYOFF = TieBreak.SPLIT, TieBreak.PLAYOFF
FAST = settings(max_examples=150, deadline=None)


def chips(mapping):
    """``{1: 500, 2: 300}`` → the same with Decimal stacks."""
    return {player: D(stack) for player, stack in mapping.items()}


def money(mapping):
    return {player: D(amount) for player, amount in mapping.items()}


def raises(template, call, *args, **kwargs):
    with pytest.raises(TournamentError) as raised:
        call(*args, **kwargs)
    assert raised.value.template == template
    assert isinstance(raised.value, ValueError)
    return raised.value


# --- the draw -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "max_seats", "sizes"),
    [
        (0, 7, []),
        (1, 7, [1]),
        (7, 7, [7]),
        (8, 7, [4, 4]),
        (14, 7, [7, 7]),
        (15, 7, [5, 5, 5]),
        (16, 7, [6, 5, 5]),
        (22, 7, [6, 6, 5, 5]),
        (13, 6, [5, 4, 4]),
        (3, 1, [1, 1, 1]),
    ],
)
def test_table_sizes_are_the_fewest_tables_as_even_as_can_be(players, max_seats, sizes):
    assert table_sizes(players, max_seats) == sizes


def test_table_sizes_refuse_nonsense():
    raises(MSG_NEGATIVE_PLAYERS, table_sizes, -1)
    raises(MSG_NO_SEATS, table_sizes, 5, 0)


def test_the_draw_is_the_seeded_shuffle_of_the_sorted_players():
    rng = random.Random(42)
    pool = list(range(1, 16))
    rng.shuffle(pool)
    expected = [pool[:5], pool[5:10], pool[10:]]
    assert draw_seats(list(range(15, 0, -1)), seed=42) == expected


def test_the_draw_refuses_a_player_twice():
    raises(MSG_DRAWN_TWICE, draw_seats, [1, 2, 2], seed=1)


def test_an_empty_draw_has_no_tables():
    assert draw_seats([], seed=3) == []


@pytest.mark.parametrize(
    ("seats", "hand", "start", "first"),
    [
        ([1, 3, 5], 1, None, 1),
        ([1, 3, 5], 2, None, 3),
        ([1, 3, 5], 3, None, 5),
        ([1, 3, 5], 4, None, 1),
        ([5, 1, 3], 2, None, 3),  # any order: the seats are read in seat order
        ([1, 3, 5], 1, 3, 3),
        ([1, 3, 5], 2, 3, 5),
        ([1, 3, 5], 3, 3, 1),
        ([1, 3, 5], 1, 4, 5),  # seat 4 is empty: the marker starts at the next taken seat
        ([1, 3, 5], 2, 4, 1),
        ([1, 3, 5], 1, 6, 1),  # past the last seat: round to the first
        ([7], 9, None, 7),
    ],
)
def test_the_first_bet_moves_round_the_table(seats, hand, start, first):
    assert first_bet_seat(seats, hand, start=start) == first


@pytest.mark.parametrize(
    ("in_play", "start", "first"),
    [
        ([{1, 2, 3}], None, 1),
        ([{1, 2, 3}, {1, 3}], None, 3),  # seat 2 went out on hand 1: the marker skips it
        ([{1, 2, 3}, {1, 2, 3}, {1, 3}], None, 3),
        ([{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 3}], None, 1),  # 3 had it: round to 1
        ([{1, 2, 3}, {1, 2, 3}, {2, 3}], None, 3),  # seat 1 out: on from seat 2
        ([{1, 2, 3}, {1, 3}, {1, 2, 3}], None, 1),  # back in by a rebuy, after the marker
        ([{2, 4}, {2, 4}], 3, 2),  # starts at the first in play from seat 3
        ([{1, 2}, set()], None, None),  # nobody has chips: nobody bets first
        ([set(), {2, 5}], None, 2),
        ([{5}, {5}, {5}], None, 5),
    ],
)
def test_the_first_bet_skips_players_who_are_out(in_play, start, first):
    assert first_bet_among(in_play, start=start) == first


@FAST
@given(st.sets(st.integers(1, 9), min_size=2), st.integers(1, 30), st.data())
def test_the_marker_never_lands_on_a_player_who_is_out(seats, hands, data):
    in_play = [data.draw(st.sets(st.sampled_from(sorted(seats)), min_size=1)) for _ in range(hands)]
    assert first_bet_among(in_play) in in_play[-1]
    if all(hand == set(seats) for hand in in_play):
        assert first_bet_among(in_play) == first_bet_seat(list(seats), hands)


@pytest.mark.parametrize(
    ("stacks", "played", "hands", "finished"),
    [
        ([100, 200, 0], 3, 14, False),
        ([100, 0, 0], 3, 14, True),  # the last player standing
        ([0, 0], 3, 14, True),
        ([100, 200], 14, 14, True),
        ([100, 200], 13, 14, False),
    ],
)
def test_a_table_ends_after_its_last_hand_or_its_last_player_standing(
    stacks, played, hands, finished
):
    amounts = [Decimal(stack) for stack in stacks]
    assert table_finished(amounts, played=played, hands=hands) is finished


def test_the_first_bet_needs_a_seat_and_a_hand():
    raises(MSG_NO_OCCUPIED_SEATS, first_bet_seat, [], 1)
    raises(MSG_HAND_NUMBER, first_bet_seat, [1, 2], 0)


@FAST
@given(
    st.sets(st.integers(-1000, 1000), max_size=40),
    st.integers(0, 2**32),
    st.integers(1, 9),
    st.randoms(use_true_random=False),
)
def test_the_draw_seats_everyone_once_evenly_and_the_same_way_each_time(
    players, seed, max_seats, rng
):
    tables = draw_seats(sorted(players), seed=seed, max_seats=max_seats)
    seated = [player for table in tables for player in table]
    assert sorted(seated) == sorted(players)
    sizes = [len(table) for table in tables]
    assert sizes == table_sizes(len(players), max_seats)
    assert all(0 < size <= max_seats for size in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert len(tables) == -(-len(players) // max_seats)
    shuffled = list(players)
    rng.shuffle(shuffled)
    assert draw_seats(shuffled, seed=seed, max_seats=max_seats) == tables


@FAST
@given(st.sets(st.integers(1, 7), min_size=1), st.none() | st.integers(0, 9))
def test_the_first_bet_comes_to_every_seat_once_a_round(seats, start):
    rounds = len(seats)
    firsts = [first_bet_seat(list(seats), hand, start=start) for hand in range(1, rounds + 2)]
    assert sorted(firsts[:rounds]) == sorted(seats)
    assert firsts[rounds] == firsts[0]
    order = sorted(seats)
    for this, after in pairwise(firsts):
        assert order.index(after) == (order.index(this) + 1) % rounds


# --- who goes on --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tables", "per_table", "wildcards", "tie_break", "order", "expected"),
    [
        # The top of each table, then the best of the rest; a stack of 0 is out.
        (
            [{1: 500, 2: 300, 3: 200, 4: 0}, {5: 400, 6: 350, 7: 100}],
            1,
            2,
            SPLIT,
            None,
            Advancement((1, 5, 6, 2), (6, 2)),
        ),
        # A tie at a table's cut: SPLIT sends both on, PLAYOFF asks for a play-off.
        ([{1: 500, 2: 500, 3: 100}], 1, 0, SPLIT, None, Advancement((1, 2))),
        ([{1: 500, 2: 500, 3: 100}], 1, 0, PLAYOFF, None, Advancement((), (), ((1, 2),), (1,))),
        ([{1: 500, 2: 500, 3: 100}], 1, 0, PLAYOFF, {2: 1, 1: 2}, Advancement((2,))),
        # SPLIT never reads a play-off order.
        ([{1: 500, 2: 500, 3: 100}], 1, 0, SPLIT, {2: 1, 1: 2}, Advancement((1, 2))),
        # While a table's play-off is pending, no wildcard is given.
        (
            [{1: 500, 2: 500, 3: 100}, {4: 300, 5: 200}],
            1,
            1,
            PLAYOFF,
            None,
            Advancement((4,), (), ((1, 2),), (1,)),
        ),
        # Its order also ranks the loser for the wildcards (2 beats 5 and 3 by stack anyway).
        (
            [{1: 500, 2: 500, 3: 100}, {4: 300, 5: 200}],
            1,
            1,
            PLAYOFF,
            {1: 1, 2: 2},
            Advancement((1, 2, 4), (2,)),
        ),
        # A tie at the wildcard cut.
        (
            [{1: 500, 2: 300}, {3: 400, 4: 300}],
            1,
            1,
            SPLIT,
            None,
            Advancement((1, 3, 2, 4), (2, 4)),
        ),
        (
            [{1: 500, 2: 300}, {3: 400, 4: 300}],
            1,
            1,
            PLAYOFF,
            None,
            Advancement((1, 3), (), ((2, 4),), (1,)),
        ),
        (
            [{1: 500, 2: 300}, {3: 400, 4: 300}],
            1,
            1,
            PLAYOFF,
            {4: 1, 2: 2},
            Advancement((1, 3, 4), (4,)),
        ),
        # The table play-off's ranks order its losers for the wildcards too.
        (
            [{1: 100, 2: 100, 3: 100}, {4: 50}],
            1,
            1,
            PLAYOFF,
            {3: 1, 1: 2, 2: 3},
            Advancement((3, 1, 4), (1,)),
        ),
        # Zeros are out, even tied, even for wildcards.
        ([{1: 0, 2: 0}, {3: 100}], 1, 2, PLAYOFF, None, Advancement((3,))),
        # An order that leaves someone out, or ties at the cut, does not settle the group.
        (
            [{1: 100, 2: 100, 3: 100}],
            2,
            0,
            PLAYOFF,
            {1: 1, 2: 2},
            Advancement((), (), ((1, 2, 3),), (2,)),
        ),
        (
            [{1: 100, 2: 100, 3: 100}],
            2,
            0,
            PLAYOFF,
            {1: 1, 2: 2, 3: 2},
            Advancement((), (), ((1, 2, 3),), (2,)),
        ),
        ([{1: 100, 2: 100, 3: 100}], 2, 0, PLAYOFF, {1: 1, 2: 2, 3: 3}, Advancement((1, 2))),
        # Equal ranks inside the cut are fine.
        ([{1: 100, 2: 100, 3: 100}], 2, 0, PLAYOFF, {1: 1, 2: 1, 3: 3}, Advancement((1, 2))),
        # A tie inside the cut needs no play-off.
        ([{1: 100, 2: 100, 3: 50}], 2, 0, PLAYOFF, None, Advancement((1, 2))),
        # Fewer players than places: all who have chips go on.
        ([{1: 100, 2: 100}, {}], 3, 4, PLAYOFF, None, Advancement((1, 2))),
        # Nobody goes on by table: everyone is a wildcard.
        ([{1: 100, 2: 90}, {3: 95}], 0, 2, SPLIT, None, Advancement((1, 3), (1, 3))),
    ],
)
def test_advance_by_table(tables, per_table, wildcards, tie_break, order, expected):
    result = advance_by_table(
        [chips(table) for table in tables],
        per_table=per_table,
        wildcards=wildcards,
        tie_break=tie_break,
        playoff_order=order,
    )
    assert result == expected
    assert result.settled == (not expected.playoffs)


def test_advance_by_table_refuses_nonsense():
    kwargs = {"per_table": 1, "wildcards": 0, "tie_break": SPLIT}
    raises(MSG_AT_TWO_TABLES, advance_by_table, [chips({1: 5}), chips({1: 6})], **kwargs)
    raises(MSG_NEGATIVE_STACK, advance_by_table, [chips({1: -5})], **kwargs)
    raises(MSG_NEGATIVE_COUNT, advance_by_table, [], per_table=-1, wildcards=0, tie_break=SPLIT)
    raises(MSG_NEGATIVE_COUNT, advance_by_table, [], per_table=1, wildcards=-1, tie_break=SPLIT)


@pytest.mark.parametrize(
    ("keep", "tie_break", "order", "expected"),
    [
        (2, SPLIT, None, Advancement((1, 2, 3))),
        (2, PLAYOFF, None, Advancement((1,), (), ((2, 3),), (1,))),
        (2, PLAYOFF, {3: 1, 2: 2}, Advancement((1, 3))),
        (3, PLAYOFF, None, Advancement((1, 2, 3))),
        (5, SPLIT, None, Advancement((1, 2, 3, 4))),  # 5 has no chips left
        (0, SPLIT, None, Advancement(())),
    ],
)
def test_advance_by_stack(keep, tie_break, order, expected):
    stacks = chips({1: 300, 2: 200, 3: 200, 4: 100, 5: 0})
    result = advance_by_stack(stacks, keep=keep, tie_break=tie_break, playoff_order=order)
    assert result == expected


def test_advance_by_stack_refuses_nonsense():
    raises(MSG_NEGATIVE_COUNT, advance_by_stack, {}, keep=-1, tie_break=SPLIT)
    raises(MSG_NEGATIVE_STACK, advance_by_stack, chips({1: -1}), keep=1, tie_break=SPLIT)


# Few distinct stacks, so ties and zeros are common.
STACK = st.sampled_from([0, 0, 50, 100, 150, 200, 250]).map(D)
SEATED = st.dictionaries(st.integers(1, 60), st.tuples(st.integers(0, 3), STACK), max_size=28)


def split_tables(seated):
    tables = [{} for _ in range(4)]
    for player, (table, stack) in seated.items():
        tables[table][player] = stack
    return tables


def table_stage(result):
    return set(result.qualified) - set(result.wildcards)


def check_advancement(result, stacks):
    assert len(set(result.qualified)) == len(result.qualified)
    assert set(result.wildcards) <= set(result.qualified)
    assert all(stacks[player] > 0 for player in result.qualified)
    shown = [stacks[player] for player in result.qualified]
    assert shown == sorted(shown, reverse=True)
    for group in result.playoffs:
        assert not set(group) & set(result.qualified)
        assert len({stacks[player] for player in group}) == 1
        assert list(group) == sorted(group)
    assert len(result.playoff_places) == len(result.playoffs)
    for group, open_places in zip(result.playoffs, result.playoff_places, strict=True):
        assert 0 < open_places < len(group)


@FAST
@given(SEATED, st.integers(0, 4), st.integers(0, 5))
def test_splitting_ties_never_parts_equal_stacks(seated, per_table, wildcards):
    tables = split_tables(seated)
    stacks = {player: stack for player, (_table, stack) in seated.items()}
    result = advance_by_table(tables, per_table=per_table, wildcards=wildcards, tie_break=SPLIT)
    check_advancement(result, stacks)
    assert result.settled
    by_table = table_stage(result)
    for table in tables:
        for one in table:
            for other in table:
                if table[one] == table[other]:
                    assert (one in by_table) == (other in by_table)
    rest = [p for p in stacks if p not in by_table and stacks[p] > 0]
    for one in rest:
        for other in rest:
            if stacks[one] == stacks[other]:
                assert (one in result.wildcards) == (other in result.wildcards)
    # Nobody is left out who has a bigger stack than someone who went on by the same cut.
    for table in tables:
        made = [table[p] for p in table if p in by_table]
        missed = [table[p] for p in table if p not in by_table]
        assert not made or not missed or min(made) > max(missed)
    wild = [stacks[p] for p in result.wildcards]
    missed = [stacks[p] for p in rest if p not in result.wildcards]
    assert not wild or not missed or min(wild) > max(missed)


@FAST
@given(
    st.dictionaries(
        st.integers(1, 60), st.tuples(st.integers(0, 3), st.integers(0, 10**6)), max_size=28
    ),
    st.integers(0, 4),
    st.integers(0, 5),
    st.sampled_from(TieBreak),
)
def test_without_ties_the_counts_are_exact(seated, per_table, wildcards, tie_break):
    # Distinct stacks (the id breaks any tie); a stack of 0 stays 0.
    seated = {
        player: (table, D(stack * 100 + player) if stack else D(0))
        for player, (table, stack) in seated.items()
    }
    tables = split_tables(seated)
    result = advance_by_table(tables, per_table=per_table, wildcards=wildcards, tie_break=tie_break)
    still_in = [sum(1 for stack in table.values() if stack > 0) for table in tables]
    by_table = sum(min(per_table, count) for count in still_in)
    rest = sum(still_in) - by_table
    assert result.settled
    assert len(table_stage(result)) == by_table
    assert len(result.wildcards) == min(wildcards, rest)
    assert len(result.qualified) == by_table + min(wildcards, rest)


@FAST
@given(SEATED, st.integers(0, 4), st.integers(0, 5))
def test_playoffs_hold_exactly_the_players_tied_across_a_cut(seated, per_table, wildcards):
    tables = split_tables(seated)
    stacks = {player: stack for player, (_table, stack) in seated.items()}
    result = advance_by_table(tables, per_table=per_table, wildcards=wildcards, tie_break=PLAYOFF)
    check_advancement(result, stacks)
    split = advance_by_table(tables, per_table=per_table, wildcards=wildcards, tie_break=SPLIT)
    at_table_cut = []
    for table in tables:
        line = sorted((s for s in table.values() if s > 0), reverse=True)
        if 0 < per_table < len(line) and line[per_table - 1] == line[per_table]:
            tied = tuple(sorted(p for p in table if table[p] == line[per_table]))
            above = sum(1 for s in line if s > line[per_table])
            at_table_cut.append((tied, per_table - above))
    if at_table_cut:
        assert list(zip(result.playoffs, result.playoff_places, strict=True)) == at_table_cut
        assert result.wildcards == ()
        # Everyone else SPLIT sends on by table goes on by table.
        tied = {player for group, _places in at_table_cut for player in group}
        assert set(result.qualified) == table_stage(split) - tied
        return
    assert table_stage(result) == table_stage(split)
    by_table = table_stage(result)
    rest = sorted((s for p, s in stacks.items() if p not in by_table and s > 0), reverse=True)
    if 0 < wildcards < len(rest) and rest[wildcards - 1] == rest[wildcards]:
        line = rest[wildcards]
        group = tuple(sorted(p for p, s in stacks.items() if p not in by_table and s == line))
        above = sum(1 for s in rest if s > line)
        assert result.playoffs == (group,)
        assert result.playoff_places == (wildcards - above,)
    else:
        assert result == split


@FAST
@given(SEATED, st.integers(0, 4), st.integers(0, 5), st.randoms(use_true_random=False))
def test_a_full_playoff_order_settles_every_cut(seated, per_table, wildcards, rng):
    tables = split_tables(seated)
    players = list(seated)
    rng.shuffle(players)
    order = {player: rank for rank, player in enumerate(players, start=1)}
    result = advance_by_table(
        tables, per_table=per_table, wildcards=wildcards, tie_break=PLAYOFF, playoff_order=order
    )
    assert result.settled
    still_in = [sum(1 for stack in table.values() if stack > 0) for table in tables]
    by_table = sum(min(per_table, count) for count in still_in)
    assert len(table_stage(result)) == by_table
    assert len(result.wildcards) == min(wildcards, sum(still_in) - by_table)
    # Between equal stacks, the better rank goes on.
    for table in tables:
        for one in table:
            for other in table:
                if table[one] == table[other] and order[one] < order[other]:
                    assert one in table_stage(result) or other not in table_stage(result)


@FAST
@given(st.dictionaries(st.integers(1, 60), STACK, max_size=28), st.integers(0, 10))
def test_advance_by_stack_keeps_the_biggest(stacks, keep):
    split = advance_by_stack(stacks, keep=keep, tie_break=SPLIT)
    check_advancement(split, stacks)
    still_in = sorted((s for s in stacks.values() if s > 0), reverse=True)
    if keep < len(still_in):
        assert len(split.qualified) >= keep
        line = still_in[keep - 1] if keep else None
        assert {stacks[p] for p in split.qualified} == {s for s in still_in if keep and s >= line}
    else:
        assert len(split.qualified) == len(still_in)
    playoff = advance_by_stack(stacks, keep=keep, tie_break=PLAYOFF)
    check_advancement(playoff, stacks)
    if playoff.playoffs:
        (group,) = playoff.playoffs
        line = stacks[group[0]]
        assert group == tuple(sorted(p for p in stacks if stacks[p] == line))
        assert len(playoff.qualified) + playoff.playoff_places[0] == keep
    else:
        assert playoff.qualified == split.qualified


# --- the final table ----------------------------------------------------------------------


FINAL = {1: 500, 2: 300, 3: 300, 4: 100}


@pytest.mark.parametrize(
    ("stacks", "tie_break", "order", "expected"),
    [
        (FINAL, SPLIT, None, [Place(1, (1,)), Place(2, (2, 3)), Place(4, (4,))]),
        (FINAL, PLAYOFF, None, [Place(1, (1,)), Place(2, (2, 3)), Place(4, (4,))]),
        (
            FINAL,
            PLAYOFF,
            {3: 1, 2: 2},
            [Place(1, (1,)), Place(2, (3,)), Place(3, (2,)), Place(4, (4,))],
        ),
        (FINAL, SPLIT, {3: 1, 2: 2}, [Place(1, (1,)), Place(2, (2, 3)), Place(4, (4,))]),
        (FINAL, PLAYOFF, {2: 1}, [Place(1, (1,)), Place(2, (2, 3)), Place(4, (4,))]),
        ({1: 100, 2: 100, 3: 100}, PLAYOFF, {1: 1, 2: 2, 3: 2}, [Place(1, (1,)), Place(2, (2, 3))]),
        ({1: 100, 2: 0, 3: 0}, SPLIT, None, [Place(1, (1,)), Place(2, (2, 3))]),
        ({}, SPLIT, None, []),
    ],
)
def test_places(stacks, tie_break, order, expected):
    assert places(chips(stacks), tie_break=tie_break, playoff_order=order) == expected


def test_needs_playoff_lists_equal_stacks_biggest_first():
    stacks = chips({7: 50, 6: 100, 1: 500, 3: 300, 2: 300, 4: 100, 5: 100})
    assert needs_playoff(stacks) == [(2, 3), (4, 5, 6)]
    assert needs_playoff(chips({1: 10, 2: 20})) == []


def test_places_refuse_a_negative_stack():
    raises(MSG_NEGATIVE_STACK, places, chips({1: -1}), tie_break=SPLIT)


def check_standings(standings, stacks):
    assert sorted(p for place in standings for p in place.players) == sorted(stacks)
    expected = 1
    for place in standings:
        assert place.place == expected
        assert list(place.players) == sorted(place.players)
        expected += len(place.players)
    shown = [stacks[place.players[0]] for place in standings]
    assert shown == sorted(shown, reverse=True)
    for place in standings:
        assert len({stacks[p] for p in place.players}) == 1


@FAST
@given(st.dictionaries(st.integers(1, 60), STACK, max_size=20), st.randoms(use_true_random=False))
def test_places_follow_the_stacks(stacks, rng):
    split = places(stacks, tie_break=SPLIT)
    check_standings(split, stacks)
    for place in split:
        for player in place.players:
            assert place.place == 1 + sum(1 for s in stacks.values() if s > stacks[player])
    assert [place.players for place in split if len(place.players) > 1] == needs_playoff(stacks)
    assert places(stacks, tie_break=PLAYOFF) == split
    players = list(stacks)
    rng.shuffle(players)
    order = {player: rank for rank, player in enumerate(players)}
    played_off = places(stacks, tie_break=PLAYOFF, playoff_order=order)
    check_standings(played_off, stacks)
    assert all(len(place.players) == 1 for place in played_off)
    for better, worse in pairwise(played_off):
        (one,), (other,) = better.players, worse.players
        assert stacks[one] > stacks[other] or order[one] < order[other]


# --- the prize pool -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("paid_in", "entries", "percent", "fixed", "expected"),
    [
        ("1000.00", 10, "10", "5.00", ("150.00", "850.00")),
        ("333.33", 3, "10", "0", ("33.33", "300.00")),
        ("0.05", 1, "50", "0", ("0.03", "0.02")),  # half-up to the cent
        ("100", 10, "0", "20", ("100.00", "0.00")),  # never more than was paid in
        ("100", 10, "100", "0", ("100.00", "0.00")),
        ("0", 0, "10", "5", ("0.00", "0.00")),
        ("250", 5, "12.5", "1.50", ("38.75", "211.25")),
    ],
)
def test_prize_pool(paid_in, entries, percent, fixed, expected):
    result = prize_pool(
        paid_in=D(paid_in), entries=entries, cut_percent=D(percent), cut_fixed_per_entry=D(fixed)
    )
    assert result == (D(expected[0]), D(expected[1]))
    assert all(str(amount) == text for amount, text in zip(result, expected, strict=True))


@pytest.mark.parametrize(
    ("kwargs", "template"),
    [
        ({"paid_in": D("-1")}, MSG_NEGATIVE_MONEY),
        ({"paid_in": D("1.005")}, MSG_MONEY_CENTS),
        ({"cut_fixed_per_entry": D("-1")}, MSG_NEGATIVE_MONEY),
        ({"entries": -1}, MSG_NEGATIVE_ENTRIES),
        ({"cut_percent": D("100.01")}, MSG_CUT_PERCENT),
        ({"cut_percent": D("-1")}, MSG_CUT_PERCENT),
    ],
)
def test_prize_pool_refuses_nonsense(kwargs, template):
    given_ = {"paid_in": D(100), "entries": 1, "cut_percent": D(10), "cut_fixed_per_entry": D(0)}
    raises(template, prize_pool, **(given_ | kwargs))


def one_each(*players):
    return [Place(place, (player,)) for place, player in enumerate(players, start=1)]


@pytest.mark.parametrize(
    ("pool", "shares", "standings", "expected"),
    [
        ("1000.00", [50, 30, 20], one_each(1, 2, 3), {1: "500", 2: "300", 3: "200"}),
        # 3.5 + 2.1 + 1.4 cents, rounded down: 3 + 2 + 1, and the cent left over to 1st.
        ("0.07", [50, 30, 20], one_each(1, 2, 3), {1: "0.04", 2: "0.02", 3: "0.01"}),
        ("100.01", [60, 40], one_each(1, 2), {1: "60.01", 2: "40.00"}),
        (
            "100",
            ["33.34", "33.33", "33.33"],
            one_each(1, 2, 3),
            {1: "33.34", 2: "33.33", 3: "33.33"},
        ),
        # Three tied for 2nd share 2nd, 3rd and 4th.
        (
            "1000",
            [40, 30, 20, 10],
            [Place(1, (1,)), Place(2, (3, 4, 5))],
            {1: "400", 3: "200", 4: "200", 5: "200"},
        ),
        # Two tied for 1st share 5.01 + 2.50 = 7.51: the odd cent to the lower entrant number.
        (
            "10.01",
            [50, 25, 25],
            [Place(1, (3, 7)), Place(3, (9,))],
            {3: "3.76", 7: "3.75", 9: "2.50"},
        ),
        # Fewer players than paid places: 3rd's 200 goes to 1st.
        ("1000", [50, 30, 20], one_each(1, 2), {1: "700", 2: "300"}),
        ("1000", [50, 30, 20], [Place(1, (1, 2))], {1: "500", 2: "500"}),
        # Past the end of the table nothing is won, but everyone is listed.
        ("1000", [70, 30], one_each(4, 5, 6), {4: "700", 5: "300", 6: "0"}),
        # A tie across the last paid place shares what there is.
        ("1000", [60, 40], [Place(1, (1,)), Place(2, (2, 3))], {1: "600", 2: "200", 3: "200"}),
        ("0", [100], one_each(1, 2), {1: "0", 2: "0"}),
        ("1000", [100], [], {}),
    ],
)
def test_prizes_by_percentage(pool, shares, standings, expected):
    won = prizes(D(pool), [D(share) for share in shares], standings)
    assert won == money(expected)
    assert list(won) == [player for place in standings for player in place.players]
    assert all(amount.as_tuple().exponent == -2 for amount in won.values())


@pytest.mark.parametrize(
    ("shares", "standings", "expected"),
    [
        (["500", "300", "200"], one_each(1, 2, 3), {1: "500", 2: "300", 3: "200"}),
        # Places nobody reached are not paid.
        (["500", "300", "200"], one_each(1, 2), {1: "500", 2: "300"}),
        (["1000"], [Place(1, (5, 2, 9))], {2: "333.34", 5: "333.33", 9: "333.33"}),
        (["500", "300"], [Place(1, (1,)), Place(2, (2, 3))], {1: "500", 2: "150", 3: "150"}),
    ],
)
def test_prizes_by_amount(shares, standings, expected):
    won = prizes(D("1"), [D(share) for share in shares], standings, by_amount=True)
    assert won == money(expected)


@pytest.mark.parametrize(
    ("shares", "standings", "by_amount", "template"),
    [
        (["50", "40"], one_each(1), False, MSG_SHARES_SUM),
        (["110", "-10"], one_each(1), False, MSG_NEGATIVE_SHARE),
        (["10", "-1"], one_each(1), True, MSG_NEGATIVE_SHARE),
        (["10.001"], one_each(1), True, MSG_MONEY_CENTS),
        (["100"], [Place(1, (1,)), Place(3, (2,))], False, MSG_STANDINGS_ORDER),
        (["100"], [Place(2, (1,))], False, MSG_STANDINGS_ORDER),
        (["100"], [Place(1, ())], False, MSG_STANDINGS_ORDER),
        (["100"], [Place(1, (1,)), Place(2, (1,))], False, MSG_PLACED_TWICE),
    ],
)
def test_prizes_refuse_nonsense(shares, standings, by_amount, template):
    shares = [D(share) for share in shares]
    raises(template, prizes, D(100), shares, standings, by_amount=by_amount)


def test_prizes_refuse_a_pool_in_fractions_of_a_cent():
    raises(MSG_MONEY_CENTS, prizes, D("10.001"), [D(100)], one_each(1))


@st.composite
def percent_tables(draw):
    """Shares in hundredths of a percent, adding up to 100, best place first."""
    cuts = draw(st.lists(st.integers(0, 10_000), max_size=9))
    edges = [0, *sorted(cuts), 10_000]
    shares = sorted((b - a for a, b in pairwise(edges)), reverse=True)
    return [D(share).scaleb(-2) for share in shares]


@st.composite
def standings_of(draw):
    stacks = draw(st.dictionaries(st.integers(1, 40), STACK, min_size=1, max_size=15))
    return places(stacks, tie_break=SPLIT)


def check_prizes(won, standings):
    assert list(won) == [player for place in standings for player in place.players]
    assert all(amount >= 0 and amount.as_tuple().exponent == -2 for amount in won.values())
    for place in standings:
        amounts = [won[player] for player in place.players]
        assert max(amounts) - min(amounts) <= D("0.01")
        # The odd cents go to the lowest entrant numbers.
        by_registration = [won[player] for player in sorted(place.players)]
        assert by_registration == sorted(by_registration, reverse=True)
    for better, worse in pairwise(standings):
        assert min(won[p] for p in better.players) >= max(won[p] for p in worse.players)


@FAST
@given(st.integers(0, 10**12), percent_tables(), standings_of())
def test_prizes_pay_the_pool_exactly(pool_cents, shares, standings):
    pool = D(pool_cents).scaleb(-2)
    won = prizes(pool, shares, standings)
    assert sum(won.values()) == pool
    check_prizes(won, standings)


@FAST
@given(
    st.lists(st.integers(0, 10**8), min_size=1, max_size=10).map(lambda cents: sorted(cents)),
    standings_of(),
)
def test_prizes_by_amount_pay_the_places_reached(cents, standings):
    shares = [D(amount).scaleb(-2) for amount in reversed(cents)]
    won = prizes(D(0), shares, standings, by_amount=True)
    reached = sum(len(place.players) for place in standings)
    assert sum(won.values()) == sum(shares[:reached])
    check_prizes(won, standings)


# --- reading the tables -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shares", "by_amount"),
    [
        ("50%, 30%, 20%", ["50", "30", "20"], False),
        ("50% 30% 20%", ["50", "30", "20"], False),
        ("50 %, 30 %, 20 %", ["50", "30", "20"], False),
        ("50%;30%;20%", ["50", "30", "20"], False),
        ("33.34% 33.33% 33.33%", ["33.34", "33.33", "33.33"], False),
        ("87.5%,12.5%", ["87.5", "12.5"], False),
        ("１００％", ["100"], False),
        ("100%", ["100"], False),
        ("500, 300, 200", ["500", "300", "200"], True),
        ("500 300 200", ["500", "300", "200"], True),
        ("  1000;  500.50 \n 250 ", ["1000", "500.50", "250"], True),
        ("50,30,20", ["50", "30", "20"], True),  # amounts: no "%"
        ("500, 500", ["500", "500"], True),  # equal places are fine
    ],
)
def test_parse_prize_table(text, shares, by_amount):
    assert parse_prize_table(text) == ([D(share) for share in shares], by_amount)


@pytest.mark.parametrize(
    ("text", "template", "params"),
    [
        ("", MSG_PRIZE_TABLE_EMPTY, {}),
        (" ,  ", MSG_PRIZE_TABLE_EMPTY, {}),
        ("50%, 30, 20%", MSG_PERCENT_MIXED, {"place": 2, "text": "30"}),
        ("50, 30%", MSG_PERCENT_MIXED, {"place": 2, "text": "30%"}),
        ("50, abc", MSG_PLACE_NOT_A_NUMBER, {"place": 2, "text": "abc"}),
        ("$500, 300", MSG_PLACE_NOT_A_NUMBER, {"place": 1, "text": "$500"}),
        ("1e3", MSG_PLACE_NOT_A_NUMBER, {"place": 1, "text": "1e3"}),
        ("%", MSG_PLACE_NOT_A_NUMBER, {"place": 1, "text": "%"}),
        ("50, -10", MSG_PLACE_NEGATIVE, {"place": 2, "text": "-10"}),
        ("50, 0", MSG_PLACE_ZERO, {"place": 2}),
        ("0%", MSG_PLACE_ZERO, {"place": 1}),
        ("50.005", MSG_PLACE_CENTS, {"place": 1, "text": "50.005"}),
        ("33.334% 33.333% 33.333%", MSG_PLACE_PERCENT_PRECISION, {"place": 1, "text": "33.334%"}),
        ("30%, 70%", MSG_PLACE_PAYS_MORE, {"place": 2, "better": 1}),
        ("50%, 40%", MSG_SHARES_SUM, {"total": "90"}),
        ("60%, 50%", MSG_SHARES_SUM, {"total": "110"}),
        ("50.5%, 49%", MSG_SHARES_SUM, {"total": "99.5"}),
        ("500,300,200", MSG_AMBIGUOUS_COMMA, {"text": "500,300"}),
        ("1,000, 500", MSG_AMBIGUOUS_COMMA, {"text": "1,000"}),
        ("1 " * 51, MSG_TOO_MANY_PLACES, {"limit": 50, "count": 51}),
    ],
)
def test_parse_prize_table_says_what_is_wrong(text, template, params):
    error = raises(template, parse_prize_table, text)
    assert error.params == params


def test_fifty_places_is_the_most():
    shares, by_amount = parse_prize_table("2% " * 50)
    assert len(shares) == 50 and not by_amount


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("10, 7, 5, 3", [10, 7, 5, 3]),
        ("10 7 5 0", [10, 7, 5, 0]),
        ("25;18;15", [25, 18, 15]),
        ("", []),
        ("１０，５", [10, 5]),
        ("1000000", [1_000_000]),
    ],
)
def test_parse_points(text, points):
    assert parse_points(text) == points


@pytest.mark.parametrize(
    ("text", "template", "params"),
    [
        ("10, x", MSG_POINTS_NOT_WHOLE, {"place": 2, "text": "x"}),
        ("10, 2.5", MSG_POINTS_NOT_WHOLE, {"place": 2, "text": "2.5"}),
        ("10, -1", MSG_POINTS_NEGATIVE, {"place": 2, "text": "-1"}),
        ("5, 7", MSG_POINTS_MORE, {"place": 2, "better": 1}),
        ("2000000", MSG_POINTS_TOO_MANY, {"place": 1, "limit": 1_000_000, "text": "2000000"}),
        ("9" * 5000, MSG_POINTS_TOO_MANY, {"place": 1, "limit": 1_000_000, "text": "9" * 5000}),
        ("1,000", MSG_AMBIGUOUS_COMMA, {"text": "1,000"}),
    ],
)
def test_parse_points_says_what_is_wrong(text, template, params):
    error = raises(template, parse_points, text)
    assert error.params == params


@pytest.mark.parametrize(("place", "points"), [(1, 10), (2, 7), (3, 0), (50, 0)])
def test_points_for(place, points):
    assert points_for(place, [10, 7]) == points


def test_points_for_needs_a_place():
    raises(MSG_NO_SUCH_PLACE, points_for, 0, [10])


def test_error_messages_read_in_english():
    error = raises(MSG_PLACE_PAYS_MORE, parse_prize_table, "30%, 70%")
    assert str(error) == "Place 2 pays more than place 1."
    assert TieBreak.PLAYOFF.label == "Play off ties"
