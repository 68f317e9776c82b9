"""Private links: a page whose address is its key (a guest's page, a receipt, the table display).
Its answer never leaks the address to another site or to a shared cache, and its token is
compared in constant time."""

from __future__ import annotations

import hmac
from typing import TypeVar

from django.http import HttpResponseBase

Response = TypeVar("Response", bound=HttpResponseBase)


def private_link(
    response: Response, *, referrer: str = "no-referrer", cache: str = "private, no-store"
) -> Response:
    """``response`` as a private link's answer: the address is never sent on as a referrer
    (``same-origin`` where a form posts back to it: Chromium sends a form's POST from a
    no-referrer page with "Origin: null", which the CSRF check refuses) and never kept by a
    shared cache, nor indexed by a search engine."""
    response["Referrer-Policy"] = referrer
    response["Cache-Control"] = cache
    response["X-Robots-Tag"] = "noindex, nofollow"  # a crawler that finds the link keeps nothing
    return response


def keep_private(response: Response) -> Response:
    """``response`` with a private link's headers wherever its view did not choose its own (a
    stream or a picture that may be revalidated, a form that posts back): the middleware
    :func:`shoebook.middleware.private_link_middleware` gives it to every answer of every
    address that holds a token, a refusal too, so that no view can forget them."""
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("Cache-Control", "private, no-store")
    response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
    return response


def same_token(kept: str, token: str) -> bool:
    """``token`` is the link's own: compared in constant time; an empty kept token matches
    nothing (a link never made, or revoked)."""
    return bool(kept) and hmac.compare_digest(kept.encode(), token.encode())
