"""The ways to pay as the host edits them, and a guest's handles."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ledger.models import Guest, GuestPayHandle, PayWay, Settlement
from ledger.money.services import MSG_WAY_GONE
from ledger.payways.links import DETAILS_MAX, TEMPLATE_MAX
from ledger.payways.selectors import active_ways, guest_handles

METHODS = [(value, label) for value, label in Settlement.Method.choices if value != "other"]


class PayWayForm(forms.Form):
    """A way added or edited: what the services check (``ledger.payways.services``)."""

    name = forms.CharField(label=_("Name"), max_length=60)
    kind = forms.ChoiceField(label=_("Paid by"), choices=PayWay.Kind.choices)
    link_template = forms.CharField(
        label=_("Link template"),
        max_length=TEMPLATE_MAX,
        required=False,
        help_text=_("A pay link: https://paypal.me/{handle}/{amount}{currency}"),
        widget=forms.TextInput(attrs={"inputmode": "url", "autocomplete": "off"}),
    )
    house_handle = forms.CharField(
        label=_("The house's handle"),
        max_length=100,
        required=False,
        help_text=_("A pay link: where guests pay the house."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    details = forms.CharField(
        label=_("The house's details"),
        max_length=DETAILS_MAX,
        required=False,
        help_text=_("Details: the account guests pay the house into."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    method = forms.ChoiceField(
        label=_("Older pages call it"), choices=METHODS, initial=Settlement.Method.WAY
    )

    @classmethod
    def of(cls, way: PayWay) -> PayWayForm:
        fields = ("name", "kind", "link_template", "house_handle", "details", "method")
        return cls(initial={field: getattr(way, field) for field in fields}, prefix=f"w{way.pk}")


class HandlesForm(forms.Form):
    """One box per way in use that takes a handle (a link or details), the guest's current
    ones filled in; an emptied box removes it."""

    def __init__(
        self, *args: Any, ways: list[PayWay], handles: list[GuestPayHandle], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        current = {handle.way_id: handle.handle for handle in handles}
        self.ways = [way for way in ways if way.kind != PayWay.Kind.IN_PERSON]
        for way in self.ways:
            self.fields[f"way_{way.pk}"] = forms.CharField(
                label=way.label,
                required=False,
                max_length=DETAILS_MAX,
                initial=current.get(way.pk, ""),
                widget=forms.TextInput(attrs={"autocomplete": "off"}),
            )

    def clean(self) -> dict[str, Any]:
        """A box of a way the form does not have (retired since the page was drawn) is refused
        by name, never dropped."""
        cleaned = super().clean() or {}
        for name in self.data:
            if name.startswith("way_") and name not in self.fields:
                raise forms.ValidationError(MSG_WAY_GONE)
        return cleaned

    def changed(self) -> list[tuple[PayWay, str]]:
        """The ways whose box changed, with what it holds now."""
        return [
            (way, self.cleaned_data[f"way_{way.pk}"])
            for way in self.ways
            if f"way_{way.pk}" in self.changed_data
        ]


def handles_context(guest: Guest, form: HandlesForm | None = None) -> dict[str, object]:
    """The host's guest page's handles section: the form of the ways in use (two queries)."""
    if form is None:
        form = HandlesForm(ways=list(active_ways()), handles=guest_handles(guest))
    return {"handles_form": form}
