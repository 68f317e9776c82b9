"""Baccara banque's money: the bank, the stakes on two tableaux, the taxe, and who holds each
tableau's cards.

As docs/rules.md gives them, quoting their source; whatever is not said here is Chemin de fer's
(:mod:`chemin_money`):

- **The bank** is auctioned ("meistbietend versteigert"; a coup's entry names who won it and
  for how much), stays with its holder after a loss
  ("auch nach einem verlorenen Spiel weiterhin behalten"), and no money comes out of it while he
  holds it ("auf keinen Fall Kapital aus dem Topf entnehmen"); he may give it up after any coup.
  So the whole bank stays on the table, covered or not (Chemin de fer's "der überschüssige
  Betrag wird dem Tisch entnommen" would take money out).
- **Stakes.** Pontes stake on either tableau (one stake per guest and coup); each wins 1:1 or
  loses; an **égalité** voids its tableau only. In a **banque limitée** the stakes on both
  tableaux together are at most the bank (what it can pay if both tableaux win); a **banque
  ouverte** takes any stakes, and its holder answers for a loss beyond the bank.
- **Taxe** (per event): "einmalig 5 % des eingebrachten Kapitals" — once, on the capital the
  banker brings in; or on winnings, "2 % beim Banco Limitée und 1,25 % beim Banco ouverte",
  measured on the coup: winning against the higher-staked tableau and losing against the other,
  "beträgt der Gewinn den Unterschied zwischen den beiden Tableaus".
- **The cards** of a tableau: "Gewinnt ein Ponteur, so bekommt er auch im nächsten Spiel
  automatisch die Karten. Verliert er jedoch, so bekommt sein Nachbar die Karten" — the next
  seat up within that half of the table (an égalité is no loss: he keeps them).

Seats are numbered as in :mod:`chemin_money` (seat *n* + 1 at the right of seat *n*).
Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from games.guest_banked.banque_drawing import MSG_TWO_TABLEAUX, TABLEAUX
from games.guest_banked.chemin_money import (
    MSG_BANKER_AGAINST_HIMSELF,
    MSG_CO_BANKER_AGAINST_HIMSELF,
    MSG_ONE_STAKE_EACH,
    MSG_STAKE_CENTS,
    MSG_STAKE_NOT_POSITIVE,
    Bank,
    BankError,
    BankResult,
    Cover,
    Guest,
    check_amount,
    seat_to_the_right,
    shares,
)
from games.kinds import BancoKind
from games.messages import gettext_noop
from games.payouts import ZERO, round_money
from games.rules import Winner

# Messages users see; tests import them rather than copying the wording.
MSG_STAKES_EXCEED_BANQUE = gettext_noop(
    "The stakes on both tableaux ({staked}) are more than the bank of {bank}: "
    "a banque limitée answers only for what it holds."
)


# --- the bank and its taxe ---------------------------------------------------------------------


class BanqueTaxeKind(StrEnum):
    CAPITAL = "capital"  # once, on the capital brought in
    WINNINGS = "winnings"  # on each winning coup, at the rate of the bank's kind


CAPITAL_RATE = Decimal("0.05")
WINNINGS_RATES = {BancoKind.LIMITEE: Decimal("0.02"), BancoKind.OUVERTE: Decimal("0.0125")}


@dataclass(frozen=True)
class BanqueTaxe:
    """The house's cut and the bank's kind, chosen per event."""

    kind: BanqueTaxeKind = BanqueTaxeKind.CAPITAL
    banco: BancoKind = BancoKind.LIMITEE

    def on_capital(self, capital: Decimal) -> Decimal:
        """The cut when a banker brings a bank in: 5% of it, or nothing (taxed on winnings)."""
        if self.kind is BanqueTaxeKind.CAPITAL:
            return round_money(capital * CAPITAL_RATE)
        return ZERO

    def on_coup(self, bank_gross: Decimal) -> Decimal:
        """The cut of a coup whose result for the bank, over both tableaux, is ``bank_gross``."""
        if self.kind is BanqueTaxeKind.WINNINGS and bank_gross > 0:
            return round_money(bank_gross * WINNINGS_RATES[self.banco])
        return ZERO


@dataclass(frozen=True)
class BanqueMoney(BankResult):
    """A coup settled. ``tableau_nets`` is the bank's result against each tableau before the
    taxe; ``bank_after`` what the bank holds when the coup is paid (at most zero: it is spent, and
    in a banque ouverte a negative amount is what its holder paid beyond it). Guests' nets and
    the house's cut sum to zero."""

    bank: Bank
    winners: tuple[Winner, ...]
    stakes: tuple[tuple[Cover, ...], ...]
    ponte_nets: tuple[tuple[Guest, Decimal], ...]
    tableau_nets: tuple[Decimal, ...]
    banker_net: Decimal
    co_banker_net: Decimal
    house_cut: Decimal
    bank_after: Decimal


