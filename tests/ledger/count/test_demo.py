"""The demo's count: the reference night counted at the close reconciles to zero, and the night
kept by its count alone has the counts as its results."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Event
from ledger.count.selectors import night_count
from ledger.integrity import check_ledger
from ledger.models import ChipMove, CountSetup, GuestEventResult

pytestmark = pytest.mark.django_db


def test_the_reference_night_is_counted_and_reconciles_to_zero(demo_night):
    night = night_count(demo_night)
    assert len(night.guests) == 15
    assert night.reconciliation.reconciled
    # The tray holds its float and the owner's loss of the night ($654).
    assert night.reconciliation.tray.house_net == Decimal(-654)
    counts = ChipMove.objects.filter(event=demo_night, kind="count")
    assert counts.exists() and all(move.by_denomination for move in counts)


def test_the_count_only_demo_night_loads_after_the_demo_night(demo_night):
    out = StringIO()
    call_command("load_demo_count", stdout=out)
    event = Event.objects.get(name="Count-only night")
    assert CountSetup.objects.get(event=event).count_only
    nets = sorted(GuestEventResult.objects.filter(event=event).values_list("net", flat=True))
    assert nets == sorted(Decimal(n) for n in ("430", "-880", "-500", "285.5", "110"))
    assert check_ledger().problems == []
    call_command("load_demo_count", "--if-empty", stdout=out)
    assert Event.objects.filter(name="Count-only night").count() == 1
