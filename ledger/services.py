"""Writes that touch money: guests, seating, hands and their bets, corrections.

Every service is atomic and locks the shoe it writes to, so two devices at one table take turns.
Bad input raises ``ValidationError`` keyed by the form field it concerns and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import timedelta
from decimal import Decimal
from typing import Any, NotRequired, TypedDict, TypeVar
from unicodedata import category

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import (
    PROTECT,
    Count,
    Max,
    ProtectedError,
    Q,
    QuerySet,
    Sum,
)
from django.db.models.fields.reverse_related import ForeignObjectRel
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services as game_services
from games.chips import MAX_CHIPS, to_cents
from games.entry import (
    MSG_NO_SUCH_SEAT,
    EntryRejected,
    HandEntry,
    Problem,
    SettledHand,
    TableRules,
    read_seat,
)
from games.kinds import SEATS
from games.messages import format_chips, refused_character, whole_cents
from games.models import MAX_HAND_NUMBER, Event, Hand, Shoe
from games.services import check_event_open, check_shoe_open
from games.settle import GuestBankedTable, PuntoBancoTable, Table, settle
from ledger import hot_reads
from ledger.coups import check_later_coups, coup_of, coup_row, coup_snapshot, previous_coup
from ledger.models import (
    AuditEntry,
    Bet,
    Charge,
    Coup,
    EventGuest,
    Guest,
    GuestAlias,
    GuestEventResult,
    GuestInvitation,
    HandRevision,
    MergedGuest,
    Seating,
    Settlement,
    StackRow,
    Transfer,
)
from ledger.money import ZERO, money_sum
from ledger.names import InvalidName, clean_name, name_key
from ledger.results import guest_balance_now
from shoebook.roles import Actor

MSG_GUEST_AMBIGUOUS = _("“{name}” could be any of {names}: rename or merge them first.")
MSG_GUEST_EXISTS = _("There is already a guest called {name}.")
MSG_NOT_ON_LIST = _("{guest} is not on this event's guest list.")
MSG_HAND_TAKEN = _(
    "Hand {number} was already recorded by {user} at {time}; the table now shows hand {next}."
)
MSG_HAND_OUT_OF_SEQUENCE = _("The next hand in this shoe is hand {next}, not {number}.")
MSG_NOTHING_TO_UNDO = _("There is no hand to undo in this shoe.")
MSG_UNDO_NOT_LAST = _(
    "Hand {number} is no longer the last hand: the shoe now ends at hand {last}. Nothing was "
    "undone — check the table and undo again if need be."
)
MSG_REASON_REQUIRED = _("Say why the hand is being corrected.")
MSG_NOTHING_CHANGED = _("Nothing to correct: the cards, result and bets are as recorded.")
MSG_KEY_OTHER_SHOE = _("This submission belongs to another shoe.")
MSG_ROUND_OVER = _("This round is {hands} hands, all played: the table is done.")
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


class HandTaken(ValidationError):
    """Another device recorded this hand number first (or the number is out of sequence)."""


# --- events -------------------------------------------------------------------------------


@transaction.atomic
def event_edit(*, event: Event, by: Actor, **changes: Any) -> Event:
    """Change an event's details through ``games.services.event_update`` (which keeps the rules,
    decks and limits of a night already played as they were) and record what changed."""
    before = _event_details(Event.objects.get(pk=event.pk))  # as stored, not as a form left it
    event = game_services.event_update(event=event, by=by, **changes)
    after = _event_details(event)
    changed = sorted(name for name in after if after[name] != before[name])
    if changed:
        AuditEntry.objects.create(
            action=AuditEntry.Action.EVENT_EDITED, event=event, by=by, summary=str(event),
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )  # fmt: skip
    return event


@transaction.atomic
def event_close(*, event: Event, by: Actor) -> Event:
    """Close the event (``games.services.event_close``: its shoes closed first) and record it."""
    event = game_services.event_close(event=event, by=by)
    _audit_open_state(AuditEntry.Action.EVENT_CLOSED, event, str(event), by)
    return event


@transaction.atomic
def event_reopen(*, event: Event, by: Actor) -> Event:
    """Open a closed event again (``games.services.event_reopen``) and record it."""
    event = game_services.event_reopen(event=event, by=by)
    _audit_open_state(AuditEntry.Action.EVENT_REOPENED, event, str(event), by)
    return event


@transaction.atomic
def shoe_close(*, shoe: Shoe, by: Actor) -> Shoe:
    """Close the shoe (``games.services.shoe_close``) and record it with its hands."""
    shoe = game_services.shoe_close(shoe=shoe, by=by)
    _audit_open_state(AuditEntry.Action.SHOE_CLOSED, shoe.event, str(shoe), by, shoe=shoe)
    return shoe


@transaction.atomic
def shoe_reopen(*, shoe: Shoe, by: Actor) -> Shoe:
    """Open a closed shoe again (``games.services.shoe_reopen``: the event open, no other shoe
    open) and record it."""
    shoe = game_services.shoe_reopen(shoe=shoe, by=by)
    _audit_open_state(AuditEntry.Action.SHOE_REOPENED, shoe.event, str(shoe), by, shoe=shoe)
    return shoe


def _audit_open_state(
    action: str, event: Event, summary: str, by: Actor, *, shoe: Shoe | None = None
) -> None:
    """A close or a reopen in the audit log: who, when, and how many hands it held then."""
    hands = Hand.objects.filter(shoe=shoe) if shoe else Hand.objects.filter(shoe__event=event)
    AuditEntry.objects.create(
        action=action, event=event, by=by, summary=summary, after={"hands": hands.count()}
    )


def _event_details(event: Event) -> dict[str, str]:
    return {
        name: str(getattr(event, name)) if name != "rules" else event.rule_set.describe()
        for name in game_services.EVENT_FIELDS
    }


# --- guests -------------------------------------------------------------------------------


def guest_named(name: str) -> Guest | None:
    """The guest a name means (``ledger.names``: one identity rule everywhere; an alias counts as
    the guest's name), or ``None``. A name that means more than one guest (kept apart when names
    were first normalised) is refused with the candidates named."""
    key = name_key(_clean(name))
    candidates = guests_matching({key}).get(key, [])
    if len(candidates) > 1:
        names = candidate_names(candidates)
        raise ValidationError({"name": MSG_GUEST_AMBIGUOUS.format(name=name, names=names)})
    return candidates[0] if candidates else None


def guests_matching(keys: Collection[str]) -> dict[str, list[Guest]]:
    """Every guest each of ``keys`` (``ledger.names.name_key``) could mean, oldest first: the
    guest of that name, the guest with that alias, or all the guests kept apart under it when
    names were first normalised. The one matching rule for every way a name comes in: the event
    page's "add guest", the scoresheet import, the admin's search. A key that matches nobody is
    left out. Three queries at most, however many keys."""
    keys = set(keys)
    if not keys:
        return {}
    found = guests_kept_apart(keys)
    rest = keys - found.keys()
    for guest in Guest.objects.filter(name_key__in=rest).order_by("pk"):
        found.setdefault(guest.name_key, []).append(guest)
    for alias in GuestAlias.objects.filter(key__in=rest).select_related("guest"):
        if alias.guest not in found.setdefault(alias.key, []):
            found[alias.key].append(alias.guest)
    return found


def guests_kept_apart(keys: Collection[str]) -> dict[str, list[Guest]]:
    """For those of ``keys`` that guests were kept apart under when names were first normalised
    (the later ones keyed ``key#id``), every guest the key could mean, oldest first."""
    kept = Guest.objects.filter(name_key__contains="#").values_list("name_key", flat=True)
    split = {key.rsplit("#", 1)[0] for key in kept} & set(keys)
    if not split:
        return {}
    found: dict[str, list[Guest]] = {}
    same = Guest.objects.filter(Q(name_key__in=split) | Q(name_key__contains="#")).order_by("pk")
    for guest in same:
        base = guest.name_key.split("#")[0]
        if base in split:
            found.setdefault(base, []).append(guest)
    return found


def candidate_names(guests: Iterable[Guest]) -> str:
    return ", ".join(f"{guest.name} (#{guest.pk})" for guest in guests)


def _clean(name: str) -> str:
    try:
        return clean_name(name)
    except InvalidName as error:
        raise ValidationError({"name": str(error)}) from error


@transaction.atomic
def guest_create(*, name: str) -> Guest:
    name = _clean(name)
    existing = guest_named(name)
    if existing is not None:
        raise ValidationError({"name": MSG_GUEST_EXISTS.format(name=existing.name)})
    guest = Guest(name=name, name_key=name_key(name))
    guest.full_clean(validate_constraints=False)
    guest.save()
    return guest


@transaction.atomic
def event_guest_add(*, event: Event, name: str, by: Actor) -> Guest:
    """Put a guest on the event's list by name: a returning guest is found, a new one created."""
    check_event_open(event)
    guest = guest_named(name) or guest_create(name=name)
    EventGuest.objects.get_or_create(event=event, guest=guest)
    return guest


@transaction.atomic
def event_guests_bring_back(
    *, event: Event, from_event: Event, by: Actor, guests: Collection[Guest] | None = None
) -> int:
    """Guests on ``from_event``'s list join ``event``'s list: those of ``guests`` (the host's
    checklist), or everyone when it is ``None``. Returns how many were added."""
    check_event_open(event)
    already = set(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
    returning = EventGuest.objects.filter(event=from_event).exclude(guest_id__in=already)
    if guests is not None:
        returning = returning.filter(guest_id__in=[guest.pk for guest in guests])
    added = [EventGuest(event=event, guest_id=row.guest_id) for row in returning]
    EventGuest.objects.bulk_create(added)
    return len(added)


# --- guests managed: rename, aliases, merge, login invitations ---------------------------

MSG_NAME_TAKEN = _("“{name}” is already the name of {guests}.")
MSG_ALIAS_TAKEN = _("{name} is already an alias of {guest}.")
MSG_NAME_KEPT_APART = _(
    "“{name}” is also {guests}: merge them instead of giving two guests one name."
)
MSG_ALIAS_IS_NAME = _("{name} is {guest}'s own name already.")
MSG_MERGE_SELF = _("Choose another guest: a guest cannot be merged into itself.")
MSG_MERGE_SEATED = _(
    "{guest} is seated in shoe {shoe} of {event}: free the seat or close the shoe before merging."
)
MSG_MERGE_BOTH_LOGINS = _(
    "{guest} and {other} both have a login: remove one of them in the admin before merging."
)
MSG_MERGE_PLAYED_TOGETHER = _(
    "{guest} and {other} both sat in {shoe} for hand {hand}: they are two people, not one."
)
MSG_MERGE_PAID_EACH_OTHER = _(
    "{guest} and {other} paid each other at a guest-banked night: they are two people."
)
MSG_MERGE_TOURNAMENT_PLAYER = _(
    "{other} has played in a tournament, whose entries stay with the guest who played: merge"
    " {guest} into {other} instead."
)


def _name_clash(name: str, key: str, *, mine: Guest) -> str | None:
    """Why ``key`` cannot be a new name or alias of ``mine``, if it cannot: another guest is
    called that, has it as an alias, or shares it kept apart with ``mine``."""
    candidates = guests_matching({key}).get(key, [])
    others = [guest for guest in candidates if guest != mine]
    if not others:
        return None
    if mine in candidates:
        return str(MSG_NAME_KEPT_APART).format(name=name, guests=candidate_names(others))
    alias = GuestAlias.objects.filter(key=key).select_related("guest").first()
    if alias is not None:
        return str(MSG_ALIAS_TAKEN).format(name=alias.name, guest=alias.guest.name)
    return str(MSG_NAME_TAKEN).format(name=name, guests=candidate_names(others))


def _lock_guest(guest: Guest) -> Guest:
    return Guest.objects.select_for_update().get(pk=guest.pk)


def _audit_guest(action: str, guest: Guest, by: Actor, *, before: Any = None, after: Any = None
                 ) -> None:  # fmt: skip
    AuditEntry.objects.create(
        action=action, event=None, by=by, summary=f"{guest.name} (#{guest.pk})"[:200],
        before=before, after=after,
    )  # fmt: skip


@transaction.atomic
def guest_rename(*, guest: Guest, name: str, by: Actor) -> Guest:
    """Give a guest another name. The new name may differ only in case or width ("ＫＥＮ" →
    "Ken"); it may not be another guest's name or alias, and a guest kept apart (``key#id``) from
    another of the same name cannot take that name (merge them instead). An alias equal to the
    new name goes: it is the name now."""
    guest = _lock_guest(guest)
    name = _clean(name)
    key = name_key(name)
    clash = _name_clash(name, key, mine=guest)
    if clash is not None:
        raise ValidationError({"name": clash})
    before = guest.name
    guest.name, guest.name_key = name, key  # nobody else has the key: no longer kept apart
    guest.full_clean(validate_constraints=False)
    guest.save(update_fields=["name", "name_key"])
    GuestAlias.objects.filter(guest=guest, key=key).delete()
    _audit_guest(AuditEntry.Action.GUEST_RENAMED, guest, by,
                 before={"name": before}, after={"name": name})  # fmt: skip
    return guest


@transaction.atomic
def guest_alias_add(*, guest: Guest, name: str, by: Actor) -> GuestAlias:
    """Another name the guest is found by, everywhere a name comes in."""
    guest = _lock_guest(guest)
    name = _clean(name)
    key = name_key(name)
    if guest.name_key.split("#")[0] == key:
        raise ValidationError({"name": MSG_ALIAS_IS_NAME.format(name=name, guest=guest.name)})
    clash = _name_clash(name, key, mine=guest)
    if clash is None and GuestAlias.objects.filter(key=key).exists():
        clash = str(MSG_ALIAS_TAKEN).format(name=name, guest=guest.name)
    if clash is not None:
        raise ValidationError({"name": clash})
    alias = GuestAlias(guest=guest, name=name, key=key)
    alias.full_clean(validate_constraints=False)
    alias.save()
    _audit_guest(AuditEntry.Action.GUEST_ALIAS_ADDED, guest, by, after={"alias": name})
    return alias


@transaction.atomic
def guest_alias_remove(*, alias: GuestAlias, by: Actor) -> None:
    guest = _lock_guest(alias.guest)
    alias.delete()
    _audit_guest(AuditEntry.Action.GUEST_ALIAS_REMOVED, guest, by, before={"alias": alias.name})


@dataclass(frozen=True)
class MergePreview:
    """What merging ``other`` into ``guest`` moves, for the host to read before confirming."""

    bets: int
    seatings: int
    settlements: int
    events: int


def guest_merge_preview(*, guest: Guest, other: Guest) -> MergePreview:
    return MergePreview(
        bets=Bet.objects.filter(guest=other).count(),
        seatings=Seating.objects.filter(guest=other).count(),
        settlements=Settlement.objects.filter(guest=other).count(),
        events=EventGuest.objects.filter(guest=other).count(),
    )


def guest_merge_refusal(*, guest: Guest, other: Guest) -> str | None:
    """Why ``other`` cannot be merged into ``guest`` now, if it cannot."""
    if guest.pk == other.pk:
        return str(MSG_MERGE_SELF)
    seated = (
        Seating.objects.filter(
            guest__in=[guest, other], to_hand__isnull=True,
            shoe__closed_at__isnull=True, shoe__event__closed_at__isnull=True,
        ).select_related("guest", "shoe__event").order_by("pk").first()
    )  # fmt: skip
    if seated is not None:
        return str(MSG_MERGE_SEATED).format(
            guest=seated.guest.name, shoe=seated.shoe.number, event=seated.shoe.event.name
        )
    if guest.user_id is not None and other.user_id is not None:
        return str(MSG_MERGE_BOTH_LOGINS).format(guest=guest.name, other=other.name)
    if _left_behind_by_merge(other):
        return str(MSG_MERGE_TOURNAMENT_PLAYER).format(guest=guest.name, other=other.name)
    between = Q(payer=guest, payee=other) | Q(payer=other, payee=guest)
    if Transfer.objects.filter(between).exists():
        return str(MSG_MERGE_PAID_EACH_OTHER).format(guest=guest.name, other=other.name)
    overlap = _played_together(guest, other)
    if overlap is not None:
        shoe, hand = overlap
        return str(MSG_MERGE_PLAYED_TOGETHER).format(
            guest=guest.name, other=other.name, shoe=shoe, hand=hand
        )
    return None


# What ``guest_merge`` moves to the guest kept (the rest holding on to a guest, protected,
# stays with them: a tournament's entries, stacks and charges).
MERGE_MOVES = (
    EventGuest, MergedGuest, Seating, Bet, Settlement, GuestEventResult, Coup, Transfer,
)  # fmt: skip


def _left_behind_by_merge(other: Guest) -> bool:
    """Whether ``other`` has rows the merge does not move, which keep it from being deleted.
    One query per such kind of row."""
    return any(
        relation.related_model._base_manager.filter(**{relation.field.name: other}).exists()
        for relation in Guest._meta.get_fields(include_hidden=True)
        if isinstance(relation, ForeignObjectRel)
        and relation.on_delete is PROTECT
        and relation.related_model not in MERGE_MOVES
    )


def _played_together(guest: Guest, other: Guest) -> tuple[Shoe, int] | None:
    """A shoe and hand both guests sat for, if any (one guest cannot be in two seats at once).
    One query, however many seatings."""
    seatings = list(
        Seating.objects.filter(guest__in=[guest, other]).select_related("shoe__event")
        .order_by("shoe_id", "from_hand", "pk")
    )  # fmt: skip
    mine = [seating for seating in seatings if seating.guest_id == guest.pk]
    for seating in (seating for seating in seatings if seating.guest_id == other.pk):
        end = seating.to_hand if seating.to_hand is not None else MAX_HAND_NUMBER
        for hit in mine:
            hit_end = hit.to_hand if hit.to_hand is not None else MAX_HAND_NUMBER
            if (
                hit.shoe_id == seating.shoe_id
                and hit.from_hand <= end
                and hit_end >= seating.from_hand
            ):
                return seating.shoe, max(hit.from_hand, seating.from_hand)
    return None


MSG_MERGE_RACE = _(
    "{guest} was seated or settled on another device meanwhile: nothing was merged. Check and"
    " try again."
)


@transaction.atomic
def guest_merge(*, guest: Guest, other: Guest, by: Actor) -> Guest:
    """Merge ``other`` into ``guest``: every bet, seating, settlement, event-list entry,
    invitation, alias, the login and the private link become ``guest``'s; the results rows of
    their events are recomputed from the bets; ``other``'s name becomes an alias (unless it is
    ``guest``'s name already) and ``other`` is gone, its id and link leading to ``guest``.
    Refused (nothing changed) while either is seated in an open shoe, if both have a login, or
    if they sat at the table at once."""
    first, second = sorted([guest.pk, other.pk])
    locked = {g.pk: g for g in Guest.objects.select_for_update().filter(pk__in=[first, second])}
    guest, other = locked[guest.pk], locked.get(other.pk, guest)
    refusal = guest_merge_refusal(guest=guest, other=other)
    if refusal is not None:
        raise ValidationError({NON_FIELD_ERRORS: refusal})
    moved = asdict(guest_merge_preview(guest=guest, other=other))
    event_ids = set(Bet.objects.filter(guest=other).values_list("event_id", flat=True))
    both_listed = EventGuest.objects.filter(guest=guest).values("event_id")
    EventGuest.objects.filter(guest=other, event_id__in=both_listed).delete()
    EventGuest.objects.filter(guest=other).update(guest=guest)
    Bet.objects.filter(guest=other).update(guest=guest)
    Seating.objects.filter(guest=other).update(guest=guest)
    Settlement.objects.filter(guest=other).update(guest=guest)
    Coup.objects.filter(banker=other).update(banker=guest)
    Coup.objects.filter(co_banker=other).update(co_banker=guest)
    Transfer.objects.filter(payer=other).update(payer=guest)
    Transfer.objects.filter(payee=other).update(payee=guest)
    GuestInvitation.objects.filter(guest=other).update(guest=guest)
    GuestEventResult.objects.filter(guest=other).delete()
    for event_id in sorted(event_ids):
        results_refresh(event_id=event_id, guest_ids={guest.pk})
    aliases = [alias.name for alias in GuestAlias.objects.filter(guest=other)]
    GuestAlias.objects.filter(guest=other).update(guest=guest)
    user = other.user
    if user is not None:
        other.user = None
        other.save(update_fields=["user"])
        guest.user = user
    if guest.user is not None:  # a login already: the invitations have nothing left to do
        GuestInvitation.objects.filter(
            guest=guest, used_at__isnull=True, revoked_at__isnull=True
        ).update(revoked_at=timezone.now())
    if other.access_token and not guest.access_token:  # the link the guest has works on
        guest.access_token = other.access_token
    guest.save(update_fields=["user", "access_token"])
    MergedGuest.objects.filter(guest=other).update(guest=guest)
    MergedGuest.objects.create(  # the old address too, until the link is replaced or revoked
        old_id=other.pk, old_name=other.name, guest=guest, access_token=other.access_token
    )
    old_key = other.name_key.split("#")[0]
    other_name, other_id = other.name, other.pk
    try:
        other.delete()
    except ProtectedError:  # seated or settled from another device meanwhile: undo it all
        raise ValidationError({NON_FIELD_ERRORS: MSG_MERGE_RACE.format(guest=other.name)}) from None
    if not guests_matching({old_key}):  # the old name finds the merged guest from now on
        GuestAlias.objects.create(guest=guest, name=other_name, key=old_key)
        aliases.append(other_name)
    _audit_guest(
        AuditEntry.Action.GUESTS_MERGED, guest, by,
        before={"merged": f"{other_name} (#{other_id})", "into": f"{guest.name} (#{guest.pk})"},
        after=moved | {"aliases": ", ".join(aliases), "login": str(user or "")},
    )  # fmt: skip
    return guest


INVITATION_DAYS = 7
MSG_INVITE_HAS_LOGIN = _("{guest} already has a login ({user}).")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def guest_invitation_issue(*, guest: Guest, by: Actor) -> str:
    """A one-time link for the guest to make a login: returns its token (only its hash is kept).
    Any earlier invitation for the guest that was not used stops working."""
    guest = _lock_guest(guest)
    if guest.user_id is not None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_INVITE_HAS_LOGIN.format(
            guest=guest.name, user=guest.user)})  # fmt: skip
    now = timezone.now()
    GuestInvitation.objects.filter(guest=guest, used_at__isnull=True, revoked_at__isnull=True
                                   ).update(revoked_at=now)  # fmt: skip
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=INVITATION_DAYS)
    GuestInvitation.objects.create(
        guest=guest, token_hash=_token_hash(token), created_by=by, created_at=now,
        expires_at=expires,
    )  # fmt: skip
    _audit_guest(AuditEntry.Action.INVITATION_ISSUED, guest, by,
                 after={"expires": expires.isoformat(timespec="minutes")})  # fmt: skip
    return token


