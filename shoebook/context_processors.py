"""What every page's template reads: the roles the navigation offers to the user asking, and
when the page was drawn (its live stream asks for what changed since)."""

from __future__ import annotations

import math
import time

from django.http import HttpRequest

from shoebook.base.roles import is_host, is_table_staff


def roles(request: HttpRequest) -> dict[str, bool]:
    """What the navigation and pages may offer this user."""
    return {"user_is_host": is_host(request.user), "user_is_staff": is_table_staff(request.user)}


def live_since(request: HttpRequest) -> dict[str, str]:
    """``?since=`` for a page's stream (``shoebook.base.live``): a change saved after this
    reached no stream of the page, which then starts with a resync. The request's start, before
    the view read anything (``drawn_at_middleware``), to the millisecond rounded down."""
    drawn = math.floor(getattr(request, "drawn_at", time.time()) * 1000)
    return {"live_since": f"{drawn // 1000}.{drawn % 1000:03d}"}
