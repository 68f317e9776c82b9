"""The table's entry for a coup of a guest-banked game (Chemin de fer, Baccara banque): who banks
and with how much, each seat's stake and its kind, the cards (or the result), the choices where
the rules give one, and what the banker did next.

Like ``ledger.hands.forms.HandForm`` the form only collects text: the pipeline
(``games.settle.settle``, through ``ledger.hands.services.record_hand``) reads and checks
all of it, and :meth:`CoupForm.show_problems` puts each finding beside its box. What the page
offers — the bank as the coup before leaves it, a choice only where the rules give one — comes
from the rules core too (``games.guest_banked``).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.cards import Card, CardError, parse_cards, total
from games.entry import BetEntry, Field, HandEntry, Problem, read_seat, result_text
from games.guest_banked.bank import next_bank
from games.guest_banked.banque_coup import tableau_halves
from games.guest_banked.banque_drawing import TABLEAU, deal_banque, next_banque_step
from games.guest_banked.chemin_drawing import (
    BANKER,
    BOTH,
    PONTE,
    Choice,
    CoupError,
    Step,
    deal,
    next_step,
)
from games.guest_banked.chemin_drawing import ponte_options as chemin_ponte_options
from games.guest_banked.terms import MOVES, CoupTerms, PreviousCoup
from games.kinds import MOVE_LABELS, SEATS, BankerMove, BankRotation, CoverKind, Game, SuiteWay
from games.messages import Label, RuleError
from games.models import MAX_HAND_NUMBER
from games.payouts import BankedBet
from games.rules import Winner
from ledger.forms import STAKE_MAX_LENGTH, add_service_errors, stake_text
from ledger.hands.forms import MSG_STAKE_BOX_GONE, read_seating_token, seating_token
from ledger.hands.services import HandSnapshot
from ledger.models import Guest

MSG_CHOOSES = _("{side} chooses:")
MSG_CARDS_OR_RESULT = _("Type the cards, or tap the result.")
MSG_MOVE_AS_PLAYED = {
    Game.CHEMIN_DE_FER: _("As the coup goes: kept after a win, passed after a loss"),
    Game.BACCARA_BANQUE: _("As the coup goes: kept unless the bank is spent"),
}
MSG_NEW_BANK = _("A new bank: the banker sets its amount.")
MSG_NOBODY_TOOK_IT = _("Nobody: the next in turn, at the minimum")
MSG_TABLEAU_RESULT = _("{tableau}: {result}")
MSG_BY_HALF = _("Its half of the table")
MSG_SEAT = _("Seat {seat}")
# The result without the cards, each tableau's in Baccara banque: the ponte's hand, the bank's,
# or an égalité (void).
RESULT_LABELS = {Winner.PLAYER: _("Ponte"), Winner.BANKER: _("Bank"), Winner.TIE: _("Égalité")}
# The kinds of cover a seat may call (suivi only by the seat entitled to it), in the order a
# host meets them: an ordinary cover first.
CHEMIN_KINDS = (
    CoverKind.ORDINARY,
    CoverKind.BANCO_SOLO,
    CoverKind.BANCO_A_DEUX,
    CoverKind.AVEC_LA_TABLE,
    CoverKind.SUIVI,
)
TABLEAU_BETS = (BankedBet.TABLEAU_1, BankedBet.TABLEAU_2)
CHOICE_FIELDS = ("ponte_choice", "banker_choice", "second_choice")
# Where a problem of the whole coup shows: the cards' rule beside the cards.
FIELD_TARGETS = {Field.CARDS: "player_cards"}


def stake_name(seat: int) -> str:
    return f"stake_{seat}"


def kind_name(seat: int) -> str:
    return f"kind_{seat}"


def _seat_box_name(name: str) -> str:
    """A posted box of a seat in the host's words ("Seat 10"), or as posted (cut short)."""
    seat = name.partition("_")[2]
    return str(MSG_SEAT).format(seat=seat) if seat.isdigit() else name[:40]


