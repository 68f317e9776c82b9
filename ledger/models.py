"""Money: guests, who sat where, bets and their settlement, and the journal of corrections."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MoneyField
from games.guest_banked.chemin_drawing import Choice
from games.kinds import MOVE_LABELS, SEATS, CoverKind, Game, SuiteWay
from games.models import Event, Hand, Series, Shoe
from games.payouts import BankedBet, BetType
from games.rules import Winner
from ledger.guests.names import NAME_MAX_LENGTH

# Any table's seats (a tournament's seat up to 9); each table's own are its event's ``seats``.
SEAT_RANGE = Q(seat__gte=SEATS.start, seat__lte=SEATS.stop - 1)


class Guest(models.Model):
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    # Who the guest is, for matching: ``ledger.guests.names.name_key`` of the name, unique. Kept by
    # the
    # services with the name; never typed.
    name_key = models.CharField(max_length=4 * NAME_MAX_LENGTH, unique=True, editable=False)
    events = models.ManyToManyField(Event, through="EventGuest", related_name="guests")
    created_at = models.DateTimeField(default=timezone.now)
    # The guest's private link: 256 random bits, empty once revoked. Compared in constant time.
    access_token = models.CharField(max_length=64, blank=True, default="")
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="guest",
        help_text="Optional: a login that shows this guest their own page.",
    )
    # How far the guest may owe the house, in chips (empty: no limit). Chips, not yen: a balance
    # is kept in chips and each night has its own rate; a page shows the yen at its night's rate.
    # Passing it warns the host; it never stops a bet.
    credit_limit = MoneyField(null=True, blank=True)  # type: ignore[misc]  # reads None too

    class Meta:
        ordering = [Lower("name")]
        constraints = [
            models.CheckConstraint(
                condition=Q(credit_limit__isnull=True) | Q(credit_limit__gte=0),
                name="guest_credit_limit_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GuestAlias(models.Model):
    """Another name a guest goes by ("Kenny" for Ken): the table's "add guest", the scoresheet
    import and the admin's search find the guest by it (``ledger.guests.services.guests_matching``).
    Its key (``ledger.guests.names.name_key``) is unique among aliases, and the services keep it
    apart
    from every guest's name."""

    guest = models.ForeignKey(Guest, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    key = models.CharField(max_length=4 * NAME_MAX_LENGTH, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = [Lower("name")]

    def __str__(self) -> str:
        return self.name


class MergedGuest(models.Model):
    """A guest merged into another: its id and private link still lead to the guest it became,
    so a link handed out before the merge keeps working (until that guest's link is replaced or
    revoked)."""

    old_id = models.PositiveBigIntegerField(unique=True)
    old_name = models.CharField(max_length=NAME_MAX_LENGTH)
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="merged")
    access_token = models.CharField(max_length=64, blank=True, default="")
    merged_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.old_name} (#{self.old_id}) → {self.guest}"


class GuestInvitation(models.Model):
    """A one-time link a host gives a guest to make a login of their own. Only the token's
    SHA-256 is kept; the link works once, until it expires or is revoked."""

    guest = models.ForeignKey(Guest, on_delete=models.CASCADE, related_name="invitations")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Invitation for {self.guest} ({self.created_at:%Y-%m-%d})"

    @property
    def is_usable(self) -> bool:
        return self.used_at is None and self.revoked_at is None and timezone.now() < self.expires_at


class StaffInvitation(models.Model):
    """A one-time link a host gives a co-host or a dealer to make a login of their own, with the
    role it gives. Only the token's SHA-256 is kept; the link works once, until it expires or is
    withdrawn. ``user`` is the login it made."""

    class Role(models.TextChoices):
        HOST = "host", _("Host")
        DEALER = "dealer", _("Dealer")

    role = models.CharField(max_length=10, choices=Role.choices)
    # Whom the host meant it for ("Mika, Saturday's dealer"): shown to hosts only.
    note = models.CharField(max_length=80, blank=True, default="")
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invitation ({self.created_at:%Y-%m-%d})"


class EventGuest(models.Model):
    """A guest on an event's list: who may be seated that night."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "guest"], name="event_guest_once"),
        ]

    def __str__(self) -> str:
        return f"{self.guest} at {self.event}"


class SeriesGuest(models.Model):
    """A usual guest of a series: put on each new night's list, with a private calendar link
    of their own (256 random bits, empty when revoked) that lists the series' nights and
    nothing of anyone else."""

    series = models.ForeignKey(Series, on_delete=models.PROTECT, related_name="+")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="+")
    calendar_token = models.CharField(max_length=64, blank=True, default="")
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["series", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "guest"], name="series_guest_once"),
        ]

    def __str__(self) -> str:
        return f"{self.guest} in {self.series}"


class SeatingQuerySet(models.QuerySet["Seating"]):
    def at(self, shoe: Shoe, number: int) -> SeatingQuerySet:
        """Who sat where for hand ``number`` of ``shoe``."""
        return self.filter(shoe=shoe, from_hand__lte=number).filter(
            Q(to_hand__isnull=True) | Q(to_hand__gte=number)
        )


class Seating(models.Model):
    """A guest in a seat of a shoe from one hand number to another (inclusive).

    ``to_hand`` is empty while the guest is still seated.
    """

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="seatings")
    seat = models.PositiveSmallIntegerField()
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="seatings")
    from_hand = models.PositiveSmallIntegerField()
    to_hand = models.PositiveSmallIntegerField(null=True, blank=True)
    seated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    seated_at = models.DateTimeField(default=timezone.now)

    objects = SeatingQuerySet.as_manager()

    class Meta:
        ordering = ["shoe", "seat", "from_hand"]
        constraints = [
            models.CheckConstraint(condition=SEAT_RANGE, name="seating_seat_1_to_9"),
            models.CheckConstraint(
                condition=Q(to_hand__isnull=True) | Q(to_hand__gte=F("from_hand")),
                name="seating_ends_after_it_starts",
            ),
            models.UniqueConstraint(
                fields=["shoe", "seat"],
                condition=Q(to_hand__isnull=True),
                name="one_guest_per_seat",
            ),
            models.UniqueConstraint(
                fields=["shoe", "guest"],
                condition=Q(to_hand__isnull=True),
                name="one_seat_per_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} in seat {self.seat} from hand {self.from_hand}"


class Bet(models.Model):
    """One stake on one bet type, settled: gross (before commission), commission, net."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="bets")
    # The hand's event, copied: a hand never moves between events, and with it the sums across
    # a season (balances, standings) read one indexed table instead of joining three.
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="bets")
    bet_type = models.CharField(
        max_length=24, choices=[(b.value, _(b.label)) for b in (*BetType, *BankedBet)]
    )
    # A Chemin de fer cover's kind (banco solo, suivi…); empty for every other stake.
    cover_kind = models.CharField(
        max_length=16,
        blank=True,
        default="",
        db_default="",
        choices=[(k.value, _(k.label)) for k in CoverKind],
    )
    stake = MoneyField()
    gross = MoneyField()
    commission = MoneyField()
    net = MoneyField()

    class Meta:
        ordering = ["hand", "seat", "id"]
        constraints = [
            models.CheckConstraint(condition=SEAT_RANGE, name="bet_seat_1_to_9"),
            models.CheckConstraint(condition=Q(stake__gt=0), name="bet_stake_positive"),
            models.CheckConstraint(
                condition=Q(commission__gte=0), name="bet_commission_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(net=F("gross") - F("commission")),
                name="bet_net_is_gross_less_commission",
            ),
            models.UniqueConstraint(
                fields=["hand", "seat", "bet_type"], name="one_bet_type_per_seat"
            ),
        ]
        indexes = [
            # Covers the sums per guest across events (balances, standings) without the table.
            models.Index(
                fields=["guest", "event", "hand", "stake", "gross", "commission", "net"],
                name="bet_guest_figures",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} {self.get_bet_type_display()} {self.stake}"


CHOICES = [(choice.value, choice.value) for choice in Choice]
WINNERS = [(winner.value, winner.value) for winner in Winner]


class Coup(models.Model):
    """A coup of a guest-banked game (Chemin de fer, Baccara banque), beside its hand: who held
    the bank and with how much, who held the cards, the choices taken, the house's cut and what
    the banker did next. The stakes are the hand's bets (the bank's side included), so every
    coup is zero-sum among the guests and the house like any hand. In Baccara banque the hand
    holds tableau 1; tableau 2 and the banker's cards as dealt are here."""

    hand = models.OneToOneField(Hand, on_delete=models.CASCADE, related_name="coup")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    game = models.CharField(max_length=16, choices=[(g.value, _(g.label)) for g in Game])
    banker = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="+")
    banker_seat = models.PositiveSmallIntegerField()
    co_banker = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    co_banker_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    bank = MoneyField()  # on the table before the coup
    covered = MoneyField()
    holder_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    second_holder_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    ponte_choice = models.CharField(max_length=5, blank=True, choices=CHOICES)
    banker_choice = models.CharField(max_length=5, blank=True, choices=CHOICES)
    second_choice = models.CharField(max_length=5, blank=True, choices=CHOICES)
    second_cards = models.CharField(max_length=24, blank=True)
    second_winner = models.CharField(max_length=6, blank=True, choices=WINNERS)
    banker_cards = models.CharField(max_length=24, blank=True)
    house_cut = MoneyField()
    move = models.CharField(
        max_length=8, choices=[(move.value, _(label)) for move, label in MOVE_LABELS.items()]
    )
    taken = MoneyField()
    bank_after = MoneyField()
    rotation_seat = models.PositiveSmallIntegerField()
    suite_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    suite_amount = MoneyField(null=True, blank=True)  # type: ignore[misc]  # reads None too
    suite_way = models.CharField(
        max_length=12, blank=True, choices=[(way.value, way.value) for way in SuiteWay]
    )
    suivi_seat = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["hand"]
        constraints = [
            models.CheckConstraint(condition=Q(house_cut__gte=0), name="coup_cut_not_negative"),
            models.CheckConstraint(condition=Q(bank__gt=0), name="coup_bank_positive"),
            models.CheckConstraint(
                condition=Q(co_banker__isnull=True) | ~Q(co_banker=F("banker")),
                name="coup_co_banker_not_banker",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} · {self.banker} banks {self.bank}"


class HandRevision(models.Model):
    """The journal of changes to recorded hands, append-only: what a hand was before it was
    corrected or undone, what it became, who did it, when and why."""

    class Kind(models.TextChoices):
        CORRECTION = "correction", _("Correction")
        UNDO = "undo", _("Undo")

    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="revisions")
    hand_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reason = models.CharField(max_length=300, blank=True)
    before = models.JSONField()
    after = models.JSONField(null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    changed_at = models.DateTimeField(default=timezone.now)
    # An undo's submission (the table page's), so that the same undo sent again — its answer was
    # lost on the way — answers with the same hand instead of taking back another.
    idempotency_key = models.UUIDField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["shoe", "hand_number", "changed_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of hand {self.hand_number} ({self.shoe})"


# The tray's audit entries are written under this word, untranslated (ledger.audit words it).
AUDIT_TRAY = "Tray"
MSG_DATED_LATER = _("A date later than today: money cannot be dated to a day to come.")
MSG_DATED_BEFORE = _("A date before the night ({night}): date it to the night or after.")
NIGHT_PAST_MIDNIGHT_HOURS = 12  # a night dated yesterday is still tonight's until noon


def dated_default(event: Event) -> dt.date:
    """The day a settlement or a chip row is dated to unless the host says: today for tonight's
    night (dated today, or yesterday before noon: a night that ran past midnight), the night's
    own date for a past one."""
    now = timezone.localtime()
    today = now.date()
    tonight = event.date == today or (
        event.date == today - dt.timedelta(days=1) and now.hour < NIGHT_PAST_MIDNIGHT_HOURS
    )
    return today if tonight else event.date


def check_dated(event: Event, dated: dt.date, *, field: str = "dated") -> None:
    """A date the host gave: not before the night, not after today (or the night's own date,
    for a night entered ahead of its day)."""
    if dated > max(timezone.localdate(), event.date):
        raise ValidationError({field: MSG_DATED_LATER})
    if dated < event.date:
        raise ValidationError({field: MSG_DATED_BEFORE.format(night=f"{event.date:%Y-%m-%d}")})


class MoneyRow(models.Model):
    """What every row of money a person records shares (settlements, transfers, chips,
    adjustments): who recorded it and when, the row it voids, and the form's key with a digest
    of what it recorded under that key. Such a row is written only by
    ``ledger.money.recording.record`` and taken back only by ``ledger.money.reversal.reverse``:
    never edited, never deleted.

    Each kind keeps its own constraints in its own ``Meta`` under the names its table already
    has (:func:`void_not_itself`, :func:`void_has_reason`): no table changes."""

    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)  # when it was typed (the audit)
    # A void: the row this one reverses (its note the reason). A row is voided at most once
    # (one-to-one); a void is never voided (the reversal).
    voids = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="voided_by"
    )
    # The form's key: a second tap, or the same form sent again, records nothing more; the
    # same key with other content is refused (what the key was used for: its digest).
    idempotency_key = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    content_digest = models.CharField(max_length=64, blank=True, default="", editable=False)

    if TYPE_CHECKING:  # every kind belongs to one night: its own ``event`` foreign key
        event: Event
        event_id: int
        voids_id: int | None

    class Meta:
        abstract = True
        ordering = ["recorded_at", "id"]


