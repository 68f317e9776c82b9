"""The audit log in words. Entries keep plain data (JSON), written once; they are worded when
shown, in the reader's language, so entries written before a translation existed read in it too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds import MOVE_LABELS, BankerMove, CoverKind
from games.models import Event, shown_name
from games.payouts import bet_label
from ledger.models import AUDIT_TRAY, AuditEntry, ChipMove, Settlement, StaffInvitation
from ledger.templatetags.money import chips, winner_label
from ledger.workbook.open_data import Value

# Where an entry happened, as the services write it: "<event> · shoe 2 · hand 17".
_PLACE = re.compile(r"^(?P<event>.*) · shoe (?P<shoe>\d+)(?: · hand (?P<hand>\d+))?$")

# An event as ``str(event)`` writes it: "<name> (2026-11-21)".
_DATED = re.compile(r"^(?P<name>.*) \((?P<date>\d{4}-\d{2}-\d{2})\)$")

# What the keys of the entries' data mean (an event's own fields are worded by the model).
KEY_LABELS = {
    "guest": gettext_lazy("guest"),
    "amount": gettext_lazy("amount"),
    "method": gettext_lazy("method"),
    "note": gettext_lazy("note"),
    "hands": gettext_lazy("hands"),
    "bets": gettext_lazy("bets"),
    "new_guests": gettext_lazy("new guests"),
    "rules": gettext_lazy("rules"),
    "id": gettext_lazy("number"),
    "recorded_at": gettext_lazy("recorded"),
    "alias": gettext_lazy("alias"),
    "aliases": gettext_lazy("aliases"),
    "merged": gettext_lazy("merged"),
    "into": gettext_lazy("into"),
    "seatings": gettext_lazy("seatings"),
    "settlements": gettext_lazy("settlements"),
    "events": gettext_lazy("events"),
    "login": gettext_lazy("login"),
    "expires": gettext_lazy("expires"),
    "revoked": gettext_lazy("invitations withdrawn"),
    "credit_limit": gettext_lazy("credit limit"),
    "payer": gettext_lazy("who pays"),
    "payee": gettext_lazy("who receives"),
    "name": gettext_lazy("name"),
    "guests": gettext_lazy("guests"),
    "kind": gettext_lazy("what"),
    "source": gettext_lazy("paid by"),
    "chips": gettext_lazy("chips"),
    "by_denomination": gettext_lazy("chips counted"),
    "reason": gettext_lazy("reason"),
    "dated": gettext_lazy("date"),
    "denominations": gettext_lazy("chip set"),
    "opening_float": gettext_lazy("tray at the open"),
    "count_only": gettext_lazy("kept by its count alone"),
    "commission_total": gettext_lazy("commission"),
    "role": gettext_lazy("role"),
    "invited_by": gettext_lazy("invited by"),
    "sessions": gettext_lazy("sessions ended"),
}
_TIMES = {"expires"}
_AMOUNTS = {"amount", "credit_limit", "chips", "opening_float", "commission_total"}
MSG_TRAY = gettext_lazy("Tray")


def describe_place(summary: str) -> str:
    if summary == AUDIT_TRAY:
        return str(MSG_TRAY)
    place = _PLACE.match(summary)
    if place is None:  # a guest, or an event (a table's generated name worded), maybe dated
        dated = _DATED.match(summary)
        if dated is not None:
            return f"{shown_name(dated['name'])} ({dated['date']})"
        return shown_name(summary)
    event = shown_name(place["event"])
    if place["hand"] is None:
        return _("{event} · shoe {shoe}").format(event=event, shoe=place["shoe"])
    return _("{event} · shoe {shoe} · hand {hand}").format(
        event=event, shoe=place["shoe"], hand=place["hand"]
    )


def describe_change(value: Mapping[str, Any] | None) -> str:
    """A journal entry's data in one line: a hand's result, cards and bets, or each field."""
    if not value:
        return "—"
    if isinstance(value.get("bets"), list):
        return _describe_hand(value)
    return ", ".join(
        f"{_key_label(key)}: {_field_value(key, item)}"
        for key, item in value.items()
        if not key.endswith("_id") and item not in ("", None)
    )


def _describe_hand(hand: Mapping[str, Any]) -> str:
    cards = f" {hand['player_cards']} / {hand['banker_cards']}" if hand["player_cards"] else ""
    bets = "; ".join(
        _("Seat {seat} · {guest} · {bet} {stake} → {net}").format(
            seat=bet["seat"],
            guest=bet["guest"],
            bet=_bet_name(bet),
            stake=chips(bet["stake"]),
            net=chips(bet["net"]),
        )
        for bet in hand["bets"]
    )
    coup = _describe_coup(hand.get("coup"))
    return f"{winner_label(hand['winner'])}{cards}{coup} · {bets or _('no bets')}"


def _bet_name(bet: Mapping[str, Any]) -> str:
    """A bet's type in words (a Chemin de fer cover by its kind: banco solo, suivi…)."""
    try:
        if bet.get("kind"):
            return _(CoverKind(bet["kind"]).label)
        return _(bet_label(bet["bet_type"]))
    except ValueError:  # written by a version that knew another kind
        return str(bet.get("kind") or bet["bet_type"])


