"""Undoing or correcting a hand a rebuy stood on, at a tournament table. A rebuy is open only under
the starting stack: the hand that left the player there, and every hand before the rebuy, can be
neither undone nor corrected while the rebuy stands (the refusal says so); a hand after it can. An
add-on stands on no stack, so the hand before it can be undone. The books add up after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Hand
from ledger.hands import services as hand_services
from ledger.models import StackRow
from tests.adversary.ground import (
    HTMX,
    Case,
    expect,
    hand_form,
    ledger_problems,
    refused_saying,
    status,
    user_client,
)
from tests.adversary.tournament_helpers import started_round
from tournaments import services as tournament_services


def rebuy_cases(tag: str, host: User) -> Iterator[Case]:
    """At a tournament table, a rebuy is open only under the starting stack: the hand that left
    the player there (and every hand before the rebuy) cannot be undone or corrected while the
    rebuy stands; a hand after it can. An add-on stands on no stack."""
    cup = tournament_services.tournament_create(
        name=f"Rebuy cup {tag}", date=date(2026, 11, 24), by=host, entry_fee=Decimal(50),
        cut_percent=Decimal(0), rebuy_price=Decimal(40), rebuy_chips=Decimal(1000),
        rebuy_rounds=1, add_on_price=Decimal(20), add_on_chips=Decimal(500), add_on_round=1,
    )  # fmt: skip
    aki = tournament_services.entrant_add(tournament=cup, name=f"Aki {tag}", by=host)
    tournament_services.entrant_add(tournament=cup, name=f"Ben {tag}", by=host)
    round_ = started_round(cup, host)
    table = round_.tables.get()
    shoe, seat = table.event.shoes.get(), table.seats.get(entrant=aki).seat
    client = user_client(host)
    hands = Hand.objects.filter(shoe=shoe)

    def play(result: str) -> Callable[[], str]:
        def run() -> str:
            before = hands.count()
            data = hand_form(shoe, result=result, **{f"stake_{seat}_banker": "10"})
            response = client.post(reverse("ledger:hand_record", args=[shoe.pk]), data)
            return expect(status(response.status_code, accepted=hands.count() > before),
                           "accepted")  # fmt: skip

        return run

    def buy(kind: str) -> Callable[[], str]:
        def run() -> str:
            before = StackRow.objects.filter(event=table.event).count()
            url = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, aki.pk])
            response = client.post(url, follow=True)
            added = StackRow.objects.filter(event=table.event).count() > before
            return expect(status(response.status_code, accepted=added), "accepted")

        return run

    def undo(number: int, refusal: object | None) -> Callable[[], str]:
        def run() -> str:
            before = hands.count()
            response = client.post(reverse("ledger:hand_undo", args=[shoe.pk]),
                                   {"number": str(number)}, headers=HTMX)  # fmt: skip
            undone = hands.count() < before
            if refusal is None:
                return expect(status(response.status_code, accepted=undone), "accepted")
            return refused_saying(response, refusal, changed=undone)

        return run

    def correct(result: str, stake: str) -> Callable[[], str]:
        def run() -> str:
            hand = hands.get(number=1)
            response = client.post(reverse("ledger:hand_detail", args=[hand.pk]), {
                "version": str(hand.version), "reason": "misread", "result": result,
                f"stake_{seat}_banker": stake})  # fmt: skip
            changed = hands.get(number=1).version != hand.version
            return refused_saying(response, hand_services.MSG_REBUY_RESTS_ON_HAND,
                                   changed=changed)  # fmt: skip

        return run

    rests = hand_services.MSG_REBUY_RESTS_ON_HAND
    yield Case("rebuy", "hand 1: the player loses 10 (990, under 1,000)", play("player"))
    yield Case("rebuy", "the rebuy after hand 1", buy("rebuy"))
    yield Case("rebuy", "undo hand 1, which the rebuy stood on", undo(1, rests))
    yield Case("rebuy", "correct hand 1: the player wins it", correct("banker", "10"))
    yield Case("rebuy", "correct hand 1: the same result, a bigger stake", correct("player", "20"))
    yield Case("rebuy", "hand 2", play("banker"))
    yield Case("rebuy", "undo hand 1 while hand 2 stands", undo(1, hand_services.MSG_UNDO_NOT_LAST))
    yield Case("rebuy", "undo hand 2: no rebuy after it", undo(2, None))
    yield Case("rebuy", "hand 2 again", play("banker"))
    yield Case("rebuy", "the add-on after hand 2", buy("add_on"))
    yield Case("rebuy", "undo hand 2: an add-on after it stands on no stack", undo(2, None))
    yield Case("rebuy", "undo hand 1 again", undo(1, rests))
    yield Case("rebuy", "the books add up", lambda: ledger_problems() or "accepted")
