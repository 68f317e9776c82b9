from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.roads import (
    ROWS,
    Colour,
    HandMark,
    bead_plate,
    big_road,
    derived_road,
    place,
    predictions,
    shoe_stats,
    window_start,
)
from games.rules import Winner
from games.shoe import Shoe

R, B_ = Colour.RED, Colour.BLUE
SIDES = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}


def marks(results: str, **flags: set[int]) -> list[HandMark]:
    pp, bp, nat = flags.get("pp", set()), flags.get("bp", set()), flags.get("nat", set())
    return [
        HandMark(n, SIDES[r], player_pair=n in pp, banker_pair=n in bp, natural=n in nat)
        for n, r in enumerate(results, start=1)
    ]


def positions(cells) -> list[tuple[int, int]]:
    return [(cell.col, cell.row) for cell in cells]


def test_the_bead_plate_fills_columns_top_to_bottom():
    assert positions(bead_plate(marks("BPTBPBBP"))) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (1, 0),
        (1, 1),
    ]


def test_a_streak_longer_than_six_turns_right_along_the_bottom():
    road = big_road(marks("BBBBBBBBPP"))
    assert positions(road) == [
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (0, 5),
        (1, 5),
        (2, 5),
        (1, 0),
        (1, 1),
    ]


def test_a_streak_blocked_by_an_earlier_tail_turns_where_it_is_blocked():
    road = big_road(marks("BBBBBBBB" + "PPPPPP"))
    assert positions(road)[8:] == [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4)]


def test_ties_count_on_the_mark_before_them_and_before_any_result():
    road = big_road(marks("BTTTPT"))
    assert [(c.winner, c.ties) for c in road] == [(Winner.BANKER, 3), (Winner.PLAYER, 1)]
    leading = big_road(marks("TTB"))
    assert [(c.winner, c.ties, c.tie_hands) for c in leading] == [(Winner.BANKER, 2, [1, 2])]
    only = big_road(marks("TT"))
    assert [(c.col, c.row, c.winner, c.ties) for c in only] == [(0, 0, None, 2)]


def test_pairs_and_naturals_stay_on_their_marks():
    road = big_road(marks("BPP", pp={2}, bp={3}, nat={1}))
    assert [(c.hand.player_pair, c.hand.banker_pair, c.hand.natural) for c in road] == [
        (False, False, True),
        (True, False, False),
        (False, True, False),
    ]


@pytest.mark.parametrize(
    ("results", "offset", "expected"),
    [
        ("BP", 1, []),  # Big Eye Boy has not started
        ("BPP", 1, [B_]),  # starts at the second column's second entry
        ("BPB", 1, [R]),  # or the third column's first
        ("BPB", 2, []),
        ("BPBB", 2, [B_]),  # Small Road: third column's second entry
        ("BPBP", 2, [R]),  # or the fourth column's first
        ("BPBP", 3, []),
        ("BPBPP", 3, [B_]),  # Cockroach Pig: fourth column's second entry
        ("BPBPB", 3, [R]),  # or the fifth column's first
    ],
)
def test_where_each_derived_road_starts(results, offset, expected):
    assert derived_road(marks(results), offset) == expected


def test_derived_roads_of_a_hand_worked_sequence():
    # Big road columns: B | P | B B | P P P | B B
    hands = marks("BPBBPPPBB")
    assert derived_road(hands, 1) == [R, B_, B_, R, B_, B_, R]
    assert derived_road(hands, 2) == [B_, B_, B_, R, B_, R]
    assert derived_road(hands, 3) == [B_, R, B_, B_]
    assert derived_road(marks("BTPTBBTT"), 1) == derived_road(marks("BPBB"), 1)  # ties ignored


