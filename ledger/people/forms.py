"""The People page's forms and the login made from a co-host's or a dealer's invitation."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from ledger.models import StaffInvitation


class StaffInviteForm(forms.Form):
    role = forms.ChoiceField(
        label=_("Role"),
        choices=StaffInvitation.Role.choices,
        initial=StaffInvitation.Role.DEALER,
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("For whom (only hosts see it)"),
        required=False,
        max_length=80,
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=StaffInvitation.Role.choices)


class StaffInvitationAcceptForm(UserCreationForm[User]):
    """A co-host's or dealer's own login: Django's checks (a free username, the password
    validators)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
