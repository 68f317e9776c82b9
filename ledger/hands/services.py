"""Writes for the table: who sits where, a hand (or a guest-banked coup) recorded through the rules
core, undone, corrected.

Every write is atomic and locks the shoe it writes to, so two devices at one table take turns. Bad
input raises ``ValidationError`` keyed by the form field it concerns and changes nothing. A
changed hand keeps its history (``HandRevision``)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any, NotRequired, TypedDict

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.entry import (
    MSG_NO_SUCH_SEAT,
    EntryRejected,
    HandEntry,
    Problem,
    SettledHand,
    TableRules,
    read_seat,
)
from games.kinds import ShortStack
from games.locks import lock_night_of_shoe
from games.models import Event, Hand, Shoe
from games.payouts import BetType
from games.services import check_event_open, check_shoe_open
from games.settle import GuestBankedTable, PuntoBancoTable, Table, settle
from games.tournament import in_play
from ledger.guests.services import MSG_NOT_ON_LIST
from ledger.hands import hot_reads
from ledger.hands.coups import check_later_coups, coup_of, coup_row, coup_snapshot, previous_coup
from ledger.hands.selectors import facts_stamp
from ledger.locks import hold_guests
from ledger.models import (
    AuditEntry,
    Bet,
    Coup,
    EventGuest,
    Guest,
    HandRevision,
    Seating,
    StackRow,
)
from ledger.money.amounts import ZERO, money_sum
from ledger.money.services import results_add, results_refresh
from shoebook.base.live import announce_to
from shoebook.base.roles import Actor

MSG_HAND_TAKEN = _(
    "Hand {number} was already recorded by {user} at {time}; the table now shows hand {next}."
)


MSG_HAND_OUT_OF_SEQUENCE = _("The next hand in this shoe is hand {next}, not {number}.")


MSG_COUP_TAKEN = _(
    "Coup {number} was already recorded by {user} at {time}; the table now shows coup {next}."
)


MSG_COUP_OUT_OF_SEQUENCE = _("The next coup in this shoe is coup {next}, not {number}.")


MSG_NOTHING_TO_UNDO = _("There is no hand to undo in this shoe.")


MSG_UNDO_NOT_LAST = _(
    "Hand {number} is no longer the last hand: the shoe now ends at hand {last}. Nothing was "
    "undone — check the table and undo again if need be."
)


MSG_REASON_REQUIRED = _("Say why the hand is being corrected.")


MSG_NOTHING_CHANGED = _("Nothing to correct: the cards, result and bets are as recorded.")


MSG_KEY_OTHER_SHOE = _("This submission belongs to another shoe.")


MSG_ROUND_OVER = _("This round is {hands} hands, all played: the table is done.")
MSG_LAST_STANDING = _("Only {guest} has chips left: the table is done.")
MSG_NOBODY_STANDING = _("Nobody has chips left: the table is done.")


MSG_DRAWN_SEATS = _("A tournament table's seats are its round's draw: they do not change.")


MSG_LATER_OVER_STACK = _(
    "With this correction a player's stakes at hand {number} are more than their stack then: "
    "correct the hands in order from the last one, or undo them."
)


MSG_HAND_GONE = _("Hand {number} was undone meanwhile: there is nothing to correct.")


MSG_HAND_CHANGED = _(
    "Hand {number} was changed meanwhile (it is now version {version}): check it and save again."
)


MSG_KEY_REUSED = _(
    "This page's submission was already saved as hand {number} with other cards or bets: "
    "reload the page."
)


MSG_SEAT_CHANGED = _("Seat {seat} is now {guest}: check the bets and save again.")


MSG_SEAT_NOW_EMPTY = _("Seat {seat} is now empty: check the bets and save again.")


MSG_SEAT_BET_BY = _("{bets} was bet by {was}.")


MSG_NOBODY = _("nobody")


class HandTaken(ValidationError):
    """Another device recorded this hand number first (or the number is out of sequence).
    ``hand``: the hand recorded under that number, if any."""

    hand: Hand | None = None


def next_hand_number(shoe: Shoe) -> int:
    return (shoe.hands.aggregate(last=Max("number"))["last"] or 0) + 1


def _end_seating(seating: Seating, next_number: int) -> None:
    if seating.from_hand >= next_number:
        seating.delete()  # seated but never played a hand: nothing to keep
    else:
        seating.to_hand = next_number - 1
        seating.save(update_fields=["to_hand"])


def _lock_open_shoe(shoe: Shoe) -> Shoe:
    """The shoe's night locked, then the shoe, read afresh; refused unless both are open."""
    lock_night_of_shoe(shoe)
    locked = (
        Shoe.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=shoe.pk)
    )
    check_shoe_open(locked)
    return locked


