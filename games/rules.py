"""Punto Banco drawing rules, hand validation and outcomes (the tableau is in docs/rules.md).

Plain Python, no Django. Everything the ledger pays out is decided here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from games.cards import Card, format_cards, is_pair, total
from games.messages import Label, RuleError, gettext_noop


class Side(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


# Banker's two-card total -> the Player third-card values on which the Banker draws,
# when the Player drew. Totals 0–2 always draw, 7 always stands (the tableau in docs/rules.md).
_BANKER_DRAWS_AGAINST: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}

# Messages users see; tests import them rather than copying the wording.
MSG_TOO_FEW = gettext_noop("{side} needs two cards (has {count}).")
MSG_TOO_MANY = gettext_noop("{side} has {count} cards: at most three cards per side.")
MSG_NATURAL = gettext_noop(
    "{side} has a natural {total}: the hand ends and no side draws a third card."
)
MSG_PLAYER_MUST_DRAW = gettext_noop(
    "Player has {total} and must draw a third card (Player draws on 0–5)."
)
MSG_PLAYER_MUST_STAND = gettext_noop("Player has {total} and must stand (Player stands on 6–7).")
MSG_BANKER_MUST_DRAW_STOOD = gettext_noop(
    "Banker has {total} and the Player stood: Banker must draw (draws on 0–5 when Player stands)."
)
MSG_BANKER_MUST_STAND_STOOD = gettext_noop(
    "Banker has {total} and the Player stood: Banker must stand (stands on 6–7)."
)
MSG_BANKER_MUST_DRAW = gettext_noop(
    "Banker has {total} against a Player third card of {third}: Banker must draw."
)
MSG_BANKER_MUST_STAND = gettext_noop(
    "Banker has {total} against a Player third card of {third}: Banker must stand."
)
MSG_BANKER_BEFORE_PLAYER = gettext_noop(
    "Banker's third card is recorded but the Player's draw is not settled: "
    "Player has {total} and must draw first."
)
MSG_HAND_COMPLETE = gettext_noop("The hand is complete: no more cards are due.")
MSG_TOO_MANY_COPIES = gettext_noop(
    "{card} appears {count} times, but a {decks}-deck shoe holds only {limit}."
)


class HandError(RuleError):
    """Cards that no hand of Punto Banco can show; the message names the rule broken."""


def player_draws(player_total: int) -> bool:
    """Player draws on 0–5 and stands on 6–7 (a natural is dealt with before this)."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """Whether the Banker draws, given the Player's third-card value (``None``: Player stood)."""
    if player_third is None:
        return banker_total <= 5
    return player_third in _BANKER_DRAWS_AGAINST.get(banker_total, frozenset())


def _is_natural(cards: tuple[Card, ...]) -> bool:
    return total(cards[:2]) >= 8


@dataclass(frozen=True)
class CardsDue:
    """What the dealer must still deal. ``banker`` is ``None`` while it depends on the Player's
    third card, which has not been recorded yet."""

    player: bool
    banker: bool | None

    @property
    def complete(self) -> bool:
        return not self.player and self.banker is False


def cards_due(player: tuple[Card, ...], banker: tuple[Card, ...]) -> CardsDue:
    """Which third cards are still due, given the cards recorded so far.

    Raises :class:`HandError` if the cards recorded already break a rule. With fewer than two
    cards a side, nothing is decided yet: both sides are reported as due.
    """
    for side, cards in ((Side.PLAYER, player), (Side.BANKER, banker)):
        if len(cards) > 3:
            raise HandError(MSG_TOO_MANY, side=Label(side.value.title()), count=len(cards))
    if len(player) < 2 or len(banker) < 2:
        return CardsDue(player=len(player) < 2, banker=len(banker) < 2 or None)

    player_two, banker_two = total(player[:2]), total(banker[:2])
    for side, cards in ((Side.PLAYER, player), (Side.BANKER, banker)):
        if _is_natural(cards) and (len(player) == 3 or len(banker) == 3):
            raise HandError(MSG_NATURAL, side=Label(side.value.title()), total=total(cards[:2]))
    if _is_natural(player) or _is_natural(banker):
        return CardsDue(player=False, banker=False)

    if player_draws(player_two):
        if len(player) == 2:
            if len(banker) == 3:
                raise HandError(MSG_BANKER_BEFORE_PLAYER, total=player_two)
            return CardsDue(player=True, banker=None)
        third: int | None = player[2].value
    else:
        if len(player) == 3:
            raise HandError(MSG_PLAYER_MUST_STAND, total=player_two)
        third = None

    banker_due = banker_draws(banker_two, third)
    if len(banker) == 3 and not banker_due:
        template = MSG_BANKER_MUST_STAND_STOOD if third is None else MSG_BANKER_MUST_STAND
        raise HandError(template, total=banker_two, third=third)
    return CardsDue(player=False, banker=banker_due and len(banker) == 2)


def check_copies(cards: tuple[Card, ...], decks: int) -> None:
    """A shoe of N decks holds 4N of each rank and N of each suited card."""
    ranks = Counter(card.rank for card in cards)
    suited = Counter(card for card in cards if card.suit is not None)
    for card_name, count, limit in [
        *((rank, count, 4 * decks) for rank, count in ranks.items()),
        *((str(card), count, decks) for card, count in suited.items()),
    ]:
        if count > limit:
            raise HandError(
                MSG_TOO_MANY_COPIES, card=card_name, count=count, decks=decks, limit=limit
            )


