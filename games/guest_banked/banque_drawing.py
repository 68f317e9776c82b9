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
    STAND,
    Choice,
    CoupError,
    Pending,
    Step,
    banker_choices,
    banker_turn,
    check_counts,
    check_natural,
    is_natural,
    ponte_plays,
    ponte_turn,
    take_turn,
)
from games.messages import Label, gettext_noop
from games.rules import Hand, Outcome, Winner, check_copies

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


def _check_shape(pontes: Sequence[object], choices: Sequence[object]) -> None:
    for count in (len(pontes), len(choices)):
        if count != TABLEAUX:
            raise CoupError(MSG_TWO_TABLEAUX, count=count)


# A tableau's ponte's words: must draw, must stand, chooses, chose to stand, chose to draw.
TABLEAU_WORDS = (
    MSG_TABLEAU_MUST_DRAW,
    MSG_TABLEAU_MUST_STAND,
    MSG_TABLEAU_CHOOSES,
    MSG_TABLEAU_STOOD,
    MSG_TABLEAU_DREW,
)


def _pending(
    pontes: Sequence[tuple[Card, ...]],
    banker: tuple[Card, ...],
    choices: Sequence[Choice | None],
    banker_choice: Choice | None,
) -> Pending | None:
    """The first thing the coup still waits for (``None``: complete); raises :class:`CoupError`
    if what is recorded already breaks a rule. Tableau 1 acts before tableau 2, both before the
    banker."""
    _check_shape(pontes, choices)
    waiting = check_counts([*zip(TABLEAU, pontes, strict=True), (BANKER, banker)])
    if waiting is not None:
        return waiting
    if is_natural(banker):
        check_natural(BANKER, banker, [*pontes, banker], [*choices, banker_choice])
        return None
    thirds: list[int | None] = []
    for index, (label, cards, choice) in enumerate(zip(TABLEAU, pontes, choices, strict=True)):
        if is_natural(cards):
            check_natural(label, cards, [cards], [choice])
            continue  # settled at once: it asks nothing of the banker
        turn = ponte_turn(cards, choice, TABLEAU_WORDS, tableau=label)
        played = ponte_plays(turn, cards, banker, banker_choice, tableau=index)
        if isinstance(played, Pending):
            return played
        thirds.append(cards[2].value if played else None)
    banker_total = total(banker[:2])
    turn = banker_turn(
        banque_banker_choices(banker_total, thirds),
        banker_choice,
        must_draw=MSG_BANQUE_BANKER_MUST_DRAW,
        must_stand=MSG_BANQUE_BANKER_MUST_STAND,
        chooses=MSG_BANQUE_BANKER_CHOOSES,
        said={"total": banker_total},
    )
    played = take_turn(turn, banker)
    return played if isinstance(played, Pending) else None


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
    return None if pending is None else Waiting(pending.step, pending.tableau)


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
            Hand(ponte, self.banker[:2] if is_natural(ponte) else self.banker)
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