def _check_seat(event: Event, seat: int) -> None:
    if seat not in event.seat_numbers:
        message = gettext(MSG_NO_SUCH_SEAT).format(seat=seat, last=event.seats)
        raise ValidationError({"seat": message})


@transaction.atomic
def seat_guest(*, shoe: Shoe, seat: int, guest: Guest, by: Actor) -> Seating:
    """Seat a guest from the next hand on, freeing the seat's last occupant and the guest's old
    seat."""
    shoe = _lock_open_shoe(shoe)
    hold_guests([guest.pk])
    _check_seat(shoe.event, seat)
    if not EventGuest.objects.filter(event=shoe.event, guest=guest).exists():
        raise ValidationError({"guest": MSG_NOT_ON_LIST.format(guest=guest)})
    next_number = next_hand_number(shoe)
    current = Seating.objects.filter(shoe=shoe, to_hand__isnull=True)
    if shoe.event.is_tournament_table and not current.filter(seat=seat, guest=guest).exists():
        _check_drawn_seat(shoe, seat, guest)
    left: set[int] = set()
    for seating in current.filter(Q(seat=seat) | Q(guest=guest)):
        if seating.seat == seat and seating.guest_id == guest.pk:
            return seating
        _end_seating(seating, next_number)
        left.add(seating.guest_id)
    seating = Seating.objects.create(
        shoe=shoe, seat=seat, guest=guest, from_hand=next_number, seated_by=by
    )
    announce_shoe(shoe, "seat", last=next_number - 1, guest_ids=left)
    return seating


def _check_drawn_seat(shoe: Shoe, seat: int, guest: Guest) -> None:
    """A tournament table seats each of its players once, as its round starts: a player with a
    stack there (their starting row), in a seat nobody has had. No one is moved or replaced:
    the draw, the first-bet marker and the secret bets follow the seats drawn."""
    seated_before = Seating.objects.filter(shoe=shoe).filter(Q(seat=seat) | Q(guest=guest))
    has_stack = StackRow.objects.filter(event=shoe.event, guest=guest).exists()
    if seated_before.exists() or not has_stack:
        raise ValidationError({"seat": MSG_DRAWN_SEATS})


@transaction.atomic
def seat_clear(*, shoe: Shoe, seat: int, by: Actor) -> None:
    shoe = _lock_open_shoe(shoe)
    _check_seat(shoe.event, seat)
    if shoe.event.is_tournament_table:
        raise ValidationError({"seat": MSG_DRAWN_SEATS})
    seating = Seating.objects.filter(shoe=shoe, seat=seat, to_hand__isnull=True).first()
    if seating is not None:
        next_number = next_hand_number(shoe)
        _end_seating(seating, next_number)
        announce_shoe(shoe, "seat", last=next_number - 1, guest_ids=[seating.guest_id])


def announce_shoe(
    shoe: Shoe,
    what: str,
    *,
    last: int,
    seated: Mapping[int, int] | None = None,
    guest_ids: Iterable[int] = (),
    **facts: object,
) -> None:
    """Tell the screens of the shoe, its night and the guests at it (and ``guest_ids``, who
    just left) that the shoe changed (``shoebook.base.live``): the next and last hand numbers
    and the seating for the next hand (read here unless given: one query)."""
    if seated is None:
        seated = {seat: guest.pk for seat, guest in _seated_at(shoe, last + 1).items()}
    guests = sorted({*seated.values(), *guest_ids})
    announce_to(
        [f"shoe:{shoe.pk}", f"event:{shoe.event_id}", *(f"guest:{guest}" for guest in guests)],
        what=what,
        shoe=shoe.pk,
        event=shoe.event_id,
        next=last + 1,
        last=last,
        seating=" ".join(f"{seat}:{guest}" for seat, guest in sorted(seated.items())),
        at=facts_stamp(),
        **facts,
    )


