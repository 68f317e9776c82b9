"""Chemin de fer's money: the bank, the covers against it, a coup settled, the bank's next holder.

The rules as docs/rules.md gives them, quoting their German source:

- **The bank.** A guest holds it and sets its amount ("übergibt dem Croupier nun seinen
  Spieleinsatz"), at least the table's minimum banco. Another guest may join it with a stake equal
  to it (**banco double**: "die gleiche Summe … wie die derzeitige Banksumme"; gain and loss "zu
  gleichen Teilen"). While the bank is held no money comes out of it ("keinen Gewinn aus dem Spiel
  ziehen").
- **Covers** are offered in seat order from the banker's right ("beim rechten Nachbarn
  beginnend"). A **banco** takes the whole bank; of several bancos, **suivi** (the ponte who lost
  the last banco, calling it again) comes first, then the one nearest the banker's right
  ("Prime"). **Banco solo** refuses every other stake; **banco à deux** (two pontes call banco
  together: they share the whole bank between them, others refused) comes after it; **banco avec
  la table** takes half the bank, the others cover up to the other half. Without a banco the
  stakes count in seat order until the bank is covered; a stake larger than what is still open is
  refused (later, smaller stakes may still fill the bank); one stake per guest. Whatever is not
  covered goes back to the banker, and the bank plays only what was covered ("so wird der
  überschüssige Betrag dem Tisch entnommen … die neu auf dem Tisch befindliche Summe gilt als das
  neue Banco"). The largest stake holds the cards (a banco before an ordinary stake, then the
  nearer the banker's right).
- **A coup.** Pontes win 1:1 or lose their stake; **égalité** is void ("für ungültig erklärt"),
  every stake comes back. The house's **taxe** is 5% of a banker's winning coup (the source's
  "0,5 %" contradicts its own "0,95:1"; docs/rules.md follows 5%), rounded by
  :func:`games.payouts.round_money`, or a fixed charge per shoe, which costs nothing per coup.
- **Next.** A winning banker keeps the bank with its winnings, less the taxe, or gives it up: a
  **suite**, offered at the current amount round the table from his right, auctioned if nobody
  takes it, and given to the next in turn at the minimum banco if nobody bids. A losing bank
  passes to the right; when a suite loses, to the right of the banker who gave the suite ("erhält
  der Spieler, welcher an der rechten Seite des bisherigen Bankiers sitzt, den Schlitten").

**Seats** are numbered 1, 2, … round the table so that seat *n* + 1 sits at the right of seat *n*
(the last seat's right is seat 1); seat 1 is at the croupier's right and banks first. "From the
banker's right" is therefore banker's seat + 1, + 2, …, wrapping round; the shoe passes to the
next occupied seat up.

A guest is anything hashable that prints as the guest's name (the ledger passes its guests).
Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from games.kinds import CoverKind, SuiteWay
from games.messages import RuleError, gettext_noop, whole_cents
from games.payouts import MAX_COMMISSION, ZERO, round_money
from games.rules import Winner

Guest = Hashable

TAXE_RATE = Decimal("0.05")
PONTE_MINIMUM_SHARE = Decimal("0.10")  # "10 % des Minimumbanco"

# Messages users see; tests import them rather than copying the wording.
MSG_BANK_NOT_POSITIVE = gettext_noop("The bank must be more than nothing, not {amount}.")
MSG_BANK_CENTS = gettext_noop("The bank of {amount} is not a whole number of cents.")
MSG_BANK_BELOW_MINIMUM = gettext_noop(
    "The bank of {amount} is below the minimum banco of {minimum}."
)
MSG_CO_BANKER_IS_BANKER = gettext_noop("{guest} holds the bank and cannot join it as co-banker.")
MSG_CO_BANKER_CENTS = gettext_noop(
    "A shared bank is two equal halves: {amount} does not split into whole cents."
)
MSG_STAKE_NOT_POSITIVE = gettext_noop("{guest}'s stake must be more than nothing, not {amount}.")
MSG_STAKE_CENTS = gettext_noop("{guest}'s stake of {amount} is not a whole number of cents.")
MSG_STAKE_BELOW_MINIMUM = gettext_noop(
    "{guest}'s stake of {amount} is below the minimum stake of {minimum} "
    "(10% of the minimum banco)."
)
MSG_BANKER_AGAINST_HIMSELF = gettext_noop("{guest} holds the bank and cannot stake against it.")
MSG_CO_BANKER_AGAINST_HIMSELF = gettext_noop("{guest} shares the bank and cannot stake against it.")
MSG_ONE_STAKE_EACH = gettext_noop("{guest} has already staked on this coup.")
MSG_BANCO_WHOLE_BANK = gettext_noop("A banco takes the whole bank of {bank}, not {amount}.")
MSG_SUIVI_NOT_ENTITLED = gettext_noop(
    "Only the ponte who lost the last banco may call suivi, and {guest} did not."
)
MSG_SUIVI_FIRST = gettext_noop("{holder} called suivi and comes before every other banco.")
MSG_PRIME = gettext_noop("{holder} called banco nearer the banker's right and comes first.")
MSG_BANCO_SOLO_STANDS = gettext_noop("{holder} plays banco solo: every other stake is refused.")
MSG_A_DEUX_ALONE = gettext_noop("Banco à deux needs two pontes, and {guest} called it alone.")
MSG_A_DEUX_TAKEN = gettext_noop(
    "Banco à deux is for two pontes, and {first} and {second} called it first."
)
MSG_A_DEUX_WHOLE_BANK = gettext_noop(
    "Banco à deux: the two stakes together take the whole bank of {bank}, not {amount}."
)
MSG_A_DEUX_STANDS = gettext_noop(
    "{first} and {second} play banco à deux: every other stake is refused."
)
MSG_AVEC_HALF = gettext_noop("Banco avec la table takes half the bank, {half}, not {amount}.")
MSG_AVEC_TAKEN = gettext_noop("{holder} already plays banco avec la table.")
MSG_STAKE_EXCEEDS = gettext_noop(
    "{guest}'s stake of {amount} is more than the {left} of the bank still to cover."
)
MSG_BANK_COVERED = gettext_noop("The bank is covered: {guest}'s stake of {amount} is refused.")
MSG_COVERS_EXCEED_BANK = gettext_noop(
    "The stakes ({covered}) are more than the bank of {bank}: it plays only what it holds."
)
MSG_TAXE_RATE = gettext_noop("The taxe is from 0 to 10% of the banker's winnings, not {rate}.")
MSG_NO_MONEY_OUT = gettext_noop(
    "The banker may not take money out while holding the bank ({amount} asked)."
)
MSG_BANK_LOST = gettext_noop("The bank lost the coup: it passes to the right and cannot be kept.")
MSG_BANK_KEPT = gettext_noop(
    "The bank won or tied the coup: it passes only if its holder gives it up."
)
MSG_SUITE_AFTER_LOSS = gettext_noop(
    "The bank lost the coup: there is nothing to offer, it passes to the right."
)
MSG_NOT_SEATED = gettext_noop("{guest} has no seat at the table.")
MSG_NOBODY_TO_TAKE = gettext_noop("Nobody else is seated to take the bank.")
MSG_BID_TOO_LOW = gettext_noop("{guest}'s bid of {amount} is below the minimum banco of {minimum}.")


class BankError(RuleError):
    """A bank, a stake or a move that Chemin de fer does not allow; the message names the rule."""


def check_amount(amount: Decimal, positive: str, cents: str, **params: object) -> None:
    if not amount > 0:
        raise BankError(positive, amount=amount, **params)
    if not whole_cents(amount):
        raise BankError(cents, amount=amount, **params)


# --- the bank ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bank:
    """Who holds the bank (and shares it, in a banco double) and how much is on the table."""

    banker: Guest
    amount: Decimal
    co_banker: Guest | None = None

    def __post_init__(self) -> None:
        check_amount(self.amount, MSG_BANK_NOT_POSITIVE, MSG_BANK_CENTS)
        if self.co_banker is not None and self.co_banker == self.banker:
            raise BankError(MSG_CO_BANKER_IS_BANKER, guest=self.banker)

    def holds(self, guest: Guest) -> bool:
        return guest == self.banker or (self.co_banker is not None and guest == self.co_banker)


def bank_open(
    banker: Guest,
    amount: Decimal,
    *,
    co_banker: Guest | None = None,
    minimum_banco: Decimal | None = None,
) -> Bank:
    """A new bank: the amount its holder sets, at least the table's minimum banco; or, shared from
    the start (banco double), two equal halves in whole cents, each at least the minimum."""
    bank = Bank(banker, amount, co_banker)
    own = amount
    if co_banker is not None:
        own = amount / 2
        if not whole_cents(own):
            raise BankError(MSG_CO_BANKER_CENTS, amount=amount)
    if minimum_banco is not None and own < minimum_banco:
        raise BankError(MSG_BANK_BELOW_MINIMUM, amount=own, minimum=minimum_banco)
    return bank


def shares(bank: Bank, amount: Decimal) -> tuple[Decimal, Decimal]:
    """``amount`` split between banker and co-banker: (banker's, co-banker's). Without a
    co-banker the banker has it all. With one, the co-banker's half is rounded by
    :func:`round_money` (half away from zero), the banker has the rest: an odd cent of a gain goes
    to the co-banker, an odd cent of a loss is his too."""
    if bank.co_banker is None:
        return amount, ZERO
    co_share = round_money(amount / 2)
    return amount - co_share, co_share


# --- covers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cover:
    """A ponte's stake against the bank, and how it was called."""

    guest: Guest
    amount: Decimal
    kind: CoverKind = CoverKind.ORDINARY


