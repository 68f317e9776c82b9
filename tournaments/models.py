"""Tournaments: equal stacks over rounds and tables.

A tournament is played on an event of its own (``Event.Kind.TOURNAMENT``: its date, venue,
currency, chip rate and rules), where its money is recorded as ``ledger.Charge`` rows. Each
table of each round is an event too (``Event.Kind.TOURNAMENT_TABLE``) with one shoe, so its hands
go through the same table page, keypad, rules core, undo and correction as a cash night; its bets
are in tournament chips and never reach a balance. A player's stack there is the sum of their
``ledger.StackRow`` rows and their bets' net results.
"""

from __future__ import annotations

import secrets
from decimal import Decimal

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS, MoneyField, table_limit_validators
from games.kinds import SEATS, TABLE_SEATS, ShortStack
from games.models import Event
from ledger.models import Guest

MAX_ROUND_HANDS = 99
# Bounds for the counts a host types (a PositiveSmallIntegerField holds up to 32,767 on
# PostgreSQL and anything on SQLite: one bound, whatever the database).
MAX_ROUNDS = 99  # a round's number in the rebuy and add-on settings; rebuys per player
MAX_GOING_ON = 999  # wildcards, or how many go on by stack
MIN_TABLE_SEATS = 6
MAX_TABLE_SEATS = SEATS.stop - 1  # the most seats a table has


def new_seed() -> int:
    return secrets.randbelow(2**31)


class Tournament(models.Model):
    class Advancement(models.TextChoices):
        BY_TABLE = "by_table", _("Top places at each table, plus wildcards")
        BY_STACK = "by_stack", _("The biggest stacks across all tables")

    class Stacks(models.TextChoices):
        RESET = "reset", _("Reset to the starting stack each round")
        CARRIED = "carried", _("Carried over to the next round")

    class TieBreakChoice(models.TextChoices):
        SPLIT = "split", _("Split: equal stacks share (places and their prizes)")
        PLAYOFF = "playoff", _("A one-hand play-off between the tied players")

    class SecretBet(models.TextChoices):
        OFF = "off", _("No secret bet")
        LAST_HAND = "last", _("One secret bet, on the last hand of a round")
        ANY_HAND = "any", _("One secret bet per round, on any hand")

    class FinalOverflow(models.TextChoices):
        PLAYOFF = "playoff", _("A play-off for the last seats: the final is one table")
        SECOND_TABLE = "second", _("A second final table: places by stack across both")

    class MandatorySide(models.TextChoices):
        BANKER = "banker", _("Banker")
        PLAYER = "player", _("Player")

    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="tournament")
    entry_fee = MoneyField(_("entry fee"), validators=[MaxValueValidator(MAX_CHIPS)])
    cut_percent = models.DecimalField(
        _("house cut (%)"),
        max_digits=5,
        decimal_places=2,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
    )
    cut_fixed = MoneyField(
        _("house cut per entry"),
        default=Decimal(0),
        validators=[MaxValueValidator(MAX_CHIPS)],
        help_text=_("A fixed amount of each entry fee the house keeps (the 5 of “50 + 5”)."),
    )
    starting_stack = MoneyField(
        _("starting stack"), default=Decimal(1000), validators=[MaxValueValidator(MAX_CHIPS)]
    )
    stacks = models.CharField(
        _("stacks between rounds"), max_length=8, choices=Stacks.choices, default=Stacks.RESET
    )
    advancement = models.CharField(
        _("advancement"), max_length=8, choices=Advancement.choices, default=Advancement.BY_TABLE
    )
    tie_break = models.CharField(
        _("tie-break"), max_length=8, choices=TieBreakChoice.choices, default=TieBreakChoice.SPLIT
    )
    seats_per_table = models.PositiveSmallIntegerField(
        _("seats per table"),
        default=TABLE_SEATS,
        validators=[MinValueValidator(MIN_TABLE_SEATS), MaxValueValidator(MAX_TABLE_SEATS)],
        help_text=_("How many players the draw seats at a table, the final table too."),
    )
    final_overflow = models.CharField(
        _("more players than the final's seats"),
        max_length=8,
        choices=FinalOverflow.choices,
        default=FinalOverflow.SECOND_TABLE,
        help_text=_(
            "When split ties would send more players to the final than a table seats. Stated"
            " before the round that sends them is drawn."
        ),
    )
    secret_bet = models.CharField(
        _("secret bet"), max_length=4, choices=SecretBet.choices, default=SecretBet.OFF
    )
    mandatory_side = models.CharField(
        _("mandatory minimum on"),
        max_length=6,
        choices=MandatorySide.choices,
        default=MandatorySide.BANKER,
        help_text=_("Where the table minimum goes for a player who does not bet in time."),
    )
    short_stack = models.CharField(
        _("a stack under the table minimum"),
        max_length=8,
        choices=[(rule.value, _(rule.label)) for rule in ShortStack],
        default=ShortStack.ALL_IN.value,
        help_text=_(
            "All-in: the player may bet the whole stack, in one bet, under the minimum. Out: the"
            " player is out."
        ),
    )
    rebuy_price = MoneyField(_("rebuy price"), default=Decimal(0))
    rebuy_chips = MoneyField(_("rebuy chips"), default=Decimal(0))
    rebuy_rounds = models.PositiveSmallIntegerField(
        _("rebuys open through round"),
        default=0,
        validators=[MaxValueValidator(MAX_ROUNDS)],
        help_text=_("0: no rebuys. A player may rebuy in rounds 1 to this one."),
    )
    rebuy_until_hand = models.PositiveSmallIntegerField(
        _("rebuys until hand"),
        default=0,
        validators=[MaxValueValidator(MAX_ROUND_HANDS)],
        help_text=_("The last hand of a round after which a rebuy is still taken (0: any)."),
    )
    max_rebuys = models.PositiveSmallIntegerField(
        _("rebuys per player"), default=1, validators=[MaxValueValidator(MAX_ROUNDS)]
    )
    add_on_price = MoneyField(_("add-on price"), default=Decimal(0))
    add_on_chips = MoneyField(_("add-on chips"), default=Decimal(0))
    add_on_round = models.PositiveSmallIntegerField(
        _("add-on in round"),
        default=0,
        validators=[MaxValueValidator(MAX_ROUNDS)],
        help_text=_("0: no add-on. Once per player."),
    )
    prize_table = models.CharField(
        _("prizes"),
        max_length=400,
        default="50%, 30%, 20%",
        help_text=_("Per place, best first: percentages of the pool (50%, 30%, 20%) or amounts."),
    )
    points_table = models.CharField(
        _("season points"),
        max_length=400,
        default="10, 7, 5, 4, 3, 2, 1",
        help_text=_("Points per place for the season standings, best first."),
    )
    seed = models.BigIntegerField(default=new_seed)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(starting_stack__gt=0), name="tournament_stack_positive"
            ),
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0, cut_fixed__gte=0, rebuy_price__gte=0)
                & Q(rebuy_chips__gte=0, add_on_price__gte=0, add_on_chips__gte=0),
                name="tournament_amounts_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(cut_percent__gte=0, cut_percent__lte=100),
                name="tournament_cut_percent_0_to_100",
            ),
        ]

    def __str__(self) -> str:
        return self.event.name

    @property
    def is_finished(self) -> bool:
        return self.finished_at is not None


