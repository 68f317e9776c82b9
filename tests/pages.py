"""Helpers for the pages' tests: posting a hand as the table's form does."""

from __future__ import annotations

import uuid

from django.urls import reverse

from games.models import Shoe
from ledger import services

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(shoe: Shoe) -> str:
    return reverse("ledger:shoe_table", args=[shoe.pk])


def hand_data(shoe: Shoe, **fields: str) -> dict[str, str]:
    """What the table's form posts for the next hand."""
    return {
        "number": str(services.next_hand_number(shoe)),
        "idempotency_key": str(uuid.uuid4()),
        **fields,
    }


def save(client, shoe, htmx=True, **fields):
    headers = HTMX if htmx else {}
    return client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), hand_data(shoe, **fields), **headers
    )


def text(response) -> str:
    return response.content.decode()
