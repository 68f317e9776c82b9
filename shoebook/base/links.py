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


def same_token(kept: str, token: str) -> bool:
    """``token`` is the link's own: compared in constant time; an empty kept token matches
    nothing (a link never made, or revoked)."""
    return bool(kept) and hmac.compare_digest(kept.encode(), token.encode())
