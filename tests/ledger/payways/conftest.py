"""A played night: Aki won 100 (the house owes him ¥10,000), Ben lost 50 (he owes ¥5,000);
the house takes PayPal as "shoebook-house" and bank transfers into its account."""

from __future__ import annotations

import pytest

from ledger.models import PayWay
from tests.conftest import bet, seed_pay_ways

HOUSE_BANK = "MUFG Shibuya 001 1234567 ショーブック"


@pytest.fixture
def ways(db):
    # The migration's list, again: a transactional test run before this one (on this worker)
    # emptied the tables, seeded rows included.
    seed_pay_ways()
    PayWay.objects.filter(name="PayPal").update(house_handle="shoebook-house")
    PayWay.objects.filter(name="Bank transfer").update(details=HOUSE_BANK)
    return {way.name: way for way in PayWay.objects.all()}


@pytest.fixture
def played(seated, shoe, record, ways):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    return seated
