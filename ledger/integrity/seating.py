"""Invariant 6: who sat where; no two seatings of one seat, or of one guest, over a hand."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator

from games.kinds import SEATS
from ledger.integrity.state import CheckerState, SeatingRow
from ledger.models import EventGuest, Seating

MSG_SEATING_SEAT_OVERLAP = "another seating of its seat in the shoe covers some of its hands"
MSG_SEATING_GUEST_OVERLAP = "another seating of its guest in the shoe covers some of its hands"


def overlapping_seatings(
    seatings: Iterable[SeatingRow], key: str
) -> Iterator[tuple[SeatingRow, SeatingRow]]:
    """Pairs (later, earlier) of seatings with the same ``key`` (``seat`` or ``guest_id``) in a
    shoe that cover a common hand; the later one starts later (or was written later)."""
    groups: dict[tuple[int, int], list[SeatingRow]] = defaultdict(list)
    for seating in seatings:
        groups[(seating.shoe_id, getattr(seating, key))].append(seating)
    for group in groups.values():
        group.sort(key=lambda s: (s.from_hand, s.pk))
        furthest: SeatingRow | None = None  # of those so far, the one that runs longest
        for seating in group:
            if furthest is not None and furthest.end >= seating.from_hand:
                yield seating, furthest
            if furthest is None or seating.end > furthest.end:
                furthest = seating


class SeatingChecks(CheckerState):
    """The guest lists and the seatings, loaded and checked."""

    def _load_lists_and_seatings(self) -> None:
        events = {self.shoe_event[shoe] for shoe, _number, _outcome in self.hands.values()}
        shoes = {shoe for shoe, _number, _outcome in self.hands.values()}
        lists = EventGuest.objects.all()
        seatings = Seating.objects.order_by("pk")
        if self.scope is not None:
            events.add(self.scope.pk)
            shoes |= {pk for pk, event_id in self.shoe_event.items() if event_id == self.scope.pk}
            lists = lists.filter(event_id__in=events)
            seatings = seatings.filter(shoe_id__in=shoes)
        self.guest_lists = set(lists.values_list("event_id", "guest_id"))
        columns = ("pk", "shoe_id", "seat", "guest_id", "from_hand", "to_hand")
        every = [SeatingRow(*row) for row in seatings.values_list(*columns)]
        for seating in every:
            self.seatings[(seating.shoe_id, seating.seat)].append(seating)
            self._check_on_list(
                "Seating", seating.pk, self.shoe_event[seating.shoe_id], seating.guest_id
            )
        for key, message in (
            ("seat", MSG_SEATING_SEAT_OVERLAP),
            ("guest_id", MSG_SEATING_GUEST_OVERLAP),
        ):
            for later, earlier in overlapping_seatings(every, key):
                what = f"seat {later.seat}" if key == "seat" else self.guest(later.guest_id)
                self.problem(
                    "Seating",
                    later.pk,
                    message,
                    f"no other seating of {what} over {later.hands}",
                    f"Seating {earlier.pk}: {self.guest(earlier.guest_id)} in seat "
                    f"{earlier.seat}, {earlier.hands}",
                )

    def _seated(self, shoe_id: int, number: int) -> dict[int, int]:
        """Who sat where for a hand, as the services read it (seat → guest id)."""
        seated = {}
        for seat in SEATS:
            for seating in self.seatings.get((shoe_id, seat), ()):
                if seating.covers(number):
                    seated[seat] = seating.guest_id
        return seated
