"""Who may do what. Hosts do everything; dealers log hands and seat guests in open shoes only.

Anyone not logged in never gets here: ``LoginRequiredMiddleware`` sends them to the login page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

HOSTS = "Hosts"
DEALERS = "Dealers"

User = AbstractBaseUser | AnonymousUser


def _groups(user: Any) -> set[str]:
    if not user.is_authenticated:
        return set()
    cached = getattr(user, "_role_names", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._role_names = cached
    return cached


def is_host(user: Any) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or HOSTS in _groups(user)))


def is_table_staff(user: Any) -> bool:
    """Hosts and dealers: those who may log hands and seat guests."""
    return is_host(user) or DEALERS in _groups(user)


View = Callable[..., HttpResponse]


def _require(check: Callable[[Any], bool]) -> Callable[[View], View]:
    def decorator(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


host_required = _require(is_host)
table_staff_required = _require(is_table_staff)
