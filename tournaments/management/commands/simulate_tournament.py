"""Play a whole tournament with random legal bets: ``manage.py simulate_tournament --players N
--seed S [--hands 14] [--tie-break playoff|split] [--keep]``.

Heats of 7-seat tables bring the players down to a final table of at most seven
(``tournaments.play.heats_for``); every hand is dealt from a real shoe and recorded through the
real services (``tournaments.play``). Prints the final standings, the money (paid in, the house's
cut, the pool, the prizes) and the ledger check, and exits with status 1 on any problem. All of it
is rolled back afterwards unless ``--keep`` is given.
"""

from __future__ import annotations

import time
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from games.kinds import TABLE_SEATS
from ledger.integrity import ledger_problems
from ledger.models import Charge, StackRow
from ledger.money.amounts import ZERO
from tournaments import services
from tournaments.models import MAX_TABLE_SEATS, MIN_TABLE_SEATS, Tournament, new_seed
from tournaments.play import heats_for, tournament_play
from tournaments.selectors import round_board

SETTINGS: dict[str, Any] = {
    "entry_fee": Decimal(50),
    "cut_percent": Decimal(10),
    "starting_stack": Decimal(1000),
    "rebuy_price": Decimal(50),
    "rebuy_chips": Decimal(1000),
    "rebuy_rounds": 1,
    "max_rebuys": 1,
    "add_on_price": Decimal(25),
    "add_on_chips": Decimal(500),
    "add_on_round": 1,
    "prize_table": "50%, 30%, 20%",
}
LIMITS = {"table_min": Decimal(10), "table_max": Decimal(1000), "bet_unit": Decimal(10)}


def amount(value: Decimal) -> str:
    return f"{value:,.2f}"


def counted(count: int, thing: str) -> str:
    return f"{count} {thing}{'' if count == 1 else 's'}"


