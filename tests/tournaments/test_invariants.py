"""Property tests: for random tournaments played to the end with random legal bets
(``tournaments.play``), chips are conserved, advancement and places follow the rules, the prize
pool is paid out to the cent, and the ledger and the guests' balances agree.

Each example builds its tournament through the services inside a transaction it rolls back. The
expected figures are recomputed here from the rows (stack rows, bets, charges), not read from the
round board or the tournament's own sums."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from itertools import pairwise

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from hypothesis import HealthCheck, event, example, given, reject, settings
from hypothesis import strategies as st

from games.kinds import ShortStack
from games.models import Hand
from ledger.hands.services import table_stacks
from ledger.integrity import ledger_problems
from ledger.models import Bet, Charge, StackRow
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import guest_balance_now
from tests.conftest import examples
from tournaments import services
from tournaments.models import Round, TableSeat, Tournament
from tournaments.play import Habits, tournament_play
from tournaments.selectors import round_board

pytestmark = pytest.mark.django_db
D = Decimal
CENT = D("0.01")


@st.composite
def prize_tables(draw: st.DrawFn) -> str:
    """Percentages to the hundredth, best place first, adding up to exactly 100."""
    weights = sorted(draw(st.lists(st.integers(1, 100), min_size=1, max_size=5)), reverse=True)
    hundredths = [weight * 10_000 // sum(weights) for weight in weights]
    hundredths[0] += 10_000 - sum(hundredths)
    return ", ".join(f"{D(share) / 100}%" for share in hundredths)


money = st.decimals(min_value=0, max_value=80, places=2)
settings_ = st.fixed_dictionaries(
    {
        "entry_fee": money,
        "cut_percent": st.decimals(min_value=0, max_value=40, places=2),
        "cut_fixed": st.sampled_from([D(0), D(0), D(1), D("2.50")]),
        "starting_stack": st.sampled_from([D(100), D(500), D(1000)]),
        "stacks": st.sampled_from(Tournament.Stacks.values),
        "advancement": st.sampled_from(Tournament.Advancement.values),
        "tie_break": st.sampled_from(Tournament.TieBreakChoice.values),
        "rebuy_price": money,
        "rebuy_chips": st.sampled_from([D(0), D(100), D(1000), D(1000)]),
        "rebuy_rounds": st.sampled_from([0, 1, 1, 2]),
        "rebuy_until_hand": st.integers(0, 3),
        "max_rebuys": st.integers(1, 2),
        "add_on_price": money,
        "add_on_chips": st.sampled_from([D(0), D(250)]),
        "add_on_round": st.integers(0, 2),
        "prize_table": prize_tables(),
    }
)


@st.composite
def limits(draw: st.DrawFn) -> dict[str, object]:
    """A round's limits and hands; a flat table (one stake allowed) makes equal stacks common.
    The minimum is a multiple of the unit (a stake the table takes)."""
    table_min = draw(st.sampled_from([D(5), D(10), D(15)]))
    flat = draw(st.booleans())
    units = [unit for unit in (D(1), D(5), D(10)) if table_min % unit == 0]
    return {
        "bet_unit": table_min if flat else draw(st.sampled_from(units)),
        "table_min": table_min,
        "table_max": table_min if flat else draw(st.sampled_from([D(50), D(200), D(1000)])),
        "hands": draw(st.integers(1, 4)),
    }


heats = st.fixed_dictionaries(
    {
        "per_table": st.integers(1, 3),
        "wildcards": st.integers(0, 2),
        "keep": st.integers(2, 8),
        "limits": limits(),
    }
).filter(lambda heat: heat["per_table"] + heat["wildcards"] >= 2)
habits = st.builds(
    Habits,
    sit_out=st.sampled_from([0.0, 0.1, 0.5]),
    all_in=st.sampled_from([0.0, 0.05, 0.4]),
    all_in_late=st.sampled_from([0.0, 0.15, 0.6]),
    side_bet=st.sampled_from([0.0, 0.1, 0.5]),
    add_on=st.sampled_from([0.0, 0.6, 1.0]),
    rebuy_under=st.sampled_from([0.0, 0.3, 0.9, 1.0]),
)
tournaments = st.fixed_dictionaries(
    {
        "players": st.integers(2, 16),
        "seed": st.integers(0, 2**31 - 1),
        "habits": habits,
        "settings": settings_,
        "heats": st.lists(heats, max_size=2),
        "final": limits(),
    }
)


def build(host, spec) -> Tournament:
    tournament = services.tournament_create(
        name="Property cup", date=date(2026, 5, 1), by=host, **spec["settings"]
    )
    for number in range(spec["players"]):
        services.entrant_add(tournament=tournament, name=f"P{number:02d}", by=host)
    by_stack = tournament.advancement == Tournament.Advancement.BY_STACK
    for heat in spec["heats"]:
        rules = {"keep": heat["keep"]} if by_stack else {}
        rules |= {"per_table": heat["per_table"], "wildcards": heat["wildcards"]}
        services.round_add(tournament=tournament, by=host, **heat["limits"], **rules)
    services.round_add(tournament=tournament, by=host, is_final=True, **spec["final"])
    return tournament


def too_few_players(error: ValidationError) -> bool:
    """A heat left fewer than two players with chips: the tournament cannot go on."""
    few = {str(services.MSG_TOO_FEW_PLAYERS).format(count=count) for count in (0, 1)}
    return bool(set(error.messages) & few)


def stacks_at(round_: Round) -> dict[int, tuple[int, Decimal]]:
    """Entrant id -> (table number, stack at the end of the round): their stack rows at the
    table plus their bets' net there, summed here from the rows."""
    stacks = {}
    for seat in TableSeat.objects.filter(round=round_).select_related("table", "entrant"):
        rows = StackRow.objects.filter(event_id=seat.table.event_id, guest_id=seat.entrant.guest_id)
        bets = Bet.objects.filter(event_id=seat.table.event_id, guest_id=seat.entrant.guest_id)
        stack = rows.aggregate(n=money_sum("chips"))["n"] + bets.aggregate(n=money_sum("net"))["n"]
        stacks[seat.entrant_id] = (seat.table.number, stack)
    return stacks


