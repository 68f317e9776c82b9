"""A night's expenses, for the host: the list with each expense's shares and a void, and the form
to record one (on the night's page through htmx, or on a page of its own). Done, the night's page
again (its settlement list counts the expense); refused, the form again with the reason, nothing
recorded."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from games.models import Event
from ledger.expenses import services
from ledger.expenses.forms import ExpenseForm
from ledger.expenses.selectors import event_expense_rows
from ledger.forms import add_service_errors
from ledger.models import Expense, Guest
from ledger.money.forms import VoidForm
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

MSG_EXPENSE_RECORDED = gettext_lazy("Recorded: {what}.")
MSG_EXPENSE_VOIDED = gettext_lazy("Voided: {what}. Reason: {reason}")
MSG_ODD_CENT = gettext_lazy(
    "Each share is exact to the cent and the shares add up to the expense. The cents left over "
    "go one each to the sharers whose exact share lost most in rounding down, and between equal "
    "ones to the first listed: guests in the order they joined the site, the house last."
)
# A tournament table's chips are no one's money: its expenses are its tournament's night's.
WITH_EXPENSES = Event.objects.exclude(kind=Event.Kind.TOURNAMENT_TABLE)


def _panel(
    request: AuthenticatedHttpRequest,
    event: Event,
    form: ExpenseForm | None = None,
    *,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The expenses panel: alone for htmx (the night's page loads it in place), else on a page
    of its own."""
    guests = list(Guest.objects.filter(events=event).order_by("pk"))
    context = {
        "event": event,
        "rows": event_expense_rows(event),
        "expense_form": form if form is not None else ExpenseForm(guests=guests),
        "expense_refusal": refusal,
        "odd_cent_rule": MSG_ODD_CENT,
        "symbol": event.currency_symbol,
    }
    partial = request.htmx and request.GET.get("part", "") != "page"
    template = "ledger/expenses/_expenses.html" if partial else "ledger/expenses/expense_page.html"
    return render(request, template, context, status=200 if request.htmx else status)


def _back(request: AuthenticatedHttpRequest, event: Event, notice: str) -> HttpResponse:
    """Done: the night's page again, whose balances count the expense. From htmx the page
    reloads where it stands."""
    messages.success(request, notice)
    if request.htmx:
        return HttpResponseClientRefresh()
    return redirect(reverse("ledger:event_detail", args=[event.pk]) + "#expenses")


@host_required
@require_GET
def expense_page(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    return _panel(request, get_object_or_404(WITH_EXPENSES, pk=event_id))


@host_required
@require_POST
def expense_record(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    event = get_object_or_404(WITH_EXPENSES, pk=event_id)
    guests = list(Guest.objects.filter(events=event).order_by("pk"))
    form = ExpenseForm(request.POST, guests=guests)
    if form.is_valid():
        data = form.cleaned_data
        try:
            expense = services.expense_record(
                event=event,
                what=data["what"],
                amount=data["amount"],
                paid_by=data["payer"],
                sharers=data["sharers"],
                split=data["split"],
                paid_in=data["paid_in"],
                by=request.user,
                idempotency_key=data["idempotency_key"],
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            what = services.expense_words(expense)
            return _back(request, event, str(MSG_EXPENSE_RECORDED.format(what=what)))
    return _panel(request, event, form, status=400)


@host_required
@require_POST
def expense_void(request: AuthenticatedHttpRequest, expense_id: int) -> HttpResponse:
    expense = get_object_or_404(Expense.objects.select_related("event"), pk=expense_id)
    event = expense.event
    form = VoidForm(request.POST, required=services.MSG_EXPENSE_VOID_REASON)
    refusal = ""
    if form.is_valid():
        try:
            services.expense_void(
                expense=expense, reason=form.cleaned_data["reason"], by=request.user
            )
        except ValidationError as error:
            refusal = " ".join(error.messages)
        else:
            reason = form.cleaned_data["reason"].strip()
            what = services.expense_words(expense)
            return _back(request, event, str(MSG_EXPENSE_VOIDED.format(what=what, reason=reason)))
    else:
        refusal = " ".join(str(e) for errors in form.errors.values() for e in errors)
    return _panel(request, event, refusal=refusal, status=400)
