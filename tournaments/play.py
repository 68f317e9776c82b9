"""Play a tournament through the real services, as a room of players would: for the demo, the
``simulate_tournament`` command and the property tests.

Each table's hands are dealt from a real shuffled shoe (``games.shoe``) and recorded, cards and
bets, by ``ledger.hands.services.record_hand`` — the pipeline the table page uses, which checks
every
stake against the player's stack. The players' choices come from one seeded
``random.Random``: the same tournament, seed and habits play the same hands. Every bet is legal
(within the round's limits, a multiple of its bet unit, the player's stakes together never over
their stack, read with ``ledger.hands.services.table_stacks``); some players sit a hand out and
some go
all in. A player who is short (or cannot cover the minimum at all) rebuys while a rebuy is open
to them; the add-on is taken by some, on a hand of their own. Stacks tied across a cut are
settled by a seeded draw, entered as the play-off's order, and the rounds are closed until the
final pays the prizes.
"""

from __future__ import annotations

import random
from contextlib import suppress
from dataclasses import dataclass
from decimal import ROUND_CEILING, Decimal

from django.core.exceptions import ValidationError

from games.cards import format_cards
from games.entry import BetEntry, HandEntry
from games.kinds import ShortStack
from games.payouts import BetType, RuleSet
from games.rules import Hand as DealtHand
from games.shoe import MAX_CARDS_PER_HAND
from games.shoe import Shoe as DealingShoe
from games.tournament import DEFAULT_SEATS, table_sizes
from games.tournament import in_play as in_play_now
from ledger.hands import services as hand_services
from ledger.models import StackRow
from ledger.money.amounts import ZERO
from shoebook.base.roles import Actor
from tournaments import services
from tournaments.models import Round, TableSeat, Tournament, TournamentTable
from tournaments.selectors import round_board

MAX_PLAYOFF_DRAWS = 20  # a round settles in a few draws: a table's play-offs, then the wildcards'
SIDES = (BetType.BANKER, BetType.PLAYER)
SIDE_BETS = (BetType.TIE, BetType.PLAYER_PAIR, BetType.BANKER_PAIR)


@dataclass(frozen=True)
class Habits:
    """How the players bet: chances per player and hand (``add_on`` per player and round)."""

    sit_out: float = 0.1  # no bet this hand
    all_in: float = 0.03  # everything they may stake on one side
    all_in_late: float = 0.15  # the same on the round's last two hands, when the cut is near
    side_bet: float = 0.06  # a minimum bet on a tie or a pair as well, when the table offers it
    add_on: float = 0.6
    # A player rebuys (while rebuys are open to them) when they cannot cover the minimum, or
    # when their stack is under this share of the starting stack.
    rebuy_under: float = 0.3


