"""Chemin de fer's drawing rules, with the choices its players have (docs/rules.md).

The cards, the totals, the hand and its outcome are Punto Banco's (``games.cards``,
``games.rules``); what differs is who decides a third card. The ponte (who holds the Player
hand) draws on 0–4, stands on 6–7 and chooses on 5. The banker then plays by this table, with a
choice in two cells:

======  ======================================================================================
banker  against the ponte's third card (``—``: the ponte stood)
======  ======================================================================================
0–2     draws
3       stands on an 8, chooses on a 9, draws otherwise (and when the ponte stood)
4       stands on 0 (a ten or a picture), 1, 8, 9; draws otherwise (and when the ponte stood)
5       draws on 5, 6, 7 and when the ponte stood; chooses on a 4; stands on 0–3, 8, 9
6       draws on 6, 7; stands otherwise (and when the ponte stood)
7       stands
======  ======================================================================================

A natural (8 or 9 in two cards, either side) shows at once and ends the coup: nobody chooses,
nobody draws. With every choice taken as "draw", the table is Punto Banco's tableau.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache

from games.cards import Card, total
from games.messages import Label, RuleError, gettext_noop
from games.rules import MSG_NATURAL, MSG_TOO_FEW, MSG_TOO_MANY, Hand, Outcome, check_copies


class Choice(StrEnum):
    DRAW = "draw"
    STAND = "stand"


BOTH = frozenset(Choice)
DRAW, STAND = frozenset({Choice.DRAW}), frozenset({Choice.STAND})

PONTE, BANKER = Label(gettext_noop("Ponte")), Label(gettext_noop("Banker"))

# Messages users see; tests import them rather than copying the wording.
MSG_PONTE_MUST_DRAW = gettext_noop(
    "The ponte has no choice on {total}: the ponte must draw (draws on 0–4, chooses on 5)."
)
MSG_PONTE_MUST_STAND = gettext_noop(
    "The ponte has no choice on {total}: the ponte must stand (stands on 6–7, chooses on 5)."
)
MSG_PONTE_CHOOSES = gettext_noop("The ponte has 5 and may draw or stand: record which.")
MSG_PONTE_STOOD = gettext_noop("The ponte chose to stand on 5: no third card is due.")
MSG_PONTE_DREW = gettext_noop("The ponte chose to draw on 5: the third card is missing.")
MSG_BANKER_MUST_DRAW = gettext_noop(
    "The banker has no choice on {total} against a third card of {third}: the banker must draw."
)
MSG_BANKER_MUST_STAND = gettext_noop(
    "The banker has no choice on {total} against a third card of {third}: the banker must stand."
)
MSG_BANKER_MUST_DRAW_STOOD = gettext_noop(
    "The banker has no choice on {total} when the ponte stood: the banker must draw."
)
MSG_BANKER_MUST_STAND_STOOD = gettext_noop(
    "The banker has no choice on {total} when the ponte stood: the banker must stand."
)
MSG_BANKER_CHOOSES = gettext_noop(
    "The banker has {total} against a third card of {third} and may draw or stand: record which."
)
MSG_BANKER_STOOD = gettext_noop("The banker chose to stand: no third card is due.")
MSG_BANKER_DREW = gettext_noop("The banker chose to draw: the third card is missing.")
MSG_BANKER_BEFORE_PONTE = gettext_noop(
    "The banker's third card or choice is recorded before the ponte's third card."
)
MSG_NATURAL_NO_CHOICE = gettext_noop(
    "{side} has a natural {total}: the coup ends at once and nobody chooses."
)


class CoupError(RuleError):
    """Cards or choices that no coup of Chemin de fer can show; the message names the rule."""


# --- the tables -------------------------------------------------------------------------------


def ponte_choices(ponte_total: int) -> frozenset[Choice]:
    """What the ponte may do on a two-card total: one action is forced, two are a choice.
    A natural (8, 9) shows at once: he stands, and so does the banker."""
    if ponte_total <= 4:
        return DRAW
    if ponte_total == 5:
        return BOTH
    return STAND


def banker_choices(banker_total: int, ponte_third: int | None) -> frozenset[Choice]:
    """What the banker may do on his two-card total, against the value of the ponte's third card
    (``None``: the ponte stood). The table above; a banker's natural stands."""
    stood = ponte_third is None
    match banker_total:
        case 0 | 1 | 2:
            return DRAW
        case 3:
            return STAND if ponte_third == 8 else BOTH if ponte_third == 9 else DRAW
        case 4:
            return DRAW if stood or ponte_third not in (0, 1, 8, 9) else STAND
        case 5:
            if stood or ponte_third in (5, 6, 7):
                return DRAW
            return BOTH if ponte_third == 4 else STAND
        case 6:
            return DRAW if ponte_third in (6, 7) else STAND
        case _:
            return STAND


