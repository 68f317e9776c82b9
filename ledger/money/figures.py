"""Every figure of a night and of a season, computed here and read by every output: the event
page, the House page, standings, the workbooks' Summary and Guests sheets, receipts and the
shared results with their preview.

A night's figures come from its rows whatever kind of night it is (docs/rules.md, "Money and
rounding"; docs/glossary.md):

- per guest: the bets' totals (hands, wagered, gross, commission), the count's adjustments, a
  tournament's charges (entry fee, rebuys, add-ons) and prizes, at a night kept by its count
  alone what they handed back less what they took, and at a guest-banked night the transfers;
  the guest's **net** is the sum of all of them but the transfers (``GuestEventResult.net``,
  what the balance reads);
- for the house: its result is minus the guests' net; its **commission** (or taxe) is the bets'
  plus the commission a count-only night's host entered in all; the guests' **gross** is their
  net plus that commission (so gross − commission = net holds for the night as for a bet);
- **drop** is what was bought into the game: the count's buy-ins and top-ups, a tournament's
  entries, rebuys and add-ons; ``None`` (not known) for a night that recorded neither;
- **handle** is the amount wagered: the stakes of the bets logged; ``None`` at a night that
  logged no hand in money (kept by its count alone, or a tournament's night, whose tables bet
  tournament chips);
- **hold** is the house's result as a percentage of the drop (never of the handle);
- **expenses** (food, drinks: ``ledger.expenses``) apart from the game: per guest what they
  paid less their shares, for the house minus the guests' (what it paid less its shares); they
  are in the balance and the settlement list (``ledger.money.lines``), never in the net, the
  hold or the standings.

A count-only night knows each guest's net but not how it splits into gross and commission (the
host enters the commission for the whole night): those two are ``None`` per guest there.

Reads only; a fixed number of queries however many nights, guests or hands.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cached_property

from django.db.models import Count, Max, Min
from django.utils.translation import gettext_lazy as _

from games.models import Event, Hand
from ledger.models import (
    Adjustment,
    Charge,
    ChipMove,
    CountSetup,
    Guest,
    GuestEventResult,
    Transfer,
)
from ledger.money.amounts import ZERO, MoneyByCurrency, add_money, money_sum, to_money
from ledger.money.lines import LineKind, ledger_lines

PERCENT = Decimal("0.01")

MSG_ROW_COUNT = _("The count")
MSG_ROW_ADJUSTMENTS = _("Adjustments")
MSG_ROW_CHARGES = _("Entries and prizes")


@dataclass
class GuestFigures:
    """One guest's figures at one night (or, summed, over a season)."""

    guest_id: int
    name: str
    hands: int = 0
    wagered: Decimal = ZERO
    gross: Decimal | None = ZERO  # None: not known (a night kept by its count alone)
    commission: Decimal | None = ZERO
    net: Decimal = ZERO  # the result the balance reads
    adjustments: Decimal = ZERO
    charges: Decimal = ZERO  # entry fee, rebuys, add-ons: what the guest owes, negative
    prizes: Decimal = ZERO
    counted: Decimal = ZERO  # at a count-only night: chips handed back less chips taken
    transfers: Decimal = ZERO  # at a guest-banked night: paid less received
    bought: Decimal = ZERO  # chips taken: buy-ins and top-ups
    expenses: Decimal = ZERO  # the night's expenses: what the guest paid less their shares

    def add(self, other: GuestFigures) -> None:
        self.hands += other.hands
        self.expenses += other.expenses
        self.wagered += other.wagered
        self.gross = None if self.gross is None or other.gross is None else self.gross + other.gross
        self.commission = (
            None
            if self.commission is None or other.commission is None
            else self.commission + other.commission
        )
        self.net += other.net
        self.adjustments += other.adjustments
        self.charges += other.charges
        self.prizes += other.prizes
        self.counted += other.counted
        self.transfers += other.transfers
        self.bought += other.bought


