"""Writes for guests: a name taken, a guest put on an event's list or brought back, renamed, given
an alias, merged into another, given a private link or a login invitation.

Every write is atomic, refuses bad input with a ``ValidationError`` that names the field and
changes nothing, and leaves one audit entry."""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import PROTECT, ProtectedError, Q
from django.db.models.fields.reverse_related import ForeignObjectRel
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.locks import advisory_lock
from games.messages import format_chips, whole_cents
from games.models import MAX_HAND_NUMBER, Event, Shoe
from games.services import check_event_open
from ledger.guests.names import (
    InvalidName,
    clean_name,
    login_skeleton,
    mixes_scripts_deceptively,
    name_key,
)
from ledger.locks import MSG_GUEST_MERGED_AWAY, lock_for_merge, lock_guest, lock_night
from ledger.models import (
    Adjustment,
    AuditEntry,
    Bet,
    ChipMove,
    Coup,
    EventGuest,
    Expense,
    ExpenseShare,
    Guest,
    GuestAlias,
    GuestEventResult,
    GuestInvitation,
    GuestPayHandle,
    MergedGuest,
    Seating,
    SeriesGuest,
    Settlement,
    Transfer,
)
from ledger.money.services import results_refresh
from shoebook.base.live import ACCESS_CHANGED, announce
from shoebook.base.roles import Actor

MSG_GUEST_AMBIGUOUS = _("“{name}” could be any of {names}: rename or merge them first.")


MSG_GUEST_EXISTS = _("There is already a guest called {name}.")


MSG_NOT_ON_LIST = _("{guest} is not on this event's guest list.")


def guest_named(name: str) -> Guest | None:
    """The guest a name means (``ledger.guests.names``: one identity rule everywhere; an alias
    counts as
    the guest's name), or ``None``. A name that means more than one guest (kept apart when names
    were first normalised) is refused with the candidates named."""
    key = name_key(_clean(name))
    candidates = guests_matching({key}).get(key, [])
    if len(candidates) > 1:
        names = candidate_names(candidates)
        raise ValidationError({"name": MSG_GUEST_AMBIGUOUS.format(name=name, names=names)})
    return candidates[0] if candidates else None


