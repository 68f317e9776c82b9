"""Writes of the count: how a night's chips are counted (its chip set, the tray's float, a night
kept by its count alone), chips out and in per guest and the tray, adjustments, and their voids.
Each row is audited, keyed like a settlement (a second tap records nothing more) and voided by
its opposite, never edited."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from functools import reduce
from math import gcd

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.entry import read_amount, read_count
from games.locks import lock_open_night
from games.messages import format_chips, plain, whole_cents
from games.models import Event, Hand
from ledger.count.reconciliation import chips_of
from ledger.locks import hold_guests, lock_guest
from ledger.models import (
    AUDIT_TRAY,
    Adjustment,
    AuditEntry,
    ChipMove,
    CountSetup,
    EventGuest,
    Guest,
    check_dated,
    dated_default,
    default_denominations,
)
from ledger.money.amounts import ZERO
from ledger.money.recording import Recording, record
from ledger.money.reversal import Reversal, line_character, reverse
from ledger.money.services import results_refresh
from shoebook.base.live import announce_night
from shoebook.base.roles import Actor

MAX_DENOMINATIONS = 12
MAX_CHIPS_OF_ONE = 10_000  # chips of one denomination in one count

MSG_CLOSED = _("This night is closed: reopen it to change its count.")
MSG_NOT_A_GUEST = _("{guest} is not on this night's guest list: add them first.")
MSG_CHIPS_AMOUNT = _("Chips are a positive amount in whole cents, at most {maximum}.")
MSG_SOURCE = _("Say how {guest} paid for the chips: cash, credit (a marker) or their balance.")
MSG_NO_SOURCE_FOR_COUNT = _("A count is chips handed back: it has no payment.")
MSG_DENOMINATION_UNKNOWN = _(
    "{value} is not a chip of this night (its chips: {chips}). Count it as a total instead."
)
MSG_DENOMINATION_NUMBER = _("The number of {value} chips is a whole number from 0 to {maximum}.")
MSG_TABLE_TAKES_NO_BUY_IN = _(
    "At a tournament table the chips a player takes are their stack: the starting stack (or the"
    " one carried), rebuys and add-ons, which the tournament's pages record. Count their chips"
    " here."
)
MSG_COUNTED_MEANWHILE = _(
    "{who} was counted on another device since this page was opened ({amount} so far): nothing"
    " was recorded. Reload the page: a count made later (chips handed back again) adds to it."
)
MSG_NO_CHIPS_MAKE = _("No chips of this night add up to {total}: its chips are {chips}.")
MSG_NOTHING_COUNTED = _("Nothing was counted: enter the number of each chip, or a total.")
MSG_TOTAL_AND_CHIPS = _(
    "The chips add up to {chips} but the total says {total}: enter one or make them agree."
)
MSG_ADJUSTMENT_AMOUNT = _(
    "An adjustment is a non-zero amount in whole cents, at most {maximum} either way."
)
MSG_NO_ADJUSTMENT_HERE = _(
    "No adjustment here: a tournament table's chips are no one's money, and a night kept by its"
    " count alone has its count as its result. Correct the hand or the count instead."
)
MSG_REASON = _("Say why: an adjustment is booked with its reason.")
MSG_REASON_CHARACTER = _("A reason cannot hold the invisible or control character {code}.")
MSG_VOID_REASON = _("Say why this is being voided.")
MSG_ALREADY_VOIDED = _("This was already voided by {user} at {time}: nothing changed.")
MSG_VOID_OF_VOID = _("This row is itself a void: it cannot be voided. Record a new one instead.")
MSG_DENOMINATIONS = _(
    "The chips are amounts in whole cents above zero, each once, at most {count} of them."
)
MSG_COUNT_ONLY_HAS_HANDS = _(
    "This night has {hands} hands logged: it cannot be kept by its count alone."
)
MSG_COUNT_ONLY_HAS_ADJUSTMENTS = _(
    "This night has adjustments booked against its hands: it cannot be kept by its count alone."
)
MSG_COUNT_ONLY_CASH = _("Only a cash night can be kept by its count alone.")
MSG_FLOAT = _("The tray's float is an amount in whole cents, from 0 to {maximum}.")
MSG_COMMISSION = _("The commission is an amount in whole cents, from 0 to {maximum}.")


def _lock_open(event: Event | int) -> Event:
    """The night locked (``games.locks.lock_night``, first, as every write of a night's rows
    does) and read as it stands: refused once it is closed (a page may be older than the close,
    and a close waits for this write or this write for it)."""
    return lock_open_night(event, MSG_CLOSED)


def _money(value: Decimal, *, field: str, message: object, low: Decimal = ZERO) -> None:
    if not value.is_finite() or not whole_cents(value) or not low <= value <= MAX_CHIPS:
        raise ValidationError({field: str(message).format(maximum=format_chips(MAX_CHIPS))})


# --- how a night is counted ------------------------------------------------------------------


def setup_of(event: Event) -> CountSetup:
    """The night's count setup as stored, or the default one (not saved)."""
    found = CountSetup.objects.filter(event=event).first()
    return found if found is not None else CountSetup(event=event)


