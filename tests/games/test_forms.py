"""The rule-set form's number boxes take the digits 0 to 9 (full-width ones read as them), and
refuse another script's by the box's name (``games.forms.PlainDigitsForm``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.forms import MSG_PLAIN_DIGITS, RuleSetForm

RULES = {"decks": "8", "no_commission": "none", "tie_pays": "8", "pair_pays": "11"}


@pytest.mark.parametrize("typed", ["𝟒", "٤", "४", "𝟒.5"])
def test_a_commission_in_another_script_s_digits_is_refused_by_its_name(typed):
    form = RuleSetForm(RULES | {"commission": typed})
    assert not form.is_valid()
    assert form.errors["commission"] == [MSG_PLAIN_DIGITS.format(field="Commission (%)")]


@pytest.mark.parametrize(("typed", "read"), [("4", Decimal(4)), ("４.５", Decimal("4.5"))])
def test_a_commission_in_0_to_9_or_full_width_is_read(typed, read):
    form = RuleSetForm(RULES | {"commission": typed})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["commission"] == read