@transaction.atomic
def guest_invitation_revoke(*, guest: Guest, by: Actor) -> int:
    """Every unused invitation of the guest stops working; returns how many there were."""
    guest = _lock_guest(guest)
    revoked = GuestInvitation.objects.filter(
        guest=guest, used_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    if revoked:
        _audit_guest(AuditEntry.Action.INVITATION_REVOKED, guest, by, after={"revoked": revoked})
    return revoked


def invitation_by_token(token: str) -> GuestInvitation | None:
    """The invitation a link's token belongs to, used or not; ``None`` for no invitation."""
    if not token or len(token) > 100:
        return None
    return (
        GuestInvitation.objects.select_related("guest__user")
        .filter(token_hash=_token_hash(token))
        .first()
    )


MSG_INVITE_UNKNOWN = _("This invitation link is not one we know: check it was copied whole.")
MSG_INVITE_USED = _("This invitation was already used to make a login: log in instead.")
MSG_INVITE_REVOKED = _("This invitation was withdrawn: ask the host for a new one.")
MSG_INVITE_EXPIRED = _("This invitation expired: ask the host for a new one.")


def invitation_problem(invitation: GuestInvitation | None) -> str | None:
    """Why an invitation link no longer works, if it does not."""
    if invitation is None:
        return str(MSG_INVITE_UNKNOWN)
    if invitation.used_at is not None or invitation.guest.user_id is not None:
        return str(MSG_INVITE_USED)
    if invitation.revoked_at is not None:
        return str(MSG_INVITE_REVOKED)
    if timezone.now() >= invitation.expires_at:
        return str(MSG_INVITE_EXPIRED)
    return None


@transaction.atomic
def guest_invitation_accept(*, token: str, username: str, password: str) -> User:
    """Make the guest's login from an invitation (the username and password already checked by
    the form, with the project's password validators) and spend the invitation."""
    invitation = invitation_by_token(token)
    if invitation is not None:
        invitation = GuestInvitation.objects.select_for_update().get(pk=invitation.pk)
        invitation.guest = _lock_guest(invitation.guest)
    problem = invitation_problem(invitation)
    if problem is not None or invitation is None:
        raise ValidationError({NON_FIELD_ERRORS: problem or str(MSG_INVITE_UNKNOWN)})
    user = User.objects.create_user(username=username, password=password)
    guest = invitation.guest
    guest.user = user
    guest.save(update_fields=["user"])
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_at"])
    _audit_guest(AuditEntry.Action.INVITATION_ACCEPTED, guest, user, after={"login": username})
    return user


# --- seating ------------------------------------------------------------------------------


def next_hand_number(shoe: Shoe) -> int:
    return (shoe.hands.aggregate(last=Max("number"))["last"] or 0) + 1


def _end_seating(seating: Seating, next_number: int) -> None:
    if seating.from_hand >= next_number:
        seating.delete()  # seated but never played a hand: nothing to keep
    else:
        seating.to_hand = next_number - 1
        seating.save(update_fields=["to_hand"])


def _lock_open_shoe(shoe: Shoe) -> Shoe:
    locked = Shoe.objects.select_for_update().select_related("event").get(pk=shoe.pk)
    check_shoe_open(locked)
    return locked


def _check_seat(seat: int) -> None:
    if seat not in SEATS:
        raise ValidationError({"seat": gettext(MSG_NO_SUCH_SEAT).format(seat=seat)})


@transaction.atomic
def seat_guest(*, shoe: Shoe, seat: int, guest: Guest, by: Actor) -> Seating:
    """Seat a guest from the next hand on, freeing the seat's last occupant and the guest's old
    seat."""
    shoe = _lock_open_shoe(shoe)
    _check_seat(seat)
    if not EventGuest.objects.filter(event=shoe.event, guest=guest).exists():
        raise ValidationError({"guest": MSG_NOT_ON_LIST.format(guest=guest)})
    next_number = next_hand_number(shoe)
    current = Seating.objects.filter(shoe=shoe, to_hand__isnull=True)
    if shoe.event.is_tournament_table and not current.filter(seat=seat, guest=guest).exists():
        _check_drawn_seat(shoe, seat, guest)
    for seating in current.filter(Q(seat=seat) | Q(guest=guest)):
        if seating.seat == seat and seating.guest_id == guest.pk:
            return seating
        _end_seating(seating, next_number)
    return Seating.objects.create(
        shoe=shoe, seat=seat, guest=guest, from_hand=next_number, seated_by=by
    )


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
    _check_seat(seat)
    if shoe.event.is_tournament_table:
        raise ValidationError({"seat": MSG_DRAWN_SEATS})
    seating = Seating.objects.filter(shoe=shoe, seat=seat, to_hand__isnull=True).first()
    if seating is not None:
        _end_seating(seating, next_hand_number(shoe))


# --- hands --------------------------------------------------------------------------------


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


class SeatingChanged(ValidationError):
    """A seat with a bet has changed hands since the page was drawn."""


def _check_seen_seating(
    seen: Mapping[int, int], seated: dict[int, Guest], entry: HandEntry
) -> None:
    changed: list[str] = []
    named = [bet.seat for bet in entry.bets]
    if entry.coup is not None:  # the bank's seats too: a bank is a stake
        terms = entry.coup
        named += [terms.banker_seat, terms.co_banker_seat or "", terms.suite_seat or ""]
    seats = {seat for value in named if (seat := read_seat(value)) is not None}
    for seat in sorted(seats):
        now = seated.get(seat)
        if (now.pk if now else None) == seen.get(seat):
            continue
        if now is None:
            changed.append(MSG_SEAT_NOW_EMPTY.format(seat=seat))
        else:
            changed.append(MSG_SEAT_CHANGED.format(seat=seat, guest=now.name))
    if changed:
        raise SeatingChanged({NON_FIELD_ERRORS: changed})


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
    return replace(rules, stacks={seat: stacks.get(g.pk, ZERO) for seat, g in seated.items()})


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
    existing = shoe.hands.select_related("logged_by").filter(number=number).first()
    if existing is None:
        return HandTaken(
            {
                NON_FIELD_ERRORS: MSG_HAND_OUT_OF_SEQUENCE.format(
                    number=number, next=next_hand_number(shoe)
                )
            }
        )
    local = timezone.localtime(existing.logged_at)
    return HandTaken(
        {
            NON_FIELD_ERRORS: MSG_HAND_TAKEN.format(
                number=number,
                user=existing.logged_by,
                time=f"{local:%H:%M:%S}",
                next=next_hand_number(shoe),
            )
        }
    )


def hand_record(
    *,
    shoe: Shoe,
    number: int,
    entry: HandEntry,
    by: Actor,
    idempotency_key: uuid.UUID | None = None,
    seen_seating: Mapping[int, int] | None = None,
) -> Hand:
    """Record the next hand of an open shoe with its bets, settled (see :func:`record_hand`)."""
    recorded = record_hand(
        shoe=shoe,
        number=number,
        entry=entry,
        by=by,
        idempotency_key=idempotency_key,
        seen_seating=seen_seating,
    )
    return recorded.hand


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
    if number != last_number + 1:
        raise _taken(shoe, number)
    _check_round_length(shoe, number)
    seated = _seated_at(shoe, number)
    if seen_seating is not None:
        _check_seen_seating(seen_seating, seated, entry)
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
    return RecordedHand(hand, bets=settled, seated=seated)


def _locked_shoe(shoe: Shoe, idempotency_key: uuid.UUID | None) -> tuple[Shoe, int, int | None]:
    """The shoe locked and read afresh with its event, its last hand's number, and the hand
    already recorded under ``idempotency_key`` if any. On PostgreSQL the lock is a statement of
    its own before the read: PostgreSQL reads a locking statement's subqueries as they stood
    before it waited for the lock, so a racing device's hand, committed meanwhile, would go
    unseen. SQLite's transaction began IMMEDIATE and holds the database's write lock."""
    if connection.features.has_select_for_update:  # the shoe's row and its event's
        list(Shoe.objects.select_for_update().filter(pk=shoe.pk).values_list("event__closed_at"))
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
        action=action, event_id=shoe.event_id, before=before, after=after, by=by,
        summary=f"{shoe} · hand {number}",
    )  # fmt: skip


