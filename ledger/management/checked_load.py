"""Rows loaded from a file (a backup, a fixture) are held to what the site's own writes keep:
loaded and checked in one transaction, kept only if every check passes.

``restore`` and ``loaddata`` (this project's, in place of Django's unchecked one) both load
through :func:`load_checked`. Every refusal is one line and leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.db import transaction

from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.integrity import ledger_problems
from ledger.models import Guest
from shoebook.base.roles import ROLES

MSG_NOT_LOADABLE = "The file is not one this site can load ({reason}). Nothing was loaded."
MSG_POWERFUL_USERS = (
    "The file would give logins powers (superuser, staff, a host's or dealer's role): {names}."
    " Nothing was loaded (with --with-users, if the file is your own backup)."
)
MSG_NAME_RULE = (
    "The file holds guests' names that break the name rule: {names}. Nothing was loaded."
)
MSG_BOOKS = "The file's books do not add up ({count} problem(s): {first}). Nothing was loaded."
MSG_LOGINS_CHANGED = (
    "The file would change logins already here: {changes}. Nothing was loaded (with"
    " --with-users, if the file is your own backup)."
)


@dataclass(frozen=True)
class Logins:
    """What a load did to the logins, each described (``described``, ``_changes``)."""

    made: list[str]
    changed: list[str]

    def said(self) -> str:
        return (
            f"Logins made: {', '.join(self.made) or 'none'}. "
            f"Logins changed: {', '.join(self.changed) or 'none'}."
        )


def load_checked(load: Callable[[], None], *, with_users: bool) -> Logins:
    """Run ``load`` and the checks in one transaction; return the logins it made and changed.
    Without ``with_users`` a login already here is never changed: the file is refused."""
    before, logins_before = _powers(), _logins()
    try:
        with transaction.atomic():
            load()
            made = [described(user) for user in
                    User.objects.exclude(pk__in=before).order_by("username")]  # fmt: skip
            _check(before, with_users=with_users)
            changed = _changes(logins_before, _logins())
            if changed and not with_users:
                raise CommandError(MSG_LOGINS_CHANGED.format(changes=", ".join(changed)))
    except CommandError:
        raise
    except Exception as error:  # a file from outside: whatever its reading trips on (a cut
        # gzip, JSON that is not a list, an id past the column, XML that is not) is one line
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1][:200]
        raise CommandError(MSG_NOT_LOADABLE.format(reason=reason)) from None
    return Logins(made=made, changed=changed)


# A login's row as a load could change it, each column with the word that names it.
LOGIN_COLUMNS = {
    "username": "name",
    "password": "password",
    "is_active": "active",
    "is_superuser": "superuser",
    "is_staff": "staff",
    "email": "email",
    "first_name": "first name",
    "last_name": "last name",
    "last_login": "last login",
    "date_joined": "joined",
}
Login = dict[str, object]


def _logins() -> dict[int, Login]:
    """Every login's row as it stands, with its roles and permissions, by id."""
    logins: dict[int, Login] = {
        row["pk"]: {**row, "roles": set(), "permissions": set()}
        for row in User.objects.values("pk", *LOGIN_COLUMNS)
    }
    for pk, group in User.groups.through.objects.values_list("user_id", "group__name"):
        logins[pk]["roles"].add(group)  # type: ignore[attr-defined]
    for pk, codename in User.user_permissions.through.objects.values_list(
        "user_id", "permission__codename"
    ):
        logins[pk]["permissions"].add(codename)  # type: ignore[attr-defined]
    return logins


def _changes(before: dict[int, Login], after: dict[int, Login]) -> list[str]:
    """Each login that was here before and is not as it was, named as it was, with what
    changed: ``host (password; active: no → yes)``."""
    changes = []
    for pk, was in sorted(before.items(), key=lambda item: str(item[1]["username"])):
        now = after.get(pk)
        if now is None or now == was:
            continue
        said = [_change(column, was[column], now[column]) for column in
                (*LOGIN_COLUMNS, "roles", "permissions") if was[column] != now[column]]  # fmt: skip
        changes.append(f"{was['username']} ({'; '.join(said)})")
    return changes


def _change(column: str, was: object, now: object) -> str:
    word = LOGIN_COLUMNS.get(column, column)
    if isinstance(was, bool):
        return f"{word}: {'yes' if was else 'no'} → {'yes' if now else 'no'}"
    if column == "username":
        return f"{word}: {was} → {now}"
    if isinstance(was, set) and isinstance(now, set):
        gained, lost = sorted(now - was), sorted(was - now)
        return f"{word}: " + " ".join([*(f"+{n}" for n in gained), *(f"−{n}" for n in lost)])
    return word  # a password, an email, a date: that it changed, not what to


POWERS = ("superuser", "staff", *ROLES)


def _powers() -> dict[int, frozenset[str]]:
    """Each login's powers: superuser, staff, and its roles (host, dealer)."""
    powers: dict[int, set[str]] = {}
    for pk, superuser, staff in User.objects.values_list("pk", "is_superuser", "is_staff"):
        powers[pk] = {word for word, held in (("superuser", superuser), ("staff", staff)) if held}
    for pk, role in User.groups.through.objects.filter(group__name__in=ROLES).values_list(
        "user_id", "group__name"
    ):
        powers[pk].add(role)
    return {pk: frozenset(held) for pk, held in powers.items()}


def described(user: User) -> str:
    roles = [
        word for word, held in (("superuser", user.is_superuser), ("staff", user.is_staff)) if held
    ]
    return f"{user.username} ({', '.join(roles)})" if roles else user.username


def _check(before: dict[int, frozenset[str]], *, with_users: bool) -> None:
    """Refuse what the site's own writes never make; raised inside the load's transaction."""
    after = _powers()
    gained = {pk: held - before.get(pk, frozenset()) for pk, held in after.items()}
    gained = {pk: held for pk, held in gained.items() if held}
    if gained and not with_users:  # a new login with powers, or an existing one given more
        names = dict(User.objects.filter(pk__in=gained).values_list("pk", "username"))
        listed = ", ".join(
            f"{names[pk]} ({', '.join(sorted(gained[pk], key=POWERS.index))})"
            for pk in sorted(gained, key=lambda pk: names[pk])
        )
        raise CommandError(MSG_POWERFUL_USERS.format(names=listed))
    wrong = [guest for guest in Guest.objects.all() if not _kept_by_the_rule(guest)]
    if wrong:
        names_of = ", ".join(f"#{guest.pk} {guest.name!r}" for guest in wrong[:20])
        raise CommandError(MSG_NAME_RULE.format(names=names_of))
    problems = ledger_problems()
    if problems:
        first = "; ".join(str(problem) for problem in problems[:3])
        raise CommandError(MSG_BOOKS.format(count=len(problems), first=first))


def _kept_by_the_rule(guest: Guest) -> bool:
    """Whether a loaded guest's name and key are what ``ledger.guests.names`` makes of it."""
    try:
        name = clean_name(guest.name)
    except InvalidName:
        return False
    return name == guest.name and guest.name_key.split("#")[0] == name_key(name)