# --- who banks next -----------------------------------------------------------------------


@dataclass(frozen=True)
class BankPrefill:
    """The bank of the next coup as the coup before leaves it (``None``: the host says), why,
    and who may call suivi."""

    banker_seat: int | None = None
    bank: Decimal | None = None
    co_banker_seat: int | None = None
    note: str = ""
    suivi_seat: int | None = None


def bank_prefill(
    game: Game,
    previous: PreviousCoup | None,
    seats: Collection[int],
    rotation: BankRotation = BankRotation.SKIPS_LOSER,
) -> BankPrefill:
    """Who banks the next coup and with how much, as the coup before leaves it
    (:func:`games.guest_banked.bank.next_bank`, under the night's ``rotation``), and why,
    naming the seats."""
    suivi = previous.suivi_seat if previous is not None else None
    bank = next_bank(game, previous, seats, rotation)
    note = bank.why.message(gettext) if bank.why is not None else str(MSG_NEW_BANK)
    if previous is not None and previous.move is BankerMove.PASS and bank.why is None:
        note = ""  # nobody else is seated: the host says
    return BankPrefill(bank.banker_seat, bank.amount, bank.co_banker_seat, note, suivi)


def tableau_defaults(banker_seat: int | None, seats: Collection[int]) -> dict[int, str]:
    """Each seat's tableau in Baccara banque: the seats below the banker's play tableau 1,
    those above it tableau 2."""
    if banker_seat is None:
        return {}
    below, above = tableau_halves(banker_seat, seats)
    return {
        seat: bet.value
        for bet, half in zip(TABLEAU_BETS, (below, above), strict=True)
        for seat in half
    }


# --- the form -----------------------------------------------------------------------------