def results_add(*, event: Event, bets: Sequence[Bet]) -> None:
    """Add a new hand's bets to their guests' totals for the event: one statement, a row per
    guest inserted or added to (the same sums as :func:`results_refresh`, which ``check_ledger``
    recomputes; a tournament table's are left out, as there)."""
    if event.is_tournament_table or not bets:
        return
    sums: dict[int, list[int]] = {}
    for bet in bets:  # a guest with several bets in the hand counts it once
        row = sums.setdefault(bet.guest_id, [0, 0, 0, 0])
        for index, amount in enumerate((bet.stake, bet.gross, bet.commission, bet.net)):
            row[index] += to_cents(amount)
    table = connection.ops.quote_name(GuestEventResult._meta.db_table)
    added = ", ".join(
        f"{column} = {table}.{column} + excluded.{column}"
        for column in ("stake", "gross", "commission", "net")
    )
    values = ", ".join(["(%s, %s, 1, %s, %s, %s, %s)"] * len(sums))
    sql = (
        f"INSERT INTO {table} (guest_id, event_id, hands, stake, gross, commission, net) "
        f"VALUES {values} ON CONFLICT (guest_id, event_id) DO UPDATE SET "
        f"hands = {table}.hands + 1, {added}"
    )
    parameters = [value for guest_id, row in sums.items() for value in (guest_id, event.pk, *row)]
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)


