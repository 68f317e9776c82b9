"""Baccara banque: one bank against two tableaux at once — the drawing, the money, the cards.

Seed 002 (German, "Baccara Banque" and "Taxe"), as this module reads it; "in allen anderen
Möglichkeiten gelten die Regeln des Chemin de fer", so whatever the seed does not say here is
Chemin de fer's, taken from :mod:`chemin_drawing` and :mod:`chemin_money`, not written again:

- **Two tableaux.** The banker sits in the middle and plays "gegen zwei Ponteure gleichzeitig",
  one per half of the table: each tableau is a ponte's hand, the banker has one hand against both.
  Each hand's cards are recorded in deal order (the seed names no order between the hands).
- **Drawing.** Each ponte plays Chemin de fer's ponte: draws on 0–4, chooses on 5, stands on 6–7.
  The banker follows Chemin de fer's table against each tableau still playing. Where the table
  gives one answer against both (or he may choose against both) that is his rule; where it
  makes him draw against one tableau and stand against the other, one hand cannot do both, and
  he chooses. A **natural** (8 or 9 in two cards) shows at once: the banker's ends the coup
  (nobody draws, nobody chooses); a ponte's settles his tableau at once against the banker's
  first two cards ("keine dritte Karte mehr gezogen werden darf", Chemin de fer) while the other
  tableau plays on, and the banker's table then reads only that one.
- **The bank** is auctioned ("meistbietend versteigert"), stays with its holder after a loss
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
from games.guest_banked.chemin_money import (
    MSG_BANK_CENTS,
    MSG_BANK_NOT_POSITIVE,
    MSG_BANKER_AGAINST_HIMSELF,
    MSG_BID_TOO_LOW,
    MSG_CO_BANKER_AGAINST_HIMSELF,
    MSG_ONE_STAKE_EACH,
    MSG_STAKE_CENTS,
    MSG_STAKE_NOT_POSITIVE,
    Bank,
    BankError,
    BankResult,
    Cover,
    Guest,
    bank_open,
    check_amount,
    check_withdrawal,
    seat_to_the_right,
    shares,
)
from games.kinds import BancoKind
from games.messages import Label, gettext_noop
from games.payouts import ZERO, round_money
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
MSG_STAKES_EXCEED_BANQUE = gettext_noop(
    "The stakes on both tableaux ({staked}) are more than the bank of {bank}: "
    "a banque limitée answers only for what it holds."
)
MSG_BANQUE_EMPTY = gettext_noop("The bank has nothing left: it is auctioned again.")
MSG_NO_BIDS = gettext_noop("Nobody bid for the bank.")


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


# --- money --------------------------------------------------------------------------------------


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
class BanqueOpening:
    """A bank brought in, and the house's cut on it (paid by the banker beside the bank)."""

    bank: Bank
    house_cut: Decimal

    @property
    def nets(self) -> dict[Guest, Decimal]:
        return {self.bank.banker: -self.house_cut}


def bank_auction(
    bids: Sequence[tuple[Guest, Decimal]],
    *,
    taxe: BanqueTaxe = BanqueTaxe(),
    minimum_banco: Decimal | None = None,
) -> BanqueOpening:
    """The bank goes to the highest bid ("meistbietend"; equal bids: the earlier in ``bids``);
    its holder brings that capital in and pays the taxe on it if the event taxes capital."""
    best: tuple[Guest, Decimal] | None = None
    for guest, amount in bids:
        check_amount(amount, MSG_BANK_NOT_POSITIVE, MSG_BANK_CENTS)
        if minimum_banco is not None and amount < minimum_banco:
            raise BankError(MSG_BID_TOO_LOW, guest=guest, amount=amount, minimum=minimum_banco)
        if best is None or amount > best[1]:
            best = (guest, amount)
    if best is None:
        raise BankError(MSG_NO_BIDS)
    guest, amount = best
    return BanqueOpening(bank_open(guest, amount), taxe.on_capital(amount))


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


def banque_kept(money: BanqueMoney, *, taken: Decimal = ZERO) -> Bank:
    """The bank after its holder keeps it — after a win or a loss alike — with everything on the
    table; nothing comes out while he holds it. A spent bank is auctioned again."""
    check_withdrawal(taken)
    if money.bank_after <= 0:
        raise BankError(MSG_BANQUE_EMPTY)
    return Bank(money.bank.banker, money.bank_after, money.bank.co_banker)


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
