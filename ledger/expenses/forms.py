"""The expense form of a night's page: what, how much, who paid and how, and who shares it — a
box per guest on the night's list and one for the house, each a share (blank or 0: not sharing),
or everyone at the night. Text only: the service decides."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.entry import read_count
from ledger.expenses.services import MAX_WEIGHT, MSG_EXPENSE_NO_SHARERS, WHAT_MAX_LENGTH
from ledger.forms import ChipsAmountField
from ledger.models import Expense, Guest

HOUSE = "house"
SHARE_PREFIX = "share_"

MSG_EXPENSE_SHARE_BOX = _("{name}: a share is a whole number from 0 to {maximum}, typed 0–9.")
MSG_EXPENSE_UNKNOWN_BOX = _(
    "“{box}” is not a box of this form: the night's guest list changed since the page was "
    "opened. Reload the page."
)


class ExpenseForm(forms.Form):
    what = forms.CharField(label=_("What"), max_length=WHAT_MAX_LENGTH, strip=False)
    amount = ChipsAmountField(label=_("How much (chips)"))
    paid_by = forms.ChoiceField(label=_("Who paid"))
    paid_in = forms.ChoiceField(
        label=_("Paid with"), choices=Expense.PaidIn.choices, initial=Expense.PaidIn.MONEY
    )
    split = forms.ChoiceField(
        label=_("Shared"),
        choices=Expense.Split.choices,
        initial=Expense.Split.EQUAL,
        widget=forms.RadioSelect,
    )
    everyone = forms.BooleanField(label=_("Everyone at the night"), required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, guests: Sequence[Guest], **kwargs: Any) -> None:
        # Ids of its own: the panel is loaded into the night's page beside the settle form, whose
        # "Amount" label must not point at this form's amount (``id_amount`` twice).
        kwargs.setdefault("auto_id", "expense_%s")
        super().__init__(*args, **kwargs)
        self.guests = {guest.pk: guest for guest in guests}
        self.initial.setdefault("idempotency_key", uuid.uuid4())
        paid_by = self.fields["paid_by"]
        assert isinstance(paid_by, forms.ChoiceField)
        boxes: list[tuple[str, Any]] = [
            (HOUSE, _("The house")),
            *((str(guest.pk), guest.name) for guest in guests),
        ]
        paid_by.choices = boxes
        paid_by.initial = HOUSE
        for key, name in [*boxes[1:], boxes[0]]:
            self.fields[f"{SHARE_PREFIX}{key}"] = forms.CharField(
                label=name,
                required=False,
                max_length=6,
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "size": 3}
                ),
            )

    def share_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(SHARE_PREFIX)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for box in self.data:
            if box.startswith(SHARE_PREFIX) and box not in self.fields:
                raise ValidationError(MSG_EXPENSE_UNKNOWN_BOX.format(box=box[:40]))
        sharers: list[tuple[Guest | None, int]] = []
        for name, field in self.fields.items():
            if not name.startswith(SHARE_PREFIX):
                continue
            typed = str(data.get(name) or "").strip()
            weight = read_count(typed, digits=4) if typed else 0
            if weight is None or weight > MAX_WEIGHT:
                label = field.label or name
                self.add_error(name, MSG_EXPENSE_SHARE_BOX.format(name=label, maximum=MAX_WEIGHT))
                continue
            key = name.removeprefix(SHARE_PREFIX)
            guest = None if key == HOUSE else self.guests[int(key)]
            if data.get("everyone") and guest is not None:
                weight = max(weight, 1)
            if weight:
                sharers.append((guest, weight))
        if not sharers and not self.errors:
            self.add_error(None, MSG_EXPENSE_NO_SHARERS)
        data["sharers"] = sharers
        payer = data.get("paid_by")
        if payer is not None:
            data["payer"] = None if payer == HOUSE else self.guests.get(int(payer))
        return data
