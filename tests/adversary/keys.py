"""The same idempotency key sent again, on settlements, transfers between guests at a Chemin de fer
night and hands. The same form again (a double tap, a resend, the amount typed otherwise) records
nothing more and is not refused; other content under the key (another amount, guest, payer, payee,
result, stake, event or shoe) is refused, saying what the key was used for, and records nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.http import HttpResponseBase
from django.urls import reverse

from games import services as game_services
from games.models import Event, Hand, Shoe
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest, Settlement, Transfer
from ledger.money import services as money_services
from tests.adversary.ground import Case, Night, refused_saying, user_client
from tests.ledger.banked_nights import guest_banked, play_debts, seat_all


def _banked_night(tag: str, host: User, names: list[str]) -> tuple[Event, dict[str, Guest]]:
    """A Chemin de fer night (no cut) with these guests seated, the first owing the second 50
    and the third owing the fourth 30, played as coups."""
    event = game_services.event_create(
        name=f"Chemin {tag}", date=date(2026, 11, 21), rules=RuleSet(), by=host,
        table_min=Decimal(1), table_max=Decimal(1000),
    )  # fmt: skip
    event = guest_banked(event, taxe_rate=Decimal(0))
    guests = [guest_services.event_guest_add(event=event, name=name, by=host) for name in names]
    shoe = game_services.shoe_start(event=event, by=host)
    seat_all(shoe, guests, host)
    seats = {name: seat for seat, name in enumerate(names, start=1)}
    play_debts(shoe, host, seats, [(names[0], names[1], "50.00"), (names[2], names[3], "30.00")])
    return event, dict(zip(names, guests, strict=True))


def _sent_twice(
    first: Callable[[], HttpResponseBase],
    again: Callable[[], HttpResponseBase],
    rows: Callable[[], int],
    refusal: object | None,
) -> Callable[[], str]:
    """A form recorded, then sent again under its key: with the same content (``refusal`` None)
    the first row answers and nothing more is recorded; with other content it is refused with
    ``refusal``'s words and nothing is recorded."""

    def run() -> str:
        before = rows()
        answer = first()
        if answer.status_code >= 500:
            return "crashed"
        if rows() != before + 1:
            return f"wrong: the first form was not recorded (answered {answer.status_code})"
        answer = again()
        added = rows() - before - 1
        if refusal is not None:
            return refused_saying(answer, refusal, changed=bool(added))
        if answer.status_code >= 500:
            return "crashed"
        if added or answer.status_code >= 400:
            return f"wrong: sent again it answered {answer.status_code} and recorded {added} more"
        return "accepted"

    return run


def key_cases(tag: str) -> Iterator[Case]:
    """The same idempotency key sent again: the same form (a double tap, a resend) records
    nothing more; other content under it (another amount, guest, payer, event or shoe) is
    refused with what the key was used for, and records nothing."""
    night, other = Night(f"{tag}k"), Night(f"{tag}l")
    guest, stranger = night.guests[0], night.guests[1]
    guest_services.event_guest_add(event=other.event, name=guest.name, by=other.host)

    def settle(event: Event, key: uuid.UUID, **changes: object) -> Callable[[], HttpResponseBase]:
        form = {"guest": guest.pk, "direction": "guest_paid", "amount": "10", "method": "cash",
                "note": "", "confirm": "on", "idempotency_key": str(key)} | changes  # fmt: skip
        url = reverse("ledger:settlement_record", args=[event.pk])
        return lambda: night.client.post(url, form)

    def settlements() -> int:
        return Settlement.objects.count()

    said = money_services.MSG_KEY_USED_FOR
    sends: list[tuple[str, dict[str, object], Event, object]] = [
        ("settlement sent twice", {}, night.event, None),
        ("settlement sent twice, amount typed otherwise", {"amount": "１０.００"}, night.event,
         None),
        ("settlement key, another amount", {"amount": "11"}, night.event, said),
        ("settlement key, another guest", {"guest": stranger.pk}, night.event, said),
        ("settlement key, another way round", {"direction": "house_paid"}, night.event, said),
        ("settlement key, another method", {"method": "tab"}, night.event, said),
        ("settlement key, another event", {}, other.event, said),
    ]  # fmt: skip
    for label, changes, event, refusal in sends:
        key = uuid.uuid4()
        first, again = settle(night.event, key), settle(event, key, **changes)
        yield Case("keys", label, _sent_twice(first, again, settlements, refusal))
    yield from _transfer_key_cases(tag, night.host)
    yield from _hand_key_cases(night, other)


def _transfer_key_cases(tag: str, host: User) -> Iterator[Case]:
    names = [f"{letter}-{tag}" for letter in "ABCDEFG"]
    event, guests = _banked_night(f"{tag}t", host, names)
    elsewhere, _ = _banked_night(f"{tag}u", host, names)  # the same guests, another night
    client = user_client(host)
    payer, payee = guests[names[0]], guests[names[1]]

    def transfer(at: Event, key: uuid.UUID, **changes: object) -> Callable[[], HttpResponseBase]:
        form = {"payer": payer.pk, "payee": payee.pk, "amount": "10", "note": "",
                "idempotency_key": str(key)} | changes  # fmt: skip
        url = reverse("ledger:transfer_record", args=[at.pk])
        return lambda: client.post(url, form)

    def transfers() -> int:
        return Transfer.objects.count()

    said = money_services.MSG_KEY_USED_FOR
    sends: list[tuple[str, dict[str, object], Event, object]] = [
        ("transfer sent twice", {}, event, None),
        ("transfer key, another amount", {"amount": "11"}, event, said),
        ("transfer key, another payer", {"payer": guests[names[2]].pk}, event, said),
        ("transfer key, another payee", {"payee": guests[names[3]].pk}, event, said),
        ("transfer key, another event", {}, elsewhere, said),
    ]
    for label, changes, at, refusal in sends:
        key = uuid.uuid4()
        first, again = transfer(event, key), transfer(at, key, **changes)
        yield Case("keys", label, _sent_twice(first, again, transfers, refusal))


def _hand_key_cases(night: Night, other: Night) -> Iterator[Case]:
    def hands() -> int:
        return Hand.objects.count()

    def post(shoe: Shoe, data: dict[str, str]) -> Callable[[], HttpResponseBase]:
        url = reverse("ledger:hand_record", args=[shoe.pk])
        return lambda: night.client.post(url, data)

    def case(
        refusal: object | None, *, other_shoe: bool = False, **changes: str
    ) -> Callable[[], str]:
        def run() -> str:
            sent = night.hand_data(result="tie", stake_1_tie="10")
            shoe, again = night.shoe, sent | changes
            if other_shoe:  # the key at another table, on that table's next hand
                shoe = other.shoe
                again = other.hand_data(result="tie", stake_1_tie="10")
                again["idempotency_key"] = sent["idempotency_key"]
            return _sent_twice(post(night.shoe, sent), post(shoe, again), hands, refusal)()

        return run

    reused = hand_services.MSG_KEY_REUSED
    yield Case("keys", "hand sent twice", case(None))
    yield Case("keys", "hand key, another stake", case(reused, stake_1_tie="20"))
    yield Case(
        "keys",
        "hand key, another result",
        case(reused, result="banker", stake_1_tie="", stake_1_banker="10"),
    )
    yield Case(
        "keys", "hand key, another number and bet", case(reused, number="99", stake_2_tie="10")
    )
    yield Case("keys", "hand key, another shoe",
               case(hand_services.MSG_KEY_OTHER_SHOE, other_shoe=True))  # fmt: skip