class CoupForm(forms.Form):
    """One coup: its number and idempotency key and the seating seen (as ``HandForm``), the bank,
    a stake and its kind per seat, the cards or the result, the choices, the banker's move."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=MAX_HAND_NUMBER)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput)
    seating = forms.CharField(widget=forms.HiddenInput, required=False, max_length=200)
    banker_seat = forms.CharField(required=False, max_length=4)
    bank = forms.CharField(required=False, max_length=STAKE_MAX_LENGTH)
    co_banker_seat = forms.CharField(required=False, max_length=4)
    player_cards = forms.CharField(required=False, max_length=40)
    banker_cards = forms.CharField(required=False, max_length=40)
    second_cards = forms.CharField(required=False, max_length=40)
    result = forms.ChoiceField(
        required=False, choices=[("", "")] + [(w.value, w.value) for w in Winner]
    )
    second_result = forms.ChoiceField(
        required=False, choices=[("", "")] + [(w.value, w.value) for w in Winner]
    )
    ponte_choice = forms.CharField(required=False, max_length=10)
    banker_choice = forms.CharField(required=False, max_length=10)
    second_choice = forms.CharField(required=False, max_length=10)
    move = forms.CharField(required=False, max_length=10)
    taken = forms.CharField(required=False, max_length=STAKE_MAX_LENGTH)
    suite_seat = forms.CharField(required=False, max_length=4)
    suite_amount = forms.CharField(required=False, max_length=STAKE_MAX_LENGTH)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        for seat in SEATS:
            self.fields[stake_name(seat)] = forms.CharField(
                required=False, max_length=STAKE_MAX_LENGTH
            )
            self.fields[kind_name(seat)] = forms.CharField(required=False, max_length=20)

    @classmethod
    def fresh(
        cls, *, game: Game, number: int, seating: Mapping[int, int], prefill: BankPrefill
    ) -> CoupForm:
        """The next coup, its bank as the coup before leaves it."""
        initial: dict[str, object] = {
            "number": number,
            "idempotency_key": uuid.uuid4(),
            "seating": seating_token(seating),
            "banker_seat": prefill.banker_seat or "",
            "bank": stake_text(prefill.bank) if prefill.bank is not None else "",
            "co_banker_seat": prefill.co_banker_seat or "",
        }
        if game is Game.BACCARA_BANQUE:
            tableaux = tableau_defaults(prefill.banker_seat, seating.keys())
            initial |= {kind_name(seat): tableau for seat, tableau in tableaux.items()}
        return cls(initial=initial, game=game)

    @classmethod
    def refilled(cls, hand: HandSnapshot, *, game: Game, seating: Mapping[int, int]) -> CoupForm:
        """An undone coup (its journal snapshot) back in the entry, to fix and save again."""
        initial = coup_initial(hand) | {
            "number": hand["number"],
            "idempotency_key": uuid.uuid4(),
            "seating": seating_token(seating),
        }
        return cls(initial=initial, game=game)

    def clean_seating(self) -> dict[int, int] | None:
        return read_seating_token(self.cleaned_data.get("seating", ""))

    def clean(self) -> dict[str, Any]:
        # A stake or a kind for a seat no table has (stake_10, a page edited by hand) is refused
        # by name, never dropped without a word while the coup is saved without it.
        unknown = sorted(  # a seat once, whether its stake, its kind or both came
            {
                _seat_box_name(name)
                for name, value in self.data.items()
                if name.startswith(("stake_", "kind_"))
                and name not in self.fields
                and str(value).strip()
            }
        )
        if unknown:
            raise ValidationError(MSG_STAKE_BOX_GONE.format(boxes=", ".join(unknown)))
        return super().clean() or {}

    def _stakes(self) -> list[tuple[int, BetEntry]]:
        data = self.cleaned_data
        return [
            (
                seat,
                BetEntry(seat=seat, bet=data.get(kind_name(seat)) or self._kind(seat), stake=stake),
            )
            for seat in SEATS
            if (stake := data.get(stake_name(seat)))
        ]

    def _kind(self, seat: int) -> str:
        """A stake's kind when none was chosen: an ordinary cover in Chemin de fer; in Baccara
        banque the tableau of the stake's half of the table (below the banker's seat: tableau
        1, above it: tableau 2)."""
        if self.game is Game.CHEMIN_DE_FER:
            return CoverKind.ORDINARY.value
        banker = read_seat(self.cleaned_data.get("banker_seat") or "")
        return tableau_defaults(banker, [seat]).get(seat, "")

    def entry(self) -> HandEntry:
        """What was entered, for the rules core: the cards or the result, the pontes' stakes and
        the coup's terms, all as typed."""

        def text(name: str) -> str:
            value: str = self.cleaned_data.get(name) or ""
            return value

        # The suite's boxes show only when Suite is chosen: hidden, what they still hold is not
        # what the host entered for this coup.
        suite = text("move") == "suite"
        terms = CoupTerms(
            banker_seat=text("banker_seat"),
            bank=text("bank"),
            co_banker_seat=text("co_banker_seat") or None,
            ponte_choice=text("ponte_choice") or None,
            banker_choice=text("banker_choice") or None,
            second_cards=text("second_cards"),
            second_result=text("second_result") or None,
            second_choice=text("second_choice") or None,
            move=text("move"),
            taken=text("taken"),
            suite_seat=(text("suite_seat") or None) if suite else None,
            suite_amount=text("suite_amount") if suite else "",
        )
        return HandEntry(
            player_cards=text("player_cards"),
            banker_cards=text("banker_cards"),
            result=text("result") or None,
            bets=tuple(bet for _seat, bet in self._stakes()),
            coup=terms,
        )

    def show_problems(self, error: ValidationError) -> None:
        """Show a service's refusal: each of the core's findings beside its box (a stake's
        beside its seat's stake, or its kind), anything else on its field or at the top."""
        problems: Sequence[Problem] | None = getattr(error, "problems", None)
        if problems is None:
            add_service_errors(self, error)
            return
        entry, seats = self.entry(), [seat for seat, _bet in self._stakes()]
        for problem in problems:
            target: str | None
            if problem.bet is not None:
                seat = seats[problem.bet]
                target = kind_name(seat) if problem.field is Field.BET else stake_name(seat)
            else:
                target = FIELD_TARGETS.get(problem.field, problem.field.value)
                target = target if target in self.fields else None
            self.add_error(target, problem.message_in(entry, gettext))


