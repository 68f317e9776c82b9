from datetime import date, time
from decimal import Decimal

import pytest

from games.payouts import RuleSet
from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.series import services as series_services


@pytest.fixture
def club_night(make_event, host):
    """A night with every setting away from its default: 6 decks, euros at 0.5 a chip, rounded
    half up to 50-cent chips, tie 9:1, 60 hands a shoe, a venue, a chip set, and three guests."""
    night = make_event(
        name="Club night",
        date=date(2026, 11, 27),  # a Friday
        venue="Le Salon",
        decks=6,
        currency="EUR",
        currency_symbol="€",
        money_per_chip=Decimal("0.5"),
        table_min=Decimal(5),
        table_max=Decimal(500),
        hands_per_shoe=60,
        rounding="half_up",
        smallest_chip=Decimal("0.50"),
        rules=RuleSet(commission_rate=Decimal("0.04"), tie_pays=9),
    )
    count_services.count_setup_save(
        event=night, by=host, denominations=["0.5", "5", "25", "100"], opening_float=Decimal(2000)
    )
    for name in ("Aki", "Ben", "Chie"):
        guest_services.event_guest_add(event=night, name=name, by=host)
    return night


@pytest.fixture
def club(club_night, host):
    return series_services.series_from_night(
        event=club_night,
        by=host,
        name="Fridays at the Salon",
        recurrence="weekly",
        weekday=4,
        starts_at=time(20, 30),
        time_zone="Europe/Paris",
    )