def test_predictions_are_the_marks_the_next_banker_or_player_would_draw():
    hands = marks("BPBBP")  # columns: B | P | B B | P
    assert predictions(hands)[Winner.BANKER]["big_eye_boy"] is B_  # new column: 1 vs 2
    assert predictions(hands)[Winner.PLAYER]["big_eye_boy"] is R  # column of 2 reaches row 2
    for side in (Winner.BANKER, Winner.PLAYER):
        following = marks("BPBBP" + ("B" if side is Winner.BANKER else "P"))
        assert predictions(hands)[side] == {
            name: derived_road(following, offset)[-1]
            for name, offset in (("big_eye_boy", 1), ("small_road", 2), ("cockroach_pig", 3))
        }


def test_statistics_of_a_short_shoe():
    stats = shoe_stats(marks("BBBPTPPPPB", pp={5}, bp={1, 2}, nat={3}))
    assert (stats.hands, stats.banker, stats.player, stats.tie) == (10, 4, 5, 1)
    assert (stats.player_pairs, stats.banker_pairs, stats.naturals) == (1, 2, 1)
    assert (stats.longest_banker, stats.longest_player) == (3, 5)  # a tie does not break a streak
    assert stats.current == (Winner.BANKER, 1)
    assert stats.percent(stats.player) == 50.0


@pytest.mark.parametrize("seed", range(5))
def test_a_full_dealt_shoe_draws_every_road_consistently(seed):
    dealt = list(Shoe(8, seed=seed).hands())
    assert len(dealt) >= 60
    hands = [
        HandMark(
            n,
            h.outcome().winner,
            h.outcome().player_pair,
            h.outcome().banker_pair,
            h.outcome().natural,
        )
        for n, h in enumerate(dealt, start=1)
    ]
    road = big_road(hands)
    decided = [h for h in hands if h.winner is not Winner.TIE]
    assert len(road) == len(decided)
    assert sum(cell.ties for cell in road) == sum(h.winner is Winner.TIE for h in hands)
    assert len(set(positions(road))) == len(road)
    assert all(0 <= cell.row < ROWS for cell in road)
    for offset in (1, 2, 3):
        colours = derived_road(hands, offset)
        spots = place(colours)
        assert len({(s.col, s.row) for s in spots}) == len(spots)
        assert len(colours) <= len(decided)


@given(st.lists(st.sampled_from("BPT"), max_size=90))
def test_any_sequence_places_every_mark_once_within_six_rows(results):
    hands = marks("".join(results))
    road = big_road(hands)
    assert len(set(positions(road))) == len(road)
    assert all(0 <= cell.row < ROWS for cell in road)
    for offset in (1, 2, 3):
        spots = place(derived_road(hands, offset))
        assert len({(s.col, s.row) for s in spots}) == len(spots)


def cols(cells) -> list[int]:
    return [cell.col for cell in cells]


@pytest.mark.parametrize(
    ("results", "width", "start"),
    [
        ("", 30, 0),  # nothing drawn yet
        ("BPBP", 30, 0),  # fits: from the first column
        ("BP" * 20, 30, 10),  # 40 columns: the last 30
        ("BP" * 15, 30, 0),  # exactly 30
        ("BP" * 15 + "B", 30, 1),
        ("B" * 10 + "P", 5, 0),  # the dragon tail reaches column 4
    ],
)
def test_a_window_shows_a_roads_newest_columns(results, width, start):
    assert window_start(cols(big_road(marks(results))), width) == start


def test_a_window_keeps_the_newest_mark_when_a_tail_is_wider_than_it():
    road = big_road(marks("B" * 10 + "P"))  # the tail runs to column 4; P is in column 1
    assert positions(road)[-1] == (1, 0)
    assert window_start(cols(road), 2) == 1  # not 3: the newest mark stays in view


@given(st.lists(st.sampled_from("BPT"), min_size=1, max_size=120), st.integers(1, 40))
def test_any_window_holds_the_newest_mark_and_is_full_when_it_can_be(results, width):
    road = big_road(marks("".join(results)))
    columns = cols(road)
    start = window_start(columns, width)
    assert start <= columns[-1] < start + width  # the newest mark is in view
    assert start == 0 or max(columns) == start + width - 1 or start == columns[-1]
