"""The one way a money row is taken back: never edited or deleted, but reversed by a new row that
moves the same money the other way, points at the row it voids and carries the reason. Balances
stay sums of rows (``ledger.money.lines``), and both rows show everywhere.

Settlements and transfers between guests are reversed here; each kind says what its opposite row
is and words its refusals. A row is voided once; a void is never voided.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar
from unicodedata import category

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.messages import refused_character
from ledger.models import Adjustment, AuditEntry, ChipMove, Expense, Settlement, Transfer
from shoebook.base.roles import Actor

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Text  # what gettext_lazy gives

Row = TypeVar("Row", Settlement, Transfer, ChipMove, Adjustment, Expense)


@dataclass(frozen=True)
class Reversal(Generic[Row]):
    """What reversing one kind of row needs: its opposite, its audit, its words."""

    model: type[Row]
    related: tuple[str, ...]  # what the audit and the messages read of the row
    opposite: Callable[[Row, str, Actor], Row]  # the unsaved row that takes it back
    snapshot: Callable[[Row], dict[str, object]]
    summary: Callable[[Row], str]
    reason_required: Text
    reason_character: Text  # with {code}
    void_of_void: Text
    already_voided: Text  # with {user} and {time}
    action: str = AuditEntry.Action.SETTLEMENT_VOIDED


def line_character(text: str) -> str | None:
    """A character a one-line note may not hold: control and invisible ones, line breaks too."""
    refused = refused_character(text)
    if refused is None:
        breaks = (char for char in text if char in "\t\n\r" or category(char) in ("Zl", "Zp"))
        refused = next((f"U+{ord(char):04X}" for char in breaks), None)
    return refused


def reverse(kind: Reversal[Row], row: Row, *, reason: str, by: Actor) -> Row:
    """Void ``row``: its opposite saved, pointing at it, with ``reason`` as its note, and one
    audit entry. Refused, naming why, when there is no reason, when the row is a void itself or
    when it was voided already (by another device a moment ago, too)."""
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": kind.reason_required})
    refused = line_character(reason)
    if refused is not None:
        raise ValidationError({"reason": kind.reason_character.format(code=refused)})
    # Only the row itself is locked: what it joins may be the house (an outer join, which
    # PostgreSQL will not lock), and nothing else changes.
    lock = kind.model.objects.select_for_update(of=("self",), no_key=True)
    original = lock.select_related(*kind.related).get(pk=row.pk)
    if original.voids_id is not None:
        raise ValidationError({NON_FIELD_ERRORS: kind.void_of_void})
    existing = kind.model.objects.select_related("recorded_by").filter(voids=original).first()
    if existing is not None:
        raise ValidationError({NON_FIELD_ERRORS: _already_voided(kind, existing)})
    void = kind.opposite(original, reason, by)
    void.full_clean(validate_constraints=False, validate_unique=False)
    try:
        with transaction.atomic():
            void.save()
    except IntegrityError as error:  # another device voided it first
        existing = kind.model.objects.select_related("recorded_by").get(voids=original)
        raise ValidationError({NON_FIELD_ERRORS: _already_voided(kind, existing)}) from error
    AuditEntry.objects.create(
        action=kind.action,
        event=original.event,
        by=by,
        summary=kind.summary(original),
        before=kind.snapshot(original),
        after=kind.snapshot(void),
    )
    return void


def _already_voided(kind: Reversal[Row], void: Row) -> str:
    local = timezone.localtime(void.recorded_at)
    time = f"{local:%Y-%m-%d %H:%M}"
    return str(kind.already_voided).format(user=void.recorded_by, time=time)
