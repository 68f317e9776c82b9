"""Writes of the dealers' tips: a tip recorded and voided, a dealer's shift started, stopped or
entered whole, and how the night's pool is shared. Each locks its night first, is audited, and a
tip is keyed like a settlement (a second tap records nothing more) and voided by its opposite.
"""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.locks import lock_open_night
from games.messages import format_chips, whole_cents
from games.models import Event, Hand, Shoe
from ledger.locks import lock_guest
from ledger.models import (
    AuditEntry,
    Bet,
    CountSetup,
    DealerShift,
    EventGuest,
    Guest,
    Tip,
    TipSharing,
)
from ledger.money.amounts import money_sum
from ledger.money.recording import Recording, record
from ledger.money.reversal import Reversal, line_character, reverse
from shoebook.base.live import announce_night
from shoebook.base.roles import DEALERS, Actor, is_host

MSG_TIP_AMOUNT = _("A tip is a positive amount in whole cents, at most {maximum}.")
MSG_NO_TIPS_HERE = _(
    "No tips at a tournament: its chips are no one's money. Tip at a night of cash games."
)
MSG_CHIPS_IN_THE_COUNT = _(
    "This night is kept by its count alone: chips tipped at the table are already out of the"
    " guest's count. Record a tip in money instead."
)
MSG_NOT_A_GUEST = _("{guest} is not on this night's guest list: add them first.")
MSG_SOURCE = _("Say where the tip came from: a hand's win, chips at the table or money.")
MSG_HAND_ELSEWHERE = _("That hand is not one of this night's.")
MSG_HAND_ONLY_FROM_A_WIN = _("Only a tip from a hand's win names its hand.")
MSG_MORE_THAN_WON = _(
    "{guest} won {won} on hand {hand}: a tip from that win is at most what they won."
)
MSG_NOTE_CHARACTER = _("A note cannot hold the invisible or control character {code}.")
MSG_VOID_REASON = _("Say why the tip is being voided.")
MSG_VOID_REASON_CHARACTER = _("A reason cannot hold the invisible or control character {code}.")
MSG_ALREADY_VOIDED = _("This tip was already voided by {user} at {time}: nothing changed.")
MSG_VOID_OF_VOID = _("This row voids a tip: it cannot be voided itself. Record the tip again.")
MSG_NOT_A_DEALER = _("{user} is not a dealer: only logins in the Dealers group deal.")
MSG_NOT_YOUR_SHIFT = _("A dealer starts and stops only their own shifts.")
MSG_SHOE_ELSEWHERE = _("That shoe is not one of this night's.")
MSG_ALREADY_DEALING = _("{dealer} is already dealing at this night since {time}: stop that first.")
MSG_SHIFT_ENDED = _("This shift ended at {time} already: nothing changed.")
MSG_ENDS_BEFORE = _("A shift ends after it starts.")
MSG_IN_THE_FUTURE = _("A time later than now: a shift is recorded once it happened.")
MSG_SHIFT_REASON = _("Say why the shift is being removed.")
MSG_SHIFT_GONE = _("This shift was removed already (on another device?): nothing changed.")
MSG_SHARING = _("Choose how the tips are shared: by time at the table or equally.")
MSG_NIGHT_CLOSED = _("This night is closed: reopen it to record tips or dealers' shifts.")
MSG_SHIFT_OVERLAPS = _("{dealer} has a shift at this night from {start} already: shifts overlap.")


def _lock_open(event: Event | int) -> Event:
    """The night locked first, as every write of its rows, and refused once closed: its pool and
    its shares are settled by the close (which ends every open shift)."""
    return lock_open_night(event, MSG_NIGHT_CLOSED)


def _check_amount(amount: Decimal) -> None:
    if not amount.is_finite() or amount <= 0 or amount > MAX_CHIPS or not whole_cents(amount):
        raise ValidationError({"amount": MSG_TIP_AMOUNT.format(maximum=format_chips(MAX_CHIPS))})


