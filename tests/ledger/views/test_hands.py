"""A hand's page (ledger/views/hands.py): its bets, its history and the host's correction."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger import services
from ledger.models import Bet, HandRevision
from ledger.services import MSG_HAND_CHANGED, MSG_HAND_GONE
from tests.conftest import bet, entry
from tests.pages import text

D = Decimal
pytestmark = pytest.mark.django_db


def test_the_host_corrects_a_hand_and_sees_its_history(client, host, seated, shoe, record):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    url = reverse("ledger:hand_detail", args=[hand.pk])
    form_page = text(client.get(url))
    assert 'name="player_cards" value="9 7"' in form_page
    assert 'name="stake_1_player" value="100"' in form_page
    response = client.post(
        url,
        {
            "player_cards": "9 7",
            "banker_cards": "J J 8",
            "stake_1_player": "100",
            "reason": "misread the 8",
            "version": "1",
        },
    )
    assert response.status_code == 302
    page = text(client.get(url))
    assert "Correction</strong> by hostess" in page
    assert "misread the 8" in page
    assert "Before (version 1): Player, P 9 7 / B J J 10." in page
    assert "Seat 1 Aki: Player 100 (+100)" in page
    assert "After (version 2): Banker" in page
    assert Bet.objects.get().net == D("-100.00")
    refused = text(
        client.post(
            url,
            {"player_cards": "9 7", "banker_cards": "J J 8", "stake_1_player": "100", "reason": ""},
        )
    )
    assert "This field is required." in refused
    assert HandRevision.objects.count() == 1


def test_bets_show_their_names_not_their_codes(client, host, seated, shoe, record):
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "banker_pair", 10)])
    page = text(client.get(reverse("ledger:hand_detail", args=[hand.pk])))
    assert "<td>Banker pair</td>" in page
    assert Bet.objects.get().get_bet_type_display() == "Banker pair"


def test_two_corrections_from_one_version_never_overwrite_each_other(client, host, seated, shoe,
                                                                     record):  # fmt: skip
    client.force_login(host)
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    url = reverse("ledger:hand_detail", args=[hand.pk])
    first = {"player_cards": "9 7", "banker_cards": "J J 8", "stake_1_player": "100",
             "reason": "misread the 8", "version": "1"}  # fmt: skip
    second = first | {"banker_cards": "J J 10", "stake_1_player": "50", "reason": "stake was 50"}
    assert client.post(url, first).status_code == 302
    page = text(client.post(url, second))
    assert MSG_HAND_CHANGED.format(number=1, version=2) in page
    assert 'name="stake_1_player" value="50"' in page and 'name="version" value="2"' in page
    hand.refresh_from_db()
    assert (hand.version, hand.banker_cards) == (2, "J J 8")  # the first correction stands
    assert client.post(url, second | {"version": "2"}).status_code == 302  # deliberately
    hand.refresh_from_db()
    assert (hand.version, Bet.objects.get().stake) == (3, D(50))


def test_a_correction_of_a_hand_undone_meanwhile_is_told_so(seated, shoe, record, host):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    services.hand_undo(shoe=shoe, by=host)
    with pytest.raises(ValidationError) as raised:
        services.hand_correct(hand=hand, entry=entry(result="T"), reason="late", by=host)
    assert raised.value.messages == [MSG_HAND_GONE.format(number=1)]
