"""The registry of write moves: every write service of a night, each as one request a device
sends through the real views and middleware (``django.test.Client``).

A move names the services it runs (``services``: what ``tests/races/test_registry.py`` holds
against the code) and the kinds of night it is played on (``kinds``; a move that belongs to no one
night, a merge, an invitation or an import, plays on any). ``prepare`` readies the night for it
before the race (a hand to undo, a settlement to void: made through the services, so the race
is only the move itself) and returns a ``Play``: the request to send, and how to find what it
wrote. The device's answer says whether it was acknowledged (a redirect with no error message:
what a person reads as done) or refused; after the race, what it wrote is counted (``count``,
from before the race to after) and must be exactly the acknowledged writes under that ``probe``
(two moves of the pair writing the same kind of row share a probe: then the sum of their
acknowledgements is what must be there).

Preparations run in the order of ``stage``: a move that needs something closed (a reopen, the
night's close) prepares last, after the other move made what it needs on an open night; a
round's close first, its last hand played before the other move picks the hand it undoes.
"""

from __future__ import annotations

import contextlib
import io
import uuid
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from html.parser import HTMLParser

from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.http import HttpResponseBadRequest, HttpResponseBase, HttpResponseRedirect
from django.test import Client
from django.urls import reverse

from games import services as game_services
from games.kinds import BankRotation
from games.models import Event, Hand, Series, Shoe
from games.payouts import RuleSet
from ledger.count import services as count_services
from ledger.expenses import services as expense_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.forms import seating_token
from ledger.hands.selectors import seating_of
from ledger.integrity.readings import bank_rotation_set
from ledger.models import (
    Adjustment,
    AuditEntry,
    ChipMove,
    DealerShift,
    Expense,
    Guest,
    GuestPayHandle,
    HandRevision,
    PayWay,
    Seating,
    Settlement,
    StackRow,
    StaffInvitation,
    Tip,
    Transfer,
)
from ledger.money import services as money_services
from ledger.money import transfers
from ledger.nights import services as night_services
from ledger.payways import services as payway_services
from ledger.people import services as people_services
from ledger.series import services as series_services
from ledger.tips import services as tip_services
from ledger.workbook.exports import workbook_bytes
from shoebook.base.roles import DEALERS, HOSTS
from tests.races.nights import Night
from tournaments import services as tournament_services
from tournaments.models import Round, TableSeat

ANY = frozenset({"house", "banked", "round"})
CASH = frozenset({"house", "banked"})
DENOMINATIONS = "1 5 25 100 500"


@dataclass
class Play:
    """One device's write, ready to be sent: ``send`` posts it with the device's client;
    ``count`` counts the rows it writes (taken before the race and after); ``probe`` names
    those rows, shared by two moves that write the same ones."""

    send: Callable[[Client], HttpResponseBase]
    probe: Hashable
    count: Callable[[], int]
    anonymous: bool = False  # sent by a browser logged in as nobody (an invitation's guest)
    state: bool = False  # sets a state: acknowledged once or twice, it is there once


@dataclass(frozen=True)
class Move:
    name: str
    kinds: frozenset[str]
    services: tuple[str, ...]
    prepare: Callable[[Night, int], Play]
    stage: int = 0


def _audited(night: Night, slot: int, action: str) -> Callable[[], int]:
    """The audit entries of ``action`` this device's host wrote at the night."""
    user = night.hosts[slot]
    return lambda: AuditEntry.objects.filter(action=action, by=user, event=night.event).count()


def _post(url: str, data: dict[str, object] | None = None) -> Callable[[Client], HttpResponseBase]:
    return lambda client: client.post(url, data or {})


# --- the table ----------------------------------------------------------------------------


def _hand_form(night: Night, **fields: str) -> dict[str, object]:
    """What the table's form posts for the shoe's next hand, as the page shows it now."""
    number = hand_services.next_hand_number(night.shoe)
    return {
        "number": str(number),
        "seating": seating_token(seating_of(night.shoe, number)),
    } | fields