def tip_words(tip: Tip) -> str:
    amount = format_chips(tip.amount, tip.event.currency_symbol)
    return gettext("a tip of {amount} from {guest}").format(amount=amount, guest=tip.guest.name)


def tip_snapshot(tip: Tip) -> dict[str, object]:
    return {
        "id": tip.pk,
        "guest": str(tip.guest),
        "guest_id": tip.guest_id,
        "amount": f"{tip.amount:.2f}",
        "source": tip.source,
        "hand_id": tip.hand_id,
        "note": tip.note,
        "recorded_at": tip.recorded_at.isoformat(),
    }


def _tipped_from(hand: Hand, guest: Guest) -> Decimal:
    """What the guest has tipped from the hand's win already (voids taking theirs back)."""
    tipped = Tip.objects.filter(hand=hand, guest=guest).aggregate(n=money_sum("amount"))["n"]
    return Decimal(0) if tipped is None else Decimal(tipped)


def _won_on(hand: Hand, guest: Guest) -> Decimal:
    won = Bet.objects.filter(hand=hand, guest=guest).aggregate(n=money_sum("net"))["n"]
    return Decimal(0) if won is None else Decimal(won)


@transaction.atomic
def tip_record(
    *,
    event: Event,
    guest: Guest,
    amount: Decimal,
    source: str,
    by: Actor,
    hand: Hand | None = None,
    note: str = "",
    idempotency_key: uuid.UUID | None = None,
) -> Tip:
    """Record ``guest``'s tip of ``amount`` chips to the night's dealers: it leaves the guest's
    balance and joins the night's pool (the house's result does not change). From a hand's win
    (``hand`` optional; at most what the guest won on it), in chips at the table, or in money at
    the end."""
    _check_amount(amount)
    if source not in Tip.Source.values:
        raise ValidationError({"source": MSG_SOURCE})
    if hand is not None and source != Tip.Source.HAND_WIN:
        raise ValidationError({"hand": MSG_HAND_ONLY_FROM_A_WIN})
    note = note.strip()
    refused = line_character(note)
    if refused is not None:
        raise ValidationError({"note": MSG_NOTE_CHARACTER.format(code=refused)})
    event = _lock_open(event)
    if event.kind in (Event.Kind.TOURNAMENT, Event.Kind.TOURNAMENT_TABLE):
        raise ValidationError({NON_FIELD_ERRORS: MSG_NO_TIPS_HERE})
    if not EventGuest.objects.filter(event=event, guest=guest).exists():
        raise ValidationError({"guest": MSG_NOT_A_GUEST.format(guest=guest)})
    counted_alone = CountSetup.objects.filter(event=event, count_only=True).exists()
    if source != Tip.Source.MONEY and counted_alone:
        raise ValidationError({"source": MSG_CHIPS_IN_THE_COUNT})
    if hand is not None:
        if not Shoe.objects.filter(pk=hand.shoe_id, event=event).exists():
            raise ValidationError({"hand": MSG_HAND_ELSEWHERE})
        won = _won_on(hand, guest) - _tipped_from(hand, guest)
        if amount > won:
            message = MSG_MORE_THAN_WON.format(
                guest=guest.name,
                won=format_chips(won, event.currency_symbol),
                hand=hand.number,
            )
            raise ValidationError({"amount": message})
    guest = lock_guest(guest)
    tip = Tip(event=event, guest=guest, amount=amount, source=source, hand=hand, note=note)
    recorded = record(TIP_RECORDING, tip, by=by, idempotency_key=idempotency_key)
    if recorded.new:
        announce_night(event.pk, "tip", [guest.pk])
    return recorded.row


TIP_RECORDING = Recording(
    model=Tip,
    content=lambda tip: (
        tip.event_id,
        tip.guest_id,
        tip.amount,
        tip.source,
        tip.hand_id or "",
        tip.note,
    ),
    words=lambda tip: tip_words(tip),
    snapshot=lambda tip: tip_snapshot(tip),
    summary=lambda tip: str(tip.guest),
    action=AuditEntry.Action.TIP,
)


