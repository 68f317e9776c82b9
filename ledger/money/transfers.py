"""Settling a guest-banked night: who still owes whom, the transfers that settle it, and the
transfers recorded as they happen.

At Chemin de fer and Baccara banque the guests play against each other and the house only
takes its cut, so the night settles among them: each guest's balance for the night is their net
(``GuestEventResult.net``) plus what they settled there (settlements with the house, transfers
paid less received), the house's is minus the guests' (its cut, less what it has taken in), and
together they sum to zero. :func:`proposed_transfers` turns them into the fewest transfers
(``ledger.money.clearing.fewest_transfers``) or one per guest with the house
(``ledger.money.clearing.through_house``), as the event chose; the host records each transfer as it
happens (:func:`transfer_record`), in full or in part, and the proposal shrinks accordingly.
A recorded transfer never pays a guest more than they are still owed, nor more than a paying
guest still owes; the house is the clearing house and may hold what it passes on. So what is
left always settles exactly.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.chips import MAX_CHIPS
from games.messages import format_chips, whole_cents
from games.models import Event
from ledger.locks import hold_guests, lock_night
from ledger.models import AuditEntry, EventGuest, Guest, Transfer
from ledger.money.amounts import ZERO
from ledger.money.clearing import Transfer as Proposal
from ledger.money.clearing import fewest_transfers, through_house
from ledger.money.lines import balances as guest_balances
from ledger.money.lines import ledger_lines
from ledger.money.recording import Recording, record
from ledger.money.reversal import Reversal, line_character, reverse
from shoebook.base.live import announce_night
from shoebook.base.roles import Actor

# The house's key among the guests' ids in a night's balances (ids start at 1).
HOUSE = 0

MSG_NOT_GUEST_BANKED = _(
    "Transfers between guests are for guest-banked nights (Chemin de fer, Baccara banque)."
)
MSG_TRANSFER_NOT_POSITIVE = _("A transfer moves some money: enter an amount more than zero.")
MSG_TRANSFER_CENTS = _("A transfer is whole cents, at most {maximum}.")
MSG_TRANSFER_SELF = _("{payer} cannot pay {payer}: choose who receives it.")
MSG_TRANSFER_NOT_ON_LIST = _("{guest} is not on this event's guest list.")
MSG_PAYER_OWES_NOTHING = _("{payer} owes nothing tonight: there is nothing for them to pay.")
MSG_PAYEE_OWED_NOTHING = _("{payee} is owed nothing tonight: there is nothing to pay them.")
MSG_OVER_PAYER = _("{payer} owes {due} tonight: {amount} is more than that. Record at most {due}.")
MSG_OVER_PAYEE = _(
    "{payee} is owed {due} tonight: {amount} is more than that. Record at most {due}."
)
MSG_TRANSFER_NOTE_CHARACTER = _("A note cannot hold the invisible or control character {code}.")
MSG_TRANSFER_VOID_REASON = _("Say why the transfer is being voided.")
MSG_TRANSFER_ALREADY_VOIDED = _(
    "This transfer was already voided by {user} at {time}: nothing changed."
)
MSG_TRANSFER_VOID_OF_VOID = _(
    "This row is itself a void: it cannot be voided. Record a new transfer instead."
)
HOUSE_NAME = _("The house")


# --- the night's balances and what settles them -------------------------------------------


@dataclass(frozen=True)
class Party:
    """A guest on the night's list, or the house (``guest_id`` None)."""

    guest_id: int | None
    name: str

    @property
    def is_house(self) -> bool:
        return self.guest_id is None

    @property
    def key(self) -> int:
        """The party's key among a night's balances: the guest's id, or :data:`HOUSE`."""
        return HOUSE if self.guest_id is None else self.guest_id


@dataclass(frozen=True)
class NightBalances:
    """Each party's balance for the night (positive: owed, negative: owes), the house's
    included; they sum to zero."""

    event: Event
    parties: dict[int, Party]  # by key: a guest's id, or HOUSE
    balances: dict[int, Decimal]  # by the same key

    def party(self, key: int) -> Party:
        return self.parties[key]

    def of(self, guest_id: int | None) -> Decimal:
        return self.balances.get(HOUSE if guest_id is None else guest_id, ZERO)


def _house() -> Party:
    return Party(None, str(HOUSE_NAME))


