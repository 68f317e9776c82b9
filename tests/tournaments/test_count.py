"""The count at a tournament table: the chips a player took are their stack rows (the starting
stack, rebuys, add-ons), the hands move them, and the stacks counted at the end of the round
reconcile; no buy-in is taken there, and no adjustment."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger.count import services as count_services
from ledger.count.selectors import night_count
from tests.pages import text
from tests.tournaments.conftest import seat_of
from tournaments import services

pytestmark = pytest.mark.django_db


def test_a_table_s_stacks_counted_reconcile_with_its_hands(
    client, host, make_tournament, add_round, play
):
    tournament = make_tournament(players=["Aki", "Ben", "Chie"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    event = table.event
    aki, ben, chie = (tournament.entrants.get(guest__name=n).guest for n in ("Aki", "Ben", "Chie"))
    play(
        table,
        "B",
        {seat_of(table, aki.pk): ("banker", 100), seat_of(table, ben.pk): ("player", 50)},
    )
    night = night_count(event)
    taken = {row.guest.name: row.count.taken for row in night.guests}
    assert taken == {"Aki": Decimal(1000), "Ben": Decimal(1000), "Chie": Decimal(1000)}
    with pytest.raises(ValidationError):
        count_services.chips_record(
            event=event, guest=aki, kind="buy_in", chips=Decimal(100), source="cash", by=host
        )
    for guest, chips in ((aki, "1095"), (ben, "950"), (chie, "1000")):
        count_services.chips_record(
            event=event, guest=guest, kind="count", chips=Decimal(chips), by=host
        )
    # The dealer's tray paid Aki's 95 and took Ben's 50 from its float of 1,000.
    count_services.count_setup_save(event=event, by=host, opening_float=Decimal(1000))
    count_services.chips_record(event=event, guest=None, kind="tray", chips=Decimal(955), by=host)
    assert night_count(event).reconciliation.reconciled
    client.force_login(host)
    page = text(client.get(reverse("ledger:count_page", args=[event.pk])))
    assert "The night reconciles" in page
    with pytest.raises(ValidationError):
        count_services.adjustment_record(
            event=event, guest=aki, amount=Decimal(5), reason="x", by=host
        )
