"""Writes of the ways to pay: the host's list (added, edited, moved, retired — never deleted, as
settlements name them) and each guest's handles. None of them writes a night's rows: a way is
locked as the one row changed (FOR NO KEY UPDATE, so a settlement naming it still checks its
key), a guest's handles under the guest's lock, as a rename is."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.locks import lock_guest
from ledger.models import AuditEntry, Guest, GuestPayHandle, PayWay, Settlement
from ledger.money.reversal import line_character
from ledger.money.services import MSG_WAY_GONE
from ledger.payways.links import check_template, clean_handle
from shoebook.base.live import announce_to
from shoebook.base.roles import Actor

NAME_MAX = 60
MSG_WAY_NAME = _("Give the way to pay a name, at most {maximum} characters.")
MSG_WAY_NAME_CHARACTER = _("A name cannot hold the invisible or control character {code}.")
MSG_WAY_NAME_TAKEN = _("There is already a way to pay called “{name}”.")
MSG_WAY_KIND = _("Choose how the way is paid: a pay link, details, or in person.")
MSG_WAY_METHOD = _("Choose what older pages call it: cash, the tab, credit, or another way.")


def _snapshot(way: PayWay) -> dict[str, object]:
    return {
        "id": way.pk,
        "name": way.name,
        "kind": way.kind,
        "link_template": way.link_template,
        "house_handle": way.house_handle,
        "details": way.details,
        "method": way.method,
        "position": way.position,
        "retired": way.is_retired,
    }


def _checked(
    *, name: str, kind: str, link_template: str, house_handle: str, details: str, method: str
) -> dict[str, str]:
    """The way's fields as they are saved, or refused keyed by field."""
    name = name.strip()
    refused = line_character(name)
    if refused is not None:
        raise ValidationError({"name": MSG_WAY_NAME_CHARACTER.format(code=refused)})
    if not name or len(name) > NAME_MAX:
        raise ValidationError({"name": MSG_WAY_NAME.format(maximum=NAME_MAX)})
    if kind not in PayWay.Kind.values:
        raise ValidationError({"kind": MSG_WAY_KIND})
    if method not in Settlement.Method.values or method == Settlement.Method.OTHER:
        raise ValidationError({"method": MSG_WAY_METHOD})
    template = check_template(link_template) if kind == PayWay.Kind.LINK else ""
    try:
        handle = clean_handle("link", house_handle) if kind == PayWay.Kind.LINK else ""
        text = clean_handle("details", details) if kind == PayWay.Kind.DETAILS else ""
    except ValidationError as error:
        field = "house_handle" if kind == PayWay.Kind.LINK else "details"
        raise ValidationError({field: error.messages}) from error
    return {
        "name": name,
        "kind": kind,
        "link_template": template,
        "house_handle": handle,
        "details": text,
        "method": method,
    }


def _name_free(name: str, way: PayWay | None = None) -> None:
    taken = PayWay.objects.annotate(lower=Lower("name")).filter(lower=name.lower())
    if way is not None:
        taken = taken.exclude(pk=way.pk)
    if taken.exists():
        raise ValidationError({"name": MSG_WAY_NAME_TAKEN.format(name=name)})


def _save(way: PayWay) -> None:
    try:
        with transaction.atomic():
            way.save()
    except IntegrityError as error:  # the same name from another device at the same moment
        raise ValidationError({"name": MSG_WAY_NAME_TAKEN.format(name=way.name)}) from error


def _audit(way: PayWay, by: Actor, before: dict[str, object] | None) -> None:
    AuditEntry.objects.create(
        action=AuditEntry.Action.PAY_WAY,
        by=by,
        summary=way.name,
        before=before,
        after=_snapshot(way),
    )


