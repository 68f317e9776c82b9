"""Amounts each within the ledger's maximum (99,999,999,999.99) that add up past it: entry fees,
rebuys and add-ons filling a tournament's pool, a tournament's fee, settlements, a table maximum
past the largest and a bet at the largest on the biggest payout. The form or the service refuses,
with its message, what would take an amount past the maximum; what stays within it is recorded, the
books add up, and every page of that night opens.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.chips import MAX_CHIPS, MAX_TABLE_LIMIT, MSG_TABLE_LIMIT
from games.models import Shoe
from games.payouts import RuleSet
from ledger.forms import MSG_CHIPS_AMOUNT
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Bet, Charge
from tests.adversary.ground import (
    Case,
    Night,
    expect,
    hand_form,
    ledger_problems,
    refused_saying,
    status,
)
from tests.adversary.tournament_helpers import play, started_round
from tests.tournaments.pages import SETUP as TOURNAMENT_SETUP
from tournaments import services as tournament_services
from tournaments.models import Entrant, Round, Tournament

HALF_MAX = Decimal("49999999999.99")  # two of it fit in one ledger amount, three do not


def _registered(client: Client, cup: Tournament, name: str, should: str) -> Callable[[], str]:
    url = reverse("tournaments:entrant_add", args=[cup.pk])

    def run() -> str:
        before = cup.entrants.count()
        response = client.post(url, {"name": name})
        added = cup.entrants.count() > before
        if should == "refused":
            return refused_saying(response, tournament_services.MSG_POOL_FULL, changed=added)
        return expect(status(response.status_code, accepted=added), should)

    return run


def _bought(
    client: Client, url: str, rows: Callable[[], int], refusal: object
) -> Callable[[], str]:
    """A rebuy or an add-on the pool has no room for: refused with ``refusal``'s words."""

    def run() -> str:
        before = rows()
        response = client.post(url, follow=True)
        return refused_saying(response, refusal, changed=rows() > before)

    return run


def _full_cup(tag: str, host: User) -> tuple[Round, Entrant]:
    """A started tournament whose first player paid in all but 50 of the ledger's maximum (the
    second came free): a rebuy or an add-on of 100 would take the pool past it. The first player
    has lost a hand, so a rebuy is open to them."""
    cup = tournament_services.tournament_create(
        name=f"Full cup {tag}", date=date(2026, 11, 22), by=host, entry_fee=MAX_CHIPS - 50,
        cut_percent=Decimal(0), rebuy_price=Decimal(100), rebuy_chips=Decimal(1000),
        rebuy_rounds=1, add_on_price=Decimal(100), add_on_chips=Decimal(500), add_on_round=1,
    )  # fmt: skip
    first = tournament_services.entrant_add(tournament=cup, name=f"Aki {tag}", by=host)
    Tournament.objects.filter(pk=cup.pk).update(entry_fee=Decimal(0))
    cup.refresh_from_db()
    tournament_services.entrant_add(tournament=cup, name=f"Ben {tag}", by=host)
    round_ = started_round(cup, host)
    table = round_.tables.get()
    play(table, host, "player", {table.seats.get(entrant=first).seat: ("banker", "10")})
    return round_, first


def bound_cases(night: Night, tag: str) -> Iterator[Case]:
    """Amounts each within the ledger's maximum (99,999,999,999.99) that add up past it: entry
    fees, rebuys and add-ons filling a tournament's pool, settlements, a bet at the table's
    maximum on the biggest payout. The form or the service refuses, with its message, what would
    take an amount past the maximum; what stays within it is recorded and every page of it
    opens."""
    client = night.client
    cup = tournament_services.tournament_create(
        name=f"Half cup {tag}", date=date(2026, 11, 22), by=night.host, entry_fee=HALF_MAX,
        cut_percent=Decimal(0),
    )  # fmt: skip
    yield Case(
        "bounds",
        "entry fee of half the maximum",
        _registered(client, cup, f"Ann {tag}", "accepted"),
    )
    yield Case("bounds", "a second one: the maximum less a cent",
               _registered(client, cup, f"Bea {tag}", "accepted"))  # fmt: skip
    yield Case("bounds", "a third one: past the maximum",
               _registered(client, cup, f"Cai {tag}", "refused"))  # fmt: skip
    round_, first = _full_cup(tag, night.host)
    charges = Charge.objects.filter(event=round_.tournament.event).count
    for kind, words in (("rebuy", "a rebuy"), ("add_on", "an add-on")):
        url = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, first.pk])
        yield Case("bounds", f"{words} the pool has no room for",
                   _bought(client, url, charges, tournament_services.MSG_POOL_FULL))  # fmt: skip
    yield from _tournament_form_cases(client, tag)
    yield from _settlement_bound_cases(night, tag)
    yield from _table_max_cases(night, tag)


def _tournament_form_cases(client: Client, tag: str) -> Iterator[Case]:
    def create(fee: str, should: str) -> Callable[[], str]:
        def run() -> str:
            before = Tournament.objects.count()
            form = TOURNAMENT_SETUP | {"name": f"Fee {fee} {tag}", "entry_fee": fee}
            response = client.post(reverse("tournaments:tournament_create"), form)
            made = Tournament.objects.count() > before
            return expect(status(response.status_code, accepted=made), should)

        return run

    yield Case(
        "bounds", "a tournament's fee at the maximum", create("99,999,999,999.99", "accepted")
    )
    yield Case("bounds", "a fee a cent past it", create("100000000000.00", "refused"))
    yield Case("bounds", "a fee of 1e11", create("1e11", "refused"))


