"""A series' forms: its schedule (made from a night, then edited), the next night, its usual
guests."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Series
from ledger.models import Guest


class SeriesForm(forms.ModelForm[Series]):
    class Meta:
        model = Series
        fields = [
            "name",
            "recurrence",
            "weekday",
            "week_of_month",
            "day_of_month",
            "starts_at",
            "time_zone",
            "venue",
        ]
        widgets = {"starts_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M")}
        help_texts = {
            "weekday": _("Weekly, and monthly on the n-th weekday."),
            "week_of_month": _("Monthly on the n-th weekday."),
        }


class SeriesFromNightForm(SeriesForm):
    """A series made from a night: its venue is the night's."""

    class Meta(SeriesForm.Meta):
        fields = [name for name in SeriesForm.Meta.fields if name != "venue"]


class NextNightForm(forms.Form):
    """The one tap: a key so that a second tap (or a resend) makes no second night, and the
    date when the series recurs by hand or the host picks another."""

    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)
    date = forms.DateField(
        label=_("Date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Empty: the series' next date."),
    )
    # The date the button showed: a page loaded before another host's tap still makes the night
    # it named (or hears that it is made), not the one after.
    shown = forms.DateField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("idempotency_key", uuid.uuid4())


class UsualGuestsForm(forms.Form):
    guests = forms.ModelMultipleChoiceField(
        label=_("Usual guests"),
        queryset=Guest.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
