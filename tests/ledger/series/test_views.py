import re
import uuid
from datetime import date
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services as game_services
from games.models import Event, Series
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import EventGuest, Guest, SeriesGuest
from ledger.series import services as series_services
from ledger.series.views import MSG_NIGHT_ALREADY_MADE, MSG_SERIES_MADE
from tests.conftest import bet

TODAY = date(2026, 11, 29)


@pytest.fixture(autouse=True)
def today():
    with mock.patch("django.utils.timezone.localdate", return_value=TODAY):
        yield


@pytest.fixture
def as_host(client, host):
    client.force_login(host)
    return client


def test_make_this_a_series_from_the_night_page(as_host, club_night):
    page = as_host.get(reverse("ledger:event_detail", args=[club_night.pk])).content.decode()
    assert reverse("ledger:series_from_night", args=[club_night.pk]) in page
    data = {"name": "Fridays", "recurrence": "month_weekday", "weekday": "4",
            "week_of_month": "5", "day_of_month": "1", "starts_at": "20:00",
            "time_zone": "Asia/Tokyo"}  # fmt: skip
    response = as_host.post(
        reverse("ledger:series_from_night", args=[club_night.pk]), data, follow=True
    )
    series = Series.objects.get()
    assert response.redirect_chain[-1][0] == reverse("ledger:series_detail", args=[series.pk])
    assert str(MSG_SERIES_MADE.format(series="Fridays")) in response.content.decode()
    assert (series.recurrence, series.week_of_month, series.venue) == (
        "month_weekday",
        5,
        "Le Salon",
    )
    # The next date is the last Friday of December (the night was the last of November).
    assert "Next night · Fri 25 Dec" in response.content.decode()


def test_a_bad_schedule_is_refused_in_words(as_host, club_night):
    data = {"name": "", "recurrence": "yearly", "weekday": "9", "week_of_month": "1",
            "day_of_month": "32", "starts_at": "25:00", "time_zone": "Asia/Tokyo"}  # fmt: skip
    response = as_host.post(reverse("ledger:series_from_night", args=[club_night.pk]), data)
    assert response.status_code == 400
    assert not Series.objects.exists()


def test_the_next_night_in_one_tap_and_a_second_tap(as_host, club):
    url = reverse("ledger:series_next_night", args=[club.pk])
    key = str(uuid.uuid4())
    first = as_host.post(url, {"idempotency_key": key})
    night = Event.objects.get(series=club, date=date(2026, 12, 4))
    assert first.url == reverse("ledger:event_detail", args=[night.pk])
    second = as_host.post(url, {"idempotency_key": key}, follow=True)
    assert second.redirect_chain[0][0] == first.url
    assert str(MSG_NIGHT_ALREADY_MADE.format(event=night.name)) in second.content.decode()
    assert Event.objects.filter(series=club).count() == 2
    assert EventGuest.objects.filter(event=night).count() == 3


def test_a_night_on_a_date_taken_is_refused_on_the_page(as_host, club, host):
    url = reverse("ledger:series_next_night", args=[club.pk])
    response = as_host.post(url, {"idempotency_key": str(uuid.uuid4()), "date": "2026-11-27"})
    assert response.status_code == 400
    assert "already has a night on 2026-11-27" in response.content.decode()


def test_the_events_list_has_each_series_next_night_button(as_host, club):
    page = as_host.get(reverse("ledger:event_list")).content.decode()
    assert reverse("ledger:series_next_night", args=[club.pk]) in page
    key = re.search(r'name="idempotency_key" value="([0-9a-f-]+)"', page).group(1)
    # The button names the date it makes, and sends it: a second phone's older list cannot
    # make the week after by a second tap.
    shown = re.search(r'name="shown" value="([0-9-]+)"', page).group(1)
    assert shown == "2026-12-04" and "Fri 4 Dec" in page
    url = reverse("ledger:series_next_night", args=[club.pk])
    response = as_host.post(url, {"idempotency_key": key, "shown": shown})
    assert response.status_code == 302
    again = as_host.post(url, {"idempotency_key": str(uuid.uuid4()), "shown": shown})
    assert again.status_code == 400
    assert Event.objects.filter(series=club).count() == 2


