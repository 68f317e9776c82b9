"""The tips' forms: a tip recorded, how the pool is shared, a dealer's shift started (or entered
whole by the host)."""

from __future__ import annotations

import datetime as dt
import uuid
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Event, Hand, Shoe
from ledger.forms import ChipsAmountField
from ledger.models import Guest, Tip, TipSharing
from shoebook.base.roles import DEALERS

MSG_TIP_GUEST_GONE = _(
    "This guest is no longer on the night's list (merged or removed since the page was opened):"
    " nothing was recorded."
)
MSG_HAND_GONE = _("That hand is not one of this night's (undone since the page was opened?).")


class HandChoiceField(forms.ModelChoiceField[Hand]):
    def label_from_instance(self, obj: Hand) -> str:
        return str(_("Shoe {shoe} · hand {hand}")).format(shoe=obj.shoe.number, hand=obj.number)


class ShoeChoiceField(forms.ModelChoiceField[Shoe]):
    def label_from_instance(self, obj: Shoe) -> str:
        return str(_("Shoe {shoe}")).format(shoe=obj.number)


class TipForm(forms.Form):
    """A guest's tip to the dealers: who, how much, from where (a hand's win, chips, money)."""

    guest = forms.ModelChoiceField(label=_("Guest"), queryset=Guest.objects.none())
    amount = ChipsAmountField(label=_("Tip"), min_value=Decimal("0.01"))
    source = forms.ChoiceField(
        label=pgettext_lazy("a tip's source", "From"),
        choices=Tip.Source.choices,
        widget=forms.RadioSelect,
    )
    hand = HandChoiceField(
        label=_("Hand (a tip from its win)"), queryset=Hand.objects.none(), required=False
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("idempotency_key", uuid.uuid4())
        self.initial.setdefault("source", Tip.Source.HAND_WIN)
        guest = self.fields["guest"]
        assert isinstance(guest, forms.ModelChoiceField)
        guest.queryset = Guest.objects.filter(events=event)
        guest.error_messages["invalid_choice"] = MSG_TIP_GUEST_GONE
        hand = self.fields["hand"]
        assert isinstance(hand, forms.ModelChoiceField)
        hand.queryset = (
            Hand.objects.filter(shoe__event=event)
            .select_related("shoe")
            .order_by("-shoe__number", "-number")
        )
        hand.error_messages["invalid_choice"] = MSG_HAND_GONE


class SharingForm(forms.Form):
    way = forms.ChoiceField(
        label=_("Share the tips"), choices=TipSharing.Way.choices, widget=forms.RadioSelect
    )


class ShiftForm(forms.Form):
    """A dealer starts dealing now; the host may name the dealer and enter a whole shift."""

    dealer = forms.ModelChoiceField(label=_("Dealer"), queryset=User.objects.none(), required=False)
    shoe = ShoeChoiceField(label=_("Shoe"), queryset=Shoe.objects.none(), required=False)
    started_at = forms.DateTimeField(
        label=_("Started"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )
    ended_at = forms.DateTimeField(
        label=_("Ended"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        dealer = self.fields["dealer"]
        assert isinstance(dealer, forms.ModelChoiceField)
        dealer.queryset = User.objects.filter(groups__name=DEALERS, is_active=True).order_by(
            "username"
        )
        shoe = self.fields["shoe"]
        assert isinstance(shoe, forms.ModelChoiceField)
        shoe.queryset = Shoe.objects.filter(event=event).order_by("number")

    def times(self) -> tuple[dt.datetime | None, dt.datetime | None]:
        return self.cleaned_data.get("started_at"), self.cleaned_data.get("ended_at")
