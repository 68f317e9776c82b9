"""A guest-banked game's words in the host's pages: a stored stake's kind."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext

from games.kinds import CoverKind
from games.payouts import bet_label

register = template.Library()


@register.filter
def stake_kind(bet: dict[str, str]) -> str:
    """A bet of a journal snapshot in words: Punto Banco's bet, the bank, a tableau, or a cover
    with its kind ("Cover · Banco solo")."""
    label = gettext(bet_label(bet["bet_type"]))
    kind = bet.get("kind", "")
    if kind and kind != CoverKind.ORDINARY:
        return f"{label} · {gettext(CoverKind(kind).label)}"
    return label
