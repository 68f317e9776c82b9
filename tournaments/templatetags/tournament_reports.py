"""The tournaments' figures on the ledger's pages, which cannot import the tournaments app: on
the House page, next to a tournament's night, the house's cut as configured and the pool."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ledger.money.amounts import format_chips
from tournaments.results import Pool, configured_cut, event_pools

register = template.Library()


@register.simple_tag
def house_tournaments(table: Any) -> dict[int, Pool]:
    """The pools of the tournament nights on the House table's page, by event id: a fixed
    number of queries for the whole page (none without a tournament)."""
    records = (row.record for row in table.paginated_rows)
    return event_pools([r["event_id"] for r in records if r.get("kind") == "tournament"])


@register.simple_tag
def tournament_cut(pools: Mapping[int, Pool] | str, event_id: int) -> SafeString | str:
    """The house's cut (as configured, and what it comes to) and the prize pool of the
    tournament played on ``event_id``, from :func:`house_tournaments`."""
    pool = pools.get(event_id) if isinstance(pools, Mapping) else None
    if pool is None:
        return ""
    figures = [
        _("house's cut {cut} ({configured})").format(
            cut=format_chips(pool.cut), configured=configured_cut(pool.tournament)
        ),
        _("prize pool {pool}").format(pool=format_chips(pool.pool)),
    ]
    if not pool.tournament.is_finished:
        figures.append(_("prizes not paid yet"))
    return format_html(
        '<span class="tournament-cut">{} <a href="{}">{}</a></span>',
        " · ".join(figures),
        reverse("tournament_reports:standings", args=[pool.tournament.pk]),
        _("Standings"),
    )
