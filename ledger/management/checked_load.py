"""Rows loaded from a file (a backup, a fixture) are held to what the site's own writes keep:
loaded and checked in one transaction, kept only if every check passes.

``restore`` and ``loaddata`` (this project's, in place of Django's unchecked one) both load
through :func:`load_checked`. Every refusal is one line and leaves the database as it was.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.core.management.base import CommandError
from django.db import transaction

from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.integrity import ledger_problems
from ledger.models import Guest

MSG_NOT_LOADABLE = "The file is not one this site can load ({reason}). Nothing was loaded."
MSG_POWERFUL_USERS = (
    "The file would make superusers or staff: {names}. Nothing was loaded "
    "(with --with-users, if the file is your own backup)."
)
MSG_NAME_RULE = (
    "The file holds guests' names that break the name rule: {names}. Nothing was loaded."
)
MSG_BOOKS = "The file's books do not add up ({count} problem(s): {first}). Nothing was loaded."


def load_checked(load: Callable[[], None], *, with_users: bool) -> list[User]:
    """Run ``load`` and the checks in one transaction; return the logins it made."""
    before = set(User.objects.values_list("pk", flat=True))
    try:
        with transaction.atomic():
            load()
            logins = list(User.objects.exclude(pk__in=before).order_by("username"))
            _check(logins, with_users=with_users)
    except CommandError:
        raise
    except Exception as error:  # a file from outside: whatever its reading trips on (a cut
        # gzip, JSON that is not a list, an id past the column, XML that is not) is one line
        reason = (str(error).strip().splitlines() or [type(error).__name__])[-1][:200]
        raise CommandError(MSG_NOT_LOADABLE.format(reason=reason)) from None
    return logins


def described(user: User) -> str:
    roles = [
        word for word, held in (("superuser", user.is_superuser), ("staff", user.is_staff)) if held
    ]
    return f"{user.username} ({', '.join(roles)})" if roles else user.username


def _check(logins: list[User], *, with_users: bool) -> None:
    """Refuse what the site's own writes never make; raised inside the load's transaction."""
    powerful = [user for user in logins if user.is_superuser or user.is_staff]
    if powerful and not with_users:
        names = ", ".join(described(user) for user in powerful)
        raise CommandError(MSG_POWERFUL_USERS.format(names=names))
    wrong = [guest for guest in Guest.objects.all() if not _kept_by_the_rule(guest)]
    if wrong:
        names = ", ".join(f"#{guest.pk} {guest.name!r}" for guest in wrong[:20])
        raise CommandError(MSG_NAME_RULE.format(names=names))
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