def hold_of(house_net: Decimal, drop: Decimal | None) -> Decimal | None:
    """The hold in per cent: the house's result over the drop; None when the drop is not known
    or nothing was bought in."""
    if not drop:
        return None
    return (house_net * 100 / drop).quantize(PERCENT)


@dataclass
class NightFigures:
    event: Event
    guests: list[GuestFigures]  # by name
    hands: int = 0
    handle: Decimal | None = ZERO  # the amount wagered; None: no hand logged in money
    commission: Decimal = ZERO  # the house's cut: commission or taxe, the count's included
    net: Decimal = ZERO  # the guests' net
    drop: Decimal | None = None  # what was bought into the game; None: not known
    count_only: bool = False
    count_commission: Decimal = ZERO  # a count-only night's commission, entered in all
    counted: Decimal = ZERO
    adjustments: Decimal = ZERO
    charges: Decimal = ZERO
    prizes: Decimal = ZERO
    expenses: Decimal = ZERO  # the guests' side of the night's expenses (paid less shares)
    first_hand: datetime | None = None
    last_hand: datetime | None = None

    @property
    def gross(self) -> Decimal:
        """The guests' gross: their net before the house's cut."""
        return self.net + self.commission

    @property
    def house_net(self) -> Decimal:
        return -self.net

    @property
    def house_net_money(self) -> Decimal:
        return to_money(self.house_net, self.event.money_per_chip, self.event.currency)

    @property
    def house_expenses(self) -> Decimal:
        """The house's side of the expenses: what it paid less its shares (minus the guests')."""
        return -self.expenses

    @property
    def house_result(self) -> Decimal:
        """What the house is owed for the night: its net from the game and its expenses."""
        return self.house_net + self.house_expenses

    @property
    def gross_money(self) -> Decimal:
        return to_money(self.gross, self.event.money_per_chip, self.event.currency)

    @property
    def commission_money(self) -> Decimal:
        return to_money(self.commission, self.event.money_per_chip, self.event.currency)

    @property
    def hold(self) -> Decimal | None:
        return hold_of(self.house_net, self.drop)

    @property
    def wagered(self) -> Decimal:
        """The handle as a number (0 where it is not known)."""
        return self.handle if self.handle is not None else ZERO

    @property
    def is_tournament(self) -> bool:
        return self.event.kind == Event.Kind.TOURNAMENT

    @property
    def without_hands(self) -> Decimal:
        """The guests' net from no hand: the count's, the adjustments, a tournament's charges
        and prizes."""
        return self.counted + self.adjustments + self.charges + self.prizes

    @property
    def hands_per_hour(self) -> Decimal | None:
        if self.hands < 2 or not self.first_hand or not self.last_hand:
            return None
        span: timedelta = self.last_hand - self.first_hand
        hours = Decimal(span.total_seconds()) / 3600
        return (Decimal(self.hands - 1) / hours).quantize(Decimal("0.1")) if hours else None

    def guest(self, guest_id: int) -> GuestFigures | None:
        return self._by_guest.get(guest_id)

    @cached_property
    def _by_guest(self) -> dict[int, GuestFigures]:
        return {guest.guest_id: guest for guest in self.guests}


@dataclass
class SeasonFigures:
    """Nights added up. The season's drop is the sum of the drops known; its hold is the house's
    result at those nights over that sum (a night whose drop is not known is left out of it)."""

    nights: list[NightFigures]
    guests: list[GuestFigures] = field(default_factory=list)

    @property
    def house_net(self) -> Decimal:
        return sum((night.house_net for night in self.nights), ZERO)

    @property
    def house_net_money(self) -> MoneyByCurrency:
        """The house's money over the nights, per currency (never a sum across two)."""
        total: MoneyByCurrency = {}
        for night in self.nights:
            total = add_money(total, night.event.currency, night.house_net_money)
        return total

    @property
    def commission(self) -> Decimal:
        return sum((night.commission for night in self.nights), ZERO)

    @property
    def gross(self) -> Decimal:
        return sum((night.gross for night in self.nights), ZERO)

    @property
    def net(self) -> Decimal:
        return sum((night.net for night in self.nights), ZERO)

    @property
    def hands(self) -> int:
        return sum(night.hands for night in self.nights)

    @property
    def handle(self) -> Decimal | None:
        known = [night.handle for night in self.nights if night.handle is not None]
        return sum(known, ZERO) if known else None

    @property
    def drop(self) -> Decimal | None:
        known = [night.drop for night in self.nights if night.drop is not None]
        return sum(known, ZERO) if known else None

    @property
    def hold(self) -> Decimal | None:
        dropped = [night for night in self.nights if night.drop is not None]
        house = sum((night.house_net for night in dropped), ZERO)
        return hold_of(house, self.drop)


