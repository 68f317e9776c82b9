"""Helpers for the pages' tests: posting a hand as the table's form does."""

from __future__ import annotations

import uuid

from django.urls import reverse

from games.models import Shoe
from ledger import services
from ledger.forms import seating_token
from ledger.selectors import seating_of

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(shoe: Shoe) -> str:
    return reverse("ledger:shoe_table", args=[shoe.pk])


def hand_data(shoe: Shoe, **fields: str) -> dict[str, str]:
    """What the table's form posts for the next hand."""
    number = services.next_hand_number(shoe)
    return {
        "number": str(number),
        "idempotency_key": str(uuid.uuid4()),
        "seating": seating_token(seating_of(shoe, number)),
        **fields,
    }


def save(client, shoe, htmx=True, **fields):
    headers = HTMX if htmx else {}
    return client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), hand_data(shoe, **fields), **headers
    )


def text(response) -> str:
    return response.content.decode()
