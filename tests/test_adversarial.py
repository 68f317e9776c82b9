"""The adversary (tests/adversary/) at a smoke size: no crash, nothing wrong. The full run,
with its table, is ``bench/adversarial.py``."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.http import HttpResponseRedirect
from django.urls import reverse

from ledger.models import StackRow
from tests.adversary import attack
from tests.adversary.ground import Night, page_text, said, user_client
from tests.adversary.tournament_helpers import play, started_round
from tournaments import services as tournament_services

# The kinds of input each of which has inputs that must be refused.
REFUSING = ("names", "amounts", "files", "urls", "charsets", "keys", "homoglyphs", "bounds",
            "rebuy", "restore", "counts", "expenses", "logins", "coups", "uploads", "rules",
            "payways", "currency")  # fmt: skip


@pytest.mark.django_db
def test_no_input_crashes_or_gets_in_wrongly():
    # Two devices at once need a database file: tests/test_concurrency.py and the bench do that
    # (and the deadlocks and the backups under load with them).
    tally = attack(size=20, threads=False)
    details = tally.pop("_details")
    assert sum(counts["tried"] for counts in tally.values()) >= 150
    assert set(REFUSING) <= set(tally)
    assert all(tally[kind]["refused"] for kind in REFUSING)
    assert not details, "\n".join(details)


@pytest.mark.django_db
def test_a_refusal_is_what_the_page_it_redirects_to_says_and_a_bare_redirect_says_nothing():
    host = Night("said").host
    cup = tournament_services.tournament_create(
        name="Said cup", date=date(2026, 11, 24), by=host, entry_fee=Decimal(50),
        cut_percent=Decimal(0), add_on_price=Decimal(20), add_on_chips=Decimal(500),
        add_on_round=1,
    )  # fmt: skip
    aki = tournament_services.entrant_add(tournament=cup, name="Aki", by=host)
    tournament_services.entrant_add(tournament=cup, name="Ben", by=host)
    round_ = started_round(cup, host, hands=1)
    table = round_.tables.get()
    play(table, host, "player", {table.seats.get(entrant=aki).seat: ("banker", "10")})
    tournament_services.round_close(round_=round_, by=host)
    client = user_client(host)
    refused = client.post(reverse("tournaments:entrant_add_on", args=[round_.pk, aki.pk]))
    assert refused.status_code == 302 and page_text(refused) == ""
    assert not StackRow.objects.filter(kind="add_on").exists()
    assert said(refused).strip()
    assert said(client.get(reverse("tournaments:round_detail", args=[round_.pk]))).strip()
    bare = HttpResponseRedirect(reverse("tournaments:round_detail", args=[round_.pk]))
    bare.client = client
    assert said(bare) == ""
