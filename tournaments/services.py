"""Every write to a tournament: set it up, register players, draw and start rounds, rebuys and
add-ons, advance, pay the prizes. Hands at a tournament table are recorded by
``ledger.hands.services.record_hand`` like any other (which checks each stake against the stack)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services as game_services
from games.chips import MAX_CHIPS
from games.currencies import DEFAULT_CURRENCY
from games.locks import lock_night, lock_nights
from games.messages import RuleError
from games.models import Event, Shoe, table_name
from games.payouts import RuleSet
from games.tournament import draw_seats, parse_points, parse_prize_table, prizes
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Charge, EventGuest, Guest, StackRow
from ledger.money import services as money_services
from ledger.money.amounts import ZERO, format_chips, money_sum
from ledger.nights import services as night_services
from shoebook.base.live import announce_to
from shoebook.base.roles import Actor, is_table_staff
from tournaments.models import Entrant, Round, TableSeat, Tournament, TournamentTable
from tournaments.results import event_pools
from tournaments.selectors import round_board, secret_bet_refusal

MSG_POOL_FULL = _(
    "The players have paid in {paid}: one more fee would take the prize pool past {maximum}, the "
    "most one amount in the ledger can be. Lower the fees or start another tournament."
)
MSG_REGISTRATION_CLOSED = _("The first round has started: no more players can register.")
MSG_ALREADY_REGISTERED = _("{guest} is already registered.")
MSG_ROUND_STARTED = _("Round {number} has started: its draw is final.")
MSG_ROUND_NOT_NEXT = _("Round {number} comes after round {previous} is closed.")
MSG_TOO_FEW_PLAYERS = _("A round needs at least two players; {count} are in.")
MSG_NOT_DRAWN = _("Draw the seats first.")
MSG_DRAW_STALE = _("The players have changed since the draw ({names}): draw the seats again.")
MSG_TABLES_PLAYING = _("Table {number} is still playing: close it first.")
MSG_PLAYOFF_NEEDED = _("Stacks are tied across the cut ({names}): enter the play-off's order.")
MSG_ROUND_CLOSED = _("Round {number} is closed.")
MSG_FINISHED = _("The tournament is over: its prizes are paid.")
MSG_NO_REBUYS = _("No rebuy is open now.")
MSG_REBUYS_USED = _("{guest} has used every rebuy ({count}).")
MSG_REBUY_STACK = _("A rebuy is for a stack under the starting stack; {guest} has {stack}.")
MSG_NO_ADD_ON = _("No add-on is open now.")
MSG_ADD_ON_USED = _("{guest} has had the add-on.")
MSG_NOT_PLAYING = _("{guest} is not at a table of the round being played.")
MSG_ROUND_AFTER_FINAL = _("The final table is the last round.")
MSG_KEEP_NEEDED = _("Elimination by stack needs how many go on.")
MSG_NOBODY_GOES_ON = _(
    "Nobody would go on from this round: one or more from each table, or a wildcard."
)
MSG_MINIMUM_NOT_UNIT = _(
    "The minimum bet is a stake the table takes (the mandatory minimum is placed at it): a"
    " multiple of the bet unit ({unit})."
)
MSG_TABLE_RULES_FIXED = _(
    "Round {number} is drawn: the seats per table and the final's rule stay as stated."
)
# What the players were told before a round was drawn: fixed from the first draw.
TABLE_RULES = ("seats_per_table", "final_overflow")
MSG_ADVANCEMENT_FIXED = _(
    "Round {number} was added for this advancement (who goes on from it): it stays as it is."
)


def _error(message: Any, **params: Any) -> ValidationError:
    return ValidationError({NON_FIELD_ERRORS: str(message).format(**params)})


def _check_tables(prize_table: str, points_table: str) -> None:
    errors = {}
    for field, text, parse in (
        ("prize_table", prize_table, parse_prize_table),
        ("points_table", points_table, parse_points),
    ):
        try:
            parse(text)
        except RuleError as error:
            errors[field] = error.message(gettext)
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def tournament_create(
    *,
    name: str,
    date: date,
    by: Actor,
    rules: RuleSet | None = None,
    venue: str = "",
    decks: int = 8,
    currency_symbol: str = "$",
    money_per_chip: Decimal = Decimal(100),
    currency: str = DEFAULT_CURRENCY,
    **settings: Any,
) -> Tournament:
    """A tournament on a night of its own (where its entry fees and prizes are recorded)."""
    event = game_services.event_create(
        name=name,
        date=date,
        rules=rules or RuleSet(),
        by=by,
        venue=venue,
        decks=decks,
        currency_symbol=currency_symbol,
        money_per_chip=money_per_chip,
        currency=currency,
        kind=Event.Kind.TOURNAMENT,
    )
    tournament = Tournament(event=event, created_by=by, **settings)
    tournament.full_clean(exclude=["event", "created_by"])
    _check_tables(tournament.prize_table, tournament.points_table)
    tournament.save()
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: Actor, **changes: Any) -> Tournament:
    """Change the settings while no round has started."""
    tournament = Tournament.objects.select_for_update(of=("self",), no_key=True).get(
        pk=tournament.pk
    )
    if tournament.rounds.filter(started_at__isnull=False).exists():
        raise _error(MSG_REGISTRATION_CLOSED)
    heat = tournament.rounds.filter(is_final=False).first()
    advancement = changes.get("advancement", tournament.advancement)
    if heat is not None and advancement != tournament.advancement:
        # A heat says how many go on from each table, or how many in all: never both.
        message = str(MSG_ADVANCEMENT_FIXED).format(number=heat.number)
        raise ValidationError({"advancement": message})
    drawn = tournament.rounds.filter(drawn_at__isnull=False).first()
    for field in TABLE_RULES:
        if drawn is not None and field in changes and changes[field] != getattr(tournament, field):
            message = str(MSG_TABLE_RULES_FIXED).format(number=drawn.number)
            raise ValidationError({field: message})
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.full_clean(exclude=["event", "created_by"])
    _check_tables(tournament.prize_table, tournament.points_table)
    tournament.save()
    return tournament


@transaction.atomic
def round_add(*, tournament: Tournament, by: Actor, **settings: Any) -> Round:
    """Add the next round (a heat, or the final table: ``is_final``)."""
    tournament = Tournament.objects.select_for_update(of=("self",), no_key=True).get(
        pk=tournament.pk
    )
    _check_not_finished(tournament)
    if tournament.rounds.filter(is_final=True).exists():
        raise _error(MSG_ROUND_AFTER_FINAL)
    last = tournament.rounds.aggregate(n=Max("number"))["n"] or 0
    round_ = Round(tournament=tournament, number=last + 1, **settings)
    by_stack = tournament.advancement == Tournament.Advancement.BY_STACK
    if by_stack and not round_.is_final and not round_.keep:
        raise ValidationError({"keep": str(MSG_KEEP_NEEDED)})
    round_.full_clean(exclude=["tournament"])
    errors = {}
    if not by_stack and not round_.is_final and not (round_.per_table or round_.wildcards):
        errors["per_table"] = str(MSG_NOBODY_GOES_ON)
    if round_.table_min % round_.bet_unit:
        unit = format_chips(round_.bet_unit)
        errors["table_min"] = str(MSG_MINIMUM_NOT_UNIT).format(unit=unit)
    if errors:
        raise ValidationError(errors)
    round_.save()
    return round_


def _check_not_finished(tournament: Tournament) -> None:
    if tournament.is_finished:
        raise _error(MSG_FINISHED)


# --- players --------------------------------------------------------------------------------


@transaction.atomic
def entrant_add(*, tournament: Tournament, name: str, by: Actor) -> Entrant:
    """Register a player by name (a returning guest is found, a new one created): the entry fee
    becomes what they owe the house."""
    tournament = (
        Tournament.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=tournament.pk)
    )
    if tournament.rounds.filter(started_at__isnull=False).exists():
        raise _error(MSG_REGISTRATION_CLOSED)
    guest = guest_services.event_guest_add(event=tournament.event, name=name, by=by)
    if tournament.entrants.filter(guest=guest).exists():
        raise _error(MSG_ALREADY_REGISTERED, guest=guest)
    _check_pool_room(tournament, tournament.entry_fee)
    number = (tournament.entrants.aggregate(n=Max("number"))["n"] or 0) + 1
    entrant = Entrant.objects.create(tournament=tournament, guest=guest, number=number)
    if tournament.entry_fee:
        _charge(tournament, guest, Charge.Kind.ENTRY, -tournament.entry_fee, by)
    return entrant


def _check_pool_room(tournament: Tournament, adding: Decimal) -> None:
    """What the players pay in (and so the pool, and the biggest prize) stays within what the
    ledger holds in one amount: a prize past it could never be settled."""
    paid = Charge.objects.filter(event=tournament.event).exclude(kind=Charge.Kind.PRIZE)
    paid_in = -(paid.aggregate(n=money_sum("amount"))["n"])
    if paid_in + adding > MAX_CHIPS:
        raise _error(MSG_POOL_FULL, maximum=format_chips(MAX_CHIPS), paid=format_chips(paid_in))


def _charge(
    tournament: Tournament, guest: Guest, kind: str, amount: Decimal, by: Actor, note: str = ""
) -> Charge:
    charge = Charge.objects.create(
        event=tournament.event, guest=guest, kind=kind, amount=amount, note=note, recorded_by=by
    )
    money_services.results_refresh(event_id=tournament.event_id, guest_ids={guest.pk})
    return charge


def players_in(round_: Round) -> list[Entrant]:
    """Who plays ``round_``: every entrant not out after an earlier round."""
    entrants = round_.tournament.entrants.select_related("guest")
    return list(entrants.filter(out_after_round__isnull=True))


# --- rounds ---------------------------------------------------------------------------------


def _lock_tournament(pk: int) -> Tournament:
    return Tournament.objects.select_for_update(of=("self",), no_key=True).get(pk=pk)


def _lock_round(round_: Round) -> Round:
    return (
        Round.objects.select_for_update(of=("self",), no_key=True)
        .select_related("tournament__event")
        .get(pk=round_.pk)
    )


def _check_next_round(round_: Round) -> None:
    earlier = round_.tournament.rounds.filter(number__lt=round_.number)
    previous = earlier.filter(closed_at__isnull=True).first()
    if previous is not None:
        raise _error(MSG_ROUND_NOT_NEXT, number=round_.number, previous=previous.number)


@transaction.atomic
def round_draw(*, round_: Round, by: Actor, seed: int | None = None) -> Round:
    """Draw the seats by lot (seeded: the same seed draws the same seats), replacing an earlier
    draw of the round while it has not started."""
    round_ = _lock_round(round_)
    tournament = round_.tournament
    _check_not_finished(tournament)
    if round_.is_started:
        raise _error(MSG_ROUND_STARTED, number=round_.number)
    _check_next_round(round_)
    players = players_in(round_)
    if len(players) < 2:
        raise _error(MSG_TOO_FEW_PLAYERS, count=len(players))
    if seed is not None:
        round_.seed = seed
    _forget_draw(round_)
    by_id = {entrant.pk: entrant for entrant in players}
    drawn = draw_seats(list(by_id), seed=round_.seed, max_seats=tournament.seats_per_table)
    for number, seats in enumerate(drawn, start=1):
        table = TournamentTable.objects.create(
            round=round_, number=number, event=_table_event(round_, number, by)
        )
        TableSeat.objects.bulk_create(
            TableSeat(round=round_, table=table, seat=seat, entrant=by_id[entrant_id])
            for seat, entrant_id in enumerate(seats, start=1)
        )
    round_.drawn_at = timezone.now()
    round_.save(update_fields=["seed", "drawn_at"])
    _announce_round(round_, "draw")
    return round_


def _announce_round(round_: Round, what: str) -> None:
    """A round drawn, started or closed: the tournament's boards (and the streams that carry
    them start afresh, for the round's tables)."""
    topics = [f"tournament:{round_.tournament_id}"]
    announce_to(topics, what=what, tournament=round_.tournament_id, round=round_.pk)


