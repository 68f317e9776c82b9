"""A real shoe: N decks shuffled (seedable), a cut card, hands played out by the rules.

Used by the demo night and the tests; the ledger never needs to know how a hand was dealt.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from games.cards import RANKS, SUITS, Card, check_decks
from games.rules import Hand, play_out

# Six cards is the most one hand can take; a shoe never starts a hand it might not finish.
MAX_CARDS_PER_HAND = 6


class ShoeExhausted(Exception):
    pass


class Shoe:
    """Cards in dealing order. The cut card sits ``cut_from_end`` cards from the end: once it
    comes out, the hand in play is finished and one more hand is dealt (the casino rule)."""

    def __init__(
        self,
        decks: int = 8,
        *,
        seed: int | str | None = None,
        cut_from_end: int = 16,
        burn: bool = True,
    ) -> None:
        check_decks(decks)
        cards = [Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in RANKS]
        if not MAX_CARDS_PER_HAND <= cut_from_end < len(cards) - MAX_CARDS_PER_HAND:
            raise ValueError(f"The cut card must leave room for a last hand (got {cut_from_end}).")
        random.Random(seed).shuffle(cards)
        self.decks = decks
        self._cards = cards
        self._position = 0
        self._cut_at = len(cards) - cut_from_end
        self.burned: tuple[Card, ...] = self._burn() if burn else ()

    def _burn(self) -> tuple[Card, ...]:
        # The first card is shown and that many cards burned (tens and pictures burn ten).
        first = self.deal()
        count = first.value or 10
        return (first, *(self.deal() for _ in range(count)))

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._position

    @property
    def cut_card_out(self) -> bool:
        return self._position >= self._cut_at

    def deal(self) -> Card:
        if self._position >= len(self._cards):
            raise ShoeExhausted("The shoe is empty.")
        card = self._cards[self._position]
        self._position += 1
        return card

    def play_hand(self) -> Hand:
        return play_out(self.deal)

    def hands(self, limit: int | None = None) -> Iterator[Hand]:
        """Play hands until the cut card has come out and one more hand is dealt (or ``limit``)."""
        played = 0
        last_hand_due = False
        while (limit is None or played < limit) and self.remaining >= MAX_CARDS_PER_HAND:
            yield self.play_hand()
            played += 1
            if last_hand_due:
                return
            last_hand_due = self.cut_card_out