def _opposite_tip(original: Tip, reason: str, by: Actor) -> Tip:
    return Tip(
        event=original.event,
        guest=original.guest,
        amount=-original.amount,
        source=original.source,
        hand=original.hand,
        note=reason,
        voids=original,
        recorded_by=by,
    )


TIP_REVERSAL = Reversal(
    model=Tip,
    related=("guest", "event"),
    opposite=_opposite_tip,
    snapshot=tip_snapshot,
    summary=lambda tip: str(tip.guest),
    reason_required=MSG_VOID_REASON,
    reason_character=MSG_VOID_REASON_CHARACTER,
    void_of_void=MSG_VOID_OF_VOID,
    already_voided=MSG_ALREADY_VOIDED,
    action=AuditEntry.Action.TIP_VOIDED,
)


@transaction.atomic
def tip_void(*, tip: Tip, reason: str, by: Actor) -> Tip:
    """Take a tip back (recorded by mistake): its opposite, pointing at it, with the reason."""
    _lock_open(tip.event_id)
    void = reverse(TIP_REVERSAL, tip, reason=reason, by=by)
    announce_night(tip.event_id, "tip", [tip.guest_id])
    return void


# --- shifts and sharing -----------------------------------------------------------------------


def is_dealer(user: User) -> bool:
    return user.groups.filter(name=DEALERS).exists()


def _shift_snapshot(shift: DealerShift) -> dict[str, object]:
    return {
        "id": shift.pk,
        "dealer": shift.dealer.get_username(),
        "shoe_id": shift.shoe_id,
        "started_at": shift.started_at.isoformat(),
        "ended_at": shift.ended_at.isoformat() if shift.ended_at else None,
    }


def _check_times(started_at: dt.datetime, ended_at: dt.datetime | None) -> None:
    now = timezone.now()
    if started_at > now or (ended_at is not None and ended_at > now):
        raise ValidationError({"started_at": MSG_IN_THE_FUTURE})
    if ended_at is not None and ended_at < started_at:
        raise ValidationError({"ended_at": MSG_ENDS_BEFORE})


@transaction.atomic
def shift_start(
    *,
    event: Event,
    dealer: User,
    by: Actor,
    shoe: Shoe | None = None,
    started_at: dt.datetime | None = None,
    ended_at: dt.datetime | None = None,
) -> DealerShift:
    """``dealer`` starts dealing at the night (at ``shoe``, or the table): now, or at the times
    the host enters (a whole shift with ``ended_at``). A dealer records only their own, and one
    open shift at a time."""
    if not is_host(by) and by.pk != dealer.pk:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_YOUR_SHIFT})
    if not is_dealer(dealer):
        raise ValidationError({"dealer": MSG_NOT_A_DEALER.format(user=dealer.get_username())})
    started_at = started_at or timezone.now()
    _check_times(started_at, ended_at)
    event = _lock_open(event)
    if shoe is not None and shoe.event_id != event.pk:
        raise ValidationError({"shoe": MSG_SHOE_ELSEWHERE})
    _refuse_overlap(event, dealer, started_at, ended_at)
    if ended_at is None:
        open_shift = DealerShift.objects.filter(event=event, dealer=dealer, ended_at__isnull=True)
        current = open_shift.first()
        if current is not None:
            time = f"{timezone.localtime(current.started_at):%H:%M}"
            message = MSG_ALREADY_DEALING.format(dealer=dealer.get_username(), time=time)
            raise ValidationError({NON_FIELD_ERRORS: message})
    shift = DealerShift.objects.create(
        event=event,
        dealer=dealer,
        shoe=shoe,
        started_at=started_at,
        ended_at=ended_at,
        recorded_by=by,
    )
    AuditEntry.objects.create(
        action=AuditEntry.Action.DEALER_SHIFT,
        event=event,
        by=by,
        summary=dealer.get_username(),
        after=_shift_snapshot(shift),
    )
    announce_night(event.pk, "shift", [])
    return shift