@dataclass(frozen=True)
class WithoutHands:
    """A night's result from no hand, as a row beside its shoes: the guests' net in it and the
    house's cut in that (so its gross is their sum)."""

    label: str
    net: Decimal
    commission: Decimal

    @property
    def gross(self) -> Decimal:
        return self.net + self.commission

    @property
    def house_net(self) -> Decimal:
        return -self.net


def without_hands(night: NightFigures) -> list[WithoutHands]:
    """The rows of a night's result that no hand explains: the count's (with the commission
    entered for the night), the adjustments, a tournament's entries, rebuys, add-ons and
    prizes. With its shoes' rows they add up to the night's figures."""
    rows = []
    if night.count_only:
        rows.append(WithoutHands(str(MSG_ROW_COUNT), night.counted, night.count_commission))
    if night.adjustments:
        rows.append(WithoutHands(str(MSG_ROW_ADJUSTMENTS), night.adjustments, ZERO))
    if night.charges or night.prizes:
        rows.append(WithoutHands(str(MSG_ROW_CHARGES), night.charges + night.prizes, ZERO))
    return rows


def nights_figures(events: Iterable[Event]) -> list[NightFigures]:
    """The figures of each of ``events``, in the order given. Eight queries (nine when a
    guest took chips and played no hand), however many nights."""
    ordered = list(events)
    ids = [event.pk for event in ordered]
    guests: dict[int, dict[int, GuestFigures]] = defaultdict(dict)

    def of(event_id: int, guest_id: int, name: str = "") -> GuestFigures:
        found = guests[event_id].get(guest_id)
        if found is None:
            found = guests[event_id][guest_id] = GuestFigures(guest_id, name)
        return found

    for row in GuestEventResult.objects.filter(event_id__in=ids).values(
        "event_id", "guest_id", "guest__name", "hands", "stake", "gross", "commission", "net"
    ):
        guest = of(row["event_id"], row["guest_id"], row["guest__name"])
        guest.hands, guest.wagered, guest.net = row["hands"], row["stake"], row["net"]
        guest.gross, guest.commission = row["gross"], row["commission"]
    setups = {
        event_id: (count_only, commission or ZERO)
        for event_id, count_only, commission in CountSetup.objects.filter(
            event_id__in=ids
        ).values_list("event_id", "count_only", "commission_total")
    }
    for event_id, guest_id, kind, amount in (
        Charge.objects.filter(event_id__in=ids)
        .values_list("event_id", "guest_id", "kind")
        .annotate(n=money_sum("amount"))
        .order_by()
    ):
        guest = of(event_id, guest_id)
        if kind == Charge.Kind.PRIZE:
            guest.prizes += amount
        else:
            guest.charges += amount
    for event_id, guest_id, amount in (
        Adjustment.objects.filter(event_id__in=ids)
        .values_list("event_id", "guest_id")
        .annotate(n=money_sum("amount"))
        .order_by()
    ):
        of(event_id, guest_id).adjustments += amount
    chips_known: set[int] = set(setups)
    for event_id, guest_id, kind, amount in (
        ChipMove.objects.filter(event_id__in=ids, guest__isnull=False)
        .values_list("event_id", "guest_id", "kind")
        .annotate(n=money_sum("chips"))
        .order_by()
    ):
        chips_known.add(event_id)
        guest = of(event_id, guest_id)
        taken = kind in (ChipMove.Kind.BUY_IN, ChipMove.Kind.TOP_UP)
        if taken:
            guest.bought += amount
        if setups.get(event_id, (False, ZERO))[0]:
            guest.counted += -amount if taken else amount
    for event_id, payer_id, payee_id, amount in (
        Transfer.objects.filter(event_id__in=ids)
        .values_list("event_id", "payer_id", "payee_id")
        .annotate(n=money_sum("amount"))
        .order_by()
    ):  # the payer paid (like a settlement), the payee received; the house is neither
        if payer_id is not None:
            of(event_id, payer_id).transfers += amount
        if payee_id is not None:
            of(event_id, payee_id).transfers -= amount
    nights_of = Event.objects.filter(pk__in=ids)
    for line in ledger_lines(events=nights_of, kinds={LineKind.EXPENSE}):
        assert line.event_id is not None
        of(line.event_id, line.guest_id).expenses += line.amount
    pace = {
        row["shoe__event_id"]: (row["n"], row["first"], row["last"])
        for row in Hand.objects.filter(shoe__event__in=ids)
        .values("shoe__event_id")
        .annotate(n=Count("id"), first=Min("logged_at"), last=Max("logged_at"))
        .order_by()
    }
    nights = []
    for event in ordered:
        count_only, count_commission = setups.get(event.pk, (False, ZERO))
        if not count_only:
            count_commission = ZERO
        mine = sorted(guests.get(event.pk, {}).values(), key=lambda g: g.name.casefold())
        if any(not g.name for g in mine):  # a guest with a charge, a move or a transfer only
            _name_guests(mine)
            mine.sort(key=lambda g: g.name.casefold())
        if count_only:
            for guest in mine:
                guest.gross = guest.commission = None
        hands, first, last = pace.get(event.pk, (0, None, None))
        night = NightFigures(
            event,
            mine,
            hands=hands,
            first_hand=first,
            last_hand=last,
            count_only=count_only,
            count_commission=count_commission,
            net=sum((g.net for g in mine), ZERO),
            commission=sum((g.commission or ZERO for g in mine), ZERO) + count_commission,
            counted=sum((g.counted for g in mine), ZERO),
            adjustments=sum((g.adjustments for g in mine), ZERO),
            charges=sum((g.charges for g in mine), ZERO),
            prizes=sum((g.prizes for g in mine), ZERO),
            expenses=sum((g.expenses for g in mine), ZERO),
        )
        is_tournament = event.kind == Event.Kind.TOURNAMENT
        night.handle = None if count_only or is_tournament else sum((g.wagered for g in mine), ZERO)
        if is_tournament:
            night.drop = -night.charges
        elif event.pk in chips_known:
            night.drop = sum((g.bought for g in mine), ZERO)
        nights.append(night)
    return nights


def _name_guests(figures: Sequence[GuestFigures]) -> None:
    """Names for the guests a night's results have no row of (chips taken, no hand played)."""
    names = dict(
        Guest.objects.filter(pk__in=[g.guest_id for g in figures if not g.name]).values_list(
            "pk", "name"
        )
    )
    for guest in figures:
        if not guest.name:
            guest.name = names.get(guest.guest_id, "")


def night_figures(event: Event) -> NightFigures:
    """One night's figures."""
    return nights_figures([event])[0]


def season_figures(events: Iterable[Event]) -> SeasonFigures:
    """Nights' figures and each guest's added up over them (best net first)."""
    nights = nights_figures(events)
    totals: dict[int, GuestFigures] = {}
    for night in nights:
        for guest in night.guests:
            total = totals.setdefault(guest.guest_id, GuestFigures(guest.guest_id, guest.name))
            total.add(guest)
    ranked = sorted(totals.values(), key=lambda g: (-g.net, g.name.casefold()))
    return SeasonFigures(nights, ranked)