class HandRefused(ValidationError):
    """The rules core refused the entry. ``problems`` are its findings, for a form that puts
    each one beside the box it concerns; the messages are keyed by field as usual."""

    def __init__(self, problems: Sequence[Problem], entry: HandEntry) -> None:
        self.problems = tuple(problems)
        super().__init__(entry_errors(self.problems, entry))


def entry_errors(problems: Sequence[Problem], entry: HandEntry) -> dict[str, list[str]]:
    """The core's problems as form errors: a bet's under ``bets`` (``Seat 3 · Banker: …``)."""
    errors: dict[str, list[str]] = {}
    for problem in problems:
        key = "bets" if problem.bet is not None else problem.field.value
        errors.setdefault(key, []).append(problem.message_in(entry, gettext))
    return errors


class HandChanged(ValidationError):
    """A correction made from a version of the hand that is no longer the current one."""


@dataclass(frozen=True)
class SeatBet:
    """A bet of a refused hand on a seat whose guest changed: its box, its kind, its stake."""

    name: str
    kind: str
    stake: str


@dataclass(frozen=True)
class SeatChange:
    """A seat with a bet whose guest changed since the page was drawn: the bets on it, the guest
    the page saw there (who made them) and the guest there now (``None``: nobody)."""

    seat: int
    bets: tuple[SeatBet, ...]
    was: Guest | None
    now: Guest | None

    def message(self) -> str:
        if self.now is None:
            changed = MSG_SEAT_NOW_EMPTY.format(seat=self.seat)
        else:
            changed = MSG_SEAT_CHANGED.format(seat=self.seat, guest=self.now.name)
        if not self.bets:  # a bank's seat (a coup): no stake box of its own
            return changed
        bets = ", ".join(f"{bet.kind} {bet.stake}" for bet in self.bets)
        was = self.was.name if self.was else str(MSG_NOBODY)
        return f"{changed} {MSG_SEAT_BET_BY.format(bets=bets, was=was)}"


class SeatingChanged(ValidationError):
    """A seat with a bet has changed hands since the page was drawn. ``changes``: each such
    seat, with its bets, who made them and who sits there now, for the host to decide."""

    def __init__(self, changes: Sequence[SeatChange]) -> None:
        self.changes = tuple(changes)
        super().__init__({NON_FIELD_ERRORS: [change.message() for change in self.changes]})


def _bet_label(bet: Any) -> str:
    try:
        return gettext(BetType(str(getattr(bet.bet, "value", bet.bet))).label)
    except ValueError:
        return str(bet.bet)


def _check_seen_seating(
    seen: Mapping[int, int], seated: dict[int, Guest], entry: HandEntry
) -> None:
    named = [bet.seat for bet in entry.bets]
    if entry.coup is not None:  # the bank's seats too: a bank is a stake
        terms = entry.coup
        named += [terms.banker_seat, terms.co_banker_seat or "", terms.suite_seat or ""]
    seats = {seat for value in named if (seat := read_seat(value)) is not None}
    changed = []
    for seat in sorted(seats):
        now = seated.get(seat)
        if (now.pk if now else None) != seen.get(seat):
            changed.append((seat, now))
    if not changed:
        return
    # Only on a refusal: who the page saw in those seats, by name.
    seen_ids = [seen[seat] for seat, _now in changed if seat in seen]
    guests = Guest.objects.in_bulk(seen_ids)
    changes = []
    for seat, now in changed:
        bets = tuple(
            SeatBet(
                name=f"stake_{seat}_{getattr(bet.bet, 'value', bet.bet)}",
                kind=_bet_label(bet),
                stake=str(bet.stake),
            )
            for bet in entry.bets
            if read_seat(bet.seat) == seat
        )
        changes.append(SeatChange(seat, bets, guests.get(seen.get(seat, 0)), now))
    raise SeatingChanged(changes)


def _seated_at(shoe: Shoe, number: int) -> dict[int, Guest]:
    return hot_reads.seated_at(shoe.pk, number)