def void_not_itself(prefix: str) -> models.CheckConstraint:
    """A row never voids itself, named ``<prefix>_void_not_itself``."""
    return models.CheckConstraint(
        condition=Q(voids__isnull=True) | ~Q(voids=F("id")), name=f"{prefix}_void_not_itself"
    )


def void_has_reason(prefix: str, field: str = "note") -> models.CheckConstraint:
    """A void says why in ``field``, named ``<prefix>_void_has_reason``."""
    return models.CheckConstraint(
        condition=Q(voids__isnull=True) | ~Q(**{field: ""}), name=f"{prefix}_void_has_reason"
    )


MSG_AGAINST_THE_TAB = _("Settled against the tab {tab}")


class Settlement(MoneyRow):
    """Money that changed hands outside the game. ``amount`` is what the guest paid the house
    (negative: the house paid the guest), so a guest's balance is simply the sum of their net
    results and their settlements."""

    class Method(models.TextChoices):
        CASH = "cash", _("Cash")
        TAB = "tab", _("Offset against the tab at the venue")
        CREDIT = "credit", _("Credit toward the next bill")
        OTHER = "other", _("Other")
        WAY = "way", _("Another way to pay")  # named by ``way``: PayPay, a bank transfer…

    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="settlements")
    event = models.ForeignKey(
        Event,
        on_delete=models.PROTECT,
        related_name="settlements",
        help_text="The night it was recorded at; its chip rate converts it to yen.",
    )
    amount = MoneyField()
    method = models.CharField(max_length=8, choices=Method.choices)
    note = models.CharField(max_length=200, blank=True)
    # How the money moved, from the site's list of ways to pay; empty on rows recorded before
    # the list (their ``method`` says it) and on "other" with a note.
    way = models.ForeignKey(
        "PayWay", on_delete=models.PROTECT, null=True, blank=True, related_name="settlements"
    )
    # Settled against the tab (``Method.TAB``): the tab's name or number at the venue, shown on
    # the receipt and in the workbook. Empty for every other way.
    tab_reference = models.CharField(_("tab"), max_length=60, blank=True, default="")
    # The day the money changed hands, as the host dates it (a past night's settlement is
    # dated to that night by default): what the pages and the workbook show.
    dated = models.DateField(default=timezone.localdate)

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="settlement_not_zero"),
            models.CheckConstraint(
                condition=~Q(method="other") | ~Q(note=""), name="settlement_other_has_note"
            ),
            void_has_reason("settlement"),
            void_not_itself("settlement"),
            models.CheckConstraint(
                condition=~Q(method="way") | Q(way__isnull=False), name="settlement_way_named"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} {self.amount} ({self.how})"

    @property
    def how(self) -> str:
        """How the money moved, in words: against the tab, the tab it names; else its way's name,
        or on an older row its method."""
        if self.tab_reference:
            return str(MSG_AGAINST_THE_TAB).format(tab=self.tab_reference)
        return self.way.label if self.way is not None else str(self.get_method_display())


