"""Guests held while a write points at them, so that a merge cannot delete them underneath.

A merge deletes the guest it merges away. A write that adds a row pointing at a guest (a
seating, a bet, a transfer) is checked against that guest only when it commits (PostgreSQL's
foreign keys here are deferred), so a merge committed meanwhile turned the write into a 500
at COMMIT. Both sides now lock the guest, guests in id order as every guest lock is (after
the night, in the one order of ``docs/developers.md``):
the write holds it FOR KEY SHARE (which no settlement, rename or other write waits on), the
merge FOR UPDATE (what its DELETE takes anyway). Whichever comes second waits for the first and
then reads what it left: the merge finds the guest seated and refuses, or the write finds the
guest gone and says so.
"""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import connection
from django.utils.translation import gettext_lazy as _

from games.locks import lock_night, lock_night_of_shoe, lock_nights
from ledger.models import Guest

__all__ = [
    "MSG_GUEST_MERGED_AWAY",
    "hold_guests",
    "lock_for_merge",
    "lock_guest",
    "lock_night",
    "lock_night_of_shoe",
    "lock_nights",
]

MSG_GUEST_MERGED_AWAY = _(
    "A guest this needs was merged into another guest on another device meanwhile: nothing was"
    " saved. Reload the page and try again."
)


def hold_guests(guest_ids: Collection[int], *, read_in_this_transaction: bool = False) -> None:
    """Hold these guests until the transaction ends; refuse if any is gone (merged away).
    ``read_in_this_transaction``: the ids come from rows this transaction read (who sits where),
    which on SQLite, whose write transaction holds the database's lock, cannot have gone."""
    wanted = sorted(set(guest_ids))
    if not wanted or (read_in_this_transaction and connection.vendor != "postgresql"):
        return
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f'SELECT "id" FROM "{Guest._meta.db_table}" WHERE "id" = ANY(%s)'
                ' ORDER BY "id" FOR KEY SHARE',
                [wanted],
            )
            found = {row[0] for row in cursor.fetchall()}
    else:  # SQLite: the transaction holds the database's write lock already
        found = set(Guest.objects.filter(pk__in=wanted).values_list("pk", flat=True))
    if found != set(wanted):
        raise ValidationError({NON_FIELD_ERRORS: MSG_GUEST_MERGED_AWAY})


def lock_for_merge(guest_ids: Collection[int]) -> dict[int, Guest]:
    """Lock the guests a merge keeps and deletes, FOR UPDATE in id order (see the module's doc:
    a write holding one FOR KEY SHARE is waited for). Those already gone are missing."""
    rows = Guest.objects.select_for_update(of=("self",)).filter(pk__in=guest_ids).order_by("pk")
    return {guest.pk: guest for guest in rows}


def lock_guest(guest: Guest) -> Guest:
    """The guest read afresh and locked to change (FOR NO KEY UPDATE: writes pointing at the
    guest go on); refused if a merge took it away meanwhile."""
    locked = Guest.objects.select_for_update(of=("self",), no_key=True).filter(pk=guest.pk).first()
    if locked is None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_GUEST_MERGED_AWAY})
    return locked
