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

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cache

from django.db.models import (
    Count,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce

from games.kinds import Game
from games.models import Event, Hand
from games.payouts import BankedBet, BetType, RuleSet, round_money
from games.theo import Moments, NotPriced, hand_moments, punto_banco_moments, stake_moments
from ledger.models import Bet, Seating
from ledger.money.amounts import ZERO, MoneyByCurrency, add_money, money_sum, to_money

PERCENT = Decimal("0.01")
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


Kind = tuple[str, str]  # a stake's bet type and cover kind
Pair = tuple[Kind, Kind]  # two kinds, in order: a term of a hand's variance


@cache
def _covariance(event_key: tuple[str, str, int], first: str, second: str) -> Fraction:
    """Between one unit on each of two Punto Banco bets on one hand: their results move
    together (Banker and Player never both win). From ``hand_moments``' count of every deal;
    nothing where it cannot count them together (a pair with another bet: taken as apart)."""
    _game, rules_json, decks = event_key
    rules = RuleSet.from_dict(json.loads(rules_json))
    try:
        both = hand_moments(
            rules, decks, {BetType(first): Fraction(1), BetType(second): Fraction(1)}
        )
        alone = [
            punto_banco_moments(rules, BetType(bet), decks).variance for bet in (first, second)
        ]
    except (NotPriced, ValueError):
        return Fraction(0)
    return (4 * both.variance - alone[0] - alone[1]) / 2  # per unit of the two (2 staked)


def _pair_weight(
    event: Event, pair: Pair, tableaux: tuple[Decimal, Decimal] | None
) -> Fraction | None:
    """What the product of two kinds' stakes on one hand adds to the variance (per chip²): a
    kind's variance with itself, twice the covariance of two; None for a kind not priced."""
    (first, first_cover), (second, _cover) = pair
    if pair[0] == pair[1]:
        moments = _moments(event, first, first_cover, tableaux)
        return None if moments is None else moments.variance
    if event.is_guest_banked:
        return Fraction(0)  # a bank and a cover are two guests'; one guest's two covers alike
    for bet, cover in pair:
        if _moments(event, bet, cover) is None:
            return None
    return 2 * _covariance(_event_key(event), first, second)


def _event_key(event: Event) -> tuple[str, str, int]:
    return (event.game, json.dumps(event.rule_set.to_dict(), sort_keys=True), event.decks)


def _add_hand(products: defaultdict[Pair, int], stakes: dict[Kind, int]) -> None:
    """One hand's stakes (cents, by kind) into the sums of their products, kind by kind."""
    kinds = sorted(stakes)
    for index, first in enumerate(kinds):
        for second in kinds[index:]:
            products[(first, second)] += stakes[first] * stakes[second]


def _variance(
    event: Event, products: dict[Pair, int], tableaux: tuple[Decimal, Decimal] | None = None
) -> Fraction:
    total = Fraction(0)
    for pair, product in products.items():
        weight = _pair_weight(event, pair, tableaux)
        if weight is not None:
            total += Fraction(product, 10_000) * weight  # cents² to chips²
    return total


def ratings_for(events: Iterable[Event], *, guest_id: int | None = None) -> Ratings:
    """The ratings at ``events`` (in the order given), of every guest who staked there or of
    ``guest_id`` alone. Two queries after the events'; one more with a night of Baccara
    banque.

    The stakes are read per hand (summed per guest, hand and kind in SQL), as the spread of a
    result needs them: two bets on one hand move together, and a hand's stakes of all the
    guests move together for the house."""
    ordered = list(events)
    by_id = {event.pk: event for event in ordered}
    bets = Bet.objects.filter(event_id__in=list(by_id))
    seatings = Seating.objects.filter(shoe__event_id__in=list(by_id))
    if guest_id is not None:
        bets, seatings = bets.filter(guest_id=guest_id), seatings.filter(guest_id=guest_id)
    banque = [event.pk for event in ordered if event.game == Game.BACCARA_BANQUE]
    tableaux = _tableau_stakes(banque)
    found: dict[tuple[int, int], Rating] = {}
    groups: dict[tuple[int, int, str, str, int], list[Decimal]] = {}
    hands: defaultdict[tuple[int, int], dict[int, dict[Kind, int]]] = defaultdict(dict)
    dealt: defaultdict[int, dict[int, dict[Kind, int]]] = defaultdict(dict)
    counts: Counter[tuple[int, int]] = Counter()
    for row in (
        bets.values("event_id", "guest_id", "guest__name", "hand_id", "bet_type", "cover_kind")
        .annotate(
            n=Count("id"),
            staked=money_sum("stake"),
            net=money_sum("net"),
            cut=money_sum("commission"),
        )
        .order_by()
    ):
        event_id, guest, hand = row["event_id"], row["guest_id"], row["hand_id"]
        if (event_id, guest) not in found:
            found[(event_id, guest)] = Rating(guest, row["guest__name"], nights=1)
        counts[(event_id, guest)] += row["n"]
        # A Baccara banque stake is priced coup by coup (its coup's tableaux), others by kind.
        coup = hand if by_id[event_id].game == Game.BACCARA_BANQUE else 0
        sums = groups.setdefault(
            (event_id, guest, row["bet_type"], row["cover_kind"], coup), [ZERO, ZERO, ZERO]
        )
        sums[0] += row["staked"]
        sums[1] += row["net"]
        sums[2] += row["cut"]
        kind, cents = (row["bet_type"], row["cover_kind"]), int(row["staked"] * 100)
        on_hand = hands[(event_id, guest)].setdefault(hand, {})
        on_hand[kind] = on_hand.get(kind, 0) + cents
        if guest_id is None:
            house_hand = dealt[event_id].setdefault(hand, {})
            house_hand[kind] = house_hand.get(kind, 0) + cents
    for (event_id, guest, bet_type, cover_kind, coup), (handle, net, cut) in groups.items():
        event = by_id[event_id]
        rating = found[(event_id, guest)]
        rating.handle += handle
        rating.loss -= net
        rating.actual += cut if event.is_guest_banked else -net
        if event.is_guest_banked and event.taxe in FIXED_CUTS:
            # Known, not expected: the theoretical win holds it as it is, and the bank's
            # expected loss too (it is in the bank's net).
            rating.theo_exact += Fraction(cut)
            rating.expected_loss_exact += Fraction(cut)
        moments = _moments(event, bet_type, cover_kind, tableaux.get(coup))
        if moments is None:
            rating.unpriced += handle
            rating.unpriced_loss -= net
            continue
        rating.theo_exact += Fraction(handle) * moments.house_edge
        rating.expected_loss_exact -= Fraction(handle) * moments.mean
    for (event_id, guest), by_hand in hands.items():
        rating = found[(event_id, guest)]
        rating.hands, rating.stakes = len(by_hand), counts[(event_id, guest)]
        rating.variance_exact = _hands_variance(by_id[event_id], by_hand, tableaux)
    _time_at_table(seatings, found)
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
        _as_the_house(house, event, dealt.get(event.pk, {}), tableaux)
        nights.append(NightRatings(event, mine, house))
    return over_nights(nights)


def over_nights(nights: list[NightRatings]) -> Ratings:
    """Each guest's and the house's ratings over these nights, added up: the highest
    theoretical win first."""
    totals: dict[int, Rating] = {}
    house = Rating(0, "")
    for night in nights:
        for rating in night.guests:
            totals.setdefault(rating.guest_id, Rating(rating.guest_id, rating.name)).add(rating)
        house.add(night.house)
    ranked = sorted(totals.values(), key=lambda r: (-r.theo_exact, r.name.casefold()))
    return Ratings(nights, ranked, house)


def _hands_variance(
    event: Event,
    by_hand: dict[int, dict[Kind, int]],
    tableaux: dict[int, tuple[Decimal, Decimal]],
) -> Fraction:
    """The variance of a result over these hands (their stakes in cents, by kind): each hand's
    stakes together, the hands apart (each deal is its own). A Baccara banque coup is priced
    with its own tableaux; every other night's hands add their products first."""
    if event.game == Game.BACCARA_BANQUE:
        total = Fraction(0)
        for hand, stakes in by_hand.items():
            products: defaultdict[Pair, int] = defaultdict(int)
            _add_hand(products, stakes)
            total += _variance(event, products, tableaux.get(hand))
        return total
    products = defaultdict(int)
    for stakes in by_hand.values():
        _add_hand(products, stakes)
    return _variance(event, products)


def _as_the_house(
    house: Rating,
    event: Event,
    dealt: dict[int, dict[Kind, int]],
    tableaux: dict[int, tuple[Decimal, Decimal]],
) -> None:
    """The night's house: its guests' figures added up, but the hands it dealt (not the guests'
    hands added up), and the spread of its result from every guest's stakes on a hand together
    (they share the deal). Where a guest banks, the house's result is its cut, whose spread is
    not the guests' stakes': its SD and z leave such a night out."""
    house.nights = 1
    if not dealt:  # one guest's ratings: no house
        return
    house.hands = len(dealt)
    if event.is_guest_banked:
        house.variance_exact = Fraction(0)
        house.unpriced_loss = house.loss  # out of z, as a stake not priced is
        house.expected_loss_exact = Fraction(0)
        return
    house.variance_exact = _hands_variance(event, dealt, tableaux)


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
        cut.append((year, over_nights(nights)))
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