class Transfer(MoneyRow):
    """Money that changed hands at a guest-banked night, between two of its guests or between
    a guest and the house (``payer`` or ``payee`` empty: the house): one line of the night's
    settlement list paid, in full or in part. For the balances it counts like a settlement on
    each side: the payer paid, the payee received, so paying another guest settles a debt just
    as paying the house does (``ledger.money.results``)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="transfers")
    payer = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="transfers_paid"
    )
    payee = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="transfers_received"
    )
    amount = MoneyField()
    # Paid with chips at the table, before the count: they left the payer's stack for the
    # payee's (``ledger.count``); otherwise money, which no count sees.
    in_chips = models.BooleanField(_("paid in chips at the table"), default=False)
    note = models.CharField(max_length=200, blank=True)

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive"),
            models.CheckConstraint(
                condition=Q(payer__isnull=False) | Q(payee__isnull=False),
                name="transfer_not_house_to_house",
            ),
            models.CheckConstraint(
                condition=Q(payer__isnull=True) | Q(payee__isnull=True) | ~Q(payer=F("payee")),
                name="transfer_payer_not_payee",
            ),
            void_has_reason("transfer"),
            void_not_itself("transfer"),
        ]

    def __str__(self) -> str:
        return f"{self.payer or 'house'} → {self.payee or 'house'} {self.amount}"


class StackRow(models.Model):
    """Tournament chips a player brings to one tournament table: the starting stack (or the
    stack carried from the round before), a rebuy, an add-on. A player's stack at the table is
    the sum of their rows there and of their bets' net results there; never an edited number."""

    class Kind(models.TextChoices):
        START = "start", _("Starting stack")
        CARRIED = "carried", _("Carried from the round before")
        REBUY = "rebuy", _("Rebuy")
        ADD_ON = "add_on", _("Add-on")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="stack_rows")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="stack_rows")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    chips = MoneyField()
    # The hand after which the chips came (0: before the first): a stack "before hand n" counts
    # the rows with ``after_hand < n``.
    after_hand = models.PositiveSmallIntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(chips__gte=0), name="stack_row_not_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.guest} {self.get_kind_display()} {self.chips}"