@dataclass(frozen=True)
class Refusal:
    cover: Cover
    error: BankError


@dataclass(frozen=True)
class CoverResult:
    """What the bank plays against: the covers held (in seat order), those refused with the rule,
    what was not covered (back to the banker) and who holds the cards (``None``: no coup)."""

    bank: Bank
    accepted: tuple[Cover, ...]
    refused: tuple[Refusal, ...]
    uncovered: Decimal
    card_holder: Guest | None

    @property
    def covered(self) -> Decimal:
        return self.bank.amount - self.uncovered


def seat_order(banker_seat: int, seats: Iterable[int]) -> list[int]:
    """The occupied ``seats`` from the banker's right round to his left (the banker's own seat
    left out): banker's seat + 1, + 2, … wrapping round (see the module's note on seats)."""
    others = sorted(set(seats) - {banker_seat})
    return [seat for seat in others if seat > banker_seat] + [
        seat for seat in others if seat < banker_seat
    ]


def in_seat_order(
    offers: Iterable[Cover], seat_of: Mapping[Guest, int], banker_seat: int
) -> list[Cover]:
    """Offers sorted from the banker's right, as :func:`covers_accepted` reads them (an offer from
    the banker's own seat last, for :func:`covers_accepted` to refuse)."""
    order = {seat: place for place, seat in enumerate(seat_order(banker_seat, seat_of.values()))}
    order[banker_seat] = len(order)
    offers = list(offers)
    for offer in offers:
        if offer.guest not in seat_of:
            raise BankError(MSG_NOT_SEATED, guest=offer.guest)
    return sorted(offers, key=lambda offer: order[seat_of[offer.guest]])


