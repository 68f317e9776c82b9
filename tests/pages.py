"""Helpers for the pages' tests: posting a hand as the table's form does."""

from __future__ import annotations

import uuid
from html.parser import HTMLParser

from django.urls import reverse

from games.models import Shoe
from ledger.hands import services as hand_services
from ledger.hands.forms import seating_token
from ledger.hands.selectors import seating_of

HTMX = {"HTTP_HX_REQUEST": "true"}


def table_url(shoe: Shoe) -> str:
    return reverse("ledger:shoe_table", args=[shoe.pk])


def hand_data(shoe: Shoe, **fields: str) -> dict[str, str]:
    """What the table's form posts for the next hand."""
    number = hand_services.next_hand_number(shoe)
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


class _FormReader(HTMLParser):
    def __init__(self, form_id: str, selects: bool = False) -> None:
        super().__init__()
        self.form_id, self.inside, self.data = form_id, False, {}
        self.selects, self.select, self.chosen = selects, "", False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.inside = found.get("id") == self.form_id
        elif self.inside and tag == "input" and found.get("name"):
            kind, name = found.get("type", "text"), str(found["name"])
            if kind not in ("radio", "checkbox"):
                self.data[name] = found.get("value") or ""
            elif "checked" in found:
                self.data[name] = found.get("value") or "on"
        elif self.inside and self.selects and tag == "select" and found.get("name"):
            self.select, self.chosen = str(found["name"]), False
        elif self.select and tag == "option" and (not self.chosen or "selected" in found):
            # The first option unless one is selected, as a browser posts it.
            self.data[self.select] = found.get("value") or ""
            self.chosen = self.chosen or "selected" in found

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = ""


def form_data(page: str, form_id: str = "hand-form") -> dict[str, str]:
    """What a browser would post from the page's form: its inputs as they are filled in
    (a radio or check box only when ticked)."""
    reader = _FormReader(form_id)
    reader.feed(page)
    return reader.data


def posted_form(page: str, form_id: str) -> dict[str, str]:
    """``form_data`` with the selects' chosen options: all a browser posts of a form but the
    lists of check boxes (the last one ticked only)."""
    reader = _FormReader(form_id, selects=True)
    reader.feed(page)
    return reader.data
