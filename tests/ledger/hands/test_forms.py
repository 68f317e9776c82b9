"""The table's entry form: its 35 stake boxes are built once per rule set and shared."""

from __future__ import annotations

import uuid

from django.utils import translation

from games.payouts import STANDARD_RULES, BetType
from ledger.hands.forms import HandForm, stake_cells

BETS = STANDARD_RULES.offered_bets


def posted(**stakes: str) -> dict[str, str]:
    return {"number": "1", "idempotency_key": str(uuid.uuid4()), "result": "player", **stakes}


def test_a_forms_problems_stay_its_own_though_the_boxes_are_shared():
    wrong = HandForm(posted(stake_2_banker="abc" * 10), bet_types=BETS)
    assert not wrong.is_valid()
    right = HandForm(posted(stake_2_banker="10"), bet_types=BETS)
    assert right.is_valid()
    assert wrong.fields["stake_2_banker"] is right.fields["stake_2_banker"]  # built once
    wrong_cell = stake_cells(wrong, 2, BETS)[BETS.index(BetType.BANKER)]
    right_cell = stake_cells(right, 2, BETS)[BETS.index(BetType.BANKER)]
    assert wrong_cell["invalid"] and not right_cell["invalid"]
    assert right_cell["value"] == "10" and wrong_cell["value"] == "abc" * 10
    fresh = HandForm.fresh(number=2, bet_types=BETS, seating={})
    assert stake_cells(fresh, 2, BETS)[BETS.index(BetType.BANKER)]["value"] in (None, "")


def test_a_shared_boxs_label_is_in_the_language_of_each_request():
    form = HandForm(bet_types=BETS)
    with translation.override("ja"):
        assert str(form["stake_3_player"].label).startswith("席3")
    with translation.override("en"):
        assert str(form["stake_3_player"].label) == "Seat 3 Player"
