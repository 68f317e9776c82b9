"""Writes of expenses: one recorded with its shares computed once, one voided by its opposite."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from decimal import Decimal

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.locks import lock_open_night
from games.messages import format_chips, whole_cents
from games.models import Event
from ledger.expenses.shares import ordered, split_amount
from ledger.locks import hold_guests
from ledger.models import AuditEntry, EventGuest, Expense, ExpenseShare, Guest
from ledger.money.recording import Recording, record
from ledger.money.reversal import Reversal, line_character, reverse
from shoebook.base.live import announce_night
from shoebook.base.roles import Actor

WHAT_MAX_LENGTH = 200
MAX_WEIGHT = 1000  # a share's weight: 2:1:1, or a guest's hours; never a typo's millions

MSG_EXPENSE_CLOSED = _("This night is closed: reopen it to record or void an expense.")
MSG_EXPENSE_AMOUNT = _("An expense is an amount above zero in whole cents, at most {maximum}.")
MSG_EXPENSE_WHAT = _("Say what the expense was (pizza, drinks…).")
MSG_EXPENSE_WHAT_LONG = _("Say what the expense was in at most {maximum} characters.")
MSG_EXPENSE_WHAT_CHARACTER = _(
    "What the expense was cannot hold the invisible or control character {code}."
)
MSG_EXPENSE_NO_SHARERS = _("Say who shares the expense: some of the night's guests, the house.")
MSG_EXPENSE_NOT_A_GUEST = _("{guest} is not on this night's guest list: add them first.")
MSG_EXPENSE_WEIGHT = _("A share is a whole number from 1 to {maximum}.")
MSG_EXPENSE_TRAY = _("Chips from the tray are the house's: the house paid.")
MSG_EXPENSE_STACK = _("Chips from a stack are a guest's: say which guest paid.")
MSG_EXPENSE_TABLE = _(
    "A tournament table's chips are no one's money: record the expense at the tournament's night."
)
MSG_EXPENSE_VOID_REASON = _("Say why the expense is being voided.")
MSG_EXPENSE_VOID_REASON_CHARACTER = _(
    "A reason cannot hold the invisible or control character {code}."
)
MSG_EXPENSE_VOID_OF_VOID = _(
    "This row is itself a void: it cannot be voided. Record a new expense instead."
)
MSG_EXPENSE_ALREADY_VOIDED = _(
    "This expense was already voided by {user} at {time}: nothing changed."
)


def _lock_open(event: Event | int) -> Event:
    """The night locked first, as every write of its rows, and refused once closed: an expense
    paid in chips is part of the count, which a close settles."""
    return lock_open_night(event, MSG_EXPENSE_CLOSED)


def _check_what(what: str) -> str:
    what = what.strip()
    if not what:
        raise ValidationError({"what": MSG_EXPENSE_WHAT})
    if len(what) > WHAT_MAX_LENGTH:
        raise ValidationError({"what": MSG_EXPENSE_WHAT_LONG.format(maximum=WHAT_MAX_LENGTH)})
    refused = line_character(what)
    if refused is not None:
        raise ValidationError({"what": MSG_EXPENSE_WHAT_CHARACTER.format(code=refused)})
    return what


def _check_amount(amount: Decimal) -> None:
    if not amount.is_finite() or not whole_cents(amount) or not 0 < amount <= MAX_CHIPS:
        message = MSG_EXPENSE_AMOUNT.format(maximum=format_chips(MAX_CHIPS))
        raise ValidationError({"amount": message})


def _weights(
    sharers: Sequence[tuple[Guest | None, int]], split: str
) -> list[tuple[Guest | None, int]]:
    """The sharers in the odd cent's order (``shares.ordered``), each once, with their weight
    (1 each for an equal split)."""
    if not sharers:
        raise ValidationError({"sharers": MSG_EXPENSE_NO_SHARERS})
    by_id: dict[int | None, tuple[Guest | None, int]] = {}
    for guest, weight in sharers:
        if split == Expense.Split.EQUAL:
            weight = 1
        if not 1 <= weight <= MAX_WEIGHT:
            raise ValidationError({"sharers": MSG_EXPENSE_WEIGHT.format(maximum=MAX_WEIGHT)})
        by_id[None if guest is None else guest.pk] = (guest, weight)
    guest_ids = [pk for pk in by_id if pk is not None]
    return [by_id[pk] for pk in ordered(guest_ids, None in by_id)]


@transaction.atomic
def expense_record(
    *,
    event: Event,
    what: str,
    amount: Decimal,
    paid_by: Guest | None,
    sharers: Sequence[tuple[Guest | None, int]],
    by: Actor,
    split: str = Expense.Split.EQUAL,
    paid_in: str = Expense.PaidIn.MONEY,
    idempotency_key: uuid.UUID | None = None,
) -> Expense:
    """Record an expense of ``event``: ``amount`` (chips, like every amount of the night) paid by
    ``paid_by`` (None: the house) in money or in chips (from the tray, or the payer's stack),
    shared among ``sharers`` (a guest or None for the house, each with a weight; every weight
    counts as 1 for an equal split). The shares are computed here, once, by the odd cent's rule
    (``ledger.expenses.shares``) and stored. A form sent again with the same key records
    nothing more: the first expense returns."""
    event = _lock_open(event)
    if event.kind == Event.Kind.TOURNAMENT_TABLE:
        raise ValidationError({NON_FIELD_ERRORS: MSG_EXPENSE_TABLE})
    what = _check_what(what)
    _check_amount(amount)
    if split not in Expense.Split.values:
        split = Expense.Split.EQUAL
    if paid_in == Expense.PaidIn.TRAY and paid_by is not None:
        raise ValidationError({"paid_in": MSG_EXPENSE_TRAY})
    if paid_in == Expense.PaidIn.STACK and paid_by is None:
        raise ValidationError({"paid_in": MSG_EXPENSE_STACK})
    if paid_in not in Expense.PaidIn.values:
        paid_in = Expense.PaidIn.MONEY
    weights = _weights(sharers, split)
    guests = [guest for guest, _weight in weights if guest is not None]
    if paid_by is not None:
        guests.append(paid_by)
    listed = set(
        EventGuest.objects.filter(event=event, guest__in=[g.pk for g in guests]).values_list(
            "guest_id", flat=True
        )
    )
    for guest in guests:
        if guest.pk not in listed:
            field = "paid_by" if guest is paid_by else "sharers"
            raise ValidationError({field: MSG_EXPENSE_NOT_A_GUEST.format(guest=guest.name)})
    hold_guests([guest.pk for guest in guests])
    expense = Expense(
        event=event, what=what, amount=amount, paid_by=paid_by, split=split, paid_in=paid_in
    )
    amounts = split_amount(amount, weights)
    expense.planned_shares = [
        ExpenseShare(guest=guest, weight=weight, amount=share)
        for (guest, weight), share in zip(weights, amounts, strict=True)
    ]
    recorded = record(EXPENSE_RECORDING, expense, by=by, idempotency_key=idempotency_key)
    if recorded.new:
        _save_shares(expense)
        announce_night(event.pk, "expense", _concerned(expense))
    return recorded.row


def _save_shares(expense: Expense) -> None:
    """The shares an expense was recorded with (computed before it, in its digest and its audit
    entry), saved once it has its id."""
    for share in expense.planned_shares:
        share.expense = expense
    ExpenseShare.objects.bulk_create(expense.planned_shares)


def _content(expense: Expense) -> tuple[object, ...]:
    payer = expense.paid_by_id if expense.paid_by_id is not None else "house"
    weights = (
        f"{'house' if share.guest_id is None else share.guest_id}:{share.weight}"
        for share in expense.planned_shares
    )
    return (expense.event_id, expense.what, expense.amount, payer, expense.split,
            expense.paid_in, *weights)  # fmt: skip


def _concerned(expense: Expense) -> list[int | None]:
    return [expense.paid_by_id, *(share.guest_id for share in expense.shares.all())]


def expense_words(expense: Expense) -> str:
    amount = format_chips(expense.amount, expense.event.currency_symbol)
    return gettext("an expense of {amount} ({what})").format(amount=amount, what=expense.what)


def expense_snapshot(expense: Expense) -> dict[str, object]:
    return {
        "id": expense.pk,
        "what": expense.what,
        "amount": f"{expense.amount:.2f}",
        "paid_by": str(expense.paid_by) if expense.paid_by is not None else "",
        "paid_by_id": expense.paid_by_id,
        "split": expense.split,
        "paid_in": expense.paid_in,
        "note": expense.note,
        "shares": [
            [share.guest_id, share.weight, f"{share.amount:.2f}"] for share in _shares_of(expense)
        ],
    }


def _shares_of(expense: Expense) -> list[ExpenseShare]:
    """The shares as recorded: planned with the row (being recorded now), else stored."""
    if expense.planned_shares:
        return list(expense.planned_shares)
    if expense.pk is None:
        return []
    return list(ExpenseShare.objects.filter(expense_id=expense.pk).order_by("id"))


EXPENSE_RECORDING = Recording(
    model=Expense,
    content=_content,
    words=lambda expense: expense_words(expense),
    snapshot=expense_snapshot,
    summary=lambda expense: expense.what[:200],
    action=AuditEntry.Action.EXPENSE,
)


def _opposite_expense(original: Expense, reason: str, by: Actor) -> Expense:
    void = Expense(
        event=original.event,
        what=original.what,
        amount=-original.amount,
        paid_by=original.paid_by,
        split=original.split,
        paid_in=original.paid_in,
        note=reason,
        voids=original,
        recorded_by=by,
    )
    void.planned_shares = [
        ExpenseShare(guest_id=share.guest_id, weight=share.weight, amount=-share.amount)
        for share in ExpenseShare.objects.filter(expense_id=original.pk).order_by("id")
    ]
    return void


EXPENSE_REVERSAL = Reversal(
    model=Expense,
    related=("event", "paid_by"),
    opposite=_opposite_expense,
    snapshot=expense_snapshot,
    summary=lambda expense: expense.what[:200],
    reason_required=MSG_EXPENSE_VOID_REASON,
    reason_character=MSG_EXPENSE_VOID_REASON_CHARACTER,
    void_of_void=MSG_EXPENSE_VOID_OF_VOID,
    already_voided=MSG_EXPENSE_ALREADY_VOIDED,
    action=AuditEntry.Action.EXPENSE_VOIDED,
)


@transaction.atomic
def expense_void(*, expense: Expense, reason: str, by: Actor) -> Expense:
    """Take an expense back (never edited): its opposite, the amount and every share negated,
    pointing at it, the reason as its note (``ledger.money.reversal``)."""
    _lock_open(expense.event_id)
    void = reverse(EXPENSE_REVERSAL, expense, reason=reason, by=by)
    _save_shares(void)
    announce_night(expense.event_id, "expense", _concerned(void))
    return void
