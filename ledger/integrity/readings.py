"""A night read by the rules it was played under. A rule that changed between releases (the
bank's rotation: ``games.kinds.BankRotation``) is stored per night; when a night's stored reading
is not known — a backup written before it was stored — or is in doubt after an upgrade, the
reading is the one under which the night's coups settle again exactly as they were stored.

``restore`` reads so the nights of an older backup; ``manage.py night_rules`` lets the operator
see and set a night's reading, kept only if the night's books are then clean
(docs/operations.md, "When a check fails after an upgrade").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from games.kinds import BankRotation, Game
from games.locks import lock_night
from games.models import Event
from ledger.integrity import check_ledger
from ledger.integrity.coups import (
    MSG_COUP_BET,
    MSG_COUP_BET_EXTRA,
    MSG_COUP_BET_MISSING,
    MSG_COUP_HAND,
    MSG_COUP_RECORD,
    MSG_COUP_UNSETTLED,
)
from ledger.integrity.report import LedgerProblem
from ledger.models import AuditEntry
from shoebook.base.roles import Actor

COUP_PROBLEMS = (
    MSG_COUP_UNSETTLED, MSG_COUP_RECORD, MSG_COUP_HAND, MSG_COUP_BET, MSG_COUP_BET_EXTRA,
    MSG_COUP_BET_MISSING,
)  # fmt: skip
# Newest first: a night whose reading is not known is tried under today's rule first.
READINGS = (BankRotation.SKIPS_LOSER, BankRotation.ORIGINAL)


def problems_under(event: Event, rotation: BankRotation) -> list[LedgerProblem]:
    """The night's problems (``check_ledger`` on it) were it read under ``rotation``; nothing
    is changed."""
    with transaction.atomic():
        Event.objects.filter(pk=event.pk).update(bank_rotation=rotation.value)
        problems = check_ledger(event).problems
        transaction.set_rollback(True)
    return problems


def settling_reading(event: Event) -> BankRotation | None:
    """The reading under which every coup of the night settles again as stored (the night's
    own first), or ``None`` if there is none."""
    own = BankRotation(event.bank_rotation)
    for rotation in (own, *(other for other in READINGS if other is not own)):
        found = problems_under(event, rotation)
        if not any(problem.message in COUP_PROBLEMS for problem in found):
            return rotation
    return None


def bank_rotation_set(*, event: Event, rotation: BankRotation, by: Actor) -> list[LedgerProblem]:
    """Read the night under ``rotation`` from now on, if its books are then clean; else change
    nothing and return its problems under it. One audit entry. The night is held while its books
    are read and its reading changed, so no coup lands between the check and the change."""
    with transaction.atomic():
        lock_night(event)
        event.refresh_from_db(fields=["bank_rotation"])
        problems = problems_under(event, rotation)
        if problems:
            return problems
        before = event.bank_rotation
        if before != rotation.value:
            Event.objects.filter(pk=event.pk).update(bank_rotation=rotation.value)
            AuditEntry.objects.create(
                action=AuditEntry.Action.EVENT_EDITED,
                event=event,
                by=by,
                summary=str(event),
                before={"bank_rotation": before},
                after={"bank_rotation": rotation.value},
            )
            event.bank_rotation = rotation.value
    return []


def nights_not_stating_their_rotation(rows: Iterable[dict[str, Any]]) -> list[int]:
    """The events among a backup's rows (as ``check_rows`` read them) that do not say how their
    bank went round: written by a release before it was stored."""
    return [
        row["pk"]
        for row in rows
        if isinstance(row, dict)
        and row.get("model") == "games.event"
        and isinstance(row.get("fields"), dict)
        and "bank_rotation" not in row["fields"]
        and isinstance(row.get("pk"), int)
    ]


def read_as_played(event_ids: Iterable[int]) -> list[Event]:
    """Give each of these Chemin de fer nights the reading its coups settle under (a night whose
    backup did not say); the nights whose reading changed."""
    changed = []
    for event in Event.objects.filter(pk__in=list(event_ids), game=Game.CHEMIN_DE_FER.value):
        reading = settling_reading(event)
        if reading is not None and reading.value != event.bank_rotation:
            Event.objects.filter(pk=event.pk).update(bank_rotation=reading.value)
            event.bank_rotation = reading.value
            changed.append(event)
    return changed
