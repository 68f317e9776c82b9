"""Sortable tables (django-tables2) for the tournaments' reports: the season's standings."""

from __future__ import annotations

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledger.money.tables import NAME, NUMBERS, ChipsColumn

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class SeasonTable(tables.Table):
    rank = tables.Column(orderable=False, verbose_name=_("#"))
    name = tables.Column(verbose_name=_("Guest"), attrs=NAME)
    points = tables.Column(verbose_name=_("Points"), attrs=NUM)
    played = tables.Column(verbose_name=_("Tournaments"), attrs=NUM)
    best = tables.Column(verbose_name=_("Best finish"), attrs=NUM)
    net = ChipsColumn(signed=True, verbose_name=_("Net"))
    hands = tables.Column(verbose_name=_("Hands"), attrs=NUM)

    class Meta:
        attrs = NUMBERS
        order_by = ("-points", "-net")
