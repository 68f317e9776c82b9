"""Ratings, read in a fixed number of queries however many nights, guests or bets.

The stakes are summed in SQL per night, guest, bet and cover kind (count, handle, the sum of the
squares of the stakes, the guests' net); each group is priced in Python by
``games.theo.stake_moments``: the house's theoretical win is the handle times the house's edge,
the variance of the guest's result the sum of the squared stakes times the variance per unit.
A stake the rules core cannot price (``NotPriced``) is counted in the hands and the handle and
left out of the theoretical win, the standard deviation and z; the figures say how much handle
that was.

Where a guest banks (Chemin de fer, Baccara banque) the house plays no hand: its theoretical win
is the cut it expects from the bank (``house_edge`` of the bank's stake), plus any fixed charge
(a table charge per shoe, the 5% on a banque's capital), which is known, not expected; its
actual win is the cut it took (the rows' commission). A guest's loss there goes to the other
guests, so z reads the guest's result against its own expectation (``Moments.mean``), signed the
house's way round: in Punto Banco that is the actual win against the theoretical one. A Baccara
banque stake is priced with its coup's stakes on each tableau, which the banker's play answers.

Exact fractions until the end, then rounded half-up to the cent like every payout
(``games.payouts.round_money``), and to the night's currency by ``to_money``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, localcontext
from fractions import Fraction

from django.db.models import (
    Case,
    Count,
    DecimalField,
    F,
    OuterRef,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Coalesce

from games.kinds import Game
from games.models import Event, Hand
from games.payouts import BankedBet, round_money
from games.theo import Moments, NotPriced, stake_moments
from ledger.models import Bet, Seating
from ledger.money.amounts import ZERO, MoneyByCurrency, add_money, money_sum, to_money

PERCENT = Decimal("0.01")
WHOLE = DecimalField(max_digits=38, decimal_places=0)
HOUR = Decimal(3600)
_LAST_HAND = 32767  # above any hand's number: an open seating runs to the shoe's last hand


@dataclass
class Rating:
    """One guest's rating at one night, or added up over several (``add``); the house's, the sum
    of its guests'. Chips are ``Decimal``; the exact figures stay ``Fraction`` until shown."""

    guest_id: int
    name: str
    nights: int = 0
    hands: int = 0  # hands with a stake of this guest's
    stakes: int = 0  # the stakes (a hand with a banker and a pair bet is two)
    seconds: int = 0  # time at the table
    handle: Decimal = ZERO  # the sum of the stakes
    unpriced: Decimal = ZERO  # the part of the handle on stakes the rules core cannot price
    actual: Decimal = ZERO  # the house's result from the stakes (see the module's note)
    loss: Decimal = ZERO  # minus the guest's net: in Punto Banco, the house's actual
    unpriced_loss: Decimal = ZERO  # its part on the stakes not priced
    theo_exact: Fraction = field(default_factory=Fraction)
    expected_loss_exact: Fraction = field(default_factory=Fraction)  # on the priced stakes
    variance_exact: Fraction = field(default_factory=Fraction)  # chips squared
    theo_money: MoneyByCurrency = field(default_factory=dict)
    actual_money: MoneyByCurrency = field(default_factory=dict)

    def add(self, other: Rating) -> None:
        self.nights += other.nights
        self.hands += other.hands
        self.stakes += other.stakes
        self.seconds += other.seconds
        self.handle += other.handle
        self.unpriced += other.unpriced
        self.actual += other.actual
        self.loss += other.loss
        self.unpriced_loss += other.unpriced_loss
        self.theo_exact += other.theo_exact
        self.expected_loss_exact += other.expected_loss_exact
        self.variance_exact += other.variance_exact
        for currency, amount in other.theo_money.items():
            self.theo_money = add_money(self.theo_money, currency, amount)
        for currency, amount in other.actual_money.items():
            self.actual_money = add_money(self.actual_money, currency, amount)

    @property
    def priced_handle(self) -> Decimal:
        return self.handle - self.unpriced

    @property
    def priced_loss(self) -> Decimal:
        """The guest's loss on the priced stakes: what the expected loss is beside."""
        return self.loss - self.unpriced_loss

    @property
    def expected_loss(self) -> Decimal:
        """The guest's expected loss on the priced stakes: in Punto Banco the theoretical win."""
        return round_money(self.expected_loss_exact)

    @property
    def theo(self) -> Decimal:
        """The house's theoretical win in chips: each priced stake times its house edge."""
        return round_money(self.theo_exact)

    @property
    def sd(self) -> Decimal:
        """One standard deviation of the guest's result on the priced stakes, in chips."""
        return round_money(_sqrt(self.variance_exact))

    @property
    def z(self) -> Decimal | None:
        """How unusual the guest's result is: (loss − expected loss) in standard deviations, on
        the priced stakes (in Punto Banco, the actual win less the theoretical); None where
        nothing was priced."""
        if not self.variance_exact:
            return None
        exact = (Fraction(self.priced_loss) - self.expected_loss_exact) / Fraction(
            _sqrt(self.variance_exact)
        )
        return round_money(exact)

    @property
    def average_bet(self) -> Decimal | None:
        """The handle per hand played (not per stake): what the guest had out on a hand."""
        return round_money(self.handle / self.hands) if self.hands else None

    @property
    def hours(self) -> Decimal:
        return (Decimal(self.seconds) / HOUR).quantize(Decimal("0.1"))

    @property
    def theo_hold(self) -> Decimal | None:
        """The theoretical hold in per cent: the theoretical win over the priced handle."""
        if not self.priced_handle:
            return None
        return (Decimal(self.theo_exact.numerator) / self.theo_exact.denominator * 100
                / self.priced_handle).quantize(PERCENT)  # fmt: skip

    @property
    def actual_hold(self) -> Decimal | None:
        """The actual hold in per cent: the house's result over the whole handle."""
        return (self.actual * 100 / self.handle).quantize(PERCENT) if self.handle else None


