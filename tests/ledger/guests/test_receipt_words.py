"""A receipt says who settles with whom (ledger.guests.receipts): at a guest-banked night the
guests settle with each other, so its page and its PDF never say the house owes, and its result
line is the coups', not the hands'."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.urls import reverse
from pypdf import PdfReader

from ledger.guests.receipts import (
    MSG_COUP_RESULT,
    MSG_GUEST_IS_OWED,
    MSG_GUEST_OWES,
    MSG_HOUSE_OWES,
    MSG_RESULT,
    guest_receipt,
)
from tests.ledger.banked_nights import play_debts, seven_guest_night

pytestmark = pytest.mark.django_db


def test_a_chemin_de_fer_receipt_settles_between_guests(make_event, host, client):
    event, shoe, guests = seven_guest_night(make_event, host)
    play_debts(shoe, host, {name: seat for seat, name in enumerate("ABCDEFG", 1)},
               [("A", "B", "30")])  # fmt: skip
    owing, owed = guest_receipt(guests["A"], event), guest_receipt(guests["B"], event)
    assert owing.lines[0].words == str(MSG_COUP_RESULT)
    assert owing.balance_words == str(MSG_GUEST_OWES)
    assert owed.balance_words == str(MSG_GUEST_IS_OWED)
    client.force_login(host)
    for guest, words in ((guests["A"], MSG_GUEST_OWES), (guests["B"], MSG_GUEST_IS_OWED)):
        url = reverse("ledger:guest_receipt", args=[guest.pk, event.pk])
        page = client.get(url).content.decode()
        pdf = b"".join(client.get(url + "receipt.pdf").streaming_content)
        text = PdfReader(BytesIO(pdf)).pages[0].extract_text()
        for shown in (page, text):
            assert str(words) in shown
            assert "house owes" not in shown and str(MSG_RESULT) not in shown
            assert str(MSG_COUP_RESULT) in shown


def test_a_punto_banco_receipt_still_says_the_house_owes(played, seated):
    receipt = guest_receipt(seated[1], played)
    assert receipt.balance_words == str(MSG_HOUSE_OWES)
    assert receipt.lines[0].words == str(MSG_RESULT)
