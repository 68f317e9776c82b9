"""Date-range filters for the pages that span several events."""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Event


class EventDateRange(django_filters.FilterSet):
    start = django_filters.DateFilter(
        field_name="date",
        lookup_expr="gte",
        label=_("From"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    end = django_filters.DateFilter(
        field_name="date",
        lookup_expr="lte",
        label=_("To"),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    class Meta:
        model = Event
        fields: list[str] = []
