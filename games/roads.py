"""The scoreboard's roads: bead plate, big road, the three derived roads, shoe statistics.

Plain Python, no Django. A road is a list of marks placed on a grid six rows high. The derived
roads (Big Eye Boy, Small Road, Cockroach Pig) read the big road's columns by the standard rule:
for each new big-road entry they compare its column with the column 1, 2 or 3 places back —
red when the pattern repeats, blue when it changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from games.rules import Winner

ROWS = 6


@dataclass(frozen=True)
class HandMark:
    """What the scoreboard needs of a hand."""

    number: int
    winner: Winner
    player_pair: bool = False
    banker_pair: bool = False
    natural: bool | None = None  # unknown when the cards were not noted


@dataclass(frozen=True)
class Placed:
    col: int
    row: int


@dataclass
class BeadCell:
    col: int
    row: int
    hand: HandMark


def bead_plate(hands: Sequence[HandMark]) -> list[BeadCell]:
    """One mark per hand in deal order, filling each column top to bottom, six rows."""
    return [BeadCell(i // ROWS, i % ROWS, hand) for i, hand in enumerate(hands)]


def place(values: Sequence[object]) -> list[Placed]:
    """Grid positions for a sequence where a new column starts whenever the value changes; a
    run goes down to the sixth row (or until the cell below is taken), then turns right along
    that row — the "dragon tail"."""
    taken: set[tuple[int, int]] = set()
    placed: list[Placed] = []
    start_col = -1
    for index, value in enumerate(values):
        if index == 0 or value != values[index - 1]:
            start_col += 1
            col, row = start_col, 0
            while (col, row) in taken:  # a long tail ran through here: start after it
                col += 1
            start_col = col
            turned = False
        else:
            last = placed[-1]
            below = (last.col, last.row + 1)
            if not turned and last.row + 1 < ROWS and below not in taken:
                col, row = below
            else:
                turned = True
                col, row = last.col + 1, last.row
        taken.add((col, row))
        placed.append(Placed(col, row))
    return placed


def window_start(columns: Sequence[int], width: int) -> int:
    """Where a window ``width`` columns wide starts to show a road's newest marks, given each
    mark's column in the order drawn: the road's last ``width`` columns — or, when a dragon tail
    runs further right than the window is wide, the newest mark's column, so it stays in view."""
    if not columns:
        return 0
    return min(max(0, max(columns) + 1 - width), columns[-1])


@dataclass
class BigRoadCell:
    col: int
    row: int
    winner: Winner | None  # None: ties before any Banker or Player result
    hand: HandMark | None
    ties: int = 0
    tie_hands: list[int] = field(default_factory=list)


def big_road(hands: Sequence[HandMark]) -> list[BigRoadCell]:
    """Banker and Player results as streaks; ties as a count on the mark before them (ties
    before any result on a mark of their own, which the first result then takes over)."""
    decided = [hand for hand in hands if hand.winner is not Winner.TIE]
    cells = [
        BigRoadCell(spot.col, spot.row, hand.winner, hand)
        for spot, hand in zip(place([h.winner for h in decided]), decided, strict=True)
    ]
    leading: list[int] = []
    position = -1
    for hand in hands:
        if hand.winner is not Winner.TIE:
            position += 1
        elif position < 0:
            leading.append(hand.number)
        else:
            cells[position].ties += 1
            cells[position].tie_hands.append(hand.number)
    if leading:
        if cells:
            cells[0].ties += len(leading)
            cells[0].tie_hands[:0] = leading
        else:
            cells.append(BigRoadCell(0, 0, None, None, len(leading), leading))
    return cells


def streaks(hands: Sequence[HandMark]) -> list[list[Winner]]:
    """The big road's columns as logical streaks (ties left out)."""
    columns: list[list[Winner]] = []
    for hand in hands:
        if hand.winner is Winner.TIE:
            continue
        if columns and columns[-1][0] is hand.winner:
            columns[-1].append(hand.winner)
        else:
            columns.append([hand.winner])
    return columns


class Colour(StrEnum):
    RED = "red"  # the pattern repeats
    BLUE = "blue"  # the pattern changes


DERIVED_ROADS = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def derived_mark(lengths: Sequence[int], col: int, row: int, offset: int) -> Colour | None:
    """The mark a derived road draws for the big-road entry at (column, row) of the logical
    columns, comparing with the column ``offset`` places back; ``None`` before the road starts."""
    if row == 0:
        if col - offset - 1 < 0:
            return None
        same = lengths[col - 1] == lengths[col - offset - 1]
        return Colour.RED if same else Colour.BLUE
    if col - offset < 0:
        return None
    compared = lengths[col - offset]
    if compared > row:  # that column reaches this row too
        return Colour.RED
    if compared == row:  # it stopped just above: a change
        return Colour.BLUE
    return Colour.RED  # it stopped earlier still: no change to compare


def derived_road(hands: Sequence[HandMark], offset: int) -> list[Colour]:
    """A derived road's marks, one for each big-road entry from where the road starts."""
    marks: list[Colour] = []
    lengths: list[int] = []
    for column in streaks(hands):
        lengths.append(0)
        for row in range(len(column)):
            lengths[-1] = row + 1
            mark = derived_mark(lengths, len(lengths) - 1, row, offset)
            if mark is not None:
                marks.append(mark)
    return marks


@dataclass
class ShoeStats:
    hands: int
    banker: int
    player: int
    tie: int
    player_pairs: int
    banker_pairs: int
    naturals: int
    longest_banker: int
    longest_player: int
    current: tuple[Winner, int] | None

    def percent(self, count: int) -> float:
        return round(100 * count / self.hands, 1) if self.hands else 0.0


def shoe_stats(hands: Sequence[HandMark]) -> ShoeStats:
    columns = streaks(hands)
    longest = {Winner.BANKER: 0, Winner.PLAYER: 0}
    for column in columns:
        longest[column[0]] = max(longest[column[0]], len(column))
    return ShoeStats(
        hands=len(hands),
        banker=sum(h.winner is Winner.BANKER for h in hands),
        player=sum(h.winner is Winner.PLAYER for h in hands),
        tie=sum(h.winner is Winner.TIE for h in hands),
        player_pairs=sum(h.player_pair for h in hands),
        banker_pairs=sum(h.banker_pair for h in hands),
        naturals=sum(bool(h.natural) for h in hands),
        longest_banker=longest[Winner.BANKER],
        longest_player=longest[Winner.PLAYER],
        current=(columns[-1][0], len(columns[-1])) if columns else None,
    )


def predictions(hands: Sequence[HandMark]) -> dict[Winner, dict[str, Colour | None]]:
    """What each derived road would draw if the next hand were Banker, or Player."""
    lengths = [len(column) for column in streaks(hands)]
    last = streaks(hands)[-1][0] if lengths else None
    result: dict[Winner, dict[str, Colour | None]] = {}
    for side in (Winner.BANKER, Winner.PLAYER):
        if last is side:
            after, col, row = [*lengths[:-1], lengths[-1] + 1], len(lengths) - 1, lengths[-1]
        else:
            after, col, row = [*lengths, 1], len(lengths), 0
        result[side] = {
            name: derived_mark(after, col, row, offset) for name, offset in DERIVED_ROADS.items()
        }
    return result