def parse_denominations(values: Sequence[str | Decimal]) -> list[Decimal]:
    """A chip set as entered, smallest first; refused unless whole cents, positive, distinct."""
    try:
        texts = [plain(str(value)).replace(",", "") for value in values]
        chips = [Decimal(text) if text.isascii() else Decimal("NaN") for text in texts]
    except InvalidOperation:
        chips = []
    valid = all(c.is_finite() and c > 0 and whole_cents(c) and c <= MAX_CHIPS for c in chips)
    if not chips or not valid or len(set(chips)) != len(chips) or len(chips) > MAX_DENOMINATIONS:
        raise ValidationError({"denominations": MSG_DENOMINATIONS.format(count=MAX_DENOMINATIONS)})
    return sorted(chips)


def stored_denominations(values: Sequence[str | Decimal]) -> list[str]:
    """A chip set as a count setup keeps it: checked, smallest first, plain digits ("1e2",
    "1,000" and "１００" are 100, 1000 and 100)."""
    return [f"{chip.normalize():f}" for chip in parse_denominations(values)]


@transaction.atomic
def count_setup_save(
    *,
    event: Event,
    by: Actor,
    denominations: Sequence[str | Decimal] | None = None,
    opening_float: Decimal = ZERO,
    count_only: bool = False,
    commission_total: Decimal | None = None,
) -> CountSetup:
    """Set how the night's chips are counted. A night with hands logged cannot be kept by its
    count alone; turning it on or off recomputes its guests' results. The night's lock keeps
    out every hand, coup, adjustment and count of the night meanwhile: what is counted here
    stays so until it commits, and they read the switch as it left it."""
    event = _lock_open(event)
    chips = parse_denominations(denominations or default_denominations())
    _money(opening_float, field="opening_float", message=MSG_FLOAT)
    if commission_total is not None:
        _money(commission_total, field="commission_total", message=MSG_COMMISSION)
    if count_only and event.kind != Event.Kind.CASH:
        raise ValidationError({"count_only": MSG_COUNT_ONLY_CASH})
    if count_only:
        hands = Hand.objects.filter(shoe__event=event).count()
        if hands:
            raise ValidationError({"count_only": MSG_COUNT_ONLY_HAS_HANDS.format(hands=hands)})
        if Adjustment.objects.filter(event=event).exists():
            raise ValidationError({"count_only": MSG_COUNT_ONLY_HAS_ADJUSTMENTS})
    setup = setup_of(event)
    before = _setup_snapshot(setup) if setup.pk else None
    was_count_only = setup.count_only
    setup.denominations = stored_denominations(chips)
    setup.opening_float = opening_float
    setup.count_only = count_only
    setup.commission_total = commission_total if count_only else None  # type: ignore[assignment]
    setup.save()
    if was_count_only != count_only:
        everyone = list(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
        hold_guests(everyone)  # not merged away meanwhile (a merge recomputes their results)
        count_results_refresh(event=event, guest_ids=everyone)
    AuditEntry.objects.create(
        action=AuditEntry.Action.COUNT_SETUP,
        event=event,
        by=by,
        summary=str(event),
        before=before,
        after=_setup_snapshot(setup),
    )
    announce_night(event.pk, "count-setup")
    return setup


def _setup_snapshot(setup: CountSetup) -> dict[str, object]:
    commission = setup.commission_total
    return {
        "denominations": list(setup.denominations),
        "opening_float": f"{setup.opening_float:.2f}",
        "count_only": setup.count_only,
        "commission_total": None if commission is None else f"{commission:.2f}",
    }


# --- chips out and in -----------------------------------------------------------------------


def counted_chips(
    setup: CountSetup,
    by_denomination: Mapping[str, object],
    total: Decimal | None,
    *,
    nothing_left: bool = False,
) -> tuple[Decimal, dict[str, int]]:
    """A count as entered: the number of each chip of the night's set (blank or 0: none) and/or
    a total; both given, they must agree. ``nothing_left``: a count, which may be zero (a guest
    who lost every chip, an empty tray) when a zero is typed."""
    known = {Decimal(value): value for value in setup.denominations}
    numbers: dict[str, int] = {}
    typed = total is not None
    for text, number in by_denomination.items():
        try:
            value = Decimal(str(text))
        except InvalidOperation:
            value = Decimal("NaN")
        if not value.is_finite() or value not in known:
            offered = ", ".join(setup.denominations)
            raise ValidationError(
                {"chips": MSG_DENOMINATION_UNKNOWN.format(value=str(text)[:20], chips=offered)}
            )
        if number in (None, ""):
            continue
        typed = True
        count = read_count(str(number))  # full-width digits too, never ① or ¹²
        if count is None or not 0 <= count <= MAX_CHIPS_OF_ONE:
            raise ValidationError(
                {"chips": MSG_DENOMINATION_NUMBER.format(value=text, maximum=MAX_CHIPS_OF_ONE)}
            )
        if count:
            numbers[known[value]] = count
    by_chips = chips_of({Decimal(value): count for value, count in numbers.items()})
    if numbers and total is not None and total != by_chips:
        raise ValidationError(
            {"total": MSG_TOTAL_AND_CHIPS.format(chips=format_chips(by_chips), total=total)}
        )
    chips = by_chips if numbers else total
    if nothing_left and typed and not chips:
        return ZERO, {}
    if chips is None or chips == 0:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOTHING_COUNTED})
    _money(chips, field="total", message=MSG_CHIPS_AMOUNT)
    step = _smallest_step(known)
    if not numbers and (chips * 100) % step:
        offered = ", ".join(setup.denominations)
        raise ValidationError(
            {"total": MSG_NO_CHIPS_MAKE.format(total=format_chips(chips), chips=offered)}
        )
    return chips, numbers


