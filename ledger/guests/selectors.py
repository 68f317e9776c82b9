"""Finding a guest: by a private link (its token compared in constant time) or by the login of the
guest who is asking."""

from __future__ import annotations

from django.http import Http404

from ledger.models import Guest, MergedGuest
from shoebook.base.links import same_token
from shoebook.base.roles import Visitor


def guest_by_link(guest_id: int, token: str) -> Guest | None:
    """The guest whose private link this is, or ``None`` (a wrong, replaced or revoked token);
    the token is compared in constant time."""
    guest = Guest.objects.filter(pk=guest_id).first()
    if guest is None:  # merged into another guest since the link was handed out?
        merged = MergedGuest.objects.filter(old_id=guest_id).select_related("guest").first()
        if merged is not None and same_token(merged.access_token, token):
            return merged.guest
        return None
    return guest if same_token(guest.access_token, token) else None


def guest_by_link_or_404(guest_id: int, token: str) -> Guest:
    guest = guest_by_link(guest_id, token)
    if guest is None:
        raise Http404
    return guest


def guest_of_user_or_404(user: Visitor) -> Guest:
    guest = guest_of_user(user)
    if guest is None:
        raise Http404
    return guest


def guest_of_user(user: Visitor) -> Guest | None:
    """The guest a login belongs to, if any."""
    if not user.is_authenticated:
        return None
    return Guest.objects.filter(user=user).first()