@dataclass
class NightRatings:
    event: Event
    guests: list[Rating]  # by name
    house: Rating  # the guests' ratings added up

    def guest(self, guest_id: int) -> Rating | None:
        return next((rating for rating in self.guests if rating.guest_id == guest_id), None)


@dataclass
class Ratings:
    """Ratings of some nights (a night, a series, a season): each night's, and each guest's and
    the house's over them all."""

    nights: list[NightRatings]
    guests: list[Rating]  # the highest theoretical win first
    house: Rating

    def guest(self, guest_id: int) -> Rating | None:
        return next((rating for rating in self.guests if rating.guest_id == guest_id), None)


def _sqrt(value: Fraction) -> Decimal:
    with localcontext() as context:
        context.prec = 40
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


def _moments(
    event: Event,
    bet_type: str,
    cover_kind: str,
    tableau_stakes: tuple[Decimal, Decimal] | None = None,
) -> Moments | None:
    try:
        if not event.is_guest_banked:
            return stake_moments(event.game, event.rule_set, event.decks, bet_type, cover_kind)
        return stake_moments(
            event.game,
            event.rule_set,
            event.decks,
            bet_type,
            cover_kind,
            bank_rules=event.bank_rules,
            tableau_stakes=tableau_stakes,
        )
    except NotPriced:
        return None


# A cut that is no share of the stakes: a table charge per shoe, a share of the capital.
FIXED_CUTS = (Event.Cut.PER_SHOE, Event.Cut.CAPITAL)
TABLEAUX = (BankedBet.TABLEAU_1.value, BankedBet.TABLEAU_2.value)


def _tableau_stakes(event_ids: list[int]) -> dict[int, tuple[Decimal, Decimal]]:
    """Each Baccara banque coup's stakes on tableau 1 and 2, every guest's: one query, none
    without a night of Baccara banque."""
    if not event_ids:
        return {}
    found: dict[int, list[Decimal]] = {}
    for row in (
        Bet.objects.filter(event_id__in=event_ids, bet_type__in=TABLEAUX)
        .values("hand_id", "bet_type")
        .annotate(total=money_sum("stake"))
        .order_by()
    ):
        found.setdefault(row["hand_id"], [ZERO, ZERO])[TABLEAUX.index(row["bet_type"])] = row[
            "total"
        ]
    return {hand_id: (first, second) for hand_id, (first, second) in found.items()}


