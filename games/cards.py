"""Playing cards as baccarat sees them: a rank, an optional suit, a value from 0 to 9.

Plain Python, no Django: the rules core is read, tested and reused on its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.messages import RuleError, Typed, gettext_noop, plain

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("s", "h", "d", "c")
CARDS_PER_DECK = 52
MIN_DECKS, MAX_DECKS = 1, 8

_RANK_ALIASES: dict[str, str] = {rank: rank for rank in RANKS} | {"T": "10"}
_SUIT_ALIASES: dict[str, str] = {
    **{suit: suit for suit in SUITS},
    **{suit.upper(): suit for suit in SUITS},
    "♠": "s",
    "♤": "s",
    "♥": "h",
    "♡": "h",
    "♦": "d",
    "♢": "d",
    "♣": "c",
    "♧": "c",
}
_VALUES: dict[str, int] = {
    "A": 1,
    **{str(n): n for n in range(2, 10)},
    "10": 0,
    "J": 0,
    "Q": 0,
    "K": 0,
}

MSG_UNKNOWN_CARD = gettext_noop(
    "Unknown card {token!r}: ranks are A, 2–9, 10 (or T), J, Q, K, optionally followed by a "
    "suit (s h d c or ♠ ♥ ♦ ♣)."
)


class CardError(RuleError):
    """A token that is not a card. ``token`` is the offending text, as typed."""

    def __init__(self, token: str) -> None:
        self.token = token
        super().__init__(MSG_UNKNOWN_CARD, token=Typed(token))


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str | None = None

    def __post_init__(self) -> None:
        if self.rank not in _VALUES:
            raise CardError(self.rank)
        if self.suit is not None and self.suit not in SUITS:
            raise CardError(f"{self.rank}{self.suit}")

    @property
    def value(self) -> int:
        """Baccarat value: ace 1, 2–9 at face, tens and pictures 0."""
        return _VALUES[self.rank]

    def __str__(self) -> str:
        return self.rank + (self.suit or "")


def check_decks(decks: int) -> None:
    """A shoe holds one to eight decks."""
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(f"A shoe holds {MIN_DECKS} to {MAX_DECKS} decks (got {decks}).")


def parse_card(token: str) -> Card:
    """Read one card: ``9``, ``9h``, ``k♠``, ``T``, ``10d``. Raises :class:`CardError`."""
    text = plain(token)
    suit: str | None = None
    if text and text[-1] in _SUIT_ALIASES:
        suit = _SUIT_ALIASES[text[-1]]
        text = text[:-1]
    rank = _RANK_ALIASES.get(text.upper())
    if rank is None:
        raise CardError(token)
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Read a space- or comma-separated list of cards (``"J J 10"``), or an iterable of tokens."""
    tokens = plain(text).replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(token) for token in tokens)


def total(cards: Iterable[Card]) -> int:
    """A hand's total is the last digit of the sum of its values."""
    return sum(card.value for card in cards) % 10


def is_pair(cards: tuple[Card, ...]) -> bool:
    """The first two cards share a rank (10 and K are not a pair; K and K are)."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)
