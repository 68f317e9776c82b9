"""Forms for the host's pages. They check what a form can (a number is a number, a stake is
positive); the services check everything that depends on the table (seats, limits, rules)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.core.validators import MaxValueValidator, MinValueValidator
from django.forms.models import ModelChoiceIterator
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.cards import MAX_DECKS, MIN_DECKS
from games.chips import MAX_CHIPS
from games.entry import BetEntry, HandEntry, Problem, TableRules, read_amount
from games.forms import RuleSetForm, rule_set_from_cleaned
from games.kinds import SEATS, Game
from games.messages import format_chips, whole_cents
from games.models import MAX_HAND_NUMBER, MAX_HANDS_PER_SHOE, Event
from games.payouts import BetType, NoCommission, RuleSet, SideBet
from games.rules import Winner
from games.services import (
    EVENT_FIELDS,
    EVENT_FIELDS_OPEN_AFTER_FIRST_HAND,
    GAME_CUTS,
    MSG_GAME_AFTER_FIRST_HAND,
    check_cut,
)
from ledger.imports import BankedGame
from ledger.models import Guest, Settlement
from ledger.services import MSG_VOID_REASON, HandSnapshot

# Long enough for any amount a table takes ("1,000,000.00"); longer text is not a stake.
STAKE_MAX_LENGTH = 20


# What each number of an event may be: checked here, with the inputs' min and max to match, so
# that a mistake is said under its field (the database's constraints hold the same bounds).
EVENT_BOUNDS: dict[str, tuple[Decimal, Decimal]] = {
    "decks": (Decimal(MIN_DECKS), Decimal(MAX_DECKS)),
    "hands_per_shoe": (Decimal(1), Decimal(MAX_HANDS_PER_SHOE)),
    "yen_per_chip": (Decimal("0.0001"), Decimal("99999999.9999")),
    "table_min": (Decimal("0.01"), MAX_CHIPS),
    "table_max": (Decimal("0.01"), MAX_CHIPS),
    "shoe_charge": (Decimal(0), MAX_CHIPS),
}
MSG_MAX_UNDER_MIN = _("The table maximum is under the minimum.")
MSG_STAKE_BOX_GONE = _(
    "This page has stake boxes the table no longer has ({boxes}): reload the page and enter "
    "those bets again."
)
# A guest-banked game's terms: a form that leaves one out keeps what the event has (a new
# event: the default, Punto Banco's).
GAME_TERMS = ("game", "taxe", "taxe_rate", "shoe_charge", "banco", "clearing")


def percent_text(rate: Decimal) -> str:
    """A rate as the host types it in percent: 0.05 → "5", 0.0125 → "1.25"."""
    text = f"{rate * 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _bound(field: forms.Field, low: Decimal, high: Decimal) -> None:
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
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


MSG_SEATING_UNREADABLE = _("The page's seating is unreadable: reload the page.")


def seating_token(seating: Mapping[int, int]) -> str:
    """Who sits where (seat → guest id), as the table's form carries it."""
    return " ".join(f"{seat}:{guest}" for seat, guest in sorted(seating.items()))


def read_seating_token(text: str) -> dict[int, int] | None:
    """The seating a table's form carries (``seating_token``), or ``None`` when it has none."""
    if not text:
        return None
    try:
        return {int(seat): int(guest) for seat, guest in (i.split(":") for i in text.split())}
    except ValueError:
        raise ValidationError(MSG_SEATING_UNREADABLE) from None


def stake_text(stake: Decimal) -> str:
    """A stake as the host types it back: 100, 12.50 (no "100.00")."""
    return f"{stake:.0f}" if stake == stake.to_integral_value() else f"{stake:.2f}"


def stake_field_name(seat: int, bet_type: BetType) -> str:
    return f"stake_{seat}_{bet_type.value}"


def _stake_box_name(name: str) -> str:
    """A posted stake box in the host's words ("Seat 1 · Dragon 7"), or as posted if it is no
    box any table has."""
    seat, _separator, bet = name.removeprefix("stake_").partition("_")
    if seat.isdigit() and int(seat) in SEATS and bet in {kind.value for kind in BetType}:
        return gettext("Seat {seat} · {bet}").format(seat=seat, bet=gettext(BetType(bet).label))
    return name[:40]


