"""Reads of a tournament: a round's board (stacks at every table, who is qualifying, hands left)
in a fixed number of queries, whatever the number of tables, players or hands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TypedDict

from django.db.models import Count, Max, QuerySet
from django.utils.translation import gettext_lazy as _

from games.kinds import ShortStack
from games.models import Event, Shoe
from games.tournament import (
    Advancement,
    Place,
    TieBreak,
    advance_by_stack,
    advance_by_table,
    first_bet_among,
    first_bet_seat,
    in_play,
    needs_playoff,
    parse_prize_table,
    places,
    prizes,
    table_finished,
)
from ledger.hands.services import table_stacks, tables_stacks
from ledger.models import Bet, Charge, StackRow
from ledger.money.amounts import ZERO, money_sum
from tournaments.models import Entrant, Round, TableSeat, Tournament, TournamentTable


@dataclass
class BoardLine:
    entrant_id: int
    guest_id: int
    name: str
    table: int
    seat: int
    stack: Decimal
    qualifying: bool = False
    wildcard: bool = False
    place: int | None = None
    # Under a tournament's "a short stack is out": the table minimum, under which a stack is out.
    out_under: Decimal = ZERO

    @property
    def is_out(self) -> bool:
        return self.stack <= 0 or self.stack < self.out_under


@dataclass
class TableBoard:
    table: TournamentTable
    hands: int
    played: int
    closed: bool
    lines: list[BoardLine] = field(default_factory=list)
    # The seats whose players had chips before each hand so far and the next (``in_play[k]``:
    # before hand ``k + 1``); empty before the round starts.
    in_play: list[set[int]] = field(default_factory=list)
    # The round's table minimum and the tournament's rule for a stack under it.
    table_min: Decimal = ZERO
    short_stack: ShortStack = ShortStack.ALL_IN

    @property
    def hands_left(self) -> int:
        return 0 if self.is_done else max(self.hands - self.played, 0)

    @property
    def is_done(self) -> bool:
        stacks = [line.stack for line in self.lines]
        return self.closed or table_finished(
            stacks,
            played=self.played,
            hands=self.hands,
            table_min=self.table_min,
            short_stack=self.short_stack,
        )

    @property
    def last_standing(self) -> BoardLine | None:
        """The one player left with chips when that ended the table before its last hand."""
        standing = [line for line in self.lines if not line.is_out]
        if self.played >= self.hands or len(standing) != 1 or not self.is_done:
            return None
        return standing[0]

    @property
    def first_bet_seat(self) -> int | None:
        """Who bets first on the next hand: the marker moves a seat a hand, past anyone out."""
        if not self.lines or self.is_done:
            return None
        if not self.in_play:  # not started: everyone drawn has the starting stack
            return first_bet_seat([line.seat for line in self.lines], 1)
        return first_bet_among(self.in_play)


@dataclass
class RoundBoard:
    round: Round
    tables: list[TableBoard]
    qualified: tuple[int, ...] = ()
    playoffs: tuple[tuple[int, ...], ...] = ()
    places: list[Place] = field(default_factory=list)
    # The final's rule turned the split ties of this heat into play-offs (more would go on
    # than one table seats).
    overflow_playoff: bool = False

    @property
    def lines(self) -> list[BoardLine]:
        return [line for table in self.tables for line in table.lines]

    @property
    def by_stack(self) -> list[BoardLine]:
        return sorted(self.lines, key=lambda line: (-line.stack, line.table, line.seat))

    @property
    def playoff_names(self) -> list[list[str]]:
        names = {line.entrant_id: line.name for line in self.lines}
        return [[names[entrant] for entrant in group] for group in self.playoffs]

    @property
    def is_done(self) -> bool:
        return bool(self.tables) and all(table.is_done for table in self.tables)

    @property
    def going_on(self) -> int:
        """How many the heat's numbers send on: the top of each table and the wildcards, or
        how many go on in all."""
        round_ = self.round
        if round_.tournament.advancement == Tournament.Advancement.BY_STACK:
            return round_.keep
        return round_.per_table * len(self.tables) + round_.wildcards


def _pace(event_ids: list[int]) -> dict[int, tuple[int, bool]]:
    """Event id -> (hands played, whether its shoe is closed). One query."""
    shoes = (
        Shoe.objects.filter(event_id__in=event_ids)
        .values_list("event_id", "closed_at")
        .annotate(played=Max("hands__number"))
        .order_by()
    )
    return {event_id: (played or 0, closed is not None) for event_id, closed, played in shoes}


def round_board(round_: Round) -> RoundBoard:
    """Every table of the round with its players' stacks, and who goes on as things stand."""
    tournament: Tournament = round_.tournament
    tables = list(round_.tables.select_related("event"))
    event_ids = [table.event_id for table in tables]
    seats = TableSeat.objects.filter(round=round_).select_related("entrant__guest", "table")
    stacks = tables_stacks(event_ids) if round_.is_started else {}
    pace = _pace(event_ids)
    rule = short_stack_rule(tournament, round_)
    boards = {
        table.pk: TableBoard(table, round_.hands, *pace.get(table.event_id, (0, False)), **rule)
        for table in tables
    }
    for place in seats.order_by("table__number", "seat"):
        guest = place.entrant.guest
        stack = stacks.get((place.table.event_id, guest.pk), ZERO)
        if not round_.is_started:
            stack = tournament.starting_stack
        boards[place.table_id].lines.append(
            BoardLine(
                place.entrant_id,
                guest.pk,
                guest.name,
                place.table.number,
                place.seat,
                stack,
                out_under=_out_under(rule),
            )
        )
    if round_.is_started:
        _fill_in_play(boards.values())
    board = RoundBoard(round_, list(boards.values()))
    _decide(board, tournament)
    return board


