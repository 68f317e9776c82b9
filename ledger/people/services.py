"""Writes for the people who run the nights: a co-host or a dealer invited by a one-time link
(the token kept hashed, as a guest's login invitation), the invitation withdrawn or accepted, a
role changed between host and dealer, a login's access revoked.

The limits: a host changes nobody's role or access but others' (never their own), the last host
is never demoted or revoked, the operator's accounts (superusers), guests' logins and the
command line's account are not changed from here. Every write is atomic, refuses with a
``ValidationError`` naming the field and changing nothing, and leaves one audit entry."""

from __future__ import annotations

import secrets
import unicodedata
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.locks import advisory_lock
from games.models import Shoe
from ledger.guests.services import (  # one invitation's rules, a guest's or a co-host's
    INVITATION_DAYS,
    MSG_INVITE_EXPIRED,
    MSG_INVITE_REVOKED,
    MSG_INVITE_UNKNOWN,
    MSG_INVITE_USED,
    MSG_LOGIN_TAKEN,
    check_login_name,
    hold_login_names,
    token_hash,
)
from ledger.models import AuditEntry, Guest, StaffInvitation
from shoebook.base.live import ACCESS_CHANGED, announce_to
from shoebook.base.roles import COMMAND_LINE, DEALERS, HOSTS, Actor, is_host

Role = StaffInvitation.Role
GROUP_OF_ROLE = {Role.HOST: HOSTS, Role.DEALER: DEALERS}

# Taken first by every write of this module: the last-host rule reads every host, and two hosts
# demoting each other at once would each see the other stay.
PEOPLE_LOCK = 0x5045_4F50  # "PEOP"

MSG_ROLE_UNKNOWN = _("Choose host or dealer.")
MSG_NOT_A_HOST = _("Only a host may do this, and you are no longer one.")
MSG_NOT_YOURSELF = _("You cannot change your own role or access: ask another host.")
MSG_OPERATOR = _("{user} is the site's operator: change that account in the admin.")
MSG_GUEST_LOGIN = _("{user} is {guest}'s own login: manage it from the guest's page.")
MSG_NO_SUCH_PERSON = _("{user} cannot be changed here.")
MSG_LAST_HOST = _("{user} is the last host: make another host first.")
MSG_ALREADY_REVOKED = _("{user} already cannot log in.")
MSG_INVITATION_GONE = _("This invitation is no longer out: it was used or withdrawn.")
MSG_NOTE_TOO_LONG = _("Keep the note to 80 characters.")


def role_of(user: User) -> Role | None:
    """The role a login has here (a host's wins over a dealer's), from its groups."""
    names = {group.name for group in user.groups.all()}
    if HOSTS in names:
        return Role.HOST
    if DEALERS in names:
        return Role.DEALER
    return None


def _hold_people(by: Actor) -> None:
    """The people lock, then ``by`` read again under it: still an active host (another host may
    have revoked or demoted them a moment ago)."""
    advisory_lock(PEOPLE_LOCK)
    fresh = User.objects.filter(pk=by.pk, is_active=True).first()
    if fresh is None or not (fresh.is_superuser or fresh.groups.filter(name=HOSTS).exists()):
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_A_HOST})


def _lock_person(user: User, by: Actor) -> User:
    """The login to change, locked, once it is one a host may change from here."""
    if user.pk == by.pk:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_YOURSELF})
    locked = User.objects.select_for_update(of=("self",), no_key=True).get(pk=user.pk)
    if locked.is_superuser:
        raise ValidationError({NON_FIELD_ERRORS: MSG_OPERATOR.format(user=locked.username)})
    guest = Guest.objects.filter(user=locked).first()
    if guest is not None:
        message = MSG_GUEST_LOGIN.format(user=locked.username, guest=guest.name)
        raise ValidationError({NON_FIELD_ERRORS: message})
    if locked.username == COMMAND_LINE:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NO_SUCH_PERSON.format(user=locked.username)})
    return locked