class _Refuser:
    def __init__(self) -> None:
        self.refused: list[Refusal] = []

    def __call__(self, offer: Cover, template: str, **params: object) -> None:
        self.refused.append(Refusal(offer, BankError(template, **params)))


def _whole_bancos(
    bank: Bank, offers: list[Cover], suivi: Guest | None, refuse: _Refuser
) -> Cover | None:
    """The banco solo (or suivi) that stands, if any; the other calls refused."""
    calls = []
    for offer in offers:
        if offer.kind is CoverKind.SUIVI and (suivi is None or offer.guest != suivi):
            refuse(offer, MSG_SUIVI_NOT_ENTITLED, guest=offer.guest)
        elif offer.amount != bank.amount:
            refuse(offer, MSG_BANCO_WHOLE_BANK, bank=bank.amount, amount=offer.amount)
        else:
            calls.append(offer)
    # suivi first, then the nearest the banker's right ("Prime")
    calls.sort(key=lambda offer: offer.kind is not CoverKind.SUIVI)
    if not calls:
        return None
    holder = calls[0]
    for offer in calls[1:]:
        template = MSG_SUIVI_FIRST if holder.kind is CoverKind.SUIVI else MSG_PRIME
        refuse(offer, template, holder=holder.guest)
    return holder


def covers_accepted(
    bank: Bank,
    offers: Sequence[Cover],
    *,
    suivi: Guest | None = None,
    minimum_banco: Decimal | None = None,
) -> CoverResult:
    """Which stakes the bank holds. ``offers`` come in seat order from the banker's right
    (:func:`in_seat_order`); ``suivi`` is the ponte who lost the last banco (:func:`suivi_for`),
    the one guest who may call suivi; with ``minimum_banco`` a stake must be at least 10% of it.

    Every offer ends up accepted or refused with the rule (see the module's note)."""
    refuse = _Refuser()
    seen: set[Guest] = set()
    valid: list[Cover] = []
    minimum = None if minimum_banco is None else round_money(minimum_banco * PONTE_MINIMUM_SHARE)
    for offer in offers:
        if offer.guest == bank.banker:
            refuse(offer, MSG_BANKER_AGAINST_HIMSELF, guest=offer.guest)
        elif bank.co_banker is not None and offer.guest == bank.co_banker:
            refuse(offer, MSG_CO_BANKER_AGAINST_HIMSELF, guest=offer.guest)
        elif offer.guest in seen:
            refuse(offer, MSG_ONE_STAKE_EACH, guest=offer.guest)
        elif not offer.amount > 0:
            refuse(offer, MSG_STAKE_NOT_POSITIVE, guest=offer.guest, amount=offer.amount)
        elif not whole_cents(offer.amount):
            refuse(offer, MSG_STAKE_CENTS, guest=offer.guest, amount=offer.amount)
        elif minimum is not None and offer.amount < minimum:
            refuse(
                offer,
                MSG_STAKE_BELOW_MINIMUM,
                guest=offer.guest,
                amount=offer.amount,
                minimum=minimum,
            )
        else:
            seen.add(offer.guest)
            valid.append(offer)

    def of_kind(*kinds: CoverKind) -> list[Cover]:
        return [offer for offer in valid if offer.kind in kinds]

    accepted: list[Cover] = []
    solo = _whole_bancos(bank, of_kind(CoverKind.SUIVI, CoverKind.BANCO_SOLO), suivi, refuse)
    if solo is not None:
        accepted = [solo]
        for offer in of_kind(CoverKind.BANCO_A_DEUX, CoverKind.AVEC_LA_TABLE, CoverKind.ORDINARY):
            refuse(offer, MSG_BANCO_SOLO_STANDS, holder=solo.guest)
        return _result(bank, offers, accepted, refuse)

    pair = of_kind(CoverKind.BANCO_A_DEUX)
    if len(pair) == 1:
        refuse(pair[0], MSG_A_DEUX_ALONE, guest=pair[0].guest)
    elif pair:
        first, second, *late = pair
        for offer in late:
            refuse(offer, MSG_A_DEUX_TAKEN, first=first.guest, second=second.guest)
        together = first.amount + second.amount
        if together == bank.amount:
            for offer in of_kind(CoverKind.AVEC_LA_TABLE, CoverKind.ORDINARY):
                refuse(offer, MSG_A_DEUX_STANDS, first=first.guest, second=second.guest)
            return _result(bank, offers, [first, second], refuse)
        for offer in (first, second):
            refuse(offer, MSG_A_DEUX_WHOLE_BANK, bank=bank.amount, amount=together)

    left = bank.amount
    avec = None
    half = round_money(bank.amount / 2)
    for offer in of_kind(CoverKind.AVEC_LA_TABLE):
        if avec is not None:
            refuse(offer, MSG_AVEC_TAKEN, holder=avec.guest)
        elif offer.amount != half:
            refuse(offer, MSG_AVEC_HALF, half=half, amount=offer.amount)
        else:
            avec = offer
            accepted.append(offer)
            left -= offer.amount
    for offer in of_kind(CoverKind.ORDINARY):
        if left == 0:
            refuse(offer, MSG_BANK_COVERED, guest=offer.guest, amount=offer.amount)
        elif offer.amount > left:
            refuse(offer, MSG_STAKE_EXCEEDS, guest=offer.guest, amount=offer.amount, left=left)
        else:
            accepted.append(offer)
            left -= offer.amount
    return _result(bank, offers, accepted, refuse)


