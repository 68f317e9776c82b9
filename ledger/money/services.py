"""Writes of money rows that are not hands: settlements and their voids, a guest's credit limit, and
the per-event results every page reads, kept in step with the bets."""

from __future__ import annotations

import datetime as dt
import hashlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from typing import TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Count, ExpressionWrapper, F, QuerySet, Sum, Value, When
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS, MoneyField, to_cents
from games.messages import format_chips, whole_cents
from games.models import Event
from ledger.locks import lock_guest, lock_night
from ledger.models import (
    Adjustment,
    AuditEntry,
    Bet,
    Charge,
    ChipMove,
    Expense,
    Guest,
    GuestEventResult,
    Settlement,
    Transfer,
    check_dated,
    dated_default,
)
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import guest_balance_now
from ledger.money.reversal import Reversal, line_character, reverse
from shoebook.base.live import announce_night
from shoebook.base.roles import Actor


def results_add(*, event: Event, bets: Sequence[Bet]) -> None:
    """Add a new hand's bets to their guests' totals for the event: one statement, a row per
    guest inserted or added to (the same sums as :func:`results_refresh`, which ``check_ledger``
    recomputes; a tournament table's are left out, as there)."""
    if event.is_tournament_table or not bets:
        return
    sums: dict[int, list[int]] = {}
    for bet in bets:  # a guest with several bets in the hand counts it once
        row = sums.setdefault(bet.guest_id, [0, 0, 0, 0])
        for index, amount in enumerate((bet.stake, bet.gross, bet.commission, bet.net)):
            row[index] += to_cents(amount)
    table = connection.ops.quote_name(GuestEventResult._meta.db_table)
    added = ", ".join(
        f"{column} = {table}.{column} + excluded.{column}"
        for column in ("stake", "gross", "commission", "net")
    )
    values = ", ".join(["(%s, %s, 1, %s, %s, %s, %s)"] * len(sums))
    sql = (
        f"INSERT INTO {table} (guest_id, event_id, hands, stake, gross, commission, net) "
        f"VALUES {values} ON CONFLICT (guest_id, event_id) DO UPDATE SET "
        f"hands = {table}.hands + 1, {added}"
    )
    parameters = [value for guest_id, row in sums.items() for value in (guest_id, event.pk, *row)]
    with connection.cursor() as cursor:
        cursor.execute(sql, parameters)


def results_refresh(*, event_id: int, guest_ids: Iterable[int]) -> None:
    """Recompute these guests' totals for the event from their bets, or a tournament's from its
    charges (a sum, never an edit)."""
    guest_ids = set(guest_ids)
    if not guest_ids:
        return
    GuestEventResult.objects.filter(event_id=event_id, guest_id__in=guest_ids).delete()
    GuestEventResult.objects.bulk_create(
        result_rows(
            bets=Bet.objects.filter(event_id=event_id, guest_id__in=guest_ids),
            charges=Charge.objects.filter(event_id=event_id, guest_id__in=guest_ids),
            chip_moves=ChipMove.objects.filter(event_id=event_id, guest_id__in=guest_ids),
            adjustments=Adjustment.objects.filter(event_id=event_id, guest_id__in=guest_ids),
        )
    )


@transaction.atomic
def results_rebuild() -> int:
    """Recompute every guest's totals for every event from the bets and charges; returns the
    rows written."""
    GuestEventResult.objects.all().delete()
    rows = result_rows(
        bets=Bet.objects.all(),
        charges=Charge.objects.all(),
        chip_moves=ChipMove.objects.all(),
        adjustments=Adjustment.objects.all(),
    )
    return len(GuestEventResult.objects.bulk_create(rows))


def result_rows(
    *,
    bets: QuerySet[Bet],
    charges: QuerySet[Charge],
    chip_moves: QuerySet[ChipMove],
    adjustments: QuerySet[Adjustment],
) -> list[GuestEventResult]:
    """The totals per guest and event of ``bets`` (a tournament table's left out: tournament
    chips are no one's money), of ``charges`` (a result without hands or stakes), at a night
    kept by its count alone of ``chip_moves`` (chips handed back less chips taken), and of the
    count's ``adjustments`` (booked into the result, like a charge: no hand, no stake)."""
    cash_bets = bets.exclude(event__kind=Event.Kind.TOURNAMENT_TABLE)
    rows = [
        GuestEventResult(**row)
        for row in cash_bets.values("guest_id", "event_id")
        .annotate(hands=Count("hand", distinct=True), **_money_sums())
        .order_by()
    ]
    for row in charges.values("guest_id", "event_id").annotate(net=money_sum("amount")).order_by():
        rows.append(GuestEventResult(hands=0, stake=ZERO, gross=row["net"], commission=ZERO, **row))
    counted = chip_moves.filter(event__count_setup__count_only=True, guest__isnull=False)
    without_hands = [
        *counted.values("guest_id", "event_id").annotate(net=COUNT_LESS_TAKEN).order_by(),
        *adjustments.values("guest_id", "event_id").annotate(net=money_sum("amount")).order_by(),
    ]
    by_key = {(row.guest_id, row.event_id): row for row in rows}
    for row in without_hands:
        found = by_key.get((row["guest_id"], row["event_id"]))
        if found is None:
            found = GuestEventResult(
                guest_id=row["guest_id"],
                event_id=row["event_id"],
                hands=0,
                stake=ZERO,
                gross=ZERO,
                commission=ZERO,
                net=ZERO,
            )
            by_key[(row["guest_id"], row["event_id"])] = found
            rows.append(found)
        found.gross += row["net"]
        found.net += row["net"]
    return rows


