"""Baccara banque's drawing: one banker's hand against two tableaux at once.

Whatever Baccara banque does not say here is Chemin de fer's ("in allen anderen Möglichkeiten
gelten die Regeln des Chemin de fer", as docs/rules.md quotes its source), taken from
:mod:`chemin_drawing`, not written again:

- **Two tableaux.** The banker sits in the middle and plays "gegen zwei Ponteure gleichzeitig",
  one per half of the table: each tableau is a ponte's hand, the banker has one hand against both.
  Each hand's cards are recorded in deal order (the rules name no order between the hands).
- **Drawing.** Each ponte plays Chemin de fer's ponte: draws on 0–4, chooses on 5, stands on 6–7.
  The banker follows Chemin de fer's table against each tableau still playing. Where the table
  gives one answer against both (or he may choose against both) that is his rule; where it
  makes him draw against one tableau and stand against the other, one hand cannot do both, and
  he chooses. A **natural** (8 or 9 in two cards) shows at once: the banker's ends the coup
  (nobody draws, nobody chooses); a ponte's settles his tableau at once against the banker's
  first two cards ("keine dritte Karte mehr gezogen werden darf", Chemin de fer) while the other
  tableau plays on, and the banker's table then reads only that one.

The money of a coup and who holds each tableau's cards are :mod:`banque_money`'s.
Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.cards import Card, total
from games.guest_banked.chemin_drawing import (
    BANKER,
    BOTH,
    MSG_BANKER_BEFORE_PONTE,
    MSG_BANKER_DREW,
    MSG_BANKER_STOOD,
    MSG_NATURAL_NO_CHOICE,
    STAND,
    Choice,
    CoupError,
    Step,
    banker_choices,
    ponte_choices,
)
from games.messages import Label, gettext_noop
from games.rules import MSG_NATURAL, MSG_TOO_FEW, MSG_TOO_MANY, Hand, Outcome, Winner, check_copies

TABLEAUX = 2
TABLEAU = (Label(gettext_noop("Tableau 1")), Label(gettext_noop("Tableau 2")))

# Messages users see; tests import them rather than copying the wording.
MSG_TWO_TABLEAUX = gettext_noop("Baccara banque plays two tableaux, not {count}.")
MSG_TABLEAU_MUST_DRAW = gettext_noop(
    "The ponte of {tableau} has no choice on {total}: he must draw (draws on 0–4, chooses on 5)."
)
MSG_TABLEAU_MUST_STAND = gettext_noop(
    "The ponte of {tableau} has no choice on {total}: he must stand (stands on 6–7, chooses on 5)."
)
MSG_TABLEAU_CHOOSES = gettext_noop(
    "The ponte of {tableau} has 5 and may draw or stand: record which."
)
MSG_TABLEAU_STOOD = gettext_noop(
    "The ponte of {tableau} chose to stand on 5: no third card is due."
)
MSG_TABLEAU_DREW = gettext_noop(
    "The ponte of {tableau} chose to draw on 5: the third card is missing."
)
MSG_BANQUE_BANKER_MUST_DRAW = gettext_noop(
    "The banker has no choice on {total} against these tableaux: the banker must draw."
)
MSG_BANQUE_BANKER_MUST_STAND = gettext_noop(
    "The banker has no choice on {total} against these tableaux: the banker must stand."
)
MSG_BANQUE_BANKER_CHOOSES = gettext_noop(
    "The banker has {total} and may draw or stand against these tableaux: record which."
)


# --- drawing ------------------------------------------------------------------------------------


def _is_natural(cards: tuple[Card, ...]) -> bool:
    return total(cards[:2]) >= 8


def banque_banker_choices(banker_total: int, thirds: Sequence[int | None]) -> frozenset[Choice]:
    """What the banker may do on his two-card total against the tableaux still playing:
    ``thirds`` holds, for each, the value of its ponte's third card (``None``: he stood).
    Chemin de fer's table where the tableaux agree; a choice where they pull apart; with no
    tableau still playing (both showed a natural) he stands."""
    if not thirds:
        return STAND
    agreed = frozenset.intersection(*(banker_choices(banker_total, third) for third in thirds))
    return agreed or BOTH


@dataclass(frozen=True)
class Waiting:
    """What a coup waits for next, and on which tableau (0 or 1; ``None``: the banker or the
    first cards)."""

    step: Step
    tableau: int | None = None


@dataclass(frozen=True)
class _Pending:
    waiting: Waiting
    error: CoupError


def _check_shape(pontes: Sequence[object], choices: Sequence[object]) -> None:
    for count in (len(pontes), len(choices)):
        if count != TABLEAUX:
            raise CoupError(MSG_TWO_TABLEAUX, count=count)


def _pending(
    pontes: Sequence[tuple[Card, ...]],
    banker: tuple[Card, ...],
    choices: Sequence[Choice | None],
    banker_choice: Choice | None,
) -> _Pending | None:
    """The first thing the coup still waits for (``None``: complete); raises :class:`CoupError`
    if what is recorded already breaks a rule. Tableau 1 acts before tableau 2, both before the
    banker."""
    _check_shape(pontes, choices)
    hands = [*zip(TABLEAU, pontes, strict=True), (BANKER, banker)]
    for side, cards in hands:
        if len(cards) > 3:
            raise CoupError(MSG_TOO_MANY, side=side, count=len(cards))
    for side, cards in hands:
        if len(cards) < 2:
            missing = CoupError(MSG_TOO_FEW, side=side, count=len(cards))
            return _Pending(Waiting(Step.FIRST_CARDS), missing)

    if _is_natural(banker):
        for _side, cards in hands:
            if len(cards) == 3:
                raise CoupError(MSG_NATURAL, side=BANKER, total=total(banker[:2]))
        if banker_choice is not None or any(choice is not None for choice in choices):
            raise CoupError(MSG_NATURAL_NO_CHOICE, side=BANKER, total=total(banker[:2]))
        return None

    thirds: list[int | None] = []
    for index, (label, cards, choice) in enumerate(zip(TABLEAU, pontes, choices, strict=True)):
        if _is_natural(cards):
            if len(cards) == 3:
                raise CoupError(MSG_NATURAL, side=label, total=total(cards[:2]))
            if choice is not None:
                raise CoupError(MSG_NATURAL_NO_CHOICE, side=label, total=total(cards[:2]))
            continue  # settled at once: it asks nothing of the banker
        ponte_total = total(cards[:2])
        allowed = ponte_choices(ponte_total)
        if choice is not None and len(allowed) == 1:
            template = MSG_TABLEAU_MUST_DRAW if Choice.DRAW in allowed else MSG_TABLEAU_MUST_STAND
            raise CoupError(template, tableau=label, total=ponte_total)
        if choice is None and len(allowed) == 2:
            asked = CoupError(MSG_TABLEAU_CHOOSES, tableau=label)
            return _Pending(Waiting(Step.PONTE_CHOICE, index), asked)
        draws = Choice.DRAW in allowed if choice is None else choice is Choice.DRAW
        chose = choice is not None
        if not draws and len(cards) == 3:
            template = MSG_TABLEAU_STOOD if chose else MSG_TABLEAU_MUST_STAND
            raise CoupError(template, tableau=label, total=ponte_total)
        if draws and len(cards) == 2:
            if len(banker) == 3 or banker_choice is not None:
                raise CoupError(MSG_BANKER_BEFORE_PONTE)
            template = MSG_TABLEAU_DREW if chose else MSG_TABLEAU_MUST_DRAW
            missing = CoupError(template, tableau=label, total=ponte_total)
            return _Pending(Waiting(Step.PONTE_CARD, index), missing)
        thirds.append(cards[2].value if draws else None)

    banker_total = total(banker[:2])
    allowed = banque_banker_choices(banker_total, thirds)
    if banker_choice is not None and len(allowed) == 1:
        template = (
            MSG_BANQUE_BANKER_MUST_DRAW if Choice.DRAW in allowed else MSG_BANQUE_BANKER_MUST_STAND
        )
        raise CoupError(template, total=banker_total)
    if banker_choice is None and len(allowed) == 2:
        asked = CoupError(MSG_BANQUE_BANKER_CHOOSES, total=banker_total)
        return _Pending(Waiting(Step.BANKER_CHOICE), asked)
    draws = Choice.DRAW in allowed if banker_choice is None else banker_choice is Choice.DRAW
    chose = banker_choice is not None
    if not draws and len(banker) == 3:
        if chose:
            raise CoupError(MSG_BANKER_STOOD)
        raise CoupError(MSG_BANQUE_BANKER_MUST_STAND, total=banker_total)
    if draws and len(banker) == 2:
        missing = (
            CoupError(MSG_BANKER_DREW)
            if chose
            else CoupError(MSG_BANQUE_BANKER_MUST_DRAW, total=banker_total)
        )
        return _Pending(Waiting(Step.BANKER_CARD), missing)
    return None


def next_banque_step(
    pontes: Sequence[tuple[Card, ...]],
    banker: tuple[Card, ...],
    *,
    ponte_choices: Sequence[Choice | None] = (None, None),
    banker_choice: Choice | None = None,
) -> Waiting | None:
    """What the coup waits for next (``None``: it is complete). Raises :class:`CoupError` if
    something recorded breaks a rule."""
    pending = _pending(pontes, banker, ponte_choices, banker_choice)
    return None if pending is None else pending.waiting


@dataclass(frozen=True)
class BanqueCoup:
    """A complete, valid coup of Baccara banque: each tableau's cards, the banker's, and the
    choices taken where the rules left one (``None`` elsewhere)."""

    pontes: tuple[tuple[Card, ...], tuple[Card, ...]]
    banker: tuple[Card, ...]
    ponte_choices: tuple[Choice | None, Choice | None] = (None, None)
    banker_choice: Choice | None = None

    def hands(self) -> tuple[Hand, Hand]:
        """Each tableau against the banker as a Punto Banco :class:`Hand` (same totals, same
        outcome): against a ponte's natural, the banker's first two cards."""
        first, second = (
            Hand(ponte, self.banker[:2] if _is_natural(ponte) else self.banker)
            for ponte in self.pontes
        )
        return first, second

    def outcomes(self) -> tuple[Outcome, Outcome]:
        first, second = self.hands()
        return first.outcome(), second.outcome()

    def winners(self) -> tuple[Winner, Winner]:
        """Per tableau: ``PLAYER`` when its ponte wins, ``BANKER``, or ``TIE`` (égalité)."""
        first, second = self.outcomes()
        return first.winner, second.winner


def deal_banque(
    pontes: Sequence[tuple[Card, ...]],
    banker: tuple[Card, ...],
    *,
    ponte_choices: Sequence[Choice | None] = (None, None),
    banker_choice: Choice | None = None,
    decks: int | None = None,
) -> BanqueCoup:
    """Check a complete coup: the two tableaux' cards, the banker's, and the choices taken.

    Raises :class:`CoupError` naming the rule broken: a choice where the rules give none, a
    choice missing where they give one, a third card after a stand or a natural, a third card
    missing, too few or too many cards, a card the shoe cannot hold (with ``decks``)."""
    pending = _pending(pontes, banker, ponte_choices, banker_choice)
    if pending is not None:
        raise pending.error
    first, second = (tuple(cards) for cards in pontes)
    if decks is not None:
        check_copies(first + second + tuple(banker), decks)
    one, two = ponte_choices
    return BanqueCoup((first, second), tuple(banker), (one, two), banker_choice)