class ShortStackRule(TypedDict):
    table_min: Decimal
    short_stack: ShortStack


def short_stack_rule(tournament: Tournament, round_: Round) -> ShortStackRule:
    """The round's table minimum and the tournament's rule for a stack under it."""
    return {"table_min": round_.table_min, "short_stack": ShortStack(tournament.short_stack)}


def _out_under(rule: ShortStackRule) -> Decimal:
    return rule["table_min"] if rule["short_stack"] is ShortStack.OUT else ZERO


def _fill_in_play(boards: Iterable[TableBoard]) -> None:
    """Each table's seats in play before each of its hands so far and the next, from its
    players' stack rows and their bets' results hand by hand. Two queries."""
    by_event = {board.table.event_id: board for board in boards}
    seat_of = {
        (event_id, line.guest_id): line.seat
        for event_id, board in by_event.items()
        for line in board.lines
    }
    changes: dict[int, dict[int, list[tuple[int, Decimal]]]] = {pk: {} for pk in by_event}
    rows = StackRow.objects.filter(event_id__in=by_event).values_list(
        "event_id", "guest_id", "after_hand", "chips"
    )
    for event_id, guest_id, after_hand, chips in rows:
        # chips that came after hand n count from hand n + 1 on
        changes[event_id].setdefault(after_hand + 1, []).append((guest_id, chips))
    nets = (
        Bet.objects.filter(event_id__in=by_event)
        .values_list("event_id", "guest_id", "hand__number")
        .annotate(n=money_sum("net"))
        .order_by()
    )
    for event_id, guest_id, number, net in nets:
        changes[event_id].setdefault(number + 1, []).append((guest_id, net))
    for event_id, board in by_event.items():
        stacks: dict[int, Decimal] = {}
        board.in_play = []
        for hand in range(1, board.played + 2):
            for guest_id, amount in changes[event_id].get(hand, ()):
                stacks[guest_id] = stacks.get(guest_id, ZERO) + amount
            board.in_play.append(
                {
                    seat_of[(event_id, guest_id)]
                    for guest_id, stack in stacks.items()
                    if (event_id, guest_id) in seat_of
                    and in_play(stack, table_min=board.table_min, short_stack=board.short_stack)
                }
            )


def _playoff_order(round_: Round) -> dict[int, int]:
    return {int(key): int(rank) for key, rank in (round_.playoff_order or {}).items()}


