"""The adversary's ``tips`` group alone: nothing crashes, nothing is wrong."""

from __future__ import annotations

import random

import pytest

from tests.adversary.ground import Night
from tests.adversary.tips import tip_cases

pytestmark = pytest.mark.django_db


def test_the_tips_group_refuses_what_it_must_and_records_the_rest_once():
    outcomes = {
        case.label: case.run() for case in tip_cases(Night("tips"), random.Random(3), 40, "t")
    }
    bad = {
        label: outcome
        for label, outcome in outcomes.items()
        if outcome.split(":")[0] in ("wrong", "crashed")
    }
    assert bad == {}
    assert outcomes["a double tap"] == "accepted"
    assert outcomes["roles"] == "refused"
    assert outcomes["tip '5.00'"] == "accepted"
