"""The host's list of ways to pay (add, edit, move, retire) and a guest's handles. With htmx in
the page a form answers with its section in place (done or refused, a 200: htmx swaps those);
without it, done is a redirect and refused the page again with a 400."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from ledger.forms import add_service_errors
from ledger.models import Guest, PayWay
from ledger.payways import services
from ledger.payways.forms import HandlesForm, PayWayForm, handles_context
from ledger.payways.selectors import active_ways, guest_handles
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

MSG_WAY_ADDED = _("Added “{name}” to the ways to pay.")
MSG_WAY_SAVED = _("Saved “{name}”.")
MSG_WAY_RETIRED_NOW = _("“{name}” is retired: it stays on the settlements that name it.")
MSG_WAY_BACK = _("“{name}” is back on the list.")
MSG_WAY_MOVED = _("Moved “{name}”.")
MSG_HANDLES_SAVED = _("Saved {guest}'s handles.")


def _ways_page(
    request: AuthenticatedHttpRequest,
    *,
    add_form: PayWayForm | None = None,
    edit_form: tuple[int, PayWayForm] | None = None,
    notice: str = "",
    status: int = 200,
) -> HttpResponse:
    ways = list(PayWay.objects.all())
    rows = [
        (way, edit_form[1] if edit_form and edit_form[0] == way.pk else PayWayForm.of(way))
        for way in ways
    ]
    context = {"rows": rows, "add_form": add_form or PayWayForm(prefix="new"), "notice": notice}
    template = "ledger/payways/_ways.html" if request.htmx else "ledger/payways/ways.html"
    return render(request, template, context, status=200 if request.htmx else status)


def _done(request: AuthenticatedHttpRequest, notice: str) -> HttpResponse:
    if request.htmx:
        return _ways_page(request, notice=notice)
    messages.success(request, notice)
    return redirect("ledger:pay_ways")


@host_required
@require_GET
def pay_ways(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _ways_page(request)


@host_required
@require_POST
def pay_way_add(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PayWayForm(request.POST, prefix="new")
    if form.is_valid():
        try:
            way = services.way_add(**form.cleaned_data, by=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return _done(request, MSG_WAY_ADDED.format(name=way.name))
    return _ways_page(request, add_form=form, status=400)


@host_required
@require_POST
def pay_way_edit(request: AuthenticatedHttpRequest, way_id: int) -> HttpResponse:
    way = get_object_or_404(PayWay, pk=way_id)
    form = PayWayForm(request.POST, prefix=f"w{way.pk}")
    if form.is_valid():
        try:
            way = services.way_edit(way=way, **form.cleaned_data, by=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            return _done(request, MSG_WAY_SAVED.format(name=way.name))
    return _ways_page(request, edit_form=(way.pk, form), status=400)


def _way_action(
    request: AuthenticatedHttpRequest, way_id: int, action: Callable[[PayWay], str]
) -> HttpResponse:
    way = get_object_or_404(PayWay, pk=way_id)
    try:
        notice = action(way)
    except ValidationError as error:
        notice = " ".join(error.messages)
        if not request.htmx:
            messages.error(request, notice)
            return _ways_page(request, status=400)
        return _ways_page(request, notice=notice)
    return _done(request, notice)


@host_required
@require_POST
def pay_way_retire(request: AuthenticatedHttpRequest, way_id: int) -> HttpResponse:
    """Retire the way (``retired=1``) or bring it back (``retired=0``)."""
    retired = request.POST.get("retired", "1") != "0"

    def retire(way: PayWay) -> str:
        way = services.way_retire(way=way, retired=retired, by=request.user)
        return (MSG_WAY_RETIRED_NOW if retired else MSG_WAY_BACK).format(name=way.name)

    return _way_action(request, way_id, retire)


@host_required
@require_POST
def pay_way_move(request: AuthenticatedHttpRequest, way_id: int) -> HttpResponse:
    """Move the way up (``direction=up``) or down the list."""
    up = request.POST.get("direction") == "up"

    def move(way: PayWay) -> str:
        way = services.way_move(way=way, up=up, by=request.user)
        return MSG_WAY_MOVED.format(name=way.name)

    return _way_action(request, way_id, move)


@host_required
@require_POST
def guest_handles_save(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    """Save the guest's handles: each box that changed (an emptied one removes its handle)."""
    guest = get_object_or_404(Guest, pk=guest_id)
    ways = list(active_ways())
    form = HandlesForm(request.POST, ways=ways, handles=guest_handles(guest))
    if form.is_valid():
        for way, handle in form.changed():
            try:
                services.pay_handle_save(guest=guest, way=way, handle=handle, by=request.user)
            except ValidationError as error:
                for problem in error.messages:
                    form.add_error(f"way_{way.pk}", problem)
    if form.is_valid():
        notice = str(MSG_HANDLES_SAVED.format(guest=guest.name))
        if request.htmx:
            context = {"guest": guest, "handles_notice": notice} | handles_context(guest)
            return render(request, "ledger/payways/_handles.html", context)
        messages.success(request, notice)
        return redirect(reverse("ledger:guest_detail", args=[guest.pk]) + "#pay-handles")
    context = {"guest": guest} | handles_context(guest, form)
    if request.htmx:
        return render(request, "ledger/payways/_handles.html", context)
    return render(request, "ledger/payways/handles_page.html", context, status=400)