def tables_stacks(
    event_ids: Collection[int], *, before_hand: int | None = None
) -> dict[tuple[int, int], Decimal]:
    """Each player's stack at these tournament tables, by (event id, guest id): their stack rows
    there plus their bets' net results there — before hand ``before_hand``, or as they stand.
    Two sums."""
    rows = StackRow.objects.filter(event_id__in=event_ids)
    bets = Bet.objects.filter(event_id__in=event_ids)
    if before_hand is not None:
        rows, bets = (
            rows.filter(after_hand__lt=before_hand),
            bets.filter(hand__number__lt=before_hand),
        )
    stacks: dict[tuple[int, int], Decimal] = {}
    for source, column in ((rows, "chips"), (bets, "net")):
        sums = source.values_list("event_id", "guest_id").annotate(n=money_sum(column)).order_by()
        for event_id, guest_id, amount in sums:
            stacks[(event_id, guest_id)] = stacks.get((event_id, guest_id), ZERO) + amount
    return stacks


def table_stacks(event: Event, *, before_hand: int) -> dict[int, Decimal]:
    """Each player's stack at one tournament table before hand ``before_hand``, by guest id."""
    stacks = tables_stacks([event.pk], before_hand=before_hand)
    return {guest_id: stack for (_event, guest_id), stack in stacks.items()}


def _table_rules(event: Event, seated: dict[int, Guest], number: int) -> TableRules:
    rules = event.table_rules
    if not event.is_tournament_table:
        return rules
    stacks = table_stacks(event, before_hand=number)
    on_seats = {seat: stacks.get(g.pk, ZERO) for seat, g in seated.items()}
    return replace(rules, stacks=on_seats, short_stack=short_stack_rule(event))


def short_stack_rule(event: Event) -> ShortStack:
    """A tournament table's rule for a stack under the table minimum, as its tournament says
    (read through the relation's name: the ledger never imports the tournaments app)."""
    rule = (
        Event.objects.filter(pk=event.pk)
        .values_list("tournament_table__round__tournament__short_stack", flat=True)
        .first()
    )
    return ShortStack(rule) if rule else ShortStack.ALL_IN


def _settle(entry: HandEntry, shoe: Shoe, seated: dict[int, Guest], number: int) -> SettledHand:
    """The one pipeline: Punto Banco's hand, or a guest-banked game's coup (which follows from
    the coup before it in the shoe)."""
    event = shoe.event
    table: Table
    if event.is_guest_banked:
        table = GuestBankedTable(event.bank_rules, seated, previous_coup(shoe, number))
    else:
        table = PuntoBancoTable(_table_rules(event, seated, number), occupied=seated.keys())
    try:
        return settle(entry, table)
    except EntryRejected as rejected:
        raise HandRefused(rejected.problems, entry) from rejected


def _check_round_length(shoe: Shoe, number: int) -> None:
    """A tournament table plays its round's hands and no more."""
    if shoe.event.is_tournament_table and number > shoe.event.hands_per_shoe:
        hands = shoe.event.hands_per_shoe
        raise ValidationError({NON_FIELD_ERRORS: MSG_ROUND_OVER.format(hands=hands)})


def _check_two_with_chips(shoe: Shoe, seated: dict[int, Guest], number: int) -> None:
    """A tournament table plays on while two of its players have chips: the last player
    standing has won the table (a rebuy for a player who is out plays it on)."""
    if not shoe.event.is_tournament_table:
        return
    stacks = table_stacks(shoe.event, before_hand=number)
    minimum, rule = shoe.event.table_min, short_stack_rule(shoe.event)
    standing = [
        guest
        for guest in seated.values()
        if in_play(stacks.get(guest.pk, ZERO), table_min=minimum, short_stack=rule)
    ]
    if len(standing) == 1:
        raise ValidationError({NON_FIELD_ERRORS: MSG_LAST_STANDING.format(guest=standing[0])})
    if not standing:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOBODY_STANDING})


def _check_later_stacks(shoe: Shoe, number: int) -> None:
    """After a correction at a tournament table: every later hand's stakes still within the
    stacks the corrected results leave (else the correction is refused)."""
    if not shoe.event.is_tournament_table:
        return
    # The stacks walked hand by hand from two reads, not two sums for every later hand.
    rows = StackRow.objects.filter(event=shoe.event).order_by("after_hand")
    arrivals = list(rows.values_list("after_hand", "guest_id", "chips"))
    bets = Bet.objects.filter(event=shoe.event).values_list(
        "hand__number", "guest_id", "stake", "net"
    )
    by_hand: dict[int, list[tuple[int, Decimal, Decimal]]] = defaultdict(list)
    for hand_number, guest_id, stake, net in bets:
        by_hand[hand_number].append((guest_id, stake, net))
    stacks: dict[int, Decimal] = defaultdict(lambda: ZERO)
    arrived = 0
    for hand_number in sorted(by_hand):
        while arrived < len(arrivals) and arrivals[arrived][0] < hand_number:
            _after, guest_id, chips = arrivals[arrived]
            stacks[guest_id] += chips
            arrived += 1
        staked: dict[int, Decimal] = defaultdict(lambda: ZERO)
        for guest_id, stake, _net in by_hand[hand_number]:
            staked[guest_id] += stake
        if hand_number > number and any(staked[g] > stacks[g] for g in staked):
            over = MSG_LATER_OVER_STACK.format(number=hand_number)
            raise ValidationError({NON_FIELD_ERRORS: over})
        for guest_id, _stake, net in by_hand[hand_number]:
            stacks[guest_id] += net


