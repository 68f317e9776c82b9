"""The one way a money row is recorded (a settlement, a transfer, chips, an adjustment: every
``ledger.models.MoneyRow``), beside the one way it is taken back (``ledger.money.reversal``).

:func:`record` saves a row its service built and checked: the digest of what it records kept
beside the form's key, the row saved once under that key (the same key again answers the row
it made; the same key with other content is refused in words), the kind's checks of the night
as it stands, and one audit entry. Each kind says only what is its own in a :class:`Recording`.
The service holds its night (and its guests) locked before it calls :func:`record`, and does
after it what follows a new row (the results refreshed, the night announced)."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Generic, TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from ledger.models import AuditEntry, MoneyRow
from shoebook.base.roles import Actor

Row = TypeVar("Row", bound=MoneyRow)

MSG_KEY_USED_FOR = _(
    "This form was already used to record {what}: nothing else was recorded. Reload the page to "
    "record another."
)


def _nothing_to_check(row: object) -> None:
    return None


@dataclass(frozen=True)
class Recording(Generic[Row]):
    """What recording one kind of money row needs besides the row: what its key stands for,
    its words, its audit and its checks of the night as it stands."""

    model: type[Row]
    content: Callable[[Row], tuple[object, ...]]  # what the key stands for: the digest's parts
    words: Callable[[Row], str]  # the row in words: "the key was used to record {what}"
    snapshot: Callable[[Row], dict[str, object]]  # the audit's "after", plain JSON
    summary: Callable[[Row], str]  # the audit's one line
    action: str  # the audit's AuditEntry.Action
    # Refusals that read the night as it stands (a balance, a count), raised as ValidationError:
    # run once the key is known to be new, under the service's locks, before anything is written.
    check: Callable[[Row], None] = field(default=_nothing_to_check)

    def also(self, check: Callable[[Row], None]) -> Recording[Row]:
        """This kind with one more check for this write (what the page saw, a question asked
        first), run after the kind's own."""
        own = self.check

        def both(row: Row) -> None:
            own(row)
            check(row)

        return replace(self, check=both)


@dataclass(frozen=True)
class Recorded(Generic[Row]):
    """What :func:`record` answers: the row, and whether this call made it (``new``) or the
    key had made it before (a second tap, a resend: nothing was written)."""

    row: Row
    new: bool


def record(
    kind: Recording[Row], row: Row, *, by: Actor, idempotency_key: uuid.UUID | None = None
) -> Recorded[Row]:
    """Record ``row`` (unsaved, its content filled in and checked by its service, whose locks
    are held): answered with the row already recorded under ``idempotency_key`` when there is
    one (refused if it recorded other content), else the kind's checks, the row saved with its
    key and digest by ``by``, and one audit entry. A refusal writes nothing."""
    digest = content_digest(*kind.content(row))
    done = recorded_under(kind.model, digest, idempotency_key, kind.words)
    if done is not None:
        return Recorded(done, new=False)
    kind.check(row)
    row.recorded_by = by
    row.idempotency_key = idempotency_key
    row.content_digest = digest if idempotency_key else ""
    row.full_clean(validate_constraints=False)
    done = save_once(row, idempotency_key, kind.words)
    if done is not row:
        return Recorded(done, new=False)
    AuditEntry.objects.create(
        action=kind.action,
        event_id=row.event_id,
        by=by,
        summary=kind.summary(row),
        after=kind.snapshot(row),
    )
    return Recorded(row, new=True)


# --- record()'s parts -------------------------------------------------------------------------


def content_digest(*parts: object) -> str:
    """What a money row records, as a digest kept beside its key (amounts as whole cents)."""
    text = "\x1f".join(f"{part:.2f}" if isinstance(part, Decimal) else str(part) for part in parts)
    return hashlib.sha256(text.encode()).hexdigest()


def recorded_under(
    model: type[Row],
    digest: str,
    idempotency_key: uuid.UUID | None,
    describe: Callable[[Row], str],
) -> Row | None:
    """The row already recorded under ``idempotency_key`` (a second tap, a resend), or None.
    The same key with other content — another amount, guest, payer or night — is refused with
    what the key was used for, never answered as if recorded."""
    if idempotency_key is None:
        return None
    done = model._default_manager.filter(idempotency_key=idempotency_key).first()
    if done is not None and done.content_digest not in ("", digest):
        raise ValidationError({NON_FIELD_ERRORS: MSG_KEY_USED_FOR.format(what=describe(done))})
    return done


def save_once(row: Row, idempotency_key: uuid.UUID | None, describe: Callable[[Row], str]) -> Row:
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