def check_chips(tournament: Tournament, rounds: list[Round]) -> None:
    """(a) Chips are conserved, at every table and in every hand; every stake was legal."""
    before: dict[int, Decimal] = {}
    for round_ in rounds:
        board = round_board(round_)
        stacks = stacks_at(round_)
        assert {line.entrant_id: line.stack for line in board.lines} == {
            entrant: stack for entrant, (_table, stack) in stacks.items()
        }
        for table in round_.tables.select_related("event"):
            event = table.event
            rows = StackRow.objects.filter(event=event)
            shown = sum((line.stack for line in board.lines if line.table == table.number), ZERO)
            brought = rows.aggregate(n=money_sum("chips"))["n"]
            results = Bet.objects.filter(event=event).aggregate(n=money_sum("net"))["n"]
            assert shown == brought + results
            # Each player brings the starting stack, or the stack they ended the last round
            # with when stacks carry over; rebuys and add-ons bring their chips.
            for row in rows.select_related("guest"):
                entrant = tournament.entrants.get(guest=row.guest).pk
                expected = {
                    StackRow.Kind.START: tournament.starting_stack,
                    StackRow.Kind.CARRIED: before.get(entrant),
                    StackRow.Kind.REBUY: tournament.rebuy_chips,
                    StackRow.Kind.ADD_ON: tournament.add_on_chips,
                }[row.kind]
                assert row.chips == expected, row
                carries = tournament.stacks == Tournament.Stacks.CARRIED and round_.number > 1
                if row.kind in (StackRow.Kind.START, StackRow.Kind.CARRIED):
                    assert (row.kind == StackRow.Kind.CARRIED) == carries
            for hand in Hand.objects.filter(shoe__event=event).prefetch_related("bets"):
                bets = list(hand.bets.all())
                players = sum((bet.net for bet in bets), ZERO)
                bank = sum((bet.commission - bet.gross for bet in bets), ZERO)
                assert players + bank == 0
                stack_then = table_stacks(event, before_hand=hand.number)
                staked: dict[int, Decimal] = defaultdict(lambda: ZERO)
                for bet in bets:
                    # A stack under the minimum bets all of it (the all-in rule), whatever the
                    # minimum and the unit; any other bet keeps both.
                    all_in = (
                        tournament.short_stack == ShortStack.ALL_IN
                        and bet.stake == stack_then[bet.guest_id] < round_.table_min
                    )
                    if not all_in:
                        assert bet.stake % round_.bet_unit == 0
                        assert round_.table_min <= bet.stake
                    assert bet.stake <= round_.table_max
                    staked[bet.guest_id] += bet.stake
                for guest_id, total in staked.items():
                    assert total <= stack_then[guest_id]
            assert all(stack >= 0 for stack in table_stacks(event, before_hand=100).values())
        before = {entrant: stack for entrant, (_table, stack) in stacks.items()}
    rebuys = StackRow.objects.filter(kind=StackRow.Kind.REBUY)
    for guest_id in rebuys.values_list("guest_id", flat=True):
        assert rebuys.filter(guest_id=guest_id).count() <= tournament.max_rebuys
    add_ons = StackRow.objects.filter(kind=StackRow.Kind.ADD_ON)
    assert add_ons.count() == add_ons.values("guest_id").distinct().count()


