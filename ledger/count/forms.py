"""The count's forms: chips taken or handed back (a box per chip of the night's set, or a total),
an adjustment, a row voided, and how the night is counted."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.entry import read_amount
from games.messages import MINUS, format_chips, whole_cents
from ledger.forms import ChipsAmountField
from ledger.models import ChipMove, CountSetup, dated_default

MSG_CHIPS_CHANGED = _(
    "The night's chips changed since this page was opened: it has a box for {value}, which the"
    " night no longer counts. Nothing was recorded: reload the page and count again."
)
MSG_SIGNED_AMOUNT = _("Type an amount such as 40 or −40 (at most {maximum} either way).")


def chip_field_name(denomination: str) -> str:
    return "n_" + denomination.replace(".", "_")


class ChipsForm(forms.Form):
    """Chips for one guest (or the tray): taken (a buy-in or a top-up, with how it was paid) or
    handed back, as a number of each chip of the night's set or as a total."""

    kind = forms.ChoiceField(choices=ChipMove.Kind.choices, widget=forms.HiddenInput)
    guest = forms.IntegerField(required=False, widget=forms.HiddenInput)
    source = forms.ChoiceField(
        label=_("Paid by"),
        choices=ChipMove.Source.choices,
        required=False,
        widget=forms.RadioSelect,
    )
    total = ChipsAmountField(label=_("Or the total"), required=False)
    dated = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    # What the page showed as counted so far: another device's count meanwhile is not added to
    # it unseen.
    seen_counted = forms.CharField(required=False, max_length=24, widget=forms.HiddenInput)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, setup: CountSetup, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("idempotency_key", uuid.uuid4())
        self.initial.setdefault("dated", dated_default(setup.event))
        self.denominations = list(setup.denominations)
        for value in self.denominations:
            self.fields[chip_field_name(value)] = forms.CharField(
                label=format_chips(Decimal(value)),
                required=False,
                max_length=12,
                widget=forms.TextInput(
                    attrs={"inputmode": "numeric", "autocomplete": "off", "class": "chip-count"}
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        known = {chip_field_name(value) for value in self.denominations}
        stale = sorted(name for name in self.data if name.startswith("n_") and name not in known)
        if stale:
            value = stale[0][2:].replace("_", ".")
            raise ValidationError(MSG_CHIPS_CHANGED.format(value=value[:20]))
        return data

    def chip_boxes(self) -> list[forms.BoundField]:
        return [self[chip_field_name(value)] for value in self.denominations]

    def by_denomination(self) -> dict[str, str]:
        """The number typed for each chip, as typed (the service reads and checks them)."""
        data = self.cleaned_data
        return {value: data.get(chip_field_name(value), "") or "" for value in self.denominations}


def read_signed_amount(text: str) -> Decimal | None:
    """An amount that may be negative: −40, -40 or +40 as typed (thousands commas allowed)."""
    text = text.strip()
    negative = text[:1] in ("-", MINUS, "－")  # the full-width minus a Japanese keyboard types
    if text[:1] in ("-", "+", MINUS, "－", "＋"):
        text = text[1:]
    amount = read_amount(text)
    if amount is None or amount < 0 or not whole_cents(amount) or amount > MAX_CHIPS:
        return None
    return -amount if negative else amount


class AdjustmentForm(forms.Form):
    """A difference booked with its reason: what the guest gains (negative: loses)."""

    guest = forms.IntegerField(widget=forms.HiddenInput)
    amount = forms.CharField(
        label=_("Amount"),
        max_length=24,
        widget=forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    reason = forms.CharField(label=_("Why"), max_length=200)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("idempotency_key", uuid.uuid4())

    def clean_amount(self) -> Decimal:
        amount = read_signed_amount(self.cleaned_data["amount"])
        if amount is None or amount == 0:
            raise ValidationError(MSG_SIGNED_AMOUNT.format(maximum=format_chips(MAX_CHIPS)))
        return amount


class CountSetupForm(forms.Form):
    """How the night's chips are counted."""

    denominations = forms.CharField(
        label=_("Chips on the table"),
        max_length=120,
        help_text=_("Their values, separated by spaces: 0.5 1 5 25 100 500 1000."),
    )
    opening_float = ChipsAmountField(label=_("The tray at the open"), required=False)
    count_only = forms.BooleanField(
        label=_("Keep this night by its count alone (no hands logged)"), required=False
    )
    commission_total = ChipsAmountField(label=_("Commission, in all (if kept)"), required=False)

    @classmethod
    def of(cls, setup: CountSetup) -> CountSetupForm:
        return cls(
            initial={
                "denominations": " ".join(setup.denominations),
                "opening_float": format_chips(setup.opening_float),
                "count_only": setup.count_only,
                "commission_total": (
                    format_chips(setup.commission_total)
                    if setup.commission_total is not None
                    else ""
                ),
            }
        )

    def values(self) -> list[str]:
        text: str = self.cleaned_data["denominations"]
        return text.replace(",", " ").split()