def _refuse_overlap(
    event: Event, dealer: User, started_at: dt.datetime, ended_at: dt.datetime | None
) -> None:
    """A dealer deals one shift at a time: a shift (open: to no end) overlapping another of
    theirs at the night is refused, so that no time is counted twice."""
    theirs = DealerShift.objects.filter(event=event, dealer=dealer)
    if ended_at is not None:
        theirs = theirs.filter(started_at__lt=ended_at)
    clash = theirs.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=started_at)).first()
    if clash is not None:
        start = f"{timezone.localtime(clash.started_at):%Y-%m-%d %H:%M}"
        message = MSG_SHIFT_OVERLAPS.format(dealer=dealer.get_username(), start=start)
        raise ValidationError({NON_FIELD_ERRORS: message})


@transaction.atomic
def shift_stop(
    *, shift: DealerShift, by: Actor, ended_at: dt.datetime | None = None
) -> DealerShift:
    """The dealer stops dealing: the shift ends now (or when the host says)."""
    if not is_host(by) and by.pk != shift.dealer_id:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_YOUR_SHIFT})
    _lock_open(shift.event_id)
    locked = DealerShift.objects.select_for_update(of=("self",), no_key=True).select_related(
        "dealer"
    )
    shift = locked.get(pk=shift.pk)
    if shift.ended_at is not None:
        time = f"{timezone.localtime(shift.ended_at):%H:%M}"
        raise ValidationError({NON_FIELD_ERRORS: MSG_SHIFT_ENDED.format(time=time)})
    before = _shift_snapshot(shift)
    ended_at = ended_at or timezone.now()
    _check_times(shift.started_at, ended_at)
    shift.ended_at = ended_at
    shift.save(update_fields=["ended_at"])
    AuditEntry.objects.create(
        action=AuditEntry.Action.DEALER_SHIFT,
        event_id=shift.event_id,
        by=by,
        summary=shift.dealer.get_username(),
        before=before,
        after=_shift_snapshot(shift),
    )
    announce_night(shift.event_id, "shift", [])
    return shift


@transaction.atomic
def shift_remove(*, shift: DealerShift, reason: str, by: Actor) -> None:
    """Take back a shift entered by mistake (the host's): gone from the pool's sharing, kept in
    the audit log with the reason. A shift is no money: it is removed, not voided."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": MSG_SHIFT_REASON})
    refused = line_character(reason)
    if refused is not None:
        raise ValidationError({"reason": MSG_VOID_REASON_CHARACTER.format(code=refused)})
    _lock_open(shift.event_id)
    locked = DealerShift.objects.select_for_update(of=("self",), no_key=True)
    found = locked.select_related("dealer").filter(pk=shift.pk).first()
    if found is None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_SHIFT_GONE})
    before = _shift_snapshot(found)
    found.delete()
    AuditEntry.objects.create(
        action=AuditEntry.Action.DEALER_SHIFT,
        event_id=shift.event_id,
        by=by,
        summary=f"{found.dealer.get_username()}: {reason}"[:200],
        before=before,
    )
    announce_night(shift.event_id, "shift", [])


@transaction.atomic
def tip_sharing_set(*, event: Event, way: str, by: Actor) -> TipSharing:
    """How the night's pool is shared among its dealers: by time at the table or equally."""
    if way not in TipSharing.Way.values:
        raise ValidationError({"way": MSG_SHARING})
    event = _lock_open(event)
    sharing = TipSharing.objects.filter(event=event).first()
    before = None if sharing is None else {"way": sharing.way}
    if sharing is None:
        sharing = TipSharing.objects.create(event=event, way=way, recorded_by=by)
    else:
        sharing.way, sharing.recorded_by, sharing.recorded_at = way, by, timezone.now()
        sharing.save(update_fields=["way", "recorded_by", "recorded_at"])
    AuditEntry.objects.create(
        action=AuditEntry.Action.TIP_SHARING,
        event=event,
        by=by,
        summary=str(event),
        before=before,
        after={"way": way},
    )
    announce_night(event.pk, "tip", [])
    return sharing