class Charge(models.Model):
    """Money a tournament moves between a guest and the house: an entry fee, a rebuy or an
    add-on (what the guest owes: negative) and a prize (what the house owes: positive). Signed
    like a net result, because that is what it is: a guest's result at the tournament's night
    is the sum of their charges there (``GuestEventResult``), in the same balance as cash."""

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry fee")
        REBUY = "rebuy", _("Rebuy")
        ADD_ON = "add_on", _("Add-on")
        PRIZE = "prize", _("Prize")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="charges")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="charges")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    amount = MoneyField()
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="prize") & Q(amount__gte=0))
                | (~Q(kind="prize") & Q(amount__lte=0)),
                name="charge_sign_follows_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} {self.get_kind_display()} {self.amount}"


def default_denominations() -> list[str]:
    return ["0.5", "1", "5", "25", "100", "500", "1000"]


class CountSetup(models.Model):
    """How a night's chips are counted: the chip set its counts are entered in, the house's
    tray at the open, and whether the night is kept by its count alone (no hands logged: each
    guest's result is their count less the chips they took)."""

    event = models.OneToOneField(
        Event, on_delete=models.PROTECT, primary_key=True, related_name="count_setup"
    )
    # The chips on the table, smallest first, as text (JSON has no decimals).
    denominations = models.JSONField(default=default_denominations)
    opening_float = MoneyField(_("the tray at the open"), default=0)
    count_only = models.BooleanField(_("kept by the count alone"), default=False)
    # A count-only night's commission, if the host kept it: the house's share of its result.
    commission_total = MoneyField(_("commission, in all"), null=True, blank=True)  # type: ignore[misc]

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(opening_float__gte=0), name="count_float_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(commission_total__isnull=True) | Q(commission_total__gte=0),
                name="count_commission_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"Count of {self.event}"


