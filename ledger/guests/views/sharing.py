"""Receipts and shared results: a guest's night as a printable page and a PDF (for hosts and that
guest, by login or private link), and a night's results for the group chat (hosts make it)."""

from __future__ import annotations

from io import BytesIO

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import services as game_services
from games.models import Event
from ledger.guests.previews import Preview, preview_png
from ledger.guests.receipts import guest_receipt, receipt_filename
from ledger.guests.selectors import guest_by_link_or_404, guest_of_user_or_404
from ledger.guests.sharing import event_shared_results, plain_text
from ledger.models import Guest
from ledger.money.amounts import format_chips, format_money
from ledger.money.figures import night_figures
from ledger.money.transfers import HOUSE_NAME
from ledger.workbook.pdf import receipt_pdf
from shoebook.base.links import private_link, same_token
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

PDF = "application/pdf"


def _event_of(guest: Guest, event_id: int) -> Event:
    """An event the guest was on the list of; any other is not found (not even its name)."""
    event = Event.objects.nights().filter(pk=event_id, guests=guest).first()
    if event is None:
        raise Http404
    return event


def _receipt_page(request: HttpRequest, guest: Guest, event_id: int) -> HttpResponse:
    receipt = guest_receipt(guest, _event_of(guest, event_id))
    return private_link(render(request, "ledger/guests/receipt.html", {"receipt": receipt}))


def _receipt_file(guest: Guest, event_id: int) -> FileResponse:
    receipt = guest_receipt(guest, _event_of(guest, event_id), with_qr=False)
    response = FileResponse(
        BytesIO(receipt_pdf(receipt)), filename=receipt_filename(receipt), content_type=PDF
    )
    return private_link(response)


@host_required
@require_GET
def guest_receipt_page(
    request: AuthenticatedHttpRequest, guest_id: int, event_id: int
) -> HttpResponse:
    return _receipt_page(request, get_object_or_404(Guest, pk=guest_id), event_id)


@host_required
@require_GET
def guest_receipt_pdf(
    request: AuthenticatedHttpRequest, guest_id: int, event_id: int
) -> FileResponse:
    return _receipt_file(get_object_or_404(Guest, pk=guest_id), event_id)


@login_not_required
@require_GET
def link_receipt_page(
    request: HttpRequest, guest_id: int, token: str, event_id: int
) -> HttpResponse:
    return _receipt_page(request, guest_by_link_or_404(guest_id, token), event_id)


@login_not_required
@require_GET
def link_receipt_pdf(
    request: HttpRequest, guest_id: int, token: str, event_id: int
) -> FileResponse:
    return _receipt_file(guest_by_link_or_404(guest_id, token), event_id)


@require_GET
def my_receipt_page(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    return _receipt_page(request, guest_of_user_or_404(request.user), event_id)


@require_GET
def my_receipt_pdf(request: AuthenticatedHttpRequest, event_id: int) -> FileResponse:
    return _receipt_file(guest_of_user_or_404(request.user), event_id)


@host_required
@require_GET
def event_share(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """The night's results as a printable page for the group chat, and the link to them."""
    event = get_object_or_404(Event, pk=event_id)
    link = ""
    if event.results_token:
        link = request.build_absolute_uri(
            reverse("ledger:shared_results", args=[event.pk, event.results_token])
        )
    context = {"shared": event_shared_results(event), "results_link": link}
    return render(request, "ledger/guests/event_share.html", context)


@host_required
@require_POST
def event_results_link(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """Make the link to the shared results (a new one replaces the old), or revoke it."""
    event = get_object_or_404(Event, pk=event_id)
    if request.POST.get("revoke"):
        game_services.event_results_link_revoke(event=event)
        messages.success(request, _("The link to the results no longer works."))
    else:
        game_services.event_results_link_issue(event=event)
        messages.success(request, _("A new link to the results: any earlier one no longer works."))
    return redirect("ledger:event_share", event.pk)


def _shared_event(event_id: int, token: str) -> Event:
    event = Event.objects.nights().filter(pk=event_id).first()
    if event is None or not same_token(event.results_token, token):
        raise Http404
    return event


@login_not_required
@require_GET
def shared_results(request: HttpRequest, event_id: int, token: str) -> HttpResponse:
    """The night's results, by the link the host shared with the group: read only."""
    event = _shared_event(event_id, token)
    shared = event_shared_results(event)
    picture = reverse("ledger:shared_results_preview", args=[event_id, token])
    preview = Preview(
        f"{plain_text(event.name)} · {event.date:%Y-%m-%d}", shared.house_words,
        request.build_absolute_uri(picture),
    )  # fmt: skip
    context = {"shared": shared, "public": True, "preview": preview}
    return private_link(render(request, "ledger/guests/event_share.html", context))


@login_not_required
@require_GET
def shared_results_preview(request: HttpRequest, event_id: int, token: str) -> HttpResponse:
    """The picture a chat app shows for the results' link: the night and the house's result."""
    event = _shared_event(event_id, token)
    night = night_figures(event)
    house = night.house_net
    png = preview_png(
        plain_text(event.name), format_chips(house, event.currency_symbol, signed=True),
        f"{event.date:%Y-%m-%d} · {HOUSE_NAME}: "
        f"{format_money(night.house_net_money, event.currency)}",
        negative=house < 0,
    )  # fmt: skip
    return private_link(HttpResponse(png, content_type="image/png"), cache="private, no-cache")


@host_required
@require_POST
def event_share_names(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    share_names = request.POST.get("share_names") == "on"
    game_services.event_share_names_set(event=event, share_names=share_names)
    if share_names:
        messages.success(request, _("The shared results show guests' names."))
    else:
        messages.success(request, _("The shared results show Guest 1, Guest 2… instead of names."))
    return redirect("ledger:event_share", event.pk)