def results_refresh(*, event_id: int, guest_ids: Iterable[int]) -> None:
    """Recompute these guests' totals for the event from their bets, or a tournament's from its
    charges (a sum, never an edit)."""
    guest_ids = set(guest_ids)
    if not guest_ids:
        return
    GuestEventResult.objects.filter(event_id=event_id, guest_id__in=guest_ids).delete()
    GuestEventResult.objects.bulk_create(
        result_rows(
            bets=Bet.objects.filter(event_id=event_id, guest_id__in=guest_ids),
            charges=Charge.objects.filter(event_id=event_id, guest_id__in=guest_ids),
        )
    )


@transaction.atomic
def results_rebuild() -> int:
    """Recompute every guest's totals for every event from the bets and charges; returns the
    rows written."""
    GuestEventResult.objects.all().delete()
    rows = result_rows(bets=Bet.objects.all(), charges=Charge.objects.all())
    return len(GuestEventResult.objects.bulk_create(rows))


def result_rows(*, bets: QuerySet[Bet], charges: QuerySet[Charge]) -> list[GuestEventResult]:
    """The totals per guest and event of ``bets`` (a tournament table's left out: tournament
    chips are no one's money) and of ``charges`` (a result without hands or stakes)."""
    cash_bets = bets.exclude(event__kind=Event.Kind.TOURNAMENT_TABLE)
    rows = [
        GuestEventResult(**row)
        for row in cash_bets.values("guest_id", "event_id")
        .annotate(hands=Count("hand", distinct=True), **_money_sums())
        .order_by()
    ]
    for row in charges.values("guest_id", "event_id").annotate(net=money_sum("amount")).order_by():
        rows.append(GuestEventResult(hands=0, stake=ZERO, gross=row["net"], commission=ZERO, **row))
    return rows