def is_natural(cards: tuple[Card, ...]) -> bool:
    """8 or 9 in the first two cards: it shows at once."""
    return total(cards[:2]) >= 8


def ponte_options(player: tuple[Card, ...]) -> frozenset[Choice]:
    """What the ponte may do with his first two cards (a natural stands)."""
    return STAND if is_natural(player) else ponte_choices(total(player[:2]))


def banker_options(banker: tuple[Card, ...], player: tuple[Card, ...]) -> frozenset[Choice]:
    """What the banker may do with his first two cards once the ponte has acted: ``player`` is the
    ponte's two cards (he stood) or three (he drew). A natural on either side stands."""
    if is_natural(player) or is_natural(banker):
        return STAND
    return banker_choices(total(banker[:2]), player[2].value if len(player) == 3 else None)


@cache
def tableau() -> dict[str, object]:
    """The table as plain data, for an entry screen that offers a choice only where there is one:
    each list is indexed by a two-card total and holds the actions allowed (``["draw"]``,
    ``["stand"]`` or both). ``banker`` is keyed by the ponte's third-card value, ``"none"`` when
    he stood; naturals are not in it (they end the coup)."""
    thirds: list[int | None] = [None, *range(10)]
    return {
        "ponte": [sorted(ponte_choices(ponte_total)) for ponte_total in range(8)],
        "banker": {
            "none" if third is None else str(third): [
                sorted(banker_choices(banker_total, third)) for banker_total in range(8)
            ]
            for third in thirds
        },
    }


# --- the steps of a coup, Baccara banque's too ------------------------------------------------


class Step(StrEnum):
    """What a coup waits for next, in the order of play."""

    FIRST_CARDS = "first_cards"  # two cards a side, dealt ponte, banker, ponte, banker
    PONTE_CHOICE = "ponte_choice"  # the ponte has 5: draw or stand?
    PONTE_CARD = "ponte_card"
    BANKER_CHOICE = "banker_choice"
    BANKER_CARD = "banker_card"


@dataclass(frozen=True)
class Pending:
    """What a coup still waits for (and on which tableau, in Baccara banque), and what to say if
    it were ended here."""

    step: Step
    error: CoupError
    tableau: int | None = None


@dataclass(frozen=True)
class Say:
    """A message and its parameters, made an error only when it is said."""

    template: str
    params: Mapping[str, object] = field(default_factory=dict)

    def error(self) -> CoupError:
        return CoupError(self.template, **self.params)


@dataclass(frozen=True)
class Turn:
    """One hand's turn at a third card: what the rules allow, the choice recorded, the steps the
    coup waits at, and what to say when the record and the rules disagree."""

    allowed: frozenset[Choice]
    choice: Choice | None
    choice_step: Step
    card_step: Step
    must_draw: Say
    must_stand: Say
    chooses: Say  # the rules leave a choice and none is recorded
    stood: Say  # he chose to stand, yet a third card is there
    drew: Say  # he chose to draw, and the third card is missing


