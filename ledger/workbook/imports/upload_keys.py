"""An upload is imported once: the import form carries an idempotency key, kept with the nights
the import made (:class:`ledger.models.ImportKey`). Sent again — a retry after a lost answer, a
second tap while the first is still running — it is answered with those nights."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Generic, TypeVar

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.models import ImportKey
from ledger.workbook.imports.night_writer import claim_night
from shoebook.base.roles import Actor

MSG_KEY_USED_FOR_IMPORT = _(
    "This form was already used to import {nights}: nothing else was imported. Reload the page "
    "to import another file."
)

MSG_NIGHT_NAMED = _("“{name}” of {date}")

Written = TypeVar("Written")


def upload_digest(content: bytes, fields: Iterable[tuple[str, str]]) -> str:
    """What an upload sent — the file's bytes and the form's fields — as a digest kept beside
    its key: a resend sends the same, another file under the same key does not."""
    digest = hashlib.sha256(content)
    for name, value in sorted(fields):
        digest.update(f"\x1e{name}\x1f{value}".encode())
    return digest.hexdigest()


def nights_text(events: Sequence[Event]) -> str:
    return ", ".join(
        MSG_NIGHT_NAMED.format(name=event.name, date=f"{event.date:%Y-%m-%d}") for event in events
    )


def imported_under(key: uuid.UUID | None, digest: str) -> list[Event] | None:
    """The nights an upload sent with ``key`` made, or ``None`` if none was imported under it.
    The same key with another upload is refused with what it imported."""
    if key is None:
        return None
    done = ImportKey.objects.filter(key=key).first()
    if done is None:
        return None
    events = list(done.events.order_by("pk"))
    if done.content_digest != digest:
        message = MSG_KEY_USED_FOR_IMPORT.format(nights=nights_text(events))
        raise ValidationError({NON_FIELD_ERRORS: message})
    return events


@dataclass(frozen=True)
class KeyedImport(Generic[Written]):
    """An import's answer: what it wrote (``None`` when an earlier upload under the same key
    had, and ``events`` are that one's nights)."""

    written: Written | None
    events: list[Event]


def import_once(
    *,
    key: uuid.UUID | None,
    digest: str,
    by: Actor,
    nights: Iterable[tuple[str, date]],
    write: Callable[[], Written],
    events_of: Callable[[Written], Sequence[Event]],
) -> KeyedImport[Written]:
    """Run ``write`` (an import, atomic) under ``key``: the key's row is inserted first, in the
    import's transaction, so the same upload arriving while the first is still running waits on
    it (PostgreSQL's unique index; SQLite's one writer) and is answered with the nights it made;
    if the first is refused, nothing is kept under the key and the second goes ahead. The
    ``nights`` it writes (name, day) are claimed next (:func:`claim_night`): another upload of
    one of them, under another key, that wrote it meanwhile refuses this one (``NightTaken``)."""
    claimed = sorted(nights, key=lambda night: (night[1], night[0]))  # one order for every import
    if key is None:
        with transaction.atomic():
            for name, on in claimed:
                claim_night(name, on)
            written = write()
        return KeyedImport(written, list(events_of(written)))
    try:
        with transaction.atomic():
            row = ImportKey.objects.create(key=key, content_digest=digest, recorded_by=by)
            for name, on in claimed:
                claim_night(name, on)
            written = write()
            events = list(events_of(written))
            row.events.set(events)
    except IntegrityError:
        done = imported_under(key, digest)
        if done is None:
            raise
        return KeyedImport(None, done)
    return KeyedImport(written, events)
