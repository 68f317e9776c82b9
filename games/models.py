"""Nights, shoes and hands as played. Money (guests, bets, balances) lives in ``ledger``."""

from __future__ import annotations

import re
import zoneinfo
from datetime import time
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from games.cards import MAX_DECKS, MIN_DECKS, Card, parse_cards
from games.chips import MoneyField, table_limit_validators
from games.currencies import DEFAULT_CURRENCY, currency_sign, is_currency
from games.kinds import (
    BANK_ROTATION_LABELS,
    SEATS,
    SUITE_RETURN_LABELS,
    TABLE_SEATS,
    BancoKind,
    BankRotation,
    Game,
    SuiteReturn,
    seats_of,
)
from games.messages import Translate, gettext_noop, render, untranslated
from games.payouts import ROUNDING_LABELS, ChipRounding, Rounding, RuleSet
from games.rules import Hand as DealtHand
from games.rules import Outcome, Winner

if TYPE_CHECKING:
    from games.entry import TableRules
    from games.guest_banked.terms import BankRules


def standard_rules() -> dict[str, object]:
    return RuleSet().to_dict()


MSG_CUT_PERCENT = gettext_noop("the house takes {percent}% of each winning bank")
MSG_CUT_PER_SHOE = gettext_noop("a table charge of {charge} a shoe")
MSG_CUT_CAPITAL = gettext_noop("the house takes 5% of the capital brought in")
MSG_CUT_WINNINGS = gettext_noop("the house takes a share of the bank's winnings")
# What a night calls the house's cut on the results (and in yen): a guest-banked game's taxe,
# Punto Banco's commission.
CUT_NAMES = {False: _("Commission"), True: _("Taxe")}
# "Commission (€)": the cut's money column, the night's currency sign in its brackets.
CUT_NAMES_MONEY = {False: _("Commission ({sign})"), True: _("Taxe ({sign})")}
MSG_UNKNOWN_CURRENCY = _("Choose a currency by its ISO 4217 code (JPY, EUR, USD, KRW…).")
BANCO_LABELS = {
    BancoKind.LIMITEE: gettext_noop("Banque limitée"),
    BancoKind.OUVERTE: gettext_noop("Banque ouverte"),
}
MAX_HANDS_PER_SHOE = 999  # eight decks deal about 80; the column holds no more than 32,767
MAX_HAND_NUMBER = 32767  # the column is a small integer on every database


MSG_UNKNOWN_ZONE = _("Choose a time zone by its name (Asia/Tokyo, Europe/Paris…).")


def validate_zone(name: str) -> None:
    try:
        zoneinfo.ZoneInfo(name)
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        raise ValidationError(MSG_UNKNOWN_ZONE, code="time_zone") from None


def default_zone() -> str:
    return str(settings.TIME_ZONE)


def validate_currency(code: str) -> None:
    if not is_currency(code):
        raise ValidationError(MSG_UNKNOWN_CURRENCY, code="currency")


# A tournament table's name, stored in English as written here and worded when shown
# (``Event.title``), so that it reads in each reader's language.
TABLE_NAME = gettext_noop("{tournament} · round {round} · table {table}")
_TABLE_NAME = re.compile(r"^(?P<tournament>.*) · round (?P<round>\d+) · table (?P<table>\d+)$")


def table_name(tournament: str, round_number: int, table: int) -> str:
    """The name a tournament table's event is stored under (see ``TABLE_NAME``)."""
    return TABLE_NAME.format(tournament=tournament, round=round_number, table=table)


def shown_name(name: str) -> str:
    """``name`` in the reader's language if it is a generated table name, else as it is."""
    generated = _TABLE_NAME.match(name)
    if generated is None:
        return name
    return str(_(TABLE_NAME)).format(**generated.groupdict())


class EventQuerySet(models.QuerySet["Event"]):
    def nights(self) -> EventQuerySet:
        """Cash nights and tournaments: what a guest's money and a host's lists count. A
        tournament's tables (in tournament chips) are reached through their tournament."""
        return self.exclude(kind=Event.Kind.TOURNAMENT_TABLE)