# The ponte's words: must draw, must stand, chooses, chose to stand, chose to draw.
PONTE_WORDS = (
    MSG_PONTE_MUST_DRAW,
    MSG_PONTE_MUST_STAND,
    MSG_PONTE_CHOOSES,
    MSG_PONTE_STOOD,
    MSG_PONTE_DREW,
)


def ponte_turn(
    cards: tuple[Card, ...],
    choice: Choice | None,
    words: tuple[str, str, str, str, str] = PONTE_WORDS,
    **who: object,
) -> Turn:
    """The turn of a ponte without a natural: draws on 0–4, chooses on 5, stands on 6–7.
    ``who`` names him in the messages (Baccara banque: his tableau)."""
    ponte_total = total(cards[:2])
    said = {**who, "total": ponte_total}
    must_draw, must_stand, chooses, stood, drew = words
    return Turn(
        ponte_choices(ponte_total),
        choice,
        Step.PONTE_CHOICE,
        Step.PONTE_CARD,
        must_draw=Say(must_draw, said),
        must_stand=Say(must_stand, said),
        chooses=Say(chooses, who),
        stood=Say(stood, said),
        drew=Say(drew, said),
    )


def banker_turn(
    allowed: frozenset[Choice],
    choice: Choice | None,
    *,
    must_draw: str,
    must_stand: str,
    chooses: str,
    said: Mapping[str, object],
) -> Turn:
    """The banker's turn once the pontes have played, ``allowed`` by his game's table."""
    return Turn(
        allowed,
        choice,
        Step.BANKER_CHOICE,
        Step.BANKER_CARD,
        must_draw=Say(must_draw, said),
        must_stand=Say(must_stand, said),
        chooses=Say(chooses, said),
        stood=Say(MSG_BANKER_STOOD),
        drew=Say(MSG_BANKER_DREW),
    )


def check_counts(hands: Sequence[tuple[Label, tuple[Card, ...]]]) -> Pending | None:
    """Two or three cards a hand: more breaks a rule; with fewer, the coup waits for the first
    cards."""
    for side, cards in hands:
        if len(cards) > 3:
            raise CoupError(MSG_TOO_MANY, side=side, count=len(cards))
    for side, cards in hands:
        if len(cards) < 2:
            return Pending(Step.FIRST_CARDS, CoupError(MSG_TOO_FEW, side=side, count=len(cards)))
    return None


def check_natural(
    side: Label,
    natural: tuple[Card, ...],
    hands: Sequence[tuple[Card, ...]],
    choices: Sequence[Choice | None],
) -> None:
    """``side``'s natural shows at once and ends the play of ``hands``: none of them has a third
    card, and nobody chose."""
    if any(len(cards) == 3 for cards in hands):
        raise CoupError(MSG_NATURAL, side=side, total=total(natural[:2]))
    if any(choice is not None for choice in choices):
        raise CoupError(MSG_NATURAL_NO_CHOICE, side=side, total=total(natural[:2]))


def take_turn(turn: Turn, cards: tuple[Card, ...], tableau: int | None = None) -> bool | Pending:
    """Whether the hand drew, by the rules and the choice recorded, or what its turn still waits
    for. Raises :class:`CoupError` if the record breaks a rule: a choice where there is none, a
    third card after a stand."""
    if turn.choice is not None and len(turn.allowed) == 1:
        raise (turn.must_draw if Choice.DRAW in turn.allowed else turn.must_stand).error()
    if turn.choice is None and len(turn.allowed) == 2:
        return Pending(turn.choice_step, turn.chooses.error(), tableau)
    chose = turn.choice is not None
    draws = turn.choice is Choice.DRAW if chose else Choice.DRAW in turn.allowed
    if not draws and len(cards) == 3:
        raise (turn.stood if chose else turn.must_stand).error()
    if draws and len(cards) == 2:
        return Pending(turn.card_step, (turn.drew if chose else turn.must_draw).error(), tableau)
    return draws