class ChipMove(MoneyRow):
    """Chips that crossed the table's edge, for the count: chips a guest took (a buy-in, a
    top-up), chips a guest handed back when counted (leaving, or at the close), or the house's
    tray counted at the close (no guest). A guest's chips out and in are plain sums of rows; a
    row entered by mistake is voided by its opposite (``voids``), never edited."""

    class Kind(models.TextChoices):
        BUY_IN = "buy_in", _("Buy-in")
        TOP_UP = "top_up", _("Top-up")
        COUNT = "count", _("Counted")
        TRAY = "tray", _("Tray counted")

    class Source(models.TextChoices):
        CASH = "cash", _("Cash")
        MARKER = "marker", _("Credit (a marker)")
        BALANCE = "balance", _("From their balance")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="chip_moves")
    guest = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="chip_moves"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    source = models.CharField(max_length=8, choices=Source.choices, blank=True)
    chips = MoneyField()
    # As counted: denomination (text) → number of chips; empty when entered as a total.
    by_denomination = models.JSONField(default=dict, blank=True)
    note = models.CharField(max_length=200, blank=True)
    dated = models.DateField(default=timezone.localdate)  # the day the chips moved: the host's

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(
                condition=(Q(voids__isnull=True) & Q(chips__gt=0))
                | (Q(voids__isnull=False) & Q(chips__lt=0))
                | (Q(kind__in=["count", "tray"]) & Q(chips=0)),  # nothing left to hand back
                name="chip_move_positive_its_void_negative",
            ),
            models.CheckConstraint(
                condition=(Q(kind="tray") & Q(guest__isnull=True))
                | (~Q(kind="tray") & Q(guest__isnull=False)),
                name="chip_move_tray_is_the_house",
            ),
            void_has_reason("chip_move"),
            void_not_itself("chip_move"),
        ]

    def __str__(self) -> str:
        return f"{self.guest or 'tray'} {self.get_kind_display()} {self.chips}"