def test_the_series_page_shares_an_invitation_with_each_guest_s_calendar_link(as_host, club, host):
    series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    page = as_host.get(reverse("ledger:series_detail", args=[club.pk])).content.decode()
    aki = SeriesGuest.objects.get(series=club, guest__name="Aki")
    feed = reverse("ledger:series_guest_feed", args=[club.pk, aki.guest_id, aki.calendar_token])
    assert "Share invitation" in page and "data-share" in page
    assert (
        f"Fridays at the Salon: Dec. 4, 2026 8:30 p.m., Le Salon. Add it to your calendar: http://testserver{feed}"
        in page
    )
    assert f"webcal://testserver{feed}" in page
    night = Event.objects.get(series=club, date=date(2026, 12, 4))
    night_page = as_host.get(reverse("ledger:event_detail", args=[night.pk])).content.decode()
    assert reverse("ledger:series_detail", args=[club.pk]) + "#invite" in night_page


def test_the_guest_s_page_offers_their_calendar(client, club):
    aki = Guest.objects.get(name="Aki")
    token = guest_services.guest_link_issue(guest=aki)
    page = client.get(reverse("ledger:guest_page", args=[aki.pk, token])).content.decode()
    row = SeriesGuest.objects.get(series=club, guest=aki)
    ben = SeriesGuest.objects.get(series=club, guest__name="Ben")
    assert "Add to calendar" in page
    assert (
        f"webcal://testserver/series/{club.pk}/g/{aki.pk}/{row.calendar_token}/series.ics" in page
    )
    assert ben.calendar_token not in page


def test_the_series_page_shows_the_standings_of_its_nights(as_host, club, club_night, host, record):
    shoe = game_services.shoe_start(event=club_night, by=host)
    aki = Guest.objects.get(name="Aki")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
    record(shoe, result="player", bets=[bet(1, "player", 100)])
    page = as_host.get(reverse("ledger:series_detail", args=[club.pk])).content.decode()
    standings = page.split("series-standings")[1]
    assert "Aki" in standings and "100" in standings
    # The ratings over the series' nights: Aki's 100 on the player, at 1.2351% (8 decks).
    ratings = page.split('id="ratings"')[1]
    assert "Aki" in ratings and "1.24" in ratings


def _series_page_queries(client, series):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("ledger:series_detail", args=[series.pk])).status_code == 200
    return len(queries)


def test_the_series_page_runs_the_same_queries_however_many_nights_and_guests(as_host, club, host):
    few = _series_page_queries(as_host, club)
    for n in range(5):
        guest = Guest.objects.create(name=f"Extra {n}", name_key=f"extra {n}")
        SeriesGuest.objects.create(series=club, guest=guest, calendar_token=f"t{n}")
    for _ in range(4):
        series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    assert _series_page_queries(as_host, club) == few


def test_a_page_loaded_before_another_host_s_tap_makes_no_later_night(as_host, club):
    page = as_host.get(reverse("ledger:series_detail", args=[club.pk])).content.decode()
    shown = re.search(r'name="shown" value="([0-9-]+)"', page).group(1)
    assert shown == "2026-12-04"
    url = reverse("ledger:series_next_night", args=[club.pk])
    first = as_host.post(url, {"idempotency_key": str(uuid.uuid4()), "shown": shown})
    assert first.status_code == 302
    # The second phone's page still shows 4 December: its tap is told that night is made.
    second = as_host.post(url, {"idempotency_key": str(uuid.uuid4()), "shown": shown})
    assert second.status_code == 400
    assert "The series already has a night on 2026-12-04" in second.content.decode()
    assert sorted(Event.objects.filter(series=club).values_list("date", flat=True)) == [
        date(2026, 11, 27),
        date(2026, 12, 4),
    ]
