"""What a coup of a guest-banked game says: the event's rules for the bank (:class:`BankRules`),
a coup's terms as entered (:class:`CoupTerms`), the coup before it (:class:`PreviousCoup`) and the
coup settled, ready to store (:class:`SettledCoup`).

Plain data, which ``games.entry`` names in a hand's entry and its settlement: this module imports
nothing of ``games.entry``, so ``games.entry`` and the guest-banked modules that read entries both
import it and neither imports the other. Plain Python, no Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from games.guest_banked.banque_money import BanqueTaxe
from games.guest_banked.chemin_drawing import Choice
from games.guest_banked.chemin_money import Taxe
from games.kinds import BankerMove, BankRotation, Game, SuiteReturn, SuiteWay
from games.payouts import ZERO
from games.rules import Winner

# The moves a banker has after a coup, by game.
MOVES = {
    Game.CHEMIN_DE_FER: (BankerMove.KEEP, BankerMove.SUITE, BankerMove.PASS, BankerMove.RETIRE),
    Game.BACCARA_BANQUE: (BankerMove.KEEP, BankerMove.RETIRE),
}


@dataclass(frozen=True)
class BankRules:
    """What an event's guest-banked game allows: the game, its cut, its minimum banco (the
    event's table minimum) and its shoe."""

    game: Game
    minimum_banco: Decimal
    decks: int = 8
    taxe: Taxe = field(default_factory=Taxe)
    shoe_charge: Decimal = ZERO  # Chemin de fer with a table charge: once a shoe
    banque_taxe: BanqueTaxe = field(default_factory=BanqueTaxe)
    suite_returns: SuiteReturn = SuiteReturn.GIVER
    rotation: BankRotation = BankRotation.SKIPS_LOSER  # as the night's release read it


@dataclass(frozen=True)
class CoupTerms:
    """The bank and the play of one coup, as entered (text from a form or a scoresheet, or values
    already read). ``taken`` is money the banker asks to take out while keeping the bank (always
    refused); a suite names its taker (``suite_seat``) and amount (the bank's: taken; more or
    less: the highest bid) or neither (nobody bid: the next in turn at the minimum banco)."""

    banker_seat: int | str
    bank: Decimal | str
    co_banker_seat: int | str | None = None
    ponte_choice: Choice | str | None = None
    banker_choice: Choice | str | None = None
    second_cards: str = ""
    second_result: Winner | str | None = None
    second_choice: Choice | str | None = None
    move: BankerMove | str = ""
    taken: Decimal | str = ""
    suite_seat: int | str | None = None
    suite_amount: Decimal | str = ""


@dataclass(frozen=True)
class PreviousCoup:
    """The coup before, in the same shoe, as the ledger recorded it: what the next coup's bank
    follows from."""

    banker_seat: int
    co_banker_seat: int | None
    bank_after: Decimal
    move: BankerMove
    rotation_seat: int
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suivi_seat: int | None = None
    holder_seats: tuple[int | None, int | None] = (None, None)
    winners: tuple[Winner, ...] = ()
    suite_way: SuiteWay | None = None


@dataclass(frozen=True)
class SettledCoup:
    """A coup ready to store beside its hand."""

    game: Game
    banker_seat: int
    co_banker_seat: int | None
    bank: Decimal  # on the table before the coup
    covered: Decimal  # what the bank played against (Chemin de fer) or the stakes (banque)
    holder_seats: tuple[int | None, int | None]  # who held the cards (per tableau in banque)
    ponte_choice: Choice | None
    banker_choice: Choice | None
    second_choice: Choice | None
    second_cards: str
    second_winner: Winner | None
    banker_cards: str  # the banker's cards as dealt (in banque, against both tableaux)
    house_cut: Decimal  # the taxe, and the table charge or the taxe on capital if due here
    move: BankerMove
    taken: Decimal  # what the banker took off the table when he gave the bank up
    bank_after: Decimal
    rotation_seat: int  # whose right the bank passes to when it loses
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suite_way: SuiteWay | None = None
    suivi_seat: int | None = None  # who may call suivi on the next coup
    winners: tuple[Winner, ...] = ()  # per hand against the bank (two in Baccara banque)

    @property
    def next_state(self) -> PreviousCoup:
        return PreviousCoup(
            banker_seat=self.banker_seat,
            co_banker_seat=self.co_banker_seat,
            bank_after=self.bank_after,
            move=self.move,
            rotation_seat=self.rotation_seat,
            suite_seat=self.suite_seat,
            suite_amount=self.suite_amount,
            suivi_seat=self.suivi_seat,
            holder_seats=self.holder_seats,
            winners=self.winners,
            suite_way=self.suite_way,
        )


@dataclass(frozen=True)
class NextMove:
    """What the banker did after the coup."""

    move: BankerMove
    taken: Decimal
    bank_after: Decimal
    suite_seat: int | None = None
    suite_amount: Decimal | None = None
    suite_way: SuiteWay | None = None