class Command(BaseCommand):
    help = (
        "Play a tournament of N players with random legal bets through the real services; print "
        "the final standings, the money and the ledger check (exit status 1 on any problem)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True, metavar="N")
        parser.add_argument("--seed", type=int, default=None, metavar="S", help="default: random")
        parser.add_argument("--hands", type=int, default=14, help="hands a round (default 14)")
        parser.add_argument(
            "--tie-break",
            choices=[choice.value for choice in Tournament.TieBreakChoice],
            default=Tournament.TieBreakChoice.PLAYOFF.value,
        )
        parser.add_argument(
            "--tables-of",
            type=int,
            default=TABLE_SEATS,
            metavar="SEATS",
            help=f"seats a table, {MIN_TABLE_SEATS} to {MAX_TABLE_SEATS} (default {TABLE_SEATS})",
        )
        parser.add_argument(
            "--keep", action="store_true", help="keep the tournament (default: roll it back)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        players, hands = options["players"], options["hands"]
        if players < 2:
            raise CommandError("A tournament needs at least two players.")
        if not 1 <= hands <= 99:
            raise CommandError("A round is 1 to 99 hands.")
        seats = options["tables_of"]
        if not MIN_TABLE_SEATS <= seats <= MAX_TABLE_SEATS:
            raise CommandError(f"A table seats {MIN_TABLE_SEATS} to {MAX_TABLE_SEATS} players.")
        seed = new_seed() if options["seed"] is None else options["seed"]
        started = time.perf_counter()
        with transaction.atomic():
            problems = self.simulate(players, hands, seed, options["tie_break"], seats)
            if not options["keep"]:
                transaction.set_rollback(True)
        took = time.perf_counter() - started
        self.stdout.write(f"check_ledger problems: {len(problems)}")
        for problem in problems:
            self.stdout.write(f"  {problem}")
        kept = "kept" if options["keep"] else "rolled back (--keep keeps it)"
        self.stdout.write(f"Played in {took:.1f} s; {kept}.")
        if problems:
            raise CommandError(f"{len(problems)} problem(s) found.", returncode=1)

    def simulate(
        self, players: int, hands: int, seed: int, tie_break: str, seats: int
    ) -> list[str]:
        by, _created = User.objects.get_or_create(username="simulator")
        tournament = services.tournament_create(
            name=f"Simulated tournament (seed {seed})",
            date=date.today(),
            by=by,
            tie_break=tie_break,
            seats_per_table=seats,
            rebuy_until_hand=hands // 2,
            seed=seed,
            **SETTINGS,
        )
        for number in range(1, players + 1):
            services.entrant_add(tournament=tournament, name=f"Player {number:03d}", by=by)
        heats = heats_for(players, seats)
        for per_table, wildcards in heats:
            services.round_add(
                tournament=tournament,
                by=by,
                hands=hands,
                per_table=per_table,
                wildcards=wildcards,
                **LIMITS,
            )
        services.round_add(tournament=tournament, by=by, hands=hands, is_final=True, **LIMITS)
        self.stdout.write(
            f"{players} players, seed {seed}, tie-break {tie_break}, tables of {seats}: "
            f"{counted(len(heats), 'heat')} of {hands} hands, then the final table."
        )
        tournament = tournament_play(tournament=tournament, by=by, seed=seed)
        self.report_rounds(tournament)
        return self.report_money(tournament) + [str(p) for p in ledger_problems()]

    def report_rounds(self, tournament: Tournament) -> None:
        for round_ in tournament.rounds.order_by("number"):
            board = round_board(round_)
            name = "Final" if round_.is_final else f"Heat {round_.number}"
            wildcards = sum(line.wildcard for line in board.lines)
            going_on = "" if round_.is_final else f"; {len(board.qualified)} go on"
            going_on += f" ({counted(wildcards, 'wildcard')})" if wildcards else ""
            playoffs = f"; play-off order {round_.playoff_order}" if round_.playoff_order else ""
            self.stdout.write(
                f"{name}: {len(board.lines)} players at {counted(len(board.tables), 'table')}"
                f"{going_on}"
                f"{playoffs}"
            )
        final = tournament.rounds.get(is_final=True)
        lines = sorted(round_board(final).lines, key=lambda line: (line.place or 0, line.name))
        prizes = dict(tournament.entrants.values_list("pk", "prize"))
        self.stdout.write("Final standings:")
        for line in lines:
            prize = prizes.get(line.entrant_id) or ZERO
            self.stdout.write(
                f"  {line.place:>3}  {line.name:<12} {amount(line.stack):>12} chips"
                f"   prize {amount(prize):>10}"
            )

    def report_money(self, tournament: Tournament) -> list[str]:
        charges = Charge.objects.filter(event=tournament.event)
        paid_in = -sum((c.amount for c in charges.exclude(kind=Charge.Kind.PRIZE)), ZERO)
        paid_out = sum((c.amount for c in charges.filter(kind=Charge.Kind.PRIZE)), ZERO)
        rows = StackRow.objects.filter(event__tournament_table__round__tournament=tournament)
        entries = tournament.entrants.count()
        rebuys = rows.filter(kind=StackRow.Kind.REBUY).count()
        add_ons = rows.filter(kind=StackRow.Kind.ADD_ON).count()
        cut, pool = services.tournament_pool(tournament)
        self.stdout.write(
            f"Paid in {amount(paid_in)} ({entries} entries, {counted(rebuys, 'rebuy')}, "
            f"{counted(add_ons, 'add-on')}); "
            f"house cut {amount(cut)}; prize pool {amount(pool)}; prizes paid {amount(paid_out)}."
        )
        problems = []
        expected = (
            entries * tournament.entry_fee
            + rebuys * tournament.rebuy_price
            + add_ons * tournament.add_on_price
        )
        if paid_in != expected:
            problems.append(f"paid in {paid_in}: the entries, rebuys and add-ons make {expected}")
        if cut + pool != paid_in:
            problems.append(f"the cut {cut} and the pool {pool} are not what was paid in")
        if paid_out != pool:
            problems.append(f"the prizes paid ({paid_out}) are not the pool ({pool})")
        return problems
