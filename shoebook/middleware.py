"""Requests refused before anything reads them."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.utils.translation import gettext_lazy

MSG_BAD_REQUEST = gettext_lazy("The request could not be read: nothing was changed.")
MSG_NOT_UTF8 = gettext_lazy(
    "The form was not sent as UTF-8 text, the only encoding this site reads: nothing was changed."
)
MSG_TOO_LARGE = gettext_lazy("The form is larger than this site takes: nothing was changed.")

FORM = "application/x-www-form-urlencoded"


def form_charset_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """A form posted in a charset other than UTF-8 gets a 400 that says so. Django refuses such
    a form only when the form is first read, inside the CSRF check, and its own 400 page reads
    the form again: a 500 for anyone, logged in or not."""

    def middleware(request: HttpRequest) -> HttpResponse:
        charset = request.encoding
        if request.content_type == FORM and charset and charset.lower() != "utf-8":
            return HttpResponseBadRequest(MSG_NOT_UTF8, content_type="text/plain; charset=utf-8")
        return get_response(request)

    return middleware