def _other_hosts_remain(user: User) -> bool:
    """Whether an active login of the Hosts group other than ``user`` stays (an operator's
    superuser outside the group does not run nights)."""
    hosts = User.objects.filter(is_active=True, groups__name=HOSTS)
    return hosts.exclude(pk=user.pk).exists()


def _audit(action: str, summary: str, by: Actor, *, before: Any = None, after: Any = None) -> None:
    AuditEntry.objects.create(
        action=action, event=None, by=by, summary=summary[:200], before=before, after=after
    )


def _invitation_words(invitation: StaffInvitation) -> str:
    """The audit's summary of an invitation: plain data, worded in the reader's language by its
    action and role (a role's label written here would stay in the writer's language)."""
    return f"{invitation.note} (#{invitation.pk})" if invitation.note else f"#{invitation.pk}"


def _person(user: User) -> str:
    return f"{user.username} (#{user.pk})"


@transaction.atomic
def staff_invitation_issue(*, role: str, note: str = "", by: Actor) -> str:
    """A one-time link for a co-host or a dealer to make a login with ``role``: returns its
    token (only its hash is kept)."""
    if role not in GROUP_OF_ROLE:
        raise ValidationError({"role": MSG_ROLE_UNKNOWN})
    note = note.strip()
    if len(note) > 80:
        raise ValidationError({"note": MSG_NOTE_TOO_LONG})
    _hold_people(by)
    now = timezone.now()
    token = secrets.token_urlsafe(32)
    expires = now + timedelta(days=INVITATION_DAYS)
    invitation = StaffInvitation.objects.create(
        role=role,
        note=note,
        token_hash=token_hash(token),
        created_by=by,
        created_at=now,
        expires_at=expires,
    )
    _audit(
        AuditEntry.Action.STAFF_INVITED,
        _invitation_words(invitation),
        by,
        after={
            "role": role,
            "note": note,
            "expires": expires.isoformat(timespec="minutes"),
        },
    )
    return token


@transaction.atomic
def staff_invitation_withdraw(*, invitation: StaffInvitation, by: Actor) -> StaffInvitation:
    """The invitation stops working."""
    _hold_people(by)
    invitation = StaffInvitation.objects.select_for_update(of=("self",), no_key=True).get(
        pk=invitation.pk
    )
    if invitation.used_at is not None or invitation.revoked_at is not None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_INVITATION_GONE})
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    _audit(
        AuditEntry.Action.STAFF_INVITE_REVOKED,
        _invitation_words(invitation),
        by,
        before={"role": invitation.role, "note": invitation.note},
    )
    return invitation


def staff_invitation_by_token(token: str) -> StaffInvitation | None:
    """The invitation a link's token belongs to, used or not; ``None`` for no invitation."""
    if not token or len(token) > 100:
        return None
    return (
        StaffInvitation.objects.select_related("created_by")
        .filter(token_hash=token_hash(token))
        .first()
    )


def staff_invitation_problem(invitation: StaffInvitation | None) -> str | None:
    """Why an invitation link no longer works, if it does not. An invitation whose host has
    since lost their access, or is a host no longer (made a dealer), counts as withdrawn: a
    dealer cannot make hosts with links made before."""
    if invitation is None:
        return str(MSG_INVITE_UNKNOWN)
    if invitation.used_at is not None:
        return str(MSG_INVITE_USED)
    author = invitation.created_by
    if invitation.revoked_at is not None or not (author.is_active and is_host(author)):
        return str(MSG_INVITE_REVOKED)
    if timezone.now() >= invitation.expires_at:
        return str(MSG_INVITE_EXPIRED)
    return None


