"""A series' pages: made from a night, its own page (nights, dates to come, the next night in
one tap, usual guests and their calendar links, invitations to share, standings), and the
calendar feeds, by private link."""

from __future__ import annotations

from datetime import date

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.core.exceptions import ValidationError
from django.forms import BaseForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from games.models import Event, Series
from ledger.forms import add_service_errors
from ledger.models import Guest, SeriesGuest
from ledger.ratings.selectors import ratings_for
from ledger.ratings.tables import ratings_tables
from ledger.series import selectors
from ledger.series import services as series_services
from ledger.series.calendar import feed_links, guest_feed_path, series_calendar
from ledger.series.forms import NextNightForm, SeriesForm, SeriesFromNightForm, UsualGuestsForm
from shoebook.base.links import private_link
from shoebook.base.roles import AuthenticatedHttpRequest, host_required

MSG_SERIES_MADE = _("{series} is a series: its next night is one tap away.")
MSG_SERIES_SAVED = _("{series} is saved.")
MSG_NIGHT_MADE = _("{event} is ready on {date}, with the series' settings and usual guests.")
MSG_NIGHT_ALREADY_MADE = _("{event} was made already by that tap.")
MSG_GUESTS_SAVED = _("The usual guests are saved.")
MSG_SETTINGS_TAKEN = _("The series takes the settings of {event} from its next night on.")
MSG_LINK_NEW = _("A new calendar link is made: the old one no longer opens.")
MSG_LINK_REVOKED = _("The calendar link is revoked.")
MSG_INVITATION = _("{name}: {when}{where}. Add it to your calendar: {link}")
MSG_INVITATION_WHERE = _(", {venue}")


@host_required
@require_GET
def series_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(
        request, "ledger/series/series_list.html", {"series": selectors.series_for_list()}
    )


