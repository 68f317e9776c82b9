"""Guests' forms: a name added, guests brought back from a past night, a rename, an alias, a merge,
and a login made from an invitation."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.forms.models import ModelChoiceIterator
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.models import Guest


class GuestAddForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Guest's name"))


BRING_BACK_CHOICES = 20


class _LatestNights(ModelChoiceIterator[Event]):
    """The choices of a night select: its latest nights, newest first."""

    def __init__(self, field: forms.ModelChoiceField[Event]) -> None:
        super().__init__(field)
        self.queryset = self.queryset.order_by("-date", "-id")[:BRING_BACK_CHOICES]


class BringBackForm(forms.Form):
    """Guests of an earlier night, brought back: the select offers the latest nights only, so
    the event page does not grow with the season; any night is still accepted."""

    from_event = forms.ModelChoiceField(queryset=Event.objects.none(), label=_("From"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from_event = self.fields["from_event"]
        assert isinstance(from_event, forms.ModelChoiceField)  # declared above
        from_event.queryset = Event.objects.nights().exclude(pk=event.pk)
        from_event.widget.choices = _LatestNights(from_event)


class BringBackChecklistForm(BringBackForm):
    """Who comes back from the earlier event: everyone not yet on the list, all ticked."""

    guests = forms.ModelMultipleChoiceField(
        queryset=Guest.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=_("Who comes back"),
        required=False,
    )

    def __init__(self, *args: Any, event: Event, from_event: Event, **kwargs: Any) -> None:
        super().__init__(*args, event=event, **kwargs)
        guests = self.fields["guests"]
        assert isinstance(guests, forms.ModelMultipleChoiceField)  # declared above
        guests.queryset = Guest.objects.filter(events=from_event).exclude(events=event)
        self.initial.setdefault("from_event", from_event.pk)
        self.initial.setdefault("guests", list(guests.queryset.values_list("pk", flat=True)))


# Long enough to say how long a name was; ``ledger.guests.names`` says what a name may be.
NAME_INPUT_MAX_LENGTH = 1000


class GuestNameForm(forms.Form):
    """A guest's new name, or an alias: ``ledger.guests.names.clean_name`` (in the service)
    decides."""

    name = forms.CharField(max_length=NAME_INPUT_MAX_LENGTH, strip=False, label=_("New name"))


class GuestAliasForm(GuestNameForm):
    name = forms.CharField(max_length=NAME_INPUT_MAX_LENGTH, strip=False, label=_("Alias"))


MSG_MERGE_GUEST_GONE = _(
    "That guest is no longer on the list: merged already or removed since the page was opened."
    " Nothing changed."
)


class GuestMergeForm(forms.Form):
    other = forms.ModelChoiceField(
        queryset=Guest.objects.none(), label=_("Merge into this guest"), to_field_name="pk"
    )

    def __init__(self, *args: Any, guest: Guest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        other = self.fields["other"]
        assert isinstance(other, forms.ModelChoiceField)  # declared above
        other.queryset = Guest.objects.exclude(pk=guest.pk)
        other.error_messages["invalid_choice"] = MSG_MERGE_GUEST_GONE


class InvitationAcceptForm(UserCreationForm[User]):
    """A guest's own login: Django's checks (a free username, the password validators)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
