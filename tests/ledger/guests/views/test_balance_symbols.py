"""The host's pages show a guest's balance as the guest's own page does: with the chip symbol
of the guest's latest night."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Event
from tests.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def in_euros(played, event):
    """Aki won 100 and Ben lost 40 at a night played in euro chips."""
    Event.objects.filter(pk=event.pk).update(currency_symbol="€")
    return {guest.name: guest for guest in played.values()}


def test_the_guest_list_shows_each_balance_with_its_chip_symbol(client, host, in_euros):
    client.force_login(host)
    page = text(client.get(reverse("ledger:guest_list")))
    assert "+€100" in page and "−€40" in page
    own = text(client.get(reverse("ledger:guest_detail", args=[in_euros["Aki"].pk])))
    assert "+€100" in own  # as the guest's own figures say it


def test_the_merge_preview_shows_the_balances_with_their_chip_symbol(client, host, in_euros):
    client.force_login(host)
    aki, ben = in_euros["Aki"], in_euros["Ben"]
    page = text(client.get(reverse("ledger:guest_merge", args=[aki.pk]), {"other": ben.pk}))
    assert "+€100" in page and "−€40" in page
    assert '<td id="merged-balance">+€60</td>' in page