def _forget_draw(round_: Round) -> None:
    tables = list(round_.tables.select_related("event"))
    TableSeat.objects.filter(round=round_).delete()
    TournamentTable.objects.filter(round=round_).delete()
    Event.objects.filter(pk__in=[table.event_id for table in tables]).delete()


def _table_event(round_: Round, number: int, by: Actor) -> Event:
    night = round_.tournament.event
    name = table_name(night.name, round_.number, number)  # worded when shown: Event.title
    return game_services.event_create(
        name=name[:120],
        date=night.date,
        rules=night.rule_set,
        by=by,
        venue=night.venue,
        decks=night.decks,
        currency_symbol="T",
        money_per_chip=night.money_per_chip,
        currency=night.currency,
        table_min=round_.table_min,
        table_max=round_.table_max,
        hands_per_shoe=round_.hands,
        kind=Event.Kind.TOURNAMENT_TABLE,
        bet_unit=round_.bet_unit,
        seats=round_.tournament.seats_per_table,
    )


@transaction.atomic
def round_start(*, round_: Round, by: Actor) -> Round:
    """Open each table's shoe, seat the draw and give every player their stack: the starting
    stack, or the one they finished the last round with when stacks carry over."""
    round_ = _lock_round(round_)
    if round_.is_started:
        raise _error(MSG_ROUND_STARTED, number=round_.number)
    if round_.drawn_at is None:
        raise _error(MSG_NOT_DRAWN)
    _check_next_round(round_)
    _check_draw_current(round_)
    tournament = round_.tournament
    carried = _final_stacks_before(round_) if tournament.stacks == Tournament.Stacks.CARRIED else {}
    for table in round_.tables.select_related("event"):
        shoe = game_services.shoe_start(event=table.event, by=by)
        places = list(table.seats.select_related("entrant__guest"))
        rows = []
        for place in places:
            kind, chips = StackRow.Kind.START, tournament.starting_stack
            if place.entrant_id in carried:
                kind, chips = StackRow.Kind.CARRIED, carried[place.entrant_id]
            guest = place.entrant.guest
            rows.append(
                StackRow(event=table.event, guest=guest, kind=kind, chips=chips, recorded_by=by)
            )
        StackRow.objects.bulk_create(rows)  # first: a tournament table seats its stacks' players
        for place in places:
            guest = place.entrant.guest
            EventGuest.objects.get_or_create(event=table.event, guest=guest)
            hand_services.seat_guest(shoe=shoe, seat=place.seat, guest=guest, by=by)
    round_.started_at = timezone.now()
    round_.save(update_fields=["started_at"])
    _announce_round(round_, "start")
    return round_


