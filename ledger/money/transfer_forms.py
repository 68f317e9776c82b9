"""The forms of a guest-banked night's settling up: a transfer recorded (a proposed line paid,
in full or in part, or another one), a transfer voided; and the panel that shows them."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.forms import ChipsAmountField, stake_text
from ledger.money.transfers import (
    HOUSE,
    NightBalances,
    ProposedTransfer,
    TransferRow,
    event_transfer_rows,
    night_balances,
    proposed_transfers,
)

MSG_UNKNOWN_PARTY = _(
    "Choose someone on this night's list: this one is not (merged or removed since the page "
    "was opened?). Nothing was recorded."
)


class TransferForm(forms.Form):
    """``payer`` pays ``payee`` ``amount``: a guest on the night's list or the house (its key,
    ``ledger.money.transfers.HOUSE``). The amount is the line's, editable for a partial payment; the
    service refuses more than is still due, and zero."""

    payer = forms.TypedChoiceField(
        label=_("Who pays"), coerce=int, error_messages={"invalid_choice": MSG_UNKNOWN_PARTY}
    )
    payee = forms.TypedChoiceField(
        label=_("Who receives"), coerce=int, error_messages={"invalid_choice": MSG_UNKNOWN_PARTY}
    )
    amount = ChipsAmountField(label=_("Amount"))
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    in_chips = forms.BooleanField(label=_("Paid in chips at the table"), required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, balances: NightBalances, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        parties = sorted(
            balances.parties.items(),
            key=lambda item: (item[0] != HOUSE, item[1].name.casefold()),
        )
        choices = [(key, party.name) for key, party in parties]
        for name in ("payer", "payee"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)  # declared above
            field.choices = choices
        self.initial.setdefault("idempotency_key", uuid.uuid4())

    @classmethod
    def for_line(cls, line: ProposedTransfer, balances: NightBalances, number: int) -> TransferForm:
        """A proposed line, to pay in full (or change the amount for part of it)."""
        initial = {
            "payer": line.payer.key,
            "payee": line.payee.key,
            "amount": stake_text(line.amount),
        }
        return cls(initial=initial, balances=balances, auto_id=f"transfer-{number}-%s")

    def pair(self) -> tuple[int, int] | None:
        """The payer and payee this form was sent for (bound) or is for (unbound)."""
        source = self.data if self.is_bound else self.initial
        try:
            return int(source.get("payer", "")), int(source.get("payee", ""))
        except (TypeError, ValueError):
            return None


@dataclass
class ProposalLine:
    line: ProposedTransfer
    form: TransferForm


@dataclass
class ClearingPanel:
    """What the event page shows of a guest-banked night's settling up: each party's balance
    for the night, the transfers that settle what is open (each with its form), the transfers
    recorded, and a form for another transfer. A refused form comes back on its line, or at
    the top when its line is gone."""

    event: Event
    balances: NightBalances
    lines: list[ProposalLine]
    rows: list[TransferRow]
    other_form: TransferForm
    refused: TransferForm | None  # a refused form whose line is gone (shown on its own)

    @property
    def open_balances(self) -> list[tuple[str, Any]]:
        """Each party with something open tonight, largest debt first."""
        return sorted(
            (
                (self.balances.parties[key].name, amount)
                for key, amount in self.balances.balances.items()
                if amount
            ),
            key=lambda pair: (pair[1], pair[0].casefold()),
        )


def clearing_panel(event: Event, form: TransferForm | None = None) -> ClearingPanel:
    """The settling-up panel of a guest-banked night, ``form`` (a refused one) in its place.
    Six queries, however many guests, coups or transfers."""
    balances = night_balances(event)
    proposal = proposed_transfers(event, balances)
    lines = [
        ProposalLine(line, TransferForm.for_line(line, balances, number))
        for number, line in enumerate(proposal, start=1)
    ]
    refused = form if form is not None and form.is_bound else None
    other_form = TransferForm(balances=balances, auto_id="transfer-other-%s")
    if refused is not None:
        pair = refused.pair()
        for proposal_line in lines:
            if (proposal_line.line.payer.key, proposal_line.line.payee.key) == pair:
                refused.auto_id = proposal_line.form.auto_id
                proposal_line.form, refused = refused, None
                break
    if refused is not None and refused.data.get("other"):
        refused.auto_id = other_form.auto_id
        other_form, refused = refused, None
    return ClearingPanel(
        event=event,
        balances=balances,
        lines=lines,
        rows=event_transfer_rows(event),
        other_form=other_form,
        refused=refused,
    )