class Adjustment(MoneyRow):
    """A difference in the count booked with its reason: chips a guest has that the hands do
    not explain (or lacks), taken into their result at the night against the house. A line of
    the ledger of its own (``ledger.money.lines``); voided by its opposite, never edited."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="adjustments")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="adjustments")
    amount = MoneyField()
    reason = models.CharField(max_length=200)

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="adjustment_not_zero"),
            models.CheckConstraint(condition=~Q(reason=""), name="adjustment_has_reason"),
            void_not_itself("adjustment"),
        ]

    def __str__(self) -> str:
        return f"{self.guest} {self.amount} ({self.reason})"


class Tip(MoneyRow):
    """A guest's tip to the night's dealers, in chips: it leaves the guest's balance (a line of
    the ledger of its own, ``ledger.money.lines``) and goes to the night's pool, which the house
    holds for the dealers and which is never the house's income (``ledger.tips``). Taken from a
    hand's win or from the guest's chips at the table (both go to the tips box of the count), or
    paid in money at the end. Voided by its opposite, never edited."""

    class Source(models.TextChoices):
        HAND_WIN = "hand_win", _("From a hand's win")
        CHIPS = "chips", _("In chips at the table")
        MONEY = "money", _("In money at the end")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="tips")
    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="tips")
    amount = MoneyField()
    source = models.CharField(max_length=8, choices=Source.choices)
    # The hand whose win it was taken from (a hand undone later leaves the tip standing).
    hand = models.ForeignKey(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="tips"
    )
    note = models.CharField(max_length=200, blank=True)

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(
                condition=(Q(voids__isnull=True) & Q(amount__gt=0))
                | (Q(voids__isnull=False) & Q(amount__lt=0)),
                name="tip_positive_its_void_negative",
            ),
            void_has_reason("tip"),
            void_not_itself("tip"),
            models.CheckConstraint(
                condition=Q(hand__isnull=True) | Q(source="hand_win"),
                name="tip_hand_only_from_a_win",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} tip {self.amount}"


class DealerShift(models.Model):
    """A dealer (a login in the Dealers group) dealing at a night: from when they started a shoe
    (or the table) to when they stopped, as they record it or the host enters it. Their time at
    the table is what the night's tips are shared by (``ledger.tips.split``)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="dealer_shifts")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dealer_shifts"
    )
    shoe = models.ForeignKey(
        Shoe, on_delete=models.PROTECT, null=True, blank=True, related_name="dealer_shifts"
    )
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=F("started_at")),
                name="dealer_shift_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at {self.event} from {self.started_at:%H:%M}"


class TipSharing(models.Model):
    """How a night's tips are shared among its dealers, as the host chose (no row: by time)."""

    class Way(models.TextChoices):
        TIME = "time", _("By time at the table")
        EQUAL = "equal", _("Equally")

    event = models.OneToOneField(Event, on_delete=models.PROTECT, related_name="tip_sharing")
    way = models.CharField(max_length=8, choices=Way.choices, default=Way.TIME)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.event}: {self.get_way_display()}"


class GuestEventResult(models.Model):
    """A guest's totals for one event, recomputed from the bets by every service that writes
    them (never incremented), so that sums across a season read a row per guest and event
    instead of every bet. The bets stay the record; this is their sum, kept at hand. At a
    tournament's night the record is its charges (``gross`` = ``net`` = their sum); a tournament
    table, in tournament chips, has none."""

    guest = models.ForeignKey(Guest, on_delete=models.PROTECT, related_name="event_results")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="guest_results")
    hands = models.PositiveIntegerField()
    stake = MoneyField()
    gross = MoneyField()
    commission = MoneyField()
    net = MoneyField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["guest", "event"], name="one_result_per_guest_event"),
            models.CheckConstraint(
                condition=Q(net=F("gross") - F("commission")),
                name="result_net_is_gross_less_commission",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest} at {self.event}: {self.net}"