def _check_draw_current(round_: Round) -> None:
    """The draw seats every player of the round, and only them (a player registered after it
    would sit the round out)."""
    playing = {entrant.pk: entrant.guest.name for entrant in players_in(round_)}
    seated = dict(round_.seats.values_list("entrant_id", "entrant__guest__name"))
    changed = sorted(
        name for pk, name in (playing | seated).items() if (pk in playing) != (pk in seated)
    )
    if changed:
        raise _error(MSG_DRAW_STALE, names=", ".join(changed))


def _final_stacks_before(round_: Round) -> dict[int, Decimal]:
    previous = round_.tournament.rounds.filter(number__lt=round_.number).order_by("-number").first()
    if previous is None:
        return {}
    return {line.entrant_id: line.stack for line in round_board(previous).lines}


# --- rebuys and add-ons ---------------------------------------------------------------------


def _playing(
    tournament: Tournament, entrant: Entrant, seen: Round | None = None
) -> tuple[Round, TableSeat]:
    """The round being played and the entrant's seat there. ``seen``: the round the host's
    page was showing; chips are bought in that round only (a page left open on a round since
    closed never buys them in the next)."""
    current = tournament.rounds.filter(started_at__isnull=False, closed_at__isnull=True).first()
    if seen is not None and (current is None or current.pk != seen.pk):
        seen = Round.objects.get(pk=seen.pk)
        if seen.is_closed:
            raise _error(MSG_ROUND_CLOSED, number=seen.number)
        current = None
    place = (
        TableSeat.objects.select_related("table__event")
        .filter(round=current, entrant=entrant)
        .first()
        if current
        else None
    )
    if current is None or place is None:
        raise _error(MSG_NOT_PLAYING, guest=entrant.guest)
    # The table's night, then its shoe: the stack stays as read while chips are bought.
    lock_night(place.table.event_id)
    _lock_shoes(event_id=place.table.event_id)
    return current, place