# Chips handed back count for the guest, chips taken against them.
COUNT_LESS_TAKEN = Sum(
    Case(
        When(kind=ChipMove.Kind.COUNT, then=F("chips")),
        default=ExpressionWrapper(F("chips") * Value(-1), output_field=MoneyField()),
        output_field=MoneyField(),
    ),
    default=0,
    output_field=MoneyField(),
)


def _money_sums() -> dict[str, Sum]:
    return {name: money_sum(name) for name in ("stake", "gross", "commission", "net")}


MSG_SETTLEMENT_ZERO = _("A settlement moves some money: enter an amount other than zero.")


MSG_SETTLEMENT_NOTE = _("Say what “other” was.")


MSG_NOTE_CHARACTER = _("A note cannot hold the invisible or control character {code}.")


MSG_SETTLEMENT_AMOUNT = _("A settlement is whole cents, at most {maximum} either way.")


MSG_ASK_PAST_BALANCE = _(
    "{guest}'s balance is {balance}: {amount} is more than that and leaves {after}. "
    "Tick “Record it anyway” if that is right."
)


MSG_ASK_GROWS_DEBT = _(
    "{guest}'s balance is {balance}: this goes the other way and leaves {after}. "
    "Tick “Record it anyway” if that is right."
)


MSG_VOID_REASON = _("Say why the settlement is being voided.")


MSG_VOID_REASON_CHARACTER = _("A reason cannot hold the invisible or control character {code}.")


MSG_ALREADY_VOIDED = _("This settlement was already voided by {user} at {time}: nothing changed.")


MSG_VOID_OF_VOID = _(
    "This row is itself a void: it cannot be voided. Record a new settlement instead."
)


KeyedRow = TypeVar("KeyedRow", Settlement, Transfer, ChipMove, Adjustment, Expense)


MSG_KEY_USED_FOR = _(
    "This form was already used to record {what}: nothing else was recorded. Reload the page to "
    "record another."
)