def heats_for(players: int, seats: int = DEFAULT_SEATS) -> list[tuple[int, int]]:
    """Heats that bring ``players`` down to a final table of ``seats``: ``(per_table,
    wildcards)`` for each, keeping about a third of the players a heat, and exactly a table's
    seats after the last one (fewer when a player goes out with no chips, or more when equal
    stacks split a cut)."""
    heats = []
    count = players
    while count > seats:
        tables = len(table_sizes(count, seats))
        going_on = max(seats, -(-count // 3))
        per_table = max(1, going_on // tables)
        heats.append((per_table, going_on - per_table * tables))
        count = going_on
    return heats


class Dealer:
    """Deals a table's hands from a shuffled shoe, changing to a fresh one when the cut card
    comes out (a round of many hands can outlast a shoe)."""

    def __init__(self, decks: int, rng: random.Random) -> None:
        self.decks = decks
        self.rng = rng
        self.shoe = self._fresh()

    def _fresh(self) -> DealingShoe:
        return DealingShoe(self.decks, seed=self.rng.randrange(2**32))

    def deal(self) -> DealtHand:
        if self.shoe.cut_card_out or self.shoe.remaining < MAX_CARDS_PER_HAND:
            self.shoe = self._fresh()
        return self.shoe.play_hand()


def tournament_play(
    *, tournament: Tournament, by: Actor, seed: int, habits: Habits | None = None
) -> Tournament:
    """Play every round of ``tournament`` not closed yet, in order (the final pays the prizes)."""
    rng = random.Random(seed)
    for round_ in tournament.rounds.select_related("tournament__event").order_by("number"):
        if not round_.is_closed:
            round_play(round_=round_, by=by, rng=rng, habits=habits)
    return Tournament.objects.get(pk=tournament.pk)


def round_play(
    *, round_: Round, by: Actor, rng: random.Random, habits: Habits | None = None
) -> Round:
    """Draw, start, play every table of a round to its last hand and close it."""
    if round_.drawn_at is None:
        round_ = services.round_draw(round_=round_, by=by, seed=rng.randrange(2**31))
    if not round_.is_started:
        round_ = services.round_start(round_=round_, by=by)
    for table in round_.tables.select_related("event").order_by("number"):
        table_play(table=table, by=by, rng=rng, habits=habits)
    return round_settle(round_=round_, by=by, rng=rng)


def round_settle(*, round_: Round, by: Actor, rng: random.Random) -> Round:
    """Close a played round, first settling any stacks tied across a cut by a seeded draw (the
    play-off's order: ranks after every rank given so far, so no earlier play-off is undone)."""
    round_ = Round.objects.select_related("tournament__event").get(pk=round_.pk)
    order = {int(entrant): int(rank) for entrant, rank in round_.playoff_order.items()}
    for _draw in range(MAX_PLAYOFF_DRAWS):
        round_.playoff_order = {str(entrant): rank for entrant, rank in order.items()}
        playoffs = round_board(round_).playoffs
        if not playoffs:
            return services.round_close(round_=round_, by=by, playoff_order=order or None)
        rank = max(order.values(), default=0)
        for group in playoffs:
            drawn = list(group)
            rng.shuffle(drawn)
            for entrant in drawn:
                rank += 1
                order[entrant] = rank
    raise RuntimeError(f"{round_}: the play-offs did not settle in {MAX_PLAYOFF_DRAWS} draws.")


def table_play(
    *, table: TournamentTable, by: Actor, rng: random.Random, habits: Habits | None = None
) -> None:
    """Play a started table's hands left: rebuys and add-ons, then the bets, then the cards."""
    habits = habits or Habits()
    round_ = table.round
    tournament = round_.tournament
    event = table.event
    shoe = event.shoes.get(closed_at__isnull=True)
    seats = list(TableSeat.objects.filter(table=table).select_related("entrant__guest"))
    limits = _Limits.of(round_)
    rules = event.rule_set
    dealer = Dealer(event.decks, rng)
    add_on_at = _add_on_hands(round_, seats, rng, habits)
    short = tournament.starting_stack * Decimal(str(habits.rebuy_under))
    short_rule = ShortStack(tournament.short_stack)
    first = hand_services.next_hand_number(shoe)
    for number in range(first, round_.hands + 1):
        stacks = hand_services.table_stacks(event, before_hand=number)
        bets: list[BetEntry] = []
        in_play = 0
        for place in seats:
            entrant = place.entrant
            stack = stacks.get(entrant.guest_id, ZERO)
            if add_on_at.get(entrant.pk) == number:
                stack += services.add_on(entrant=entrant, by=by).chips
            if stack < limits.lowest or stack < short:
                with suppress(ValidationError):  # the rebuy's own rules say whether it is taken
                    stack += services.rebuy(entrant=entrant, by=by).chips
            playing = in_play_now(stack, table_min=round_.table_min, short_stack=short_rule)
            in_play += playing
            last_hands = number > round_.hands - 2
            if not playing:
                continue
            for bet_type, stake in _stakes(rng, stack, limits, rules, habits, last_hands):
                bets.append(BetEntry(place.seat, bet_type, stake))
        if in_play < 2:
            return  # the last player standing: the table is done
        dealt = dealer.deal()
        hand_services.record_hand(
            shoe=shoe,
            number=number,
            entry=HandEntry(
                player_cards=format_cards(dealt.player),
                banker_cards=format_cards(dealt.banker),
                bets=tuple(bets),
            ),
            by=by,
        )


@dataclass(frozen=True)
class _Limits:
    """A round's legal stakes: multiples of the bet unit from ``lowest`` to ``table_max``."""

    lowest: Decimal
    table_max: Decimal
    unit: Decimal

    @classmethod
    def of(cls, round_: Round) -> _Limits:
        unit = round_.bet_unit
        lowest = (round_.table_min / unit).to_integral_value(rounding=ROUND_CEILING) * unit
        return cls(lowest, round_.table_max, unit)

    def down(self, amount: Decimal) -> Decimal:
        """The biggest legal multiple of the unit not over ``amount`` (and the table maximum)."""
        return min(amount, self.table_max) // self.unit * self.unit


def _stakes(
    rng: random.Random,
    stack: Decimal,
    limits: _Limits,
    rules: RuleSet,
    habits: Habits,
    last_hands: bool,
) -> list[tuple[BetType, Decimal]]:
    """One player's bets for a hand: nothing, or a stake on Banker or Player (sometimes all they
    may stake), sometimes with a minimum side bet; never more in all than ``stack``."""
    top = limits.down(stack)
    if ZERO < stack < limits.lowest and rng.random() >= habits.sit_out:
        return [(rng.choice(SIDES), stack)]  # a short stack's all-in (where it is not out)
    if top < limits.lowest or rng.random() < habits.sit_out:
        return []
    side = rng.choice(SIDES)
    if rng.random() < (habits.all_in_late if last_hands else habits.all_in):
        stake = top
    else:
        share = Decimal(rng.choice((5, 10, 10, 20, 30, 50))) / 100
        cap = max(limits.lowest, min(top, limits.down(stack * share)))
        stake = limits.lowest + limits.unit * rng.randint(
            0, int((cap - limits.lowest) / limits.unit)
        )
    bets = [(side, stake)]
    if stack - stake >= limits.lowest and rng.random() < habits.side_bet:
        offered = [bet for bet in SIDE_BETS if rules.offers(bet)]
        if offered:
            bets.append((rng.choice(offered), limits.lowest))
    return bets


def _add_on_hands(
    round_: Round, seats: list[TableSeat], rng: random.Random, habits: Habits
) -> dict[int, int]:
    """Entrant id -> the hand before which they take the add-on, for those who do."""
    tournament = round_.tournament
    if tournament.add_on_round != round_.number or not tournament.add_on_chips:
        return {}
    taken = set(
        StackRow.objects.filter(
            event__tournament_table__round__tournament=tournament, kind=StackRow.Kind.ADD_ON
        ).values_list("guest_id", flat=True)
    )
    return {
        place.entrant_id: rng.randint(1, round_.hands)
        for place in seats
        if place.entrant.guest_id not in taken and rng.random() < habits.add_on
    }