@dataclass(frozen=True)
class Hand:
    """A complete, valid hand as dealt. Build it with :meth:`from_cards`, which checks the rules."""

    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @classmethod
    def from_cards(
        cls, player: tuple[Card, ...], banker: tuple[Card, ...], *, decks: int | None = None
    ) -> Hand:
        validate_hand(player, banker, decks=decks)
        return cls(tuple(player), tuple(banker))

    @property
    def player_total(self) -> int:
        return total(self.player)

    @property
    def banker_total(self) -> int:
        return total(self.banker)

    def outcome(self) -> Outcome:
        return Outcome(
            winner=decide_winner(self.player_total, self.banker_total),
            player_pair=is_pair(self.player),
            banker_pair=is_pair(self.banker),
            player_total=self.player_total,
            banker_total=self.banker_total,
            player_card_count=len(self.player),
            banker_card_count=len(self.banker),
        )

    def __str__(self) -> str:
        return f"P {format_cards(self.player)} / B {format_cards(self.banker)}"


def validate_hand(
    player: tuple[Card, ...], banker: tuple[Card, ...], *, decks: int | None = None
) -> None:
    """Raise :class:`HandError` naming the rule broken unless the cards are a complete hand."""
    for side, cards in ((Side.PLAYER, player), (Side.BANKER, banker)):
        if len(cards) < 2:
            raise HandError(MSG_TOO_FEW, side=Label(side.value.title()), count=len(cards))
    due = cards_due(player, banker)
    if due.player:
        raise HandError(MSG_PLAYER_MUST_DRAW, total=total(player[:2]))
    if due.banker:
        third = player[2].value if len(player) == 3 else None
        template = MSG_BANKER_MUST_DRAW_STOOD if third is None else MSG_BANKER_MUST_DRAW
        raise HandError(template, total=total(banker[:2]), third=third)
    if decks is not None:
        check_copies(player + banker, decks)


def decide_winner(player_total: int, banker_total: int) -> Winner:
    if player_total > banker_total:
        return Winner.PLAYER
    if banker_total > player_total:
        return Winner.BANKER
    return Winner.TIE


def play_out(next_card: Callable[[], Card]) -> Hand:
    """Deal one hand by the rules: P1 B1 P2 B2, then the third cards that are due."""
    p1, b1, p2, b2 = next_card(), next_card(), next_card(), next_card()
    player: tuple[Card, ...] = (p1, p2)
    banker: tuple[Card, ...] = (b1, b2)
    due = cards_due(player, banker)
    if due.player:
        player = (*player, next_card())
        due = cards_due(player, banker)
    if due.banker:
        banker = (*banker, next_card())
    return Hand(player, banker)


@dataclass(frozen=True)
class Outcome:
    """What a hand decided. Recorded from cards everything is known; recorded from the result
    alone (the host did not note the cards) only the winner and the pair flags are."""

    winner: Winner
    player_pair: bool = False
    banker_pair: bool = False
    player_total: int | None = None
    banker_total: int | None = None
    player_card_count: int | None = None
    banker_card_count: int | None = None

    def __post_init__(self) -> None:
        card_facts = (
            self.player_total,
            self.banker_total,
            self.player_card_count,
            self.banker_card_count,
        )
        if any(fact is None for fact in card_facts) and any(f is not None for f in card_facts):
            raise ValueError("An outcome has either all card facts (totals, counts) or none.")
        if self.player_total is None or self.banker_total is None:
            return
        if not (0 <= self.player_total <= 9 and 0 <= self.banker_total <= 9):
            raise ValueError("Totals run 0–9.")
        if self.player_card_count not in (2, 3) or self.banker_card_count not in (2, 3):
            raise ValueError("Each side holds two or three cards.")
        if decide_winner(self.player_total, self.banker_total) is not self.winner:
            raise ValueError(
                f"Player {self.player_total} against Banker {self.banker_total} "
                f"is not a {self.winner.value} win."
            )

    @property
    def has_cards(self) -> bool:
        return None not in (
            self.player_total,
            self.banker_total,
            self.player_card_count,
            self.banker_card_count,
        )

    @property
    def player_natural(self) -> bool | None:
        if not self.has_cards:
            return None
        return self.player_card_count == 2 and (self.player_total or 0) >= 8

    @property
    def banker_natural(self) -> bool | None:
        if not self.has_cards:
            return None
        return self.banker_card_count == 2 and (self.banker_total or 0) >= 8

    @property
    def natural(self) -> bool | None:
        if not self.has_cards:
            return None
        return bool(self.player_natural or self.banker_natural)

    @property
    def margin(self) -> int | None:
        if self.player_total is None or self.banker_total is None:
            return None
        return abs(self.player_total - self.banker_total)

    @property
    def banker_three_card_seven(self) -> bool | None:
        """Banker wins with a three-card 7 (EZ Baccarat's push; the Dragon 7 bet)."""
        if not self.has_cards:
            return None
        return (
            self.winner is Winner.BANKER and self.banker_card_count == 3 and self.banker_total == 7
        )

    @property
    def player_three_card_eight(self) -> bool | None:
        """Player wins with a three-card 8 (the Panda 8 bet)."""
        if not self.has_cards:
            return None
        return (
            self.winner is Winner.PLAYER and self.player_card_count == 3 and self.player_total == 8
        )


@cache
def tableau() -> dict[str, object]:
    """The drawing rules as plain data, for the table page's keypad: it places each tapped card
    on its side at once (and while offline) with these, before the server's reading arrives.
    ``banker_draws`` is keyed by the Player's third-card value, ``"none"`` when Player stood;
    each list is indexed by the Banker's two-card total."""
    thirds: list[int | None] = [None, *range(10)]
    return {
        "player_draws": [player_draws(player_total) for player_total in range(10)],
        "banker_draws": {
            "none" if third is None else str(third): [
                banker_draws(banker_total, third) for banker_total in range(10)
            ]
            for third in thirds
        },
    }