class AuditEntry(models.Model):
    """Append-only: every change to money records — a hand logged with its bets, a correction,
    an undo, a settlement — and every close and reopen of a shoe or an event, with who, when,
    and the record before and after."""

    class Action(models.TextChoices):
        HAND_LOGGED = "hand_logged", _("Hand logged")
        HAND_CORRECTED = "hand_corrected", _("Hand corrected")
        HAND_UNDONE = "hand_undone", _("Hand undone")
        SETTLEMENT = "settlement", _("Settlement recorded")
        SETTLEMENT_VOIDED = "settlement_voided", _("Settlement voided")
        IMPORT = "import", _("Scoresheet imported")
        EVENT_EDITED = "event_edited", _("Event edited")
        SHOE_CLOSED = "shoe_closed", _("Shoe closed")
        SHOE_REOPENED = "shoe_reopened", _("Shoe reopened")
        EVENT_CLOSED = "event_closed", _("Event closed")
        EVENT_REOPENED = "event_reopened", _("Event reopened")
        GUEST_RENAMED = "guest_renamed", _("Guest renamed")
        GUEST_ALIAS_ADDED = "guest_alias_added", _("Alias added")
        GUEST_ALIAS_REMOVED = "guest_alias_removed", _("Alias removed")
        GUESTS_MERGED = "guests_merged", _("Guests merged")
        INVITATION_ISSUED = "invitation_issued", _("Login invitation issued")
        INVITATION_REVOKED = "invitation_revoked", _("Login invitation revoked")
        INVITATION_ACCEPTED = "invitation_accepted", _("Login created from an invitation")
        CREDIT_LIMIT_SET = "credit_limit_set", _("Credit limit changed")
        CHIPS = "chips", _("Chips recorded")
        CHIPS_VOIDED = "chips_voided", _("Chips voided")
        ADJUSTMENT = "adjustment", _("Adjustment booked")
        ADJUSTMENT_VOIDED = "adjustment_voided", _("Adjustment voided")
        COUNT_SETUP = "count_setup", _("Count set up")
        PAY_WAY = "pay_way", _("Way to pay changed")
        PAY_HANDLE = "pay_handle", _("Handle to pay a guest changed")
        TIP = "tip", _("Tip recorded")
        TIP_VOIDED = "tip_voided", _("Tip voided")
        TIP_SHARING = "tip_sharing", _("Tips' sharing chosen")
        DEALER_SHIFT = "dealer_shift", _("Dealer's shift recorded")
        EXPENSE = "expense", _("Expense recorded")
        EXPENSE_VOIDED = "expense_voided", _("Expense voided")
        SERIES = "series", _("Series changed")
        SERIES_NIGHT = "series_night", _("Night made from its series")
        STAFF_INVITED = "staff_invited", _("Co-host or dealer invited")
        STAFF_INVITE_REVOKED = "staff_invite_revoked", _("Co-host or dealer invitation withdrawn")
        STAFF_JOINED = "staff_joined", _("Login created from a co-host or dealer invitation")
        ROLE_CHANGED = "role_changed", _("Role changed")
        ACCESS_REVOKED = "access_revoked", _("Access revoked")
        CALENDAR_LINK_ISSUED = "calendar_issued", _("Calendar link issued")
        CALENDAR_LINK_REVOKED = "calendar_revoked", _("Calendar link revoked")

    action = models.CharField(max_length=20, choices=Action.choices)
    # Empty for what belongs to no one night: a guest renamed, merged or invited.
    event = models.ForeignKey(
        Event, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    summary = models.CharField(max_length=200)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.summary}"


class ImportKey(models.Model):
    """An upload's idempotency key (the import form's), kept with the nights it made: the same
    upload sent again (a retry after a lost answer, a second tap) is answered with them, never
    imported twice. ``content_digest`` is what was sent (the file and the form's fields): the
    same key with another file is refused."""

    key = models.UUIDField(unique=True, editable=False)
    content_digest = models.CharField(max_length=64, editable=False)
    events = models.ManyToManyField(Event, related_name="+", editable=False)
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", editable=False
    )

    def __str__(self) -> str:
        return f"import {self.key}"


