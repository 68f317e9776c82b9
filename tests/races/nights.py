"""The nights a race is run on, built fresh for each run through the services: a Punto Banco
night (``house``), a Chemin de fer night whose guests already owe each other (``banked``) and a
tournament's final round at one table, its hands all but the last played (``round``: its close
pays the prizes, the tournament's row locked as a rebuy locks it). Each night has two
hosts, one per racing device, so that the audit says which device wrote what."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import Group, User
from django.test import Client

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.models import Event, Shoe
from games.payouts import BetType, RuleSet
from games.rules import Winner
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest
from shoebook.base.roles import HOSTS
from tournaments import services as tournament_services
from tournaments.models import Entrant, Round

KINDS = ("house", "banked", "round")
ROUND_HANDS = 3  # the round's hands; the night plays all but the last


class Night:
    """One night of a kind, with its shoe, guests in seats 1–7 (two entrants at a round) and
    two hosts. ``once`` keeps what a move made in its preparation for the other move of the pair
    (the settlement both void, the pair of guests both merge)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.tag = uuid.uuid4().hex[:10]
        group = Group.objects.get_or_create(name=HOSTS)[0]
        self.hosts: list[User] = []
        for slot in range(2):
            user = User.objects.create_user(f"race-{self.tag}-{slot}")
            user.groups.add(group)
            self.hosts.append(user)
        self.host = self.hosts[0]
        self.round: Round | None = None
        self.entrants: list[Entrant] = []
        self.made: dict[str, Any] = {}
        if kind == "round":
            self._round()
        else:
            self._cash(banked=kind == "banked")

    def _cash(self, *, banked: bool) -> None:
        self.event = game_services.event_create(
            name=f"Race {self.tag}", date=date(2026, 11, 28), rules=RuleSet(), by=self.host,
            table_min=Decimal(10), table_max=Decimal(1000),
        )  # fmt: skip
        if banked:
            Event.objects.filter(pk=self.event.pk).update(
                game="chemin_de_fer", taxe_rate=Decimal(0), table_min=Decimal(1)
            )
            self.event.refresh_from_db()
        self.guests: list[Guest] = [
            guest_services.event_guest_add(event=self.event, name=f"G{n} {self.tag}", by=self.host)
            for n in range(1, 8)
        ]
        self.shoe: Shoe = game_services.shoe_start(event=self.event, by=self.host)
        for seat, guest in enumerate(self.guests, start=1):
            hand_services.seat_guest(shoe=self.shoe, seat=seat, guest=guest, by=self.host)
        if banked:  # guest 2 owes guest 1 and guest 4 owes guest 3: something to transfer
            for banker, debtor in ((1, 2), (3, 4)):
                self.coup(banker=banker, cover=debtor)

    def _round(self) -> None:
        cup = tournament_services.tournament_create(
            name=f"Race cup {self.tag}", date=date(2026, 11, 28), by=self.host,
            entry_fee=Decimal(50), cut_percent=Decimal(0), rebuy_price=Decimal(40),
            rebuy_chips=Decimal(1000), rebuy_rounds=1, add_on_price=Decimal(20),
            add_on_chips=Decimal(500), add_on_round=1, secret_bet="any",
        )  # fmt: skip
        self.entrants = [
            tournament_services.entrant_add(tournament=cup, name=f"{n} {self.tag}", by=self.host)
            for n in ("Aki", "Ben")
        ]
        round_ = tournament_services.round_add(
            tournament=cup, by=self.host, hands=ROUND_HANDS, table_min=Decimal(10),
            table_max=Decimal(1000), bet_unit=Decimal(10), is_final=True,
        )  # fmt: skip
        tournament_services.round_draw(round_=round_, by=self.host, seed=1)
        self.round = tournament_services.round_start(round_=round_, by=self.host)
        table = self.round.tables.get()
        self.event = table.event
        self.shoe = self.event.shoes.get()
        self.guests = [entrant.guest for entrant in self.entrants]
        self.seat_of = {seat.entrant.guest_id: seat.seat for seat in table.seats.all()}
        for _ in range(ROUND_HANDS - 1):  # Aki loses 10 a hand: under the starting stack
            self.hand()

    # --- what the preparations use ----------------------------------------------------------

    def seat(self, guest: Guest) -> int:
        return self.seat_of[guest.pk] if self.kind == "round" else self.guests.index(guest) + 1

    def hand(self) -> int:
        """The shoe's next hand (a coup at a banked night), through the service."""
        if self.kind == "banked":
            return self.coup(banker=1, cover=2)
        number = hand_services.next_hand_number(self.shoe)
        stake = BetEntry(self.seat(self.guests[0]), BetType.PLAYER, Decimal(10))
        hand_services.record_hand(
            shoe=self.shoe, number=number, by=self.host, idempotency_key=uuid.uuid4(),
            entry=HandEntry(result=Winner.BANKER, bets=(stake,)),
        )  # fmt: skip
        return number

    def last_hand(self) -> int:
        """The shoe's last hand, one played first if it has none."""
        last = self.shoe.hands.order_by("-number").values_list("number", flat=True).first()
        return last if last is not None else self.hand()

    def finish_round(self) -> None:
        """The round's hands played to its last: its table done."""
        while hand_services.next_hand_number(self.shoe) <= ROUND_HANDS:
            self.hand()

    def coup(self, *, banker: int, cover: int) -> int:
        number = hand_services.next_hand_number(self.shoe)
        hand_services.record_hand(
            shoe=self.shoe, number=number, by=self.host, idempotency_key=uuid.uuid4(),
            entry=HandEntry(
                result=Winner.BANKER,
                bets=(BetEntry(cover, "ordinary", Decimal(40)),),
                coup=CoupTerms(banker_seat=banker, bank=Decimal(40), move="retire"),
            ),
        )  # fmt: skip
        return number

    def newcomer(self, label: str) -> Guest:
        name = f"{label} {uuid.uuid4().hex[:8]}"
        return guest_services.event_guest_add(event=self.event, name=name, by=self.host)

    def once(self, key: str, make: Callable[[], Any]) -> Any:
        """What ``make`` made the first time this night asked for ``key``."""
        if key not in self.made:
            self.made[key] = make()
        return self.made[key]

    def client(self, slot: int) -> Client:
        client = Client(raise_request_exception=False)
        client.force_login(self.hosts[slot])
        return client
