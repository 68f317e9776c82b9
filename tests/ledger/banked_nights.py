"""Guest-banked nights for the tests, played through the services: a Chemin de fer night whose
coups are chosen so the guests' nets come out as wanted."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from decimal import Decimal

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.models import Event, Hand, Shoe
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest

SEVEN = ("A", "B", "C", "D", "E", "F", "G")


def guest_banked(event: Event, *, game: str = "chemin_de_fer", **fields: object) -> Event:
    """``event`` made a guest-banked night (``event_create`` does not take a game yet)."""
    Event.objects.filter(pk=event.pk).update(game=game, **fields)
    event.refresh_from_db()
    return event


def seat_all(shoe: Shoe, guests: Sequence[Guest], by: object) -> dict[int, Guest]:
    for seat, guest in enumerate(guests, start=1):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=by)
    return dict(enumerate(guests, start=1))


def coup(
    shoe: Shoe,
    by: object,
    *,
    banker: int,
    bank: str | Decimal,
    result: str,
    covers: Iterable[tuple[int, str, str | Decimal]],
    **terms: object,
) -> Hand:
    """Record the shoe's next coup, result only: ``covers`` are (seat, kind, stake)."""
    entry = HandEntry(
        result=result,
        bets=tuple(BetEntry(seat, kind, Decimal(str(stake))) for seat, kind, stake in covers),
        coup=CoupTerms(banker_seat=banker, bank=Decimal(str(bank)), **terms),
    )
    return hand_services.record_hand(
        shoe=shoe,
        number=hand_services.next_hand_number(shoe),
        entry=entry,
        by=by,
        idempotency_key=uuid.uuid4(),
    ).hand


def play_debts(
    shoe: Shoe, by: object, seat_of: dict[str, int], debts: Iterable[tuple[str, str, str]]
) -> None:
    """Each debt (debtor, creditor, amount) as a coup: the creditor banks the amount, the debtor
    covers it all, the bank wins and its banker retires (so anyone may bank the next coup).
    With no cut, each guest's net is what they are owed less what they owe."""
    for debtor, creditor, amount in debts:
        coup(
            shoe,
            by,
            banker=seat_of[creditor],
            bank=amount,
            result="banker",
            covers=[(seat_of[debtor], "ordinary", amount)],
            move="retire",
        )


def seven_guest_night(
    make_event: object, host: object, **fields: object
) -> tuple[Event, Shoe, dict[str, Guest]]:
    """A Chemin de fer night with guests A–G in seats 1–7, no cut unless ``fields`` say."""
    event = make_event(name=f"Chemin {uuid.uuid4().hex[:6]}", table_min=Decimal(1))
    event = guest_banked(event, **({"taxe_rate": Decimal(0)} | fields))
    guests = [guest_services.event_guest_add(event=event, name=name, by=host) for name in SEVEN]
    shoe = game_services.shoe_start(event=event, by=host)
    seat_all(shoe, guests, host)
    return event, shoe, dict(zip(SEVEN, guests, strict=True))
