"""Results and balances: what the night, each shoe and each guest came to, and who owes whom.

Reads only. Every function runs a fixed number of queries, however many hands, shoes or events
there are: sums are done by the database, the rest in Python over those few result rows. Sums
within one event read the bets; sums across events read ``GuestEventResult`` (the bets' totals
per guest and event, recomputed by the services on every write).

A guest's balance is their net results plus what they settled: settlements with the house and,
at a guest-banked night, transfers (``Transfer``) — the payer paid (like a settlement of theirs),
the payee received (like the house paying them), whoever the other side was.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import (
    Count,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from games.currencies import fits_minor_units
from games.kinds import BankerMove
from games.models import Event, Shoe
from games.payouts import BankedBet
from ledger.models import Bet, Coup, Guest, GuestEventResult, Settlement
from ledger.money.amounts import ZERO, MoneyByCurrency, add_money, money_sum, to_money
from ledger.money.figures import NightFigures, nights_figures, season_figures
from ledger.money.lines import NIGHT, SETTLED, LineKind, balance, balances, ledger_lines

RESULT = LineKind.RESULT

MONEY_FIELDS = ("stake", "gross", "commission", "net")


@dataclass
class Figures:
    """Money figures of a hand, shoe, guest or event, from the guests' side."""

    wagered: Decimal = ZERO
    gross: Decimal = ZERO
    commission: Decimal = ZERO
    net: Decimal = ZERO

    @property
    def house_net(self) -> Decimal:
        return -self.net

    def add(self, other: Figures) -> None:
        self.wagered += other.wagered
        self.gross += other.gross
        self.commission += other.commission
        self.net += other.net

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Figures:
        """From a ``values()`` row annotated with ``_sums()``: its money sums are ``Decimal``
        (django-stubs types no column passed as ``**_sums()``, so the row is a plain mapping)."""
        return cls(row["stake"], row["gross"], row["commission"], row["net"])


def _sums(prefix: str = "") -> dict[str, Sum]:
    return {name: money_sum(f"{prefix}{name}") for name in MONEY_FIELDS}


class InMoney:
    """A row's figures in money at its event's rate and currency (``figures``,
    ``money_per_chip`` and ``currency``)."""

    figures: Figures
    money_per_chip: Decimal
    currency: str

    @property
    def house_net_money(self) -> Decimal:
        return to_money(self.figures.house_net, self.money_per_chip, self.currency)

    @property
    def gross_money(self) -> Decimal:
        return to_money(self.figures.gross, self.money_per_chip, self.currency)

    @property
    def commission_money(self) -> Decimal:
        return to_money(self.figures.commission, self.money_per_chip, self.currency)

    @property
    def net_money(self) -> Decimal:
        return to_money(self.figures.net, self.money_per_chip, self.currency)


@dataclass
class ShoeRow(InMoney):
    number: int | None  # None for the totals row
    hands: int
    figures: Figures
    money_per_chip: Decimal
    currency: str


def event_shoe_rows(event: Event) -> tuple[list[ShoeRow], ShoeRow]:
    """The reference night's table: one row per shoe, and the totals row."""
    shoes = (
        Shoe.objects.filter(event=event)
        .order_by("number")
        .annotate(hand_count=Count("hands", distinct=True), **_sums("hands__bets__"))
        .values("number", "hand_count", *MONEY_FIELDS)
    )
    rows = [
        ShoeRow(
            s["number"], s["hand_count"], Figures.from_row(s), event.money_per_chip, event.currency
        )
        for s in shoes
    ]
    total = Figures()
    for row in rows:
        total.add(row.figures)
    hands = sum(row.hands for row in rows)
    totals = ShoeRow(None, hands, total, event.money_per_chip, event.currency)
    return rows, totals


@dataclass
class GuestResult:
    guest_id: int
    name: str
    figures: Figures = field(default_factory=Figures)
    by_shoe: dict[int, Figures] = field(default_factory=dict)
    hands: int = 0
    biggest_win: Decimal = ZERO
    biggest_loss: Decimal = ZERO