def guests_matching(keys: Collection[str]) -> dict[str, list[Guest]]:
    """Every guest each of ``keys`` (``ledger.guests.names.name_key``) could mean, oldest first: the
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
    event = lock_night(event)
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
    event = lock_night(event)
    check_event_open(event)
    already = set(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
    returning = EventGuest.objects.filter(event=from_event).exclude(guest_id__in=already)
    if guests is not None:
        returning = returning.filter(guest_id__in=[guest.pk for guest in guests])
    added = [EventGuest(event=event, guest_id=row.guest_id) for row in returning]
    EventGuest.objects.bulk_create(added)
    return len(added)


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


MSG_MERGE_SHARED_AN_EXPENSE = _(
    "{guest} and {other} each have a share of one expense ({what}): they are two people."
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


def _audit_guest(
    action: str, guest: Guest, by: Actor, *, before: Any = None, after: Any = None
) -> None:
    AuditEntry.objects.create(
        action=action,
        event=None,
        by=by,
        summary=f"{guest.name} (#{guest.pk})"[:200],
        before=before,
        after=after,
    )


@transaction.atomic
def guest_rename(*, guest: Guest, name: str, by: Actor) -> Guest:
    """Give a guest another name. The new name may differ only in case or width ("ＫＥＮ" →
    "Ken"); it may not be another guest's name or alias, and a guest kept apart (``key#id``) from
    another of the same name cannot take that name (merge them instead). An alias equal to the
    new name goes: it is the name now."""
    guest = lock_guest(guest)
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
    _audit_guest(
        AuditEntry.Action.GUEST_RENAMED, guest, by, before={"name": before}, after={"name": name}
    )
    return guest


@transaction.atomic
def guest_alias_add(*, guest: Guest, name: str, by: Actor) -> GuestAlias:
    """Another name the guest is found by, everywhere a name comes in."""
    guest = lock_guest(guest)
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
    guest = lock_guest(Guest(pk=alias.guest_id))
    if not GuestAlias.objects.filter(pk=alias.pk, guest=guest).exists():
        raise ValidationError({NON_FIELD_ERRORS: MSG_GUEST_MERGED_AWAY})  # moved by a merge
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
            guest__in=[guest, other],
            to_hand__isnull=True,
            shoe__closed_at__isnull=True,
            shoe__event__closed_at__isnull=True,
        )
        .select_related("guest", "shoe__event")
        .order_by("pk")
        .first()
    )
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
    both = ExpenseShare.objects.filter(guest=guest, expense__shares__guest=other)
    shared = both.select_related("expense").first()
    if shared is not None:
        return str(MSG_MERGE_SHARED_AN_EXPENSE).format(
            guest=guest.name, other=other.name, what=shared.expense.what
        )
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
    ChipMove, Adjustment, Expense, ExpenseShare, SeriesGuest,
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
        Seating.objects.filter(guest__in=[guest, other])
        .select_related("shoe__event")
        .order_by("shoe_id", "from_hand", "pk")
    )
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
    # Locked in one order, by id, whichever is merged into which: two merges of the same pair
    # the other way round wait for each other instead of deadlocking.
    locked = lock_for_merge([first, second])
    if len(locked) < 2 and first != second:
        raise ValidationError({NON_FIELD_ERRORS: MSG_GUEST_MERGED_AWAY})
    guest, other = locked[guest.pk], locked.get(other.pk, guest)
    refusal = guest_merge_refusal(guest=guest, other=other)
    if refusal is not None:
        raise ValidationError({NON_FIELD_ERRORS: refusal})
    moved = asdict(guest_merge_preview(guest=guest, other=other))
    event_ids = set(Bet.objects.filter(guest=other).values_list("event_id", flat=True))
    for rows in (ChipMove.objects.filter(guest=other), Adjustment.objects.filter(guest=other)):
        event_ids |= set(rows.values_list("event_id", flat=True))  # results without hands
    both_listed = EventGuest.objects.filter(guest=guest).values("event_id")
    EventGuest.objects.filter(guest=other, event_id__in=both_listed).delete()
    EventGuest.objects.filter(guest=other).update(guest=guest)
    in_series = SeriesGuest.objects.filter(guest=guest).values("series_id")
    SeriesGuest.objects.filter(guest=other, series_id__in=in_series).delete()
    SeriesGuest.objects.filter(guest=other).update(guest=guest)
    Bet.objects.filter(guest=other).update(guest=guest)
    Seating.objects.filter(guest=other).update(guest=guest)
    Settlement.objects.filter(guest=other).update(guest=guest)
    Coup.objects.filter(banker=other).update(banker=guest)
    Coup.objects.filter(co_banker=other).update(co_banker=guest)
    Transfer.objects.filter(payer=other).update(payer=guest)
    Transfer.objects.filter(payee=other).update(payee=guest)
    ChipMove.objects.filter(guest=other).update(guest=guest)
    Adjustment.objects.filter(guest=other).update(guest=guest)
    Expense.objects.filter(paid_by=other).update(paid_by=guest)
    ExpenseShare.objects.filter(guest=other).update(guest=guest)
    GuestInvitation.objects.filter(guest=other).update(guest=guest)
    # The handles of ways the kept guest has none on move; the kept guest's own stay.
    kept_ways = GuestPayHandle.objects.filter(guest=guest).values("way_id")
    GuestPayHandle.objects.filter(guest=other).exclude(way_id__in=kept_ways).update(guest=guest)
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
        AuditEntry.Action.GUESTS_MERGED,
        guest,
        by,
        before={"merged": f"{other_name} (#{other_id})", "into": f"{guest.name} (#{guest.pk})"},
        after=moved | {"aliases": ", ".join(aliases), "login": str(user or "")},
    )
    return guest


INVITATION_DAYS = 7


MSG_INVITE_HAS_LOGIN = _("{guest} already has a login ({user}).")


def token_hash(token: str) -> str:
    """What is kept of an invitation's token: its SHA-256 (a guest's, a co-host's or a dealer's)."""
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def guest_invitation_issue(*, guest: Guest, by: Actor) -> str:
    """A one-time link for the guest to make a login: returns its token (only its hash is kept).
    Any earlier invitation for the guest that was not used stops working."""
    guest = lock_guest(guest)
    if guest.user_id is not None:
        raise ValidationError(
            {NON_FIELD_ERRORS: MSG_INVITE_HAS_LOGIN.format(guest=guest.name, user=guest.user)}
        )
    now = timezone.now()
    GuestInvitation.objects.filter(
        guest=guest, used_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=INVITATION_DAYS)
    GuestInvitation.objects.create(
        guest=guest,
        token_hash=token_hash(token),
        created_by=by,
        created_at=now,
        expires_at=expires,
    )
    _audit_guest(
        AuditEntry.Action.INVITATION_ISSUED,
        guest,
        by,
        after={"expires": expires.isoformat(timespec="minutes")},
    )
    return token


@transaction.atomic
def guest_invitation_revoke(*, guest: Guest, by: Actor) -> int:
    """Every unused invitation of the guest stops working; returns how many there were."""
    guest = lock_guest(guest)
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
        .filter(token_hash=token_hash(token))
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
    if invitation is not None:  # the guest first, as every service locks (a revoke does too)
        guest = lock_guest(invitation.guest)
        invitation = GuestInvitation.objects.select_for_update(of=("self",), no_key=True).get(
            pk=invitation.pk
        )
        if invitation.guest_id != guest.pk:  # moved by a merge meanwhile
            raise ValidationError({NON_FIELD_ERRORS: MSG_GUEST_MERGED_AWAY})
        invitation.guest = guest
    problem = invitation_problem(invitation)
    if problem is not None or invitation is None:
        raise ValidationError({NON_FIELD_ERRORS: problem or str(MSG_INVITE_UNKNOWN)})
    username = unicodedata.normalize("NFKC", username)
    hold_login_names()
    check_login_name(username)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
    except IntegrityError:  # the same name taken a moment ago, by another invitation
        raise ValidationError({"username": MSG_LOGIN_TAKEN.format(username=username)}) from None
    guest = invitation.guest
    guest.user = user
    guest.save(update_fields=["user"])
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_at"])
    _audit_guest(AuditEntry.Action.INVITATION_ACCEPTED, guest, user, after={"login": username})
    return user


MSG_LOGIN_TAKEN = _("The login {username} was just taken: choose another.")
MSG_LOGIN_LOOKS_LIKE = _("{username} reads like the login {other}: choose a name that does not.")
MSG_LOGIN_MIXED_SCRIPTS = _(
    "{username} mixes letters of different alphabets that look alike: choose a name in one."
)


# Taken last (after the guest and the invitation), by the one service that makes a login.
LOGIN_NAMES_LOCK = 0x5348_4F45  # "SHOE": one PostgreSQL advisory lock for every new login


def hold_login_names() -> None:
    """One login made at a time on PostgreSQL (held to the end of the transaction): the check
    below reads every login, and two made at once ("host" and "hоst" with a Cyrillic о) would
    each miss the other. The database's index refuses a second login of another case alone;
    SQLite runs one write at a time."""
    advisory_lock(LOGIN_NAMES_LOCK)


def check_login_name(username: str) -> None:
    """A login name nobody can take for another's: not mixing look-alike alphabets, and not
    reading like an existing login (a host's, a dealer's, another guest's)."""
    if mixes_scripts_deceptively(username):
        raise ValidationError({"username": MSG_LOGIN_MIXED_SCRIPTS.format(username=username)})
    skeleton = login_skeleton(username)
    for other in User.objects.values_list("username", flat=True).iterator():
        if login_skeleton(other) == skeleton:
            message = MSG_LOGIN_LOOKS_LIKE.format(username=username, other=other)
            raise ValidationError({"username": message})


MSG_CREDIT_LIMIT = _("A credit limit is whole cents, from 0 to {maximum}; leave it empty for none.")


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
    guest = lock_guest(guest)
    before = guest.credit_limit
    guest.credit_limit = credit_limit  # type: ignore[assignment]  # the column is nullable
    guest.save(update_fields=["credit_limit"])
    if before != credit_limit:
        _audit_guest(
            AuditEntry.Action.CREDIT_LIMIT_SET,
            guest,
            by,
            before={"credit_limit": _limit_text(before)},
            after={"credit_limit": _limit_text(credit_limit)},
        )
    return guest


def _limit_text(limit: Decimal | None) -> str:
    return "" if limit is None else f"{limit:.2f}"


@transaction.atomic
def guest_link_issue(*, guest: Guest) -> str:
    """Give the guest a new private link (256 random bits), replacing any earlier one."""
    locked = lock_guest(guest)
    locked.access_token = guest.access_token = secrets.token_urlsafe(32)  # the caller's copy too
    locked.save(update_fields=["access_token"])
    MergedGuest.objects.filter(guest=guest).update(access_token="")  # merged guests' links too
    announce(f"guest:{guest.pk}", what=ACCESS_CHANGED)  # the old link's open streams end
    return guest.access_token


@transaction.atomic
def guest_link_revoke(*, guest: Guest) -> None:
    locked = lock_guest(guest)
    locked.access_token = guest.access_token = ""
    locked.save(update_fields=["access_token"])
    MergedGuest.objects.filter(guest=guest).update(access_token="")
    announce(f"guest:{guest.pk}", what=ACCESS_CHANGED)