def _describe_coup(coup: Mapping[str, Any] | None) -> str:
    """A guest-banked coup's bank and what its banker did next: " · Aki banks 100 · Suite"."""
    if not coup:
        return ""
    text = _("{banker} banks {bank}").format(
        banker=coup.get("banker", ""), bank=chips(coup.get("bank"))
    )
    if coup.get("co_banker"):
        text += " " + _("with {co_banker}").format(co_banker=coup["co_banker"])
    try:
        move = _(MOVE_LABELS[BankerMove(coup.get("move", ""))])
    except ValueError:
        move = str(coup.get("move", ""))
    return f" · {text} · {move}" if move else f" · {text}"


def _key_label(key: str) -> str:
    if key in KEY_LABELS:
        return str(KEY_LABELS[key])
    try:
        field = Event._meta.get_field(key)
    except FieldDoesNotExist:
        return key
    return str(getattr(field, "verbose_name", key))


def _field_value(key: str, value: Any) -> str:
    if key == "method" and value in Settlement.Method.values:
        return str(Settlement.Method(value).label)
    if key == "kind" and value in ChipMove.Kind.values:
        return str(ChipMove.Kind(value).label)
    if key == "source" and value in ChipMove.Source.values:
        return str(ChipMove.Source(value).label)
    if key == "role" and value in StaffInvitation.Role.values:
        return str(StaffInvitation.Role(value).label)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if key in _AMOUNTS:
        return chips(value)
    if key == "denominations" and isinstance(value, list):
        return ", ".join(chips(item) for item in value)
    if key == "by_denomination" and isinstance(value, dict):  # {"100": 4}: 4 × 100
        return ", ".join(f"{number} × {chips(chip)}" for chip, number in value.items())
    if isinstance(value, list):  # names: the import's new guests
        return ", ".join(str(item) for item in value)
    if (key.endswith("_at") or key in _TIMES) and isinstance(value, str):
        return _local_time(value)
    return str(value)


def _local_time(text: str) -> str:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M}" if timezone.is_aware(moment) else text


AUDIT_COLUMNS = ("entry_id", "at", "action", "what", "night_id", "where", "by", "before",
                 "after", "before_data", "after_data")  # fmt: skip


def audit_rows(entries: QuerySet[AuditEntry]) -> Iterator[tuple[Value, ...]]:
    """The audit log as rows for a CSV file, oldest first: each entry's id, moment, action (its
    code and its words), night, place, who, and the record before and after, worded as the
    page words them and as stored (JSON). One query, however long the log."""
    rows = entries.select_related("by").order_by("at", "id")
    for entry in rows.iterator(chunk_size=2000):
        yield (
            entry.pk, entry.at, entry.action, str(entry.get_action_display()), entry.event_id,
            describe_place(entry.summary), entry.by.get_username(),
            describe_change(entry.before) if entry.before else "",
            describe_change(entry.after) if entry.after else "",
            entry.before, entry.after,
        )  # fmt: skip