def _decide(board: RoundBoard, tournament: Tournament) -> None:
    round_ = board.round
    tie_break = TieBreak(tournament.tie_break)
    order = _playoff_order(round_)
    stacks = {line.entrant_id: line.stack for line in board.lines}
    if round_.is_final:
        board.places = places(stacks, tie_break=tie_break, playoff_order=order)
        where = {p: place.place for place in board.places for p in place.players}
        for line in board.lines:
            line.place = where.get(line.entrant_id)
        if tie_break == TieBreak.PLAYOFF:
            board.playoffs = tuple(
                group
                for group in needs_playoff(stacks)
                if stacks[group[0]] > 0 and not all(p in order for p in group)
            )
        board.qualified = tuple(stacks)
        return
    advancement = _advance(board, tournament, tie_break, order)
    if (
        tie_break is TieBreak.SPLIT
        and tournament.final_overflow == Tournament.FinalOverflow.PLAYOFF
        and board.going_on <= tournament.seats_per_table < len(advancement.qualified)
    ):
        # Split ties would send more on than one table seats: those tied play off instead.
        board.overflow_playoff = True
        advancement = _advance(board, tournament, TieBreak.PLAYOFF, order)
    board.qualified, board.playoffs = advancement.qualified, advancement.playoffs
    for line in board.lines:
        line.qualifying = line.entrant_id in advancement.qualified
        line.wildcard = line.entrant_id in advancement.wildcards


def _advance(
    board: RoundBoard, tournament: Tournament, tie_break: TieBreak, order: dict[int, int]
) -> Advancement:
    round_ = board.round
    if tournament.advancement == Tournament.Advancement.BY_STACK:
        return advance_by_stack(
            stacks_of(board), keep=round_.keep, tie_break=tie_break, playoff_order=order
        )
    per_table = [{line.entrant_id: line.stack for line in table.lines} for table in board.tables]
    return advance_by_table(
        per_table,
        per_table=round_.per_table,
        wildcards=round_.wildcards,
        tie_break=tie_break,
        playoff_order=order,
    )


def stacks_of(board: RoundBoard) -> dict[int, Decimal]:
    return {line.entrant_id: line.stack for line in board.lines}


def current_round(tournament: Tournament) -> Round | None:
    """The round being played, else the next one to draw or start, else the last one."""
    rounds = list(tournament.rounds.all())
    for round_ in rounds:
        if not round_.is_closed:
            return round_
    return rounds[-1] if rounds else None


def entrant_of(tournament: Tournament, guest_id: int) -> Entrant | None:
    return tournament.entrants.filter(guest_id=guest_id).first()


# --- the host's pages -----------------------------------------------------------------------


def tournaments_for_list() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("event").annotate(
        player_count=Count("entrants", distinct=True), round_count=Count("rounds", distinct=True)
    )


NOWHERE = 10**6  # past any place or round: sorts last


@dataclass
class EntrantRow:
    """A registered player, what they owe for the tournament (entry, rebuys, add-ons), and how
    they finished: out after a round, or their place and prize; with their stack after each
    round started so far (``None``: not at a table that round)."""

    entrant: Entrant
    paid_in: Decimal = ZERO
    rebuys: int = 0
    add_ons: int = 0
    stacks: list[Decimal | None] = field(default_factory=list)


def entrant_rows(tournament: Tournament, rounds: Sequence[Round]) -> list[EntrantRow]:
    """Every player in standings order (place, then who went out last, then registration),
    with ``rounds``' stacks. Five queries, whatever the number of players and rounds."""
    entrants = tournament.entrants.select_related("guest")
    rows = {entrant.pk: EntrantRow(entrant) for entrant in entrants}
    by_guest = {row.entrant.guest_id: row for row in rows.values()}
    charges = (
        Charge.objects.filter(event_id=tournament.event_id)
        .exclude(kind=Charge.Kind.PRIZE)
        .values_list("guest_id", "kind")
        .annotate(total=money_sum("amount"), n=Count("id"))
        .order_by()
    )
    for guest_id, kind, total, count in charges:
        if (row := by_guest.get(guest_id)) is None:
            continue
        row.paid_in -= total
        if kind == Charge.Kind.REBUY:
            row.rebuys += count
        elif kind == Charge.Kind.ADD_ON:
            row.add_ons += count
    stacks = _round_stacks(tournament)
    for row in rows.values():
        row.stacks = [stacks.get((round_.pk, row.entrant.pk)) for round_ in rounds]

    def standing(row: EntrantRow) -> tuple[int, int, int]:
        entrant = row.entrant  # still playing, then out later before out earlier
        return (entrant.place or NOWHERE, -(entrant.out_after_round or NOWHERE), entrant.number)

    return sorted(rows.values(), key=standing)


