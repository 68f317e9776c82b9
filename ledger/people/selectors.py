"""Reads for the People page: every login with its role, and the invitations still out."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from ledger.models import StaffInvitation
from ledger.people.services import role_of
from shoebook.base.roles import COMMAND_LINE, HOSTS


@dataclass(frozen=True)
class Person:
    user: User
    # "operator" (a superuser), "host", "dealer", "guest" (a guest's own login), "" (none).
    role: str
    guest_id: int | None
    guest_name: str

    @property
    def changeable(self) -> bool:
        """A login a host may change from the People page (the services say why not, too)."""
        return self.user.is_active and self.role in ("host", "dealer")


@dataclass(frozen=True)
class People:
    staff: list[Person]  # hosts, dealers and the operator, who may log in
    guests: list[Person]  # guests' own logins: each sees their own page only
    revoked: list[Person]  # logins that can no longer log in
    invitations: list[StaffInvitation]  # out: neither used, withdrawn nor expired


def _role(user: User, guest_id: int | None) -> str:
    if user.is_superuser:
        return "operator"
    role = role_of(user)
    if role is not None:
        return str(role)
    return "guest" if guest_id is not None else ""


def people() -> People:
    """Three queries, whatever the number of logins and invitations."""
    users = (
        User.objects.exclude(username=COMMAND_LINE)
        .select_related("guest")
        .prefetch_related("groups")
        .order_by(Lower("username"), "pk")
    )
    staff, guests, revoked = [], [], []
    for user in users:
        guest = getattr(user, "guest", None)
        person = Person(
            user=user,
            role=_role(user, guest.pk if guest else None),
            guest_id=guest.pk if guest else None,
            guest_name=guest.name if guest else "",
        )
        if not user.is_active:
            revoked.append(person)
        elif person.role == "guest":
            guests.append(person)
        else:
            staff.append(person)
    # Out and still working: their host still one (``staff_invitation_problem``).
    invitations = list(
        StaffInvitation.objects.select_related("created_by")
        .filter(used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now())
        .filter(created_by__is_active=True)
        .filter(Q(created_by__is_superuser=True) | Q(created_by__groups__name=HOSTS))
        .distinct()
    )
    return People(staff=staff, guests=guests, revoked=revoked, invitations=invitations)
