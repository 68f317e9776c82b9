"""The server's own failures, told apart from the site's bugs: its disk full, its database
restarted (the connection lost). Either is a 503 that says what happened and that nothing was
saved — a page, the table's htmx part as text, or JSON — and one log line naming the cause first,
with the traceback under it. Anything else is the 500 page, as before.

Django turns an exception raised anywhere in a request (a view, the session store read by the
login check, the session saved on the way out) into the answer of ``handler500``, while the
exception is still being handled: :func:`server_error` reads it there."""

from __future__ import annotations

import errno
import logging
import sys
from collections.abc import Iterator

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _
from django.views.defaults import server_error as django_server_error

logger = logging.getLogger(__name__)

MSG_DISK_FULL = _(
    "The server is out of disk space: nothing was saved. Tell whoever runs the server; try again"
    " once space is freed."
)
MSG_DATABASE_RESTARTED = _(
    "The database restarted and the connection to it was lost: nothing was saved. Try again in"
    " a moment."
)
DISK, CONNECTION = "disk", "connection"

# What a full disk says: SQLite ("database or disk is full"), PostgreSQL ("could not extend
# file", "No space left on device" in a write's message), the system (ENOSPC, EDQUOT).
_DISK_WORDS = ("database or disk is full", "could not extend file", "no space left on device",
               "disk quota exceeded")  # fmt: skip
_DISK_STATES = {"53100"}  # PostgreSQL's disk_full
_DISK_ERRNOS = {errno.ENOSPC, errno.EDQUOT}
# A connection the server ended or refused: PostgreSQL's class 08 (connection exception) and
# its shutdowns (admin_shutdown, crash_shutdown, cannot_connect_now), or psycopg's words.
_CONNECTION_STATES = {"57P01", "57P02", "57P03"}
_CONNECTION_WORDS = (
    "server closed the connection",
    "terminating connection",
    "connection already closed",
    "the connection is closed",
    "connection is lost",
    "connection refused",
    "could not connect to server",
    "the database system is shutting down",
    "the database system is starting up",
    "the database system is in recovery mode",
    "no connection to the server",
    "ssl syscall error: eof detected",
)


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The error and those it was raised from or while handling (Django's wrappers, ours)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _state(error: BaseException) -> str:
    return str(getattr(error, "sqlstate", None) or getattr(error, "pgcode", None) or "")


def outage_of(error: BaseException) -> str | None:
    """``"disk"`` for a full disk, ``"connection"`` for a lost or refused database connection,
    ``None`` for anything else."""
    for link in _chain(error):
        words, state = str(link).lower(), _state(link)
        if state in _DISK_STATES or any(word in words for word in _DISK_WORDS):
            return DISK
        if isinstance(link, OSError) and link.errno in _DISK_ERRNOS:
            return DISK
    for link in _chain(error):
        words, state = str(link).lower(), _state(link)
        if isinstance(link, InterfaceError):
            return CONNECTION
        if state.startswith("08") or state in _CONNECTION_STATES:
            return CONNECTION
        if isinstance(link, OperationalError) and any(w in words for w in _CONNECTION_WORDS):
            return CONNECTION
    return None


_LOG_LINES = {
    DISK: "The server is out of disk space: %s %s answered 503, nothing saved (%s)",
    CONNECTION: (
        "The database connection was lost (the database restarted or stopped): %s %s answered"
        " 503, nothing saved (%s)"
    ),
}


def outage_response(request: HttpRequest, outage: str) -> HttpResponse:
    """The 503 in the form the asker reads: text for the table's script (htmx), JSON for a
    client that asks for it, else a page (drawn without the request: nothing that needs the
    database or the session)."""
    message = str(MSG_DISK_FULL if outage == DISK else MSG_DATABASE_RESTARTED)
    response: HttpResponse
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    elif "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"error": message}, status=503)
    else:
        page = render_to_string("503.html", {"message": message})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = "30" if outage == DISK else "2"
    return response


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: a full disk or a lost database connection answered as what it is (see
    the module), said once in the log; any other error, Django's 500 page."""
    error = sys.exc_info()[1]
    outage = outage_of(error) if error is not None else None
    if outage is None:
        return django_server_error(request)
    logger.error(_LOG_LINES[outage], request.method, request.path, error, exc_info=error)
    response = outage_response(request, outage)
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own mark: said once
    return response
