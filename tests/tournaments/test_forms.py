"""The tournament's forms take numbers in the digits 0 to 9 (full-width ones read as them):
another script's digits are refused by the box's name, never read as a seed or a place."""

from __future__ import annotations

import pytest

from games.forms import MSG_PLAIN_DIGITS
from tournaments.forms import DrawForm, PlayoffForm


@pytest.mark.parametrize("typed", ["𝟕", "٧", "७"])
def test_a_seed_in_another_script_s_digits_is_refused(typed):
    form = DrawForm({"seed": typed})
    assert not form.is_valid()
    assert form.errors["seed"] == [MSG_PLAIN_DIGITS.format(field="Seed")]


def test_a_seed_in_full_width_digits_is_read():
    form = DrawForm({"seed": "７７"})
    assert form.is_valid() and form.cleaned_data["seed"] == 77


def test_a_play_off_rank_in_another_script_s_digits_is_refused_by_the_player_s_name():
    form = PlayoffForm({"rank_1": "𝟏", "rank_2": "2"}, groups=[[(1, "Aki"), (2, "Ben")]])
    assert not form.is_valid()
    assert form.errors["rank_1"] == [MSG_PLAIN_DIGITS.format(field="Aki")]
