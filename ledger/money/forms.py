"""Money forms: a settlement recorded or voided, a guest's credit limit."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise as Text

from games.models import Event
from ledger.forms import ChipsAmountField, stake_text
from ledger.models import Guest, PayWay, Settlement, dated_default
from ledger.money.services import MSG_VOID_REASON, MSG_WAY_GONE
from shoebook.base.converters import id_or_none

MSG_SETTLE_GUEST_GONE = _(
    "This guest is no longer on the list: merged into another guest or removed since the page"
    " was opened. Nothing was recorded: open the settlement list again."
)


MSG_SETTLE_METHOD = _("Tap one of the ways to pay to record the settlement.")


class SettlementForm(forms.Form):
    """The host settles up with one guest: which way and how much (both from the balance, the
    amount editable for a partial payment), and how — the method is the button tapped: a way
    to pay from the list (``way:<id>``), "other" with a note, or one of the older methods
    (cash, tab, credit: recorded with the list's way of that method, if it has one)."""

    PAID_HOUSE, HOUSE_PAID = "guest_paid", "house_paid"
    guest = forms.ModelChoiceField(
        label=_("Guest"), queryset=Guest.objects.none(), widget=forms.HiddenInput
    )
    direction = forms.ChoiceField(
        label=_("Which way"),
        choices=[(PAID_HOUSE, _("Guest paid the house")), (HOUSE_PAID, _("House paid the guest"))],
        widget=forms.RadioSelect,
    )
    amount = ChipsAmountField(label=_("Amount"), min_value=Decimal("0.01"))
    method = forms.CharField(label=_("How"), max_length=24)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    tab_reference = forms.CharField(
        label=_("Tab (name or number)"),
        max_length=60,
        required=False,
        help_text=_("Settled against the tab: which tab at the venue."),
    )
    dated = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    confirm = forms.BooleanField(label=_("Record it anyway"), required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("dated", dated_default(event))
        guest = self.fields["guest"]
        assert isinstance(guest, forms.ModelChoiceField)  # declared above
        guest.queryset = Guest.objects.filter(events=event)
        guest.error_messages["invalid_choice"] = MSG_SETTLE_GUEST_GONE
        self.initial.setdefault("idempotency_key", uuid.uuid4())
        self.question = ""  # what the service asks before recording, once asked
        self.ways = list(PayWay.objects.filter(retired_at__isnull=True))  # the buttons
        self.way: PayWay | None = None  # the way tapped, once cleaned
        # With no list at all (a database its migrations never seeded), the older buttons.
        self.older_methods = [
            (value, label)
            for value, label in Settlement.Method.choices
            if value not in (Settlement.Method.OTHER, Settlement.Method.WAY)
        ]

    def clean_method(self) -> str:
        value: str = self.cleaned_data["method"]
        if value.startswith("way:"):
            way_id = id_or_none(value.removeprefix("way:"))
            way = next((way for way in self.ways if way.pk == way_id), None)
            if way is None:  # retired or gone since the page was drawn
                raise forms.ValidationError(MSG_WAY_GONE)
            self.way = way
            return way.method
        if value not in Settlement.Method.values or value == Settlement.Method.WAY:
            raise forms.ValidationError(MSG_SETTLE_METHOD)
        if value != Settlement.Method.OTHER:
            self.way = next((way for way in self.ways if way.method == value), None)
        return value

    @classmethod
    def for_balance(cls, *, event: Event, guest_id: int, balance: Decimal) -> SettlementForm:
        """Settling a guest's balance in full: the house pays what it owes, or the guest pays
        what they owe."""
        direction = cls.HOUSE_PAID if balance > 0 else cls.PAID_HOUSE
        amount = stake_text(abs(balance)) if balance else ""
        return cls(
            initial={"guest": guest_id, "direction": direction, "amount": amount}, event=event
        )

    def ask(self, question: str) -> None:
        """Show what the service asked, with the box that confirms it."""
        self.question = question

    def signed_amount(self) -> Decimal:
        amount: Decimal = self.cleaned_data["amount"]
        return amount if self.cleaned_data["direction"] == self.PAID_HOUSE else -amount


class VoidForm(forms.Form):
    """Why a money row is voided: the one reversal's reason (``ledger.money.reversal``), for a
    settlement or a transfer alike; ``required`` is the kind's own words for a missing reason."""

    reason = forms.CharField(label=_("Why void it?"), max_length=200)

    def __init__(self, *args: Any, required: Text = MSG_VOID_REASON, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].error_messages["required"] = required


class CreditLimitForm(forms.Form):
    credit_limit = ChipsAmountField(
        label=_("Credit limit (chips)"),
        required=False,
        min_value=Decimal(0),
        help_text=_("How much the guest may owe the house; leave empty for no limit."),
    )