def _money_sums() -> dict[str, Sum]:
    return {name: money_sum(name) for name in ("stake", "gross", "commission", "net")}


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
    revision = HandRevision.objects.create(
        shoe=shoe,
        hand_number=hand.number,
        kind=HandRevision.Kind.UNDO,
        before=hand_snapshot(hand, _bets_of(hand)),
        changed_by=by,
        idempotency_key=idempotency_key,
    )
    guest_ids = set(Bet.objects.filter(hand=hand).values_list("guest_id", flat=True))
    Bet.objects.filter(hand=hand).delete()
    hand.delete()
    _seatings_back_to(shoe, hand.number)
    results_refresh(event_id=shoe.event_id, guest_ids=guest_ids)
    _audit(AuditEntry.Action.HAND_UNDONE, shoe, revision.hand_number, by, before=revision.before)
    return revision


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
    shoe = Shoe.objects.select_for_update().select_related("event").get(pk=hand.shoe_id)
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
    before = hand_snapshot(hand, _bets_of(hand))
    seated = _seated_at(shoe, hand.number)
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
    return hand


# --- settlements and guests' links ---------------------------------------------------------

MSG_SETTLEMENT_ZERO = _("A settlement moves some money: enter an amount other than zero.")
MSG_SETTLEMENT_NOTE = _("Say what “other” was.")
MSG_NOTE_CHARACTER = _("A note cannot hold the invisible or control character {code}.")
MSG_SETTLEMENT_AMOUNT = _("A settlement is whole cents, at most {maximum} either way.")
MSG_ASK_PAST_BALANCE = _(
    "{guest}'s balance is {balance}: {amount} is more than that and leaves {after}. "
    "Tick “Record it anyway” if that is right."
)
MSG_ASK_GROWS_DEBT = _(
    "{guest}'s balance is {balance}: this goes the other way and leaves {after}. "
    "Tick “Record it anyway” if that is right."
)
MSG_VOID_REASON = _("Say why the settlement is being voided.")
MSG_VOID_REASON_CHARACTER = _("A reason cannot hold the invisible or control character {code}.")
MSG_ALREADY_VOIDED = _("This settlement was already voided by {user} at {time}: nothing changed.")
MSG_VOID_OF_VOID = _(
    "This row is itself a void: it cannot be voided. Record a new settlement instead."
)
MSG_CREDIT_LIMIT = _("A credit limit is whole cents, from 0 to {maximum}; leave it empty for none.")