class CoupCorrectionForm(CoupForm):
    """A recorded coup, corrected: the same boxes, the reason and the version it was made from
    (see ``services.hand_correct``)."""

    reason = forms.CharField(label=_("Reason"), max_length=300)
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    idempotency_key = forms.UUIDField(widget=forms.HiddenInput, required=False)


def coup_initial(hand: HandSnapshot) -> dict[str, object]:
    """A recorded coup (its snapshot: the journal's, or the hand's as it stands) as the entry's
    boxes: the bank, the stakes and their kinds, the cards or the results, the choices and the
    move. What the pipeline works out (the amount a banker takes with him, a suite given to the
    next in turn) is left for it to work out again."""
    coup: Mapping[str, Any] = hand.get("coup") or {}
    initial: dict[str, object] = {
        "banker_seat": coup.get("banker_seat") or "",
        "bank": _amount_text(coup.get("bank")),
        "co_banker_seat": coup.get("co_banker_seat") or "",
        "move": _move_as_entered(coup),
    }
    if hand["player_cards"]:
        initial |= {
            "player_cards": hand["player_cards"],
            "banker_cards": coup.get("banker_cards") or hand["banker_cards"],
            "second_cards": coup.get("second_cards", ""),
        }
        initial |= {name: coup.get(name, "") for name in CHOICE_FIELDS}
    else:
        initial |= {"result": hand["winner"], "second_result": coup.get("second_winner", "")}
    way = coup.get("suite_way", "")
    if coup.get("move") == BankerMove.SUITE and way != SuiteWay.NEXT_IN_TURN:
        initial["suite_seat"] = coup.get("suite_seat") or ""
        if way == SuiteWay.AUCTIONED:
            initial["suite_amount"] = _amount_text(coup.get("suite_amount"))
    for bet in hand["bets"]:
        if bet["bet_type"] == BankedBet.BANK:
            continue
        initial[stake_name(bet["seat"])] = stake_text(Decimal(bet["stake"]))
        initial[kind_name(bet["seat"])] = bet.get("kind") or bet["bet_type"]
    return initial


def _move_as_entered(coup: Mapping[str, Any]) -> str:
    """The banker's move as a box holds it: empty where it is what the coup's result alone
    makes it (kept after a win; passed, or in Baccara banque given up, once the bank is lost),
    so that a correction of the cards carries the move with it."""
    move = str(coup.get("move", ""))
    after = Decimal(str(coup.get("bank_after") or 0))
    lost = (BankerMove.PASS.value, BankerMove.RETIRE.value)
    if (move == BankerMove.KEEP and after > 0) or (move in lost and after <= 0):
        return ""
    return move


def _amount_text(value: object) -> str:
    return stake_text(Decimal(str(value))) if value not in (None, "") else ""


# --- what the page shows --------------------------------------------------------------------


@dataclass(frozen=True)
class ChoiceAsked:
    """A choice the rules give at this point of the coup: its box's name, whose it is, and the
    answer given so far ("" when none)."""

    name: str
    legend: str
    value: str


@dataclass(frozen=True)
class CoupStep:
    """What the cards typed so far say: what is due, or how the coup came out (``lines``), or
    the rule they break (``problem``); and the choices to ask, only where the rules give one."""

    lines: tuple[str, ...]
    problem: bool = False
    asked: tuple[ChoiceAsked, ...] = ()


def _chosen(value: str | None) -> Choice | None:
    try:
        return Choice((value or "").strip().casefold())
    except ValueError:
        return None


def _asked(name: str, side: Label, value: Choice | None) -> ChoiceAsked:
    legend = MSG_CHOOSES.format(side=gettext(side))
    return ChoiceAsked(name, legend, value.value if value is not None else "")


