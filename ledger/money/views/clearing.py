"""Settling up a guest-banked night: the host records each transfer as it happens (a proposed
line paid in full or in part, or another one) and voids one recorded by mistake. Done, back to
the event page; refused, with htmx in the page the settling-up panel answers in place with the
reason, without it the panel comes on a page of its own."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from games.models import Event
from ledger.forms import add_service_errors
from ledger.models import Guest, Transfer
from ledger.money import transfers
from ledger.money.amounts import format_chips
from ledger.money.forms import VoidForm
from ledger.money.transfer_forms import (
    MSG_UNKNOWN_PARTY,
    TransferForm,
    clearing_panel,
)
from ledger.money.transfers import MSG_TRANSFER_VOID_REASON
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

MSG_TRANSFER_RECORDED = gettext_lazy("Recorded: {payer} paid {payee} {amount}.")
MSG_TRANSFER_VOIDED = gettext_lazy("Voided: {payer} → {payee} · {amount}. Reason: {reason}")


def _panel(
    request: AuthenticatedHttpRequest,
    event: Event,
    form: TransferForm | None = None,
    *,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The settling-up panel: alone for htmx, else on a page of its own (a refusal)."""
    context = {
        "event": event,
        "clearing": clearing_panel(event, form),
        "clearing_refusal": refusal,
    }
    template = "ledger/money/_clearing.html" if request.htmx else "ledger/money/clearing_page.html"
    # htmx swaps a 200 only: a refusal comes back in place, its status for the page alone.
    return render(request, template, context, status=200 if request.htmx else status)


def _back(request: AuthenticatedHttpRequest, event: Event, notice: str) -> HttpResponse:
    """Done: the event page again, whose settlement list counts the transfer too. From htmx the
    page reloads where it stands (a redirect to the same page and a fragment would not load it
    again, and the host would see nothing change)."""
    messages.success(request, notice)
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#clearing")


def _party(key: int, field: str) -> Guest | None:
    """The guest of a key the form accepted (``None``: the house); refused if gone since."""
    if key == transfers.HOUSE:
        return None
    guest = Guest.objects.filter(pk=key).first()
    if guest is None:
        raise ValidationError({field: MSG_UNKNOWN_PARTY})
    return guest


@host_required
@require_POST
def transfer_record(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Record a transfer: who paid whom, how much (the line's amount, or less)."""
    event = get_object_or_404(Event, pk=event_id)
    if not event.is_guest_banked:
        return _panel(request, event, refusal=str(transfers.MSG_NOT_GUEST_BANKED), status=400)
    form = TransferForm(request.POST, balances=transfers.night_balances(event))
    if form.is_valid():
        data = form.cleaned_data
        try:
            transfer = transfers.transfer_record(
                event=event,
                payer=_party(data["payer"], "payer"),
                payee=_party(data["payee"], "payee"),
                amount=data["amount"],
                note=data["note"],
                in_chips=data["in_chips"],
                by=request.user,
                idempotency_key=data["idempotency_key"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            notice = MSG_TRANSFER_RECORDED.format(
                payer=_name(transfer.payer),
                payee=_name(transfer.payee),
                amount=format_chips(transfer.amount, event.currency_symbol),
            )
            return _back(request, event, notice)
    return _panel(request, event, form, status=400)


def _name(guest: Guest | None) -> str:
    return guest.name if guest is not None else str(transfers.HOUSE_NAME)


@host_required
@require_POST
def transfer_void(request: AuthenticatedHttpRequest, transfer_id: int) -> HttpResponse:
    """Void a transfer recorded by mistake: a row the other way, with the reason."""
    transfer = get_object_or_404(
        Transfer.objects.select_related("event", "payer", "payee"), pk=transfer_id
    )
    event = transfer.event
    form = VoidForm(request.POST, required=MSG_TRANSFER_VOID_REASON)
    if not form.is_valid():
        refusal = " ".join(str(error) for errors in form.errors.values() for error in errors)
        return _panel(request, event, refusal=refusal, status=400)
    try:
        transfers.transfer_void(
            transfer=transfer, reason=form.cleaned_data["reason"], by=request.user
        )
    except ValidationError as error:
        return _panel(request, event, refusal=" ".join(error.messages), status=400)
    notice = MSG_TRANSFER_VOIDED.format(
        payer=_name(transfer.payer),
        payee=_name(transfer.payee),
        amount=format_chips(transfer.amount, event.currency_symbol),
        reason=form.cleaned_data["reason"].strip(),
    )
    return _back(request, event, notice)