def _bet_rows(settled: SettledHand, event: Event, seated: dict[int, Guest]) -> list[Bet]:
    return [
        Bet(
            event_id=event.pk,
            seat=bet.seat,
            guest=seated[bet.seat],
            bet_type=bet.bet_type.value,
            cover_kind=bet.kind,
            stake=bet.stake,
            gross=bet.result.gross,
            commission=bet.result.commission,
            net=bet.result.net,
        )
        for bet in settled.bets
    ]


def _taken(shoe: Shoe, number: int) -> HandTaken:
    coup = shoe.event.is_guest_banked  # Chemin de fer, Baccara banque: said of coups
    existing = shoe.hands.select_related("logged_by").filter(number=number).first()
    if existing is None:
        out_of_sequence = MSG_COUP_OUT_OF_SEQUENCE if coup else MSG_HAND_OUT_OF_SEQUENCE
        return HandTaken(
            {NON_FIELD_ERRORS: out_of_sequence.format(number=number, next=next_hand_number(shoe))}
        )
    local = timezone.localtime(existing.logged_at)
    taken = HandTaken(
        {
            NON_FIELD_ERRORS: (MSG_COUP_TAKEN if coup else MSG_HAND_TAKEN).format(
                number=number,
                user=existing.logged_by,
                time=f"{local:%H:%M:%S}",
                next=next_hand_number(shoe),
            )
        }
    )
    taken.hand = existing  # shown beside the refused one: the host chooses
    return taken


MSG_COUNT_ONLY_NIGHT = _(
    "This night is kept by its count alone: no hand is logged in it. Turn that off on its count"
    " page to log hands."
)


@dataclass(frozen=True)
class RecordedHand:
    """A hand just recorded, with what recording it read and wrote: its bets and who sat where
    (both ``None`` when the hand was recorded before, by a repeated submission)."""

    hand: Hand
    bets: list[Bet] | None
    seated: dict[int, Guest] | None


@transaction.atomic
def record_hand(
    *,
    shoe: Shoe,
    number: int,
    entry: HandEntry,
    by: Actor,
    idempotency_key: uuid.UUID | None = None,
    seen_seating: Mapping[int, int] | None = None,
) -> RecordedHand:
    """Record the next hand of an open shoe with its bets, settled.

    A submission repeated with the same ``idempotency_key`` (a double tap, a retry after a
    dropped connection) returns the hand already recorded instead of recording it twice.
    ``seen_seating`` (seat → guest id) is who the person entering the bets saw in each seat: if
    a seat with a bet has someone else in it now, nothing is recorded (:class:`SeatingChanged`).
    """
    shoe, last_number, repeat_id = _locked_shoe(shoe, idempotency_key)
    if repeat_id is not None:
        existing = Hand.objects.get(pk=repeat_id)
        if existing.shoe_id != shoe.pk:
            raise ValidationError({NON_FIELD_ERRORS: MSG_KEY_OTHER_SHOE})
        if existing.entry_digest not in ("", entry.digest()):
            reused = MSG_KEY_REUSED.format(number=existing.number)
            raise ValidationError({NON_FIELD_ERRORS: reused})
        return RecordedHand(existing, bets=None, seated=None)
    check_shoe_open(shoe)
    if getattr(shoe, "count_only", False):  # read with the shoe (``hot_reads.shoe_for_save``)
        raise ValidationError({NON_FIELD_ERRORS: MSG_COUNT_ONLY_NIGHT})
    if number != last_number + 1:
        raise _taken(shoe, number)
    _check_round_length(shoe, number)
    seated = _seated_at(shoe, number)
    if seen_seating is not None:
        _check_seen_seating(seen_seating, seated, entry)
    hold_guests([guest.pk for guest in seated.values()], read_in_this_transaction=True)
    _check_two_with_chips(shoe, seated, number)
    settled_hand = _settle(entry, shoe, seated, number)
    settled = _bet_rows(settled_hand, shoe.event, seated)
    hand = Hand(
        shoe=shoe,
        number=number,
        idempotency_key=idempotency_key,
        entry_digest=entry.digest() if idempotency_key else "",
        logged_by=by,
        **_hand_fields(settled_hand),
    )
    # No savepoint to catch a racing device: every writer of a shoe's hands holds the shoe's
    # lock, so the number checked above is still free.
    hand.save()
    for bet in settled:
        bet.hand = hand
    Bet.objects.bulk_create(settled)
    if settled_hand.coup is not None:
        coup_row(hand, shoe.event, settled_hand.coup, seated).save()
    results_add(event=shoe.event, bets=settled)
    after = hand_snapshot(hand, settled)
    _audit(AuditEntry.Action.HAND_LOGGED, shoe, hand.number, by, after=after)
    # Who sat for this hand sits for the next: a seat change always starts at the next hand.
    seating = {seat: guest.pk for seat, guest in seated.items()}
    announce_shoe(shoe, "hand", last=number, seated=seating)
    return RecordedHand(hand, bets=settled, seated=seated)


