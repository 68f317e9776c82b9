"""Form pieces every part of the ledger uses: an amount typed as the host types it, a chip amount
field, and a service's refusal put under the fields it names."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.entry import read_amount
from games.messages import format_chips, whole_cents

# Long enough for any amount a table takes ("1,000,000.00"); longer text is not a stake.
STAKE_MAX_LENGTH = 20


def stake_text(stake: Decimal) -> str:
    """A stake as the host types it back: 100, 12.50 (no "100.00")."""
    return f"{stake:.0f}" if stake == stake.to_integral_value() else f"{stake:.2f}"


def add_service_errors(form: forms.BaseForm, error: ValidationError) -> None:
    """Show a service's errors on the form: on the field they name, else at the top."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, messages in error.message_dict.items():
        target = field if field in form.fields and field != NON_FIELD_ERRORS else None
        form.add_error(target, messages)


MSG_CHIPS_AMOUNT = _("Type an amount in chips, such as 298.50 or 1,000 (at most {maximum}).")


class ChipsAmountField(forms.DecimalField):
    """An amount as a host types it (``games.entry.read_amount``: thousands commas, full-width
    digits), never negative, whole cents. Anything else (1e30, NaN, 1_000) gets one message."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_CHIPS)
        kwargs.setdefault(
            "widget", forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
        )
        super().__init__(max_digits=15, decimal_places=2, **kwargs)

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # stubs: int
        if value in self.empty_values:
            return None
        amount = read_amount(str(value))
        if amount is None or amount < 0 or not whole_cents(amount):
            raise ValidationError(MSG_CHIPS_AMOUNT.format(maximum=format_chips(MAX_CHIPS)))
        return amount