def event_guest_results(event: Event) -> list[GuestResult]:
    """Per guest: totals, a figure per shoe, hands played, biggest win and loss on one hand."""
    per_hand = (
        Bet.objects.filter(event=event)
        .values("guest_id", "guest__name", "hand_id", "hand__shoe__number")
        .annotate(**_sums())
        .order_by()
    )
    results: dict[int, GuestResult] = {}
    for row in per_hand:
        result = results.setdefault(
            row["guest_id"], GuestResult(row["guest_id"], row["guest__name"])
        )
        figures = Figures.from_row(row)
        result.figures.add(figures)
        result.by_shoe.setdefault(row["hand__shoe__number"], Figures()).add(figures)
        result.hands += 1
        result.biggest_win = max(result.biggest_win, figures.net)
        result.biggest_loss = min(result.biggest_loss, figures.net)
    return sorted(results.values(), key=lambda r: r.name.casefold())


# --- balances -------------------------------------------------------------------------------


def events_in_order() -> QuerySet[Event]:
    return Event.objects.nights().order_by("date", "id")


def _before(event: Event) -> Q:
    """Events that come before ``event`` (by date, then by creation)."""
    return Q(date__lt=event.date) | Q(date=event.date, id__lt=event.pk)


@dataclass
class SettlementLine:
    """One guest's line in an event's settlement list."""

    guest_id: int
    name: str
    before: Decimal
    result: Decimal
    settled: Decimal
    money_per_chip: Decimal
    currency: str
    # What was carried in, each earlier event at its own rate, per currency (never added across)
    before_money: MoneyByCurrency = field(default_factory=dict)
    credit_limit: Decimal | None = None  # chips the guest may owe the house; None: no limit

    @property
    def after(self) -> Decimal:
        return self.before + self.result + self.settled

    @property
    def over_limit(self) -> bool:
        """Whether the guest owes the house more than their credit limit."""
        return self.credit_limit is not None and -self.after > self.credit_limit

    @property
    def credit_limit_money(self) -> Decimal | None:
        """The limit in money at this event's rate (the limit itself is in chips)."""
        if self.credit_limit is None:
            return None
        return to_money(self.credit_limit, self.money_per_chip, self.currency)

    @property
    def after_money(self) -> MoneyByCurrency:
        """The balance in money, as everywhere: see :func:`money_of`."""
        tonight = to_money(self.result + self.settled, self.money_per_chip, self.currency)
        return add_money(self.before_money, self.currency, tonight)


Rate = tuple[Decimal, str]  # a night's money per chip and its currency


def money_of(chips_by_event: dict[int, Decimal], rates: Mapping[int, Rate]) -> MoneyByCurrency:
    """The one definition of a balance in money: each event's chips (its result and the
    settlements recorded at it) at that event's rate, rounded once per event, then added per
    currency (a balance carried across nights in two currencies is shown in both)."""
    total: MoneyByCurrency = {}
    for event, chips in chips_by_event.items():
        rate, currency = rates[event]
        total = add_money(total, currency, to_money(chips, rate, currency))
    return total


def guest_balance_through(*, guest_id: int, event: Event) -> Decimal:
    """A guest's balance in chips after ``event`` (its line's ``after`` in the settlement list):
    the guest's ledger lines at that event and the ones before it. One query."""
    upto = Event.objects.filter(_before(event) | Q(pk=event.pk))
    return balance(ledger_lines(guests=[guest_id], events=upto), guest_id)


def guest_balance_now(*, guest_id: int) -> Decimal:
    """A guest's balance in chips as it stands: all of the guest's ledger lines. One query."""
    return balance(ledger_lines(guests=[guest_id]), guest_id)


