"""Guests: the host's list and guest pages, private links, and each guest's own page."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.forms import BaseForm
from django.http import FileResponse, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import reswap, retarget

from games.models import Event, Shoe
from games.scoreboard import scoreboard
from ledger.count.selectors import guest_chips
from ledger.expenses.selectors import guest_expenses
from ledger.forms import add_service_errors, stake_text
from ledger.guests import services as guest_services
from ledger.guests.forms import GuestAliasForm, GuestMergeForm, GuestNameForm, InvitationAcceptForm
from ledger.guests.previews import Preview, preview_png
from ledger.guests.selectors import guest_by_link_or_404, guest_of_user_or_404
from ledger.guests.sharing import balance_share, history_request, plain_text
from ledger.models import (
    Guest,
    GuestAlias,
    GuestPayHandle,
    MergedGuest,
    PayWay,
    Settlement,
    Transfer,
)
from ledger.money.amounts import ZERO, format_chips, format_money_each
from ledger.money.charts import balance_line, balance_steps_of, band_line, qr_svg
from ledger.money.forms import CreditLimitForm
from ledger.money.results import (
    GuestHistory,
    NightLine,
    balance_points,
    guest_balances,
    guest_nights,
    guest_shoes,
    with_balance_symbol,
)
from ledger.payways.forms import HandlesForm
from ledger.payways.selectors import PayRequest, active_ways, guest_handles
from ledger.ratings.selectors import GuestRatings, guest_ratings
from ledger.series.calendar import feed_links, guest_feed_path
from ledger.series.selectors import guest_calendars
from ledger.tips.selectors import guest_tips
from ledger.workbook.exports import workbook_bytes, xlsx_response
from shoebook.base.links import private_link
from shoebook.base.roles import AuthenticatedHttpRequest, HtmxHttpRequest, host_required
from shoebook.base.webapp import manifest_response

GUEST_PAGE_REFRESH_SECONDS = 15
EVENTS_IN_FULL = 5
EARLIER_EVENTS_PER_PAGE = 20
CHART_NIGHTS = 30  # the balance chart's latest nights: its cost does not grow with the history
SETTLEMENTS_PER_PAGE = 20


@host_required
@require_GET
def guest_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    balances = guest_balances()
    guests = [(guest, balances.get(guest.pk)) for guest in with_balance_symbol(Guest.objects.all())]
    return render(request, "ledger/guests/guest_list.html", {"guests": guests})


MSG_PLAYING_NOW_ABOVE = gettext_lazy("playing now: tonight's figures are above")
MSG_CREDIT_LIMIT_SET = gettext_lazy("{guest}'s credit limit is now {limit}.")
MSG_CREDIT_LIMIT_REMOVED = gettext_lazy("{guest} has no credit limit now.")


@host_required
@require_GET
def guest_detail(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    return _render_guest_detail(request, guest)


def _render_guest_detail(
    request: AuthenticatedHttpRequest,
    guest: Guest,
    *,
    invite_link: str = "",
    status: int = 200,
    forms: Mapping[str, BaseForm] | None = None,
) -> HttpResponse:
    """The host's page of a guest: figures, private link, sharing, credit limit, login, names,
    merging."""
    forms = forms or {}
    page = reverse("ledger:guest_detail", args=[guest.pk])
    if request.htmx and "live" in request.GET:
        return _guest_live_response(request, guest, {"receipt_base": page + "receipts/"})
    context = _guest_page_context(guest, request.GET) | {"receipt_base": page + "receipts/"}
    limit = guest.credit_limit
    initial = {"credit_limit": stake_text(limit)} if limit is not None else None
    context["limit_form"] = forms.get("limit_form") or CreditLimitForm(initial=initial)
    link = ""
    if guest.access_token:
        link = request.build_absolute_uri(_guest_link(guest))
        context["link"] = link
        context["qr"] = qr_svg(link)
    history = context["history"]
    assert isinstance(history, GuestHistory)
    request_now = context["pay_request"]
    assert request_now is None or isinstance(request_now, PayRequest)
    context["share"] = balance_share(history, link, request_now)
    context["handles_form"] = HandlesForm(
        ways=cast(list[PayWay], context["pay_ways"]),
        handles=cast(list[GuestPayHandle], context["pay_handles"]),
    )
    if invite_link:
        context["invite_link"] = invite_link
        context["invite_qr"] = qr_svg(invite_link)
    context |= {
        "aliases": list(guest.aliases.all()),
        "login": guest.user,
        "invitation": guest.invitations.filter(
            used_at__isnull=True, revoked_at__isnull=True, expires_at__gt=timezone.now()
        ).first(),
        "rename_form": forms.get("rename_form") or GuestNameForm(initial={"name": guest.name}),
        "alias_form": forms.get("alias_form") or GuestAliasForm(),
        "merge_form": forms.get("merge_form") or GuestMergeForm(guest=guest),
    }
    return render(request, "ledger/guests/guest_detail.html", context, status=status)


def _guest_form_action(
    request: AuthenticatedHttpRequest,
    guest: Guest,
    form_name: str,
    form: BaseForm,
    action: Callable[[], str],
) -> HttpResponse:
    """Run one service with a valid form of the guest's page: a message and back to the page,
    or the page again with the form's errors (never a server error)."""
    if form.is_valid():
        try:
            text = action()
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, text)
            return redirect("ledger:guest_detail", guest.pk)
    return _render_guest_detail(request, guest, status=400, forms={form_name: form})