def coup_step(
    game: Game,
    *,
    player_cards: str = "",
    banker_cards: str = "",
    second_cards: str = "",
    choices: Mapping[str, str | None] | None = None,
    decks: int | None = None,
) -> CoupStep:
    """Read the cards typed so far and the choices taken, as the rules core does: what the coup
    waits for, and the choices to offer — the ponte's on 5, the banker's on his two cells (and
    in Baccara banque where the two tableaux pull him apart) — and no other."""
    choices = choices or {}
    try:
        if game is Game.BACCARA_BANQUE:
            cards = parse_cards(player_cards), parse_cards(second_cards), parse_cards(banker_cards)
            if not any(cards):
                return CoupStep((str(MSG_CARDS_OR_RESULT),))
            return _banque_step(*cards, choices, decks)
        player, banker = parse_cards(player_cards), parse_cards(banker_cards)
        if not (player or banker):
            return CoupStep((str(MSG_CARDS_OR_RESULT),))
        return _chemin_step(player, banker, choices, decks)
    except CardError as error:
        return CoupStep((error.message(gettext),), problem=True)


def _natural(cards: tuple[Card, ...]) -> bool:
    return len(cards) >= 2 and total(cards[:2]) >= 8


def _chemin_step(
    player: tuple[Card, ...],
    banker: tuple[Card, ...],
    choices: Mapping[str, str | None],
    decks: int | None,
) -> CoupStep:
    ponte = _chosen(choices.get("ponte_choice"))
    banker_choice = _chosen(choices.get("banker_choice"))
    asked: list[ChoiceAsked] = []
    if len(player) >= 2 and len(banker) >= 2:
        if _step_or_none(player[:2], banker[:2]) is Step.PONTE_CHOICE:
            asked.append(_asked("ponte_choice", PONTE, ponte))
        else:
            ponte = None
        if _step_or_none(player, banker[:2], ponte_choice=ponte) is Step.BANKER_CHOICE:
            asked.append(_asked("banker_choice", BANKER, banker_choice))
        else:
            banker_choice = None
    else:
        ponte = banker_choice = None
    try:
        step = next_step(player, banker, ponte_choice=ponte, banker_choice=banker_choice)
    except CoupError as broken:
        return CoupStep((broken.message(gettext),), problem=True, asked=tuple(asked))
    try:
        coup = deal(player, banker, ponte_choice=ponte, banker_choice=banker_choice, decks=decks)
    except RuleError as error:  # what is still due, in the core's words; or a card too many
        return CoupStep((error.message(gettext),), problem=step is None, asked=tuple(asked))
    return CoupStep((result_text(coup.outcome()).message(gettext),), asked=tuple(asked))


def _step_or_none(
    player: tuple[Card, ...], banker: tuple[Card, ...], *, ponte_choice: Choice | None = None
) -> Step | None:
    try:
        return next_step(player, banker, ponte_choice=ponte_choice)
    except CoupError:
        return None


def _banque_step(
    first: tuple[Card, ...],
    second: tuple[Card, ...],
    banker: tuple[Card, ...],
    choices: Mapping[str, str | None],
    decks: int | None,
) -> CoupStep:
    pontes = (first, second)
    taken = [_chosen(choices.get(name)) for name in ("ponte_choice", "second_choice")]
    banker_choice = _chosen(choices.get("banker_choice"))
    asked: list[ChoiceAsked] = []
    if all(len(cards) >= 2 for cards in (first, second, banker)) and not _natural(banker):
        for index, name in enumerate(("ponte_choice", "second_choice")):
            if chemin_ponte_options(pontes[index][:2]) == BOTH:
                asked.append(_asked(name, TABLEAU[index], taken[index]))
            else:
                taken[index] = None
        if _waiting_for(pontes, banker[:2], taken) is Step.BANKER_CHOICE:
            asked.append(_asked("banker_choice", BANKER, banker_choice))
        else:
            banker_choice = None
    else:
        taken, banker_choice = [None, None], None
    try:
        waiting = next_banque_step(pontes, banker, ponte_choices=taken, banker_choice=banker_choice)
    except CoupError as broken:
        return CoupStep((broken.message(gettext),), problem=True, asked=tuple(asked))
    try:
        coup = deal_banque(
            pontes, banker, ponte_choices=taken, banker_choice=banker_choice, decks=decks
        )
    except RuleError as error:
        return CoupStep((error.message(gettext),), problem=waiting is None, asked=tuple(asked))
    lines = tuple(
        MSG_TABLEAU_RESULT.format(
            tableau=gettext(label), result=result_text(outcome).message(gettext)
        )
        for label, outcome in zip(TABLEAU, coup.outcomes(), strict=True)
    )
    return CoupStep(lines, asked=tuple(asked))


