"""Sortable tables (django-tables2) for results, standings and the house's view."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.models import Event
from ledger.audit import describe_change, describe_place
from ledger.models import AuditEntry
from ledger.money.amounts import MSG_MONEY_HEADING, format_chips, format_money, format_percent
from ledger.money.results import BankerStint

# django-tables2's pager says these and has no Japanese: they are in this project's catalogue.
PAGER_WORDS = (gettext_noop("previous"), gettext_noop("next"))

NUMBERS = {"class": "numbers"}
NAME = {"td": {"class": "name"}, "th": {"class": "name"}}  # text: left-aligned among numbers


class ChipsColumn(tables.Column):
    def __init__(self, *args: Any, signed: bool = False, **kwargs: Any) -> None:
        self.signed = signed
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)

    def render(self, value: Decimal) -> str:
        text = format_chips(value)
        return f"+{text}" if self.signed and value > 0 else text


class MoneyColumn(tables.Column):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("attrs", {"td": {"class": "num"}, "th": {"class": "num"}})
        super().__init__(*args, **kwargs)

    """Money in its row's currency (the row's ``currency``)."""

    def render(self, value: Decimal, record: Mapping[str, Any]) -> str:
        return format_money(value, record["currency"])


def money_heading(what: str, event: Event) -> str:
    """A money column's heading at one night: "Net (€)"."""
    return str(MSG_MONEY_HEADING).format(what=what, sign=event.currency_sign)


class MaybeChipsColumn(ChipsColumn):
    """Chips, or "—" where the figure is not known (a drop no count recorded, a handle no hand
    logged)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("empty_values", ())
        super().__init__(*args, **kwargs)

    def render(self, value: Decimal | None) -> str:
        return "—" if value is None else super().render(value)


class GuestResultTable(tables.Table):
    name = tables.Column(verbose_name=_("Guest"))
    hands = tables.Column(verbose_name=_("Hands"), attrs={"td": {"class": "num"}})
    wagered = ChipsColumn(verbose_name=_("Wagered"))
    gross = MaybeChipsColumn(signed=True, verbose_name=_("Gross"))
    commission = MaybeChipsColumn(verbose_name=_("Commission"))
    net = ChipsColumn(signed=True, verbose_name=_("Net"))
    net_money = MoneyColumn(verbose_name=_("Net (money)"))  # its night's sign: money_heading
    biggest_win = MaybeChipsColumn(signed=True, verbose_name=_("Biggest win"))
    biggest_loss = MaybeChipsColumn(signed=True, verbose_name=_("Biggest loss"))

    class Meta:
        attrs = NUMBERS
        order_by = "name"


class StandingsTable(tables.Table):
    rank = tables.Column(orderable=False, verbose_name=_("#"))
    name = tables.Column(verbose_name=_("Guest"), attrs=NAME)
    net = ChipsColumn(signed=True, verbose_name=_("Net"))
    hands = tables.Column(verbose_name=_("Hands"), attrs={"td": {"class": "num"}})
    commission = MaybeChipsColumn(verbose_name=_("Commission"))
    wagered = ChipsColumn(verbose_name=_("Wagered"))

    class Meta:
        attrs = NUMBERS


class HouseTable(tables.Table):
    date = tables.DateColumn(
        format="Y-m-d",
        verbose_name=_("Date"),
        attrs={"td": {"class": "date"}, "th": {"class": "date"}},
    )
    # The name links to the event; on a phone the date column gives way to the house's figures
    # and shows under it. A tournament's night says so, with its pool and the house's cut.
    event = tables.TemplateColumn(
        template_name="ledger/money/_house_event.html", verbose_name=_("Event"), attrs=NAME
    )
    hands = tables.Column(verbose_name=_("Hands"), attrs={"td": {"class": "num"}})
    drop = MaybeChipsColumn(verbose_name=_("Drop"))
    handle = MaybeChipsColumn(verbose_name=_("Handle"))
    commission = ChipsColumn(verbose_name=_("Commission"))
    house_net = ChipsColumn(signed=True, verbose_name=_("House net"))
    house_net_money = MoneyColumn(verbose_name=_("House net (money)"))  # each night's currency
    hold = tables.Column(verbose_name=_("Hold % of drop"), attrs={"td": {"class": "num"}})
    hands_per_hour = tables.Column(verbose_name=_("Hands/hour"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = NUMBERS
        order_by = "date"
        # What the house made first: on a phone it is in view without scrolling sideways.
        sequence = ("date", "event", "house_net", "house_net_money", "hold", "commission", "drop",
                    "handle", "hands", "hands_per_hour")  # fmt: skip

    def render_hold(self, value: Decimal) -> str:
        return format_percent(value)


class AuditTable(tables.Table):
    at = tables.DateTimeColumn(format="Y-m-d H:i:s", verbose_name=_("When"))
    by = tables.Column(verbose_name=_("Who"))
    action = tables.Column(verbose_name=_("What"))
    summary = tables.Column(verbose_name=_("Where"), orderable=False)
    before = tables.Column(verbose_name=_("Before"), orderable=False, empty_values=())
    after = tables.Column(verbose_name=_("After"), orderable=False, empty_values=())

    class Meta:
        attrs = NUMBERS
        orderable = False

    def render_action(self, record: AuditEntry) -> str:
        return str(record.get_action_display())

    def render_summary(self, value: str) -> str:
        return describe_place(value)

    def render_before(self, value: Any) -> str:
        return describe_change(value)

    def render_after(self, value: Any) -> str:
        return describe_change(value)


class BankerStintTable(tables.Table):
    """A guest-banked night's stints at the bank (``ledger.money.results.banker_stints``), in the
    order they were played."""

    shoe = tables.Column(verbose_name=_("Shoe"), attrs={"td": {"class": "num"}})
    banker = tables.Column(verbose_name=_("Banker"), attrs=NAME)
    coups_played = tables.Column(
        verbose_name=_("Coups"), accessor="first_coup", attrs={"td": {"class": "num"}}
    )
    coups = tables.Column(verbose_name=_("Held"), attrs={"td": {"class": "num"}})
    bank_start = ChipsColumn(verbose_name=_("Bank at start"))
    bank_end = ChipsColumn(verbose_name=_("Bank at end"))
    net = ChipsColumn(signed=True, verbose_name=_("Won/lost"))
    house_cut = ChipsColumn(verbose_name=_("House's cut"))

    class Meta:
        attrs = {"class": "numbers stints"}
        orderable = False

    def render_banker(self, record: BankerStint) -> str:
        if not record.co_bankers:
            return record.banker
        return _("{banker} with {co_bankers}").format(
            banker=record.banker, co_bankers=", ".join(record.co_bankers)
        )

    def render_coups_played(self, record: BankerStint) -> str:
        if record.first_coup == record.last_coup:
            return str(record.first_coup)
        return f"{record.first_coup}–{record.last_coup}"


class BankerTotalTable(tables.Table):
    """Each guest's stints at the bank added up (``ledger.money.results.banker_totals``)."""

    banker = tables.Column(verbose_name=_("Banker"), attrs=NAME)
    stints = tables.Column(verbose_name=_("Stints"), attrs={"td": {"class": "num"}})
    coups = tables.Column(verbose_name=_("Coups held"), attrs={"td": {"class": "num"}})
    net = ChipsColumn(signed=True, verbose_name=_("Won/lost at the bank"))
    house_cut = ChipsColumn(verbose_name=_("House's cut"))

    class Meta:
        attrs = NUMBERS
        orderable = False
