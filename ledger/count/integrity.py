"""The count checks itself, for ``check_ledger``: what its rows must agree on, recomputed from
the rows in bulk (a fixed number of queries), and the results they make without hands."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from decimal import Decimal

from games.models import Event, Hand
from ledger.models import Adjustment, ChipMove, CountSetup, EventGuest

ZERO = Decimal(0)

MSG_VOID_NOT_OPPOSITE = "its void is not its exact opposite"
MSG_DENOMINATIONS = "its chips by denomination do not add up to its chips"
MSG_NOT_ON_LIST = "its guest is not on its night's list"
MSG_COUNT_ONLY_HANDS = "it is kept by its count alone but has hands logged"
MSG_ADJUSTMENT_HERE = "it is at a night that takes no adjustment"


def results_without_hands(
    scope: Event | None, *, guests: Collection[int] | None = None
) -> dict[tuple[int, int], Decimal]:
    """Per (guest, event): a count-only night's counts less chips taken, and the adjustments
    (at ``scope`` only, if given; of ``guests`` only, if given)."""
    results: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)
    count_only = CountSetup.objects.filter(count_only=True)
    moves = ChipMove.objects.filter(
        event__in=count_only.values("event"), guest__isnull=False
    ).order_by()
    adjustments = Adjustment.objects.order_by()
    if scope is not None:
        moves, adjustments = moves.filter(event=scope), adjustments.filter(event=scope)
    if guests is not None:
        moves, adjustments = moves.filter(guest__in=guests), adjustments.filter(guest__in=guests)
    for guest_id, event_id, kind, chips in moves.values_list(
        "guest_id", "event_id", "kind", "chips"
    ):
        assert guest_id is not None  # the query's
        results[(guest_id, event_id)] += chips if kind == ChipMove.Kind.COUNT else -chips
    for guest_id, event_id, amount in adjustments.values_list("guest_id", "event_id", "amount"):
        results[(guest_id, event_id)] += amount
    return dict(results)


def count_problems(scope: Event | None) -> list[tuple[str, int, str, str, str]]:
    """Each broken row as (model, primary key, what is wrong, expected, found)."""
    problems: list[tuple[str, int, str, str, str]] = []
    moves = ChipMove.objects.order_by("pk")
    adjustments = Adjustment.objects.order_by("pk")
    setups = CountSetup.objects.all()
    lists = EventGuest.objects.all()
    if scope is not None:
        moves, adjustments = moves.filter(event=scope), adjustments.filter(event=scope)
        setups, lists = setups.filter(event=scope), lists.filter(event=scope)
    listed = set(lists.values_list("event_id", "guest_id"))
    move_rows = {move.pk: move for move in moves}
    for move in move_rows.values():
        added = sum((Decimal(value) * n for value, n in move.by_denomination.items()), ZERO)
        if move.by_denomination and added != move.chips:
            problems.append(("ChipMove", move.pk, MSG_DENOMINATIONS, str(move.chips), str(added)))
        if move.guest_id is not None and (move.event_id, move.guest_id) not in listed:
            problems.append(("ChipMove", move.pk, MSG_NOT_ON_LIST, "", ""))
        original = move_rows.get(move.voids_id) if move.voids_id else None
        if original is not None and _opposite_move(original) != _shape(move):
            problems.append(
                (
                    "ChipMove",
                    original.pk,
                    MSG_VOID_NOT_OPPOSITE,
                    str(_opposite_move(original)),
                    str(_shape(move)),
                )
            )
    adjustment_rows = {row.pk: row for row in adjustments.select_related("event")}
    count_only = set(setups.filter(count_only=True).values_list("event_id", flat=True))
    for row in adjustment_rows.values():
        if (row.event_id, row.guest_id) not in listed:
            problems.append(("Adjustment", row.pk, MSG_NOT_ON_LIST, "", ""))
        table = row.event.kind == Event.Kind.TOURNAMENT_TABLE
        if table or row.event_id in count_only:
            problems.append(("Adjustment", row.pk, MSG_ADJUSTMENT_HERE, "", ""))
        booked = adjustment_rows.get(row.voids_id) if row.voids_id else None
        if booked is not None and (booked.guest_id, -booked.amount) != (row.guest_id, row.amount):
            found = f"{row.guest_id} {row.amount}"
            expected = f"{booked.guest_id} {-booked.amount}"
            problems.append(("Adjustment", booked.pk, MSG_VOID_NOT_OPPOSITE, expected, found))
    with_hands = set(
        Hand.objects.filter(shoe__event_id__in=count_only)
        .values_list("shoe__event_id", flat=True)
        .distinct()
    )
    for event_id in sorted(with_hands):
        problems.append(("Event", event_id, MSG_COUNT_ONLY_HANDS, "", ""))
    return problems


def _shape(move: ChipMove) -> tuple[object, ...]:
    return (move.guest_id, move.kind, move.source, move.chips, dict(move.by_denomination))


def _opposite_move(move: ChipMove) -> tuple[object, ...]:
    negated = {value: -n for value, n in move.by_denomination.items()}
    return (move.guest_id, move.kind, move.source, -move.chips, negated)