class Entrant(models.Model):
    """A guest playing a tournament. ``number`` is the order of registration (ties share cents
    in that order); ``place`` and ``prize`` are filled when the final table is settled."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entrants")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveSmallIntegerField()
    registered_at = models.DateTimeField(default=timezone.now)
    out_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = MoneyField(null=True, blank=True)  # type: ignore[misc]  # reads None too

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "guest"], name="entrant_once"),
            models.UniqueConstraint(fields=["tournament", "number"], name="entrant_number_once"),
        ]

    def __str__(self) -> str:
        return str(self.guest)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    is_final = models.BooleanField(_("final table"), default=False)
    hands = models.PositiveSmallIntegerField(
        _("hands"), default=14, validators=[MinValueValidator(1), MaxValueValidator(99)]
    )
    table_min = MoneyField(
        _("minimum bet"), default=Decimal(10), validators=table_limit_validators()
    )
    table_max = MoneyField(
        _("maximum bet"), default=Decimal(1000), validators=table_limit_validators()
    )
    bet_unit = MoneyField(_("bet unit"), default=Decimal(10))
    per_table = models.PositiveSmallIntegerField(
        _("go on from each table"), default=2, validators=[MaxValueValidator(7)]
    )
    wildcards = models.PositiveSmallIntegerField(
        _("wildcards"), default=0, validators=[MaxValueValidator(MAX_GOING_ON)]
    )
    keep = models.PositiveSmallIntegerField(
        _("go on in all"),
        default=0,
        validators=[MaxValueValidator(MAX_GOING_ON)],
        help_text=_("Elimination by stack: how many go on."),
    )
    seed = models.BigIntegerField(default=new_seed)
    drawn_at = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # The host's order of players tied across a cut, after a one-hand play-off: entrant id -> rank
    # (1 best), as text keys (JSON).
    playoff_order = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(hands__gte=1, hands__lte=MAX_ROUND_HANDS), name="round_hands_1_to_99"
            ),
            models.CheckConstraint(
                condition=Q(table_min__gt=0, bet_unit__gt=0) & Q(table_max__gte=F("table_min")),
                name="round_limits_in_order",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.number}"

    @property
    def is_started(self) -> bool:
        return self.started_at is not None

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class TournamentTable(models.Model):
    """One table of a round: its event holds its shoe, its hands and its display link."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="tournament_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
        ]

    def __str__(self) -> str:
        return f"{self.round} · table {self.number}"


class TableSeat(models.Model):
    """The draw: who sits where at a table of a round. ``secret_hand``: the hand of the round
    the player made their secret bet on, if any (one per round)."""

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="seats")
    table = models.ForeignKey(TournamentTable, on_delete=models.PROTECT, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seats")
    secret_hand = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="table_seat_once"),
            models.UniqueConstraint(fields=["round", "entrant"], name="entrant_once_a_round"),
            models.CheckConstraint(
                condition=Q(seat__gte=SEATS.start, seat__lte=SEATS.stop - 1),
                name="table_seat_1_to_9",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} in seat {self.seat} of {self.table}"