def _locked_shoe(shoe: Shoe, idempotency_key: uuid.UUID | None) -> tuple[Shoe, int, int | None]:
    """The shoe locked and read afresh with its event, its last hand's number, and the hand
    already recorded under ``idempotency_key`` if any. On PostgreSQL the lock is a statement of
    its own before the read: PostgreSQL reads a locking statement's subqueries as they stood
    before it waited for the lock, so a racing device's hand, committed meanwhile, would go
    unseen. SQLite's transaction began IMMEDIATE and holds the database's write lock."""
    lock_night_of_shoe(shoe)
    if connection.features.has_select_for_update:  # the shoe's row and its event's
        list(
            Shoe.objects.select_for_update(of=("self",), no_key=True)
            .filter(pk=shoe.pk)
            .values_list("event__closed_at")
        )
    return hot_reads.shoe_for_save(shoe.pk, idempotency_key)


def _audit(
    action: str,
    shoe: Shoe,
    number: int,
    by: Actor,
    *,
    before: HandSnapshot | None = None,
    after: HandSnapshot | None = None,
) -> None:
    AuditEntry.objects.create(
        action=action,
        event_id=shoe.event_id,
        before=before,
        after=after,
        by=by,
        summary=f"{shoe} · hand {number}",
    )


class HandFields(TypedDict):
    """What a settled entry sets on a ``Hand``."""

    player_cards: str
    banker_cards: str
    winner: str
    player_pair: bool
    banker_pair: bool


class BetSnapshot(TypedDict):
    seat: int
    guest_id: int
    guest: str
    bet_type: str
    stake: str  # amounts as text, "12.50": JSON has no decimals
    gross: str
    commission: str
    net: str
    kind: NotRequired[str]  # a Chemin de fer cover's kind


class HandSnapshot(HandFields):
    """A hand and its bets as the journal of changes keeps them (JSON), and a guest-banked
    game's coup."""

    number: int
    version: int
    logged_by: str
    logged_at: str  # ISO 8601
    bets: list[BetSnapshot]
    coup: NotRequired[dict[str, Any] | None]


def _hand_fields(settled: SettledHand) -> HandFields:
    return {
        "player_cards": settled.player_cards,
        "banker_cards": settled.banker_cards,
        "winner": settled.outcome.winner.value,
        "player_pair": settled.outcome.player_pair,
        "banker_pair": settled.outcome.banker_pair,
    }


def hand_snapshot(hand: Hand, bets: Iterable[Bet]) -> HandSnapshot:
    """A hand and its bets as plain JSON, for the journal of changes."""
    snapshot: HandSnapshot = {
        "number": hand.number,
        "version": hand.version,
        "player_cards": hand.player_cards,
        "banker_cards": hand.banker_cards,
        "winner": hand.winner,
        "player_pair": hand.player_pair,
        "banker_pair": hand.banker_pair,
        "logged_by": str(hand.logged_by),
        "logged_at": hand.logged_at.isoformat(),
        "bets": [_bet_snapshot(bet) for bet in bets],
    }
    if _is_coup(hand):
        snapshot["coup"] = coup_snapshot(coup_of(hand))
    return snapshot


