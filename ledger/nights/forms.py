"""An event's form: its rules, limits, chips and money (the night's currency and rate), bounded
as the database bounds them."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import get_language, gettext, to_locale
from django.utils.translation import gettext_lazy as _

from games.cards import MAX_DECKS, MIN_DECKS
from games.chips import MAX_CHIPS, MAX_TABLE_LIMIT, table_limit_validators
from games.currencies import DEFAULT_CURRENCY, currency_choices, fits_minor_units, minor_units
from games.forms import PlainDigitsForm, RuleSetForm, rule_set_from_cleaned
from games.kinds import Game
from games.models import MAX_HANDS_PER_SHOE, MSG_UNKNOWN_CURRENCY, Event
from games.payouts import NoCommission, RuleSet, SideBet
from games.services import (
    EVENT_FIELDS,
    EVENT_FIELDS_OPEN_AFTER_FIRST_HAND,
    GAME_CUTS,
    MSG_GAME_AFTER_FIRST_HAND,
    frozen_message,
)

# What each number of an event may be: checked here, with the inputs' min and max to match, so
# that a mistake is said under its field (the database's constraints hold the same bounds).
EVENT_BOUNDS: dict[str, tuple[Decimal, Decimal]] = {
    "decks": (Decimal(MIN_DECKS), Decimal(MAX_DECKS)),
    "hands_per_shoe": (Decimal(1), Decimal(MAX_HANDS_PER_SHOE)),
    "money_per_chip": (Decimal("0.0001"), Decimal("99999999.9999")),
    "table_min": (Decimal("0.01"), MAX_TABLE_LIMIT),
    "table_max": (Decimal("0.01"), MAX_TABLE_LIMIT),
    "shoe_charge": (Decimal(0), MAX_CHIPS),
    "smallest_chip": (Decimal("0.01"), MAX_TABLE_LIMIT),
}


MSG_MAX_UNDER_MIN = _("The table maximum is under the minimum.")
MSG_RATE_DECIMALS = _(
    "{currency} is written with {digits} decimals at most: the rate per chip cannot have more."
)
MSG_RATE_WHOLE = _("{currency} has no decimals: the rate per chip is a whole number.")


def currency_field() -> forms.ChoiceField:
    """The night's currency, by its ISO code, named in the reader's language (the choices are
    set per form: :func:`offer_currencies`), the common ones first. Left out of a post (a page
    drawn before nights had a currency), the night keeps its own: :func:`check_form_rate`."""
    return forms.ChoiceField(
        label=_("Currency"),
        choices=[],
        initial=DEFAULT_CURRENCY,
        required=False,
        error_messages={"invalid_choice": MSG_UNKNOWN_CURRENCY},
        help_text=_("What the chips are worth money in (ISO 4217)."),
    )


def offer_currencies(form: forms.BaseForm) -> None:
    field = form.fields["currency"]
    assert isinstance(field, forms.ChoiceField)
    field.choices = currency_choices(to_locale(get_language() or "en"))


def check_form_rate(form: forms.ModelForm[Event], data: dict[str, Any]) -> None:
    """The rate per chip written as its currency writes money (no yen decimals, two for the
    euro, three for the dinar). A night recorded before keeps its rate as it was (a yen rate
    of ¥0.5) while neither the rate nor the currency changes."""
    if not data.get("currency") and "currency" not in form.errors:
        data["currency"] = form.instance.currency or DEFAULT_CURRENCY
    rate, currency = data.get("money_per_chip"), data.get("currency")
    kept = form.instance.pk and (rate, currency) == (
        form.instance.money_per_chip,
        form.instance.currency,
    )
    if rate is not None and currency and not kept and (why := check_rate(rate, currency)):
        form.add_error("money_per_chip", why)


def check_rate(rate: Decimal, currency: str) -> str:
    """Why a rate cannot be a night's in ``currency`` (more decimals than the currency has), or
    nothing."""
    if fits_minor_units(rate, currency):
        return ""
    digits = minor_units(currency)
    if not digits:
        return str(MSG_RATE_WHOLE).format(currency=currency)
    return str(MSG_RATE_DECIMALS).format(currency=currency, digits=digits)


# A guest-banked game's terms: a form that leaves one out keeps what the event has (a new
# event: the default, Punto Banco's).
GAME_TERMS = ("game", "taxe", "taxe_rate", "shoe_charge", "banco", "suite_returns", "clearing")
# Terms a form may leave out, keeping what the event has: the game's, and Punto Banco's rounding
# (a form of a page opened before it existed sends none: the night keeps its own).
OPTIONAL_TERMS = (*GAME_TERMS, "rounding", "smallest_chip")

# The fields only some games read; the form of a game leaves out the others' (they keep what the
# event has). The guest-banked games read no table maximum: a bank is as big as its holder puts
# up.
_PUNTO_BANCO_ONLY = (
    "format",
    "no_commission",
    "commission",
    "tie_pays",
    "pair_pays",
    "side_bets",
    "table_max",
    "rounding",
    "smallest_chip",
)
GAME_LEAVES_OUT: dict[Game, tuple[str, ...]] = {
    Game.PUNTO_BANCO: ("taxe", "taxe_rate", "shoe_charge", "banco", "suite_returns", "clearing"),
    Game.CHEMIN_DE_FER: (*_PUNTO_BANCO_ONLY, "banco"),
    Game.BACCARA_BANQUE: (*_PUNTO_BANCO_ONLY, "taxe_rate", "shoe_charge", "suite_returns"),
}
# What the guest-banked games call a Punto Banco field.
GUEST_BANKED_LABELS = {
    "table_min": _("Minimum banco"),
    "hands_per_shoe": _("Coups per shoe"),
}


def percent_text(rate: Decimal) -> str:
    """A rate as the host types it in percent: 0.05 → "5", 0.0125 → "1.25"."""
    text = f"{rate * 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _bound(field: forms.Field, low: Decimal, high: Decimal) -> None:
    most = table_limit_validators() if high == MAX_TABLE_LIMIT else [MaxValueValidator(high)]
    field.validators += [MinValueValidator(low), *most]
    field.widget.attrs.update(min=str(low), max=str(high))


class RuleSetFields(PlainDigitsForm):
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
        label=_("Taxe (%)"),
        required=False,
        min_value=Decimal(0),
        max_value=Decimal(10),
        decimal_places=2,
        help_text=_("The share of each winning bank the house takes."),
    )

    currency = currency_field()

    class Meta:
        model = Event
        # The rule set is not a column the host types: the fields above build it.
        fields = [name for name in EVENT_FIELDS if name != "rules"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}

    RULE_FIELDS = ("commission", "no_commission", "tie_pays", "pair_pays", "side_bets")

    def __init__(
        self, *args: Any, frozen: bool = False, game_held: str = "", **kwargs: Any
    ) -> None:
        """``frozen``: the event has hands, so only what prices no hand stays open.
        ``game_held``: why the game cannot change though no hand is logged (its transfers)."""
        super().__init__(*args, **kwargs)
        offer_currencies(self)
        self.game_held = game_held
        if self.instance.pk:
            self.show_rules(self.instance.rule_set)
        self.initial["taxe_rate"] = percent_text(self.instance.taxe_rate)
        self.frozen = frozen
        self.chosen_game = game = self._chosen_game()
        if game in GAME_CUTS and self.initial.get("taxe") not in GAME_CUTS[game]:
            self.initial["taxe"] = GAME_CUTS[game][0]  # the game's first cut: its usual one
        for name in GAME_LEAVES_OUT[self.chosen_game]:
            del self.fields[name]
        for name, field in self.fields.items():
            field.disabled = frozen and name not in EVENT_FIELDS_OPEN_AFTER_FIRST_HAND
        if game_held:
            self.fields["game"].disabled = True
            self.fields["game"].help_text = game_held
        for name, (low, high) in EVENT_BOUNDS.items():
            if name in self.fields:
                _bound(self.fields[name], low, high)
        for name in OPTIONAL_TERMS:
            if name in self.fields:
                self.fields[name].required = False
        if self.chosen_game.guest_banked:
            for name, label in GUEST_BANKED_LABELS.items():
                self.fields[name].label = label
            taxe = self.fields["taxe"]
            assert isinstance(taxe, forms.ChoiceField)  # the model's choices
            taxe.label = _("Taxe")
            # Only this game's cuts are offered; another game's (a page opened before the game
            # changed) is refused by the service, in words.
            labels = dict(Event.Cut.choices)
            taxe.widget.choices = [(cut.value, labels[cut]) for cut in GAME_CUTS[self.chosen_game]]

    @property
    def game_shut(self) -> bool:
        return self.frozen or bool(self.game_held)

    @property
    def game_name(self) -> str:
        return gettext(self.chosen_game.label)

    def _chosen_game(self) -> Game:
        """The game whose fields the form shows: the one posted, else the event's."""
        posted = self.data.get("game") if self.is_bound and not self.game_shut else None
        try:
            return Game(posted or self.initial.get("game") or self.instance.game)
        except ValueError:  # not a game: refused under the game box, the event's fields shown
            return Game(self.instance.game)

    @classmethod
    def shown_again(cls, data: Any, *, instance: Event | None = None, **kwargs: Any) -> EventForm:
        """The form of the game in ``data``, filled with what was typed and saving nothing:
        the game was changed, and the host fills in that game's fields before saving."""
        form = cls(data, instance=instance, **kwargs)
        shown = form._fields_of(data.get("shown_game", ""))
        initial: dict[str, Any] = {}
        for name, field in form.fields.items():
            if isinstance(field, forms.MultipleChoiceField):
                if name in data or name in shown:  # a box left empty is posted as nothing
                    initial[name] = data.getlist(name)
            elif name in data:
                initial[name] = data.get(name)
        if form.chosen_game in GAME_CUTS and initial.get("taxe") not in GAME_CUTS[form.chosen_game]:
            initial.pop("taxe", None)  # the other game's cut: this game's first instead
        initial["game"] = form.chosen_game.value
        return cls(initial=initial, instance=instance, **kwargs)

    def _fields_of(self, game: str) -> set[str]:
        """The names of the fields the form of ``game`` shows (none: not a game)."""
        try:
            left_out = GAME_LEAVES_OUT[Game(game)]
        except ValueError:
            return set()
        every = set(self.base_fields) | set(self._meta.fields or ())
        return every.difference(left_out)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        low, high = data.get("table_min"), data.get("table_max")
        if low is not None and high is not None and high < low:
            self.add_error("table_max", MSG_MAX_UNDER_MIN)
        check_form_rate(self, data)
        for name in OPTIONAL_TERMS:
            if name in self.errors or name not in self.fields:
                continue
            if data.get(name) in (None, ""):
                data[name] = self.initial.get(name, getattr(self.instance, name))
                if name == "taxe_rate":  # the rate as the event keeps it
                    data[name] = self.instance.taxe_rate
            elif name == "taxe_rate":
                data[name] = data[name] / 100
        self._refuse_another_game()
        self._refuse_another_rounding()
        if not self.errors and not self.frozen:
            if self.chosen_game.guest_banked:  # no Punto Banco rule prices a coup: kept as they are
                no_pairs = RuleSet(side_bets=frozenset())  # nor are side bets offered
                data["rule_set"] = self.instance.rule_set if self.instance.pk else no_pairs
            else:
                data["rule_set"] = self.rule_set(data)
        return data

    def event_fields(self) -> dict[str, Any]:
        """Every field of the event: what the host typed, and for the fields this game's form
        leaves out, what the event has."""
        data = self.cleaned_data
        fields = {
            name: data[name] if name in self.fields else getattr(self.instance, name)
            for name in self.Meta.fields
        }
        if "table_max" not in self.fields:
            fields["table_max"] = max(fields["table_max"], fields["table_min"])
        return fields

    def _refuse_another_game(self) -> None:
        """Once a hand is logged the game box is shut; a page opened before still sends one:
        a change is refused in words, never dropped without a word."""
        posted = self.data.get("game") if self.is_bound else None
        if self.game_shut and posted and posted != self.instance.game:
            game = gettext(self.instance.game_kind.label)
            reason = self.game_held or MSG_GAME_AFTER_FIRST_HAND.format(game=game)
            self.add_error("game", reason)

    def _refuse_another_rounding(self) -> None:
        """Once a hand is logged the rounding boxes are shut; a page opened before still sends
        them: a change is refused in words (it would re-price the hands played)."""
        if not (self.frozen and self.is_bound):
            return
        for name in ("rounding", "smallest_chip"):
            posted = self.data.get(name)
            if name not in self.fields or posted in (None, ""):
                continue
            try:
                same = self.fields[name].to_python(posted) == getattr(self.instance, name)
            except forms.ValidationError:
                same = False
            if not same:
                self.add_error(None, frozen_message(self.instance, name))

    def changes(self) -> dict[str, Any]:
        """What the host may change, for ``event_edit``."""
        fields = {
            name: value
            for name, value in self.event_fields().items()
            if name not in self.fields or not self.fields[name].disabled
        }
        return fields if self.frozen else fields | {"rules": self.cleaned_data["rule_set"]}
