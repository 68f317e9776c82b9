"""Guest-banked nights attacked around their seats and their game. A coup posted with a stake or
a kind for a seat no table has (``stake_10``, ``stake_0``, ``kind_12``, a page edited by hand)
is refused by the seat's name and saves nothing — never saved with that stake dropped; a stake
on a seat nobody sits at is refused too. A Chemin de fer night holding a transfer (its coups
undone) cannot be edited into Punto Banco, which would hide the transfer from the night's page
and its void from everyone: the game box is refused with the reason, the transfer stays voidable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.urls import reverse

from games import services as game_services
from games.models import Event, Hand, Shoe
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.forms import MSG_STAKE_BOX_GONE
from ledger.models import Bet, Transfer
from ledger.money import transfers
from ledger.nights.services import MSG_GAME_WITH_TRANSFERS
from tests.adversary.ground import (
    HTMX,
    Case,
    expect,
    hand_form,
    ledger_problems,
    refused_saying,
    user_client,
)
from tests.ledger.banked_nights import guest_banked, play_debts, seat_all
from tests.pages import posted_form

ODD_SEAT_BOXES = [
    ("a stake for seat 10", {"stake_10": "50"}),
    ("a stake for seat 0", {"stake_0": "50"}),
    ("a stake for seat 99", {"stake_99": "50"}),
    ("a kind for seat 12", {"kind_12": "banco_solo"}),
    ("a stake and a kind for seat 10", {"stake_10": "50", "kind_10": "ordinary"}),
    ("a stake box with no seat", {"stake_x": "50"}),
]


def _chemin(tag: str, host: User, seated: int) -> tuple[Event, Shoe]:
    event = game_services.event_create(
        name=f"Chemin {tag}", date=date(2026, 11, 21), rules=RuleSet(), by=host,
        table_min=Decimal(1), table_max=Decimal(1000),
    )  # fmt: skip
    event = guest_banked(event, taxe_rate=Decimal(0))
    guests = [
        guest_services.event_guest_add(event=event, name=f"C{n}-{tag}", by=host)
        for n in range(1, seated + 1)
    ]
    shoe = game_services.shoe_start(event=event, by=host)
    seat_all(shoe, guests, host)
    return event, shoe


def coup_cases(tag: str, host: User) -> Iterator[Case]:
    _event, shoe = _chemin(f"{tag}s", host, seated=4)
    client = user_client(host)
    url = reverse("ledger:hand_record", args=[shoe.pk])

    def post(fields: dict[str, str], *, boxes: bool) -> Callable[[], str]:
        def run() -> str:
            data = hand_form(shoe) | {"banker_seat": "1", "bank": "100", "stake_2": "50",
                                      "result": "banker"} | fields  # fmt: skip
            before = (Hand.objects.filter(shoe=shoe).count(), Bet.objects.count())
            answer = client.post(url, data, **HTMX)
            changed = (Hand.objects.filter(shoe=shoe).count(), Bet.objects.count()) != before
            if not boxes:  # a seat of the table nobody sits at: the core's refusal, any words
                if answer.status_code >= 500:
                    return "crashed"
                return "wrong: saved a stake on an empty seat" if changed else "refused"
            return refused_saying(answer, MSG_STAKE_BOX_GONE, changed=changed)

        return run

    for label, fields in ODD_SEAT_BOXES:
        yield Case("coups", label, post(fields, boxes=True))
    yield Case("coups", "a stake for seat 7, nobody there", post({"stake_7": "50"}, boxes=False))
    yield Case("coups", "a transfer, then the game changed", _game_changed(tag, host))


def _game_changed(tag: str, host: User) -> Callable[[], str]:
    def run() -> str:
        event, shoe = _chemin(f"{tag}g", host, seated=2)
        first, second = (seating.guest for seating in shoe.seatings.order_by("seat"))
        play_debts(shoe, host, {first.name: 1, second.name: 2}, [(first.name, second.name, "50")])
        paid = transfers.transfer_record(
            event=event, payer=first, payee=second, amount=Decimal(50), by=host
        )
        while Hand.objects.filter(shoe=shoe).exists():  # every coup undone: no hand holds it
            hand_services.hand_undo(shoe=shoe, by=host)
        client = user_client(host)
        edit = reverse("ledger:event_edit", args=[event.pk])
        form = posted_form(client.get(edit).content.decode(), "event-form")
        answer = client.post(edit, form | {"game": "punto_banco"})
        event.refresh_from_db()
        outcome = refused_saying(
            answer, MSG_GAME_WITH_TRANSFERS, changed=event.game != "chemin_de_fer"
        )
        if outcome != "refused":
            return outcome
        transfers.transfer_void(transfer=paid, reason="typed twice", by=host)
        if not Transfer.objects.filter(voids=paid).exists():
            return "wrong: the transfer could not be voided"
        problems = ledger_problems()
        return f"wrong: {problems}" if problems else expect("refused", "refused")

    return run