def _lock_shoes(**where: Any) -> None:
    """Lock these tables' shoes: no hand is logged, undone or corrected there meanwhile (the
    hand pipeline locks the shoe first)."""
    list(
        Shoe.objects.select_for_update(of=("self",), no_key=True)
        .filter(**where)
        .order_by("pk")
        .values_list("pk")
    )


@transaction.atomic
def rebuy(*, entrant: Entrant, by: Actor, round_: Round | None = None) -> StackRow:
    """Buy the rebuy's chips for its price, within the window, under the starting stack
    (``round_``: in that round only, see ``_playing``)."""
    tournament = Tournament.objects.select_for_update(of=("self",), no_key=True).get(
        pk=entrant.tournament_id
    )
    entrant = Entrant.objects.select_related("guest").get(pk=entrant.pk)
    round_, place = _playing(tournament, entrant, round_)
    played = _hands_played(place.table)
    window = tournament.rebuy_rounds >= round_.number and (
        not tournament.rebuy_until_hand or played <= tournament.rebuy_until_hand
    )
    if not window or not tournament.rebuy_chips:
        raise _error(MSG_NO_REBUYS)
    if _bought(tournament, entrant, StackRow.Kind.REBUY) >= tournament.max_rebuys:
        raise _error(MSG_REBUYS_USED, guest=entrant.guest, count=tournament.max_rebuys)
    stack = hand_services.table_stacks(place.table.event, before_hand=played + 1).get(
        entrant.guest_id, ZERO
    )
    if stack >= tournament.starting_stack:
        raise _error(MSG_REBUY_STACK, guest=entrant.guest, stack=format_chips(stack))
    return _buy_chips(tournament, entrant, place, StackRow.Kind.REBUY, played, by)


