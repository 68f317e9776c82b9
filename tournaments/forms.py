"""The host's tournament forms. They check what a form can (a number is a number, a prize table
reads); the services check the rest (a round after the final, registration after the start)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.forms import PlainDigitsForm
from games.models import Event
from games.tournament import TournamentError, parse_points, parse_prize_table
from ledger.forms import ChipsAmountField
from ledger.nights.forms import (
    EVENT_BOUNDS,
    MSG_MAX_UNDER_MIN,
    RuleSetFields,
    check_form_rate,
    currency_field,
    offer_currencies,
)
from tournaments.models import MAX_TABLE_SEATS, MIN_TABLE_SEATS, Round, Tournament

MAX_SEED = 2**31 - 1  # what ``new_seed`` draws from: a seed anyone can read out and type back
MSG_RANK = _("Give each tied player their place in the play-off: 1 for the best.")


def _bound(field: forms.Field, low: Decimal, high: Decimal) -> None:
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update(min=str(low), max=str(high))


class TournamentNightForm(RuleSetFields, forms.ModelForm[Event]):
    """The tournament's own night: its name, date, venue, money and the rules its tables play
    (the rule set is built as the event form builds it)."""

    currency = currency_field()

    class Meta:
        model = Event
        fields = ["name", "date", "venue", "decks", "currency_symbol", "currency", "money_per_chip"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        offer_currencies(self)
        if self.instance.pk:
            self.show_rules(self.instance.rule_set)
        for name in ("decks", "money_per_chip"):
            _bound(self.fields[name], *EVENT_BOUNDS[name])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        check_form_rate(self, data)
        if not self.errors:
            data["rule_set"] = self.rule_set(data)
        return data

    def night(self) -> dict[str, Any]:
        """The night's fields, for ``tournament_create`` or
        ``ledger.nights.services.event_edit``."""
        data = self.cleaned_data
        return {name: data[name] for name in self.Meta.fields} | {"rules": data["rule_set"]}


def _read_chips(form: forms.BaseForm, names: Sequence[str]) -> None:
    """Amounts read as a host types them (``1,000``), as every amount of the ledger's forms."""
    for name in names:
        field = form.fields[name]
        form.fields[name] = ChipsAmountField(
            label=field.label,
            help_text=field.help_text,
            required=field.required,
            initial=field.initial,  # the model's default
        )


MONEY_FIELDS = (
    "entry_fee",
    "cut_fixed",
    "starting_stack",
    "rebuy_price",
    "rebuy_chips",
    "add_on_price",
    "add_on_chips",
)


class TournamentForm(PlainDigitsForm, forms.ModelForm[Tournament]):
    """The tournament's own settings: money in, stacks, advancement, rebuys, prizes."""

    class Meta:
        model = Tournament
        fields = [
            "entry_fee",
            "cut_percent",
            "cut_fixed",
            "starting_stack",
            "stacks",
            "advancement",
            "tie_break",
            "seats_per_table",
            "final_overflow",
            "secret_bet",
            "mandatory_side",
            "short_stack",
            "rebuy_price",
            "rebuy_chips",
            "rebuy_rounds",
            "rebuy_until_hand",
            "max_rebuys",
            "add_on_price",
            "add_on_chips",
            "add_on_round",
            "prize_table",
            "points_table",
        ]
        widgets = {"prize_table": forms.TextInput, "points_table": forms.TextInput}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _read_chips(self, MONEY_FIELDS)
        self.fields["starting_stack"].validators.append(MinValueValidator(Decimal("0.01")))
        seats = self.fields["seats_per_table"]
        # The phone's keypad and its own check say 6–9 before the form is sent (the model's
        # validators say it again after).
        seats.widget.attrs.update(min=MIN_TABLE_SEATS, max=MAX_TABLE_SEATS, inputmode="numeric")

    def _table(self, name: str, parse: Any) -> str:
        text: str = self.cleaned_data.get(name, "")
        try:
            parse(text)
        except TournamentError as error:
            raise forms.ValidationError(error.message(gettext)) from error
        return text

    def clean_prize_table(self) -> str:
        return self._table("prize_table", parse_prize_table)

    def clean_points_table(self) -> str:
        return self._table("points_table", parse_points)

    def settings(self) -> dict[str, Any]:
        """The settings, for ``tournament_create`` / ``tournament_update``."""
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class RoundForm(PlainDigitsForm, forms.ModelForm[Round]):
    """A round's hands, limits and who goes on. A tournament that advances by stack asks how
    many go on (``keep``); one that advances by table asks how many from each and wildcards."""

    class Meta:
        model = Round
        fields = [
            "hands",
            "table_min",
            "table_max",
            "bet_unit",
            "per_table",
            "wildcards",
            "keep",
            "is_final",
        ]

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _read_chips(self, ("table_min", "table_max", "bet_unit"))
        for name in ("table_min", "bet_unit"):
            self.fields[name].validators.append(MinValueValidator(Decimal("0.01")))
        for name in ("hands", "per_table", "wildcards", "keep"):
            field = self.fields[name]
            field.widget.attrs["inputmode"] = "numeric"
        if tournament.advancement == Tournament.Advancement.BY_STACK:
            del self.fields["per_table"], self.fields["wildcards"]
        else:
            del self.fields["keep"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("table_min"), data.get("table_max")
        if low is not None and high is not None and high < low:
            self.add_error("table_max", MSG_MAX_UNDER_MIN)
        return data

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.fields}


class EntrantForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Player's name"))


class DrawForm(PlainDigitsForm):
    """Draw again with a seed the host types (to repeat a draw seen elsewhere); empty: a new
    random seed."""

    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=MAX_SEED,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class PlayoffForm(PlainDigitsForm):
    """The play-off's order of each group of players tied across the cut: a rank per player
    (1 best); equal ranks stay tied."""

    def __init__(
        self,
        *args: Any,
        groups: Sequence[Sequence[tuple[int, str]]],
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.groups = []
        for group in groups:
            names = []
            for entrant_id, name in group:
                field_name = f"rank_{entrant_id}"
                self.fields[field_name] = forms.IntegerField(
                    label=name,
                    min_value=1,
                    max_value=len(group),
                    error_messages={"required": MSG_RANK},
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                )
                names.append(field_name)
            self.groups.append(names)

    def bound_groups(self) -> list[list[forms.BoundField]]:
        return [[self[name] for name in group] for group in self.groups]

    def order(self) -> dict[int, int]:
        """Entrant id -> rank, for ``round_close``."""
        return {
            int(name.removeprefix("rank_")): int(rank)
            for name, rank in self.cleaned_data.items()
            if name.startswith("rank_")
        }