@host_required
@require_POST
def guest_rename(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    form = GuestNameForm(request.POST)
    before = guest.name

    def rename() -> str:
        renamed = guest_services.guest_rename(
            guest=guest, name=form.cleaned_data["name"], by=request.user
        )
        return _("{before} is now called {after}.").format(before=before, after=renamed.name)

    return _guest_form_action(request, guest, "rename_form", form, rename)


@host_required
@require_POST
def guest_alias_add(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)
    form = GuestAliasForm(request.POST)

    def add() -> str:
        alias = guest_services.guest_alias_add(
            guest=guest, name=form.cleaned_data["name"], by=request.user
        )
        return _("{guest} is also found as {alias}.").format(guest=guest.name, alias=alias.name)

    return _guest_form_action(request, guest, "alias_form", form, add)


@host_required
@require_POST
def guest_alias_remove(
    request: AuthenticatedHttpRequest, guest_id: int, alias_id: int
) -> HttpResponse:
    alias = get_object_or_404(GuestAlias.objects.select_related("guest"), pk=alias_id,
                              guest_id=guest_id)  # fmt: skip

    def remove() -> str:
        guest_services.guest_alias_remove(alias=alias, by=request.user)
        return _("{alias} no longer finds {guest}.").format(alias=alias.name, guest=alias.guest)

    return _guest_write(request, guest_id, remove)


def _guest_write(request: HttpRequest, guest_id: int, write: Callable[[], str]) -> HttpResponse:
    """Run a write from a guest's page and say what it did, or why not (the guest merged into
    another on another device meanwhile), back on the guest's page."""
    try:
        text = write()
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, text)
    if not Guest.objects.filter(pk=guest_id).exists():  # merged away: to the guest it became
        kept = MergedGuest.objects.filter(old_id=guest_id).values_list("guest_id", flat=True)
        return redirect("ledger:guest_detail", kept[0]) if kept else redirect("ledger:guest_list")
    return redirect("ledger:guest_detail", guest_id)