@transaction.atomic
def add_on(*, entrant: Entrant, by: Actor, round_: Round | None = None) -> StackRow:
    """The add-on: once per player, in its round (``round_``: in that round only)."""
    tournament = Tournament.objects.select_for_update(of=("self",), no_key=True).get(
        pk=entrant.tournament_id
    )
    entrant = Entrant.objects.select_related("guest").get(pk=entrant.pk)
    round_, place = _playing(tournament, entrant, round_)
    if tournament.add_on_round != round_.number or not tournament.add_on_chips:
        raise _error(MSG_NO_ADD_ON)
    if _bought(tournament, entrant, StackRow.Kind.ADD_ON):
        raise _error(MSG_ADD_ON_USED, guest=entrant.guest)
    played = _hands_played(place.table)
    return _buy_chips(tournament, entrant, place, StackRow.Kind.ADD_ON, played, by)


def _bought(tournament: Tournament, entrant: Entrant, kind: str) -> int:
    """How many rebuys (or add-ons) the player has bought in this tournament."""
    rows = StackRow.objects.filter(
        event__tournament_table__round__tournament=tournament, guest=entrant.guest_id, kind=kind
    )
    return rows.count()


def _buy_chips(
    tournament: Tournament, entrant: Entrant, place: TableSeat, kind: str, played: int, by: Actor
) -> StackRow:
    is_rebuy = kind == StackRow.Kind.REBUY
    chips = tournament.rebuy_chips if is_rebuy else tournament.add_on_chips
    price = tournament.rebuy_price if is_rebuy else tournament.add_on_price
    _check_pool_room(tournament, price)
    row = StackRow.objects.create(
        event=place.table.event,
        guest=entrant.guest,
        kind=kind,
        chips=chips,
        after_hand=played,
        recorded_by=by,
    )
    if price:
        _charge(tournament, entrant.guest, kind, -price, by)
    announce_to(
        [f"tournament:{tournament.pk}", f"event:{row.event_id}", f"guest:{entrant.guest_id}"],
        what="rebuy" if is_rebuy else "add-on",
        tournament=tournament.pk,
        event=row.event_id,
    )
    return row