def _round_stacks(tournament: Tournament) -> dict[tuple[int, int], Decimal]:
    """(round id, entrant id) -> the stack at the end of the round (or now, while it plays), for
    every started round. Three queries."""
    seats = list(
        TableSeat.objects.filter(round__tournament=tournament, round__started_at__isnull=False)
        .values_list("round_id", "entrant_id", "entrant__guest_id", "table__event_id")
        .order_by()
    )
    stacks = tables_stacks(sorted({event_id for *_ids, event_id in seats}))
    return {
        (round_id, entrant_id): stacks.get((event_id, guest_id), ZERO)
        for round_id, entrant_id, guest_id, event_id in seats
    }


def prize_schedule(
    tournament: Tournament, pool: Decimal, entries: int
) -> list[tuple[int, Decimal]]:
    """What each place of the prize table pays from ``pool`` as things stand: (place, amount),
    by the rounding rule of ``games.tournament.prizes`` (with fewer players than places, the
    places nobody can reach are 1st place's)."""
    shares, by_amount = parse_prize_table(tournament.prize_table)
    paid = len(shares) if by_amount or not entries else min(len(shares), entries)
    standings = [Place(place, (place,)) for place in range(1, paid + 1)]
    won = prizes(pool, shares, standings, by_amount=by_amount)
    return [(place.place, won[place.place]) for place in standings]


def final_prizes(tournament: Tournament, board: RoundBoard, pool: Decimal) -> dict[int, Decimal]:
    """Entrant id -> what they win if the final table closes as it stands."""
    shares, by_amount = parse_prize_table(tournament.prize_table)
    return prizes(pool, shares, board.places, by_amount=by_amount)


def table_shoes(round_: Round) -> dict[int, int]:
    """Table id -> the id of its shoe (the live table page), for the tables that have one."""
    shoes = (
        Shoe.objects.filter(event__tournament_table__round=round_)
        .values_list("event__tournament_table__id", "id")
        .order_by("number")
    )
    return dict(shoes)


# --- at the table ---------------------------------------------------------------------------

MSG_SECRET_OFF = _("This tournament has no secret bet.")
MSG_SECRET_LAST_HAND = _("The secret bet is for the round's last hand, hand {hands}.")
MSG_SECRET_USED = _("{guest} has had their secret bet this round (hand {hand}).")


def secret_bet_refusal(
    tournament: Tournament, round_: Round, *, guest: str, used_on: int | None, hand_number: int
) -> str | None:
    """Why a player may not make their secret bet on ``hand_number`` (``used_on``: the hand of
    the round they made it on, if any), or ``None`` when they may: one per round, on the last
    hand or on any hand as the tournament says."""
    if tournament.secret_bet == Tournament.SecretBet.OFF:
        return str(MSG_SECRET_OFF)
    if tournament.secret_bet == Tournament.SecretBet.LAST_HAND and hand_number != round_.hands:
        return str(MSG_SECRET_LAST_HAND).format(hands=round_.hands)
    if used_on is not None and used_on != hand_number:
        return str(MSG_SECRET_USED).format(guest=guest, hand=used_on)
    return None


@dataclass
class SeatNow:
    """A seat of a tournament table as the hand being entered starts."""

    seat: int
    guest_id: int
    name: str
    stack: Decimal
    first_bet: bool = False
    secret: bool = False  # their secret bet is marked on the hand being entered
    may_go_secret: bool = False  # they may mark it there
    out_under: Decimal = ZERO  # as :attr:`BoardLine.out_under`

    @property
    def is_out(self) -> bool:
        return self.stack <= 0 or self.stack < self.out_under


@dataclass
class TableNow:
    """A tournament table while its hands are entered: the round, the hand, each seat's stack,
    who bets first and whose bet is secret."""

    board: TableBoard
    round: Round
    tournament: Tournament
    seats: dict[int, SeatNow]

    @property
    def table(self) -> TournamentTable:
        return self.board.table

    @property
    def next_hand(self) -> int:
        return self.board.played + 1

    @property
    def is_playing(self) -> bool:
        return self.round.is_started and not self.round.is_closed and not self.board.is_done

    @property
    def first_bet_seat(self) -> int | None:
        return self.board.first_bet_seat if self.is_playing else None

    @property
    def secret_seats(self) -> set[int]:
        return {seat.seat for seat in self.seats.values() if seat.secret}

    @property
    def mandatory_side(self) -> str:
        return self.tournament.mandatory_side