def _settlement_bound_cases(night: Night, tag: str) -> Iterator[Case]:
    whale = guest_services.event_guest_add(event=night.event, name=f"Whale {tag}", by=night.host)
    url = reverse("ledger:settlement_record", args=[night.event.pk])

    def settle(amount: str, should: str) -> Callable[[], str]:
        def run() -> str:
            before = whale.settlements.count()
            response = night.client.post(url, {
                "guest": whale.pk, "direction": "house_paid", "amount": amount, "method": "cash",
                "confirm": "on", "idempotency_key": str(uuid.uuid4())})  # fmt: skip
            added = whale.settlements.count() > before
            if should == "refused":  # the form's words, or Django's, naming the maximum
                said = (MSG_CHIPS_AMOUNT, f"less than or equal to {MAX_CHIPS}")
                return refused_saying(response, *said, changed=added)
            outcome = expect(status(response.status_code, accepted=added), should)
            return ledger_problems() or outcome

        return run

    yield Case("bounds", "a settlement past the maximum", settle("100000000000", "refused"))
    yield Case("bounds", "a settlement past it by half a cent",
               settle("99999999999.995", "refused"))  # fmt: skip
    yield Case("bounds", "a settlement at the maximum", settle("99999999999.99", "accepted"))
    yield Case("bounds", "a second one, the balance past the maximum",
               settle("99999999999.99", "accepted"))  # fmt: skip


def _table_max_cases(night: Night, tag: str) -> Iterator[Case]:
    """A table limit past the largest (one hand at it could pass one ledger amount) is refused;
    a pair bet (11 to 1) and a tie bet at the largest, won, stay within one amount."""

    def too_big() -> str:
        try:
            game_services.event_create(
                name=f"Too big {tag}", date=date(2026, 11, 23), rules=RuleSet(), by=night.host,
                table_min=Decimal(10), table_max=MAX_TABLE_LIMIT + Decimal("0.01"),
            )  # fmt: skip
        except ValidationError as error:
            said = str(MSG_TABLE_LIMIT) in " ".join(error.messages)
            return "refused" if said else f"wrong: refused saying {error.messages}"
        return "wrong: a table limit past the largest was taken"

    yield Case("bounds", "a table maximum past the largest", too_big)
    big = game_services.event_create(
        name=f"Big table {tag}", date=date(2026, 11, 23), rules=RuleSet(), by=night.host,
        table_min=Decimal(10), table_max=MAX_TABLE_LIMIT,
    )  # fmt: skip
    big_shoe = game_services.shoe_start(event=big, by=night.host)
    guest = guest_services.event_guest_add(event=big, name=f"Big bettor {tag}", by=night.host)
    hand_services.seat_guest(shoe=big_shoe, seat=1, guest=guest, by=night.host)

    def won(shoe: Shoe, **fields: str) -> Callable[[], str]:
        def run() -> str:
            before = Bet.objects.count()
            response = night.client.post(
                reverse("ledger:hand_record", args=[shoe.pk]), hand_form(shoe, **fields)
            )
            outcome = status(response.status_code, accepted=Bet.objects.count() > before)
            biggest = Bet.objects.filter(event=shoe.event).order_by("-net").first()
            if biggest is not None and biggest.net > MAX_CHIPS:
                return f"wrong: a bet won {biggest.net}, past one ledger amount"
            return ledger_problems() or expect(outcome, "accepted")

        return run

    # Player's natural 8 with a pair: the pair bet pays 11 to 1, the biggest payout.
    pair = {"player_cards": "9 9", "banker_cards": "J J"}

    def pages() -> str:
        addresses = [
            reverse("ledger:event_detail", args=[big.pk]),
            reverse("ledger:event_guest_results", args=[big.pk]),
            reverse("ledger:event_workbook", args=[big.pk]),
            reverse("ledger:guest_detail", args=[guest.pk]),
            reverse("ledger:guest_receipt_pdf", args=[guest.pk, big.pk]),
            reverse("ledger:standings"),
        ]
        codes = {address: night.client.get(address).status_code for address in addresses}
        failed = {address: code for address, code in codes.items() if code != 200}
        if any(code >= 500 for code in failed.values()):
            return f"crashed: {failed}"
        return f"wrong: {failed}" if failed else "accepted"

    yield Case(
        "bounds",
        "a pair bet of 1,000 at a 1,000 table, won",
        won(night.shoe, **pair, stake_1_player_pair="1000"),
    )
    yield Case(
        "bounds",
        "a pair bet at the largest table maximum, won",
        won(big_shoe, **pair, stake_1_player_pair=f"{MAX_TABLE_LIMIT}"),
    )
    yield Case("bounds", "a tie bet there, won",
               won(big_shoe, result="tie", stake_1_tie=f"{MAX_TABLE_LIMIT}"))  # fmt: skip
    yield Case("bounds", "every page of that night opens", pages)
