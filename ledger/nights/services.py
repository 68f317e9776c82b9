"""Writes for an event and its shoes as the ledger keeps them: the event's terms edited, an event or
a shoe closed and reopened, each with its audit entry. The rules core's side of a night (start,
the shoe's own state) is ``games.services``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import services as game_services
from games.locks import lock_night
from games.models import Event, Hand, Shoe
from ledger.models import (
    AuditEntry,
    DealerShift,
    Transfer,
)
from shoebook.base.live import announce_to
from shoebook.base.roles import Actor

MSG_GAME_WITH_TRANSFERS = _(
    "Transfers are recorded at this night, played as {game}: the game cannot change once a"
    " transfer is recorded."
)


def game_held_by(event: Event) -> str:
    """Why the night's game cannot change though no hand is logged (``games.services`` shuts
    it once one is): rows only its game has, which another game's pages would not show nor
    let anyone void. Empty when nothing holds it."""
    if Transfer.objects.filter(event=event).exists():
        return MSG_GAME_WITH_TRANSFERS.format(game=gettext(event.game_kind.label))
    return ""


@transaction.atomic
def event_edit(*, event: Event, by: Actor, **changes: Any) -> Event:
    """Change an event's details through ``games.services.event_update`` (which keeps the rules,
    decks and limits of a night already played as they were) and record what changed."""
    # Held first (as ``event_update`` holds it): a transfer recorded meanwhile waits for it.
    stored = lock_night(event)
    before = _event_details(stored)  # as stored, not as a form left it
    if changes.get("game", stored.game) != stored.game:
        held = game_held_by(stored)
        if held:
            raise ValidationError({"game": ValidationError(held, code="game_held")})
    event = game_services.event_update(event=event, by=by, **changes)
    after = _event_details(event)
    changed = sorted(name for name in after if after[name] != before[name])
    if changed:
        AuditEntry.objects.create(
            action=AuditEntry.Action.EVENT_EDITED,
            event=event,
            by=by,
            summary=str(event),
            before={name: before[name] for name in changed},
            after={name: after[name] for name in changed},
        )
    return event


@transaction.atomic
def event_close(*, event: Event, by: Actor) -> Event:
    """Close the event (``games.services.mark_event_closed``: its shoes closed first), audited."""
    event = game_services.mark_event_closed(event=event, by=by)
    # The dealers still dealing stop at the close: the pool is shared by the time dealt.
    DealerShift.objects.filter(event=event, ended_at__isnull=True).update(ended_at=timezone.now())
    _audit_open_state(AuditEntry.Action.EVENT_CLOSED, event, str(event), by)
    _announce_open_state(event, "close")
    return event


@transaction.atomic
def event_reopen(*, event: Event, by: Actor) -> Event:
    """Open a closed event again (``games.services.mark_event_open``) and record it."""
    event = game_services.mark_event_open(event=event, by=by)
    _audit_open_state(AuditEntry.Action.EVENT_REOPENED, event, str(event), by)
    _announce_open_state(event, "reopen")
    return event


@transaction.atomic
def shoe_close(*, shoe: Shoe, by: Actor) -> Shoe:
    """Close the shoe (``games.services.mark_shoe_closed``) and record it with its hands."""
    shoe = game_services.mark_shoe_closed(shoe=shoe, by=by)
    _audit_open_state(AuditEntry.Action.SHOE_CLOSED, shoe.event, str(shoe), by, shoe=shoe)
    announce_to([f"shoe:{shoe.pk}", f"event:{shoe.event_id}"], what="close", shoe=shoe.pk)
    return shoe


@transaction.atomic
def shoe_reopen(*, shoe: Shoe, by: Actor) -> Shoe:
    """Open a closed shoe again (``games.services.mark_shoe_open``: the event open, no other shoe
    open) and record it."""
    shoe = game_services.mark_shoe_open(shoe=shoe, by=by)
    _audit_open_state(AuditEntry.Action.SHOE_REOPENED, shoe.event, str(shoe), by, shoe=shoe)
    announce_to([f"shoe:{shoe.pk}", f"event:{shoe.event_id}"], what="reopen", shoe=shoe.pk)
    return shoe


def _announce_open_state(event: Event, what: str) -> None:
    """A night closed or reopened: its screens and each of its shoes' tables."""
    shoes = event.shoes.values_list("pk", flat=True)
    announce_to([f"event:{event.pk}", *(f"shoe:{shoe}" for shoe in shoes)], what=what)


def _audit_open_state(
    action: str, event: Event, summary: str, by: Actor, *, shoe: Shoe | None = None
) -> None:
    """A close or a reopen in the audit log: who, when, and how many hands it held then."""
    hands = Hand.objects.filter(shoe=shoe) if shoe else Hand.objects.filter(shoe__event=event)
    AuditEntry.objects.create(
        action=action, event=event, by=by, summary=summary, after={"hands": hands.count()}
    )


def _event_details(event: Event) -> dict[str, str]:
    return {
        name: str(getattr(event, name)) if name != "rules" else event.rule_set.describe()
        for name in game_services.EVENT_FIELDS
    }