def _result(
    bank: Bank, offers: Sequence[Cover], accepted: list[Cover], refuse: _Refuser
) -> CoverResult:
    place = {id(offer): index for index, offer in enumerate(offers)}
    held = tuple(sorted(accepted, key=lambda offer: place[id(offer)]))
    refused = tuple(sorted(refuse.refused, key=lambda refusal: place[id(refusal.cover)]))
    return CoverResult(
        bank=bank,
        accepted=held,
        refused=refused,
        uncovered=bank.amount - sum((offer.amount for offer in held), ZERO),
        card_holder=card_holder(held),
    )


def card_holder(covers: Sequence[Cover]) -> Guest | None:
    """Who holds the Player hand: the largest stake; on equal stakes a banco before an ordinary
    stake, then the nearer the banker's right (``covers`` in seat order)."""
    if not covers:
        return None
    ranked = sorted(
        enumerate(covers), key=lambda item: (-item[1].amount, not item[1].kind.is_banco, item[0])
    )
    return ranked[0][1].guest


# --- a coup ------------------------------------------------------------------------------------


class TaxeKind(StrEnum):
    PERCENT_OF_BANKER_WIN = "percent_of_banker_win"
    FIXED_PER_SHOE = "fixed_per_shoe"  # charged once a shoe by the ledger, nothing per coup