def _waiting_for(
    pontes: tuple[tuple[Card, ...], tuple[Card, ...]],
    banker: tuple[Card, ...],
    taken: Sequence[Choice | None],
) -> Step | None:
    try:
        waiting = next_banque_step(pontes, banker, ponte_choices=taken)
    except CoupError:
        return None
    return waiting.step if waiting is not None else None


# --- the page's panel -----------------------------------------------------------------------


@dataclass(frozen=True)
class Option:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class Box:
    """One box of the form as the template draws it (plain values: the table page is redrawn on
    every save, and Django's per-widget templates would be most of its time)."""

    name: str
    value: str
    errors: list[str]
    options: list[Option] = field(default_factory=list)


@dataclass(frozen=True)
class StakeRow:
    seat: int
    guest: Guest | None
    stake: Box
    kind: Box
    banker: bool  # the seat holding the bank as the page was drawn

    @property
    def errors(self) -> list[str]:
        return self.stake.errors + self.kind.errors


@dataclass(frozen=True)
class ResultGroup:
    name: str
    legend: str
    options: list[Option]
    errors: list[str]


@dataclass(frozen=True)
class CoupPanel:
    """The coup's part of the table page (and of a coup's correction)."""

    game: Game
    banker: Box
    bank: Box
    co_banker: Box
    rows: list[StakeRow]
    cards: list[tuple[str, Box]]  # label, box
    step: CoupStep
    choice_errors: list[str]
    results: list[ResultGroup]
    move: Box
    taken: Box
    suite_seat: Box
    suite_amount: Box
    note: str = ""

    @property
    def bank_errors(self) -> list[str]:
        return self.banker.errors + self.bank.errors + self.co_banker.errors

    @property
    def card_errors(self) -> list[str]:
        return [error for _label, box in self.cards for error in box.errors]

    @property
    def terms_errors(self) -> list[str]:
        return self.suite_seat.errors + self.suite_amount.errors + self.taken.errors

    @property
    def terms_shown(self) -> bool:
        """The suite's and the taken amount's boxes show without a move that asks for them:
        they hold something, or a problem."""
        boxes = (self.suite_seat, self.suite_amount, self.taken)
        return any(box.value or box.errors for box in boxes)


def _value(form: forms.Form, name: str) -> str:
    value = form[name].value()
    return "" if value is None else str(value)


def _box(form: forms.Form, name: str, options: list[tuple[str, str]] | None = None) -> Box:
    value = _value(form, name)
    return Box(
        name=form[name].html_name,
        value=value,
        errors=[str(error) for error in form.errors.get(name, [])],
        options=[Option(key, label, key == value) for key, label in options or []],
    )


def _seat_options(
    seats: Sequence[tuple[int, Guest | None]], current: str, empty: str
) -> list[tuple[str, str]]:
    """The occupied seats ("4 · Daisuke"), and what the form holds if it is not one of them."""
    options = [("", empty)] + [
        (str(seat), f"{seat} · {guest}") for seat, guest in seats if guest is not None
    ]
    if current and current not in {key for key, _label in options}:
        options.append((current, current))
    return options


