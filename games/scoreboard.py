"""The scoreboard drawn as SVG: the roads of ``games.roads`` turned into shapes and positions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import NotRequired, TypedDict

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.cards import parse_cards
from games.models import Hand, Shoe
from games.payouts import SideBet
from games.roads import (
    DERIVED_ROADS,
    ROWS,
    HandMark,
    bead_plate,
    big_road,
    derived_road,
    place,
    predictions,
    shoe_stats,
    window_start,
)
from games.rules import Hand as DealtHand
from games.rules import Winner

MIN_COLUMNS = 12


@lru_cache(maxsize=8192)
def _natural(player_cards: str, banker_cards: str) -> bool | None:
    """Whether stored cards were a natural (cached: the table redraws every hand on each save)."""
    player, banker = parse_cards(player_cards), parse_cards(banker_cards)
    return DealtHand(player, banker).outcome().natural


def shoe_marks(shoe: Shoe) -> tuple[list[HandMark], dict[int, int]]:
    """The shoe's hands as scoreboard marks (one query), and hand number → hand id."""
    hands = list(
        Hand.objects.filter(shoe=shoe)
        .order_by("number")
        .only(
            "id", "number", "winner", "player_pair", "banker_pair", "player_cards", "banker_cards"
        )
    )
    marks = [
        HandMark(
            hand.number,
            Winner(hand.winner),
            hand.player_pair,
            hand.banker_pair,
            _natural(hand.player_cards, hand.banker_cards) if hand.has_cards else None,
        )
        for hand in hands
    ]
    return marks, {hand.number: hand.pk for hand in hands}


CELL = 10  # SVG units per grid cell; the SVG scales to any size


class Mark(TypedDict):
    """One mark of a road: its cell, and what its shape shows. A bead or big-road mark is a
    hand (``winner``, pairs, ``url`` ...); a derived road's mark is a ``colour``."""

    col: int
    row: int
    x: NotRequired[int]  # the cell's centre in SVG units, set by ``Road``
    y: NotRequired[int]
    winner: NotRequired[str]  # a Winner's value, or "tie-only" on the big road
    letter: NotRequired[str]
    ties: NotRequired[int]
    player_pair: NotRequired[bool]
    banker_pair: NotRequired[bool]
    natural: NotRequired[bool | None]
    number: NotRequired[int]
    url: NotRequired[str]
    colour: NotRequired[str]


@dataclass
class Road:
    name: str
    columns: int
    marks: list[Mark]

    def __post_init__(self) -> None:
        for mark in self.marks:
            mark["x"], mark["y"] = mark["col"] * CELL + CELL // 2, mark["row"] * CELL + CELL // 2

    @property
    def width(self) -> int:
        return self.columns * CELL

    @property
    def height(self) -> int:
        return ROWS * CELL

    @property
    def svg(self) -> SafeString:
        """The road as an SVG image, built here: a template loop over every mark of every road
        would cost the table page several milliseconds on each saved hand."""
        shape = _SHAPES[self.name]
        body = "".join(shape(mark) for mark in self.marks)
        w, h = self.width, self.height
        return mark_safe(
            f'<svg viewBox="0 0 {w} {h}" role="group" class="grid" preserveAspectRatio="xMinYMin '
            f'meet"><rect class="grid-bg" width="{w}" height="{h}"/>'
            f'<path class="grid-lines" d="{self.grid_path}"/>{body}</svg>'
        )

    @property
    def grid_path(self) -> str:
        """The grid as one SVG path: a line per column and per row."""
        columns = " ".join(f"M{c * CELL} 0V{self.height}" for c in range(self.columns + 1))
        rows = " ".join(f"M0 {r * CELL}H{self.width}" for r in range(ROWS + 1))
        return f"{columns} {rows}"


# Every value drawn below is a number, an enum value, a translated letter or a URL we reversed
# ourselves — nothing a guest typed — so the shapes are plain strings, marked safe once per road.


def _pairs(m: Mark, radius: float) -> str:
    if "player_pair" not in m:  # no pairs are offered: none are drawn
        return ""
    x, y = m["x"], m["y"]
    banker = f'<circle class="pair-banker" cx="{x - 3}" cy="{y - 3}" r="{radius}"/>'
    player = f'<circle class="pair-player" cx="{x + 3}" cy="{y + 3}" r="{radius}"/>'
    return (banker if m["banker_pair"] else "") + (player if m["player_pair"] else "")


def _linked(m: Mark, shape: str) -> str:
    if not m.get("url"):
        return shape
    label = _("Hand {number}").format(number=m["number"])
    return f'<a href="{m["url"]}" aria-label="{label}">{shape}</a>'


def _bead(m: Mark) -> str:
    x, y, natural = m["x"], m["y"], " natural" if m["natural"] else ""
    return _linked(
        m,
        (
            f'<g class="bead bead-{m["winner"]}{natural}" data-hand="{m["number"]}">'
            f'<circle cx="{x}" cy="{y}" r="4.3"/>'
            f'<text x="{x}" y="{y}" dy="1.6">{m["letter"]}</text>'
            f"{_pairs(m, 1.3)}</g>"
        ),
    )


def _big(m: Mark) -> str:
    x, y, natural = m["x"], m["y"], " natural" if m["natural"] else ""
    circle = f'<circle cx="{x}" cy="{y}" r="3.8"/>' if m["winner"] != "tie-only" else ""
    ties = ""
    if m["ties"]:
        ties = f'<line class="tie-slash" x1="{x - 3}" y1="{y + 3}" x2="{x + 3}" y2="{y - 3}"/>'
        if m["ties"] > 1:
            ties += f'<text class="tie-count" x="{x}" y="{y}" dy="1.5">{m["ties"]}</text>'
    return _linked(
        m,
        (
            f'<g class="big big-{m["winner"]}{natural}" data-hand="{m["number"]}">'
            f"{circle}{ties}{_pairs(m, 1.2)}</g>"
        ),
    )