def _smallest_step(denominations: Iterable[Decimal]) -> int:
    """The smallest amount, in cents, that the chips tell apart (their greatest common
    divisor): a total of chips is a multiple of it."""
    return reduce(gcd, (int(value * 100) for value in denominations), 0) or 1


@transaction.atomic
def chips_record(
    *,
    event: Event,
    guest: Guest | None,
    kind: str,
    by: Actor,
    chips: Decimal | None = None,
    by_denomination: Mapping[str, object] | None = None,
    source: str = "",
    note: str = "",
    idempotency_key: uuid.UUID | None = None,
    seen_counted: str | None = None,
    dated: dt.date | None = None,
) -> ChipMove:
    """Record chips a guest took (``buy_in``, ``top_up``: with how they paid), chips a guest
    handed back (``count``) or the tray counted (``tray``: no guest), by denomination or as a
    total. The same form sent twice records it once. ``dated``: the day the chips moved
    (:func:`ledger.models.dated_default` unless given); ``recorded_at`` stays when it was
    typed."""
    event = _lock_open(event)
    if dated is None:
        dated = dated_default(event)
    check_dated(event, dated)
    kind = ChipMove.Kind(kind)
    taking = kind in (ChipMove.Kind.BUY_IN, ChipMove.Kind.TOP_UP)
    if (guest is None) != (kind is ChipMove.Kind.TRAY):
        raise ValidationError({"guest": _("Say whose chips these are.")})
    if guest is not None:
        if not EventGuest.objects.filter(event=event, guest=guest).exists():
            raise ValidationError({"guest": MSG_NOT_A_GUEST.format(guest=guest)})
        guest = lock_guest(guest)
    if taking and event.kind == Event.Kind.TOURNAMENT_TABLE:
        raise ValidationError({NON_FIELD_ERRORS: MSG_TABLE_TAKES_NO_BUY_IN})
    if taking and source not in ChipMove.Source.values:
        raise ValidationError({"source": MSG_SOURCE.format(guest=guest)})
    if not taking and source:
        raise ValidationError({"source": MSG_NO_SOURCE_FOR_COUNT})
    refused = line_character(note)
    if refused is not None:
        raise ValidationError({"note": MSG_REASON_CHARACTER.format(code=refused)})
    setup = setup_of(event)
    counting = kind in (ChipMove.Kind.COUNT, ChipMove.Kind.TRAY)
    amount, numbers = counted_chips(setup, by_denomination or {}, chips, nothing_left=counting)
    move = ChipMove(
        event=event,
        guest=guest,
        kind=kind,
        source=source,
        chips=amount,
        by_denomination=numbers,
        note=note.strip(),
        dated=dated,
    )
    recording = CHIPS_RECORDING
    if seen_counted is not None and counting:
        recording = recording.also(lambda row: _check_seen_count(event, guest, seen_counted, kind))
    recorded = record(recording, move, by=by, idempotency_key=idempotency_key)
    if not recorded.new:  # a second tap, a resend: what the first recorded
        return recorded.row
    if setup.count_only and guest is not None:
        count_results_refresh(event=event, guest_ids=[guest.pk])
    announce_night(event.pk, "chips", [move.guest_id])
    return move


