"""The House page's ratings: each guest's over the nights shown, and each night's theoretical
hold beside its actual one (django-tables2, sortable like the page's other table)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from ledger.money.amounts import format_money_each, format_percent
from ledger.money.tables import NAME, NUMBERS, ChipsColumn
from ledger.ratings.selectors import Rating, Ratings

NUM = {"td": {"class": "num"}, "th": {"class": "num"}}


class PercentColumn(tables.Column):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", NUM)
        super().__init__(*args, **kwargs)

    def render(self, value: Decimal) -> str:
        return format_percent(value)


class SignedColumn(ChipsColumn):
    """A signed figure (the house's actual result, z), "—" where it is not known."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["signed"] = True
        super().__init__(*args, **kwargs)


def _figures(rating: Rating) -> dict[str, Any]:
    return {
        "hands": rating.hands,
        "hours": rating.hours,
        "average_bet": rating.average_bet,
        "handle": rating.handle,
        "unpriced": rating.unpriced,
        "theo": rating.theo,
        "theo_money": format_money_each(rating.theo_money),
        "actual": rating.actual,
        "actual_money": format_money_each(rating.actual_money),
        "sd": rating.sd,
        "z": rating.z,
        "theo_hold": rating.theo_hold,
        "actual_hold": rating.actual_hold,
    }


class GuestRatingsTable(tables.Table):
    name = tables.Column(verbose_name=_("Guest"), attrs=NAME)
    theo = ChipsColumn(verbose_name=_("Theoretical win"))
    actual = SignedColumn(verbose_name=_("Actual"))
    z = SignedColumn(verbose_name="z")
    sd = ChipsColumn(verbose_name=_("SD"))
    handle = ChipsColumn(verbose_name=_("Handle"))
    average_bet = ChipsColumn(verbose_name=_("Average bet"))
    hands = tables.Column(verbose_name=_("Hands"), attrs=NUM)
    hours = tables.Column(verbose_name=_("Hours"), attrs=NUM)
    nights = tables.Column(verbose_name=_("Nights"), attrs=NUM)
    theo_money = tables.Column(verbose_name=_("Theoretical win (money)"), attrs=NUM)
    actual_money = tables.Column(verbose_name=_("Actual (money)"), attrs=NUM)
    unpriced = ChipsColumn(verbose_name=_("Handle not priced"))

    class Meta:
        attrs = NUMBERS | {"id": "house-ratings"}
        order_by = "-theo"


class HoldTable(tables.Table):
    date = tables.DateColumn(format="Y-m-d", verbose_name=_("Date"))
    event = tables.Column(verbose_name=_("Event"), attrs=NAME)
    theo_hold = PercentColumn(verbose_name=_("Theoretical hold"))
    actual_hold = PercentColumn(verbose_name=_("Actual hold"))
    theo = ChipsColumn(verbose_name=_("Theoretical win"))
    actual = SignedColumn(verbose_name=_("Actual"))
    sd = ChipsColumn(verbose_name=_("SD"))
    z = SignedColumn(verbose_name="z")
    handle = ChipsColumn(verbose_name=_("Handle"))
    unpriced = ChipsColumn(verbose_name=_("Handle not priced"))

    class Meta:
        attrs = NUMBERS | {"id": "house-holds"}
        order_by = "date"


def guest_rows(ratings: Ratings) -> list[dict[str, Any]]:
    return [
        {"name": rating.name, "nights": rating.nights, **_figures(rating)}
        for rating in ratings.guests
    ]


def hold_rows(ratings: Ratings) -> list[dict[str, Any]]:
    return [
        {"date": night.event.date, "event": night.event.name, **_figures(night.house)}
        for night in ratings.nights
        if night.house.handle
    ]


def ratings_tables(request: HttpRequest, ratings: Ratings) -> dict[str, tables.Table]:
    """The two tables of ``_house_ratings.html`` (the House page's, a series'), each sorted and
    paged by its own query parameters."""
    holds = HoldTable(hold_rows(ratings), prefix="hold-")
    rated = GuestRatingsTable(guest_rows(ratings), prefix="rating-")
    for table in (holds, rated):
        RequestConfig(request, paginate={"per_page": 50}).configure(table)
    return {"holds": holds, "rated": rated}
