"""A tournament's results: the final standings (or the standings so far), each round's stacks
seat by seat, the pool and the house's cut; and the season's standings with tournament points.

Reads only, each in a fixed number of queries whatever the number of rounds, tables, players,
hands or tournaments: sums are done by the database, the rest in Python over their rows. A stack
is what it is everywhere (``ledger.hands.services.table_stacks``): the player's stack rows at the
table plus their bets' net results there.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from games.models import Event
from games.tournament import parse_points, points_for, prize_pool
from ledger.models import Bet, Charge, StackRow
from ledger.money.amounts import ZERO, format_chips, money_sum
from ledger.money.results import standings
from tournaments.models import Entrant, Round, TableSeat, Tournament


@dataclass(frozen=True)
class Pool:
    """What the players paid in (entries, rebuys, add-ons), the house's cut of it and the prize
    pool left, by the tournament's settings (``games.tournament.prize_pool``); and the prizes
    paid so far."""

    tournament: Tournament
    paid_in: Decimal
    cut: Decimal
    pool: Decimal
    prizes: Decimal = ZERO

    @property
    def house_net(self) -> Decimal:
        """What the house keeps: everything paid in less the prizes (its cut, once paid)."""
        return self.paid_in - self.prizes

    @property
    def configured_cut(self) -> str:
        return configured_cut(self.tournament)


def configured_cut(tournament: Tournament) -> str:
    """The cut as the host set it: "10%", "5.00 per entry", or "10% + 5.00 per entry"."""
    percent = f"{tournament.cut_percent.normalize():f}%"
    if not tournament.cut_fixed:
        return percent
    fixed = _("{amount} per entry").format(amount=format_chips(tournament.cut_fixed))
    return f"{percent} + {fixed}" if tournament.cut_percent else fixed


def _pool(tournament: Tournament, *, paid_in: Decimal, entries: int, prizes: Decimal) -> Pool:
    cut, pool = prize_pool(
        paid_in=paid_in,
        entries=entries,
        cut_percent=tournament.cut_percent,
        cut_fixed_per_entry=tournament.cut_fixed,
    )
    return Pool(tournament, paid_in, cut, pool, prizes)


def event_pools(event_ids: Collection[int]) -> dict[int, Pool]:
    """The pool of each tournament played on one of these events, by event id. Three queries
    (none without events)."""
    if not event_ids:
        return {}
    tournaments = {t.event_id: t for t in Tournament.objects.filter(event_id__in=event_ids)}
    if not tournaments:
        return {}
    paid_in: dict[int, Decimal] = defaultdict(lambda: ZERO)
    prizes: dict[int, Decimal] = defaultdict(lambda: ZERO)
    charges = (
        Charge.objects.filter(event_id__in=tournaments)
        .values_list("event_id", "kind")
        .annotate(n=money_sum("amount"))
        .order_by()
    )
    for event_id, kind, amount in charges:
        if kind == Charge.Kind.PRIZE:
            prizes[event_id] += amount
        else:
            paid_in[event_id] -= amount  # what a guest owes is negative
    entries = dict(
        Entrant.objects.filter(tournament__in=tournaments.values())
        .values_list("tournament_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {
        event_id: _pool(
            tournament,
            paid_in=paid_in[event_id],
            entries=entries.get(tournament.pk, 0),
            prizes=prizes[event_id],
        )
        for event_id, tournament in tournaments.items()
    }


# --- one tournament -------------------------------------------------------------------------


@dataclass
class SeatResult:
    """One player at one table of one round: what they brought, bought and ended with."""

    round: Round
    table: int
    seat: int
    entrant_id: int
    name: str
    brought: Decimal = ZERO  # the starting stack, or the stack carried from the round before
    carried: bool = False
    rebuys: int = 0
    rebuy_chips: Decimal = ZERO
    add_ons: int = 0
    add_on_chips: Decimal = ZERO
    result: Decimal = ZERO  # the net of their bets at the table
    went_on: bool | None = None  # after a closed heat; None while it is open, and at the final
    place: int | None = None  # at the final table, once it is settled

    @property
    def stack(self) -> Decimal | None:
        """The stack at the end of the round (so far, while it is played); none before it
        starts."""
        if not self.round.is_started:
            return None
        return self.brought + self.rebuy_chips + self.add_on_chips + self.result


@dataclass
class StandingLine:
    """One player's tournament: place (or how far they got), prize, money paid in, and their
    stack at the end of each round they played (``stacks``, one per round of the report: None
    where they did not play it, or it has not started)."""

    entrant_id: int
    guest_id: int
    name: str
    number: int
    place: int | None
    prize: Decimal
    out_after_round: int | None
    paid_in: Decimal = ZERO
    rebuys: int = 0
    add_ons: int = 0
    stacks: list[Decimal | None] = field(default_factory=list)

    @property
    def net(self) -> Decimal:
        """The player's money result: prize less what they paid in."""
        return self.prize - self.paid_in

    @property
    def last_stack(self) -> Decimal | None:
        return next((stack for stack in reversed(self.stacks) if stack is not None), None)

    def sort_key(self) -> tuple[int, int, Decimal, int]:
        """Placed players by place; then those still in, biggest stack first; then those out,
        the later out first and, among them, the bigger stack first."""
        stack = -(self.last_stack or ZERO)
        if self.place is not None:
            return (0, self.place, ZERO, self.number)
        if self.out_after_round is None:
            return (1, 0, stack, self.number)
        return (2, -self.out_after_round, stack, self.number)