def ratings_for(events: Iterable[Event], *, guest_id: int | None = None) -> Ratings:
    """The ratings at ``events`` (in the order given), of every guest who staked there or of
    ``guest_id`` alone. Four queries after the events' (three for one guest); one more with a
    night of Baccara banque."""
    ordered = list(events)
    by_id = {event.pk: event for event in ordered}
    bets = Bet.objects.filter(event_id__in=list(by_id))
    seatings = Seating.objects.filter(shoe__event_id__in=list(by_id))
    if guest_id is not None:
        bets, seatings = bets.filter(guest_id=guest_id), seatings.filter(guest_id=guest_id)
    found: dict[tuple[int, int], Rating] = {}
    banque = [event.pk for event in ordered if event.game == Game.BACCARA_BANQUE]
    tableaux = _tableau_stakes(banque)
    groups = (
        bets.annotate(
            # A Baccara banque stake is priced coup by coup (its coup's tableaux), others by kind.
            coup=Case(When(event_id__in=banque, then=F("hand_id")), default=Value(0))
        )
        .values("event_id", "guest_id", "guest__name", "bet_type", "cover_kind", "coup")
        .annotate(
            n=Count("id"),
            handle=money_sum("stake"),
            # cents², as numeric: a stake of 30 million chips squared is past a bigint
            squares=Sum(Cast("stake", WHOLE) * Cast("stake", WHOLE), output_field=WHOLE),
            net=money_sum("net"),
            cut=money_sum("commission"),
        )
        .order_by()
    )
    hands_of: dict[tuple[int, int], int] = {
        (row["event_id"], row["guest_id"]): row["n"]
        for row in bets.values("event_id", "guest_id")
        .annotate(n=Count("hand_id", distinct=True))
        .order_by()
    }
    for row in groups:
        event = by_id[row["event_id"]]
        key = (event.pk, row["guest_id"])
        rating = found.get(key)
        if rating is None:
            rating = found[key] = Rating(row["guest_id"], row["guest__name"], nights=1)
            rating.hands = hands_of[key]
        rating.stakes += row["n"]
        rating.handle += row["handle"]
        rating.loss -= row["net"]
        fixed = event.is_guest_banked and event.taxe in FIXED_CUTS
        rating.actual += row["cut"] if event.is_guest_banked else -row["net"]
        moments = _moments(event, row["bet_type"], row["cover_kind"], tableaux.get(row["coup"]))
        if fixed:  # known, not expected: the theoretical win holds it as it is
            rating.theo_exact += Fraction(row["cut"])
        if moments is None:
            rating.unpriced += row["handle"]
            rating.unpriced_loss -= row["net"]
            continue
        rating.theo_exact += Fraction(row["handle"]) * moments.house_edge
        rating.expected_loss_exact -= Fraction(row["handle"]) * moments.mean
        rating.variance_exact += Fraction(row["squares"]) / 10_000 * moments.variance
    _time_at_table(seatings, found)
    night_hands: dict[int, int] = {}
    if guest_id is None:
        night_hands = dict(
            bets.values("event_id")
            .annotate(n=Count("hand_id", distinct=True))
            .values_list("event_id", "n")
            .order_by()
        )
    nights = []
    for event in ordered:
        mine = sorted(
            (rating for (event_id, _guest), rating in found.items() if event_id == event.pk),
            key=lambda rating: rating.name.casefold(),
        )
        house = Rating(0, "", nights=1)
        for rating in mine:
            rating.theo_money = {event.currency: _money(rating.theo, event)}
            rating.actual_money = {event.currency: _money(rating.actual, event)}
            house.add(rating)
        house.nights = 1
        # The hands the house dealt with a stake on them, not the guests' hands added up.
        house.hands = night_hands.get(event.pk, house.hands)
        nights.append(NightRatings(event, mine, house))
    totals: dict[int, Rating] = {}
    house = Rating(0, "")
    for night in nights:
        for rating in night.guests:
            totals.setdefault(rating.guest_id, Rating(rating.guest_id, rating.name)).add(rating)
        house.add(night.house)
    ranked = sorted(totals.values(), key=lambda r: (-r.theo_exact, r.name.casefold()))
    return Ratings(nights, ranked, house)