@lru_cache(maxsize=64)
def _stake_fields(bet_types: tuple[BetType, ...]) -> dict[str, forms.CharField]:
    """A stake box per seat and bet of a rule set, built once for every form of it: a field
    keeps nothing of a request (what was typed and what is wrong with it live on the form), and
    its label is translated when shown."""
    return {
        stake_field_name(seat, bet_type): forms.CharField(
            required=False,
            max_length=STAKE_MAX_LENGTH,
            label=format_lazy(_("Seat {seat} {bet}"), seat=seat, bet=_(bet_type.label)),
            widget=forms.TextInput(
                attrs={"inputmode": "decimal", "autocomplete": "off", "class": "stake"}
            ),
        )
        for seat in SEATS
        for bet_type in bet_types
    }


class HandForm(forms.Form):
    """One hand: its number (to catch two devices logging the same hand), an idempotency key
    (to record a repeated submission once), cards or result, and a stake per seat and bet.

    The form only collects text: the rules core reads and checks all of it (see
    ``games.entry``), and :meth:`show_problems` puts each of its findings beside its box."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_HAND_NUMBER)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)
    player_cards = forms.CharField(required=False, max_length=40)
    banker_cards = forms.CharField(required=False, max_length=40)
    result = forms.ChoiceField(
        required=False,
        choices=[("", _("From the cards"))] + [(w.value, _(w.value.title())) for w in Winner],
        widget=forms.RadioSelect,
    )
    player_pair = forms.BooleanField(required=False)
    banker_pair = forms.BooleanField(required=False)
    # Who sat where when the page was drawn ("1:12 3:15": seat and guest id): a bet goes to the
    # guest the person saw, or the save is refused (see ``services.hand_record``).
    seating = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)

    def __init__(self, *args: Any, bet_types: tuple[BetType, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bet_types = bet_types
        self.fields.update(_stake_fields(bet_types))

    @classmethod
    def fresh(
        cls,
        *,
        number: int,
        bet_types: tuple[BetType, ...],
        seating: Mapping[int, int],
        stakes: dict[tuple[int, BetType], Decimal] | None = None,
    ) -> HandForm:
        initial: dict[str, object] = {
            "number": number,
            "idempotency_key": uuid.uuid4(),
            "seating": seating_token(seating),
        }
        for (seat, bet_type), stake in (stakes or {}).items():
            initial[stake_field_name(seat, bet_type)] = stake_text(stake)
        return cls(initial=initial, bet_types=bet_types)

    def stake_names(self) -> list[str]:
        return [stake_field_name(seat, bet_type) for seat in SEATS for bet_type in self.bet_types]

    @classmethod
    def refilled(
        cls,
        hand: HandSnapshot,
        *,
        bet_types: tuple[BetType, ...],
        seating: Mapping[int, int],
    ) -> HandForm:
        """The entry of an undone hand (its journal snapshot), to fix and save again: its
        number, a new submission, its cards — or, without cards, its result and pairs — and
        each stake in its seat's box, for the seats as they stand now."""
        stakes = {
            (bet["seat"], BetType(bet["bet_type"])): Decimal(bet["stake"]) for bet in hand["bets"]
        }
        form = cls.fresh(number=hand["number"], bet_types=bet_types, seating=seating, stakes=stakes)
        if hand["player_cards"]:
            form.initial.update(
                player_cards=hand["player_cards"], banker_cards=hand["banker_cards"]
            )
        else:
            form.initial.update(
                result=hand["winner"],
                player_pair=hand["player_pair"],
                banker_pair=hand["banker_pair"],
            )
        return form

    def clean_seating(self) -> dict[int, int] | None:
        return read_seating_token(self.cleaned_data.get("seating", ""))

    def clean(self) -> dict[str, Any]:
        # A page drawn before the host changed the bets offered still posts its old boxes: a
        # stake in one of them is refused by name, never dropped without a word.
        gone = [
            _stake_box_name(name)
            for name, value in self.data.items()
            if name.startswith("stake_") and name not in self.fields and str(value).strip()
        ]
        if gone:
            raise ValidationError(MSG_STAKE_BOX_GONE.format(boxes=", ".join(sorted(gone))))
        return super().clean() or {}

    def _stakes(self) -> list[tuple[str, BetEntry]]:
        return [
            (name, BetEntry(seat=seat, bet=bet_type, stake=stake))
            for seat in SEATS
            for bet_type in self.bet_types
            if (stake := self.cleaned_data.get(name := stake_field_name(seat, bet_type)))
        ]

    def entry(self) -> HandEntry:
        """What was entered, for the rules core. A pair box left unticked means "no pair" when
        the result is entered without cards (the host answered it), and "not noted" beside the
        cards (the cards answer it)."""
        data = self.cleaned_data
        cards = bool(data.get("player_cards", "").strip() or data.get("banker_cards", "").strip())

        def pair_flag(name: str) -> bool | None:
            return True if data.get(name) else (None if cards else False)

        return HandEntry(
            player_cards=data.get("player_cards", ""),
            banker_cards=data.get("banker_cards", ""),
            result=data.get("result") or None,
            bets=tuple(bet for _name, bet in self._stakes()),
            player_pair=pair_flag("player_pair"),
            banker_pair=pair_flag("banker_pair"),
        )

    def show_problems(self, error: ValidationError) -> None:
        """Show a service's refusal: the core's findings beside their boxes (a bet's beside its
        stake), anything else on the field it names or at the top."""
        problems = getattr(error, "problems", None)
        if problems is None:
            add_service_errors(self, error)
            return
        entry, names = self.entry(), [name for name, _bet in self._stakes()]
        for problem in problems:
            if problem.bet is not None:
                target: str | None = names[problem.bet]
            else:
                target = problem.field.value if problem.field.value in self.fields else None
            self.add_error(target, self.problem_message(problem, entry))

    def problem_message(self, problem: Problem, entry: HandEntry) -> str:
        """A problem as the page says it (a bet's names its seat: ``Seat 3 · Banker: …``)."""
        return problem.message_in(entry, gettext)

    def stake_errors(self) -> list[str]:
        return [
            str(message)
            for name, messages in self.errors.items()
            if name.startswith("stake_")
            for message in messages
        ]


