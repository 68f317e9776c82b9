"""The rule-set form, shared by the Rules & odds page and the ``baccarat_odds`` command."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.cards import MAX_DECKS, MIN_DECKS
from games.messages import plain
from games.payouts import MAX_COMMISSION, NoCommission, RuleSet, RuleSetError, SideBet

NO_COMMISSION_CHOICES = [
    (NoCommission.NONE.value, _("Commission on Banker wins")),
    (NoCommission.EZ.value, _("EZ Baccarat (Banker three-card 7 pushes)")),
    (NoCommission.SUPER6.value, _("Super 6 (Banker win on 6 pays 1:2)")),
]


def rule_set_from_cleaned(data: dict[str, Any], side_bets: Iterable[str] | None = None) -> RuleSet:
    """Build the rule set from a form's cleaned rule fields; a bad combination is a form error.
    ``side_bets`` None prices every side bet (the odds page); a list offers just those."""
    try:
        return RuleSet.from_options(
            commission_percent=data.get("commission"),
            no_commission=NoCommission(data["no_commission"]),
            tie_pays=data["tie_pays"],
            pair_pays=data["pair_pays"],
            side_bets=None if side_bets is None else [SideBet(s) for s in side_bets],
        )
    except RuleSetError as error:
        raise forms.ValidationError(error.message(gettext)) from error


MSG_PLAIN_DIGITS = _("{field}: type the number with the digits 0 to 9.")
NUMBER_FIELDS = (forms.IntegerField, forms.DecimalField, forms.FloatField)


class PlainDigitsForm(forms.Form):
    """A form whose number boxes take the digits 0 to 9 (full-width ones, which a Japanese
    phone's keyboard types, read as them). Django's number fields read any script's digits
    (``٣``, ``३``, the mathematical ``𝟗``): those are refused by the box's name."""

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, field in self.fields.items():
            if not isinstance(field, NUMBER_FIELDS) or field.disabled or name in self.errors:
                continue
            typed = self.data.get(self.add_prefix(name))
            if isinstance(typed, str) and not plain(typed).isascii():
                label = field.label or name.replace("_", " ").capitalize()
                self.add_error(name, MSG_PLAIN_DIGITS.format(field=label))
        return data


class RuleSetForm(PlainDigitsForm):
    decks = forms.TypedChoiceField(
        label=_("Decks"),
        choices=[(n, str(n)) for n in range(MIN_DECKS, MAX_DECKS + 1)],
        coerce=int,
        initial=8,
    )
    commission = forms.DecimalField(
        label=_("Commission (%)"),
        required=False,
        min_value=Decimal(0),
        max_value=MAX_COMMISSION * 100,
        decimal_places=2,
        help_text=_("Blank: 5%, or none in a no-commission game."),
    )
    no_commission = forms.ChoiceField(
        label=_("Banker pays"), choices=NO_COMMISSION_CHOICES, initial=NoCommission.NONE.value
    )
    tie_pays = forms.TypedChoiceField(
        label=_("Tie pays"), choices=[(8, "8:1"), (9, "9:1")], coerce=int, initial=8
    )
    pair_pays = forms.TypedChoiceField(
        label=_("Pair pays"), choices=[(11, "11:1"), (12, "12:1")], coerce=int, initial=11
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            data["rules"] = rule_set_from_cleaned(data)
        return data

    @classmethod
    def initial_data(cls) -> dict[str, object]:
        return {name: field.initial for name, field in cls.base_fields.items()}