def _check_seen_count(event: Event, guest: Guest | None, seen: str, kind: str) -> None:
    """Refused when the chips counted so far are not what the page showed: another device
    counted meanwhile, and this count would be added to it unseen."""
    rows = ChipMove.objects.filter(event=event, guest=guest, kind=kind)
    counted = sum(rows.values_list("chips", flat=True), ZERO)
    # Read as an amount (never NaN: sNaN compared raises): anything else is not what was shown.
    shown = read_amount(seen) if seen.strip() else ZERO
    if shown != counted:
        who = guest.name if guest is not None else gettext("The tray")
        amount = format_chips(counted, event.currency_symbol)
        raise ValidationError(
            {NON_FIELD_ERRORS: MSG_COUNTED_MEANWHILE.format(who=who, amount=amount)}
        )


CHIPS_WORDS = {
    ChipMove.Kind.BUY_IN: _("{guest}: a buy-in of {amount}"),
    ChipMove.Kind.TOP_UP: _("{guest}: a top-up of {amount}"),
    ChipMove.Kind.COUNT: _("{guest}: {amount} counted"),
    ChipMove.Kind.TRAY: _("the tray: {amount} counted"),
}


def chips_words(move: ChipMove) -> str:
    amount = format_chips(abs(move.chips), move.event.currency_symbol)
    who = move.guest.name if move.guest else ""
    return str(CHIPS_WORDS[ChipMove.Kind(move.kind)]).format(guest=who, amount=amount)


def chips_snapshot(move: ChipMove) -> dict[str, object]:
    return {
        "guest": str(move.guest) if move.guest else None,
        "kind": move.kind,
        "source": move.source,
        "chips": f"{move.chips:.2f}",
        "by_denomination": dict(move.by_denomination),
        "note": move.note,
        "dated": move.dated.isoformat(),
    }


CHIPS_RECORDING = Recording(
    model=ChipMove,
    content=lambda move: (
        move.event_id,
        move.guest_id or "tray",
        move.kind,
        move.chips,
        move.source,
        sorted(move.by_denomination.items()),
    ),
    words=chips_words,
    snapshot=chips_snapshot,
    summary=lambda move: str(move.guest) if move.guest else AUDIT_TRAY,
    action=AuditEntry.Action.CHIPS,
)


def _opposite_move(original: ChipMove, reason: str, by: Actor) -> ChipMove:
    return ChipMove(
        event=original.event,
        guest=original.guest,
        kind=original.kind,
        source=original.source,
        chips=-original.chips,
        by_denomination={value: -n for value, n in original.by_denomination.items()},
        note=reason,
        voids=original,
        recorded_by=by,
        dated=original.dated,  # the void undoes that day's row
    )


CHIPS_REVERSAL = Reversal(
    model=ChipMove,
    related=("guest", "event"),
    opposite=_opposite_move,
    snapshot=chips_snapshot,
    summary=lambda move: str(move.guest) if move.guest else AUDIT_TRAY,
    reason_required=MSG_VOID_REASON,
    reason_character=MSG_REASON_CHARACTER,
    void_of_void=MSG_VOID_OF_VOID,
    already_voided=MSG_ALREADY_VOIDED,
    action=AuditEntry.Action.CHIPS_VOIDED,
)


@transaction.atomic
def chips_void(*, move: ChipMove, reason: str, by: Actor) -> ChipMove:
    """Take back chips entered by mistake: the opposite row, with the reason."""
    _lock_open(move.event_id)
    void = reverse(CHIPS_REVERSAL, move, reason=reason, by=by)
    if setup_of(move.event).count_only and move.guest_id is not None:
        count_results_refresh(event=move.event, guest_ids=[move.guest_id])
    announce_night(move.event_id, "chips", [move.guest_id])
    return void