def check_advancement(tournament: Tournament, rounds: list[Round]) -> None:
    """(b) Who went on, and the final's places, follow the rules for the stacks as they are."""
    split = tournament.tie_break == Tournament.TieBreakChoice.SPLIT
    for round_, following in pairwise(rounds):
        stacks = stacks_at(round_)
        going_on = set(following.seats.values_list("entrant_id", flat=True))
        out = set(
            tournament.entrants.filter(out_after_round=round_.number).values_list("pk", flat=True)
        )
        assert going_on | out == set(stacks) and not going_on & out
        assert all(stacks[entrant][1] > 0 for entrant in going_on)  # no empty stack goes on
        left = [entrant for entrant in stacks if entrant not in going_on]
        in_play = [entrant for entrant, (_table, stack) in stacks.items() if stack > 0]
        if tournament.advancement == Tournament.Advancement.BY_STACK:
            for entrant in going_on:
                assert all(stacks[entrant][1] >= stacks[other][1] for other in left)
            expected = min(round_.keep, len(in_play))
        else:
            tables = defaultdict(list)
            for entrant, (table, stack) in stacks.items():
                tables[table].append((stack, entrant))
            at_table_cut = set()
            expected = 0
            rest = 0
            for table, seated in tables.items():
                ranked = sorted((stack for stack, _entrant in seated if stack > 0), reverse=True)
                made = min(round_.per_table, len(ranked))
                expected += made
                rest += len(ranked) - made
                line = ranked[made - 1] if made else None
                for stack, entrant in seated:
                    if entrant in going_on:
                        # Never below someone at their table who went out.
                        assert all(
                            stack >= stacks[other][1] for other in left if stacks[other][0] == table
                        )
                        if line is not None and stack >= line:
                            at_table_cut.add(entrant)
            # The rest got in as wildcards: at least as big as everyone who went out.
            for entrant in going_on - at_table_cut:
                assert all(stacks[entrant][1] >= stacks[other][1] for other in left)
            expected += min(round_.wildcards, rest)
        if split:
            assert len(going_on) >= expected  # everyone tied at a cut goes on
        else:
            assert len(going_on) == expected  # play-offs settle every tie at a cut
    final = rounds[-1]
    stacks = {entrant: stack for entrant, (_table, stack) in stacks_at(final).items()}
    placed = dict(tournament.entrants.filter(place__isnull=False).values_list("pk", "place"))
    assert set(placed) == set(stacks)
    for entrant, stack in stacks.items():
        above = [other for other in stacks if stacks[other] > stack]
        tied = [other for other in stacks if stacks[other] == stack and other != entrant]
        if split or stack == 0:
            assert placed[entrant] == 1 + len(above)  # equal stacks share a place
        else:
            # A play-off orders equal stacks: one place each, within their stacks' places.
            assert 1 + len(above) <= placed[entrant] <= 1 + len(above) + len(tied)
            assert all(placed[other] != placed[entrant] for other in tied)


def check_money(tournament: Tournament) -> None:
    """(c) The pool is paid out exactly; (d) the ledger agrees with itself and the balances."""
    entrants = list(tournament.entrants.all())
    paid: dict[int, Decimal] = {}
    for entrant in entrants:
        rows = StackRow.objects.filter(guest_id=entrant.guest_id)
        paid[entrant.guest_id] = (
            tournament.entry_fee
            + rows.filter(kind=StackRow.Kind.REBUY).count() * tournament.rebuy_price
            + rows.filter(kind=StackRow.Kind.ADD_ON).count() * tournament.add_on_price
        )
    paid_in = sum(paid.values(), ZERO)
    charged = Charge.objects.filter(event=tournament.event)
    assert -charged.exclude(kind=Charge.Kind.PRIZE).aggregate(n=money_sum("amount"))["n"] == paid_in
    cut = (paid_in * tournament.cut_percent / 100).quantize(CENT, ROUND_HALF_UP)
    cut = min(cut + tournament.cut_fixed * len(entrants), paid_in)
    pool = paid_in - cut
    assert services.tournament_pool(tournament) == (cut, pool)
    prizes = {e.guest_id: e.prize or ZERO for e in entrants}
    prize_rows = charged.filter(kind=Charge.Kind.PRIZE)
    assert sum(prizes.values(), ZERO) == pool  # no cent lost, none made up
    assert prize_rows.aggregate(n=money_sum("amount"))["n"] == pool
    assert {row.guest_id: row.amount for row in prize_rows} == {
        guest: prize for guest, prize in prizes.items() if prize
    }
    by_place = defaultdict(list)
    for entrant in entrants:
        if entrant.place:
            by_place[entrant.place].append(entrant.prize)
    for shares in by_place.values():
        assert max(shares) - min(shares) <= CENT  # tied places share to the cent
    assert ledger_problems() == []
    for entrant in entrants:
        guest = entrant.guest_id
        assert guest_balance_now(guest_id=guest) == prizes[guest] - paid[guest]