MSG_ON_GUEST_SEAT = _("Seat {seat} · {guest} · {bet}: {problem}")


class CorrectionForm(HandForm):
    """A recorded hand, corrected. ``guests`` (seat → guest) is who sat where for that hand: a
    bet's problem names the guest as well as the seat."""

    reason = forms.CharField(label=_("Reason"), max_length=300)
    # The version of the hand the correction was made from (see ``services.hand_correct``).
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, *args: Any, guests: Mapping[int, Guest] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.guests = dict(guests or {})

    def problem_message(self, problem: Problem, entry: HandEntry) -> str:
        bet = entry.bets[problem.bet] if problem.bet is not None else None
        guest = self.guests.get(bet.seat) if bet is not None and isinstance(bet.seat, int) else None
        if bet is None or guest is None or not isinstance(bet.bet, BetType):
            return super().problem_message(problem, entry)
        return MSG_ON_GUEST_SEAT.format(
            seat=bet.seat, guest=guest.name, bet=gettext(bet.bet.label),
            problem=problem.message(gettext),
        )  # fmt: skip


MSG_HAND_NUMBER_UNREADABLE = _("“{text}” is not a hand number: type a whole number, such as 17.")
MSG_HAND_NUMBER_MISSING = _("Type the number of the hand to go to.")


class HandNumberForm(forms.Form):
    """The "Go to hand [number]" form: a hand by its number (the view says if it was played)."""

    number = forms.CharField(required=False)

    def clean_number(self) -> int:
        text: str = self.cleaned_data["number"].strip()
        if not text:
            raise ValidationError(MSG_HAND_NUMBER_MISSING)
        number = int(text) if text.isdecimal() and len(text) <= 6 else 0
        if not 1 <= number <= MAX_HAND_NUMBER:
            shown = text if len(text) <= 12 else text[:12] + "…"
            raise ValidationError(MSG_HAND_NUMBER_UNREADABLE.format(text=shown))
        return number


class GuestAddForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Guest's name"))


BRING_BACK_CHOICES = 20


class _LatestNights(ModelChoiceIterator[Event]):
    """The choices of a night select: its latest nights, newest first."""

    def __init__(self, field: forms.ModelChoiceField[Event]) -> None:
        super().__init__(field)
        self.queryset = self.queryset.order_by("-date", "-id")[:BRING_BACK_CHOICES]


class BringBackForm(forms.Form):
    """Guests of an earlier night, brought back: the select offers the latest nights only, so
    the event page does not grow with the season; any night is still accepted."""

    from_event = forms.ModelChoiceField(queryset=Event.objects.none(), label=_("From"))

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from_event = self.fields["from_event"]
        assert isinstance(from_event, forms.ModelChoiceField)  # declared above
        from_event.queryset = Event.objects.nights().exclude(pk=event.pk)
        from_event.widget.choices = _LatestNights(from_event)