def _hands_played(table: TournamentTable) -> int:
    last = table.event.shoes.aggregate(n=Max("hands__number"))["n"]
    return int(last or 0)


# --- advancing and finishing ----------------------------------------------------------------


@transaction.atomic
def round_close(*, round_: Round, by: Actor, playoff_order: dict[int, int] | None = None) -> Round:
    """Close a round whose tables are all done: who goes on is the advancement the host saw
    (``round_board``); a tie across a cut under the play-off rule needs the play-off's order.
    Closing the final table settles places and pays the prizes. Locks in the one order: the
    tournament (as a rebuy, an add-on and the prizes do), the round, its tables' nights, their
    shoes."""
    _lock_tournament(round_.tournament_id)
    round_ = _lock_round(round_)
    if round_.is_closed:
        raise _error(MSG_ROUND_CLOSED, number=round_.number)
    if not round_.is_started:
        raise _error(MSG_NOT_DRAWN)
    lock_nights(round_.tables.values_list("event_id", flat=True))
    _lock_shoes(event__tournament_table__round=round_)  # the board is the one closed on
    if playoff_order:
        round_.playoff_order = {str(k): v for k, v in playoff_order.items()}
    board = round_board(round_)
    tables = [table_board.table for table_board in board.tables]
    for table_board in board.tables:
        if not table_board.is_done:
            raise _error(MSG_TABLES_PLAYING, number=table_board.table.number)
    if board.playoffs:
        names = "; ".join(", ".join(group) for group in board.playoff_names)
        raise _error(MSG_PLAYOFF_NEEDED, names=names)
    for table in tables:
        for shoe in table.event.shoes.filter(closed_at__isnull=True):
            night_services.shoe_close(shoe=shoe, by=by)
        night_services.event_close(event=table.event, by=by)
    going_on = set(board.qualified)
    out = [line.entrant_id for line in board.lines if line.entrant_id not in going_on]
    Entrant.objects.filter(pk__in=out).update(out_after_round=round_.number)
    round_.closed_at = timezone.now()
    round_.closed_by = by
    round_.save(update_fields=["closed_at", "closed_by", "playoff_order"])
    if round_.is_final:
        _finish(round_, board, by)
    _announce_round(round_, "close")
    return round_