KeyedRow = TypeVar("KeyedRow", Settlement, Transfer)


def save_once(row: KeyedRow, idempotency_key: uuid.UUID | None) -> KeyedRow:
    """Save a row a form sent with its key; the row already saved under that key if the same
    form came at the same moment from a second tap."""
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        done = type(row).objects.filter(idempotency_key=idempotency_key).first()
        if idempotency_key is None or done is None:
            raise
        return done
    return row


class SettlementQuestion(ValidationError):
    """The settlement goes past the guest's balance or the other way: asked first, not
    recorded (``ask_first``). The host confirms and records it anyway."""


def _line_character(text: str) -> str | None:
    """A character a one-line note may not hold: control and invisible ones, line breaks too."""
    refused = refused_character(text)
    if refused is None:
        breaks = (char for char in text if char in "\t\n\r" or category(char) in ("Zl", "Zp"))
        refused = next((f"U+{ord(char):04X}" for char in breaks), None)
    return refused


def _check_amount(amount: Decimal) -> None:
    if not amount.is_finite() or abs(amount) > MAX_CHIPS or not whole_cents(amount):
        raise ValidationError({"amount": MSG_SETTLEMENT_AMOUNT.format(maximum=MAX_CHIPS)})
    if amount == 0:
        raise ValidationError({"amount": MSG_SETTLEMENT_ZERO})