@host_required
@require_http_methods(["GET", "POST"])
def guest_merge(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    """GET asks first: what merging the chosen guest into this one moves, the balances before
    and after, or why it is refused. POST merges."""
    guest = get_object_or_404(Guest, pk=guest_id)
    form = GuestMergeForm(request.POST if request.method == "POST" else request.GET, guest=guest)
    if not form.is_valid():
        return _render_guest_detail(request, guest, status=400, forms={"merge_form": form})
    other: Guest = form.cleaned_data["other"]
    if request.method == "POST":
        try:
            guest_services.guest_merge(guest=guest, other=other, by=request.user)
        except ValidationError as error:
            for message in error.messages:
                messages.error(request, message)
        else:
            text = _("{other} is merged into {guest}: one guest, one balance.")
            messages.success(request, text.format(other=other.name, guest=guest.name))
            return redirect("ledger:guest_detail", guest.pk)
    balances = guest_balances()
    mine, theirs = balances.get(guest.pk, ZERO), balances.get(other.pk, ZERO)
    both = with_balance_symbol(Guest.objects.filter(pk__in=[guest.pk, other.pk]))
    symbols = dict(both.values_list("pk", "balance_symbol"))  # type: ignore[misc]  # annotated
    context = {
        "guest": guest,
        "other": other,
        "form": form,
        "moves": guest_services.guest_merge_preview(guest=guest, other=other),
        "refusal": guest_services.guest_merge_refusal(guest=guest, other=other),
        "balance": mine,
        "other_balance": theirs,
        "combined": mine + theirs,
        "symbol": symbols.get(guest.pk, ""),
        "other_symbol": symbols.get(other.pk, ""),
    }
    return render(request, "ledger/guests/guest_merge.html", context)


@host_required
@require_POST
def guest_invitation_issue(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    """A one-time login invitation: its link is shown now, once, and never again."""
    guest = get_object_or_404(Guest, pk=guest_id)
    try:
        token = guest_services.guest_invitation_issue(guest=guest, by=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
        return redirect("ledger:guest_detail", guest.pk)
    link = request.build_absolute_uri(reverse("ledger:invitation_accept", args=[token]))
    response = _render_guest_detail(request, guest, invite_link=link)
    response["Cache-Control"] = "private, no-store"
    return response


@host_required
@require_POST
def guest_invitation_revoke(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)

    def revoke() -> str:
        guest_services.guest_invitation_revoke(guest=guest, by=request.user)
        return _("{guest}'s invitation no longer works.").format(guest=guest)

    return _guest_write(request, guest.pk, revoke)


@login_not_required
@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """A guest opens their invitation: choose a username and password, and they are logged in
    to their own page. A link that is unknown, used, withdrawn or expired says so."""
    invitation = guest_services.invitation_by_token(token)
    problem = guest_services.invitation_problem(invitation)
    form = InvitationAcceptForm(request.POST or None)
    if problem is None and request.method == "POST" and form.is_valid():
        try:
            user = guest_services.guest_invitation_accept(
                token=token,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            if "username" in error.message_dict:  # another name will do: the form says why
                add_service_errors(form, error)
            else:
                problem = " ".join(error.messages)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(
                request, _("Welcome, {guest}: this is your page.").format(guest=user.guest)
            )
            return redirect("ledger:my_page")
    if problem is not None:
        status = 404 if invitation is None else 410
        response = render(
            request, "ledger/guests/invitation_invalid.html", {"problem": problem}, status=status
        )
    else:
        assert invitation is not None  # no problem: an invitation
        context = {"form": form, "guest": invitation.guest, "expires": invitation.expires_at}
        response = render(
            request,
            "ledger/guests/invitation_accept.html",
            context,
            status=400 if form.errors else 200,
        )
    return private_link(response, referrer="same-origin")  # its form posts back here


@host_required
@require_POST
def guest_credit_limit(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    """Set or clear how much the guest may owe the house (a warning past it, never a block)."""
    guest = get_object_or_404(Guest, pk=guest_id)
    form = CreditLimitForm(request.POST)
    if form.is_valid():
        limit = form.cleaned_data["credit_limit"]
        try:
            guest_services.guest_credit_limit_set(guest=guest, credit_limit=limit, by=request.user)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            if limit is None:
                messages.success(request, MSG_CREDIT_LIMIT_REMOVED.format(guest=guest.name))
            else:
                text = MSG_CREDIT_LIMIT_SET.format(guest=guest.name, limit=format_chips(limit))
                messages.success(request, text)
            return redirect(reverse("ledger:guest_detail", args=[guest.pk]) + "#credit-limit")
    return _render_guest_detail(request, guest, status=400, forms={"limit_form": form})


def _guest_link(guest: Guest) -> str:
    return reverse("ledger:guest_page", args=[guest.pk, guest.access_token])


@host_required
@require_POST
def guest_link_issue(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)

    def issue() -> str:
        guest_services.guest_link_issue(guest=guest)
        text = _("A new private link for {guest}: any earlier link no longer works.")
        return text.format(guest=guest)

    return _guest_write(request, guest.pk, issue)


@host_required
@require_POST
def guest_link_revoke(request: AuthenticatedHttpRequest, guest_id: int) -> HttpResponse:
    guest = get_object_or_404(Guest, pk=guest_id)

    def revoke() -> str:
        guest_services.guest_link_revoke(guest=guest)
        return _("{guest}'s private link no longer works.").format(guest=guest)

    return _guest_write(request, guest.pk, revoke)


def _playing_in(guest: Guest) -> Shoe | None:
    """The open shoe the guest is seated at, if any: the newest, should a seat at an older one
    never have been cleared."""
    return (
        Shoe.objects.select_related("event")
        .filter(
            closed_at__isnull=True,
            event__closed_at__isnull=True,
            seatings__guest=guest,
            seatings__to_hand__isnull=True,
        )
        .order_by("-pk")
        .first()
    )


def _at_tournament_table(playing_in: Shoe | None) -> bool:
    """At a tournament table the leaderboard comes first: the shoe's roads fold away."""
    return playing_in is not None and playing_in.event.kind == Event.Kind.TOURNAMENT_TABLE


def _guest_live_context(
    guest: Guest, lines: list[NightLine], playing_in: Shoe | None
) -> dict[str, object]:
    """What changes while the guest plays: the balance, the shoe's scoreboard and tonight's
    figures shoe by shoe (``ledger/guests/_guest_live.html``)."""
    tonight_line = next(
        (line for line in lines[::-1] if playing_in and line.event_id == playing_in.event_id),
        None,
    )
    latest = lines[-1:]
    points = balance_points([*latest, *([tonight_line] if tonight_line else [])])
    return {
        "guest": guest,
        "history": GuestHistory(
            guest=guest,
            points=points[:1],
            shoes=guest_shoes(guest, [tonight_line.event_id]) if tonight_line else {},
            settlements=[],
        ),
        "tonight": points[-1] if tonight_line else None,
        "chips": guest_chips(guest, [tonight_line.event_id]) if tonight_line else {},
        "board": scoreboard(playing_in) if playing_in else None,
        "at_tournament_table": _at_tournament_table(playing_in),
        "playing_now": playing_in is not None,
        "refresh_seconds": GUEST_PAGE_REFRESH_SECONDS,
    }


def _guest_page_context(guest: Guest, query: QueryDict) -> dict[str, object]:
    """A guest's figures: the latest events in full (each shoe), the earlier ones a line each,
    a page of them at a time (``?page=``), the chart over the latest nights and the settlements
    a page at a time (``?settlements=``), so the page stays the same size and nearly the same
    cost as the history grows: the older nights are read as a few numbers each, never loaded."""
    lines = guest_nights(guest)
    recent_lines = lines[-EVENTS_IN_FULL:][::-1]
    earlier_lines = lines[: len(lines) - len(recent_lines)][::-1]
    earlier = Paginator(earlier_lines, EARLIER_EVENTS_PER_PAGE).get_page(query.get("page"))
    charted_lines = lines[-CHART_NIGHTS:]
    shown = {line.event_id: line for line in (*recent_lines, *earlier, *charted_lines)}
    points = {point.event.pk: point for point in balance_points(list(shown.values()))}
    earlier.object_list = cast(Any, [points[line.event_id] for line in earlier])  # loaded
    charted = [points[line.event_id] for line in charted_lines]
    history = GuestHistory(
        guest=guest,
        points=charted,  # ends with the latest night: the balance
        shoes=guest_shoes(guest, [line.event_id for line in recent_lines]),
        settlements=[],  # a page of them below
    )
    settlements = Paginator(
        guest.settlements.select_related("event", "way")
        .annotate(is_voided=Exists(Settlement.objects.filter(voids=OuterRef("pk"))))
        .order_by("-recorded_at", "-id"),
        SETTLEMENTS_PER_PAGE,
    ).get_page(query.get("settlements"))
    transfers = Paginator(
        Transfer.objects.filter(Q(payer=guest) | Q(payee=guest))
        .select_related("event", "payer", "payee")
        .annotate(is_voided=Exists(Transfer.objects.filter(voids=OuterRef("pk"))))
        .order_by("-recorded_at", "-id"),
        SETTLEMENTS_PER_PAGE,
    ).get_page(query.get("transfers"))
    playing_in = _playing_in(guest)
    labels, values = balance_steps_of(
        charted, history.shoes, from_first=len(charted_lines) == len(lines)
    )
    chart = balance_line(_("Balance after each shoe"), labels, values) if len(values) > 1 else ""
    recent = [points[line.event_id] for line in recent_lines]
    # While the guest plays, tonight's figures are in the part that refreshes itself.
    tonight = next((p for p in recent if playing_in and p.event.pk == playing_in.event_id), None)
    ways, handles = list(active_ways()), guest_handles(guest)  # the request's and the form's
    return {
        "pay_request": history_request(history, ways, handles),
        "pay_ways": ways,
        "pay_handles": handles,
        "board": scoreboard(playing_in) if playing_in else None,
        "at_tournament_table": _at_tournament_table(playing_in),
        "guest": guest,
        "history": history,
        "recent": recent,  # tonight's too: named in the list, its figures in the live part
        "tonight": tonight,
        "playing_now_above": MSG_PLAYING_NOW_ABOVE,
        "chips": guest_chips(guest, [point.event.pk for point in recent]),
        "earlier": earlier if earlier_lines else None,
        "settlements": settlements if settlements.paginator.count else None,
        "transfers": transfers if transfers.paginator.count else None,
        "expenses": guest_expenses(guest, [line.event_id for line in recent_lines]),
        "tips": guest_tips(guest.pk, [line.event_id for line in recent_lines]),
        "chart": chart,
        **_rating_context(guest),
        "playing_now": playing_in is not None,
        "refresh_seconds": GUEST_PAGE_REFRESH_SECONDS,
    }


RATED_NIGHTS = 10  # the latest nights' ratings in full; the years' below them


def _rating_context(guest: Guest) -> dict[str, object]:
    """The guest's rating (``ledger.ratings``): the latest nights, each year's, and the chart of
    the house's theoretical win beside its actual result from the guest, with its band."""
    nights = Event.objects.nights().filter(guests=guest).order_by("date", "id")
    rating: GuestRatings = guest_ratings(
        guest.pk, nights, latest=RATED_NIGHTS, charted=CHART_NIGHTS
    )
    chart = ""
    if rating.labels:
        chart = band_line(
            _("What your bets were expected to lose, and what they lost"),
            rating.labels,
            rating.theo,
            rating.actual,
            rating.sd,
            (_("expected"), _("lost"), _("±1 and 2 SD")),
        )
    return {"rating": rating, "rating_chart": chart}


@login_not_required
@require_GET
def guest_page(request: HtmxHttpRequest, guest_id: int, token: str) -> HttpResponse:
    """A guest's own page, by private link: that guest's figures and nothing else."""
    guest = guest_by_link_or_404(guest_id, token)
    manifest_url = reverse("ledger:guest_manifest", args=[guest_id, token])
    picture = request.build_absolute_uri(reverse("ledger:guest_preview", args=[guest_id, token]))
    live_url = reverse("live:guest", args=[guest_id, token])
    return _render_guest_page(
        request, guest, manifest_url=manifest_url, picture=picture, live_url=live_url
    )


@login_not_required
@require_GET
def guest_preview(request: HttpRequest, guest_id: int, token: str) -> HttpResponse:
    """The picture a chat app shows for the guest's link: the name and the balance."""
    guest = guest_by_link_or_404(guest_id, token)
    history = GuestHistory(guest, balance_points(guest_nights(guest)[-1:]), {}, [])
    figure = format_chips(history.balance, history.symbol, signed=True)
    png = preview_png(guest.name, figure, format_money_each(history.balance_money),
                      negative=history.balance < 0)  # fmt: skip
    return private_link(HttpResponse(png, content_type="image/png"), cache="private, no-cache")


@login_not_required
@require_GET
def guest_manifest(request: HttpRequest, guest_id: int, token: str) -> HttpResponse:
    """The web manifest of a guest's private page: the app installed from it opens on that page
    and keeps to it (its receipts too), not on the host's events. Only for a link that is
    valid now: its addresses are the link's own, never anything else the request carries."""
    guest_by_link_or_404(guest_id, token)
    page = reverse("ledger:guest_page", args=[guest_id, token])
    response = manifest_response(start_url=page, scope=page)
    return private_link(response, cache="private, no-cache")  # a replaced link stops here too


@login_not_required
@require_GET
def guest_statement(request: HttpRequest, guest_id: int, token: str) -> FileResponse:
    """The guest's own workbook, by the same private link."""
    return guest_workbook(guest_by_link_or_404(guest_id, token))


@require_GET
def my_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A guest who logged in sees their own page."""
    guest = guest_of_user_or_404(request.user)
    return _render_guest_page(request, guest, live_url=reverse("live:me"))


@require_GET
def my_statement(request: AuthenticatedHttpRequest) -> FileResponse:
    return guest_workbook(guest_of_user_or_404(request.user))


def _render_guest_page(
    request: HtmxHttpRequest,
    guest: Guest,
    *,
    manifest_url: str = "",
    picture: str = "",
    live_url: str = "",
) -> HttpResponse:
    """``manifest_url``: the guest's own app (by private link); without it, the site's.
    ``picture``: the link's preview picture, for a chat app that shows the link. ``live_url``:
    the page's stream (``shoebook.base.live``)."""
    links = {
        "statement_url": request.path + "statement.xlsx",
        "receipt_base": request.path + "receipts/",
    }
    if request.htmx and "live" in request.GET:
        response = _guest_live_response(request, guest, links)
    else:
        template = (
            "ledger/guests/_guest_page.html" if request.htmx else "ledger/guests/guest_page.html"
        )
        context = _guest_page_context(guest, request.GET) | links
        if picture:
            history = cast(GuestHistory, context["history"])
            line = balance_share(history).line
            context["preview"] = Preview(plain_text(guest.name), line, picture)
        context |= {"manifest_url": manifest_url, "live_url": live_url}
        context["calendars"] = _calendars(request, guest)
        response = render(request, template, context)
    return private_link(response)


def _calendars(request: HttpRequest, guest: Guest) -> list[dict[str, str]]:
    """The guest's own calendar link of each series they are a usual guest of."""
    return [
        {"name": row.series.name, **feed_links(request, guest_feed_path(row))}
        for row in guest_calendars(guest.pk)
    ]


def _guest_live_response(request: HttpRequest, guest: Guest, links: dict[str, str]) -> HttpResponse:
    """The refresh during a shoe sends only the part that changes while the guest plays; once
    the shoe is over, the whole page once more (the night joins the list and the chart)."""
    playing_in = _playing_in(guest)
    if playing_in is None:
        context = _guest_page_context(guest, QueryDict()) | links
        page = render(request, "ledger/guests/_guest_page.html", context)
        return reswap(retarget(page, "#guest-page"), "outerHTML")
    context = _guest_live_context(guest, guest_nights(guest), playing_in) | links
    return render(request, "ledger/guests/_guest_live.html", context)


def guest_workbook(guest: Guest) -> FileResponse:
    """A guest's own statement: their rows only, every event they played."""
    events = list(Event.objects.nights().filter(guests=guest).order_by("date", "id"))
    return xlsx_response(workbook_bytes(events, guest=guest), f"{guest.name}.xlsx")
