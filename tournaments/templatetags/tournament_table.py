"""A tournament on the pages games and ledger draw, which never import tournaments: the bar and
the seats' tools on a tournament table's page, and the live leaderboard on the table display
and on a player's own page. Each tag answers for a tournament table (or a player in a
tournament) and draws nothing for anything else."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import template
from django.forms import Form
from django.urls import reverse

from games.models import Event
from games.payouts import BetType
from ledger.forms import stake_text
from ledger.hands.forms import stake_field_name
from ledger.hands.selectors import SeatState, TableState
from ledger.models import Guest
from tournaments.models import Round
from tournaments.selectors import (
    BoardLine,
    RoundBoard,
    SeatNow,
    TableNow,
    round_board,
    round_of_event,
    rounds_now,
    table_now,
)

register = template.Library()

# How often a player's own page asks for the leaderboard again.
LEADERBOARD_REFRESH_SECONDS = 10


@register.simple_tag
def tournament_table(event: Event) -> TableNow | None:
    """``{% tournament_table event as tour %}``: the tournament table on ``event``, if it is one."""
    if event.kind != Event.Kind.TOURNAMENT_TABLE:
        return None
    return table_now(event)


@register.inclusion_tag("tournaments/_table_bar.html")
def tournament_table_bar(now: TableNow, state: TableState) -> dict[str, Any]:
    """Round and table, the hand of the round, the limits; every seat's stack when no hand is
    being entered (while one is, they stand beside the seats)."""
    entering = state.shoe.is_open and state.event.is_open
    return {"now": now, "entering": entering, "seats": list(now.seats.values())}


@register.inclusion_tag("tournaments/_table_seat.html")
def tournament_seat(now: TableNow, seat: SeatState, table_url: str) -> dict[str, Any]:
    """Beside a seat: its last result and its stack (or "out") — the stack says what a cash
    table's shoe total would —, the first-bet marker, and the two buttons a host uses as the
    bets go down: the mandatory minimum for a player who has not bet, placed as if typed, and
    the player's secret bet."""
    info: SeatNow | None = now.seats.get(seat.seat)
    if info is None or seat.guest is None:
        return {"info": None}
    box = stake_field_name(seat.seat, BetType(now.mandatory_side))
    minimum = stake_text(now.round.table_min)
    return {
        "info": info,
        "seat": seat,
        "playing": now.is_playing and not info.is_out,
        "box": box,
        "minimum": minimum,
        "side": now.tournament.get_mandatory_side_display(),
        "minimum_url": f"{table_url}?{box}={minimum}",
    }


@register.simple_tag
def tournament_stake_errors(form: Form) -> list[tuple[int, str]]:
    """The stake boxes' problems, each with its seat, by seat: where a seat's bet is secret the
    page says that something is wrong, not what (the message may name the stake)."""
    found = []
    for name, messages in form.errors.items():
        if name.startswith("stake_"):
            seat = int(name.split("_")[1])
            found += [(seat, str(message)) for message in messages]
    return sorted(found, key=lambda item: item[0])


# --- the leaderboard ------------------------------------------------------------------------


@dataclass
class TableStanding:
    number: int
    hands: int
    played: int
    hands_left: int
    done: bool
    lines: list[BoardLine]
    last_standing: str | None = None


def standings(board: RoundBoard) -> list[TableStanding]:
    """Each table of the round, its players by stack (the biggest first)."""
    return [
        TableStanding(
            number=table.table.number,
            hands=table.hands,
            played=table.played,
            hands_left=table.hands_left,
            done=table.is_done,
            lines=sorted(table.lines, key=lambda line: (-line.stack, line.seat)),
            last_standing=table.last_standing.name if table.last_standing else None,
        )
        for table in board.tables
    ]


def leaderboard_context(round_: Round, highlight_guest_id: int | None = None) -> dict[str, Any]:
    board = round_board(round_)
    return {
        "round": round_,
        "tournament": round_.tournament,
        "tables": standings(board),
        "playoffs": [", ".join(names) for names in board.playoff_names],
        "highlight": highlight_guest_id,
    }


@register.inclusion_tag("tournaments/_leaderboard.html")
def tournament_leaderboard(event: Event, highlight_guest_id: int | None = None) -> dict[str, Any]:
    """The live leaderboard of the round a tournament table (or a tournament's night) is at:
    every table's stacks, who goes on as things stand, the hands left."""
    round_ = round_of_event(event)
    if round_ is None:
        return {"round": None}
    return leaderboard_context(round_, highlight_guest_id)


def leaderboard_now_context(guest: Guest, refresh_url: str) -> dict[str, Any]:
    """A player's "Tournament now": the leaderboard of each tournament they are in whose round
    is under way, their own line marked."""
    return {
        "boards": [leaderboard_context(round_, guest.pk) for round_ in rounds_now(guest.pk)],
        "refresh_url": refresh_url,
        "refresh_seconds": LEADERBOARD_REFRESH_SECONDS,
    }


@register.inclusion_tag("tournaments/_leaderboard_now.html", takes_context=True)
def tournament_now(context: template.Context, guest: Guest, oob: bool = False) -> dict[str, Any]:
    """On a player's own page (by their private link, or logged in as ``me``). ``oob``: sent
    along with the page's live part (``_guest_live.html``), which it replaces out of band."""
    request = context["request"]
    match = request.resolver_match
    if match is not None and match.url_name == "my_page":
        url = reverse("tournament_table:my_standings")
    elif match is not None and {"guest_id", "token"} <= match.kwargs.keys():
        url = reverse(
            "tournament_table:guest_standings",
            args=[match.kwargs["guest_id"], match.kwargs["token"]],
        )
    else:
        url = request.path
    return leaderboard_now_context(guest, url) | {"oob": oob}