@transaction.atomic
def staff_invitation_accept(*, token: str, username: str, password: str) -> User:
    """Make the login an invitation offers, with its role (the username and password already
    checked by the form, with the project's password validators), and spend the invitation."""
    invitation = staff_invitation_by_token(token)
    if invitation is not None:
        advisory_lock(PEOPLE_LOCK)
        invitation = (
            StaffInvitation.objects.select_for_update(of=("self",), no_key=True)
            .select_related("created_by")
            .get(pk=invitation.pk)
        )
    problem = staff_invitation_problem(invitation)
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
    group, _made = Group.objects.get_or_create(name=GROUP_OF_ROLE[Role(invitation.role)])
    user.groups.add(group)
    invitation.used_at = timezone.now()
    invitation.user = user
    invitation.save(update_fields=["used_at", "user"])
    _audit(
        AuditEntry.Action.STAFF_JOINED,
        _person(user),
        user,
        after={
            "login": username,
            "role": invitation.role,
            "invited_by": str(invitation.created_by),
        },
    )
    return user


@transaction.atomic
def role_change(*, user: User, role: str, by: Actor) -> User:
    """The login becomes a host or a dealer (its other role goes)."""
    if role not in GROUP_OF_ROLE:
        raise ValidationError({"role": MSG_ROLE_UNKNOWN})
    _hold_people(by)
    locked = _lock_person(user, by)
    before = role_of(locked)
    if not locked.is_active:
        raise ValidationError({NON_FIELD_ERRORS: MSG_ALREADY_REVOKED.format(user=locked.username)})
    if before == role:
        return locked
    if before == Role.HOST and not _other_hosts_remain(locked):
        raise ValidationError({NON_FIELD_ERRORS: MSG_LAST_HOST.format(user=locked.username)})
    groups = [Group.objects.get_or_create(name=name)[0] for name in GROUP_OF_ROLE.values()]
    locked.groups.remove(*groups)
    locked.groups.add(Group.objects.get_or_create(name=GROUP_OF_ROLE[Role(role)])[0])
    _audit(
        AuditEntry.Action.ROLE_CHANGED,
        _person(locked),
        by,
        before={"role": before or ""},
        after={"role": role},
    )
    return locked


@transaction.atomic
def access_revoke(*, user: User, by: Actor) -> User:
    """The login can no longer log in, and its sessions end now: its next request is anybody's
    (the table's next save is refused, the next page asks to log in). What it recorded stays,
    attributed to it; the account is kept for that."""
    _hold_people(by)
    locked = _lock_person(user, by)
    if not locked.is_active:
        raise ValidationError({NON_FIELD_ERRORS: MSG_ALREADY_REVOKED.format(user=locked.username)})
    role = role_of(locked)
    if role == Role.HOST and not _other_hosts_remain(locked):
        raise ValidationError({NON_FIELD_ERRORS: MSG_LAST_HOST.format(user=locked.username)})
    locked.is_active = False
    locked.save(update_fields=["is_active"])
    ended = _end_sessions(locked)
    _end_open_streams()
    _audit(
        AuditEntry.Action.ACCESS_REVOKED,
        _person(locked),
        by,
        before={"role": role or "", "login": locked.username},
        after={"sessions": ended},
    )
    return locked


def _end_open_streams() -> None:
    """Every open table's and night's stream ends once this commits (``ACCESS_CHANGED``): each
    browser opens its stream again, checked afresh, and the revoked login's is refused. A
    stream does not know its viewer, so the others' reopen too (one resync each)."""
    shoes = Shoe.objects.filter(closed_at__isnull=True, event__closed_at__isnull=True)
    opened = list(shoes.values_list("pk", "event_id"))
    topics = [f"shoe:{shoe}" for shoe, _event in opened]
    topics += [f"event:{event}" for _shoe, event in opened]
    announce_to(topics, what=ACCESS_CHANGED)


def _end_sessions(user: User) -> int:
    """Delete the login's sessions from the database's session store; how many. (An inactive
    login is refused by the authentication backends at its next request anyway: this also
    leaves nothing of its sessions behind.)"""
    if settings.SESSION_ENGINE != "django.contrib.sessions.backends.db":
        return 0
    mine = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk)
    ]
    Session.objects.filter(pk__in=mine).delete()
    return len(mine)