def settlement_question(*, guest: Guest, event: Event, balance: Decimal, amount: Decimal) -> str:
    """What to ask before recording ``amount`` against ``balance`` (empty: nothing to ask). A
    settlement that brings the balance toward square, at most to square, is asked nothing."""
    after = balance + amount
    if balance != 0 and (amount > 0) == (balance < 0) and abs(amount) <= abs(balance):
        return ""
    symbol = event.currency_symbol
    figures = {
        "guest": guest.name,
        "balance": format_chips(balance, symbol),
        "amount": format_chips(abs(amount), symbol),
        "after": format_chips(after, symbol),
    }
    if balance != 0 and (amount > 0) == (balance < 0):
        return str(MSG_ASK_PAST_BALANCE).format(**figures)
    return str(MSG_ASK_GROWS_DEBT).format(**figures)


def _settlement_snapshot(settlement: Settlement) -> dict[str, object]:
    return {
        "id": settlement.pk,
        "guest": str(settlement.guest),
        "guest_id": settlement.guest_id,
        "amount": f"{settlement.amount:.2f}",
        "method": settlement.method,
        "note": settlement.note,
        "recorded_at": settlement.recorded_at.isoformat(),
    }


@transaction.atomic
def settlement_record(
    *,
    guest: Guest,
    event: Event,
    amount: Decimal,
    method: str,
    by: Actor,
    note: str = "",
    ask_first: bool = False,
    idempotency_key: uuid.UUID | None = None,
) -> Settlement:
    """Record money that changed hands: ``amount`` is what the guest paid the house (negative
    when the house paid the guest). Partial payments are simply smaller amounts. With
    ``ask_first``, one that goes past the guest's balance as it stands now, or the other way, is
    not recorded: :class:`SettlementQuestion` says what it would do. A form sent again with
    the same ``idempotency_key`` (a double tap) records nothing more: the first row returns."""
    _check_amount(amount)
    if method == Settlement.Method.OTHER and not note.strip():
        raise ValidationError({"note": MSG_SETTLEMENT_NOTE})
    refused = _line_character(note)
    if refused is not None:
        raise ValidationError({"note": MSG_NOTE_CHARACTER.format(code=refused)})
    guest = Guest.objects.select_for_update().get(pk=guest.pk)  # one settlement at a time
    if idempotency_key is not None:
        done = Settlement.objects.filter(idempotency_key=idempotency_key).first()
        if done is not None:
            return done
    if ask_first:
        balance = guest_balance_now(guest_id=guest.pk)
        question = settlement_question(guest=guest, event=event, balance=balance, amount=amount)
        if question:
            raise SettlementQuestion({NON_FIELD_ERRORS: question})
    settlement = Settlement(
        guest=guest, event=event, amount=amount, method=method, note=note.strip(), recorded_by=by,
        idempotency_key=idempotency_key,
    )  # fmt: skip
    settlement.full_clean(validate_constraints=False)
    done = save_once(settlement, idempotency_key)
    if done is not settlement:
        return done
    AuditEntry.objects.create(
        action=AuditEntry.Action.SETTLEMENT, event=event, by=by, summary=str(guest),
        after=_settlement_snapshot(settlement),
    )  # fmt: skip
    return settlement


