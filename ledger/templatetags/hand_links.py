"""Every hand of a shoe as a link, for ``ledger/hands/_hand_index.html``: written here, not looped
in
the template, where a shoe of 200 hands took most of the table's board to draw."""

from __future__ import annotations

from collections.abc import Callable

from django import template
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from ledger.hands.selectors import HandIndex

register = template.Library()

HAND_ID_MARK = 987654321  # a hand id no address holds otherwise
CURRENT = mark_safe(' aria-current="page"')


def hand_address() -> Callable[[int], str]:
    """Hand id → the address of its page, reversed once for a whole shoe's links."""
    pattern = reverse("ledger:hand_detail", args=[HAND_ID_MARK])
    return pattern.replace(str(HAND_ID_MARK), "{}").format


@register.simple_tag
def hand_links(index: HandIndex) -> SafeString:
    """``<li><a …>12</a></li>`` for each hand, coloured by its winner; the hand whose page this
    is (``index.current``) marked as the current page."""
    address = hand_address()
    labels = {winner: gettext(winner.title()) for winner in ("player", "banker", "tie")}
    return format_html_join(
        "",
        '<li><a href="{}" class="hand-link hand-link-{}" title="{}"{}>{}</a></li>',
        (
            (
                address(hand.pk),
                hand.winner,
                labels.get(hand.winner, hand.winner),
                CURRENT if hand.number == index.current else "",
                hand.number,
            )
            for hand in index.hands
        ),
    )