class BringBackChecklistForm(BringBackForm):
    """Who comes back from the earlier event: everyone not yet on the list, all ticked."""

    guests = forms.ModelMultipleChoiceField(
        queryset=Guest.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=_("Who comes back"),
        required=False,
    )

    def __init__(self, *args: Any, event: Event, from_event: Event, **kwargs: Any) -> None:
        super().__init__(*args, event=event, **kwargs)
        guests = self.fields["guests"]
        assert isinstance(guests, forms.ModelMultipleChoiceField)  # declared above
        guests.queryset = Guest.objects.filter(events=from_event).exclude(events=event)
        self.initial.setdefault("from_event", from_event.pk)
        self.initial.setdefault("guests", list(guests.queryset.values_list("pk", flat=True)))


# Long enough to say how long a name was; ``ledger.names`` says what a name may be.
NAME_INPUT_MAX_LENGTH = 1000


class GuestNameForm(forms.Form):
    """A guest's new name, or an alias: ``ledger.names.clean_name`` (in the service) decides."""

    name = forms.CharField(max_length=NAME_INPUT_MAX_LENGTH, strip=False, label=_("New name"))


class GuestAliasForm(GuestNameForm):
    name = forms.CharField(max_length=NAME_INPUT_MAX_LENGTH, strip=False, label=_("Alias"))


MSG_MERGE_GUEST_GONE = _(
    "That guest is no longer on the list: merged already or removed since the page was opened."
    " Nothing changed."
)