def _ring(m: Mark) -> str:
    return f'<circle class="derived-{m["colour"]} hollow" cx="{m["x"]}" cy="{m["y"]}" r="3.5"/>'


def _dot(m: Mark) -> str:
    return f'<circle class="derived-{m["colour"]}" cx="{m["x"]}" cy="{m["y"]}" r="3.5"/>'


def _slash(m: Mark) -> str:
    x, y = m["x"], m["y"]
    return (
        f'<line class="derived-{m["colour"]}" x1="{x - 3}" y1="{y + 3}" x2="{x + 3}" y2="{y - 3}"/>'
    )


_SHAPES = {"bead_plate": _bead, "big_road": _big, "big_eye_boy": _ring, "small_road": _dot,
           "cockroach_pig": _slash}  # fmt: skip


HandLink = Callable[[int], str]


def _link(ids: dict[int, int], number: int | None, link: HandLink | None) -> str:
    if link is None or number is None or number not in ids:
        return ""
    return link(ids[number])


def _road(name: str, marks: list[Mark], width: int | None = None) -> Road:
    """A road as wide as its marks need (at least ``MIN_COLUMNS``); or, given ``width``, exactly
    that many columns showing its newest marks (the older ones scroll off to the left)."""
    if width is None:
        return Road(name, max([mark["col"] + 1 for mark in marks] + [MIN_COLUMNS]), marks)
    start = window_start([mark["col"] for mark in marks], width)
    shown = [mark for mark in marks if start <= mark["col"] < start + width]
    for mark in shown:
        mark["col"] -= start
    return Road(name, width, shown)


def side_names(guest_banked: bool) -> dict[str, str]:
    """The sides (a ``Winner``'s value) as the game calls them: a guest-banked game's bank and
    ponte, Punto Banco's banker and player."""
    if guest_banked:
        return {"banker": _("Bank"), "player": _("Ponte"), "tie": _("Égalité")}
    return {"banker": _("Banker"), "player": _("Player"), "tie": _("Tie")}


def scoreboard(
    shoe: Shoe,
    *,
    link: HandLink | None = None,
    widths: Mapping[str, int] | None = None,
    read: tuple[list[HandMark], dict[int, int]] | None = None,
) -> dict[str, object]:
    """Everything the scoreboard template draws. ``link`` turns a hand's id into the address of
    its page, to make each mark a link (for hosts and dealers, who may see the bets).
    ``widths`` (a road's name → columns) draws those roads at a fixed width, newest marks in
    view, for a screen that shows them whole (the table display); other roads grow with the
    shoe. ``read``: the shoe's marks as :func:`shoe_marks` read them, when read already."""
    widths = widths or {}
    marks, ids = read or shoe_marks(shoe)
    sides = side_names(shoe.event.is_guest_banked)
    # The pairs are marked where they are bet: never at a guest-banked game, nor at a Punto
    # Banco night that offers no pair bet.
    pairs = not shoe.event.is_guest_banked and SideBet.PAIRS in shoe.event.rule_set.side_bets
    beads: list[Mark] = []
    for cell in bead_plate(marks):
        bead: Mark = {
            "col": cell.col,
            "row": cell.row,
            "winner": cell.hand.winner.value,
            "letter": sides[cell.hand.winner.value][0],
            "natural": cell.hand.natural,
            "number": cell.hand.number,
            "url": _link(ids, cell.hand.number, link),
        }
        if pairs:
            bead["player_pair"], bead["banker_pair"] = cell.hand.player_pair, cell.hand.banker_pair
        beads.append(bead)
    big: list[Mark] = []
    for column in big_road(marks):
        mark: Mark = {
            "col": column.col,
            "row": column.row,
            "winner": column.winner.value if column.winner else "tie-only",
            "ties": column.ties,
            "natural": bool(column.hand and column.hand.natural),
            "number": column.hand.number if column.hand else column.tie_hands[0],
            "url": _link(ids, column.hand.number if column.hand else None, link),
        }
        if pairs:
            mark["player_pair"] = bool(column.hand and column.hand.player_pair)
            mark["banker_pair"] = bool(column.hand and column.hand.banker_pair)
        big.append(mark)
    derived = []
    for name, offset in DERIVED_ROADS.items():
        colours = derived_road(marks, offset)
        spots = place(colours)
        road: list[Mark] = [
            {"col": s.col, "row": s.row, "colour": c.value}
            for s, c in zip(spots, colours, strict=True)
        ]
        derived.append(_road(name, road, widths.get(name)))
    stats = shoe_stats(marks)
    if shoe.event.is_guest_banked:
        counted = ngettext("%(coups)s coup", "%(coups)s coups", stats.hands)
        sides["played"] = counted % {"coups": stats.hands}
        sides["next"] = _("If the next coup is")
    else:
        counted = ngettext("%(hands)s hand", "%(hands)s hands", stats.hands)
        sides["played"] = counted % {"hands": stats.hands}
        sides["next"] = _("If the next hand is")
    return {
        "shoe": shoe,
        "sides": sides,
        "pairs": pairs,
        "rows": ROWS,
        "bead": _road("bead_plate", beads, widths.get("bead_plate")),
        "big": _road("big_road", big, widths.get("big_road")),
        "derived": derived,
        "stats": stats,
        "percent": {
            side: stats.percent(getattr(stats, side)) for side in ("banker", "player", "tie")
        },
        "predictions": {
            side.value: {name: colour.value if colour else "" for name, colour in marks_.items()}
            for side, marks_ in predictions(marks).items()
        },
    }
