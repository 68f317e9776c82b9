"""Writes for nights and shoes. Each is atomic, validated, and locks what it changes."""

from __future__ import annotations

import secrets
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field, Max
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from games.currencies import DEFAULT_CURRENCY
from games.kinds import TABLE_SEATS, BankRotation, Game, SuiteReturn
from games.locks import lock_night, lock_night_of_shoe
from games.messages import refused_character
from games.models import Event, Hand, Shoe
from games.payouts import CENT, Rounding, RuleSet
from shoebook.base.live import announce_to
from shoebook.base.roles import Actor

MSG_EVENT_CLOSED = _("This event is closed: nothing more can be logged in it.")
MSG_SHOE_CLOSED = _("Shoe {number} is closed: nothing more can be logged in it.")
MSG_SHOE_ALREADY_OPEN = _("Shoe {number} is still open: close it before starting the next.")
MSG_TOURNAMENT_HAS_TABLES = _("A tournament's hands are played at its tables, round by round.")
MSG_ONE_SHOE_A_ROUND = _("A tournament table plays one shoe: its round.")
MSG_CLOSE_SHOE_FIRST = _("Shoe {number} is still open: close it before closing the event.")
MSG_TABLE_PLAYS_ITS_ROUND = _(
    "A tournament table plays its round's limits, length and rules: they change with the"
    " tournament, before its round starts."
)
MSG_TABLE_STAYS_CLOSED = _("A tournament table closes with its round and stays closed.")
MSG_SHOE_NOT_CLOSED = _("Shoe {number} is open: there is nothing to reopen.")
MSG_EVENT_NOT_CLOSED = _("This event is open: there is nothing to reopen.")
MSG_REOPEN_EVENT_FIRST = _("This event is closed: reopen the event before shoe {number}.")
MSG_CLOSE_OTHER_SHOE_FIRST = _("Shoe {number} is still open: close it before reopening another.")
MSG_TEXT_CHARACTER = _("This cannot hold the invisible or control character {code}.")
MSG_FROZEN_AFTER_FIRST_HAND = _(
    "{field} cannot change once a hand is logged: it would re-price the hands already played."
)
MSG_GAME_AFTER_FIRST_HAND = _(
    "The hands already logged were played as {game}: the game cannot change once a hand is logged."
)
MSG_CUT_OF_OTHER_GAME = _("{game} does not take “{cut}”: choose “{first}” or “{second}”.")


@transaction.atomic
def event_create(
    *,
    name: str,
    date: date,
    rules: RuleSet,
    by: Actor,
    venue: str = "",
    format: str = Event.Format.MINI,
    decks: int = 8,
    currency_symbol: str = "$",
    money_per_chip: Decimal = Decimal(100),
    currency: str = DEFAULT_CURRENCY,
    table_min: Decimal = Decimal(10),
    table_max: Decimal = Decimal(1000),
    hands_per_shoe: int = 40,
    kind: str = Event.Kind.CASH,
    bet_unit: Decimal | None = None,
    game: str = Game.PUNTO_BANCO.value,
    taxe: str = Event.Cut.PERCENT,
    taxe_rate: Decimal = Decimal("0.05"),
    shoe_charge: Decimal = Decimal(0),
    banco: str = "limitee",
    suite_returns: str = SuiteReturn.GIVER.value,
    clearing: str = Event.Clearing.DIRECT,
    seats: int = TABLE_SEATS,
    bank_rotation: str = BankRotation.SKIPS_LOSER.value,
    rounding: str = Rounding.EXACT.value,
    smallest_chip: Decimal = CENT,
) -> Event:
    event = Event(
        name=name,
        seats=seats,
        kind=kind,
        game=game,
        taxe=taxe,
        taxe_rate=taxe_rate,
        shoe_charge=shoe_charge,
        banco=banco,
        suite_returns=suite_returns,
        bank_rotation=bank_rotation,  # today's, but for a night imported as it was played
        rounding=rounding,
        smallest_chip=smallest_chip,
        clearing=clearing,
        bet_unit=bet_unit,  # type: ignore[misc]  # the column takes None
        date=date,
        venue=venue,
        format=format,
        rules=rules.to_dict(),
        decks=decks,
        currency_symbol=currency_symbol,
        money_per_chip=money_per_chip,
        currency=currency,
        table_min=table_min,
        table_max=table_max,
        hands_per_shoe=hands_per_shoe,
        created_by=by,
    )
    _check_texts(event)
    event.full_clean()
    check_cut(event)
    event.save()
    return event