def settle_banque_coup(
    bank: Bank,
    stakes: Sequence[Sequence[Cover]],
    winners: Sequence[Winner],
    taxe: BanqueTaxe = BanqueTaxe(),
) -> BanqueMoney:
    """Pay a coup: ``stakes`` per tableau (a :class:`Cover` is a guest and an amount; its kind is
    not read), ``winners`` per tableau (:meth:`BanqueCoup.winners`)."""
    for count in (len(stakes), len(winners)):
        if count != TABLEAUX:
            raise BankError(MSG_TWO_TABLEAUX, count=count)
    seen: set[Guest] = set()
    for stake in (stake for tableau in stakes for stake in tableau):
        if bank.holds(stake.guest):
            template = (
                MSG_BANKER_AGAINST_HIMSELF
                if stake.guest == bank.banker
                else MSG_CO_BANKER_AGAINST_HIMSELF
            )
            raise BankError(template, guest=stake.guest)
        if stake.guest in seen:
            raise BankError(MSG_ONE_STAKE_EACH, guest=stake.guest)
        seen.add(stake.guest)
        check_amount(stake.amount, MSG_STAKE_NOT_POSITIVE, MSG_STAKE_CENTS, guest=stake.guest)
    staked = sum((stake.amount for tableau in stakes for stake in tableau), ZERO)
    if taxe.banco is BancoKind.LIMITEE and staked > bank.amount:
        raise BankError(MSG_STAKES_EXCEED_BANQUE, staked=staked, bank=bank.amount)

    ponte_nets: list[tuple[Guest, Decimal]] = []
    tableau_nets: list[Decimal] = []
    for tableau, winner in zip(stakes, winners, strict=True):
        sign = {Winner.PLAYER: 1, Winner.BANKER: -1, Winner.TIE: 0}[winner]
        nets = [(stake.guest, stake.amount * sign) for stake in tableau]
        ponte_nets += nets
        tableau_nets.append(-sum((net for _guest, net in nets), ZERO))
    gross = sum(tableau_nets, ZERO)
    house_cut = taxe.on_coup(gross)
    banker_net, co_banker_net = shares(bank, gross - house_cut)
    return BanqueMoney(
        bank=bank,
        winners=tuple(winners),
        stakes=tuple(tuple(tableau) for tableau in stakes),
        ponte_nets=tuple(ponte_nets),
        tableau_nets=tuple(tableau_nets),
        banker_net=banker_net,
        co_banker_net=co_banker_net,
        house_cut=house_cut,
        bank_after=bank.amount + gross - house_cut,
    )


# --- the cards of a tableau ---------------------------------------------------------------------


def cards_next(holder_seat: int, winner: Winner, half: Iterable[int]) -> int:
    """Who holds a tableau's cards on the next coup: its holder again unless he lost (an égalité
    is no loss); after a loss his neighbour in ``half``, the occupied seats of that tableau's
    half of the table in the order the cards go round — from the banker's side outward, then
    back (a set: by seat number). A holder alone in his half keeps them; a holder who left
    passes them to the next seat up."""
    order = sorted(half) if isinstance(half, set | frozenset) else list(half)
    if winner is not Winner.BANKER or not set(order) - {holder_seat}:
        return holder_seat
    if holder_seat in order:
        return order[(order.index(holder_seat) + 1) % len(order)]
    return seat_to_the_right(holder_seat, order)
