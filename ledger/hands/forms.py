"""The table's forms: a hand (number, idempotency key, cards or result, a stake per seat and bet),
its correction, and a hand asked for by number. They only collect text: the rules core reads and
checks all of it (``games.entry``)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.entry import BetEntry, HandEntry, Problem, read_count, read_seat
from games.kinds import SEATS
from games.models import MAX_HAND_NUMBER
from games.payouts import BetType
from games.rules import Winner
from ledger.forms import STAKE_MAX_LENGTH, add_service_errors, stake_text
from ledger.hands.services import HandSnapshot
from ledger.models import Guest

MSG_STAKE_BOX_GONE = _(
    "This page has stake boxes the table no longer has ({boxes}): reload the page and enter "
    "those bets again."
)


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


def stake_field_name(seat: int, bet_type: BetType) -> str:
    return f"stake_{seat}_{bet_type.value}"


def _stake_box_name(name: str) -> str:
    """A posted stake box in the host's words ("Seat 1 · Dragon 7"), or as posted if it is no
    box any table has."""
    seat, _separator, bet = name.removeprefix("stake_").partition("_")
    if read_seat(seat) is not None and bet in {kind.value for kind in BetType}:
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
    # guest the person saw, or the save is refused (see ``services.record_hand``).
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
            seat=bet.seat,
            guest=guest.name,
            bet=gettext(bet.bet.label),
            problem=problem.message(gettext),
        )


MSG_HAND_NUMBER_UNREADABLE = _("“{text}” is not a hand number: type a whole number, such as 17.")


MSG_HAND_NUMBER_MISSING = _("Type the number of the hand to go to.")


class HandNumberForm(forms.Form):
    """The "Go to hand [number]" form: a hand by its number (the view says if it was played)."""

    number = forms.CharField(required=False)

    def clean_number(self) -> int:
        text: str = self.cleaned_data["number"].strip()
        if not text:
            raise ValidationError(MSG_HAND_NUMBER_MISSING)
        number = read_count(text, digits=6)
        if number is None or not 1 <= number <= MAX_HAND_NUMBER:
            shown = text if len(text) <= 12 else text[:12] + "…"
            raise ValidationError(MSG_HAND_NUMBER_UNREADABLE.format(text=shown))
        return number


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