@dataclass
class TournamentReport:
    tournament: Tournament
    rounds: list[Round]
    seats: list[SeatResult]  # by round, table, seat
    lines: list[StandingLine]  # best first
    pool: Pool

    def seats_of(self, round_: Round) -> list[SeatResult]:
        return [seat for seat in self.seats if seat.round.pk == round_.pk]

    def went_on(self, round_: Round) -> list[str]:
        """Who went on from a closed heat, in table and seat order."""
        return [seat.name for seat in self.seats_of(round_) if seat.went_on]


def tournament_report(tournament: Tournament) -> TournamentReport:
    """Everything about a tournament's results: six queries, whatever its size."""
    rounds = list(tournament.rounds.order_by("number"))
    by_round = {round_.pk: round_ for round_ in rounds}
    entrants = {entrant.pk: entrant for entrant in tournament.entrants.select_related("guest")}
    in_tournament = {"event__tournament_table__round__tournament": tournament}
    bought: dict[tuple[int, int, str], tuple[Decimal, int]] = {
        (event_id, guest_id, kind): (chips, count)
        for event_id, guest_id, kind, chips, count in StackRow.objects.filter(**in_tournament)
        .values_list("event_id", "guest_id", "kind")
        .annotate(chips=money_sum("chips"), n=Count("id"))
        .order_by()
    }
    results: dict[tuple[int, int], Decimal] = {
        (event_id, guest_id): net
        for event_id, guest_id, net in Bet.objects.filter(**in_tournament)
        .values_list("event_id", "guest_id")
        .annotate(net=money_sum("net"))
        .order_by()
    }
    seats = []
    draw = (
        TableSeat.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table__number", "seat")
        .values_list("round_id", "table__number", "table__event_id", "seat", "entrant_id")
    )
    for round_id, table, event_id, seat, entrant_id in draw:
        round_, entrant = by_round[round_id], entrants[entrant_id]
        guest_id = entrant.guest_id
        start = bought.get((event_id, guest_id, StackRow.Kind.START), (ZERO, 0))[0]
        carried = bought.get((event_id, guest_id, StackRow.Kind.CARRIED), (ZERO, 0))[0]
        rebuy_chips, rebuys = bought.get((event_id, guest_id, StackRow.Kind.REBUY), (ZERO, 0))
        add_on_chips, add_ons = bought.get((event_id, guest_id, StackRow.Kind.ADD_ON), (ZERO, 0))
        went_on = None
        if round_.is_closed and not round_.is_final:
            went_on = entrant.out_after_round != round_.number
        seats.append(
            SeatResult(
                round=round_,
                table=table,
                seat=seat,
                entrant_id=entrant_id,
                name=entrant.guest.name,
                brought=start + carried,
                carried=bool(carried),
                rebuys=rebuys,
                rebuy_chips=rebuy_chips,
                add_ons=add_ons,
                add_on_chips=add_on_chips,
                result=results.get((event_id, guest_id), ZERO),
                went_on=went_on,
                place=entrant.place if round_.is_final else None,
            )
        )
    paid_in: dict[int, Decimal] = dict(
        Charge.objects.filter(event_id=tournament.event_id)
        .exclude(kind=Charge.Kind.PRIZE)
        .values_list("guest_id")
        .annotate(n=money_sum("amount"))
        .order_by()
    )
    lines = _standing_lines(rounds, entrants.values(), seats, paid_in)
    pool = _pool(
        tournament,
        paid_in=sum((line.paid_in for line in lines), ZERO),
        entries=len(entrants),
        prizes=sum((line.prize for line in lines), ZERO),
    )
    return TournamentReport(tournament, rounds, seats, lines, pool)