def night_balances(event: Event) -> NightBalances:
    """Every guest on the list and the house, with what each is still owed (or owes) for this
    night: the sum of each guest's ledger lines at this event. Two queries."""
    parties = {HOUSE: _house()}
    parties |= {
        guest_id: Party(guest_id, name)
        for guest_id, name in Guest.objects.filter(events=event).values_list("id", "name")
    }
    balances: dict[int, Decimal] = defaultdict(lambda: ZERO)
    balances |= guest_balances(ledger_lines(events=Event.objects.filter(pk=event.pk)))
    # The house's side: minus the guests', so that it holds its cut less what it took in.
    balances[HOUSE] = -sum((amount for key, amount in balances.items() if key != HOUSE), ZERO)
    for key in balances:
        parties.setdefault(key, Party(key, f"#{key}"))  # off the list since: still settles
    return NightBalances(event, parties, {key: balances.get(key, ZERO) for key in parties})


@dataclass(frozen=True)
class ProposedTransfer:
    """One line of the settlement proposal: ``payer`` pays ``payee`` ``amount``."""

    payer: Party
    payee: Party
    amount: Decimal


def proposed_transfers(
    event: Event, balances: NightBalances | None = None
) -> list[ProposedTransfer]:
    """Who pays whom to settle what is still open of a guest-banked night: the fewest transfers
    (event.clearing "direct") or everyone with the house ("house"), to the cent, by payer then
    payee. Empty for a Punto Banco night (its guests settle with the house: the settlement
    list). Two queries (none given ``balances``)."""
    if not event.is_guest_banked:
        return []
    balances = balances or night_balances(event)
    if event.clearing == Event.Clearing.HOUSE:
        plan: list[Proposal[int]] = through_house(balances.balances, HOUSE)
    else:
        plan = fewest_transfers(balances.balances)
    return [
        ProposedTransfer(balances.party(line.payer), balances.party(line.payee), line.amount)
        for line in plan
    ]


@dataclass
class TransferRow:
    """A transfer recorded at an event, with the row that voids it or the row it voids."""

    transfer: Transfer
    voided_by: Transfer | None = None
    void_of: Transfer | None = None

    @property
    def can_void(self) -> bool:
        return self.voided_by is None and self.transfer.voids_id is None


def event_transfer_rows(event: Event) -> list[TransferRow]:
    """Every transfer recorded at the event, voids and what they void included, oldest first,
    with payer, payee and who recorded it: one query."""
    transfers = list(
        Transfer.objects.filter(event=event)
        .select_related("payer", "payee", "recorded_by")
        .order_by("recorded_at", "id")
    )
    by_id = {t.pk: t for t in transfers}
    voids = {t.voids_id: t for t in transfers if t.voids_id is not None}
    return [
        TransferRow(
            t,
            voided_by=voids.get(t.pk),
            void_of=by_id.get(t.voids_id) if t.voids_id is not None else None,
        )
        for t in transfers
    ]


# --- recording ------------------------------------------------------------------------------


def _name(guest: Guest | None) -> str:
    return guest.name if guest is not None else str(HOUSE_NAME)


def _check_amount(amount: Decimal) -> None:
    if not amount.is_finite() or abs(amount) > MAX_CHIPS or not whole_cents(amount):
        message = MSG_TRANSFER_CENTS.format(maximum=format_chips(MAX_CHIPS))
        raise ValidationError({"amount": message})
    if amount <= 0:
        raise ValidationError({"amount": MSG_TRANSFER_NOT_POSITIVE})


def _check_parties(event: Event, payer: Guest | None, payee: Guest | None) -> None:
    if payer == payee:  # a guest to himself, or the house to itself
        raise ValidationError({"payee": MSG_TRANSFER_SELF.format(payer=_name(payer))})
    listed = set(
        EventGuest.objects.filter(
            event=event, guest__in=[g for g in (payer, payee) if g is not None]
        ).values_list("guest_id", flat=True)
    )
    for field, guest in (("payer", payer), ("payee", payee)):
        if guest is not None and guest.pk not in listed:
            raise ValidationError({field: MSG_TRANSFER_NOT_ON_LIST.format(guest=guest.name)})


def _check_due(
    balances: NightBalances, payer: Guest | None, payee: Guest | None, amount: Decimal
) -> None:
    """Refused past what a paying guest still owes or a paid guest is still owed tonight: a
    transfer settles open balances, it never opens new ones. The house is the clearing house:
    it may take in what it passes on, or pay out ahead of what it takes in, so only the guests'
    sides are held to what is due."""
    symbol = balances.event.currency_symbol
    shown = format_chips(amount, symbol)
    if payer is not None:
        owes = -balances.of(payer.pk)
        if owes <= 0:
            raise ValidationError({"payer": MSG_PAYER_OWES_NOTHING.format(payer=payer.name)})
        if amount > owes:
            due = format_chips(owes, symbol)
            message = MSG_OVER_PAYER.format(payer=payer.name, due=due, amount=shown)
            raise ValidationError({"amount": message})
    if payee is not None:
        owed = balances.of(payee.pk)
        if owed <= 0:
            raise ValidationError({"payee": MSG_PAYEE_OWED_NOTHING.format(payee=payee.name)})
        if amount > owed:
            due = format_chips(owed, symbol)
            message = MSG_OVER_PAYEE.format(payee=payee.name, due=due, amount=shown)
            raise ValidationError({"amount": message})