@dataclass(frozen=True)
class Taxe:
    """The house's cut, chosen per event."""

    kind: TaxeKind = TaxeKind.PERCENT_OF_BANKER_WIN
    rate: Decimal = TAXE_RATE

    def __post_init__(self) -> None:
        if not ZERO <= self.rate <= MAX_COMMISSION:
            raise BankError(MSG_TAXE_RATE, rate=self.rate)

    def on_win(self, winnings: Decimal) -> Decimal:
        """The cut of a banker's winning coup."""
        if self.kind is TaxeKind.FIXED_PER_SHOE:
            return ZERO
        return round_money(winnings * self.rate)


class BankResult:
    """What a settled coup says of each guest (Chemin de fer's and Baccara banque's alike)."""

    bank: Bank
    ponte_nets: tuple[tuple[Guest, Decimal], ...]
    banker_net: Decimal
    co_banker_net: Decimal

    @property
    def bank_net(self) -> Decimal:
        """The bank's result: banker's and co-banker's together."""
        return self.banker_net + self.co_banker_net

    @property
    def nets(self) -> dict[Guest, Decimal]:
        """Every guest's result, banker and co-banker included."""
        result: dict[Guest, Decimal] = {self.bank.banker: self.banker_net}
        if self.bank.co_banker is not None:
            result[self.bank.co_banker] = self.co_banker_net
        for guest, net in self.ponte_nets:
            result[guest] = result.get(guest, ZERO) + net
        return result


@dataclass(frozen=True)
class CoupMoney(BankResult):
    """A coup settled. Nets are results of the coup (a stake returned is no result);
    ``returned`` is the uncovered part of the bank, back to its holders; ``bank_after`` what is
    on the table when the coup is paid. Guests' nets and the house's cut sum to zero."""

    bank: Bank
    winner: Winner
    covers: tuple[Cover, ...]
    ponte_nets: tuple[tuple[Guest, Decimal], ...]
    banker_net: Decimal
    co_banker_net: Decimal
    house_cut: Decimal
    returned: Decimal
    bank_after: Decimal

    @property
    def covered(self) -> Decimal:
        return self.bank.amount - self.returned


def settle_coup(
    bank: Bank, covers: Sequence[Cover], winner: Winner, taxe: Taxe = Taxe()
) -> CoupMoney:
    """Pay a coup: ``covers`` are the stakes the bank held (:attr:`CoverResult.accepted`),
    ``winner`` is :attr:`Winner.PLAYER` when the pontes' hand wins, :attr:`Winner.TIE` for an
    égalité."""
    for cover in covers:
        if bank.holds(cover.guest):
            template = (
                MSG_BANKER_AGAINST_HIMSELF
                if cover.guest == bank.banker
                else MSG_CO_BANKER_AGAINST_HIMSELF
            )
            raise BankError(template, guest=cover.guest)
        check_amount(cover.amount, MSG_STAKE_NOT_POSITIVE, MSG_STAKE_CENTS, guest=cover.guest)
    covered = sum((cover.amount for cover in covers), ZERO)
    if covered > bank.amount:
        raise BankError(MSG_COVERS_EXCEED_BANK, covered=covered, bank=bank.amount)

    house_cut = ZERO
    if winner is Winner.PLAYER:  # the pontes win 1:1
        ponte_nets = tuple((cover.guest, cover.amount) for cover in covers)
        bank_net = -covered
    elif winner is Winner.BANKER:
        ponte_nets = tuple((cover.guest, -cover.amount) for cover in covers)
        house_cut = taxe.on_win(covered)
        bank_net = covered - house_cut
    else:  # égalité: the coup is void, every stake comes back
        ponte_nets = tuple((cover.guest, ZERO) for cover in covers)
        bank_net = ZERO
    banker_net, co_banker_net = shares(bank, bank_net)
    return CoupMoney(
        bank=bank,
        winner=winner,
        covers=tuple(covers),
        ponte_nets=ponte_nets,
        banker_net=banker_net,
        co_banker_net=co_banker_net,
        house_cut=house_cut,
        returned=bank.amount - covered,
        bank_after=covered + bank_net,
    )