def example_spec(**changes: object) -> dict[str, object]:
    """A 14-player tournament of two heats on flat tables (equal stacks all round), rebuys and
    the add-on open, stacks carried: every rule at work, whatever the generated examples."""
    flat = {"bet_unit": D(10), "table_min": D(10), "table_max": D(10), "hands": 3}
    spec = {
        "players": 14,
        "seed": 7,
        "habits": Habits(rebuy_under=0.99, all_in_late=0.5),
        "settings": {
            "entry_fee": D("33.33"),
            "cut_percent": D("12.5"),
            "cut_fixed": D(1),
            "starting_stack": D(100),
            "stacks": Tournament.Stacks.CARRIED,
            "advancement": Tournament.Advancement.BY_TABLE,
            "tie_break": Tournament.TieBreakChoice.PLAYOFF,
            "rebuy_price": D("10.10"),
            "rebuy_chips": D(100),
            "rebuy_rounds": 1,
            "rebuy_until_hand": 0,
            "max_rebuys": 2,
            "add_on_price": D(5),
            "add_on_chips": D(50),
            "add_on_round": 2,
            "prize_table": "50%, 33.33%, 16.67%",
        },
        "heats": [
            {"per_table": 3, "wildcards": 2, "keep": 8, "limits": flat},
            {"per_table": 2, "wildcards": 1, "keep": 4, "limits": flat},
        ],
        "final": flat,
    }
    return spec | changes


SPLIT_BY_STACK = {
    "advancement": Tournament.Advancement.BY_STACK,
    "tie_break": Tournament.TieBreakChoice.SPLIT,
}


# Seed 7 plays off a table's tie and then the wildcards'; with the stacks' rule and split ties,
# seed 2 sends nine on where eight places were open, and seed 6 shares first place (and an odd
# cent of its prizes).
# Found on PostgreSQL: a stack of 0.55 under the minimum of 5 bets all of it, off the unit of 1.
@example(
    spec={
        "players": 2,
        "seed": 2_147_483_646,
        "habits": Habits(sit_out=0.0, all_in=0.0, all_in_late=0.15, side_bet=0.1, add_on=0.0,
                         rebuy_under=0.0),
        "settings": example_spec()["settings"] | {
            "entry_fee": D(0), "cut_percent": D(0), "cut_fixed": D(0),
            "stacks": Tournament.Stacks.RESET, "tie_break": Tournament.TieBreakChoice.SPLIT,
            "rebuy_price": D(0), "rebuy_chips": D(0), "rebuy_rounds": 0, "max_rebuys": 1,
            "add_on_price": D(0), "add_on_chips": D(0), "add_on_round": 0, "prize_table": "100%",
        },
        "heats": [],
        "final": {"bet_unit": D(1), "table_min": D(5), "table_max": D(200), "hands": 4},
    }
)  # fmt: skip
@example(spec=example_spec())
@example(spec=example_spec(seed=2, settings=example_spec()["settings"] | SPLIT_BY_STACK))
@example(spec=example_spec(seed=6, settings=example_spec()["settings"] | SPLIT_BY_STACK))
@settings(
    max_examples=examples(30),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow
@pytest.mark.long
@given(spec=tournaments)
def test_random_tournaments_conserve_chips_follow_the_rules_and_pay_the_pool(spec, host):
    with transaction.atomic():
        tournament = build(host, spec)
        try:
            tournament = tournament_play(
                tournament=tournament, by=host, seed=spec["seed"], habits=spec["habits"]
            )
        except ValidationError as error:
            if too_few_players(error):
                reject()
            raise
        assert tournament.is_finished
        rounds = list(tournament.rounds.order_by("number"))
        check_chips(tournament, rounds)
        check_advancement(tournament, rounds)
        check_money(tournament)
        for kind in ("rebuy", "add_on"):
            if StackRow.objects.filter(kind=kind).exists():
                event(kind)
        if any(round_.playoff_order for round_ in rounds):
            event("a play-off")
        event(f"{len(rounds)} rounds, the final at {rounds[-1].tables.count()} tables")
        transaction.set_rollback(True)