def _finish(round_: Round, board: Any, by: Actor) -> None:
    tournament = Tournament.objects.select_for_update(of=("self",), no_key=True).get(
        pk=round_.tournament_id
    )
    shares, by_amount = parse_prize_table(tournament.prize_table)
    pool = tournament_pool(tournament)[1]
    paid = prizes(pool, shares, board.places, by_amount=by_amount)
    entrants = {e.pk: e for e in tournament.entrants.select_related("guest")}
    for place in board.places:
        for entrant_id in place.players:
            entrant = entrants[entrant_id]
            entrant.place = place.place
            entrant.prize = paid.get(entrant_id, ZERO)
            entrant.save(update_fields=["place", "prize"])
            if entrant.prize:
                _charge(tournament, entrant.guest, Charge.Kind.PRIZE, entrant.prize, by)
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["finished_at"])


def tournament_pool(tournament: Tournament) -> tuple[Decimal, Decimal]:
    """(the house's cut, the prize pool) from what the players paid in: entries, rebuys and
    add-ons."""
    pool = event_pools([tournament.event_id])[tournament.event_id]
    return pool.cut, pool.pool


# --- at the table ---------------------------------------------------------------------------

MSG_NOT_A_TABLE = _("This is not a tournament table.")
MSG_TABLE_NOT_PLAYING = _("Table {number} is not playing now.")
MSG_NO_PLAYER_IN_SEAT = _("No player sits in seat {seat} at this table.")
MSG_SECRET_NEXT_HAND_ONLY = _(
    "A secret bet is marked on the hand being entered (hand {next}), not on hand {number}."
)


def _seat_for_secret(table_event: Event, seat: int, hand_number: int) -> TableSeat:
    """The player in ``seat``, locked, while ``hand_number`` is the hand being entered at the
    table (a hand saved keeps its secret bet on the record)."""
    table = (
        TournamentTable.objects.select_related("round__tournament")
        .filter(event=table_event)
        .first()
    )
    if table is None:
        raise _error(MSG_NOT_A_TABLE)
    round_ = table.round
    shoe = table_event.shoes.filter(closed_at__isnull=True).first()
    if not round_.is_started or round_.is_closed or shoe is None:
        raise _error(MSG_TABLE_NOT_PLAYING, number=table.number)
    upcoming = hand_services.next_hand_number(shoe)
    if upcoming > round_.hands:
        raise _error(hand_services.MSG_ROUND_OVER, hands=round_.hands)
    if hand_number != upcoming:
        raise _error(MSG_SECRET_NEXT_HAND_ONLY, next=upcoming, number=hand_number)
    place = (
        TableSeat.objects.select_for_update(of=("self",), no_key=True)
        .select_related("entrant__guest", "round__tournament")
        .filter(table=table, seat=seat)
        .first()
    )
    if place is None:
        raise _error(MSG_NO_PLAYER_IN_SEAT, seat=seat)
    return place


@transaction.atomic
def secret_bet_mark(*, table_event: Event, seat: int, hand_number: int, by: Actor) -> TableSeat:
    """The player in ``seat`` makes their secret bet on the hand being entered: the table page
    hides their stake until the hand is saved. Once a round, on the hands the tournament allows;
    a host's or a dealer's to mark."""
    if not is_table_staff(by):
        raise PermissionDenied
    place = _seat_for_secret(table_event, seat, hand_number)
    refusal = secret_bet_refusal(
        place.round.tournament,
        place.round,
        guest=place.entrant.guest.name,
        used_on=place.secret_hand,
        hand_number=hand_number,
    )
    if refusal is not None:
        raise _error(refusal)
    if place.secret_hand != hand_number:
        place.secret_hand = hand_number
        place.save(update_fields=["secret_hand"])
    return place


@transaction.atomic
def secret_bet_clear(*, table_event: Event, seat: int, hand_number: int, by: Actor) -> TableSeat:
    """Take back a secret bet marked by mistake, while its hand is still being entered."""
    if not is_table_staff(by):
        raise PermissionDenied
    place = _seat_for_secret(table_event, seat, hand_number)
    if place.secret_hand == hand_number:
        place.secret_hand = None
        place.save(update_fields=["secret_hand"])
    return place