@transaction.atomic
def way_add(
    *,
    name: str,
    kind: str,
    by: Actor,
    link_template: str = "",
    house_handle: str = "",
    details: str = "",
    method: str = Settlement.Method.WAY,
) -> PayWay:
    """A new way at the end of the list."""
    fields = _checked(name=name, kind=kind, link_template=link_template,
                      house_handle=house_handle, details=details, method=method)  # fmt: skip
    _name_free(fields["name"])
    last = PayWay.objects.aggregate(last=Max("position"))["last"] or 0
    way = PayWay(**fields, position=last + 1)
    _save(way)
    _audit(way, by, None)
    return way


def _lock(way: PayWay) -> PayWay:
    locked = PayWay.objects.select_for_update(of=("self",), no_key=True).filter(pk=way.pk).first()
    if locked is None:
        raise ValidationError({NON_FIELD_ERRORS: MSG_WAY_GONE})
    return locked


@transaction.atomic
def way_edit(
    *,
    way: PayWay,
    name: str,
    kind: str,
    by: Actor,
    link_template: str = "",
    house_handle: str = "",
    details: str = "",
    method: str = Settlement.Method.WAY,
) -> PayWay:
    """Rename a way or change how it is paid. Settlements that named it keep naming it (by
    its id): a rename renames them on every page, as a guest's does."""
    fields = _checked(name=name, kind=kind, link_template=link_template,
                      house_handle=house_handle, details=details, method=method)  # fmt: skip
    way = _lock(way)
    _name_free(fields["name"], way)
    before = _snapshot(way)
    for field, value in fields.items():
        setattr(way, field, value)
    _save(way)
    _audit(way, by, before)
    return way


@transaction.atomic
def way_retire(*, way: PayWay, retired: bool, by: Actor) -> PayWay:
    """Take a way off the lists (``retired``) or bring it back; the rows naming it keep it."""
    way = _lock(way)
    if way.is_retired == retired:
        return way  # a second tap: already so
    before = _snapshot(way)
    way.retired_at = timezone.now() if retired else None
    way.save(update_fields=["retired_at"])
    _audit(way, by, before)
    return way


@transaction.atomic
def way_move(*, way: PayWay, up: bool, by: Actor) -> PayWay:
    """Swap the way with the one above it (``up``) or below it in the list."""
    neighbours = PayWay.objects.exclude(pk=way.pk)
    way = _lock(way)
    if up:
        other = neighbours.filter(position__lte=way.position).order_by("-position", "-id").first()
    else:
        other = neighbours.filter(position__gte=way.position).order_by("position", "id").first()
    if other is None:
        return way
    other = _lock(other)
    before = _snapshot(way)
    if other.position == way.position:  # two added at the same moment share one: part them
        other.position += -1 if up else 1
    way.position, other.position = other.position, way.position
    way.save(update_fields=["position"])
    other.save(update_fields=["position"])
    _audit(way, by, before)
    return way


@transaction.atomic
def pay_handle_save(*, guest: Guest, way: PayWay, handle: str, by: Actor) -> GuestPayHandle | None:
    """Set the guest's handle on ``way`` (empty: remove it). Checked as the way's kind reads it;
    the guest locked as a rename locks it (a merge waits, or is waited for)."""
    text = clean_handle(way.kind, handle)
    guest = lock_guest(guest)
    current = GuestPayHandle.objects.filter(guest=guest, way=way).first()
    before = {"way": way.name, "handle": current.handle} if current else None
    if current is not None and current.handle == text:
        return current
    if not text:
        if current is not None:
            current.delete()
        saved = None
    elif current is None:
        saved = GuestPayHandle.objects.create(guest=guest, way=way, handle=text)
    else:
        current.handle, current.updated_at = text, timezone.now()
        current.save(update_fields=["handle", "updated_at"])
        saved = current
    AuditEntry.objects.create(
        action=AuditEntry.Action.PAY_HANDLE,
        by=by,
        summary=str(guest),
        before=before,
        after={"way": way.name, "handle": text} if text else None,
    )
    announce_to([f"guest:{guest.pk}"], what="pay_handle")  # the guest's page
    return saved
