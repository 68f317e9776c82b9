"""A Chemin de fer night as demo data: a week after the tournament, at the same bar, eight of the
reference night's guests round one table and one shoe of six decks.

The coups are dealt from a seeded shoe, card by card, in Chemin de fer's own steps
(``chemin_drawing.next_step``): the ponte holding the cards chooses on 5 (one guest always stands
there, the others draw), the banker draws wherever he may choose (his best play, see the Rules &
odds page). Who banks follows the rules: seat 1 first; a winning banker keeps the bank, or gives
a suite after two wins running (a guest two seats to his right takes it); a losing bank passes
to the right. The pontes cover in seat order from the banker's right; a new bank is met with a
banco solo now and then, and a ponte whose banco lost calls suivi. The eighth guest takes a seat
half way through.

The night is planned in memory through the pipeline itself (``games.settle.settle``,
each coup following from the one before), then recorded coup by coup through
``ledger.hands.services.record_hand``, the host's own path, which settles it again from the ledger.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.db import transaction

from games import services as game_services
from games.cards import Card, format_cards
from games.entry import BetEntry, HandEntry
from games.guest_banked.bank import next_bank
from games.guest_banked.chemin_drawing import Choice, Coup, Step, deal, next_step
from games.guest_banked.chemin_money import seat_order
from games.guest_banked.terms import BankRules, CoupTerms, PreviousCoup
from games.kinds import TABLE_SEATS, BankerMove, CoverKind, Game, seats_of
from games.models import Event, Hand
from games.payouts import STANDARD_RULES
from games.rules import Winner
from games.settle import GuestBankedTable, settle
from games.shoe import Shoe as DealingShoe
from ledger.demo import GUEST_NAMES, seat_as_played
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.nights import services as night_services
from shoebook.base.roles import Actor

NAME = "Chemin de fer night"
DEMO_SEED = "chemin-de-fer-9"
DECKS = 6
COUPS = 30
MINIMUM_BANCO = Decimal(100)
CHIP = 10
GUESTS = GUEST_NAMES[:8]  # seven seated at the start; the eighth takes a seat later
ARRIVES_BEFORE = 16  # the coup before which the eighth guest sits down
STANDS_ON_FIVE = GUEST_NAMES[4]  # the one ponte who stands on 5
WINS_BEFORE_SUITE = 2
RULES = BankRules(game=Game.CHEMIN_DE_FER, minimum_banco=MINIMUM_BANCO, decks=DECKS)
START = datetime(2008, 7, 26, 22, 0, tzinfo=ZoneInfo("Asia/Tokyo"))
COUP_TIME = timedelta(minutes=4)


@dataclass(frozen=True)
class PlannedCoup:
    """A coup as the host enters it, and who sits down just before it (seat, guest's name)."""

    entry: HandEntry
    sits_down: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class _Dealt:
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    ponte_choice: Choice | None
    banker_choice: Choice | None

    def coup(self) -> Coup:
        return deal(
            self.player,
            self.banker,
            ponte_choice=self.ponte_choice,
            banker_choice=self.banker_choice,
            decks=DECKS,
        )


def _deal(cards: DealingShoe, *, stands_on_five: bool) -> _Dealt:
    """One coup from the shoe in Chemin de fer's order: ponte, banker, ponte, banker, then each
    side's choice and third card as the rules call for them."""
    player = [cards.deal()]
    banker = [cards.deal()]
    player.append(cards.deal())
    banker.append(cards.deal())
    ponte_choice = banker_choice = None
    while step := next_step(
        tuple(player), tuple(banker), ponte_choice=ponte_choice, banker_choice=banker_choice
    ):
        if step is Step.PONTE_CHOICE:
            ponte_choice = Choice.STAND if stands_on_five else Choice.DRAW
        elif step is Step.PONTE_CARD:
            player.append(cards.deal())
        elif step is Step.BANKER_CHOICE:
            banker_choice = Choice.DRAW
        else:
            banker.append(cards.deal())
    return _Dealt(tuple(player), tuple(banker), ponte_choice, banker_choice)


def _next_bank(
    rng: random.Random, before: PreviousCoup | None, seats: set[int]
) -> tuple[int, Decimal]:
    """Who banks and with how much, as the coup before leaves it; a new banker puts up one to
    three times the minimum banco."""
    bank = next_bank(Game.CHEMIN_DE_FER, before, seats)
    assert bank.banker_seat is not None
    if bank.amount is not None:
        return bank.banker_seat, bank.amount
    return bank.banker_seat, MINIMUM_BANCO * (2 if before is None else rng.choice((1, 1, 2, 3)))


def _covers(
    rng: random.Random,
    bank: Decimal,
    banker_seat: int,
    seats: set[int],
    before: PreviousCoup | None,
) -> list[BetEntry]:
    """The pontes' stakes, in seat order from the banker's right: a suivi when one is due, a
    banco solo now and then against a new bank, else stakes until the bank is covered (or the
    table has had enough: the rest goes back to the banker)."""
    order = seat_order(banker_seat, seats)
    suivi = before.suivi_seat if before is not None else None
    if suivi in order:
        return [BetEntry(suivi, CoverKind.SUIVI.value, bank)]
    new_bank = before is None or before.move is not BankerMove.KEEP
    if new_bank and rng.random() < 0.5:
        return [BetEntry(order[0], CoverKind.BANCO_SOLO.value, bank)]
    stakes = []
    left = bank
    for seat in order:
        if rng.random() < 0.25:
            continue  # sits this coup out
        stake = min(left, Decimal(CHIP * rng.choice((1, 2, 3, 5, 5, 10, 15, 20))))
        stakes.append(BetEntry(seat, CoverKind.ORDINARY.value, stake))
        left -= stake
        if left < CHIP:  # the smallest stake the table takes: 10% of the minimum banco
            break
    return stakes or [BetEntry(order[0], CoverKind.ORDINARY.value, min(bank, Decimal(5 * CHIP)))]


def plan_night(seed: str = DEMO_SEED) -> list[PlannedCoup]:
    """The night's coups, each settled in memory by the pipeline after the one before."""
    rng = random.Random(seed)
    cards = DealingShoe(DECKS, seed=seed)
    seated = dict(zip(seats_of(TABLE_SEATS), GUESTS, strict=False))
    planned: list[PlannedCoup] = []
    before: PreviousCoup | None = None
    wins = 0  # the banker's wins running, in this bank
    for number in range(1, COUPS + 1):
        banker_seat, bank = _next_bank(rng, before, set(seated))
        if before is None or before.move is not BankerMove.KEEP:
            wins = 0
        sits_down: tuple[tuple[int, str], ...] = ()
        if number == ARRIVES_BEFORE:
            # The eighth guest takes the seat of one who leaves: not the banker's, nor that of
            # a ponte who may call suivi.
            busy = {banker_seat, before.suivi_seat if before is not None else None}
            seat = max(seat for seat in seated if seat not in busy)
            seated[seat] = GUESTS[-1]
            sits_down = ((seat, GUESTS[-1]),)
        covers = _covers(rng, bank, banker_seat, set(seated), before)
        holder = seated[int(max(covers, key=lambda cover: Decimal(cover.stake)).seat)]
        dealt = _deal(cards, stands_on_five=holder == STANDS_ON_FIVE)
        entry = HandEntry(
            player_cards=format_cards(dealt.player),
            banker_cards=format_cards(dealt.banker),
            bets=tuple(covers),
        )
        winner = dealt.coup().outcome().winner
        wins += winner is Winner.BANKER
        move, suite_seat = BankerMove.PASS, None
        if winner is not Winner.PLAYER:
            move = BankerMove.KEEP
            if number == COUPS:
                move = BankerMove.RETIRE  # the night is over: he takes what is on the table
            elif winner is Winner.BANKER and wins >= WINS_BEFORE_SUITE:
                order = seat_order(banker_seat, seated)
                move, suite_seat = BankerMove.SUITE, order[1 % len(order)]
        entry = _with_move(entry, banker_seat, bank, dealt, move, suite_seat)
        settled = settle(entry, GuestBankedTable(RULES, seated, before))
        assert settled.coup is not None
        before = settled.coup.next_state
        planned.append(PlannedCoup(entry, sits_down))
    return planned


def _with_move(
    entry: HandEntry,
    banker_seat: int,
    bank: Decimal,
    dealt: _Dealt,
    move: BankerMove,
    suite_seat: int | None,
) -> HandEntry:
    terms = CoupTerms(
        banker_seat=banker_seat,
        bank=bank,
        ponte_choice=dealt.ponte_choice,
        banker_choice=dealt.banker_choice,
        move=move,
        suite_seat=suite_seat,
    )
    return HandEntry(
        player_cards=entry.player_cards,
        banker_cards=entry.banker_cards,
        bets=entry.bets,
        coup=terms,
    )


@transaction.atomic
def load_demo_chemin(*, by: Actor) -> Event:
    event = game_services.event_create(
        name=NAME,
        date=START.date(),
        venue="The bar, after closing",
        format=Event.Format.BIG,
        rules=STANDARD_RULES,
        by=by,
        decks=DECKS,
        currency_symbol="$",
        money_per_chip=Decimal(100),
        table_min=MINIMUM_BANCO,
        table_max=Decimal(5000),
        hands_per_shoe=COUPS,
        game=Game.CHEMIN_DE_FER.value,
        taxe=Event.Cut.PERCENT,
        taxe_rate=Decimal("0.05"),
    )
    guests = {
        name: guest_services.event_guest_add(event=event, name=name, by=by) for name in GUESTS
    }
    shoe = game_services.shoe_start(event=event, by=by)
    for seat, name in zip(seats_of(TABLE_SEATS), GUESTS, strict=False):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guests[name], by=by)
    for number, coup in enumerate(plan_night(), start=1):
        for seat, name in coup.sits_down:
            hand_services.seat_guest(shoe=shoe, seat=seat, guest=guests[name], by=by)
        hand_services.record_hand(shoe=shoe, number=number, entry=coup.entry, by=by)
    night_services.shoe_close(shoe=shoe, by=by)
    _spread_over_the_night(event)
    return event


def _spread_over_the_night(event: Event) -> None:
    """Coups logged from ten o'clock, four minutes apart, not in seconds."""
    hands = list(Hand.objects.filter(shoe__event=event).order_by("number"))
    for hand in hands:
        hand.logged_at = START + COUP_TIME * (hand.number - 1)
    Hand.objects.bulk_update(hands, ["logged_at"])
    seat_as_played(event, COUP_TIME)