def hand_save(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    seat = night.seat(night.guests[slot])
    data = _hand_form(night, result="banker", idempotency_key=str(key))
    data[f"stake_{seat}_player"] = "10"
    url = reverse("ledger:hand_record", args=[night.shoe.pk])
    return Play(_post(url, data), key, lambda: Hand.objects.filter(idempotency_key=key).count())


def coup(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    banker, cover = (5, 6) if slot else (1, 2)
    data = _hand_form(night, idempotency_key=str(key), banker_seat=str(banker), bank="40",
                      result="banker", move="retire")  # fmt: skip
    data |= {f"stake_{cover}": "40", f"kind_{cover}": "ordinary"}
    url = reverse("ledger:hand_record", args=[night.shoe.pk])
    return Play(_post(url, data), key, lambda: Hand.objects.filter(idempotency_key=key).count())


def hand_undo(night: Night, slot: int) -> Play:
    number = night.once("last hand", night.last_hand)
    url = reverse("ledger:hand_undo", args=[night.shoe.pk])
    data = {"number": str(number), "idempotency_key": str(uuid.uuid4())}
    return Play(_post(url, data), "undo", _audited_both(night, AuditEntry.Action.HAND_UNDONE))


def _audited_both(night: Night, action: str) -> Callable[[], int]:
    return lambda: AuditEntry.objects.filter(action=action, event=night.event).count()


def hand_correct(night: Night, slot: int) -> Play:
    number = night.once("last hand", night.last_hand)
    hand = Hand.objects.get(shoe=night.shoe, number=number)
    reason = f"race {uuid.uuid4().hex[:8]}"
    seat = night.seat(night.guests[0])
    data = {"version": str(hand.version), "reason": reason, "result": "tie",
            f"stake_{seat}_player": "10"}  # fmt: skip
    url = reverse("ledger:hand_detail", args=[hand.pk])
    return Play(_post(url, data), reason,
                lambda: HandRevision.objects.filter(reason=reason).count())  # fmt: skip


def seat_change(night: Night, slot: int) -> Play:
    newcomer = night.newcomer(f"Seat{slot}")
    seat = 7 - slot
    url = reverse("ledger:seat_change", args=[night.shoe.pk])
    seated = Seating.objects.filter(shoe=night.shoe, guest=newcomer, seat=seat)
    return Play(_post(url, {"seat": str(seat), "guest": str(newcomer.pk)}), newcomer.pk,
                seated.count)  # fmt: skip


def shoe_close(night: Night, slot: int) -> Play:
    url = reverse("ledger:shoe_close", args=[night.shoe.pk])
    return Play(_post(url), ("audit", slot, "close"),
                _audited(night, slot, AuditEntry.Action.SHOE_CLOSED))  # fmt: skip


def _close_shoe(night: Night) -> None:
    night.shoe.refresh_from_db()
    if night.shoe.closed_at is None:
        night_services.shoe_close(shoe=night.shoe, by=night.host)


def shoe_reopen(night: Night, slot: int) -> Play:
    night.once("shoe closed", lambda: _close_shoe(night))
    url = reverse("ledger:shoe_reopen", args=[night.shoe.pk])
    return Play(_post(url), ("audit", slot, "reopen"),
                _audited(night, slot, AuditEntry.Action.SHOE_REOPENED))  # fmt: skip


def event_close(night: Night, slot: int) -> Play:
    night.once("shoe closed", lambda: _close_shoe(night))
    url = reverse("ledger:event_close", args=[night.event.pk])
    return Play(_post(url), ("audit", slot, "event close"),
                _audited(night, slot, AuditEntry.Action.EVENT_CLOSED))  # fmt: skip


def event_reopen(night: Night, slot: int) -> Play:
    night.once("shoe closed", lambda: _close_shoe(night))

    def closed() -> None:
        night.event.refresh_from_db()
        if night.event.closed_at is None:
            night_services.event_close(event=night.event, by=night.host)

    night.once("night closed", closed)
    url = reverse("ledger:event_reopen", args=[night.event.pk])
    return Play(_post(url), ("audit", slot, "event reopen"),
                _audited(night, slot, AuditEntry.Action.EVENT_REOPENED))  # fmt: skip


# --- money --------------------------------------------------------------------------------


def settlement(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    data = {"guest": str(night.guests[slot].pk), "direction": "guest_paid", "amount": "10",
            "method": "cash", "confirm": "on", "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:settlement_record", args=[night.event.pk])
    rows = Settlement.objects.filter(idempotency_key=key)
    return Play(_post(url, data), key, rows.count)


def settlement_void(night: Night, slot: int) -> Play:
    paid = night.once("settlement to void", lambda: money_services.settlement_record(
        guest=night.guests[2], event=night.event, amount=Decimal(30), method="cash",
        by=night.host, ask_first=False, idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:settlement_void", args=[paid.pk])
    voids = Settlement.objects.filter(voids=paid)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", paid.pk), voids.count)


def transfer(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    payer, payee = night.guests[1 + 2 * slot], night.guests[2 * slot]
    data = {"payer": payer.pk, "payee": payee.pk, "amount": "10", "note": "",
            "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:transfer_record", args=[night.event.pk])
    return Play(_post(url, data), key, Transfer.objects.filter(idempotency_key=key).count)


def transfer_void(night: Night, slot: int) -> Play:
    paid = night.once("transfer to void", lambda: transfers.transfer_record(
        event=night.event, payer=night.guests[1], payee=night.guests[0], amount=Decimal(20),
        by=night.host, idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:transfer_void", args=[paid.pk])
    voids = Transfer.objects.filter(voids=paid)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", paid.pk), voids.count)


# --- the dealers' tips ---------------------------------------------------------------------


def tip(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    data = {"guest": str(night.guests[slot].pk), "amount": "5", "source": "money",
            "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:tip_add", args=[night.event.pk])
    return Play(_post(url, data), key, Tip.objects.filter(idempotency_key=key).count)


def tip_void(night: Night, slot: int) -> Play:
    given = night.once("tip to void", lambda: tip_services.tip_record(
        event=night.event, guest=night.guests[3], amount=Decimal(8), source="chips",
        by=night.host, idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:tip_void", args=[given.pk])
    voids = Tip.objects.filter(voids=given)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", given.pk), voids.count)


def _dealer(night: Night, label: str) -> User:
    def make() -> User:
        user = User.objects.create_user(f"race-{night.tag}-{label}")
        user.groups.add(Group.objects.get_or_create(name=DEALERS)[0])
        return user

    dealer: User = night.once(f"dealer {label}", make)
    return dealer


def shift_start(night: Night, slot: int) -> Play:
    dealer = _dealer(night, f"dealer-{slot}")
    url = reverse("ledger:shift_add", args=[night.event.pk])
    rows = DealerShift.objects.filter(dealer=dealer)
    return Play(_post(url, {"dealer": str(dealer.pk)}), ("shift", dealer.pk), rows.count)


def shift_stop(night: Night, slot: int) -> Play:
    dealer = _dealer(night, "stopping")
    shift = night.once("shift to stop", lambda: tip_services.shift_start(
        event=night.event, dealer=dealer, by=night.host))  # fmt: skip
    url = reverse("ledger:shift_stop", args=[shift.pk])
    ended = DealerShift.objects.filter(pk=shift.pk, ended_at__isnull=False)
    return Play(_post(url), ("stop", shift.pk), ended.count)


def shift_remove(night: Night, slot: int) -> Play:
    dealer = _dealer(night, "removed")
    shift = night.once("shift to remove", lambda: tip_services.shift_start(
        event=night.event, dealer=dealer, by=night.host))  # fmt: skip
    url = reverse("ledger:shift_remove", args=[shift.pk])
    removed = AuditEntry.objects.filter(
        action=AuditEntry.Action.DEALER_SHIFT, event=night.event, after__isnull=True
    )
    return Play(_post(url, {"reason": f"race {slot}"}), ("remove", shift.pk), removed.count)


def tip_sharing(night: Night, slot: int) -> Play:
    url = reverse("ledger:tip_sharing", args=[night.event.pk])
    return Play(_post(url, {"way": "equal"}), ("audit", slot, "tip sharing"),
                _audited(night, slot, AuditEntry.Action.TIP_SHARING))  # fmt: skip


# --- the count ----------------------------------------------------------------------------


def _chips(night: Night, slot: int, kind: str, **fields: str) -> Play:
    key = uuid.uuid4()
    data = {"kind": kind, "guest": str(night.guests[slot + 3].pk), "idempotency_key": str(key),
            "total": "300"} | fields  # fmt: skip
    url = reverse("ledger:chips_add", args=[night.event.pk])
    return Play(_post(url, data), key, ChipMove.objects.filter(idempotency_key=key).count)


def chips_buy_in(night: Night, slot: int) -> Play:
    return _chips(night, slot, "buy_in", source="cash")


def chips_count(night: Night, slot: int) -> Play:
    return _chips(night, slot, "count")


def chips_void(night: Night, slot: int) -> Play:
    move = night.once("chips to void", lambda: count_services.chips_record(
        event=night.event, guest=night.guests[5], kind="buy_in", by=night.host,
        chips=Decimal(200), source="cash", idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:chips_void", args=[move.pk])
    voids = ChipMove.objects.filter(voids=move)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", move.pk), voids.count)


def adjustment(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    data = {"guest": str(night.guests[slot].pk), "amount": "−40", "reason": "lost chips",
            "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:adjustment_add", args=[night.event.pk])
    return Play(_post(url, data), key, Adjustment.objects.filter(idempotency_key=key).count)


def adjustment_void(night: Night, slot: int) -> Play:
    booked = night.once("adjustment to void", lambda: count_services.adjustment_record(
        event=night.event, guest=night.guests[6], amount=Decimal(25), reason="found",
        by=night.host, idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:adjustment_void", args=[booked.pk])
    voids = Adjustment.objects.filter(voids=booked)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", booked.pk), voids.count)


# --- expenses -----------------------------------------------------------------------------


def expense(night: Night, slot: int) -> Play:
    key = uuid.uuid4()
    payer, sharer = night.guests[slot], night.guests[slot + 2]
    data = {"what": "Pizza", "amount": "30", "paid_by": str(payer.pk), "paid_in": "money",
            "split": "shares", f"share_{payer.pk}": "1", f"share_{sharer.pk}": "2",
            "share_house": "1", "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:expense_record", args=[night.event.pk])
    return Play(_post(url, data), key, Expense.objects.filter(idempotency_key=key).count)


def expense_void(night: Night, slot: int) -> Play:
    bought = night.once("expense to void", lambda: expense_services.expense_record(
        event=night.event, what="Drinks", amount=Decimal(25), paid_by=None,
        sharers=[(night.guests[4], 1), (night.guests[5], 1)], by=night.host,
        idempotency_key=uuid.uuid4()))  # fmt: skip
    url = reverse("ledger:expense_void", args=[bought.pk])
    voids = Expense.objects.filter(voids=bought)
    return Play(_post(url, {"reason": f"race {slot}"}), ("void", bought.pk), voids.count)


def _setup(night: Night, slot: int, **fields: str) -> Play:
    data = {"denominations": DENOMINATIONS, "opening_float": "500"} | fields
    url = reverse("ledger:count_setup", args=[night.event.pk])
    return Play(_post(url, data), ("audit", slot, "setup"),
                _audited(night, slot, AuditEntry.Action.COUNT_SETUP))  # fmt: skip


def count_setup(night: Night, slot: int) -> Play:
    return _setup(night, slot)


def count_only_switch(night: Night, slot: int) -> Play:
    return _setup(night, slot, count_only="on")


# --- a tournament's round -----------------------------------------------------------------


def _round(night: Night) -> Round:
    assert night.round is not None
    return night.round


def round_close(night: Night, slot: int) -> Play:
    night.once("round done", night.finish_round)  # the round's tables done: it may close
    round_ = _round(night)
    url = reverse("tournaments:round_close", args=[round_.pk])
    closed = Round.objects.filter(pk=round_.pk, closed_at__isnull=False)
    return Play(_post(url), ("round closed", round_.pk), closed.count)


def _buy(night: Night, slot: int, kind: str) -> Play:
    round_, entrant = _round(night), night.entrants[0]
    url = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, entrant.pk])
    return Play(_post(url), (kind, entrant.pk), _stack_rows(night, entrant.guest, kind))


def _stack_rows(night: Night, guest: Guest, kind: str) -> Callable[[], int]:
    wanted = StackRow.Kind.REBUY if kind == "rebuy" else StackRow.Kind.ADD_ON
    return StackRow.objects.filter(guest=guest, kind=wanted).count


def rebuy(night: Night, slot: int) -> Play:
    return _buy(night, slot, "rebuy")


def add_on(night: Night, slot: int) -> Play:
    return _buy(night, slot, "add_on")


# --- guests and what belongs to no one night ----------------------------------------------


def merge(night: Night, slot: int) -> Play:
    """Two guests of the night with money at it, not seated: one merged into the other (the
    other device, the other way round)."""

    def pair() -> tuple[Guest, Guest]:
        made = [night.newcomer(name) for name in ("Xavi", "Yuki")]
        for guest in made:
            money_services.settlement_record(
                guest=guest, event=night.event, amount=Decimal(10), method="cash",
                by=night.host, ask_first=False, idempotency_key=uuid.uuid4())  # fmt: skip
        return made[0], made[1]

    x, y = night.once("pair to merge", pair)
    into, other = (x, y) if slot else (y, x)
    url = reverse("ledger:guest_merge", args=[into.pk])
    gone = Guest.objects.filter(pk__in=[x.pk, y.pk])
    return Play(_post(url, {"other": str(other.pk)}), ("merged", x.pk),
                lambda: 2 - gone.count())  # fmt: skip


def invitation_accept(night: Night, slot: int) -> Play:
    token = night.once("invitation", lambda: guest_services.guest_invitation_issue(
        guest=night.guests[0], by=night.host))  # fmt: skip
    username = f"guest-{uuid.uuid4().hex[:10]}"
    data = {"username": username, "password1": "Race-pass-4821!", "password2": "Race-pass-4821!"}
    url = reverse("ledger:invitation_accept", args=[token])
    guest = Guest.objects.filter(pk=night.guests[0].pk, user__isnull=False)
    return Play(_post(url, data), ("login", night.guests[0].pk), guest.count, anonymous=True)


def staff_invitation_accept(night: Night, slot: int) -> Play:
    token = night.once("staff invitation", lambda: people_services.staff_invitation_issue(
        role="dealer", by=night.host))  # fmt: skip
    username = f"dealer-{uuid.uuid4().hex[:10]}"
    data = {"username": username, "password1": "Race-pass-4821!", "password2": "Race-pass-4821!"}
    url = reverse("ledger:staff_invitation_accept", args=[token])
    used = StaffInvitation.objects.filter(token_hash=people_services.token_hash(token),
                                          user__isnull=False)  # fmt: skip
    return Play(_post(url, data), ("staff login", token), used.count, anonymous=True)


def _night_dealer(night: Night) -> User:
    """A dealer of this night's own, made once for the pair."""

    def make() -> User:
        user = User.objects.create_user(f"race-dealer-{night.tag}")
        user.groups.add(Group.objects.get_or_create(name=DEALERS)[0])
        return user

    dealer: User = night.once("dealer", make)
    return dealer


def access_revoke(night: Night, slot: int) -> Play:
    dealer = _night_dealer(night)
    url = reverse("ledger:person_revoke", args=[dealer.pk])
    revoked = User.objects.filter(pk=dealer.pk, is_active=False)
    return Play(_post(url), ("revoked", dealer.pk), revoked.count)


def role_change(night: Night, slot: int) -> Play:
    dealer = _night_dealer(night)
    url = reverse("ledger:person_role", args=[dealer.pk])
    promoted = User.objects.filter(pk=dealer.pk, groups__name=HOSTS)
    return Play(_post(url, {"role": "host"}), ("promoted", dealer.pk), promoted.count, state=True)


IMPORT_HEADER = (
    "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"
)
COUP_HEADER = (
    "shoe,coup,seat,guest,stake_kind,stake,banker,banker_seat,bank,co_banker,co_banker_seat,"
    "ponte_cards,banker_cards,result,ponte_choice,banker_choice,move,taken,suite_taker,"
    "suite_seat,suite_amount"
)
UPLOAD_FIELDS = {"date": "2026-11-21", "money_per_chip": "100", "table_min": "10",
                 "table_max": "1000", "decks": "8", "no_commission": "none", "tie_pays": "8",
                 "pair_pays": "11"}  # fmt: skip
CHEMIN_FIELDS = {"game": "chemin_de_fer", "taxe": "percent", "taxe_rate": "0.05",
                 "shoe_charge": "0", "banco": "limitee", "clearing": "direct"}  # fmt: skip


def _upload(
    name: str, content: bytes, key: str = "", **fields: str
) -> Callable[[Client], HttpResponseBase]:
    """The upload page's form sent with ``content``, under the key its page was drawn with."""
    url = reverse("ledger:scoresheet_upload")
    sent = {"event_name": name, "idempotency_key": key or str(uuid.uuid4())}

    def send(client: Client) -> HttpResponseBase:
        upload = io.BytesIO(content)
        upload.name = "night.xlsx" if content[:2] == b"PK" else "night.csv"
        return client.post(url, UPLOAD_FIELDS | fields | sent | {"file": upload})

    return send


def _imported(name: str) -> Callable[[], int]:
    return Event.objects.filter(name=name).count


def scoresheet_import(night: Night, slot: int) -> Play:
    """A night of two hands imported, its guests the night's own (their rows are shared)."""
    name = f"Imported {night.tag} {slot}"
    rows = [IMPORT_HEADER] + [
        f"1,{n},9 7,J J 10,,,,{seat},{night.guests[seat - 1].name},player,10"
        for n, seat in ((1, 1), (2, 2))
    ]
    return Play(_upload(name, "\n".join(rows).encode()), name, _imported(name))


def import_resent(night: Night, slot: int) -> Play:
    """One upload sent again (the answer lost, Import tapped again): the same file under the same
    key from both devices, or beside another write; one night, whichever answers first."""
    name = f"Resent {night.tag}"
    key = night.once("upload key", lambda: str(uuid.uuid4()))
    rows = [IMPORT_HEADER, f"1,1,9 7,J J 10,,,,1,{night.guests[0].name},player,10"]
    return Play(_upload(name, "\n".join(rows).encode(), key), name, _imported(name), state=True)


def coup_sheet_import(night: Night, slot: int) -> Play:
    """A Chemin de fer night of one coup imported, its guests the night's own."""
    name = f"Coups {night.tag} {slot}"
    aki, ben = night.guests[0].name, night.guests[1].name
    rows = [COUP_HEADER, f"1,1,2,{ben},,60,{aki},1,100,,,,,B,,,,,,,"]
    content = "\n".join(rows).encode()
    return Play(_upload(name, content, **CHEMIN_FIELDS), name, _imported(name))


def count_sheet_import(night: Night, slot: int) -> Play:
    """A night kept by its count alone, imported: its guests the night's own."""
    name = f"Counted {night.tag} {slot}"
    rows = ["guest,bought,cashed_out,paid_by"] + [
        f"{guest.name},500,{400 + 100 * n},cash" for n, guest in enumerate(night.guests[:2])
    ]
    return Play(_upload(name, "\n".join(rows).encode()), name, _imported(name))


def workbook_import(night: Night, slot: int) -> Play:
    """The night's own exported workbook sent back (the night renamed first, so that it is a
    night of its own): its guests are the night's."""

    def export() -> tuple[bytes, str]:
        content = workbook_bytes([night.event])
        old = night.event.name
        Event.objects.filter(pk=night.event.pk).update(name=f"{old} (kept)")
        return content, old

    content, name = night.once("workbook", export)
    return Play(_upload(name, content), ("workbook", name), _imported(name))


def guest_add(night: Night, slot: int) -> Play:
    name = f"Walk-in {uuid.uuid4().hex[:8]}"
    url = reverse("ledger:event_guest_add", args=[night.event.pk])
    on_list = Guest.objects.filter(name=name, events=night.event)
    return Play(_post(url, {"name": name}), name, on_list.count)


class _FormReader(HTMLParser):
    """The fields of one form of a page, as a browser would post it untouched."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.select = form_id, False, ""
        self.fields: dict[str, list[str]] = {}
        self.text: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside or (not a.get("name") and tag != "option"):
            return
        if tag == "input" and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self.fields.setdefault(a["name"], []).append(a.get("value", "on"))
        elif tag == "select":
            self.select = a["name"]
        elif tag == "option" and self.select and "selected" in a:
            self.fields.setdefault(self.select, []).append(a.get("value", ""))
        elif tag == "textarea":
            self.text = a["name"]

    def handle_data(self, data: str) -> None:
        if self.text:
            self.fields.setdefault(self.text, []).append(data.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = ""
        elif tag == "textarea":
            self.text = None


def _form(page: str, form_id: str) -> dict[str, list[str]]:
    reader = _FormReader(form_id)
    reader.feed(page)
    return reader.fields


def event_edit(night: Night, slot: int) -> Play:
    """The night's terms saved with its table maximum changed, from the edit page's form."""
    url = reverse("ledger:event_edit", args=[night.event.pk])
    page = night.client(slot).get(url).content.decode()
    data = _form(page, "event-form") | {"table_max": [str(2000 + slot)]}
    return Play(_post(url, data), ("audit", slot, "edit"),
                _audited(night, slot, AuditEntry.Action.EVENT_EDITED))  # fmt: skip


def night_rounding(night: Night, slot: int) -> Play:
    """The night's rounding chosen on the edit page (to a chip of 0.50 or 1, the house's way):
    saved before the night's first hand, refused in words once a hand is logged, so no hand is
    ever priced under one rounding and kept under another (check_ledger reads the night's)."""
    url = reverse("ledger:event_edit", args=[night.event.pk])
    page = night.client(slot).get(url).content.decode()
    chip = ("0.50", "1.00")[slot % 2]
    data = _form(page, "event-form") | {"rounding": ["house"], "smallest_chip": [chip]}
    return Play(_post(url, data), ("audit", slot, "rounding"),
                _audited(night, slot, AuditEntry.Action.EVENT_EDITED))  # fmt: skip


def bank_rotation(night: Night, slot: int) -> Play:
    """The operator's ``night_rules --bank-rotation``: the night read under the first release's
    rotation from now on. Acknowledged (a redirect) when its books are clean under it, refused
    (400) when they are not; either way the night's coups are checked under the lock it holds."""
    user = night.hosts[slot]

    def send(client: Client) -> HttpResponseBase:
        problems = bank_rotation_set(event=night.event, rotation=BankRotation.ORIGINAL, by=user)
        return HttpResponseBadRequest() if problems else HttpResponseRedirect("/")

    def count() -> int:
        return int(Event.objects.get(pk=night.event.pk).bank_rotation == BankRotation.ORIGINAL)

    return Play(send, "bank rotation", count, state=True)


def shoe_start(night: Night, slot: int) -> Play:
    """The next shoe started, the shoe before it closed."""
    night.once("shoe closed", lambda: _close_shoe(night))
    url = reverse("ledger:shoe_start", args=[night.event.pk])
    return Play(_post(url), "new shoe",
                lambda: Shoe.objects.filter(event=night.event).count())  # fmt: skip


def seat_clear(night: Night, slot: int) -> Play:
    """Seat 3 (4 for the other device) left free."""
    seat = 3 + slot
    url = reverse("ledger:seat_change", args=[night.shoe.pk])
    free = Seating.objects.filter(shoe=night.shoe, seat=seat, to_hand__isnull=True)
    return Play(_post(url, {"seat": str(seat), "guest": ""}), ("free", seat),
                lambda: 0 if free.exists() else 1, state=True)  # fmt: skip


def bring_back(night: Night, slot: int) -> Play:
    """Two guests of an earlier night brought back onto this one's list."""

    def earlier() -> tuple[Event, list[Guest]]:
        event = game_services.event_create(
            name=f"Earlier {night.tag}", date=date(2026, 11, 1), rules=RuleSet(), by=night.host
        )
        guests = [guest_services.event_guest_add(event=event, name=f"Back{n} {night.tag}",
                                                 by=night.host) for n in range(2)]  # fmt: skip
        return event, guests

    source, guests = night.once("earlier night", earlier)
    data = {"from_event": str(source.pk), "guests": [str(guests[slot].pk)]}
    url = reverse("ledger:event_guests_bring_back", args=[night.event.pk])
    on_list = Guest.objects.filter(pk=guests[slot].pk, events=night.event)
    return Play(_post(url, data), ("back", guests[slot].pk), on_list.count)


def _series_of(night: Night) -> Series:
    def made() -> Series:
        return series_services.series_from_night(
            event=night.event, by=night.host, name=f"Series {night.tag}", recurrence="by_hand"
        )

    return night.once("series", made)


def series_made(night: Night, slot: int) -> Play:
    """ "Make this a series" from the night: made once, however many devices ask."""
    url = reverse("ledger:series_from_night", args=[night.event.pk])
    data = {"name": f"Series {slot}", "recurrence": "weekly", "weekday": "4",
            "week_of_month": "1", "day_of_month": "1", "starts_at": "19:00",
            "time_zone": "Asia/Tokyo"}  # fmt: skip
    made = Series.objects.filter(nights=night.event)
    return Play(_post(url, data), ("series", night.event.pk), made.count, state=True)


def series_night(night: Night, slot: int) -> Play:
    """The series' next night in one tap, the same tap sent by both devices (a double tap): one
    night, with the night's guests on its list."""
    series = _series_of(night)
    key = night.once("series key", uuid.uuid4)
    url = reverse("ledger:series_next_night", args=[series.pk])
    data = {"idempotency_key": str(key), "date": "2026-12-05"}
    made = Event.objects.filter(series_key=key)
    return Play(_post(url, data), ("series night", key), made.count, state=True)


def _secret(night: Night, slot: int, *, mark: bool) -> Play:
    entrant = night.entrants[slot]
    seat = night.seat(entrant.guest)
    number = hand_services.next_hand_number(night.shoe)
    place = TableSeat.objects.filter(entrant=entrant, round=_round(night))
    if not mark:
        night.once(f"secret {slot}", lambda: _marked(night, seat, number))
    field = "mark" if mark else "unmark"
    url = reverse("tournament_table:secret_bet", args=[night.event.pk])
    state = place.filter(secret_hand=number) if mark else place.filter(secret_hand__isnull=True)
    return Play(_post(url, {field: str(seat), "number": str(number)}), ("secret", slot),
                state.count, state=True)  # fmt: skip


def _marked(night: Night, seat: int, number: int) -> None:
    """The secret bet to take back, marked first (not when the round is over: then the take-back
    is refused)."""
    with contextlib.suppress(ValidationError):
        tournament_services.secret_bet_mark(
            table_event=night.event, seat=seat, hand_number=number, by=night.host
        )


def secret_mark(night: Night, slot: int) -> Play:
    return _secret(night, slot, mark=True)


def secret_clear(night: Night, slot: int) -> Play:
    return _secret(night, slot, mark=False)


# --- ways to pay -------------------------------------------------------------------------


def _way_fields(prefix: str, name: str) -> dict[str, object]:
    fields = {"name": name, "kind": "details", "details": "IBAN DE00 1234", "link_template": "",
              "house_handle": "", "method": "way"}  # fmt: skip
    return {f"{prefix}-{field}": value for field, value in fields.items()}


def _way_in_use(night: Night) -> PayWay:
    """One way both moves of a pair use: the one a settlement names and the other retires."""
    return night.once("way in use", lambda: payway_services.way_add(
        name=f"Race way {night.tag}", kind="details", details="IBAN", by=night.host))  # fmt: skip


def way_add(night: Night, slot: int) -> Play:
    name = f"Way {night.tag} {slot}"
    rows = PayWay.objects.filter(name=name)
    return Play(_post(reverse("ledger:pay_way_add"), _way_fields("new", name)), name, rows.count)


def way_edit(night: Night, slot: int) -> Play:
    way = _way_in_use(night)
    name = f"Renamed {night.tag} {slot}"
    url = reverse("ledger:pay_way_edit", args=[way.pk])
    edits = AuditEntry.objects.filter(action=AuditEntry.Action.PAY_WAY, summary=name,
                                      by=night.hosts[slot])  # fmt: skip
    return Play(_post(url, _way_fields(f"w{way.pk}", name)), ("way edit", name), edits.count)


def way_retire(night: Night, slot: int) -> Play:
    way = _way_in_use(night)
    url = reverse("ledger:pay_way_retire", args=[way.pk])
    retired = PayWay.objects.filter(pk=way.pk, retired_at__isnull=False)
    return Play(_post(url, {"retired": "1"}), ("retired", way.pk), retired.count, state=True)


def way_move(night: Night, slot: int) -> Play:
    way = _way_in_use(night)  # the last of the list: it always has one above it
    url = reverse("ledger:pay_way_move", args=[way.pk])
    by = night.hosts[slot]
    moves = AuditEntry.objects.filter(action=AuditEntry.Action.PAY_WAY, by=by, event=None)
    return Play(_post(url, {"direction": "up"}), ("way move", slot), moves.count)


def handle_save(night: Night, slot: int) -> Play:
    way = _way_in_use(night)
    guest, handle = night.guests[slot + 1], f"IBAN {night.tag} {slot}"
    url = reverse("ledger:guest_handles_save", args=[guest.pk])
    saved = GuestPayHandle.objects.filter(guest=guest, handle=handle)
    return Play(_post(url, {f"way_{way.pk}": handle}), ("handle", guest.pk), saved.count)


def settlement_by_way(night: Night, slot: int) -> Play:
    way = _way_in_use(night)
    key = uuid.uuid4()
    data = {"guest": str(night.guests[slot].pk), "direction": "guest_paid", "amount": "10",
            "method": f"way:{way.pk}", "confirm": "on", "idempotency_key": str(key)}  # fmt: skip
    url = reverse("ledger:settlement_record", args=[night.event.pk])
    rows = Settlement.objects.filter(idempotency_key=key, way=way)
    return Play(_post(url, data), key, rows.count)


MOVES: tuple[Move, ...] = (
    Move("hand save", frozenset({"house", "round"}), ("ledger.hands.services.record_hand",),
         hand_save),
    Move("coup", frozenset({"banked"}), ("ledger.hands.services.record_hand",), coup),
    Move("undo", ANY, ("ledger.hands.services.hand_undo",), hand_undo),
    Move("correction", frozenset({"house", "round"}), ("ledger.hands.services.hand_correct",),
         hand_correct),
    Move("seat change", CASH, ("ledger.hands.services.seat_guest",), seat_change),
    Move("settlement", CASH, ("ledger.money.services.settlement_record",
                              "ledger.money.recording.record"), settlement),
    Move("settlement void", CASH, ("ledger.money.services.settlement_void",
                                   "ledger.money.reversal.reverse"), settlement_void),
    Move("transfer", frozenset({"banked"}), ("ledger.money.transfers.transfer_record",), transfer),
    Move("transfer void", frozenset({"banked"}), ("ledger.money.transfers.transfer_void",),
         transfer_void),
    Move("tip", CASH, ("ledger.tips.services.tip_record",), tip),
    Move("tip void", CASH, ("ledger.tips.services.tip_void",), tip_void),
    Move("shift start", CASH, ("ledger.tips.services.shift_start",), shift_start),
    Move("shift stop", CASH, ("ledger.tips.services.shift_stop",), shift_stop),
    Move("shift removed", CASH, ("ledger.tips.services.shift_remove",), shift_remove),
    Move("tip sharing", CASH, ("ledger.tips.services.tip_sharing_set",), tip_sharing),
    Move("buy-in", CASH, ("ledger.count.services.chips_record",), chips_buy_in),
    Move("count", CASH, ("ledger.count.services.chips_record",), chips_count),
    Move("chips void", CASH, ("ledger.count.services.chips_void",), chips_void),
    Move("adjustment", CASH, ("ledger.count.services.adjustment_record",), adjustment),
    Move("adjustment void", CASH, ("ledger.count.services.adjustment_void",), adjustment_void),
    Move("expense", CASH, ("ledger.expenses.services.expense_record",), expense),
    Move("expense void", CASH, ("ledger.expenses.services.expense_void",), expense_void),
    Move("count setup", CASH, ("ledger.count.services.count_setup_save",), count_setup),
    Move("count-only switch", frozenset({"house"}), ("ledger.count.services.count_setup_save",),
         count_only_switch),
    Move("shoe close", CASH, ("ledger.nights.services.shoe_close",
                              "games.services.mark_shoe_closed"), shoe_close),
    Move("shoe reopen", CASH, ("ledger.nights.services.shoe_reopen",
                               "games.services.mark_shoe_open"), shoe_reopen, stage=1),
    Move("night close", CASH, ("ledger.nights.services.event_close",
                               "games.services.mark_event_closed"), event_close, stage=1),
    Move("night reopen", CASH, ("ledger.nights.services.event_reopen",
                                "games.services.mark_event_open"), event_reopen, stage=1),
    # Prepared first: its round's last hand played, the hand the other move undoes or corrects.
    Move("round close", frozenset({"round"}), ("tournaments.services.round_close",),
         round_close, stage=-1),
    Move("rebuy", frozenset({"round"}), ("tournaments.services.rebuy",), rebuy),
    Move("add-on", frozenset({"round"}), ("tournaments.services.add_on",), add_on),
    Move("merge", ANY, ("ledger.guests.services.guest_merge",), merge),
    Move("invitation accept", ANY, ("ledger.guests.services.guest_invitation_accept",),
         invitation_accept),
    Move("staff invitation accept", ANY, ("ledger.people.services.staff_invitation_accept",),
         staff_invitation_accept),
    Move("access revoke", ANY, ("ledger.people.services.access_revoke",), access_revoke),
    Move("role change", ANY, ("ledger.people.services.role_change",), role_change),
    Move("import", ANY, ("ledger.workbook.imports.night_writer.scoresheet_import",
                         "ledger.workbook.imports.upload_keys.import_once"), scoresheet_import),
    Move("import resent", ANY, ("ledger.workbook.imports.upload_keys.import_once",),
         import_resent),
    Move("guest added", CASH, ("ledger.guests.services.event_guest_add",), guest_add),
    Move("coup import", ANY, ("ledger.workbook.imports.night_writer.coup_sheet_import",),
         coup_sheet_import),
    Move("count import", ANY, ("ledger.workbook.count_imports.count_sheet_import",),
         count_sheet_import),
    Move("workbook import", CASH,
         ("ledger.workbook.imports.night_workbook.night_workbook_import",), workbook_import),
    Move("night edit", CASH, ("ledger.nights.services.event_edit",
                              "games.services.event_update"), event_edit),
    Move("night rounding", frozenset({"house"}), ("ledger.nights.services.event_edit",),
         night_rounding),
    Move("bank rotation", frozenset({"banked"}), ("ledger.integrity.readings.bank_rotation_set",),
         bank_rotation),
    Move("shoe start", CASH, ("games.services.shoe_start",), shoe_start, stage=1),
    Move("seat cleared", CASH, ("ledger.hands.services.seat_clear",), seat_clear),
    Move("bring back", CASH, ("ledger.guests.services.event_guests_bring_back",), bring_back),
    Move("series made", CASH, ("ledger.series.services.series_from_night",), series_made),
    Move("series night", CASH, ("ledger.series.services.series_next_night",), series_night),
    Move("secret bet", frozenset({"round"}), ("tournaments.services.secret_bet_mark",),
         secret_mark),
    Move("secret bet back", frozenset({"round"}), ("tournaments.services.secret_bet_clear",),
         secret_clear),
    # The ways to pay belong to no night: played on any, beside its writes.
    Move("way add", ANY, ("ledger.payways.services.way_add",), way_add),
    Move("way edit", ANY, ("ledger.payways.services.way_edit",), way_edit),
    Move("way retire", ANY, ("ledger.payways.services.way_retire",), way_retire),
    Move("way move", ANY, ("ledger.payways.services.way_move",), way_move),
    Move("handle save", CASH, ("ledger.payways.services.pay_handle_save",), handle_save),
    Move("settlement by a way", CASH, ("ledger.money.services.settlement_record",),
         settlement_by_way),
)  # fmt: skip

BY_NAME = {move.name: move for move in MOVES}
