"""What every page's template reads: the roles the navigation offers to the user asking."""

from __future__ import annotations

from django.http import HttpRequest

from shoebook.base.roles import is_host, is_table_staff


def roles(request: HttpRequest) -> dict[str, bool]:
    """What the navigation and pages may offer this user."""
    return {"user_is_host": is_host(request.user), "user_is_staff": is_table_staff(request.user)}
