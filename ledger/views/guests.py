"""Guests: the host's list and guest pages, private links, and each guest's own page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games.models import Event, Shoe
from games.scoreboard import scoreboard
from ledger import services
from ledger.charts import balance_line, balance_steps, qr_svg
from ledger.exports import workbook_bytes, xlsx_response
from ledger.forms import CreditLimitForm, add_service_errors, stake_text
from ledger.models import Guest
from ledger.money import format_chips
from ledger.results import GuestHistory, guest_balances, guest_history
from ledger.selectors import guest_by_link, guest_of_user
from ledger.sharing import balance_share
from shoebook.roles import AuthenticatedHttpRequest, HtmxHttpRequest, host_required

GUEST_PAGE_REFRESH_SECONDS = 15


@host_required
@require_GET
def guest_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    balances = guest_balances()
    guests = [(guest, balances.get(guest.pk)) for guest in Guest.objects.all()]
    return render(request, "ledger/guest_list.html", {"guests": guests})


MSG_CREDIT_LIMIT_SET = gettext_lazy("{guest}'s credit limit is now {limit}.")
MSG_CREDIT_LIMIT_REMOVED = gettext_lazy("{guest} has no credit limit now.")


@host_required
@require_GET
def guest_detail(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    return _render_guest_detail(request, guest)


def _render_guest_detail(
    request: AuthenticatedHttpRequest, guest: Guest, limit_form: CreditLimitForm | None = None
) -> HttpResponse:
    page = reverse("ledger:guest_detail", args=[guest.pk])
    context = _guest_page_context(guest) | {"receipt_base": page + "receipts/"}
    limit = guest.credit_limit
    initial = {"credit_limit": stake_text(limit)} if limit is not None else None
    context["limit_form"] = limit_form or CreditLimitForm(initial=initial)
    link = ""
    if guest.access_token:
        link = request.build_absolute_uri(_guest_link(guest))
        context["link"] = link
        context["qr"] = qr_svg(link)
    history = context["history"]
    assert isinstance(history, GuestHistory)
    context["share"] = balance_share(history, link)
    return render(request, "ledger/guest_detail.html", context)


@host_required
@require_POST
def guest_credit_limit(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    """Set or clear how much the guest may owe the house (a warning past it, never a block)."""
    guest = get_object_or_404(Guest, pk=guest_id)
    form = CreditLimitForm(request.POST)
    if form.is_valid():
        limit = form.cleaned_data["credit_limit"]
        try:
            services.guest_credit_limit_set(guest=guest, credit_limit=limit, by=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if limit is None:
                messages.success(request, MSG_CREDIT_LIMIT_REMOVED.format(guest=guest.name))
            else:
                text = MSG_CREDIT_LIMIT_SET.format(guest=guest.name, limit=format_chips(limit))
                messages.success(request, text)
            return redirect(reverse("ledger:guest_detail", args=[guest.pk]) + "#credit-limit")
    return _render_guest_detail(request, guest, form)


def _guest_link(guest: Guest) -> str:
    return reverse("ledger:guest_page", args=[guest.pk, guest.access_token])


@host_required
@require_POST
def guest_link_issue(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    services.guest_link_issue(guest=guest)
    text = _("A new private link for {guest}: any earlier link no longer works.")
    messages.success(request, text.format(guest=guest))
    return redirect("ledger:guest_detail", guest.pk)


@host_required
@require_POST
def guest_link_revoke(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    services.guest_link_revoke(guest=guest)
    messages.success(request, _("{guest}'s private link no longer works.").format(guest=guest))
    return redirect("ledger:guest_detail", guest.pk)


def _guest_page_context(guest: Guest) -> dict[str, object]:
    history = guest_history(guest)
    playing_in = Shoe.objects.filter(
        closed_at__isnull=True,
        event__closed_at__isnull=True,
        seatings__guest=guest,
        seatings__to_hand__isnull=True,
    ).first()
    playing_now = playing_in is not None
    labels, values = balance_steps(history)
    chart = balance_line(_("Balance after each shoe"), labels, values) if len(values) > 1 else ""
    return {
        "board": scoreboard(playing_in) if playing_in else None,
        "guest": guest,
        "history": history,
        "chart": chart,
        "playing_now": playing_now,
        "refresh_seconds": GUEST_PAGE_REFRESH_SECONDS,
    }


def _guest_by_link(guest_id: int, token: str) -> Guest:
    guest = guest_by_link(guest_id, token)
    if guest is None:
        raise Http404
    return guest


def _guest_of(request: AuthenticatedHttpRequest) -> Guest:
    guest = guest_of_user(request.user)
    if guest is None:
        raise Http404
    return guest


@login_not_required
@require_GET
def guest_page(request: HtmxHttpRequest, guest_id: int, token: str) -> HttpResponse:
    """A guest's own page, by private link: that guest's figures and nothing else."""
    return _render_guest_page(request, _guest_by_link(guest_id, token))


@login_not_required
@require_GET
def guest_statement(request: HttpRequest, guest_id: int, token: str) -> FileResponse:
    """The guest's own workbook, by the same private link."""
    return guest_workbook(_guest_by_link(guest_id, token))


@require_GET
def my_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A guest who logged in sees their own page."""
    return _render_guest_page(request, _guest_of(request))


@require_GET
def my_statement(request: AuthenticatedHttpRequest) -> FileResponse:
    return guest_workbook(_guest_of(request))


def _render_guest_page(request: HtmxHttpRequest, guest: Guest) -> HttpResponse:
    template = "ledger/_guest_page.html" if request.htmx else "ledger/guest_page.html"
    context = _guest_page_context(guest) | {
        "statement_url": request.path + "statement.xlsx",
        "receipt_base": request.path + "receipts/",
    }
    response = render(request, template, context)
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: never leak it
    response["Cache-Control"] = "private, no-store"
    return response


def guest_workbook(guest: Guest) -> FileResponse:
    """A guest's own statement: their rows only, every event they played."""
    events = list(Event.objects.filter(guests=guest).order_by("date", "id"))
    return xlsx_response(workbook_bytes(events, guest=guest), f"{guest.name}.xlsx")