def _bet_snapshot(bet: Bet) -> BetSnapshot:
    snapshot: BetSnapshot = {
        "seat": bet.seat,
        "guest_id": bet.guest_id,
        "guest": str(bet.guest),
        "bet_type": bet.bet_type,
        "stake": f"{bet.stake:.2f}",
        "gross": f"{bet.gross:.2f}",
        "commission": f"{bet.commission:.2f}",
        "net": f"{bet.net:.2f}",
    }
    if bet.cover_kind:
        snapshot["kind"] = bet.cover_kind
    return snapshot


def _is_coup(hand: Hand) -> bool:
    """Whether the hand is a guest-banked game's coup (without a query for Punto Banco's)."""
    event = hand.shoe.event if "shoe" in hand._state.fields_cache else None
    if event is not None:
        return event.is_guest_banked
    return Coup.objects.filter(hand=hand).exists()


def _same_hand(before: HandSnapshot, fields: HandFields, bets: list[Bet]) -> bool:
    """Whether a correction would record what is already recorded."""
    old_bets = sorted(
        (b["seat"], b["guest_id"], b["bet_type"], Decimal(b["stake"]), b.get("kind", ""))
        for b in before["bets"]
    )
    new_bets = sorted((b.seat, b.guest_id, b.bet_type, b.stake, b.cover_kind) for b in bets)
    same_fields = all(before.get(name) == value for name, value in fields.items())
    return same_fields and old_bets == new_bets


def _bets_of(hand: Hand) -> list[Bet]:
    return list(Bet.objects.filter(hand=hand).select_related("guest").order_by("seat", "id"))


def _seatings_back_to(shoe: Shoe, number: int) -> None:
    """Hand ``number`` is to be played again: the seats as they stand now (changes made after
    it was logged, "from the next hand") apply to it, and nobody stays seated for it twice."""
    in_shoe = Seating.objects.filter(shoe=shoe)
    in_shoe.filter(from_hand=number, to_hand=number).delete()
    in_shoe.filter(to_hand=number).update(to_hand=number - 1)
    in_shoe.filter(from_hand=number + 1).update(from_hand=number)


@transaction.atomic
def hand_undo(
    *,
    shoe: Shoe,
    by: Actor,
    number: int | None = None,
    idempotency_key: uuid.UUID | None = None,
) -> HandRevision:
    """Take back the last hand of an open shoe — hand ``number``, when given: a page drawn
    before another device logged a hand never undoes that hand. What it was stays in the
    journal. The same ``idempotency_key`` again (a retry after a lost answer) returns the undo
    already made, so that the page gets its hand back and nothing else is taken back."""
    shoe = _lock_open_shoe(shoe)
    if idempotency_key is not None:
        repeat = HandRevision.objects.filter(idempotency_key=idempotency_key).first()
        if repeat is not None:
            if repeat.shoe_id != shoe.pk or repeat.kind != HandRevision.Kind.UNDO:
                raise ValidationError({NON_FIELD_ERRORS: MSG_KEY_OTHER_SHOE})
            return repeat
    hand = shoe.hands.select_related("logged_by").order_by("-number").first()
    if hand is None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOTHING_TO_UNDO})
    if number is not None and hand.number != number:
        stale = MSG_UNDO_NOT_LAST.format(number=number, last=hand.number)
        raise ValidationError({NON_FIELD_ERRORS: stale})
    _check_no_rebuy_rests_on(shoe, hand.number)
    guest_ids = set(Bet.objects.filter(hand=hand).values_list("guest_id", flat=True))
    hold_guests(guest_ids, read_in_this_transaction=True)
    revision = HandRevision.objects.create(
        shoe=shoe,
        hand_number=hand.number,
        kind=HandRevision.Kind.UNDO,
        before=hand_snapshot(hand, _bets_of(hand)),
        changed_by=by,
        idempotency_key=idempotency_key,
    )
    Bet.objects.filter(hand=hand).delete()
    hand.delete()
    _seatings_back_to(shoe, hand.number)
    results_refresh(event_id=shoe.event_id, guest_ids=guest_ids)
    _audit(AuditEntry.Action.HAND_UNDONE, shoe, revision.hand_number, by, before=revision.before)
    announce_shoe(shoe, "undo", last=hand.number - 1, guest_ids=guest_ids, hand=hand.number)
    return revision


