"""Baccarat tournaments: the draw, who goes on, the places and the prizes.

Everyone starts with the same tournament chips. A round is a number of hands at tables of up to
a tournament's seats (6 to 9) drawn by lot (:func:`draw_seats`); the first bet moves round the
table hand by hand (:func:`first_bet_seat`), skipping players who are out
(:func:`first_bet_among`). After the last hand, or once fewer than two players have chips
(:func:`table_finished`), the biggest stacks go on — the top few of each table plus the best of
the rest as wildcards (:func:`advance_by_table`), or simply the biggest stacks overall
(:func:`advance_by_stack`) — until a final table decides the places (:func:`places`) and the
prize pool (:func:`prize_pool`) is paid by a table of places (:func:`prizes`). Players are
entrant ids (ints, given at registration); stacks and money are ``Decimal``, never float.

Equal stacks at a cut are settled by the host's :class:`TieBreak`: ``SPLIT`` sends on (or
places together) everyone tied, ``PLAYOFF`` asks the host for a play-off, whose result comes
back as ``playoff_order`` — a rank per player, lower is better — and is used only to tell
equal stacks apart. Plain Python, no Django.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from itertools import groupby, pairwise

from games.entry import read_amount
from games.kinds import TABLE_SEATS, ShortStack
from games.messages import Label, RuleError, Typed, gettext_noop, plain, whole_cents
from games.payouts import CENT, ZERO, round_money

DEFAULT_SEATS = TABLE_SEATS  # a table's seats unless the tournament says (6 to 9)
MAX_PLACES = 50  # the most places a prize table (or a points table) pays
MAX_POINTS = 1_000_000  # season points for one place, at most


class TieBreak(StrEnum):
    SPLIT = "split"  # everyone tied at a cut goes on; tied places share their prizes
    PLAYOFF = "playoff"  # the tied players play off; the host enters the order

    @property
    def label(self) -> Label:
        return Label(_TIE_BREAK_LABELS[self])


_TIE_BREAK_LABELS = {
    TieBreak.SPLIT: gettext_noop("Split ties: all tied players go on, tied places share"),
    TieBreak.PLAYOFF: gettext_noop("Play off ties"),
}


class TournamentError(RuleError):
    """A tournament rule broken (a ``ValueError``), as a translatable message."""


# The draw and the first bet.
MSG_NEGATIVE_PLAYERS = gettext_noop("The number of players cannot be below zero (got {count}).")
MSG_NO_SEATS = gettext_noop("A table needs at least one seat (got {seats}).")
MSG_DRAWN_TWICE = gettext_noop("Entrant {player} is in the draw twice.")
MSG_NO_OCCUPIED_SEATS = gettext_noop("No seat at the table is taken.")
MSG_HAND_NUMBER = gettext_noop("Hands are numbered from 1 (got {number}).")
# Who goes on.
MSG_NEGATIVE_STACK = gettext_noop("Entrant {player}'s stack cannot be below zero (got {stack}).")
MSG_AT_TWO_TABLES = gettext_noop("Entrant {player} is at two tables.")
MSG_NEGATIVE_COUNT = gettext_noop("How many go on cannot be below zero (got {count}).")
# The prize pool and the prizes.
MSG_NEGATIVE_MONEY = gettext_noop("An amount cannot be below zero (got {amount}).")
MSG_MONEY_CENTS = gettext_noop("{amount} is counted to the cent at most.")
MSG_NEGATIVE_ENTRIES = gettext_noop("The number of entries cannot be below zero (got {count}).")
MSG_CUT_PERCENT = gettext_noop("The house's cut runs from 0% to 100% (got {percent}%).")
MSG_NEGATIVE_SHARE = gettext_noop("Place {place}'s share cannot be below zero.")
MSG_SHARES_SUM = gettext_noop("The percentages add up to {total}%, not 100%.")
MSG_STANDINGS_ORDER = gettext_noop(
    "The standings skip or repeat a place: place {place} comes where place {expected} should."
)
MSG_PLACED_TWICE = gettext_noop("Entrant {player} is placed twice.")
MSG_NO_SUCH_PLACE = gettext_noop("Places are numbered from 1 (got {place}).")
# Reading a prize table or a points table.
MSG_PRIZE_TABLE_EMPTY = gettext_noop(
    "Enter what each place pays, best first: percentages (50%, 30%, 20%) or amounts (500, 300)."
)
MSG_TOO_MANY_PLACES = gettext_noop("A table pays {limit} places at most (this one has {count}).")
MSG_PLACE_NOT_A_NUMBER = gettext_noop("Place {place}: “{text}” is not a number.")
MSG_PLACE_NEGATIVE = gettext_noop("Place {place}: {text} is below zero.")
MSG_PLACE_ZERO = gettext_noop("Place {place} pays nothing: leave it off the table.")
MSG_PLACE_CENTS = gettext_noop("Place {place}: {text} — amounts are counted to the cent at most.")
MSG_PLACE_PERCENT_PRECISION = gettext_noop(
    "Place {place}: {text} — percentages go to a hundredth of a percent at most."
)
MSG_PERCENT_MIXED = gettext_noop(
    "Give every place as a percentage (50%) or every place as an amount (500), not both: "
    "place {place} is “{text}”."
)
MSG_PLACE_PAYS_MORE = gettext_noop("Place {place} pays more than place {better}.")
MSG_AMBIGUOUS_COMMA = gettext_noop(
    "“{text}” could be one number or two: write numbers without thousands commas, "
    "and separate places with a comma and a space."
)
MSG_POINTS_NOT_WHOLE = gettext_noop("Place {place}: “{text}” is not a whole number of points.")
MSG_POINTS_NEGATIVE = gettext_noop("Place {place}: {text} points is below zero.")
MSG_POINTS_TOO_MANY = gettext_noop("Place {place}: {limit} points at most (got {text}).")
MSG_POINTS_MORE = gettext_noop("Place {place} earns more points than place {better}.")


# --- the draw -----------------------------------------------------------------------------


def table_sizes(players: int, max_seats: int = DEFAULT_SEATS) -> list[int]:
    """How many sit at each table: the fewest tables that seat everyone, as even as possible,
    bigger tables first (14 → 7, 7; 15 → 5, 5, 5; 16 → 6, 5, 5)."""
    if players < 0:
        raise TournamentError(MSG_NEGATIVE_PLAYERS, count=players)
    if max_seats < 1:
        raise TournamentError(MSG_NO_SEATS, seats=max_seats)
    tables = -(-players // max_seats)
    if not tables:
        return []
    base, bigger = divmod(players, tables)
    return [base + 1] * bigger + [base] * (tables - bigger)


def draw_seats(
    players: Sequence[int], *, seed: int, max_seats: int = DEFAULT_SEATS
) -> list[list[int]]:
    """The lot: ``players`` shuffled by ``random.Random(seed)`` and dealt out to tables sized by
    :func:`table_sizes`, each table in seat order (seat 1 first). The players are sorted before
    the shuffle, so the same seed and the same players give the same draw in any input order;
    keep the seed and the draw can be shown to be fair."""
    ordered = sorted(players)
    for previous, player in pairwise(ordered):
        if previous == player:
            raise TournamentError(MSG_DRAWN_TWICE, player=player)
    random.Random(seed).shuffle(ordered)
    tables: list[list[int]] = []
    start = 0
    for size in table_sizes(len(ordered), max_seats):
        tables.append(ordered[start : start + size])
        start += size
    return tables


def first_bet_seat(seats: Sequence[int], hand_number: int, *, start: int | None = None) -> int:
    """Who bets first on hand ``hand_number`` (from 1) while every player has chips: the marker
    starts at seat ``start`` (by default the lowest taken seat; an empty ``start`` seat passes
    it to the next taken seat) and moves to the next taken seat, round the table, every hand."""
    if not seats:
        raise TournamentError(MSG_NO_OCCUPIED_SEATS)
    if hand_number < 1:
        raise TournamentError(MSG_HAND_NUMBER, number=hand_number)
    seat = first_bet_among([seats] * hand_number, start=start)
    assert seat is not None  # every hand has the same seats, and some
    return seat


def first_bet_among(in_play: Sequence[Iterable[int]], *, start: int | None = None) -> int | None:
    """Who bets first on hand ``len(in_play)``, where ``in_play[k]`` are the seats whose players
    have chips before hand ``k + 1``: the marker starts at seat ``start`` (or the next seat in
    play after it; by default the lowest) and each hand moves to the next seat in play round
    the table, skipping players who are out. ``None`` when nobody is in play on that hand."""
    marker = None if start is None else start - 1  # "after start - 1" is start itself
    for seats in in_play:
        order = sorted(set(seats))
        if not order:
            marker = None
            continue
        if marker is None:
            marker = order[0]
        else:
            marker = next((seat for seat in order if seat > marker), order[0])
    return marker


def in_play(
    stack: Decimal, *, table_min: Decimal, short_stack: ShortStack = ShortStack.ALL_IN
) -> bool:
    """Whether a player with ``stack`` still plays: with any chips, where a stack under the
    table minimum is bet whole (all-in); with the table minimum at least, where it is out."""
    if short_stack is ShortStack.OUT:
        return stack >= table_min and stack > 0
    return stack > 0


def table_finished(
    stacks: Iterable[Decimal],
    *,
    played: int,
    hands: int,
    table_min: Decimal = ZERO,
    short_stack: ShortStack = ShortStack.ALL_IN,
) -> bool:
    """A table's round is over after its last hand, or as soon as fewer than two of its players
    still play (:func:`in_play`): the last player standing has no one left to play against."""
    playing = sum(1 for s in stacks if in_play(s, table_min=table_min, short_stack=short_stack))
    return played >= hands or playing < 2


# --- who goes on --------------------------------------------------------------------------


@dataclass(frozen=True)
class Advancement:
    """Who goes on after a round.

    ``qualified`` is everyone who goes on, best first (biggest stack first; equal stacks by
    play-off rank under ``PLAYOFF``, then by entrant id). ``wildcards`` is the part of it that
    got in as wildcards, in the same order. A player with no chips left never goes on.

    Equal stacks at a cut (one inside it, one outside) are never split by the cut itself:

    * under ``SPLIT`` all of them go on, so more may go on than the cut's places;
    * under ``PLAYOFF`` the ``playoff_order`` settles them when it ranks every one of them and
      the ranks at the cut differ; otherwise the whole tied group is left out of
      ``qualified`` and listed in ``playoffs`` (entrant ids ascending), with the number of
      places open to it at the same index of ``playoff_places``. The result is final only
      when ``playoffs`` is empty (:attr:`settled`): the host enters the play-off order and
      asks again.
    """

    qualified: tuple[int, ...]
    wildcards: tuple[int, ...] = ()
    playoffs: tuple[tuple[int, ...], ...] = ()
    playoff_places: tuple[int, ...] = ()

    @property
    def settled(self) -> bool:
        return not self.playoffs


def _check_stacks(stacks: Mapping[int, Decimal]) -> None:
    for player, stack in stacks.items():
        if stack < 0:
            raise TournamentError(MSG_NEGATIVE_STACK, player=player, stack=stack)


def _check_count(count: int) -> None:
    if count < 0:
        raise TournamentError(MSG_NEGATIVE_COUNT, count=count)


class _Cut:
    """Cuts a ranking at a number of places under one tie-break policy."""

    def __init__(
        self,
        stacks: Mapping[int, Decimal],
        tie_break: TieBreak,
        playoff_order: Mapping[int, int] | None,
    ) -> None:
        self.stacks = stacks
        self.tie_break = tie_break
        # Play-off ranks only count under PLAYOFF; SPLIT never orders equal stacks.
        self.order: Mapping[int, int] = (
            (playoff_order or {}) if tie_break is TieBreak.PLAYOFF else {}
        )

    def key(self, player: int) -> tuple[Decimal, bool, int, int]:
        """Best first: biggest stack, then play-off rank (ranked before unranked), then id."""
        rank = self.order.get(player)
        return (-self.stacks[player], rank is None, rank or 0, player)

    def ranked(self, players: Iterable[int]) -> list[int]:
        """The players still in (chips left), best first."""
        return sorted((p for p in players if self.stacks[p] > 0), key=self.key)

    def settle(self, group: list[int], open_places: int) -> list[int] | None:
        """The ``open_places`` best of a tied group by play-off rank, if the order decides."""
        if not all(player in self.order for player in group):
            return None
        by_rank = sorted(group, key=lambda player: (self.order[player], player))
        if self.order[by_rank[open_places - 1]] == self.order[by_rank[open_places]]:
            return None
        return by_rank[:open_places]

    def __call__(self, ranked: list[int], places: int) -> tuple[list[int], tuple[int, ...], int]:
        """Who of ``ranked`` (best first) makes the cut at ``places``; a tied group the cut
        cannot settle yet, and the places open to it."""
        if places >= len(ranked):
            return ranked, (), 0
        if places == 0 or self.stacks[ranked[places - 1]] != self.stacks[ranked[places]]:
            return ranked[:places], (), 0
        line = self.stacks[ranked[places]]
        above = [player for player in ranked if self.stacks[player] > line]
        group = sorted(player for player in ranked if self.stacks[player] == line)
        open_places = places - len(above)
        if self.tie_break is TieBreak.SPLIT:
            return above + group, (), 0
        settled = self.settle(group, open_places)
        if settled is None:
            return above, tuple(group), open_places
        return above + settled, (), 0


def advance_by_table(
    tables: Sequence[Mapping[int, Decimal]],
    *,
    per_table: int,
    wildcards: int,
    tie_break: TieBreak,
    playoff_order: Mapping[int, int] | None = None,
) -> Advancement:
    """The top ``per_table`` stacks of each table go on, then the best ``wildcards`` stacks of
    everyone else still in, across all tables (see :class:`Advancement` for ties).

    Table play-offs come first: while one is pending nobody gets a wildcard (who is left over
    for them depends on it), so ``wildcards`` is empty and ``qualified`` holds the sure table
    qualifiers. A table's play-off ranks also order its losers for the wildcards; a later
    play-off for the wildcards needs ranks after the earlier ones (e.g. 1, 2, 3 for a table's
    play-off, 11, 12 for the wildcards') so as not to undo them."""
    _check_count(per_table)
    _check_count(wildcards)
    stacks: dict[int, Decimal] = {}
    for table in tables:
        for player, stack in table.items():
            if player in stacks:
                raise TournamentError(MSG_AT_TWO_TABLES, player=player)
            stacks[player] = stack
    _check_stacks(stacks)
    cut = _Cut(stacks, tie_break, playoff_order)
    qualified: list[int] = []
    playoffs: list[tuple[int, ...]] = []
    playoff_places: list[int] = []
    for table in tables:
        made, group, open_places = cut(cut.ranked(table), per_table)
        qualified += made
        if group:
            playoffs.append(group)
            playoff_places.append(open_places)
    if playoffs:
        return Advancement(
            tuple(sorted(qualified, key=cut.key)), (), tuple(playoffs), tuple(playoff_places)
        )
    at_table = set(qualified)
    rest = cut.ranked([player for player in stacks if player not in at_table])
    wild, group, open_places = cut(rest, wildcards)
    return Advancement(
        qualified=tuple(sorted(qualified + wild, key=cut.key)),
        wildcards=tuple(wild),
        playoffs=(group,) if group else (),
        playoff_places=(open_places,) if group else (),
    )


def advance_by_stack(
    stacks: Mapping[int, Decimal],
    *,
    keep: int,
    tie_break: TieBreak,
    playoff_order: Mapping[int, int] | None = None,
) -> Advancement:
    """The ``keep`` biggest stacks across all tables go on (see :class:`Advancement` for ties);
    there are no wildcards."""
    _check_count(keep)
    _check_stacks(stacks)
    cut = _Cut(stacks, tie_break, playoff_order)
    made, group, open_places = cut(cut.ranked(stacks), keep)
    return Advancement(
        qualified=tuple(made),
        playoffs=(group,) if group else (),
        playoff_places=(open_places,) if group else (),
    )


# --- the final table ----------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """One place of the standings. Tied players share it and the best place of their group
    (1, 2, 2, 4); they are listed by entrant id."""

    place: int
    players: tuple[int, ...]


def needs_playoff(stacks: Mapping[int, Decimal]) -> list[tuple[int, ...]]:
    """The groups of two or more players with equal stacks (stacks of 0 too), biggest stack
    first, each by entrant id: the play-offs a ``PLAYOFF`` final table calls for."""
    return [
        group
        for group in (tuple(sorted(players)) for players in _by_stack(stacks))
        if len(group) > 1
    ]


def _by_stack(stacks: Mapping[int, Decimal]) -> list[list[int]]:
    ordered = sorted(stacks, key=lambda player: (-stacks[player], player))
    return [list(group) for _stack, group in groupby(ordered, key=lambda p: stacks[p])]


def places(
    stacks: Mapping[int, Decimal],
    *,
    tie_break: TieBreak,
    playoff_order: Mapping[int, int] | None = None,
) -> list[Place]:
    """The final standings: biggest stack first. Equal stacks share a place under ``SPLIT``;
    under ``PLAYOFF`` they are ordered by ``playoff_order`` when it ranks every one of them
    (equal ranks still share), else they share a place until it does (see
    :func:`needs_playoff`)."""
    _check_stacks(stacks)
    order = playoff_order or {}
    standings: list[Place] = []
    place = 1
    for group in _by_stack(stacks):
        if tie_break is TieBreak.PLAYOFF and all(player in order for player in group):
            ranked = sorted(group, key=lambda player: (order[player], player))
            tied = [list(same) for _rank, same in groupby(ranked, key=lambda p: order[p])]
        else:
            tied = [group]
        for players in tied:
            standings.append(Place(place, tuple(sorted(players))))
            place += len(players)
    return standings


# --- the prize pool -----------------------------------------------------------------------


def _check_money(amount: Decimal) -> None:
    if amount < 0:
        raise TournamentError(MSG_NEGATIVE_MONEY, amount=amount)
    if not whole_cents(amount):
        raise TournamentError(MSG_MONEY_CENTS, amount=amount)


def prize_pool(
    *, paid_in: Decimal, entries: int, cut_percent: Decimal, cut_fixed_per_entry: Decimal
) -> tuple[Decimal, Decimal]:
    """The house's cut and the prize pool left, ``(house_cut, pool)``: the cut is
    ``cut_percent`` of what was paid in (rounded half-up to the cent) plus a fixed amount per
    entry, and never more than was paid in."""
    _check_money(paid_in)
    _check_money(cut_fixed_per_entry)
    if entries < 0:
        raise TournamentError(MSG_NEGATIVE_ENTRIES, count=entries)
    if not 0 <= cut_percent <= 100:
        raise TournamentError(MSG_CUT_PERCENT, percent=_percent_text(cut_percent))
    cut = round_money(paid_in * cut_percent / 100) + cut_fixed_per_entry * entries
    cut = min(cut, paid_in).quantize(CENT)
    return cut, (paid_in - cut).quantize(CENT)


def _cents(amount: Decimal) -> int:
    return int(Fraction(amount) * 100)


def _money(cents: int) -> Decimal:
    return Decimal(f"{cents}E-2")


def _percent_text(percent: Decimal | Fraction) -> str:
    if isinstance(percent, Fraction):
        percent = Decimal(percent.numerator) / percent.denominator
    return f"{percent.normalize():f}"


def _place_cents(
    pool: Decimal, shares: Sequence[Decimal], by_amount: bool, claimed: int
) -> list[int]:
    """What each of the first ``claimed`` places pays, in cents (see :func:`prizes`)."""
    for index, share in enumerate(shares):
        if share < 0:
            raise TournamentError(MSG_NEGATIVE_SHARE, place=index + 1)
    if by_amount:
        for share in shares:
            _check_money(share)
        paid = [_cents(share) for share in shares[:claimed]]
        return paid + [0] * (claimed - len(paid))
    _check_money(pool)
    total = sum((Fraction(share) for share in shares), Fraction(0))
    if total != 100:
        raise TournamentError(MSG_SHARES_SUM, total=_percent_text(total))
    pool_cents = _cents(pool)
    paid = [int(pool_cents * Fraction(share) / 100) for share in shares]  # floors: not below 0
    if paid and claimed:
        # The cents the rounding left over and the places nobody reached go to 1st place.
        paid[0] += pool_cents - sum(paid) + sum(paid[claimed:])
    return paid[:claimed] + [0] * (claimed - len(paid))


def prizes(
    pool: Decimal,
    shares: Sequence[Decimal],
    standings: Sequence[Place],
    *,
    by_amount: bool = False,
) -> dict[int, Decimal]:
    """What each placed player wins, in standings order; everyone in ``standings`` is listed,
    with 0.00 when unpaid.

    ``shares[i]`` is what place ``i + 1`` pays: a percentage of ``pool`` (the shares add up to
    exactly 100), or with ``by_amount`` a fixed amount, paid as given whatever the pool (which
    is then not used: the caller shows any difference).

    The rounding rule. Prizes are paid in whole cents and a pool is always paid out exactly:

    1. Each paid place wins pool × share ÷ 100, rounded down to the cent.
    2. The cents this rounding leaves over go to 1st place.
    3. When fewer players are placed than places are paid, the places nobody reached are paid
       to 1st place too.
    4. Players tied for a place share the prizes of all the places they cover (three tied for
       2nd share 2nd, 3rd and 4th) equally, rounded down to the cent; the cents left over go
       one each to the tied players in registration order (lowest entrant number first).

    Places past the end of the table win nothing. By amount, rules 1–3 do not apply: each
    place wins its amount, ties share as in rule 4, and places nobody reached are not paid.
    """
    seen: set[int] = set()
    expected = 1
    for standing in standings:
        if standing.place != expected or not standing.players:
            raise TournamentError(MSG_STANDINGS_ORDER, place=standing.place, expected=expected)
        for player in standing.players:
            if player in seen:
                raise TournamentError(MSG_PLACED_TWICE, player=player)
            seen.add(player)
        expected += len(standing.players)
    paid = _place_cents(pool, shares, by_amount, claimed=expected - 1)
    won: dict[int, Decimal] = {}
    for standing in standings:
        tied = len(standing.players)
        total = sum(paid[standing.place - 1 : standing.place - 1 + tied])
        each, left_over = divmod(total, tied)
        by_registration = sorted(standing.players)
        extra = dict.fromkeys(by_registration[:left_over], 1)
        for player in standing.players:
            won[player] = _money(each + extra.get(player, 0))
    return won


# --- reading a prize table and a points table ---------------------------------------------

_AMBIGUOUS = re.compile(r"[0-9.]*[0-9],[0-9]{3}(?![0-9])")
_SEPARATORS = re.compile(r"[\s,;]+")


def _tokens(text: str) -> list[str]:
    """The places of a table as typed: numbers separated by commas, semicolons or spaces."""
    text = plain(text)
    ambiguous = _AMBIGUOUS.search(text)
    if ambiguous:
        raise TournamentError(MSG_AMBIGUOUS_COMMA, text=Typed(ambiguous.group()))
    text = re.sub(r"\s+%", "%", text)
    tokens = [token for token in _SEPARATORS.split(text) if token]
    if len(tokens) > MAX_PLACES:
        raise TournamentError(MSG_TOO_MANY_PLACES, limit=MAX_PLACES, count=len(tokens))
    return tokens


def parse_prize_table(text: str) -> tuple[list[Decimal], bool]:
    """A prize table as the host types it, best place first, into ``(shares, by_amount)`` for
    :func:`prizes`: ``"50%, 30%, 20%"`` is percentages (a ``%`` after every number; they add
    up to 100), ``"500, 300, 200"`` amounts (no ``%`` at all). Numbers are separated by commas,
    semicolons or spaces and written without thousands commas; every place pays more than
    nothing and no more than the place before it; amounts go to the cent, percentages to a
    hundredth of a percent; 50 places at most."""
    tokens = _tokens(text)
    if not tokens:
        raise TournamentError(MSG_PRIZE_TABLE_EMPTY)
    percent = tokens[0].endswith("%")
    shares: list[Decimal] = []
    for place, token in enumerate(tokens, start=1):
        if token.endswith("%") != percent:
            raise TournamentError(MSG_PERCENT_MIXED, place=place, text=Typed(token))
        number = token.removesuffix("%") if percent else token
        value = read_amount(number)
        if value is None:
            raise TournamentError(MSG_PLACE_NOT_A_NUMBER, place=place, text=Typed(token))
        if value < 0:
            raise TournamentError(MSG_PLACE_NEGATIVE, place=place, text=Typed(token))
        if value == 0:
            raise TournamentError(MSG_PLACE_ZERO, place=place)
        if not whole_cents(value):  # to the cent, or to a hundredth of a percent
            template = MSG_PLACE_PERCENT_PRECISION if percent else MSG_PLACE_CENTS
            raise TournamentError(template, place=place, text=Typed(token))
        if shares and value > shares[-1]:
            raise TournamentError(MSG_PLACE_PAYS_MORE, place=place, better=place - 1)
        shares.append(value)
    if percent and sum(shares, ZERO) != 100:
        raise TournamentError(MSG_SHARES_SUM, total=_percent_text(sum(shares, ZERO)))
    return shares, not percent


def points_for(place: int, table: Sequence[int]) -> int:
    """Season points for finishing in ``place`` (from 1): its entry in ``table``, else 0."""
    if place < 1:
        raise TournamentError(MSG_NO_SUCH_PLACE, place=place)
    return table[place - 1] if place <= len(table) else 0


def parse_points(text: str) -> list[int]:
    """A season's points table as typed, best place first: whole numbers separated by commas,
    semicolons or spaces ("10, 7, 5, 3"), none below zero and none more than the place
    before. Empty text is an empty table (no points)."""
    table: list[int] = []
    for place, token in enumerate(_tokens(text), start=1):
        if re.fullmatch(r"-[0-9]+", token):
            raise TournamentError(MSG_POINTS_NEGATIVE, place=place, text=Typed(token))
        if not re.fullmatch(r"\+?[0-9]+", token):
            raise TournamentError(MSG_POINTS_NOT_WHOLE, place=place, text=Typed(token))
        digits = token.lstrip("+").lstrip("0")
        if len(digits) > len(str(MAX_POINTS)) or int(token) > MAX_POINTS:
            raise TournamentError(
                MSG_POINTS_TOO_MANY, place=place, limit=MAX_POINTS, text=Typed(token)
            )
        points = int(token)
        if table and points > table[-1]:
            raise TournamentError(MSG_POINTS_MORE, place=place, better=place - 1)
        table.append(points)
    return table