def event_settlement(event: Event) -> list[SettlementLine]:
    """Who owes the house and whom the house owes after this event, counting what they carried
    in from earlier events and what was settled at this one (settlements, and the transfers of
    a guest-banked night)."""
    on_the_list = Guest.objects.filter(events=event)
    earlier = Event.objects.filter(_before(event))
    tonight = balances(
        ledger_lines(guests=on_the_list, events=Event.objects.filter(pk=event.pk), kinds=NIGHT)
    )
    settled_chips: dict[int, dict[int, Decimal]] = defaultdict(lambda: defaultdict(lambda: ZERO))
    settled_rates: dict[int, Rate] = {}
    upto = Event.objects.filter(_before(event) | Q(pk=event.pk))
    for line in ledger_lines(guests=on_the_list, events=upto, kinds=SETTLED):
        assert line.event_id is not None
        settled_chips[line.guest_id][line.event_id] += line.amount
        settled_rates[line.event_id] = (line.money_per_chip, line.currency)
    # When every earlier night's rate turns a cent into whole units of its currency, rounding
    # per night changes nothing: the results before are summed per guest and rate, not read a
    # row per night. Any other rate among them, and they are read again night by night.
    results_chips, rates = _results_before(on_the_list, earlier, per_rate=True)
    by_rate = all(
        fits_minor_units(rate / 100, currency)
        for rate, currency in (*rates.values(), *settled_rates.values())
    )
    if not by_rate:
        results_chips, rates = _results_before(on_the_list, earlier, per_rate=False)

    def settled(guest_id: int, *, before: bool) -> Decimal:
        by_event = settled_chips.get(guest_id, {})
        return sum(
            (amount for event_id, amount in by_event.items() if (event_id != event.pk) == before),
            ZERO,
        )

    def money_before(guest_id: int) -> MoneyByCurrency:
        if by_rate:  # keyed by rate: a night's settlements join the results at its rate
            per_rate: dict[Rate, Decimal] = defaultdict(lambda: ZERO)
            for key, amount in results_chips.get(guest_id, {}).items():
                per_rate[rates[key]] += amount
            for event_id, amount in settled_chips.get(guest_id, {}).items():
                if event_id != event.pk:
                    per_rate[settled_rates[event_id]] += amount
            return money_of(dict(enumerate(per_rate.values())), dict(enumerate(per_rate)))
        chips: dict[int, Decimal] = defaultdict(lambda: ZERO)
        for source in (results_chips.get(guest_id, {}), settled_chips.get(guest_id, {})):
            for event_id, amount in source.items():
                if event_id != event.pk:
                    chips[event_id] += amount
        return money_of(chips, rates | settled_rates)

    def results_before(guest_id: int) -> Decimal:  # by rate or by night, the same sum
        return sum(results_chips.get(guest_id, {}).values(), ZERO)

    lines = [
        SettlementLine(
            guest_id=guest.pk,
            name=guest.name,
            before=results_before(guest.pk) + settled(guest.pk, before=True),
            result=tonight.get(guest.pk, ZERO),
            settled=settled(guest.pk, before=False),
            money_per_chip=event.money_per_chip,
            currency=event.currency,
            before_money=money_before(guest.pk),
            credit_limit=guest.credit_limit,
        )
        for guest in on_the_list
    ]
    return sorted(lines, key=lambda line: (line.after, line.name.casefold()))


def _results_before(
    guests: QuerySet[Guest], earlier: QuerySet[Event], *, per_rate: bool
) -> tuple[dict[int, dict[int, Decimal]], dict[int, Rate]]:
    """The guests' results at ``earlier`` events, per guest and event (or per guest and a number
    standing for the rate, with ``per_rate``), and each key's rate. One query."""
    chips: dict[int, dict[int, Decimal]] = defaultdict(lambda: defaultdict(lambda: ZERO))
    rates: dict[int, Rate] = {}
    keys: dict[Rate, int] = {}
    lines = ledger_lines(guests=guests, events=earlier, kinds=NIGHT, per_rate=per_rate)
    for line in lines:
        rate = (line.money_per_chip, line.currency)
        key = keys.setdefault(rate, len(keys)) if per_rate else line.event_id
        assert key is not None
        chips[line.guest_id][key] += line.amount
        rates[key] = rate
    return chips, rates


@dataclass
class SettlementRow:
    """A settlement recorded at an event, with the row that voids it or the row it voids."""

    settlement: Settlement
    voided_by: Settlement | None = None
    void_of: Settlement | None = None

    @property
    def can_void(self) -> bool:
        return self.voided_by is None and self.settlement.voids_id is None


