"""A guest's receipt for one night: a statement. It starts from the balance carried in, lists
every line that moved the balance that night — the hands' result (shoe by shoe beside it), a
tournament's entry fee, rebuys, add-ons and prize, each expense the guest paid or shares (what
they paid less their share) and its void, each settlement and its void, each transfer between
guests — and ends on the balance carried, which those lines add up to, for every kind
of night.

Reads only; every figure is the ledger's (:mod:`ledger.money.lines` through
:func:`ledger.money.results.guest_history`, the rows themselves for the lines). The HTML page and
the PDF (``ledger.workbook.pdf``) draw the same :class:`Receipt`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Event
from ledger.count.selectors import ChipsTakenAndCounted, guest_chips
from ledger.expenses.selectors import guest_expense_rows
from ledger.guests.sharing import plain_text
from ledger.models import Adjustment, Charge, CountSetup, Guest, Settlement, Tip, Transfer
from ledger.money.amounts import ZERO, MoneyByCurrency, format_chips, to_money
from ledger.money.results import Figures, InMoney, guest_history
from ledger.payways.selectors import PayRequest, pay_request
from shoebook.base.downloads import safe_filename

MSG_RESULT = _("Result of the hands")
MSG_COUP_RESULT = _("Result of the coups")
MSG_GUEST_OWES_HOUSE = _("The guest owes the house.")
MSG_HOUSE_OWES = _("The house owes the guest.")
MSG_SQUARE = _("Square.")
# A guest-banked night is settled between the guests (ledger.money.transfers), not with the house.
MSG_GUEST_OWES = _("The guest owes the other guests: the transfers say whom.")
MSG_GUEST_IS_OWED = _("The other guests owe the guest: the transfers say who.")
MSG_COUNT_RESULT = _("Result of the count (chips handed back less chips taken)")
MSG_RECEIPT_FILE = _("receipt")  # the PDF's file name: receipt-2026-11-20-Aki.pdf
MSG_ADJUSTMENT = _("Adjustment from the count")
MSG_ADJUSTMENT_VOID = _("Void of adjustment No. {number}")
MSG_TIP = _("Tip to the dealers ({source})")
MSG_TIP_VOID = _("Void of tip No. {number}")
MSG_PAID_HOUSE = _("Paid the house ({method})")
MSG_PAID_BY_HOUSE = _("Received from the house ({method})")
MSG_SETTLEMENT_VOID = _("Void of settlement No. {number} ({method})")
MSG_PAID_GUEST = _("Paid {other}")
MSG_PAID_BY_GUEST = _("Received from {other}")
MSG_TRANSFER_VOID = _("Void of transfer No. {number}: {words}")
MSG_EXPENSE_PAID_SHARE = _("{what}: paid {paid}, your share {share}")
MSG_EXPENSE_SHARE = _("{what}: your share (paid by {payer})")
MSG_EXPENSE_SHARE_OF_THE_HOUSE = _("{what}: your share (paid by the house)")
MSG_EXPENSE_PAID = _("{what}: paid {paid}, shared by others")
MSG_EXPENSE_VOID = _("Void of expense No. {number}: {words}")
MSG_PAID_HOUSE_TRANSFER = _("Paid the house")
MSG_PAID_BY_HOUSE_TRANSFER = _("Received from the house")


@dataclass(frozen=True)
class ReceiptRow(InMoney):
    """One shoe of a guest's night (``number`` is ``None`` on the night's total)."""

    number: int | None
    figures: Figures
    money_per_chip: Decimal
    currency: str


@dataclass(frozen=True)
class StatementLine:
    """One line that moved the balance: what it was, in words, and the amount as the balance
    reads it (a win, a prize, a payment to the house: up; a loss, a fee, money received:
    down). ``mark``: "void" on a void, "voided" on the row a void reverses."""

    kind: str  # "result", "charge", "adjustment", "tip", "expense", "settlement" or "transfer"
    words: str
    note: str
    amount: Decimal
    money: Decimal  # in the night's currency
    mark: str = ""


@dataclass(frozen=True)
class Receipt:
    guest: Guest
    event: Event
    shoes: list[ReceiptRow]
    total: ReceiptRow
    carried_in: Decimal
    carried_in_money: MoneyByCurrency  # each earlier night at its rate, per currency
    lines: list[StatementLine]  # what moved the balance that night, in order
    balance: Decimal  # after this event: carried in plus the lines
    balance_money: MoneyByCurrency
    chips: ChipsTakenAndCounted | None = None  # the chips taken and counted, if the night counted
    # How to pay the balance (``ledger.payways``): on the receipt of the guest's latest night
    # with the house, while the balance it ends on is the guest's balance still.
    pay: PayRequest | None = None

    @property
    def name(self) -> str:
        return plain_text(self.guest.name)

    @property
    def balance_words(self) -> str:
        """Who owes whom once the night is carried: the house, or at a guest-banked night the
        other guests."""
        if not self.balance:
            return str(MSG_SQUARE)
        if self.event.is_guest_banked:
            return str(MSG_GUEST_OWES if self.balance < 0 else MSG_GUEST_IS_OWED)
        return str(MSG_GUEST_OWES_HOUSE if self.balance < 0 else MSG_HOUSE_OWES)

    @property
    def moved(self) -> Decimal:
        return sum((line.amount for line in self.lines), ZERO)

    @property
    def settled(self) -> Decimal:
        """What the settlements and transfers moved (the pages' "settled")."""
        kinds = ("settlement", "transfer")
        return sum((line.amount for line in self.lines if line.kind in kinds), ZERO)


def guest_receipt(guest: Guest, event: Event, *, with_qr: bool = True) -> Receipt:
    """The guest's night at ``event`` as a statement (see the module's doc). ``with_qr``: the
    request's QR codes as the page's SVG (the PDF draws its own)."""
    history = guest_history(guest)
    rate = event.money_per_chip
    shoes = [
        ReceiptRow(number, figures, rate, event.currency)
        for number, figures in history.shoes.get(event.pk, [])
    ]
    total = Figures()
    for row in shoes:
        total.add(row.figures)
    order = (event.date, event.pk)
    before = [p for p in history.points if (p.event.date, p.event.pk) < order]
    tonight = next((p for p in history.points if p.event.pk == event.pk), None)
    carried_in = before[-1].balance if before else ZERO
    # Nothing carried in is nothing in the night's own currency (€0.00 at a euro night, not ¥0).
    carried_in_money = before[-1].balance_money if before else {event.currency: ZERO}
    lines = _result_lines(guest, event, tonight.result if tonight else ZERO)
    chips = guest_chips(guest, [event.pk]).get(event.pk)
    lines += _settlement_lines(
        [s for s in history.settlements if s.event_id == event.pk], history.voided, event
    )
    lines += _transfer_lines(guest, event)
    latest = bool(history.points) and history.points[-1].event.pk == event.pk
    pay = None
    if latest and not event.is_guest_banked:
        pay = pay_request(guest, history.balance_money, event, with_qr=with_qr)
    return Receipt(
        guest=guest,
        event=event,
        shoes=shoes,
        total=ReceiptRow(None, total, rate, event.currency),
        carried_in=carried_in,
        carried_in_money=carried_in_money,
        lines=lines,
        balance=tonight.balance if tonight else carried_in,
        balance_money=tonight.balance_money if tonight else carried_in_money,
        chips=chips,
        pay=pay,
    )


def _result_lines(guest: Guest, event: Event, result: Decimal) -> list[StatementLine]:
    """The night's result: a tournament's charges one by one, the count's adjustments one by
    one, and the hands' result (what is left of the result once those are counted) when there
    were hands, or the count's at a night kept by its count alone."""
    rate, currency = event.money_per_chip, event.currency
    charges = list(Charge.objects.filter(guest=guest, event=event).order_by("recorded_at", "id"))
    lines = [
        StatementLine(
            "charge",
            str(charge.get_kind_display()),
            plain_text(charge.note),
            charge.amount,
            to_money(charge.amount, rate, event.currency),
        )
        for charge in charges
    ]
    adjustments = list(
        Adjustment.objects.filter(guest=guest, event=event).order_by("recorded_at", "id")
    )
    voided = {row.voids_id for row in adjustments if row.voids_id is not None}
    for row in adjustments:
        words = MSG_ADJUSTMENT_VOID.format(number=row.voids_id) if row.voids_id else MSG_ADJUSTMENT
        mark = "void" if row.voids_id else "voided" if row.pk in voided else ""
        note = plain_text(row.reason)
        lines.append(
            StatementLine(
                "adjustment",
                str(words),
                note,
                row.amount,
                to_money(row.amount, rate, currency),
                mark,
            )
        )
    # A tip leaves the balance (for the dealers' pool) with the night's result.
    tips = list(Tip.objects.filter(guest=guest, event=event).order_by("recorded_at", "id"))
    voided_tips = {row.voids_id for row in tips if row.voids_id is not None}
    for tip in tips:
        if tip.voids_id:
            words = MSG_TIP_VOID.format(number=tip.voids_id)
        else:
            words = MSG_TIP.format(source=tip.get_source_display())
        mark = "void" if tip.voids_id else "voided" if tip.pk in voided_tips else ""
        amount = -tip.amount
        note = plain_text(tip.note)
        money = to_money(amount, rate, currency)
        lines.append(StatementLine("tip", str(words), note, amount, money, mark))
    lines += _expense_lines(guest, event)
    hands = result - sum((line.amount for line in lines), ZERO)
    if hands or not lines:
        count_only = CountSetup.objects.filter(event=event, count_only=True).exists()
        words = (
            MSG_COUNT_RESULT
            if count_only
            else MSG_COUP_RESULT
            if event.is_guest_banked
            else MSG_RESULT
        )
        lines.insert(
            0, StatementLine("result", str(words), "", hands, to_money(hands, rate, currency))
        )
    return lines


def _expense_lines(guest: Guest, event: Event) -> list[StatementLine]:
    """Each expense the guest paid or shares at the night: up by what they paid, down by their
    share, as the balance reads it; a void the other way."""
    rate, symbol, currency = event.money_per_chip, event.currency_symbol, event.currency
    lines = []
    for row in guest_expense_rows(guest, [event.pk]):
        expense = row.expense
        paid = expense.amount if expense.paid_by_id == guest.pk else ZERO
        share = row.share_of(guest.pk)
        what = plain_text(expense.what)
        if paid and share:
            words = MSG_EXPENSE_PAID_SHARE.format(
                what=what,
                paid=format_chips(abs(paid), symbol),
                share=format_chips(abs(share), symbol),
            )
        elif paid:
            words = MSG_EXPENSE_PAID.format(what=what, paid=format_chips(abs(paid), symbol))
        else:
            if expense.paid_by is None:
                words = MSG_EXPENSE_SHARE_OF_THE_HOUSE.format(what=what)
            else:
                words = MSG_EXPENSE_SHARE.format(what=what, payer=plain_text(expense.paid_by.name))
        if expense.voids_id is not None:
            words = MSG_EXPENSE_VOID.format(number=expense.voids_id, words=words)
        mark = "void" if expense.voids_id else "voided" if row.voided_by else ""
        amount = paid - share
        lines.append(
            StatementLine(
                "expense",
                str(words),
                plain_text(expense.note),
                amount,
                to_money(amount, rate, currency),
                mark,
            )
        )
    return lines


def _settlement_lines(
    settlements: list[Settlement], voided: set[int], event: Event
) -> list[StatementLine]:
    lines = []
    for settlement in settlements:
        method = settlement.how
        if settlement.voids_id is not None:
            words = MSG_SETTLEMENT_VOID.format(number=settlement.voids_id, method=method)
        else:
            template = MSG_PAID_HOUSE if settlement.amount > 0 else MSG_PAID_BY_HOUSE
            words = template.format(method=method)
        mark = "void" if settlement.voids_id else "voided" if settlement.pk in voided else ""
        lines.append(
            StatementLine(
                "settlement",
                str(words),
                plain_text(settlement.note),
                settlement.amount,
                to_money(settlement.amount, event.money_per_chip, event.currency),
                mark,
            )
        )
    return lines


def _transfer_lines(guest: Guest, event: Event) -> list[StatementLine]:
    """Each transfer the guest paid or received at the night: up by what they paid, down by
    what they received, as the balance reads a transfer."""
    transfers = list(
        Transfer.objects.filter(Q(payer=guest) | Q(payee=guest), event=event)
        .select_related("payer", "payee")
        .order_by("recorded_at", "id")
    )
    voided = {transfer.voids_id for transfer in transfers if transfer.voids_id is not None}
    lines = []
    for transfer in transfers:
        paid = transfer.payer_id == guest.pk
        other = transfer.payee if paid else transfer.payer
        if other is None:
            words = str(MSG_PAID_HOUSE_TRANSFER if paid else MSG_PAID_BY_HOUSE_TRANSFER)
        else:
            template = MSG_PAID_GUEST if paid else MSG_PAID_BY_GUEST
            words = template.format(other=plain_text(other.name))
        if transfer.voids_id is not None:
            words = MSG_TRANSFER_VOID.format(number=transfer.voids_id, words=words)
        amount = transfer.amount if paid else -transfer.amount
        mark = "void" if transfer.voids_id else "voided" if transfer.pk in voided else ""
        lines.append(
            StatementLine(
                "transfer",
                str(words),
                plain_text(transfer.note),
                amount,
                to_money(amount, event.money_per_chip, event.currency),
                mark,
            )
        )
    return lines


def receipt_filename(receipt: Receipt) -> str:
    """The PDF's file name: the event's date and the guest's name (plain text only)."""
    name = plain_text(receipt.guest.name)
    return safe_filename(f"{MSG_RECEIPT_FILE}-{receipt.event.date:%Y-%m-%d}-{name}.pdf")