def _standing_lines(
    rounds: list[Round],
    entrants: Collection[Entrant],
    seats: list[SeatResult],
    paid_in: dict[int, Decimal],
) -> list[StandingLine]:
    column = {round_.pk: index for index, round_ in enumerate(rounds)}
    lines = {
        entrant.pk: StandingLine(
            entrant_id=entrant.pk,
            guest_id=entrant.guest_id,
            name=entrant.guest.name,
            number=entrant.number,
            place=entrant.place,
            prize=entrant.prize or ZERO,
            out_after_round=entrant.out_after_round,
            paid_in=-paid_in.get(entrant.guest_id, ZERO),
            stacks=[None] * len(rounds),
        )
        for entrant in entrants
    }
    for seat in seats:
        line = lines[seat.entrant_id]
        line.stacks[column[seat.round.pk]] = seat.stack
        line.rebuys += seat.rebuys
        line.add_ons += seat.add_ons
    return sorted(lines.values(), key=StandingLine.sort_key)


# --- the season -----------------------------------------------------------------------------


@dataclass
class SeasonLine:
    """A guest over a date range: their money result (cash nights and tournaments' entries and
    prizes alike, as in the ledger's standings) and their finished tournaments' points."""

    guest_id: int
    name: str
    net: Decimal = ZERO
    hands: int = 0
    points: int = 0
    played: int = 0
    best: int | None = None  # the best place reached at a final table


def season_standings(events: QuerySet[Event]) -> list[SeasonLine]:
    """Every guest with a result or a finished tournament among ``events``, most points first
    (then the better net). Three queries."""
    lines = {
        row.guest_id: SeasonLine(row.guest_id, row.name, net=row.net, hands=row.hands)
        for row in standings(events)
    }
    finished = {
        pk: parse_points(table)
        for pk, table in Tournament.objects.filter(
            event__in=events, finished_at__isnull=False
        ).values_list("pk", "points_table")
    }
    entries = Entrant.objects.filter(tournament__in=finished).values_list(
        "tournament_id", "guest_id", "guest__name", "place"
    )
    for tournament_id, guest_id, name, place in entries:
        line = lines.setdefault(guest_id, SeasonLine(guest_id, name))
        line.played += 1
        if place is not None:
            line.points += points_for(place, finished[tournament_id])
            line.best = place if line.best is None else min(line.best, place)
    return sorted(lines.values(), key=lambda line: (-line.points, -line.net, line.name.casefold()))