def event_settlement_rows(event: Event) -> list[SettlementRow]:
    """Every settlement recorded at the event, voids and what they void included, oldest first,
    with who recorded it: one query (a void is always recorded at its settlement's event)."""
    settlements = list(
        Settlement.objects.filter(event=event)
        .select_related("guest", "recorded_by", "way")
        .order_by("recorded_at", "id")
    )
    by_id = {s.pk: s for s in settlements}
    voids = {s.voids_id: s for s in settlements if s.voids_id is not None}
    return [
        SettlementRow(
            s,
            voided_by=voids.get(s.pk),
            void_of=by_id.get(s.voids_id) if s.voids_id is not None else None,
        )
        for s in settlements
    ]


def seated_over_limit(event: Event, guests: list[Guest]) -> list[tuple[Guest, Decimal]]:
    """Those of ``guests`` (seated at a table of ``event``) who owe the house more than their
    credit limit, with their balance in chips after the event so far. Two queries when any of
    them has a limit, none otherwise."""
    limited = {guest.pk: guest for guest in guests if guest.credit_limit is not None}
    if not limited:
        return []
    upto = Event.objects.filter(_before(event) | Q(pk=event.pk))
    owed = balances(ledger_lines(guests=list(limited), events=upto))
    return [
        (guest, owed.get(guest.pk, ZERO))
        for guest in limited.values()
        if guest.credit_limit is not None and -owed.get(guest.pk, ZERO) > guest.credit_limit
    ]


@dataclass
class BalancePoint:
    event: Event
    result: Decimal
    settled: Decimal
    balance: Decimal
    balance_money: MoneyByCurrency  # each night at its rate, per currency


@dataclass
class GuestHistory:
    guest: Guest
    points: list[BalancePoint]
    shoes: dict[int, list[tuple[int, Figures]]]  # event id -> [(shoe number, figures)]
    settlements: list[Settlement]

    @property
    def voided(self) -> set[int]:
        """The ids of this guest's settlements that a later row voids."""
        return {s.voids_id for s in self.settlements if s.voids_id is not None}

    @property
    def balance(self) -> Decimal:
        return self.points[-1].balance if self.points else ZERO

    @property
    def balance_money(self) -> MoneyByCurrency:
        return self.points[-1].balance_money if self.points else {}

    @property
    def symbol(self) -> str:
        """The chip symbol the balance is shown with: the latest night's."""
        if self.points:
            return self.points[-1].event.currency_symbol
        return str(Event._meta.get_field("currency_symbol").get_default())


@dataclass
class NightLine:
    """A guest's night without its event loaded: what a running balance needs, a few numbers."""

    event_id: int
    result: Decimal
    settled: Decimal
    balance: Decimal
    balance_money: MoneyByCurrency


def guest_nights(guest: Guest) -> list[NightLine]:
    """Each night of the guest's, oldest first, with the running balance: two queries that
    read a few numbers per night and no event, so a long history stays cheap. Load the events
    of the nights a page shows with :func:`balance_points`."""
    nights: dict[tuple[Any, Any], list[Any]] = {}  # (date, id), in events_in_order's order
    for line in ledger_lines(guests=[guest.pk], nights_only=True):
        rate = (line.money_per_chip, line.currency)
        night = nights.setdefault((line.date, line.event_id), [rate, ZERO, ZERO])
        night[2 if line.settled else 1] += line.amount
    lines = []
    balance, balance_money = ZERO, MoneyByCurrency()
    for (_day, event_id), ((money_per_chip, currency), result, paid) in sorted(nights.items()):
        balance += result + paid
        tonight = to_money(result + paid, money_per_chip, currency)
        balance_money = add_money(balance_money, currency, tonight)
        lines.append(NightLine(event_id, result, paid, balance, balance_money))
    return lines


_SHOWN = (
    "name",
    "date",
    "kind",
    "game",
    "currency_symbol",
    "money_per_chip",
    "currency",
)  # what pages read


def balance_points(lines: Sequence[NightLine]) -> list[BalancePoint]:
    """``lines`` with their events loaded, in the same order. One query."""
    events = Event.objects.only(*_SHOWN).in_bulk([line.event_id for line in lines])
    return [
        BalancePoint(
            events[line.event_id], line.result, line.settled, line.balance, line.balance_money
        )
        for line in lines
    ]


