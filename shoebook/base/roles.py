"""Who may do what. Hosts do everything; dealers log hands and seat guests in open shoes only.

Anyone not logged in never gets here: ``LoginRequiredMiddleware`` sends them to the login page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, update_wrapper
from typing import Concatenate, ParamSpec, TypeAlias, TypeVar, cast

from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser, Group, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django_htmx.middleware import HtmxDetails

HOSTS = "Hosts"
DEALERS = "Dealers"

# The user who does something: logs a hand, seats a guest, records a settlement (every service's
# ``by``). The project keeps Django's default user model, the one ``settings.AUTH_USER_MODEL``
# names and every ``created_by``, ``logged_by`` ... foreign key points to.
Actor: TypeAlias = User
# Whoever a request comes from (``request.user``): a logged-in user, or nobody yet.
Visitor: TypeAlias = User | AnonymousUser

# Where ``_groups`` keeps a user's role names for the rest of the request.
_ROLE_NAMES = "_role_names"


class HtmxHttpRequest(HttpRequest):
    """A request as every view gets it: ``HtmxMiddleware`` gives each one ``htmx``."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """A request from a logged-in user: what a view behind ``host_required`` or
    ``table_staff_required`` gets, and any view ``LoginRequiredMiddleware`` guards (every view
    not marked ``login_not_required``)."""

    user: Actor


def _groups(user: Visitor) -> set[str]:
    if not user.is_authenticated:
        return set()
    cached: set[str] | None = getattr(user, _ROLE_NAMES, None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        setattr(user, _ROLE_NAMES, cached)
    return cached


class RolesBackend(ModelBackend):
    """Django's own backend, reading the user's roles with the user: one statement a request for
    who is asking, written in SQL (the ORM's building of it cost ten times its running)."""

    def get_user(self, user_id: int | str) -> User | None:
        try:
            pk = User._meta.pk.to_python(user_id)
        except ValidationError:
            return None
        found = next(iter(User._default_manager.raw(_user_with_roles_sql(), [*ROLES, pk])), None)
        if found is None or not self.user_can_authenticate(found):
            return None
        flags = (getattr(found, f"role_{index}") for index in range(len(ROLES)))
        setattr(found, _ROLE_NAMES, {role for role, flag in zip(ROLES, flags, strict=True) if flag})
        return found


ROLES = (HOSTS, DEALERS)


@cache
def _user_with_roles_sql() -> str:
    quote = connection.ops.quote_name
    memberships, groups = User.groups.through._meta.db_table, Group._meta.db_table
    has_role = (
        f"EXISTS (SELECT 1 FROM {quote(memberships)} m JOIN {quote(groups)} g"
        f" ON g.id = m.group_id WHERE m.user_id = u.id AND g.name = %s)"
    )
    roles = ", ".join(f"{has_role} AS role_{index}" for index in range(len(ROLES)))
    return f"SELECT u.*, {roles} FROM {quote(User._meta.db_table)} u WHERE u.id = %s"


def is_host(user: Visitor) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or HOSTS in _groups(user)))


def is_table_staff(user: Visitor) -> bool:
    """Hosts and dealers: those who may log hands and seat guests."""
    return is_host(user) or DEALERS in _groups(user)


_P = ParamSpec("_P")
_R = TypeVar("_R", bound=HttpResponseBase)


def _require(
    check: Callable[[Visitor], bool],
    view: Callable[Concatenate[AuthenticatedHttpRequest, _P], _R],
) -> Callable[Concatenate[HttpRequest, _P], _R]:
    def wrapped(request: HttpRequest, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if not check(request.user):
            raise PermissionDenied
        # Both checks pass only a logged-in user: the request is an authenticated one.
        return view(cast(AuthenticatedHttpRequest, request), *args, **kwargs)

    update_wrapper(wrapped, view)  # as @wraps(view), keeping ``wrapped``'s own type
    return wrapped


def host_required(
    view: Callable[Concatenate[AuthenticatedHttpRequest, _P], _R],
) -> Callable[Concatenate[HttpRequest, _P], _R]:
    return _require(is_host, view)


def table_staff_required(
    view: Callable[Concatenate[AuthenticatedHttpRequest, _P], _R],
) -> Callable[Concatenate[HttpRequest, _P], _R]:
    return _require(is_table_staff, view)


COMMAND_LINE = "command-line"


def command_line_actor() -> Actor:
    """Who did what a command did when no user was named (an import on a fresh install): an
    account of its own that cannot log in, so the audit log says "command-line"."""
    user, created = User.objects.get_or_create(username=COMMAND_LINE, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user