class Series(models.Model):
    """Nights that recur: when they fall (``ledger.series.recurrence`` reads the rule), where,
    and the settings each new night of it takes. Its usual guests are the ledger's
    (``ledger.models.SeriesGuest``); each night points back at it (``Event.series``)."""

    class Recurrence(models.TextChoices):
        WEEKLY = "weekly", _("Every week, on a weekday")
        MONTHLY_WEEKDAY = "month_weekday", _("Every month, on the n-th weekday")
        MONTHLY_DAY = "month_day", _("Every month, on a day of the month")
        BY_HAND = "by_hand", _("By hand: I choose each date")

    class Weekday(models.IntegerChoices):
        MONDAY = 0, _("Monday")
        TUESDAY = 1, _("Tuesday")
        WEDNESDAY = 2, _("Wednesday")
        THURSDAY = 3, _("Thursday")
        FRIDAY = 4, _("Friday")
        SATURDAY = 5, _("Saturday")
        SUNDAY = 6, _("Sunday")

    class Week(models.IntegerChoices):
        FIRST = 1, _("first")
        SECOND = 2, _("second")
        THIRD = 3, _("third")
        FOURTH = 4, _("fourth")
        LAST = 5, _("last")

    name = models.CharField(_("name"), max_length=120)
    recurrence = models.CharField(
        _("recurs"), max_length=16, choices=Recurrence.choices, default=Recurrence.WEEKLY
    )
    weekday = models.PositiveSmallIntegerField(
        _("weekday"), choices=Weekday.choices, default=Weekday.FRIDAY
    )
    week_of_month = models.PositiveSmallIntegerField(
        _("week of the month"), choices=Week.choices, default=Week.FIRST
    )
    # A shorter month's night falls on its last day (the 31st: 30 April, 28 or 29 February).
    day_of_month = models.PositiveSmallIntegerField(
        _("day of the month"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(31)],
        help_text=_("A shorter month's night falls on its last day."),
    )
    starts_at = models.TimeField(_("starts at"), default=time(19, 0))
    # An IANA zone: the calendar feed's start times are in it, across daylight saving.
    time_zone = models.CharField(
        _("time zone"), max_length=64, default=default_zone, validators=[validate_zone]
    )
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    # The settings each new night takes, as ``games.services.event_create`` takes them (the
    # rules as a rule set's dict, amounts as text): copied from a night, never a reference.
    night_settings = models.JSONField(default=dict, editable=False)
    # The count's setup each new night takes (``ledger.models.CountSetup``: denominations,
    # the tray at the open, count-only), or empty when the night it came from had none.
    count_setup = models.JSONField(null=True, blank=True, editable=False)
    # The host's calendar feed: 256 random bits, empty when revoked.
    feed_token = models.CharField(max_length=64, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = [Lower("name"), "id"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(
                condition=Q(day_of_month__gte=1, day_of_month__lte=31),
                name="series_day_of_month_1_to_31",
            ),
            models.CheckConstraint(
                condition=Q(weekday__gte=0, weekday__lte=6), name="series_weekday_0_to_6"
            ),
            models.CheckConstraint(
                condition=Q(week_of_month__gte=1, week_of_month__lte=5),
                name="series_week_1_to_5",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Event(models.Model):
    class Kind(models.TextChoices):
        CASH = "cash", _("Cash night")
        # The night of a tournament: its entry fees and prizes are the guests' results there.
        TOURNAMENT = "tournament", _("Tournament")
        # One table of one round of a tournament: its bets are in tournament chips, so they never
        # reach a guest's balance (no ``GuestEventResult`` is kept for it).
        TOURNAMENT_TABLE = "table", _("Tournament table")

    class Format(models.TextChoices):
        BIG = "big", _("Big baccarat")
        MIDI = "midi", _("Midi baccarat")
        MINI = "mini", _("Mini baccarat")

    class Cut(models.TextChoices):
        # Chemin de fer
        PERCENT = "percent", _("A share of each winning bank (Chemin de fer)")
        PER_SHOE = "per_shoe", _("A table charge per shoe (Chemin de fer)")
        # Baccara banque
        CAPITAL = "capital", _("5% of the capital brought in (Baccara banque)")
        WINNINGS = "winnings", _("A share of the bank's winnings (Baccara banque)")

    class Clearing(models.TextChoices):
        DIRECT = "direct", _("Guests pay each other (fewest transfers)")
        HOUSE = "house", _("Everyone settles with the house")

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(
        _("game"),
        max_length=16,
        choices=[(game.value, _(game.label)) for game in Game],
        default=Game.PUNTO_BANCO.value,
    )
    # A guest-banked game's cut and how its night settles; Punto Banco reads none of them.
    taxe = models.CharField(
        _("house's cut"), max_length=8, choices=Cut.choices, default=Cut.PERCENT
    )
    taxe_rate = models.DecimalField(
        _("cut rate"),
        max_digits=5,
        decimal_places=4,
        default=Decimal("0.05"),
        help_text=_("Chemin de fer: the share of a winning bank the house takes (5%: 0.05)."),
    )
    shoe_charge = MoneyField(_("table charge per shoe"), default=Decimal(0))
    banco = models.CharField(
        _("bank"),
        max_length=8,
        choices=[
            (BancoKind.LIMITEE.value, _("Banque limitée")),
            (BancoKind.OUVERTE.value, _("Banque ouverte")),
        ],
        default=BancoKind.LIMITEE.value,
    )
    clearing = models.CharField(
        _("settling up"), max_length=6, choices=Clearing.choices, default=Clearing.DIRECT
    )
    # Chemin de fer: whose right a suite of a suite returns to when it loses (docs/rules.md).
    suite_returns = models.CharField(
        _("a suite of a suite that loses returns"),
        max_length=8,
        choices=[(way.value, _(label)) for way, label in SUITE_RETURN_LABELS.items()],
        default=SuiteReturn.GIVER.value,
    )
    # Chemin de fer: how the bank goes round, as the release the night was played under read it
    # (games.kinds.BankRotation). Not the host's choice: a night keeps the rule it was played
    # under, and an upgrade's migration gives nights played before a change the earlier reading.
    bank_rotation = models.CharField(
        _("how the bank went round"),
        max_length=12,
        choices=[(way.value, _(label)) for way, label in BANK_ROTATION_LABELS.items()],
        default=BankRotation.SKIPS_LOSER.value,
        editable=False,
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CASH, editable=False)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    format = models.CharField(
        _("format"), max_length=4, choices=Format.choices, default=Format.MINI
    )
    # A copy of the rule set, never a reference: editing a rule set later must not change the
    # results of nights already played.
    rules = models.JSONField(default=standard_rules)
    decks = models.PositiveSmallIntegerField(_("decks"), default=8)
    currency_symbol = models.CharField(_("currency symbol"), max_length=4, default="$")
    # The ISO 4217 code the chips are worth money in; nights recorded before it are in yen.
    currency = models.CharField(
        _("currency"),
        max_length=3,
        default=DEFAULT_CURRENCY,
        validators=[validate_currency],
    )
    money_per_chip = models.DecimalField(
        _("money per chip"),
        max_digits=12,
        decimal_places=4,
        default=Decimal(100),
        help_text=_(
            "What one chip unit is worth in the night's currency (the reference night: $1 = ¥100)."
        ),
    )
    table_min = MoneyField(
        _("table minimum"), default=Decimal(10), validators=table_limit_validators()
    )
    table_max = MoneyField(
        _("table maximum"), default=Decimal(1000), validators=table_limit_validators()
    )
    # Punto Banco: how payouts and commission are rounded (games.payouts.Rounding), to the
    # smallest chip below. A rule the night keeps: nights recorded before it existed read
    # "exact" (to the cent), as they were settled.
    rounding = models.CharField(
        _("rounding"),
        max_length=8,
        choices=[(way.value, _(label)) for way, label in ROUNDING_LABELS.items()],
        default=Rounding.EXACT.value,
        help_text=_("Each payout and commission is handed over in chips, bet by bet."),
    )
    smallest_chip = MoneyField(
        _("smallest chip"),
        default=Decimal("0.01"),
        help_text=_("What the table's smallest chip is worth, in chips (a $0.50 chip: 0.50)."),
    )
    # Every stake a multiple of it (a tournament round's bet unit); empty: any amount in cents.
    bet_unit = MoneyField(null=True, blank=True)  # type: ignore[misc]  # reads None too
    hands_per_shoe = models.PositiveSmallIntegerField(
        _("hands per shoe"), default=40, validators=[MaxValueValidator(MAX_HANDS_PER_SHOE)]
    )
    # The seats its table has: a cash night's 7; a tournament table its tournament's seats per
    # table, set as the round is drawn. Not a setting a host types.
    seats = models.PositiveSmallIntegerField(default=TABLE_SEATS, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The read-only table display's link (a TV at the bar): 256 random bits, empty when revoked.
    display_token = models.CharField(max_length=64, blank=True, default="")
    # The night's results shared with the group by link (a chat group): 256 random bits, empty
    # when there is none or it was revoked.
    results_token = models.CharField(max_length=64, blank=True, default="")
    # Whether the results page a host shares with the group shows guests' names; off, each is
    # "Guest 1", "Guest 2"... in order of result. Off unless the host turns it on.
    # The series the night belongs to (made from it, or the night it was made from).
    series = models.ForeignKey(
        Series,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="nights",
        editable=False,
    )
    # The tap that made it from its series ("Next night"): a second tap answers with this night.
    series_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    share_names = models.BooleanField(
        default=False,
        help_text=_("Show guests' names on the results shared with the group."),
    )

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            # A series' calendar has one night a date (its feed's UID is the series and the date).
            models.UniqueConstraint(
                fields=["series", "date"],
                condition=Q(series__isnull=False),
                name="event_one_night_a_date_in_its_series",
                violation_error_message=_("Its series already has a night on this date."),
            ),
            models.CheckConstraint(
                condition=Q(decks__gte=MIN_DECKS, decks__lte=MAX_DECKS),
                name="event_decks_1_to_8",
                violation_error_message=_("A shoe holds 1 to 8 decks."),
            ),
            models.CheckConstraint(
                condition=Q(table_min__gt=0),
                name="event_table_min_positive",
                violation_error_message=_("The table minimum must be more than zero."),
            ),
            models.CheckConstraint(
                condition=Q(table_max__gte=F("table_min")),
                name="event_table_max_over_min",
                violation_error_message=_("The table maximum is under the minimum."),
            ),
            models.CheckConstraint(
                condition=Q(money_per_chip__gt=0),
                name="event_money_rate_positive",
                violation_error_message=_("The chip rate must be more than zero."),
            ),
            models.CheckConstraint(
                condition=Q(smallest_chip__gt=0),
                name="event_smallest_chip_positive",
                violation_error_message=_("The smallest chip must be more than zero."),
            ),
            models.CheckConstraint(
                condition=Q(rounding__in=[way.value for way in Rounding]),
                name="event_rounding_known",
                violation_error_message=_("Not a way of rounding."),
            ),
            models.CheckConstraint(
                condition=Q(bet_unit__isnull=True) | Q(bet_unit__gt=0),
                name="event_bet_unit_positive",
                violation_error_message=_("The bet unit must be more than zero."),
            ),
            models.CheckConstraint(
                condition=Q(taxe_rate__gte=0, taxe_rate__lte=Decimal("0.10")),
                name="event_taxe_rate_0_to_10_percent",
                violation_error_message=_("The cut runs from 0 to 10%%."),
            ),
            models.CheckConstraint(
                condition=Q(shoe_charge__gte=0),
                name="event_shoe_charge_not_negative",
                violation_error_message=_("The table charge cannot be negative."),
            ),
            models.CheckConstraint(
                condition=Q(seats__gte=1, seats__lte=len(SEATS)),
                name="event_seats_1_to_9",
                violation_error_message=_("A table has 1 to 9 seats."),
            ),
            models.CheckConstraint(
                condition=Q(hands_per_shoe__gt=0, hands_per_shoe__lte=MAX_HANDS_PER_SHOE),
                name="event_hands_per_shoe_positive",
                violation_error_message=_("A shoe is planned at 1 to 999 hands."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def rule_set(self) -> RuleSet:
        return RuleSet.from_dict(self.rules)

    @property
    def table_rules(self) -> TableRules:
        """What the rules core needs to check a hand of this event."""
        # Imported here, like the bank's rules below: loading the models (every command, every
        # worker's start) need not build the pipeline's dataclasses.
        from games.entry import TableRules

        return TableRules(
            self.rule_set,
            self.decks,
            self.table_min,
            self.table_max,
            unit=self.bet_unit,
            seats=self.seats,
            rounding=self.chip_rounding,
        )

    @property
    def chip_rounding(self) -> ChipRounding:
        """How the night rounds a bet's payout and commission (Punto Banco)."""
        return ChipRounding(Rounding(self.rounding), self.smallest_chip)

    @property
    def rounding_rule(self) -> str:
        """The night's rounding in words, in the reader's language, for a night that rounds to
        its smallest chip (a receipt states it); empty for one counted to the cent."""
        if self.is_guest_banked or self.rounding == Rounding.EXACT:
            return ""
        return capfirst(self.chip_rounding.describe(gettext))

    @property
    def seat_numbers(self) -> range:
        """The seats of its table, 1 to :attr:`seats`."""
        return seats_of(self.seats)

    @property
    def game_kind(self) -> Game:
        return Game(self.game)

    @property
    def is_guest_banked(self) -> bool:
        return self.game_kind.guest_banked

    @property
    def title(self) -> str:
        """The name as the reader's language writes it: a tournament table's generated name
        (``table_name``) in words of that language, any other name as the host typed it."""
        return shown_name(self.name)

    @property
    def cut_name(self) -> str:
        return str(CUT_NAMES[self.is_guest_banked])

    @property
    def cut_name_money(self) -> str:
        return str(CUT_NAMES_MONEY[self.is_guest_banked]).format(sign=self.currency_sign)

    @property
    def currency_sign(self) -> str:
        """The currency's sign in the reader's language: ¥, €, ₩, KWD."""
        return currency_sign(self.currency, to_locale(get_language() or "en"))

    def describe_rules(self, translate: Translate = untranslated) -> str:
        """The night's rules in a line: Punto Banco's payouts, or a guest-banked game and the
        house's cut."""
        if not self.is_guest_banked:
            rules = self.rule_set.describe(translate)
            if self.rounding == Rounding.EXACT:  # every night before the rule: said as it was
                return rules
            return f"{rules}; {self.chip_rounding.describe(translate)}"
        percent = f"{(self.taxe_rate * 100).normalize():f}"
        cut = {
            self.Cut.PERCENT: (MSG_CUT_PERCENT, {"percent": percent}),
            self.Cut.PER_SHOE: (MSG_CUT_PER_SHOE, {"charge": f"{self.shoe_charge:,.2f}"}),
            self.Cut.CAPITAL: (MSG_CUT_CAPITAL, {}),
            self.Cut.WINNINGS: (MSG_CUT_WINNINGS, {}),
        }[self.Cut(self.taxe)]
        parts = [translate(self.game_kind.label), render(cut[0], cut[1], translate)]
        if self.game_kind is Game.BACCARA_BANQUE:
            parts.insert(1, translate(BANCO_LABELS[BancoKind(self.banco)]))
        return " · ".join(parts)

    @property
    def bank_rules(self) -> BankRules:
        """What the rules core needs to check a coup of this event's guest-banked game."""
        from games.guest_banked.banque_money import BanqueTaxe, BanqueTaxeKind
        from games.guest_banked.chemin_money import Taxe, TaxeKind
        from games.guest_banked.terms import BankRules

        per_shoe = self.taxe == self.Cut.PER_SHOE
        taxe_kind = TaxeKind.FIXED_PER_SHOE if per_shoe else TaxeKind.PERCENT_OF_BANKER_WIN
        taxe = Taxe(taxe_kind, self.taxe_rate)
        banque_kind = (
            BanqueTaxeKind.WINNINGS if self.taxe == self.Cut.WINNINGS else BanqueTaxeKind.CAPITAL
        )
        return BankRules(
            game=self.game_kind,
            minimum_banco=self.table_min,
            decks=self.decks,
            taxe=taxe,
            shoe_charge=self.shoe_charge if self.taxe == self.Cut.PER_SHOE else Decimal(0),
            banque_taxe=BanqueTaxe(banque_kind, BancoKind(self.banco)),
            suite_returns=SuiteReturn(self.suite_returns),
            rotation=BankRotation(self.bank_rotation),
        )

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    @property
    def is_tournament_table(self) -> bool:
        return self.kind == self.Kind.TOURNAMENT_TABLE


class Shoe(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="shoes")
    number = models.PositiveSmallIntegerField()
    opened_at = models.DateTimeField(default=timezone.now)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="shoe_number_unique"),
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(closed_at__isnull=True),
                name="one_open_shoe_per_event",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="shoe_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event.name} · shoe {self.number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Hand(models.Model):
    class Result(models.TextChoices):
        PLAYER = Winner.PLAYER.value, _("Player")
        BANKER = Winner.BANKER.value, _("Banker")
        TIE = Winner.TIE.value, _("Tie")

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveSmallIntegerField()
    player_cards = models.CharField(max_length=24, blank=True)
    banker_cards = models.CharField(max_length=24, blank=True)
    winner = models.CharField(max_length=6, choices=Result.choices)
    player_pair = models.BooleanField(default=False)
    banker_pair = models.BooleanField(default=False)
    idempotency_key = models.UUIDField(null=True, blank=True, unique=True)
    # The fingerprint of the entry first saved under that key (``HandEntry.digest``): a retry
    # matches it; the same key with other cards or bets is refused.
    entry_digest = models.CharField(max_length=64, blank=True, default="")
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    logged_at = models.DateTimeField(default=timezone.now)
    version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["shoe", "number"]
        constraints = [
            models.UniqueConstraint(fields=["shoe", "number"], name="hand_number_unique_in_shoe"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(player_cards="", banker_cards="")
                | (~Q(player_cards="") & ~Q(banker_cards="")),
                name="hand_cards_on_both_sides_or_none",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.shoe} · hand {self.number}"

    @property
    def has_cards(self) -> bool:
        return bool(self.player_cards)

    @property
    def cards(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        return parse_cards(self.player_cards), parse_cards(self.banker_cards)

    def outcome(self) -> Outcome:
        if self.has_cards:
            player, banker = self.cards
            return DealtHand(player, banker).outcome()
        return Outcome(
            Winner(self.winner), player_pair=self.player_pair, banker_pair=self.banker_pair
        )