# --- the bank's next holder --------------------------------------------------------------------


def bank_kept(money: CoupMoney, *, taken: Decimal = ZERO) -> Bank:
    """The bank after its holder keeps it: everything on the table plays on, nothing comes out."""
    if money.bank_after == 0:
        raise BankError(MSG_BANK_LOST)
    check_withdrawal(taken)
    return Bank(money.bank.banker, money.bank_after, money.bank.co_banker)


def check_withdrawal(amount: Decimal) -> None:
    """A banker asks to take money out of the bank he holds: always refused."""
    if amount != 0:
        raise BankError(MSG_NO_MONEY_OUT, amount=amount)


def seat_to_the_right(seat: int, seats: Iterable[int]) -> int:
    """The next occupied seat at the right of ``seat`` (see the module's note on seats)."""
    order = seat_order(seat, seats)
    if not order:
        raise BankError(MSG_NOBODY_TO_TAKE)
    return order[0]


def check_passes(money: CoupMoney) -> None:
    """A bank passes only when it lost: won or tied, it stays unless its holder gives it up. The
    next coup's bank is then the seat's at the right (:func:`seat_to_the_right`) of the banker,
    or, for a bank taken as a suite, of the banker who gave it."""
    if money.bank_after != 0:
        raise BankError(MSG_BANK_KEPT)


@dataclass(frozen=True)
class Suite:
    """A bank given up after a win: who takes it, how, and from whose seat the shoe passes
    when it loses (the banker who gave the suite: ``rotation_seat``)."""

    bank: Bank
    way: SuiteWay
    seat: int
    rotation_seat: int


def suite(
    money: CoupMoney,
    *,
    banker_seat: int,
    seated: Mapping[int, Guest],
    takers: Collection[Guest] = (),
    bids: Mapping[Guest, Decimal] | None = None,
    minimum_banco: Decimal,
    rotation_seat: int | None = None,
) -> Suite:
    """The bank given up ("Il y a une suite"): its holder takes his capital and winnings
    (``money.bank_after``); the bank is offered at that amount to each seat from his right, the
    first of ``takers`` takes it; otherwise the highest of ``bids`` (at least the minimum banco;
    equal bids: the nearer his right); otherwise the next in turn at the minimum banco: the seat
    the bank would have passed to had it lost, at the right of ``rotation_seat`` (the banker's
    own seat unless he holds the bank out of turn), never the banker himself."""
    if money.bank_after == 0:
        raise BankError(MSG_SUITE_AFTER_LOSS)
    order = seat_order(banker_seat, seated)
    if not order:
        raise BankError(MSG_NOBODY_TO_TAKE)
    for seat in order:
        if seated[seat] in takers:
            return Suite(Bank(seated[seat], money.bank_after), SuiteWay.TAKEN, seat, banker_seat)
    best: tuple[Decimal, int] | None = None
    for seat in order:
        bid = (bids or {}).get(seated[seat])
        if bid is None:
            continue
        if bid < minimum_banco:
            raise BankError(MSG_BID_TOO_LOW, guest=seated[seat], amount=bid, minimum=minimum_banco)
        if best is None or bid > best[0]:
            best = (bid, seat)
    if best is not None:
        bid, seat = best
        return Suite(Bank(seated[seat], bid), SuiteWay.AUCTIONED, seat, banker_seat)
    in_turn_after = banker_seat if rotation_seat is None else rotation_seat
    in_turn = seat_order(in_turn_after, order)
    if in_turn_after in order:  # round the table back to the rotation's own seat
        in_turn.append(in_turn_after)
    seat = in_turn[0]
    return Suite(Bank(seated[seat], minimum_banco), SuiteWay.NEXT_IN_TURN, seat, banker_seat)


def suivi_for(money: CoupMoney) -> Guest | None:
    """Who may call suivi on the next coup: the ponte whose banco solo (or suivi) lost."""
    if money.winner is Winner.BANKER and len(money.covers) == 1:
        (cover,) = money.covers
        if cover.kind in (CoverKind.BANCO_SOLO, CoverKind.SUIVI):
            return cover.guest
    return None