class PayWay(models.Model):
    """A way a guest and the house pay each other (cash, a bank transfer, PayPay, PayPal…), from
    the site's list the host keeps. ``kind`` says how the request shows it: a pay link made from
    ``link_template`` and a handle (``ledger.payways.links``), bank details as text, or in
    person. The house's own handle (a link's) or details (a transfer's) are where a guest pays
    the house; each guest's are a :class:`GuestPayHandle`. A way in use is never deleted:
    retired, it stays on the rows that name it and leaves the lists."""

    class Kind(models.TextChoices):
        LINK = "link", _("Pay link")
        DETAILS = "details", _("Bank or account details")
        IN_PERSON = "in_person", _("In person")

    name = models.CharField(max_length=60)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    link_template = models.CharField(max_length=200, blank=True)
    house_handle = models.CharField(max_length=100, blank=True)
    details = models.CharField(max_length=300, blank=True)
    # What a settlement by this way records as its ``method`` (the older rows' words): cash,
    # the tab and credit keep theirs, every other way is "way".
    method = models.CharField(
        max_length=8, choices=Settlement.Method.choices, default=Settlement.Method.WAY
    )
    position = models.PositiveIntegerField(default=0)
    retired_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), name="payway_name_unique"),
            models.CheckConstraint(
                condition=~Q(kind="link") | ~Q(link_template=""), name="payway_link_has_template"
            ),
            models.CheckConstraint(condition=~Q(method="other"), name="payway_method_not_other"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_retired(self) -> bool:
        return self.retired_at is not None

    @property
    def label(self) -> str:
        """The name as a page shows it: the list's first names translated (the migration that
        made them marks them), any name the host typed as typed."""
        return gettext(self.name) if self.name else ""


class GuestPayHandle(models.Model):
    """A guest's handle on one way to pay (their PayPal.me name, their bank details): where the
    house pays the guest. Typed text, checked per way (``ledger.payways.links``)."""

    guest = models.ForeignKey(Guest, on_delete=models.CASCADE, related_name="pay_handles")
    way = models.ForeignKey(PayWay, on_delete=models.PROTECT, related_name="handles")
    handle = models.CharField(max_length=300)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["way__position", "way_id"]
        constraints = [
            models.UniqueConstraint(fields=["guest", "way"], name="pay_handle_one_per_way"),
            models.CheckConstraint(condition=~Q(handle=""), name="pay_handle_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.guest} on {self.way}: {self.handle}"


class Expense(MoneyRow):
    """Something bought for the night (food, drinks), paid by a guest or the house and shared
    among some of the night's guests and/or the house: the payer is owed it, each sharer owes
    their share (``ExpenseShare``, computed once and stored, so that every page, paper and sheet
    reads the same cents). A ledger line of its own (``ledger.money.lines``); voided by its
    opposite (the amount and every share negated), never edited."""

    class Split(models.TextChoices):
        EQUAL = "equal", _("Equally")
        SHARES = "shares", _("By shares")

    class PaidIn(models.TextChoices):
        MONEY = "money", _("Money (outside the table)")
        TRAY = "tray", _("Chips from the house's tray")
        STACK = "stack", _("Chips from the payer's stack")

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="expenses")
    what = models.CharField(max_length=200)
    amount = MoneyField()
    # Empty: the house paid.
    paid_by = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="expenses_paid"
    )
    split = models.CharField(max_length=8, choices=Split.choices, default=Split.EQUAL)
    paid_in = models.CharField(max_length=8, choices=PaidIn.choices, default=PaidIn.MONEY)
    note = models.CharField(max_length=200, blank=True)  # a void's reason
    # Being recorded: its shares, computed before it has an id (``ledger.expenses``); set on the
    # instance, never on the class.
    planned_shares: Sequence[ExpenseShare] = ()

    class Meta(MoneyRow.Meta):
        constraints = [
            models.CheckConstraint(
                condition=(Q(voids__isnull=True) & Q(amount__gt=0))
                | (Q(voids__isnull=False) & Q(amount__lt=0)),
                name="expense_positive_its_void_negative",
            ),
            models.CheckConstraint(condition=~Q(what=""), name="expense_says_what"),
            models.CheckConstraint(
                condition=~Q(paid_in="tray") | Q(paid_by__isnull=True),
                name="expense_tray_is_the_house",
            ),
            models.CheckConstraint(
                condition=~Q(paid_in="stack") | Q(paid_by__isnull=False),
                name="expense_stack_is_a_guest",
            ),
            void_has_reason("expense"),
            void_not_itself("expense"),
        ]

    def __str__(self) -> str:
        return f"{self.what} {self.amount} ({self.paid_by or 'house'})"


class ExpenseShare(models.Model):
    """One sharer's part of an expense (a guest, or empty: the house), with its weight (1 for
    an equal split) and its amount in cents as ``ledger.expenses.shares.split_amount`` gave it.
    A void's shares are its expense's, negated."""

    expense = models.ForeignKey(Expense, on_delete=models.PROTECT, related_name="shares")
    guest = models.ForeignKey(
        Guest, on_delete=models.PROTECT, null=True, blank=True, related_name="expense_shares"
    )
    weight = models.PositiveIntegerField()
    amount = MoneyField()

    class Meta:
        ordering = ["expense_id", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(weight__gt=0), name="expense_share_weight_positive"),
            models.UniqueConstraint(
                fields=["expense", "guest"], name="expense_share_one_per_guest"
            ),
            models.UniqueConstraint(
                fields=["expense"],
                condition=Q(guest__isnull=True),
                name="expense_share_one_for_the_house",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.guest or 'house'} {self.amount}"