def guest_shoes(guest: Guest, event_ids: Iterable[int]) -> dict[int, list[tuple[int, Figures]]]:
    """The guest's figures shoe by shoe at some events (a tournament table's left out: its
    result is its charges). One query."""
    per_shoe = (
        Bet.objects.filter(guest=guest, event_id__in=list(event_ids))
        .exclude(event__kind=Event.Kind.TOURNAMENT_TABLE)
        .values("event_id", "hand__shoe__number")
        .annotate(**_sums())
        .order_by("event_id", "hand__shoe__number")
    )
    shoes: dict[int, list[tuple[int, Figures]]] = defaultdict(list)
    for row in per_shoe:
        shoes[row["event_id"]].append((row["hand__shoe__number"], Figures.from_row(row)))
    return dict(shoes)


def guest_history(guest: Guest, *, shoes_of_latest: int | None = None) -> GuestHistory:
    """Everything about one guest: each event, each settlement, the running balance, and each
    shoe's figures at the ``shoes_of_latest`` latest events (at every event when None). Each
    event's result is read from its per-guest totals, so a long history costs a row per event,
    not a row per shoe. (A page that shows a few nights reads :func:`guest_nights`.)"""
    settlements = list(
        guest.settlements.select_related("event", "way").order_by("recorded_at", "id")
    )
    results: dict[int, Decimal] = defaultdict(lambda: ZERO)
    settled: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for line in ledger_lines(guests=[guest.pk], nights_only=True):
        assert line.event_id is not None
        (settled if line.settled else results)[line.event_id] += line.amount
    event_ids = set(results) | set(settled)
    points = []
    balance, balance_money = ZERO, MoneyByCurrency()
    for event in events_in_order().filter(pk__in=event_ids).only(*_SHOWN):
        result, paid = results[event.pk], settled[event.pk]
        balance += result + paid
        tonight = to_money(result + paid, event.money_per_chip, event.currency)
        balance_money = add_money(balance_money, event.currency, tonight)
        points.append(BalancePoint(event, result, paid, balance, balance_money))
    latest = points
    if shoes_of_latest is not None:
        latest = points[max(0, len(points) - shoes_of_latest) :]
    shoes = guest_shoes(guest, [point.event.pk for point in latest])
    return GuestHistory(guest=guest, points=points, shoes=shoes, settlements=settlements)


def with_balance_symbol(guests: QuerySet[Guest]) -> QuerySet[Guest]:
    """``guests`` each with ``balance_symbol``: the chip symbol their balance is shown with, their
    latest night's, as on their own page (``GuestHistory.symbol``). In the same query."""
    latest = (
        GuestEventResult.objects.filter(guest=OuterRef("pk"))
        .order_by("-event__date", "-event__id")
        .values("event__currency_symbol")[:1]
    )
    default = str(Event._meta.get_field("currency_symbol").get_default())
    return guests.annotate(balance_symbol=Coalesce(Subquery(latest), Value(default)))


def guest_balances() -> dict[int, Decimal]:
    """Every guest's balance in chips: the sum of their ledger lines, over all time. One
    query."""
    return balances(ledger_lines())


# --- over a date range ----------------------------------------------------------------------


@dataclass
class Standing:
    guest_id: int
    name: str
    net: Decimal
    commission: Decimal | None  # None: a night of theirs knew only their net (count only)
    wagered: Decimal
    hands: int


def standings(events: QuerySet[Event]) -> list[Standing]:
    """The leaderboard: each guest's net result, hands and commission over some events, from
    the one source of figures (:func:`ledger.money.figures.season_figures`)."""
    season = season_figures(events.order_by("date", "id"))
    return [
        Standing(g.guest_id, g.name, g.net, g.commission, g.wagered, g.hands) for g in season.guests
    ]