def transfer_snapshot(transfer: Transfer) -> dict[str, object]:
    """A transfer as plain JSON for the audit log (amounts as text)."""
    return {
        "id": transfer.pk,
        "payer": _name(transfer.payer),
        "payer_id": transfer.payer_id,
        "payee": _name(transfer.payee),
        "payee_id": transfer.payee_id,
        "amount": f"{transfer.amount:.2f}",
        "note": transfer.note,
        "recorded_at": transfer.recorded_at.isoformat(),
    }


def _summary(transfer: Transfer) -> str:
    return f"{_name(transfer.payer)} → {_name(transfer.payee)}"


@transaction.atomic
def transfer_record(
    *,
    event: Event,
    payer: Guest | None,
    payee: Guest | None,
    amount: Decimal,
    by: Actor,
    note: str = "",
    idempotency_key: uuid.UUID | None = None,
    in_chips: bool = False,
) -> Transfer:
    """Record that ``payer`` paid ``payee`` ``amount`` at a guest-banked night (``None``: the
    house), in full or in part: positive whole cents, between two different parties on the
    night's list, no more than a paying guest still owes or a paid guest is still owed (the
    house, the clearing house, may hold what it passes on). A form sent again with the same
    ``idempotency_key`` records nothing more: the first row returns; the same key with other
    content is refused."""
    if not event.is_guest_banked:
        raise ValidationError({NON_FIELD_ERRORS: MSG_NOT_GUEST_BANKED})
    _check_amount(amount)
    refused = line_character(note)
    if refused is not None:
        raise ValidationError({"note": MSG_TRANSFER_NOTE_CHARACTER.format(code=refused)})
    _check_parties(event, payer, payee)
    # One transfer of a night at a time: each checks what is still due after the one before.
    event = lock_night(event)
    hold_guests([party.pk for party in (payer, payee) if party is not None])
    transfer = Transfer(
        event=event, payer=payer, payee=payee, amount=amount, in_chips=in_chips, note=note.strip()
    )
    recorded = record(TRANSFER_RECORDING, transfer, by=by, idempotency_key=idempotency_key)
    if recorded.new:
        announce_night(event.pk, "transfer", [transfer.payer_id, transfer.payee_id])
    return recorded.row


def _check_still_due(transfer: Transfer) -> None:
    balances = night_balances(transfer.event)
    _check_due(balances, transfer.payer, transfer.payee, transfer.amount)


def _transfer_words(transfer: Transfer) -> str:
    amount = format_chips(transfer.amount, transfer.event.currency_symbol)
    return gettext("a transfer of {amount} from {payer} to {payee} at {event}").format(
        amount=amount,
        payer=_name(transfer.payer),
        payee=_name(transfer.payee),
        event=transfer.event.name,
    )


TRANSFER_RECORDING = Recording(
    model=Transfer,
    content=lambda t: (t.event_id, t.payer_id, t.payee_id, t.amount, t.note, t.in_chips),
    words=_transfer_words,
    snapshot=transfer_snapshot,
    summary=_summary,
    action=AuditEntry.Action.SETTLEMENT,
    check=_check_still_due,
)


def _opposite_transfer(original: Transfer, reason: str, by: Actor) -> Transfer:
    """The payee pays the payer the same amount back."""
    return Transfer(
        event=original.event,
        payer=original.payee,
        payee=original.payer,
        amount=original.amount,
        in_chips=original.in_chips,
        note=reason,
        voids=original,
        recorded_by=by,
    )


TRANSFER_REVERSAL = Reversal(
    model=Transfer,
    related=("payer", "payee", "event"),
    opposite=_opposite_transfer,
    snapshot=transfer_snapshot,
    summary=_summary,
    reason_required=MSG_TRANSFER_VOID_REASON,
    reason_character=MSG_TRANSFER_NOTE_CHARACTER,
    void_of_void=MSG_TRANSFER_VOID_OF_VOID,
    already_voided=MSG_TRANSFER_ALREADY_VOIDED,
)


@transaction.atomic
def transfer_void(*, transfer: Transfer, reason: str, by: Actor) -> Transfer:
    """Reverse a transfer recorded by mistake: a new row the other way (payee pays payer the
    same amount), pointing at it, the reason as its note (see :mod:`ledger.money.reversal`)."""
    lock_night(transfer.event_id)
    void = reverse(TRANSFER_REVERSAL, transfer, reason=reason, by=by)
    announce_night(transfer.event_id, "transfer", [transfer.payer_id, transfer.payee_id])
    return void
