"""The one door into the rules: a hand or a coup as entered, settled by the game of its table.

Every way a hand comes in — the table's Save, a correction, a scoresheet row, ``check_ledger``
settling a stored coup again, the demo night — says what table it is played at and hands it here
with the entry. A Punto Banco table (:class:`PuntoBancoTable`) settles through
:func:`games.entry.settle_hand`; a table where a guest banks (:class:`GuestBankedTable`) through
:func:`games.guest_banked.pipeline.settle_coup_entry`. No caller chooses between them.

Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from dataclasses import dataclass
from typing import assert_never

from games.entry import HandEntry, SettledHand, TableRules, settle_hand
from games.guest_banked.pipeline import settle_coup_entry
from games.guest_banked.terms import BankRules, PreviousCoup
from games.kinds import Game


@dataclass(frozen=True)
class PuntoBancoTable:
    """A table the house banks: the event's rule set, shoe and limits (with a tournament table's
    stacks and bet unit), and the seats with a guest in them (``None``: the caller vouches for
    the seats, as a scoresheet names the guest on each row)."""

    rules: TableRules
    occupied: Collection[int] | None = None

    @property
    def game(self) -> Game:
        return Game.PUNTO_BANCO


@dataclass(frozen=True)
class GuestBankedTable:
    """A table where a guest holds the bank: the event's rules for the bank, the guest in each
    occupied seat, and the coup before in the same shoe, which the bank follows from (``None``:
    the shoe's first coup)."""

    rules: BankRules
    seated: Mapping[int, Hashable]
    previous: PreviousCoup | None = None

    @property
    def game(self) -> Game:
        return self.rules.game


# What either game needs to settle a hand; ``table.game`` says which game it is.
Table = PuntoBancoTable | GuestBankedTable


def settle(entry: HandEntry, table: Table) -> SettledHand:
    """Check an entry against the rules of its table's game and settle every stake, or raise
    :class:`games.entry.EntryRejected` listing every problem."""
    match table:
        case PuntoBancoTable(rules, occupied):
            return settle_hand(entry, rules, occupied=occupied)
        case GuestBankedTable(rules, seated, previous):
            return settle_coup_entry(entry, rules, seated, previous=previous)
        case _:
            assert_never(table)