@dataclass
class HouseRow:
    """A night as the house sees it, from the one source of figures (``night``)."""

    night: NightFigures

    @property
    def event(self) -> Event:
        return self.night.event

    @property
    def figures(self) -> Figures:
        night = self.night
        return Figures(night.wagered, night.gross, night.commission, night.net)

    @property
    def hands(self) -> int:
        return self.night.hands

    @property
    def hold(self) -> Decimal | None:
        """The house's result ÷ the drop, in per cent (None: no drop known)."""
        return self.night.hold

    @property
    def hands_per_hour(self) -> Decimal | None:
        return self.night.hands_per_hour

    @property
    def house_net_money(self) -> Decimal:
        return self.night.house_net_money


def house_rows(events: QuerySet[Event]) -> list[HouseRow]:
    """The house's view, one row per event (:func:`ledger.money.figures.nights_figures`)."""
    return [HouseRow(night) for night in nights_figures(events.order_by("date", "id"))]


# --- guest-banked nights: who held the bank ----------------------------------------------------


@dataclass
class BankerStint:
    """A guest holding the bank: the coups of one shoe in a row with the same banker, until he
    gives it up (passes it, sells it as a suite, retires) or it goes to someone else."""

    shoe: int  # the shoe's number
    banker_id: int
    banker: str
    co_bankers: list[str]  # who shared the bank at some coup of the stint, in order
    first_coup: int  # hand numbers in the shoe
    last_coup: int
    coups: int
    bank_start: Decimal  # on the table before the first coup
    bank_end: Decimal  # after the last: kept, taken off (retired), or nothing (lost)
    net: Decimal  # the bank's bets (banker and co-banker), after the house's cut
    house_cut: Decimal


def banker_stints(event: Event) -> list[BankerStint]:
    """Each stint at the bank of a guest-banked night, by shoe and coup. Two queries."""
    coups = (
        Coup.objects.filter(event=event)
        .values(
            "hand_id",
            "hand__shoe__number",
            "hand__number",
            "banker_id",
            "banker__name",
            "co_banker__name",
            "bank",
            "bank_after",
            "house_cut",
            "move",
        )
        .order_by("hand__shoe__number", "hand__number")
    )
    bank_nets = dict(
        Bet.objects.filter(event=event, bet_type=BankedBet.BANK)
        .values_list("hand_id")
        .annotate(n=money_sum("net"))
        .order_by()
    )
    stints: list[BankerStint] = []
    kept = False  # the coup before kept the bank for the coup after
    for coup in coups:
        stint = stints[-1] if stints else None
        if (
            stint is None
            or not kept
            or stint.shoe != coup["hand__shoe__number"]
            or stint.banker_id != coup["banker_id"]
        ):
            stint = BankerStint(
                shoe=coup["hand__shoe__number"],
                banker_id=coup["banker_id"],
                banker=coup["banker__name"],
                co_bankers=[],
                first_coup=coup["hand__number"],
                last_coup=coup["hand__number"],
                coups=0,
                bank_start=coup["bank"],
                bank_end=coup["bank"],
                net=ZERO,
                house_cut=ZERO,
            )
            stints.append(stint)
        co_banker = coup["co_banker__name"]
        if co_banker is not None and co_banker not in stint.co_bankers:
            stint.co_bankers.append(co_banker)
        stint.last_coup = coup["hand__number"]
        stint.coups += 1
        stint.bank_end = coup["bank_after"]
        stint.net += bank_nets.get(coup["hand_id"], ZERO)
        stint.house_cut += coup["house_cut"]
        kept = coup["move"] == BankerMove.KEEP
    return stints


@dataclass
class BankerTotal:
    """One guest's stints at the bank over a night, added up."""

    banker_id: int
    banker: str
    stints: int
    coups: int
    net: Decimal  # the bank's bets over the stints (a shared bank's co-banker's half included)
    house_cut: Decimal


def banker_totals(stints: list[BankerStint]) -> list[BankerTotal]:
    """Each banker's stints added up, by name (no query: from :func:`banker_stints`)."""
    totals: dict[int, BankerTotal] = {}
    for stint in stints:
        total = totals.setdefault(
            stint.banker_id, BankerTotal(stint.banker_id, stint.banker, 0, 0, ZERO, ZERO)
        )
        total.stints += 1
        total.coups += stint.coups
        total.net += stint.net
        total.house_cut += stint.house_cut
    return sorted(totals.values(), key=lambda total: total.banker.casefold())
