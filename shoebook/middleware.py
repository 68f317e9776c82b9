"""Requests refused before anything reads them."""

from __future__ import annotations

import codecs
import logging
import time
import urllib.parse
from collections.abc import Callable
from typing import Any, cast

from django.contrib.auth.middleware import LoginRequiredMiddleware as DjangoLoginRequired
from django.core.exceptions import RequestDataTooBig
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.http.response import HttpResponseBase
from django.shortcuts import resolve_url
from django.utils.translation import gettext_lazy

from shoebook.accounts import from_trusted_proxy
from shoebook.base.links import keep_private

logger = logging.getLogger(__name__)

MSG_BAD_REQUEST = gettext_lazy("The request could not be read: nothing was changed.")
MSG_NOT_UTF8 = gettext_lazy(
    "The form was not sent as UTF-8 text, the only encoding this site reads: nothing was changed."
)
MSG_TOO_LARGE = gettext_lazy("The form is larger than this site takes: nothing was changed.")

FORM = "application/x-www-form-urlencoded"


def _is_utf8(charset: str) -> bool:
    """``UTF-8`` under any of its names (``utf8``, ``UTF_8``); an unknown name is not."""
    try:
        return codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return False


def _is_known(charset: str) -> bool:
    try:
        codecs.lookup(charset)
    except LookupError:
        return False
    return True


def _not_utf8() -> HttpResponse:
    return HttpResponseBadRequest(MSG_NOT_UTF8, content_type="text/plain; charset=utf-8")


def _form_reads_as_utf8(request: HttpRequest) -> bool:
    """Whether the form's fields, percent-decoded, are UTF-8 (a form too large to read is left
    for Django to refuse)."""
    try:
        body = request.body
    except RequestDataTooBig:
        return True
    try:
        urllib.parse.unquote_to_bytes(body.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def form_charset_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """A form posted in a charset other than UTF-8 (or one no codec knows), or whose fields are
    not UTF-8 whatever it says, gets a 400 that says so. Django refuses the first only when the
    form is first read, inside the CSRF check, and its own 400 page reads the form again: a 500
    for anyone, logged in or not; the second it keeps, its bad bytes replaced."""

    def middleware(request: HttpRequest) -> HttpResponse:
        charset = (request.content_params or {}).get("charset")
        if charset and not _is_known(charset):  # Django would read it as UTF-8, replacing
            return _not_utf8()
        if request.content_type != FORM:
            return get_response(request)  # a multipart form is read in the charset it names
        if charset and not _is_utf8(charset):  # another encoding
            return _not_utf8()
        if charset:
            request.encoding = "utf-8"  # ``utf8`` too: Django takes only this name
        if not _form_reads_as_utf8(request):  # Django would keep "Zo�" for "Zoë" in Latin-1
            return _not_utf8()
        return get_response(request)

    return middleware


MSG_DATABASE_BUSY = gettext_lazy(
    "The database was busy with another device's save: nothing was saved. Try again in a moment."
)
# PostgreSQL's deadlock_detected and serialization_failure; SQLite's lock held past its timeout.
BUSY_STATES = {"40P01", "40001"}


def database_busy(error: BaseException) -> bool:
    """A write that lost a race for the database, not a mistake of the request's."""
    if not isinstance(error, DatabaseError):
        return False
    cause = error.__cause__
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    return state in BUSY_STATES or "database is locked" in str(error)


class DatabaseBusyMiddleware:
    """A view whose write deadlocked or could not be serialized is run once more (its services
    are atomic and its forms carry idempotency keys, so the first try left nothing behind); if
    that loses too, the answer is a 503 that says nothing was saved, never a 500 (the table's
    outbox sends the hand again after a 5xx)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, error: Exception) -> HttpResponse | None:
        if not database_busy(error):
            return None
        match = request.resolver_match
        if match is not None:  # the second try's failure is caught here, never comes back
            logger.warning("Database busy on %s (%s): trying once more", request.path, error)
            try:
                return cast(HttpResponse, match.func(request, *match.args, **match.kwargs))
            except DatabaseError as second:
                if not database_busy(second):
                    raise
        logger.warning("Database busy on %s twice: answered 503", request.path)
        response = HttpResponse(MSG_DATABASE_BUSY, status=503, content_type="text/plain")
        response["Retry-After"] = "1"
        return response


# Django's own password reset is left alone: it takes the token out of its address itself.
NOT_PRIVATE_LINKS = {"password_reset_confirm"}


def private_link_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Every answer of an address that holds a token (a guest's page and everything under it,
    a receipt, shared results, a display, an invitation, their streams), found or refused, is
    a private link's (:func:`shoebook.base.links.keep_private`). Listed after Django's
    SecurityMiddleware, so that its site-wide ``Referrer-Policy`` does not come first."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        match = request.resolver_match
        if match is None or "token" not in match.kwargs:
            return response
        if match.url_name not in NOT_PRIVATE_LINKS:
            keep_private(response)
        return response

    return middleware


def forwarded_proto_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """``X-Forwarded-Proto`` (``SECURE_PROXY_SSL_HEADER``) believed only from a proxy the operator
    trusts, as ``X-Forwarded-For`` is: a client reaching the server itself cannot claim HTTPS.
    Behind a trusted proxy the server (uvicorn) has already taken the scheme from the header and
    the client's address in place of the proxy's, so dropping the header there changes nothing.
    First, before SecurityMiddleware reads the scheme."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if "HTTP_X_FORWARDED_PROTO" in request.META and not from_trusted_proxy(request):
            del request.META["HTTP_X_FORWARDED_PROTO"]
        return get_response(request)

    return middleware


def drawn_at_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """``request.drawn_at``: when the request began, before the view read anything. A page's live
    stream asks for what changed since then (``shoebook.context_processors.live_since``): a save
    that lands while the view reads is then one the stream reads afresh, not one it missed."""

    def middleware(request: HttpRequest) -> HttpResponse:
        request.drawn_at = time.time()  # type: ignore[attr-defined]
        return get_response(request)

    return middleware


MSG_LOG_IN_FIRST = gettext_lazy("Your login has ended: log in again.")


class LoginRequiredMiddleware(DjangoLoginRequired):
    """Django's, except for a request a page's script sent (``HX-Request``: htmx's, the table's
    saves): answered 403 instead of sent to the login page, whose page the script would take
    for its answer. The table then holds its hands and says to log in again; htmx follows
    ``HX-Redirect`` to the login page. (A login revoked from the People page ends this way.)"""

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponseBase],
        view_args: tuple[Any, ...],
        view_kwargs: dict[Any, Any],
    ) -> HttpResponseBase | None:
        refused = super().process_view(request, view_func, view_args, view_kwargs)
        if refused is None or request.headers.get("HX-Request") != "true":
            return refused
        response = HttpResponse(
            MSG_LOG_IN_FIRST, status=403, content_type="text/plain; charset=utf-8"
        )
        response["HX-Redirect"] = resolve_url(self.get_login_url(view_func))
        return response