def _kind_options(
    game: Game, seat: int, current: str, suivi_seat: int | None
) -> list[tuple[str, str]]:
    if game is Game.BACCARA_BANQUE:
        tableaux = [(bet.value, gettext(bet.label)) for bet in TABLEAU_BETS]
        return [("", str(MSG_BY_HALF)), *tableaux]
    return [
        (kind.value, gettext(kind.label))
        for kind in CHEMIN_KINDS
        if kind is not CoverKind.SUIVI or seat == suivi_seat or current == kind.value
    ]


def coup_panel(
    form: CoupForm,
    *,
    seats: Sequence[tuple[int, Guest | None]],
    suivi_seat: int | None = None,
    decks: int | None = None,
    note: str = "",
) -> CoupPanel:
    """What the page draws for the coup: the bank's boxes with the seats to choose from, a row
    per seat (its stake and kind), the cards and what they say, the results, the move."""
    game = form.game
    banker = _value(form, "banker_seat")
    shown = {seat for seat, guest in seats if guest is not None}
    shown |= {seat for seat in SEATS if _value(form, stake_name(seat))}
    guests = dict(seats)
    rows = [
        StakeRow(
            seat=seat,
            guest=guests.get(seat),
            stake=_box(form, stake_name(seat)),
            kind=_box(
                form,
                kind_name(seat),
                # The banker covers no bank, his own least of all: no suivi in his row.
                _kind_options(
                    game,
                    seat,
                    _value(form, kind_name(seat)),
                    None if str(seat) == banker else suivi_seat,
                ),
            ),
            banker=str(seat) == banker,
        )
        for seat in sorted(shown)
    ]
    winners = [(w.value, str(RESULT_LABELS[w])) for w in Winner]
    if game is Game.BACCARA_BANQUE:
        sides = [TABLEAU[0], TABLEAU[1], BANKER]
        names = ["player_cards", "second_cards", "banker_cards"]
        results = [("result", TABLEAU[0]), ("second_result", TABLEAU[1])]
    else:
        sides, names, results = (
            [PONTE, BANKER],
            ["player_cards", "banker_cards"],
            [("result", PONTE)],
        )
    # A lost bank passes of itself: the host picks a move only to keep, pass or retire a bank
    # that won (passing it then is a suite).
    moves = [("", str(MSG_MOVE_AS_PLAYED[game]))] + [
        (move.value, gettext(MOVE_LABELS[move]))
        for move in MOVES[game]
        if move is not BankerMove.PASS
    ]
    nobody = "—"
    return CoupPanel(
        game=game,
        banker=_box(form, "banker_seat", _seat_options(seats, banker, nobody)),
        bank=_box(form, "bank"),
        co_banker=_box(
            form, "co_banker_seat", _seat_options(seats, _value(form, "co_banker_seat"), nobody)
        ),
        rows=rows,
        cards=[(gettext(side), _box(form, name)) for side, name in zip(sides, names, strict=True)],
        step=coup_step(
            game,
            player_cards=_value(form, "player_cards"),
            banker_cards=_value(form, "banker_cards"),
            second_cards=_value(form, "second_cards"),
            choices={name: _value(form, name) for name in CHOICE_FIELDS},
            decks=decks,
        ),
        choice_errors=[str(e) for name in CHOICE_FIELDS for e in form.errors.get(name, [])],
        results=[
            ResultGroup(
                name,
                gettext(legend) if game is Game.BACCARA_BANQUE else "",
                [Option(key, label, key == _value(form, name)) for key, label in winners],
                [str(error) for error in form.errors.get(name, [])],
            )
            for name, legend in results
        ],
        move=_box(form, "move", moves),
        taken=_box(form, "taken"),
        suite_seat=_box(
            form,
            "suite_seat",
            _seat_options(seats, _value(form, "suite_seat"), str(MSG_NOBODY_TOOK_IT)),
        ),
        suite_amount=_box(form, "suite_amount"),
        note=note,
    )