# What ``event_update`` may change: the fields ``event_create`` takes. Once the event's first
# hand is logged only the ones that change no money stay open (``hands_per_shoe`` is the planned
# length of a shoe, nothing a hand was settled by).
EVENT_FIELDS = (
    "name",
    "date",
    "venue",
    "format",
    "rules",
    "decks",
    "currency_symbol",
    "currency",
    "money_per_chip",
    "table_min",
    "table_max",
    "hands_per_shoe",
    # Punto Banco's rounding of payouts and commission to the smallest chip.
    "rounding",
    "smallest_chip",
    # A guest-banked game's terms (Punto Banco reads none of them) and how its night settles.
    "game",
    "taxe",
    "taxe_rate",
    "shoe_charge",
    "banco",
    "suite_returns",
    "clearing",
)
# ``clearing`` only says how the guests settle up at the end: it prices no hand.
EVENT_FIELDS_OPEN_AFTER_FIRST_HAND = frozenset(
    {"name", "date", "venue", "hands_per_shoe", "clearing"}
)
# The house's cuts each guest-banked game takes (``Event.Cut``); Punto Banco reads none.
GAME_CUTS = {
    Game.CHEMIN_DE_FER: (Event.Cut.PERCENT, Event.Cut.PER_SHOE),
    Game.BACCARA_BANQUE: (Event.Cut.CAPITAL, Event.Cut.WINNINGS),
}


def event_has_hands(event: Event) -> bool:
    return Hand.objects.filter(shoe__event=event).exists()


def _event_field(name: str) -> Field[Any, Any]:
    """One of ``EVENT_FIELDS``: a column of the event's own, never a relation."""
    field = Event._meta.get_field(name)
    if not isinstance(field, Field):
        raise TypeError(f"{name} is not a field of the event's own")
    return field


def _stored_value(name: str, value: object) -> Any:
    """``value`` as the event stores it, so that an unchanged field compares equal."""
    if name == "rules":
        if not isinstance(value, RuleSet):
            raise TypeError(f"event_update(rules=...) takes a RuleSet, not {type(value).__name__}")
        return value.to_dict()
    try:
        return _event_field(name).to_python(value)
    except ValidationError:
        return value  # not comparable; full_clean() reports it against the field


def _differs(event: Event, name: str, stored: Any) -> bool:
    if name == "rules":  # compared as rules, not as JSON: "0.05" and "0.050" are one rate
        return RuleSet.from_dict(stored) != event.rule_set
    return bool(stored != getattr(event, name))


@transaction.atomic
def event_update(*, event: Event, by: Actor, **changes: Any) -> Event:
    """Change an open event's details. Before its first hand any field ``event_create`` takes
    may change; after it, only name, date, venue and the planned hands per shoe: the rules,
    decks, limits, chip rate and currency priced the hands already played. A field given the
    value it already has is not a change. Records nothing else (the caller keeps the audit)."""
    unknown = sorted(set(changes).difference(EVENT_FIELDS))
    if unknown:
        raise TypeError(f"event_update() got unexpected field(s): {', '.join(unknown)}")
    event = lock_night(event)
    check_event_open(event)
    changed = {
        name: stored
        for name, value in changes.items()
        if _differs(event, name, stored := _stored_value(name, value))
    }
    if not changed:
        return event
    if event.kind == Event.Kind.TOURNAMENT_TABLE:
        raise ValidationError(MSG_TABLE_PLAYS_ITS_ROUND, code="tournament_table")
    frozen = sorted(set(changed) - EVENT_FIELDS_OPEN_AFTER_FIRST_HAND)
    if frozen and event_has_hands(event):
        raise ValidationError(
            {
                name: ValidationError(frozen_message(event, name), code="frozen_after_first_hand")
                for name in frozen
            }
        )
    for name, value in changed.items():
        setattr(event, name, value)
    _check_texts(event)
    event.full_clean()
    check_cut(event)
    event.save(update_fields=sorted(changed))
    return event


def frozen_message(event: Event, name: str) -> str:
    """Why ``name`` cannot change at a night with hands, in words."""
    if name == "game":
        return MSG_GAME_AFTER_FIRST_HAND.format(game=gettext(event.game_kind.label))
    return MSG_FROZEN_AFTER_FIRST_HAND.format(field=capfirst(_event_field(name).verbose_name))


def check_cut(event: Event) -> None:
    """A guest-banked game takes one of its own cuts (Chemin de fer's taxe or table charge,
    Baccara banque's on capital or on winnings), never the other game's."""
    cuts = GAME_CUTS.get(event.game_kind)
    if cuts is None or event.taxe in cuts:
        return
    labels = dict(Event.Cut.choices)
    first, second = (labels[cut] for cut in cuts)
    message = MSG_CUT_OF_OTHER_GAME.format(
        game=gettext(event.game_kind.label),
        cut=labels.get(event.taxe, event.taxe),
        first=first,
        second=second,
    )
    raise ValidationError({"taxe": ValidationError(message, code="cut_of_other_game")})


def _check_texts(event: Event) -> None:
    """What a host typed holds no invisible or control character (a NUL breaks PostgreSQL)."""
    errors = {
        name: MSG_TEXT_CHARACTER.format(code=code)
        for name in ("name", "venue", "currency_symbol")
        if (code := refused_character(getattr(event, name))) is not None
    }
    if errors:
        raise ValidationError(errors)


def check_event_open(event: Event) -> None:
    if not event.is_open:
        raise ValidationError(MSG_EVENT_CLOSED, code="event_closed")