# --- adjustments ----------------------------------------------------------------------------


@transaction.atomic
def adjustment_record(
    *,
    event: Event,
    guest: Guest,
    amount: Decimal,
    reason: str,
    by: Actor,
    idempotency_key: uuid.UUID | None = None,
) -> Adjustment:
    """Book a difference of the count into the guest's result at the night, against the house:
    ``amount`` is what the guest gains (negative: loses)."""
    event = _lock_open(event)
    if not amount.is_finite() or amount == 0 or abs(amount) > MAX_CHIPS or not whole_cents(amount):
        message = MSG_ADJUSTMENT_AMOUNT.format(maximum=format_chips(MAX_CHIPS))
        raise ValidationError({"amount": message})
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": MSG_REASON})
    refused = line_character(reason)
    if refused is not None:
        raise ValidationError({"reason": MSG_REASON_CHARACTER.format(code=refused)})
    if not EventGuest.objects.filter(event=event, guest=guest).exists():
        raise ValidationError({"guest": MSG_NOT_A_GUEST.format(guest=guest)})
    if event.kind == Event.Kind.TOURNAMENT_TABLE or setup_of(event).count_only:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NO_ADJUSTMENT_HERE})
    guest = lock_guest(guest)
    adjustment = Adjustment(event=event, guest=guest, amount=amount, reason=reason)
    recorded = record(ADJUSTMENT_RECORDING, adjustment, by=by, idempotency_key=idempotency_key)
    if recorded.new:
        results_refresh(event_id=event.pk, guest_ids=[guest.pk])
        announce_night(event.pk, "adjustment", [guest.pk])
    return recorded.row


def adjustment_words(adjustment: Adjustment) -> str:
    amount = format_chips(adjustment.amount, adjustment.event.currency_symbol, signed=True)
    return gettext("an adjustment of {amount} for {guest}").format(
        amount=amount, guest=adjustment.guest.name
    )


def adjustment_snapshot(adjustment: Adjustment) -> dict[str, object]:
    return {
        "guest": str(adjustment.guest),
        "amount": f"{adjustment.amount:.2f}",
        "reason": adjustment.reason,
    }


ADJUSTMENT_RECORDING = Recording(
    model=Adjustment,
    content=lambda row: (row.event_id, row.guest_id, row.amount, row.reason),
    words=adjustment_words,
    snapshot=adjustment_snapshot,
    summary=lambda adjustment: str(adjustment.guest),
    action=AuditEntry.Action.ADJUSTMENT,
)


def _opposite_adjustment(original: Adjustment, reason: str, by: Actor) -> Adjustment:
    return Adjustment(
        event=original.event,
        guest=original.guest,
        amount=-original.amount,
        reason=reason,
        voids=original,
        recorded_by=by,
    )


ADJUSTMENT_REVERSAL = Reversal(
    model=Adjustment,
    related=("guest", "event"),
    opposite=_opposite_adjustment,
    snapshot=adjustment_snapshot,
    summary=lambda adjustment: str(adjustment.guest),
    reason_required=MSG_VOID_REASON,
    reason_character=MSG_REASON_CHARACTER,
    void_of_void=MSG_VOID_OF_VOID,
    already_voided=MSG_ALREADY_VOIDED,
    action=AuditEntry.Action.ADJUSTMENT_VOIDED,
)


@transaction.atomic
def adjustment_void(*, adjustment: Adjustment, reason: str, by: Actor) -> Adjustment:
    _lock_open(adjustment.event_id)
    void = reverse(ADJUSTMENT_REVERSAL, adjustment, reason=reason, by=by)
    results_refresh(event_id=adjustment.event_id, guest_ids=[adjustment.guest_id])
    announce_night(adjustment.event_id, "adjustment", [adjustment.guest_id])
    return void


# --- a night kept by its count alone --------------------------------------------------------


def count_results_refresh(*, event: Event, guest_ids: Sequence[int] | None = None) -> None:
    """The night's results, recomputed for these guests (None: all of its guests) after its
    count changed what they are: at a night kept by its count alone, each guest's count less
    what they took (``ledger.money.services.result_rows``)."""
    if guest_ids is None:
        guest_ids = list(EventGuest.objects.filter(event=event).values_list("guest_id", flat=True))
    results_refresh(event_id=event.pk, guest_ids=guest_ids)