MSG_REBUY_RESTS_ON_HAND = _(
    "{guest}'s rebuy after hand {after} was allowed by the stack the hands up to hand {after}"
    " left: hand {number} cannot be undone or corrected while that rebuy stands."
)


def _check_no_rebuy_rests_on(shoe: Shoe, number: int) -> None:
    """At a tournament table, a rebuy is allowed only under the starting stack: a hand played
    before it (at or after ``number``) cannot change, or the rebuy would stand on a stack the
    rules refuse it on."""
    if not shoe.event.is_tournament_table:
        return
    rebuy = (
        StackRow.objects.filter(event=shoe.event, kind=StackRow.Kind.REBUY, after_hand__gte=number)
        .select_related("guest")
        .order_by("after_hand")
        .first()
    )
    if rebuy is not None:
        refused = MSG_REBUY_RESTS_ON_HAND.format(
            guest=rebuy.guest.name, after=rebuy.after_hand, number=number
        )
        raise ValidationError({NON_FIELD_ERRORS: refused})


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    entry: HandEntry,
    reason: str,
    by: Actor,
    version: int | None = None,
) -> Hand:
    """Correct a recorded hand (cards, result, bets); every total follows. The version it
    replaces, who changed it, when and why are kept in the journal. ``version`` is the one the
    correction was made from: if the hand has changed since, nothing is written
    (:class:`HandChanged`), so one correction never silently undoes another."""
    lock_night_of_shoe(hand.shoe_id)
    shoe = (
        Shoe.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=hand.shoe_id)
    )
    check_event_open(shoe.event)
    if not reason.strip():
        raise ValidationError({"reason": MSG_REASON_REQUIRED})
    number = hand.number
    current = Hand.objects.select_related("logged_by").filter(pk=hand.pk).first()
    if current is None:  # undone while the correction was being typed
        raise ValidationError({NON_FIELD_ERRORS: MSG_HAND_GONE.format(number=number)})
    hand = current
    if version is not None and hand.version != version:
        changed = MSG_HAND_CHANGED.format(number=number, version=hand.version)
        raise HandChanged({NON_FIELD_ERRORS: changed})
    _check_no_rebuy_rests_on(shoe, hand.number)
    before = hand_snapshot(hand, _bets_of(hand))
    seated = _seated_at(shoe, hand.number)
    held = {guest.pk for guest in seated.values()} | {bet["guest_id"] for bet in before["bets"]}
    hold_guests(held, read_in_this_transaction=True)
    settled_hand = _settle(entry, shoe, seated, hand.number)
    settled = _bet_rows(settled_hand, shoe.event, seated)
    new_fields = _hand_fields(settled_hand)
    new_coup = coup_row(hand, shoe.event, settled_hand.coup, seated) if settled_hand.coup else None
    if _same_hand(before, new_fields, settled) and before.get("coup") == coup_snapshot(new_coup):
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOTHING_CHANGED})
    Bet.objects.filter(hand=hand).delete()
    Coup.objects.filter(hand=hand).delete()
    for field, value in new_fields.items():
        setattr(hand, field, value)
    hand.version += 1
    hand.save()
    for bet in settled:
        bet.hand = hand
    Bet.objects.bulk_create(settled)
    if new_coup is not None:
        new_coup.save()
        check_later_coups(shoe, hand.number)
    _check_later_stacks(shoe, hand.number)
    affected = {bet["guest_id"] for bet in before["bets"]} | {bet.guest_id for bet in settled}
    results_refresh(event_id=shoe.event_id, guest_ids=affected)
    after = hand_snapshot(hand, _bets_of(hand))
    _audit(AuditEntry.Action.HAND_CORRECTED, shoe, hand.number, by, before=before, after=after)
    HandRevision.objects.create(
        shoe=shoe,
        hand_number=hand.number,
        kind=HandRevision.Kind.CORRECTION,
        reason=reason.strip(),
        before=before,
        after=after,
        changed_by=by,
    )
    last = shoe.hands.aggregate(last=Max("number"))["last"] or 0
    announce_shoe(shoe, "correction", last=last, guest_ids=affected, hand=hand.number)
    return hand