@transaction.atomic
def settlement_void(*, settlement: Settlement, reason: str, by: Actor) -> Settlement:
    """Reverse a settlement recorded by mistake: a new row with the amount negated, at the same
    event, pointing at it, the reason as its note. Nothing is edited or deleted, so balances
    stay sums of rows and both rows show everywhere. Once only; a void is never voided."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": MSG_VOID_REASON})
    refused = _line_character(reason)
    if refused is not None:
        raise ValidationError({"reason": MSG_VOID_REASON_CHARACTER.format(code=refused)})
    original = (
        Settlement.objects.select_for_update()
        .select_related("guest", "event")
        .get(pk=settlement.pk)
    )
    if original.voids_id is not None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_VOID_OF_VOID})
    existing = Settlement.objects.select_related("recorded_by").filter(voids=original).first()
    if existing is not None:
        raise ValidationError({NON_FIELD_ERRORS: _already_voided(existing)})
    void = Settlement(
        guest=original.guest, event=original.event, amount=-original.amount,
        method=original.method, note=reason, voids=original, recorded_by=by,
    )  # fmt: skip
    void.full_clean(validate_constraints=False, validate_unique=False)
    try:
        with transaction.atomic():
            void.save()
    except IntegrityError as error:  # another device voided it first
        existing = Settlement.objects.select_related("recorded_by").get(voids=original)
        raise ValidationError({NON_FIELD_ERRORS: _already_voided(existing)}) from error
    AuditEntry.objects.create(
        action=AuditEntry.Action.SETTLEMENT_VOIDED, event=original.event, by=by,
        summary=str(original.guest), before=_settlement_snapshot(original),
        after=_settlement_snapshot(void),
    )  # fmt: skip
    return void


def _already_voided(void: Settlement) -> str:
    local = timezone.localtime(void.recorded_at)
    return str(MSG_ALREADY_VOIDED).format(user=void.recorded_by, time=f"{local:%Y-%m-%d %H:%M}")


@transaction.atomic
def guest_credit_limit_set(*, guest: Guest, credit_limit: Decimal | None, by: Actor) -> Guest:
    """How far the guest may owe the house, in chips (``None``: no limit). A warning on the
    table page and the settlement list, never a block."""
    if credit_limit is not None and (
        not credit_limit.is_finite()
        or not 0 <= credit_limit <= MAX_CHIPS
        or not whole_cents(credit_limit)
    ):
        raise ValidationError(
            {"credit_limit": MSG_CREDIT_LIMIT.format(maximum=format_chips(MAX_CHIPS))}
        )
    guest = Guest.objects.select_for_update().get(pk=guest.pk)
    before = guest.credit_limit
    guest.credit_limit = credit_limit  # type: ignore[assignment]  # the column is nullable
    guest.save(update_fields=["credit_limit"])
    if before != credit_limit:
        _audit_guest(AuditEntry.Action.CREDIT_LIMIT_SET, guest, by,
                     before={"credit_limit": _limit_text(before)},
                     after={"credit_limit": _limit_text(credit_limit)})  # fmt: skip
    return guest


def _limit_text(limit: Decimal | None) -> str:
    return "" if limit is None else f"{limit:.2f}"


def guest_link_issue(*, guest: Guest) -> str:
    """Give the guest a new private link (256 random bits), replacing any earlier one."""
    guest.access_token = secrets.token_urlsafe(32)
    guest.save(update_fields=["access_token"])
    MergedGuest.objects.filter(guest=guest).update(access_token="")  # merged guests' links too
    return guest.access_token


def guest_link_revoke(*, guest: Guest) -> None:
    guest.access_token = ""
    guest.save(update_fields=["access_token"])
    MergedGuest.objects.filter(guest=guest).update(access_token="")