def check_shoe_open(shoe: Shoe) -> None:
    check_event_open(shoe.event)
    if not shoe.is_open:
        raise ValidationError(MSG_SHOE_CLOSED.format(number=shoe.number), code="shoe_closed")


def _refuse_if_a_shoe_is_open(event: Event, message: StrOrPromise) -> None:
    open_shoe = event.shoes.filter(closed_at__isnull=True).first()
    if open_shoe is not None:
        raise ValidationError(message.format(number=open_shoe.number), code="shoe_open")


@transaction.atomic
def shoe_start(*, event: Event, by: Actor) -> Shoe:
    event = lock_night(event)
    check_event_open(event)
    _refuse_if_a_shoe_is_open(event, MSG_SHOE_ALREADY_OPEN)
    if event.kind == Event.Kind.TOURNAMENT:
        raise ValidationError(MSG_TOURNAMENT_HAS_TABLES)
    if event.kind == Event.Kind.TOURNAMENT_TABLE and event.shoes.exists():
        raise ValidationError(MSG_ONE_SHOE_A_ROUND)
    last = event.shoes.aggregate(last=Max("number"))["last"] or 0
    shoe = Shoe(event=event, number=last + 1, opened_by=by)
    shoe.full_clean()
    shoe.save()
    announce_to([f"event:{event.pk}"], what="shoe", shoe=shoe.pk)  # the display moves to it
    return shoe


@transaction.atomic
def mark_shoe_closed(*, shoe: Shoe, by: Actor) -> Shoe:
    """Close an open shoe. Records nothing else (``ledger.nights.services.shoe_close`` keeps the
    audit)."""
    lock_night_of_shoe(shoe)
    shoe = (
        Shoe.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=shoe.pk)
    )
    check_shoe_open(shoe)
    shoe.closed_at = timezone.now()
    shoe.closed_by = by
    shoe.save(update_fields=["closed_at", "closed_by"])
    return shoe


@transaction.atomic
def mark_event_closed(*, event: Event, by: Actor) -> Event:
    """Close an open event whose shoes are all closed. Records nothing else
    (``ledger.nights.services.event_close`` keeps the audit)."""
    event = lock_night(event)
    check_event_open(event)
    _refuse_if_a_shoe_is_open(event, MSG_CLOSE_SHOE_FIRST)
    event.closed_at = timezone.now()
    event.closed_by = by
    event.save(update_fields=["closed_at", "closed_by"])
    return event


@transaction.atomic
def mark_shoe_open(*, shoe: Shoe, by: Actor) -> Shoe:
    """Open a closed shoe again, in an open event, while no other shoe of it is open (a table
    deals one shoe at a time). Records nothing else (``ledger.nights.services.shoe_reopen`` keeps
    the audit)."""
    lock_night_of_shoe(shoe)
    shoe = (
        Shoe.objects.select_for_update(of=("self",), no_key=True)
        .select_related("event")
        .get(pk=shoe.pk)
    )
    if shoe.is_open:
        raise ValidationError(
            MSG_SHOE_NOT_CLOSED.format(number=shoe.number), code="shoe_not_closed"
        )
    if not shoe.event.is_open:
        raise ValidationError(
            MSG_REOPEN_EVENT_FIRST.format(number=shoe.number), code="event_closed"
        )
    _refuse_if_a_shoe_is_open(shoe.event, MSG_CLOSE_OTHER_SHOE_FIRST)
    shoe.closed_at = None
    shoe.closed_by = None
    shoe.save(update_fields=["closed_at", "closed_by"])
    return shoe


@transaction.atomic
def mark_event_open(*, event: Event, by: Actor) -> Event:
    """Open a closed event again: its shoes stay closed until the host reopens one. Records
    nothing else (``ledger.nights.services.event_reopen`` keeps the audit)."""
    event = lock_night(event)
    if event.is_open:
        raise ValidationError(MSG_EVENT_NOT_CLOSED, code="event_not_closed")
    if event.kind == Event.Kind.TOURNAMENT_TABLE:  # its round has decided who goes on
        raise ValidationError(MSG_TABLE_STAYS_CLOSED, code="tournament_table")
    event.closed_at = None
    event.closed_by = None
    event.save(update_fields=["closed_at", "closed_by"])
    return event


def event_display_link_issue(*, event: Event) -> str:
    """A new read-only link for the event's table display (256 random bits); the old one stops."""
    event.display_token = secrets.token_urlsafe(32)
    event.save(update_fields=["display_token"])
    return event.display_token


def event_results_link_issue(*, event: Event) -> str:
    """A link to the night's shared results for the group (256 random bits); the old one
    stops."""
    event.results_token = secrets.token_urlsafe(32)
    event.save(update_fields=["results_token"])
    return event.results_token


def event_results_link_revoke(*, event: Event) -> None:
    event.results_token = ""
    event.save(update_fields=["results_token"])


@transaction.atomic
def event_share_names_set(*, event: Event, share_names: bool) -> Event:
    """Show guests' names on the event's shared results, or "Guest 1", "Guest 2"... instead."""
    event = lock_night(event)
    event.share_names = share_names
    event.save(update_fields=["share_names"])
    return event