class GuestMergeForm(forms.Form):
    other = forms.ModelChoiceField(
        queryset=Guest.objects.none(), label=_("Merge into this guest"), to_field_name="pk"
    )

    def __init__(self, *args: Any, guest: Guest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        other = self.fields["other"]
        assert isinstance(other, forms.ModelChoiceField)  # declared above
        other.queryset = Guest.objects.exclude(pk=guest.pk)
        other.error_messages["invalid_choice"] = MSG_MERGE_GUEST_GONE


class InvitationAcceptForm(UserCreationForm[User]):
    """A guest's own login: Django's checks (a free username, the password validators)."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)


def add_service_errors(form: forms.BaseForm, error: ValidationError) -> None:
    """Show a service's errors on the form: on the field they name, else at the top."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, messages in error.message_dict.items():
        target = field if field in form.fields and field != NON_FIELD_ERRORS else None
        form.add_error(target, messages)


MSG_SETTLE_GUEST_GONE = _(
    "This guest is no longer on the list: merged into another guest or removed since the page"
    " was opened. Nothing was recorded: open the settlement list again."
)
MSG_CHIPS_AMOUNT = _("Type an amount in chips, such as 298.50 or 1,000 (at most {maximum}).")


class ChipsAmountField(forms.DecimalField):
    """An amount as a host types it (``games.entry.read_amount``: thousands commas, full-width
    digits), never negative, whole cents. Anything else (1e30, NaN, 1_000) gets one message."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_CHIPS)
        kwargs.setdefault("widget", forms.TextInput(attrs={"inputmode": "decimal",
                                                           "autocomplete": "off"}))  # fmt: skip
        super().__init__(max_digits=15, decimal_places=2, **kwargs)

    def to_python(self, value: Any) -> Decimal | None:  # type: ignore[override]  # stubs: int
        if value in self.empty_values:
            return None
        amount = read_amount(str(value))
        if amount is None or amount < 0 or not whole_cents(amount):
            raise ValidationError(MSG_CHIPS_AMOUNT.format(maximum=format_chips(MAX_CHIPS)))
        return amount


class SettlementForm(forms.Form):
    """The host settles up with one guest: which way and how much (both from the balance, the
    amount editable for a partial payment), and how — the method is the button tapped."""

    PAID_HOUSE, HOUSE_PAID = "guest_paid", "house_paid"
    guest = forms.ModelChoiceField(
        label=_("Guest"), queryset=Guest.objects.none(), widget=forms.HiddenInput
    )
    direction = forms.ChoiceField(
        label=_("Which way"),
        choices=[(PAID_HOUSE, _("Guest paid the house")), (HOUSE_PAID, _("House paid the guest"))],
        widget=forms.RadioSelect,
    )
    amount = ChipsAmountField(label=_("Amount"), min_value=Decimal("0.01"))
    method = forms.ChoiceField(label=_("How"), choices=Settlement.Method.choices)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
    confirm = forms.BooleanField(label=_("Record it anyway"), required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        guest = self.fields["guest"]
        assert isinstance(guest, forms.ModelChoiceField)  # declared above
        guest.queryset = Guest.objects.filter(events=event)
        guest.error_messages["invalid_choice"] = MSG_SETTLE_GUEST_GONE
        self.initial.setdefault("idempotency_key", uuid.uuid4())
        self.question = ""  # what the service asks before recording, once asked

    @classmethod
    def for_balance(cls, *, event: Event, guest_id: int, balance: Decimal) -> SettlementForm:
        """Settling a guest's balance in full: the house pays what it owes, or the guest pays
        what they owe."""
        direction = cls.HOUSE_PAID if balance > 0 else cls.PAID_HOUSE
        amount = stake_text(abs(balance)) if balance else ""
        return cls(
            initial={"guest": guest_id, "direction": direction, "amount": amount}, event=event
        )

    def ask(self, question: str) -> None:
        """Show what the service asked, with the box that confirms it."""
        self.question = question

    def signed_amount(self) -> Decimal:
        amount: Decimal = self.cleaned_data["amount"]
        return amount if self.cleaned_data["direction"] == self.PAID_HOUSE else -amount


class SettlementVoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Why void it?"), max_length=200, error_messages={"required": MSG_VOID_REASON}
    )


class CreditLimitForm(forms.Form):
    credit_limit = ChipsAmountField(
        label=_("Credit limit (chips)"),
        required=False,
        min_value=Decimal(0),
        help_text=_("How much the guest may owe the house; leave empty for no limit."),
    )


MAX_UPLOAD_BYTES = 20 * 1024 * 1024


class ScoresheetForm(RuleSetForm):
    file = forms.FileField(label=_("Scoresheet (.csv or .xlsx)"))
    event_name = forms.CharField(label=_("Event name"), max_length=120)
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    yen_per_chip = forms.DecimalField(
        label=_("Yen per chip"), min_value=0.0001, max_digits=12, decimal_places=4,
        initial=100,
    )  # fmt: skip
    table_min = forms.DecimalField(
        label=_("Table minimum"), min_value=Decimal("0.01"), max_digits=13,
        decimal_places=2, initial=10,
    )  # fmt: skip
    table_max = forms.DecimalField(
        label=_("Table maximum"), min_value=Decimal("0.01"), max_digits=13,
        decimal_places=2, initial=1000,
    )  # fmt: skip
    field_order = ["file", "event_name", "date", "yen_per_chip", "table_min", "table_max"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        low, high = data.get("table_min"), data.get("table_max")
        if low is None or high is None:
            return data  # a limit is missing or wrong: its field says so
        if high < low:
            self.add_error("table_max", MSG_MAX_UNDER_MIN)
        elif "rules" in data:
            data["table"] = TableRules(data["rules"], data["decks"], low, high)
        return data

    def clean_file(self) -> UploadedFile[bytes]:
        upload: UploadedFile[bytes] = self.cleaned_data["file"]
        # The field has refused an empty upload already: an upload here has its size.
        if upload.size is not None and upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 20 MB."))
        return upload


def stake_cells(
    form: HandForm, seat: int, bet_types: tuple[BetType, ...]
) -> list[dict[str, object]]:
    """The stake boxes of one seat, as plain name/value pairs: the table page renders 35 of them
    on every save, and Django's per-widget templates would be most of the save's time."""
    cells = []
    for bet_type in bet_types:
        bound = form[stake_field_name(seat, bet_type)]
        cells.append(
            {
                "name": bound.html_name,
                "value": bound.value(),
                "label": bound.label,
                "invalid": bool(bound.errors),
            }
        )
    return cells


class ScoresheetGameForm(forms.ModelForm[Event]):
    """The night's game and, for a guest-banked one, its cut and how it settles: the event's
    own fields, beside the upload's :class:`ledger.forms.ScoresheetForm`."""

    class Meta:
        model = Event
        fields = ["game", "taxe", "taxe_rate", "shoe_charge", "banco", "clearing"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.required = False  # left out: the event's default (Punto Banco)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in self.Meta.fields:
            if data.get(name) in (None, "") and name not in self.errors:
                data[name] = getattr(self.instance, name)  # a new event's default
        if "game" not in self.errors and "taxe" not in self.errors:
            try:  # the cut a game takes, as event_create checks it
                check_cut(Event(game=data["game"], taxe=data["taxe"]))
            except ValidationError as wrong:
                self.add_error(None, wrong)
        return data

    def banked_game(self) -> BankedGame | None:
        """The guest-banked game chosen (``None``: Punto Banco)."""
        data = self.cleaned_data
        game = Game(data["game"])
        if not game.guest_banked:
            return None
        return BankedGame(
            game, taxe=data["taxe"], taxe_rate=data["taxe_rate"],
            shoe_charge=data["shoe_charge"], banco=data["banco"], clearing=data["clearing"],
        )  # fmt: skip