def content_digest(*parts: object) -> str:
    """What a money row records, as a digest kept beside its key (amounts as whole cents)."""
    text = "\x1f".join(f"{part:.2f}" if isinstance(part, Decimal) else str(part) for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()


def recorded_under(
    model: type[KeyedRow],
    digest: str,
    idempotency_key: uuid.UUID | None,
    describe: Callable[[KeyedRow], str],
) -> KeyedRow | None:
    """The row already recorded under ``idempotency_key`` (a second tap, a resend), or None.
    The same key with other content — another amount, guest, payer or night — is refused with
    what the key was used for, never answered as if recorded."""
    if idempotency_key is None:
        return None
    done = model.objects.filter(idempotency_key=idempotency_key).first()
    if done is not None and done.content_digest not in ("", digest):
        raise ValidationError({NON_FIELD_ERRORS: MSG_KEY_USED_FOR.format(what=describe(done))})
    return done


def save_once(
    row: KeyedRow, idempotency_key: uuid.UUID | None, describe: Callable[[KeyedRow], str]
) -> KeyedRow:
    """Save a row a form sent with its key; the row already saved under that key if the same
    form came at the same moment from a second tap (refused if it recorded something else)."""
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:
        done = recorded_under(type(row), row.content_digest, idempotency_key, describe)
        if done is None:
            raise
        return done
    return row


class SettlementQuestion(ValidationError):
    """The settlement goes past the guest's balance or the other way: asked first, not
    recorded (``ask_first``). The host confirms and records it anyway."""


def _check_amount(amount: Decimal) -> None:
    if not amount.is_finite() or abs(amount) > MAX_CHIPS or not whole_cents(amount):
        raise ValidationError({"amount": MSG_SETTLEMENT_AMOUNT.format(maximum=MAX_CHIPS)})
    if amount == 0:
        raise ValidationError({"amount": MSG_SETTLEMENT_ZERO})


def settlement_question(*, guest: Guest, event: Event, balance: Decimal, amount: Decimal) -> str:
    """What to ask before recording ``amount`` against ``balance`` (empty: nothing to ask). A
    settlement that brings the balance toward square, at most to square, is asked nothing."""
    after = balance + amount
    if balance != 0 and (amount > 0) == (balance < 0) and abs(amount) <= abs(balance):
        return ""
    symbol = event.currency_symbol
    figures = {
        "guest": guest.name,
        "balance": format_chips(balance, symbol),
        "amount": format_chips(abs(amount), symbol),
        "after": format_chips(after, symbol),
    }
    if balance != 0 and (amount > 0) == (balance < 0):
        return str(MSG_ASK_PAST_BALANCE).format(**figures)
    return str(MSG_ASK_GROWS_DEBT).format(**figures)


def _settlement_snapshot(settlement: Settlement) -> dict[str, object]:
    return {
        "id": settlement.pk,
        "guest": str(settlement.guest),
        "guest_id": settlement.guest_id,
        "amount": f"{settlement.amount:.2f}",
        "method": settlement.method,
        "note": settlement.note,
        "dated": settlement.dated.isoformat(),
        "recorded_at": settlement.recorded_at.isoformat(),
    }


@transaction.atomic
def settlement_record(
    *,
    guest: Guest,
    event: Event,
    amount: Decimal,
    method: str,
    by: Actor,
    note: str = "",
    ask_first: bool = False,
    idempotency_key: uuid.UUID | None = None,
    dated: dt.date | None = None,
) -> Settlement:
    """Record money that changed hands: ``amount`` is what the guest paid the house (negative
    when the house paid the guest). Partial payments are simply smaller amounts. With
    ``ask_first``, one that goes past the guest's balance as it stands now, or the other way, is
    not recorded: :class:`SettlementQuestion` says what it would do. A form sent again with
    the same ``idempotency_key`` (a double tap) records nothing more: the first row returns.
    ``dated``: the day the money changed hands (:func:`ledger.models.dated_default` unless
    given); ``recorded_at`` stays when it was typed."""
    _check_amount(amount)
    if dated is None:
        dated = dated_default(event)
    check_dated(event, dated)
    if method == Settlement.Method.OTHER and not note.strip():
        raise ValidationError({"note": MSG_SETTLEMENT_NOTE})
    refused = line_character(note)
    if refused is not None:
        raise ValidationError({"note": MSG_NOTE_CHARACTER.format(code=refused)})
    lock_night(event)  # the night first, as every write of its rows (a closed one's too)
    guest = lock_guest(guest)  # one settlement at a time
    digest = content_digest(guest.pk, event.pk, amount, method, note.strip())
    done = recorded_under(Settlement, digest, idempotency_key, _settlement_words)
    if done is not None:
        return done
    if ask_first:
        balance = guest_balance_now(guest_id=guest.pk)
        question = settlement_question(guest=guest, event=event, balance=balance, amount=amount)
        if question:
            raise SettlementQuestion({NON_FIELD_ERRORS: question})
    settlement = Settlement(
        guest=guest,
        event=event,
        amount=amount,
        method=method,
        note=note.strip(),
        recorded_by=by,
        dated=dated,
        idempotency_key=idempotency_key,
        content_digest=digest if idempotency_key else "",
    )
    settlement.full_clean(validate_constraints=False)
    done = save_once(settlement, idempotency_key, _settlement_words)
    if done is not settlement:
        return done
    AuditEntry.objects.create(
        action=AuditEntry.Action.SETTLEMENT,
        event=event,
        by=by,
        summary=str(guest),
        after=_settlement_snapshot(settlement),
    )
    announce_night(event.pk, "settlement", [guest.pk])
    return settlement


def _settlement_words(settlement: Settlement) -> str:
    amount = format_chips(settlement.amount, settlement.event.currency_symbol, signed=True)
    return gettext("a settlement of {amount} for {guest} at {event}").format(
        amount=amount, guest=settlement.guest.name, event=settlement.event.name
    )


def _opposite_settlement(original: Settlement, reason: str, by: Actor) -> Settlement:
    return Settlement(
        guest=original.guest,
        event=original.event,
        amount=-original.amount,
        method=original.method,
        note=reason,
        voids=original,
        recorded_by=by,
        dated=original.dated,  # the void undoes that day's row
    )


SETTLEMENT_REVERSAL = Reversal(
    model=Settlement,
    related=("guest", "event"),
    opposite=_opposite_settlement,
    snapshot=_settlement_snapshot,
    summary=lambda settlement: str(settlement.guest),
    reason_required=MSG_VOID_REASON,
    reason_character=MSG_VOID_REASON_CHARACTER,
    void_of_void=MSG_VOID_OF_VOID,
    already_voided=MSG_ALREADY_VOIDED,
)


@transaction.atomic
def settlement_void(*, settlement: Settlement, reason: str, by: Actor) -> Settlement:
    """Reverse a settlement recorded by mistake: a new row with the amount negated, at the same
    event, pointing at it, the reason as its note (see :mod:`ledger.money.reversal`)."""
    lock_night(settlement.event_id)
    void = reverse(SETTLEMENT_REVERSAL, settlement, reason=reason, by=by)
    announce_night(settlement.event_id, "settlement", [settlement.guest_id])
    return void