def _money(chips: Decimal, event: Event) -> Decimal:
    return to_money(chips, event.money_per_chip, event.currency)


def _time_at_table(seatings: QuerySet[Seating], found: dict[tuple[int, int], Rating]) -> None:
    """Each guest's seconds at the table: each seating from when the guest sat (not before its
    shoe opened) to when the last hand it covers was logged; a guest's seatings at a night are
    joined where they overlap (a seat change), so no second is counted twice. A seating that
    covers no logged hand counts nothing."""
    last_hand = (
        Hand.objects.filter(
            shoe=OuterRef("shoe"),
            number__gte=OuterRef("from_hand"),
            number__lte=Coalesce(OuterRef("to_hand"), Value(_LAST_HAND)),
        )
        .order_by("-number")
        .values("logged_at")[:1]
    )
    spans: defaultdict[tuple[int, int], list[tuple[datetime, datetime]]] = defaultdict(list)
    for event_id, guest_id, seated, opened, last in (
        seatings.annotate(last=Subquery(last_hand))
        .values_list("shoe__event_id", "guest_id", "seated_at", "shoe__opened_at", "last")
        .order_by()
    ):
        start = max(seated, opened)
        if last is not None and last > start:
            spans[(event_id, guest_id)].append((start, last))
    for key, intervals in spans.items():
        rating = found.get(key)
        if rating is None:  # seated, never staked: no rating
            continue
        seconds, reach = 0.0, None
        for start, end in sorted(intervals):
            begin = start if reach is None else max(start, reach)
            if end > begin:
                seconds += (end - begin).total_seconds()
            reach = end if reach is None else max(reach, end)
        rating.seconds = int(seconds)


@dataclass
class GuestRatings:
    """A guest's ratings as their page shows them: the latest nights (newest first), each
    calendar year's (newest first), and the steps of the chart: the guest's expected and actual
    loss (in Punto Banco the house's theoretical and actual win) added up night by night, with
    the standard deviation of the sum so far."""

    nights: list[tuple[Event, Rating]]
    seasons: list[tuple[int, Rating]]
    labels: list[str]
    theo: list[Decimal]
    actual: list[Decimal]
    sd: list[Decimal]


def seasons_of(ratings: Ratings) -> list[tuple[int, Ratings]]:
    """The ratings cut by calendar year (the House page's and the season workbook's season),
    newest first."""
    years: dict[int, list[NightRatings]] = {}
    for night in ratings.nights:
        years.setdefault(night.event.date.year, []).append(night)
    cut = []
    for year, nights in sorted(years.items(), reverse=True):
        totals: dict[int, Rating] = {}
        house = Rating(0, "")
        for night in nights:
            for rating in night.guests:
                totals.setdefault(rating.guest_id, Rating(rating.guest_id, rating.name)).add(rating)
            house.add(night.house)
        ranked = sorted(totals.values(), key=lambda r: (-r.theo_exact, r.name.casefold()))
        cut.append((year, Ratings(nights, ranked, house)))
    return cut


def guest_ratings(
    guest_id: int, events: Iterable[Event], *, latest: int, charted: int
) -> GuestRatings:
    """One guest's ratings at ``events`` (oldest first): the ``latest`` nights in full, each
    year's, and a chart over the ``charted`` latest nights. Three queries."""
    ratings = ratings_for(events, guest_id=guest_id)
    played = [(n.event, n.guests[0]) for n in ratings.nights if n.guests]
    seasons = []
    for year, of_year in seasons_of(ratings):
        found = of_year.guest(guest_id)
        if found is not None:
            seasons.append((year, found))
    labels, theo, actual, sd = [], [], [], []
    running = Rating(guest_id, "")
    for event, rating in played[-charted:]:
        running.add(rating)
        labels.append(f"{event.date:%m/%d}")
        theo.append(running.expected_loss)
        actual.append(running.priced_loss)
        sd.append(running.sd)
    return GuestRatings(played[-latest:][::-1], seasons, labels, theo, actual, sd)
