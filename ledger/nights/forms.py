"""An event's form: its rules, limits, chips and yen, bounded as the database bounds them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.cards import MAX_DECKS, MIN_DECKS
from games.chips import MAX_CHIPS, MAX_TABLE_LIMIT, table_limit_validators
from games.forms import RuleSetForm, rule_set_from_cleaned
from games.models import MAX_HANDS_PER_SHOE, Event
from games.payouts import NoCommission, RuleSet, SideBet
from games.services import (
    EVENT_FIELDS,
    EVENT_FIELDS_OPEN_AFTER_FIRST_HAND,
    GAME_CUTS,
    MSG_GAME_AFTER_FIRST_HAND,
)

# What each number of an event may be: checked here, with the inputs' min and max to match, so
# that a mistake is said under its field (the database's constraints hold the same bounds).
EVENT_BOUNDS: dict[str, tuple[Decimal, Decimal]] = {
    "decks": (Decimal(MIN_DECKS), Decimal(MAX_DECKS)),
    "hands_per_shoe": (Decimal(1), Decimal(MAX_HANDS_PER_SHOE)),
    "yen_per_chip": (Decimal("0.0001"), Decimal("99999999.9999")),
    "table_min": (Decimal("0.01"), MAX_TABLE_LIMIT),
    "table_max": (Decimal("0.01"), MAX_TABLE_LIMIT),
    "shoe_charge": (Decimal(0), MAX_CHIPS),
}


MSG_MAX_UNDER_MIN = _("The table maximum is under the minimum.")


# A guest-banked game's terms: a form that leaves one out keeps what the event has (a new
# event: the default, Punto Banco's).
GAME_TERMS = ("game", "taxe", "taxe_rate", "shoe_charge", "banco", "clearing")


def percent_text(rate: Decimal) -> str:
    """A rate as the host types it in percent: 0.05 → "5", 0.0125 → "1.25"."""
    text = f"{rate * 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _bound(field: forms.Field, low: Decimal, high: Decimal) -> None:
    most = table_limit_validators() if high == MAX_TABLE_LIMIT else [MaxValueValidator(high)]
    field.validators += [MinValueValidator(low), *most]
    field.widget.attrs.update(min=str(low), max=str(high))


class RuleSetFields(forms.Form):
    """The boxes a night's rule set is built from (a cash night's, a tournament's), shown with
    the rules of ``rules`` when it is given (an event being edited)."""

    commission = RuleSetForm.base_fields["commission"]
    no_commission = RuleSetForm.base_fields["no_commission"]
    tie_pays = RuleSetForm.base_fields["tie_pays"]
    pair_pays = RuleSetForm.base_fields["pair_pays"]
    side_bets = forms.MultipleChoiceField(
        choices=[(side.value, _(side.label)) for side in SideBet],
        initial=[SideBet.PAIRS.value],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def show_rules(self, rules: RuleSet) -> None:
        no_commission = rules.no_commission is NoCommission.NONE
        self.initial.update(
            commission=rules.commission_rate * 100 if no_commission else None,
            no_commission=rules.no_commission.value,
            tie_pays=rules.tie_pays,
            pair_pays=rules.pair_pays,
            side_bets=sorted(side.value for side in rules.side_bets),
        )

    @staticmethod
    def rule_set(data: dict[str, Any]) -> RuleSet:
        return rule_set_from_cleaned(data, side_bets=data.get("side_bets", []))


class EventForm(RuleSetFields, forms.ModelForm[Event]):
    # In percent, as the commission is typed; the event keeps the fraction (5 → 0.05).
    taxe_rate = forms.DecimalField(
        label=_("Cut (%)"),
        required=False,
        min_value=Decimal(0),
        max_value=Decimal(10),
        decimal_places=2,
        help_text=_("Chemin de fer: the share of each winning bank the house takes."),
    )

    class Meta:
        model = Event
        # The rule set is not a column the host types: the fields above build it.
        fields = [name for name in EVENT_FIELDS if name != "rules"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    RULE_FIELDS = ("commission", "no_commission", "tie_pays", "pair_pays", "side_bets")

    def __init__(self, *args: Any, frozen: bool = False, **kwargs: Any) -> None:
        """``frozen``: the event has hands, so only what prices no hand stays open."""
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.show_rules(self.instance.rule_set)
        self.initial["taxe_rate"] = percent_text(self.instance.taxe_rate)
        self.frozen = frozen
        for name, field in self.fields.items():
            field.disabled = frozen and name not in EVENT_FIELDS_OPEN_AFTER_FIRST_HAND
        for name, (low, high) in EVENT_BOUNDS.items():
            _bound(self.fields[name], low, high)
        for name in GAME_TERMS:
            self.fields[name].required = False
        taxe = self.fields["taxe"]
        assert isinstance(taxe, forms.ChoiceField)  # the model's choices
        labels = dict(Event.Cut.choices)
        taxe.choices = [
            (gettext(game.label), [(cut.value, labels[cut]) for cut in cuts])
            for game, cuts in GAME_CUTS.items()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("table_min"), data.get("table_max")
        if low is not None and high is not None and high < low:
            self.add_error("table_max", MSG_MAX_UNDER_MIN)
        for name in GAME_TERMS:
            if name in self.errors:
                continue
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)  # the rate as the event keeps it
            elif name == "taxe_rate":
                data[name] = data[name] / 100
        self._refuse_another_game()
        if not self.errors and not self.frozen:
            data["rule_set"] = self.rule_set(data)
        return data

    def _refuse_another_game(self) -> None:
        """Once a hand is logged the game box is shut; a page opened before still sends one:
        a change is refused in words, never dropped without a word."""
        posted = self.data.get("game") if self.is_bound else None
        if self.frozen and posted and posted != self.instance.game:
            game = gettext(self.instance.game_kind.label)
            self.add_error("game", MSG_GAME_AFTER_FIRST_HAND.format(game=game))

    def changes(self) -> dict[str, Any]:
        """What the host may change, for ``event_edit``."""
        data = self.cleaned_data
        fields = {name: data[name] for name in self.Meta.fields if not self.fields[name].disabled}
        return fields if self.frozen else fields | {"rules": data["rule_set"]}