def ponte_plays(
    turn: Turn,
    cards: tuple[Card, ...],
    banker: tuple[Card, ...],
    banker_choice: Choice | None,
    tableau: int | None = None,
) -> bool | Pending:
    """The ponte's turn (:func:`take_turn`): the banker's third card or choice may not come
    before the ponte's third card."""
    played = take_turn(turn, cards, tableau)
    waits_for_card = isinstance(played, Pending) and played.step is Step.PONTE_CARD
    if waits_for_card and (len(banker) == 3 or banker_choice is not None):
        raise CoupError(MSG_BANKER_BEFORE_PONTE)
    return played


# --- a coup of Chemin de fer ------------------------------------------------------------------


def _banker_turn(player: tuple[Card, ...], banker: tuple[Card, ...], choice: Choice | None) -> Turn:
    """The banker's turn against the ponte's third card, or against a ponte who stood."""
    third = player[2].value if len(player) == 3 else None
    stood = third is None
    return banker_turn(
        banker_options(banker, player),
        choice,
        must_draw=MSG_BANKER_MUST_DRAW_STOOD if stood else MSG_BANKER_MUST_DRAW,
        must_stand=MSG_BANKER_MUST_STAND_STOOD if stood else MSG_BANKER_MUST_STAND,
        chooses=MSG_BANKER_CHOOSES,
        said={"total": total(banker[:2]), "third": third},
    )


def _pending(
    player: tuple[Card, ...],
    banker: tuple[Card, ...],
    ponte_choice: Choice | None,
    banker_choice: Choice | None,
) -> Pending | None:
    """The first thing the coup still waits for (``None``: it is complete). Raises
    :class:`CoupError` if the cards and choices recorded so far already break a rule."""
    hands = ((PONTE, player), (BANKER, banker))
    waiting = check_counts(hands)
    if waiting is not None:
        return waiting
    for side, cards in hands:
        if is_natural(cards):
            check_natural(side, cards, (player, banker), (ponte_choice, banker_choice))
            return None
    ponte = ponte_plays(ponte_turn(player, ponte_choice), player, banker, banker_choice)
    if isinstance(ponte, Pending):
        return ponte
    played = take_turn(_banker_turn(player, banker, banker_choice), banker)
    return played if isinstance(played, Pending) else None


def next_step(
    player: tuple[Card, ...],
    banker: tuple[Card, ...],
    *,
    ponte_choice: Choice | None = None,
    banker_choice: Choice | None = None,
) -> Step | None:
    """What the coup waits for next, given what is recorded so far (``None``: it is complete).

    A choice is given only where the rules leave one (the ponte on 5; the banker on 3 against a
    9 and on 5 against a 4). Raises :class:`CoupError` if something recorded breaks a rule.
    """
    pending = _pending(player, banker, ponte_choice, banker_choice)
    return None if pending is None else pending.step


@dataclass(frozen=True)
class Coup:
    """A complete, valid coup of Chemin de fer: the cards as a Punto Banco :class:`Hand` (same
    totals, same outcome), and the choices taken where the rules left one (``None`` elsewhere),
    for the ledger to keep."""

    hand: Hand
    ponte_choice: Choice | None = None
    banker_choice: Choice | None = None

    def outcome(self) -> Outcome:
        return self.hand.outcome()


def deal(
    player: tuple[Card, ...],
    banker: tuple[Card, ...],
    *,
    ponte_choice: Choice | None = None,
    banker_choice: Choice | None = None,
    decks: int | None = None,
) -> Coup:
    """Check a complete coup (each side's cards in deal order) and the choices taken.

    Raises :class:`CoupError` naming the rule broken: a choice where the rules give none, a
    choice missing where they give one, a third card after a stand, a third card missing, too few
    or too many cards, a card the shoe cannot hold (with ``decks``).
    """
    pending = _pending(player, banker, ponte_choice, banker_choice)
    if pending is not None:
        raise pending.error
    if decks is not None:
        check_copies(player + banker, decks)
    return Coup(Hand(tuple(player), tuple(banker)), ponte_choice, banker_choice)
