"""Setting up the tournaments that the bounds and the rebuy groups attack; it attacks nothing
itself. A round added, drawn and started at one table; a hand played at a tournament table through
the service, for the setting up (the cases post theirs through the table's form). What must happen
is the groups' own.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User

from games.entry import BetEntry, HandEntry
from games.payouts import BetType
from games.rules import Winner
from ledger.hands import services as hand_services
from tournaments import services as tournament_services
from tournaments.models import Round, Tournament, TournamentTable


def started_round(cup: Tournament, host: User, hands: int = 6) -> Round:
    round_ = tournament_services.round_add(
        tournament=cup, by=host, hands=hands, table_min=Decimal(10), table_max=Decimal(1000),
        bet_unit=Decimal(10),
    )  # fmt: skip
    tournament_services.round_draw(round_=round_, by=host, seed=1)
    return tournament_services.round_start(round_=round_, by=host)


def play(table: TournamentTable, host: User, result: str, bets: dict[int, tuple[str, str]]) -> None:
    """A hand at a tournament table, for the setting up (the cases post theirs)."""
    shoe = table.event.shoes.get()
    hand_services.record_hand(
        shoe=shoe, number=hand_services.next_hand_number(shoe), by=host,
        entry=HandEntry(result=Winner(result), bets=tuple(
            BetEntry(seat, BetType(kind), Decimal(stake)) for seat, (kind, stake) in bets.items())),
    )  # fmt: skip