@host_required
@require_http_methods(["GET", "POST"])
def series_from_night(request: AuthenticatedHttpRequest, event_id: int) -> HttpResponse:
    """ "Make this a series": the night's settings, venue and guests, on the schedule chosen."""
    event = get_object_or_404(Event.objects.nights(), pk=event_id)
    if event.series_id is not None:
        return redirect("ledger:series_detail", event.series_id)
    initial = {"name": event.name, "weekday": event.date.weekday(), "day_of_month": event.date.day}
    initial["week_of_month"] = min((event.date.day - 1) // 7 + 1, 4)
    form = SeriesFromNightForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            series = series_services.series_from_night(
                event=event, by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, MSG_SERIES_MADE.format(series=series.name))
            return redirect("ledger:series_detail", series.pk)
    status = 400 if form.is_bound else 200
    context = {"form": form, "event": event}
    return render(request, "ledger/series/series_from_night.html", context, status=status)


@host_required
@require_http_methods(["GET", "POST"])
def series_edit(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=series_id)
    form = SeriesForm(request.POST or None, instance=series)
    if request.method == "POST" and form.is_valid():
        try:
            series_services.series_edit(series=series, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            add_service_errors(form, error)
        else:
            messages.success(request, MSG_SERIES_SAVED.format(series=series.name))
            return redirect("ledger:series_detail", series.pk)
    status = 400 if form.is_bound else 200
    context = {"form": form, "series": series}
    return render(request, "ledger/series/series_edit.html", context, status=status)


def _invitation(request: HttpRequest, series: Series, night: Event, row: SeriesGuest) -> str:
    when = formats.date_format(night.date, "DATE_FORMAT")
    when += " " + formats.time_format(series.starts_at, "TIME_FORMAT")
    where = str(MSG_INVITATION_WHERE).format(venue=night.venue) if night.venue else ""
    link = feed_links(request, guest_feed_path(row))["https"]
    return str(MSG_INVITATION).format(name=night.name, when=when, where=where, link=link)


def _series_page(
    request: AuthenticatedHttpRequest, series: Series, *, status: int = 200, **forms: BaseForm
) -> HttpResponse:
    nights = list(selectors.series_nights(series))
    ratings = ratings_for(nights)
    upcoming = selectors.upcoming_dates(series, nights)
    next_night = selectors.next_open_night(series, nights)
    rows = selectors.usual_guests(series)
    guests = []
    for row in rows:
        feed = guest_feed_path(row) if row.calendar_token else ""
        invitation = _invitation(request, series, next_night, row) if next_night and feed else ""
        links = feed_links(request, feed) if feed else {}
        guests.append({"row": row, "links": links, "invitation": invitation})
    chosen = {row.guest_id for row in rows}
    usual_form = forms.get("usual_form") or UsualGuestsForm(initial={"guests": sorted(chosen)})
    host_feed = {}
    if series.feed_token:
        path = reverse("ledger:series_feed", args=[series.pk, series.feed_token])
        host_feed = feed_links(request, path)
    context = {
        "series": series,
        "nights": nights,
        "upcoming": upcoming,
        "next_night": next_night,
        "guests": guests,
        "standings": selectors.series_standings(series),
        "next_form": forms.get("next_form") or NextNightForm(),
        "usual_form": usual_form,
        "host_feed": host_feed,
        "settings_night": nights[-1] if nights else None,
        "ratings": ratings,
        **ratings_tables(request, ratings),
    }
    return render(request, "ledger/series/series_detail.html", context, status=status)


@host_required
@require_GET
def series_detail(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    return _series_page(request, get_object_or_404(Series, pk=series_id))


@host_required
@require_POST
def series_next_night(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    """The next night in one tap: a second tap with the same key lands on the same night."""
    series = get_object_or_404(Series, pk=series_id)
    form = NextNightForm(request.POST)
    if not form.is_valid():
        return _series_page(request, series, status=400, next_form=form)
    on: date | None = form.cleaned_data["date"] or form.cleaned_data["shown"]
    try:
        made = series_services.series_next_night(
            series=series,
            by=request.user,
            idempotency_key=form.cleaned_data["idempotency_key"],
            on=on,
        )
    except ValidationError as error:
        add_service_errors(form, error)
        return _series_page(request, series, status=400, next_form=form)
    event = made.event
    if made.new:
        day = formats.date_format(event.date, "DATE_FORMAT")
        messages.success(request, MSG_NIGHT_MADE.format(event=event.name, date=day))
    else:
        messages.info(request, MSG_NIGHT_ALREADY_MADE.format(event=event.name))
    return redirect("ledger:event_detail", event.pk)


@host_required
@require_POST
def series_guests(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    series = get_object_or_404(Series, pk=series_id)
    form = UsualGuestsForm(request.POST)
    if not form.is_valid():
        return _series_page(request, series, status=400, usual_form=form)
    try:
        series_services.series_guests_set(
            series=series, by=request.user, guests=list(form.cleaned_data["guests"])
        )
    except ValidationError as error:
        add_service_errors(form, error)
        return _series_page(request, series, status=400, usual_form=form)
    messages.success(request, MSG_GUESTS_SAVED)
    return redirect("ledger:series_detail", series.pk)


@host_required
@require_POST
def series_settings_from(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    """The series takes its latest night's settings (changed on that night's own form)."""
    series = get_object_or_404(Series, pk=series_id)
    night = selectors.series_nights(series).last()
    if night is None:
        return redirect("ledger:series_detail", series.pk)
    series_services.series_settings_from(series=series, event=night, by=request.user)
    messages.success(request, MSG_SETTINGS_TAKEN.format(event=night))
    return redirect("ledger:series_detail", series.pk)


@host_required
@require_POST
def series_feed_link(request: AuthenticatedHttpRequest, series_id: int) -> HttpResponse:
    """The hosts' calendar link: a new one (``issue``) or none (``revoke``)."""
    series = get_object_or_404(Series, pk=series_id)
    if "revoke" in request.POST:
        series_services.series_feed_link_revoke(series=series, by=request.user)
        messages.success(request, MSG_LINK_REVOKED)
    else:
        series_services.series_feed_link_issue(series=series, by=request.user)
        messages.success(request, MSG_LINK_NEW)
    return redirect("ledger:series_detail", series.pk)


@host_required
@require_POST
def series_guest_link(
    request: AuthenticatedHttpRequest, series_id: int, guest_id: int
) -> HttpResponse:
    """A usual guest's calendar link: a new one (``issue``) or none (``revoke``)."""
    series = get_object_or_404(Series, pk=series_id)
    guest = get_object_or_404(Guest, pk=guest_id)
    try:
        if "revoke" in request.POST:
            series_services.series_calendar_link_revoke(series=series, guest=guest, by=request.user)
            messages.success(request, MSG_LINK_REVOKED)
        else:
            series_services.series_calendar_link_issue(series=series, guest=guest, by=request.user)
            messages.success(request, MSG_LINK_NEW)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    return redirect("ledger:series_detail", series.pk)


def _feed(series: Series) -> HttpResponse:
    nights = list(selectors.series_nights(series))
    upcoming = selectors.upcoming_dates(series, nights)
    body = series_calendar(series, nights, upcoming, stamp=timezone.now())
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="series.ics"'
    return private_link(response, cache="private, no-cache")


@login_not_required
@require_safe  # GET and HEAD: calendar programs and link checkers ask with HEAD first
def series_feed(request: HttpRequest, series_id: int, token: str) -> HttpResponse:
    """The hosts' calendar of a series, by its private link."""
    return _feed(selectors.series_by_feed_or_404(series_id, token))


@login_not_required
@require_safe
def series_guest_feed(
    request: HttpRequest, series_id: int, guest_id: int, token: str
) -> HttpResponse:
    """A usual guest's calendar of a series, by their own link: the nights, nobody on them."""
    return _feed(selectors.guest_calendar_or_404(series_id, guest_id, token).series)