def table_now(event: Event) -> TableNow | None:
    """The tournament table played on ``event`` as it stands (``None`` for any other event):
    each seat's stack from ``ledger.hands.services.table_stacks``. Seven queries."""
    table = TournamentTable.objects.select_related("round__tournament").filter(event=event).first()
    if table is None:
        return None
    table.event = event
    round_, tournament = table.round, table.round.tournament
    played, closed = _pace([event.pk]).get(event.pk, (0, False))
    stacks = table_stacks(event, before_hand=played + 1) if round_.is_started else {}
    rule = short_stack_rule(tournament, round_)
    board = TableBoard(table, round_.hands, played, closed, **rule)
    places = list(table.seats.select_related("entrant__guest").order_by("seat"))
    for place in places:
        guest = place.entrant.guest
        stack = stacks.get(guest.pk, ZERO) if round_.is_started else tournament.starting_stack
        board.lines.append(
            BoardLine(
                place.entrant_id,
                guest.pk,
                guest.name,
                table.number,
                place.seat,
                stack,
                out_under=_out_under(rule),
            )
        )
    if round_.is_started:
        _fill_in_play([board])
    now = TableNow(board, round_, tournament, {})
    for place, line in zip(places, board.lines, strict=True):
        refusal = secret_bet_refusal(
            tournament,
            round_,
            guest=line.name,
            used_on=place.secret_hand,
            hand_number=now.next_hand,
        )
        now.seats[place.seat] = SeatNow(
            place.seat,
            line.guest_id,
            line.name,
            line.stack,
            first_bet=place.seat == now.first_bet_seat,
            secret=now.is_playing and place.secret_hand == now.next_hand,
            may_go_secret=now.is_playing and refusal is None and not line.is_out,
            out_under=line.out_under,
        )
    return now


def rounds_now(guest_id: int) -> list[Round]:
    """The round each unfinished tournament ``guest_id`` entered is at: the latest started one
    (being played, or just closed while the next is drawn). One query."""
    rounds = (
        Round.objects.filter(
            tournament__entrants__guest_id=guest_id,
            tournament__finished_at__isnull=True,
            started_at__isnull=False,
        )
        .select_related("tournament__event")
        .order_by("tournament__event__date", "tournament_id", "-number")
    )
    latest: dict[int, Round] = {}
    for round_ in rounds:
        latest.setdefault(round_.tournament_id, round_)
    return list(latest.values())


def round_of_event(event: Event) -> Round | None:
    """The round a tournament table belongs to, or a tournament's current round. One query
    (two for a tournament's own night)."""
    if event.kind == Event.Kind.TOURNAMENT_TABLE:
        return Round.objects.select_related("tournament__event").filter(tables__event=event).first()
    tournament = Tournament.objects.filter(event=event).first()
    return current_round(tournament) if tournament is not None else None


# --- what the live streams carry (shoebook.base.live) ----------------------------------------


def round_topics(rounds: Iterable[Round]) -> list[str]:
    """A leaderboard's topics: its tournament's (rebuys, add-ons, a round drawn, started or
    closed) and each table's of its round (a hand saved there moves the stacks). One query."""
    rounds = list(rounds)
    tables = TournamentTable.objects.filter(round__in=rounds).values_list("event_id", flat=True)
    return [
        *dict.fromkeys(f"tournament:{round_.tournament_id}" for round_ in rounds),
        *(f"event:{event_id}" for event_id in tables),
    ]


def guest_topics(guest_id: int) -> list[str]:
    """A guest's own page: their own changes (a hand at their table among them: the page then
    fetches their figures and their leaderboard at once) and each of their rounds' (a round
    drawn, started or closed, a rebuy, a hand at another table: its leaderboard alone is
    fetched, at most every few seconds, so that a hundred phones do not all ask at each hand)."""
    return [f"guest:{guest_id}", *round_topics(rounds_now(guest_id))]


def display_topics(event: Event) -> list[str]:
    """A table display: its event (and, at a tournament table, its round's: a hand at any of
    its tables moves the leaderboard it shows)."""
    round_ = round_of_event(event) if event.kind != Event.Kind.CASH else None
    return [f"event:{event.pk}", *(round_topics([round_]) if round_ else [])]


def tournament_topics(tournament: Tournament) -> list[str]:
    """The staff's boards of a tournament: every round that is started and not closed."""
    rounds = tournament.rounds.filter(started_at__isnull=False, closed_at__isnull=True)
    return [f"tournament:{tournament.pk}", *round_topics(rounds)]
