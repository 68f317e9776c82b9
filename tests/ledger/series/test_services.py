import json
import uuid
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games import services as game_services
from games.models import Event, Series
from ledger.guests import services as guest_services
from ledger.models import AuditEntry, CountSetup, EventGuest, Guest, SeriesGuest
from ledger.series import services as series_services
from ledger.series.services import (
    MSG_ALREADY_IN_SERIES,
    MSG_CHOOSE_A_DATE,
    MSG_DATE_OUT_OF_REACH,
    MSG_NIGHT_ON_DATE,
    MSG_ONE_LINE,
    SETTING_FIELDS,
    night_settings_of,
    series_next_date,
)

TODAY = date(2026, 11, 29)  # a Sunday
REAL_LOCALDATE = timezone.localdate


@pytest.fixture(autouse=True)
def today():
    with mock.patch("django.utils.timezone.localdate", return_value=TODAY):
        yield


def guest_names(event):
    ids = EventGuest.objects.filter(event=event).values_list("guest_id", flat=True)
    return sorted(Guest.objects.filter(pk__in=ids).values_list("name", flat=True))


def test_a_series_made_from_a_night_keeps_its_settings_count_setup_venue_and_guests(
    club, club_night
):
    assert club.venue == "Le Salon"
    club_night.refresh_from_db()
    assert club.night_settings == night_settings_of(club_night)
    assert club.count_setup == {
        "denominations": ["0.5", "5", "25", "100"],
        "opening_float": "2000.00",
        "count_only": False,
    }
    usual = SeriesGuest.objects.filter(series=club).select_related("guest")
    assert sorted(row.guest.name for row in usual) == ["Aki", "Ben", "Chie"]
    assert all(len(row.calendar_token) >= 40 for row in usual)  # each their own link
    assert len({row.calendar_token for row in usual}) == 3
    club_night.refresh_from_db()
    assert club_night.series == club


def test_a_night_joins_one_series_only(club, club_night, host):
    with pytest.raises(ValidationError) as refusal:
        series_services.series_from_night(
            event=club_night, by=host, name="Again", recurrence="weekly"
        )
    assert refusal.value.messages == [MSG_ALREADY_IN_SERIES.format(series=club.name)]


def test_the_next_night_copies_every_setting_the_count_setup_and_the_usual_guests(
    club, club_night, host
):
    made = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    night = Event.objects.get(pk=made.event.pk)
    club_night.refresh_from_db()
    assert made.new
    assert night.date == date(2026, 12, 4)  # the Friday after today (the last night was before)
    assert (night.name, night.venue, night.series) == ("Fridays at the Salon", "Le Salon", club)
    for name in SETTING_FIELDS:
        assert getattr(night, name) == getattr(club_night, name), name
    assert night.rule_set.tie_pays == 9 and night.rule_set.commission_rate == Decimal("0.04")
    setup = CountSetup.objects.get(event=night)
    assert setup.denominations == ["0.5", "5", "25", "100"]
    assert setup.opening_float == Decimal(2000)
    assert guest_names(night) == ["Aki", "Ben", "Chie"]
    entry = AuditEntry.objects.get(event=night)
    assert entry.action == AuditEntry.Action.SERIES_NIGHT


def test_a_double_tap_makes_one_night(club, host):
    key = uuid.uuid4()
    first = series_services.series_next_night(series=club, by=host, idempotency_key=key)
    second = series_services.series_next_night(series=club, by=host, idempotency_key=key)
    assert second.event == first.event and not second.new
    assert Event.objects.filter(series=club).count() == 2  # the first night and the new one
    # Another tap (a new key) makes the night after.
    third = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    assert third.event.date == date(2026, 12, 11)


def test_a_date_chosen_by_hand_and_a_date_taken(club, host):
    chosen = date(2026, 12, 24)
    made = series_services.series_next_night(
        series=club, by=host, idempotency_key=uuid.uuid4(), on=chosen
    )
    assert made.event.date == chosen
    with pytest.raises(ValidationError) as refusal:
        series_services.series_next_night(
            series=club, by=host, idempotency_key=uuid.uuid4(), on=chosen
        )
    assert refusal.value.message_dict["date"] == [
        MSG_NIGHT_ON_DATE.format(date="2026-12-24", event="Fridays at the Salon")
    ]


def test_a_series_by_hand_asks_for_the_date(club, host):
    series_services.series_edit(series=club, by=host, recurrence="by_hand")
    with pytest.raises(ValidationError) as refusal:
        series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    assert refusal.value.message_dict["date"] == [str(MSG_CHOOSE_A_DATE)]
    assert Event.objects.filter(series=club).count() == 1


def test_the_next_date_follows_the_last_night_when_it_is_to_come(club):
    assert series_next_date(club, last=date(2026, 12, 18), today=TODAY) == date(2026, 12, 25)
    assert series_next_date(club, last=date(2026, 1, 2), today=TODAY) == date(2026, 12, 4)
    assert series_next_date(club, last=None, today=date(2026, 12, 4)) == date(2026, 12, 4)


def test_editing_the_schedule_is_audited_and_checked(club, host):
    series_services.series_edit(series=club, by=host, starts_at=time(21, 0), venue="Upstairs")
    club.refresh_from_db()
    assert (club.starts_at, club.venue) == (time(21, 0), "Upstairs")
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.SERIES).order_by("pk").last()
    assert entry.after == {"starts_at": "21:00:00", "venue": "Upstairs"}
    with pytest.raises(ValidationError) as refusal:
        series_services.series_edit(series=club, by=host, time_zone="Mars/Olympus")
    assert "time_zone" in refusal.value.message_dict
    assert Series.objects.get(pk=club.pk).time_zone == "Europe/Paris"


def test_the_usual_guests_change_and_the_next_night_takes_them(club, host):
    ben = Guest.objects.get(name="Ben")
    dora = Guest.objects.create(name="Dora", name_key="dora")
    series_services.series_guests_set(series=club, by=host, guests=[ben, dora])
    made = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    assert guest_names(made.event) == ["Ben", "Dora"]


def test_the_series_takes_a_night_s_changed_settings(club, club_night, host):
    made = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    Event.objects.filter(pk=made.event.pk).update(decks=8, hands_per_shoe=70)
    series_services.series_settings_from(
        series=club, event=Event.objects.get(pk=made.event.pk), by=host
    )
    after = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    assert (after.event.decks, after.event.hands_per_shoe) == (8, 70)


def test_calendar_links_are_issued_and_revoked_per_guest(club, host):
    aki = Guest.objects.get(name="Aki")
    old = SeriesGuest.objects.get(series=club, guest=aki).calendar_token
    new = series_services.series_calendar_link_issue(series=club, guest=aki, by=host)
    assert new != old
    series_services.series_calendar_link_revoke(series=club, guest=aki, by=host)
    assert SeriesGuest.objects.get(series=club, guest=aki).calendar_token == ""
    stranger = Guest.objects.create(name="Zed", name_key="zed")
    with pytest.raises(ValidationError):
        series_services.series_calendar_link_issue(series=club, guest=stranger, by=host)


def _calendar_entries():
    actions = [AuditEntry.Action.CALENDAR_LINK_ISSUED, AuditEntry.Action.CALENDAR_LINK_REVOKED]
    return list(AuditEntry.objects.filter(action__in=actions).order_by("pk"))


def _holds(entry, token):
    return token in json.dumps([entry.summary, entry.before, entry.after])


def test_each_calendar_link_issued_or_revoked_is_in_the_audit_naming_the_guest_not_the_link(
    club, host
):
    aki = Guest.objects.get(name="Aki")
    old = SeriesGuest.objects.get(series=club, guest=aki).calendar_token
    hosts = series_services.series_feed_link_issue(series=club, by=host)
    series_services.series_feed_link_revoke(series=club, by=host)
    new = series_services.series_calendar_link_issue(series=club, guest=aki, by=host)
    series_services.series_calendar_link_revoke(series=club, guest=aki, by=host)

    issued, revoked = (
        AuditEntry.Action.CALENDAR_LINK_ISSUED,
        AuditEntry.Action.CALENDAR_LINK_REVOKED,
    )
    entries = _calendar_entries()
    assert [(e.action, e.by, e.summary, e.before, e.after) for e in entries] == [
        (issued, host, club.name, None, None),
        (revoked, host, club.name, None, None),
        (issued, host, club.name, None, {"guest": "Aki", "guest_id": aki.pk}),
        (revoked, host, club.name, {"guest": "Aki", "guest_id": aki.pk}, None),
    ]
    for token in (old, hosts, new):
        assert not any(_holds(entry, token) for entry in entries)


def test_a_refused_calendar_link_leaves_no_audit_entry(club, host):
    stranger = Guest.objects.create(name="Zed", name_key="zed")
    for write in (
        series_services.series_calendar_link_issue,
        series_services.series_calendar_link_revoke,
    ):
        with pytest.raises(ValidationError):
            write(series=club, guest=stranger, by=host)
    assert _calendar_entries() == []


def test_a_merged_guest_s_series_go_to_the_guest_kept(club, host):
    aki, ben = Guest.objects.get(name="Aki"), Guest.objects.get(name="Ben")
    dora = Guest.objects.create(name="Dora", name_key="dora")
    guest_services.guest_merge(guest=dora, other=aki, by=host)  # Dora was in no series
    guest_services.guest_merge(guest=ben, other=dora, by=host)  # Ben was, already
    usual = SeriesGuest.objects.filter(series=club).values_list("guest__name", flat=True)
    assert sorted(usual) == ["Ben", "Chie"]


@pytest.mark.parametrize(
    ("field", "text", "code"),
    [
        ("name", "Club\rBEGIN:VEVENT\rUID:evil@x", "U+000D"),  # a feed's line, smuggled
        ("name", "Club\nnight", "U+000A"),
        ("venue", "Le Salon\t2F", "U+0009"),
        ("name", "Club \u202etxet", "U+202E"),  # turns the page's words after it around
    ],
)
def test_a_series_name_and_venue_are_one_line_with_no_control_character(
    club, host, field, text, code
):
    with pytest.raises(ValidationError) as refusal:
        series_services.series_edit(series=club, by=host, **{field: text})
    assert refusal.value.message_dict[field] == [MSG_ONE_LINE.format(code=code)]
    club.refresh_from_db()
    assert (club.name, club.venue) == ("Fridays at the Salon", "Le Salon")


def test_a_night_of_the_series_is_dated_a_year_back_to_two_years_ahead(club, host):
    for far in (date(9999, 12, 31), date(2062, 12, 5), TODAY - timedelta(days=367)):
        with pytest.raises(ValidationError) as refusal:
            series_services.series_next_night(
                series=club, by=host, idempotency_key=uuid.uuid4(), on=far
            )
        assert refusal.value.message_dict["date"] == [
            MSG_DATE_OUT_OF_REACH.format(first="2025-11-28", last="2028-11-30", date=far)
        ]
    assert Event.objects.filter(series=club).count() == 1
    made = series_services.series_next_night(
        series=club, by=host, idempotency_key=uuid.uuid4(), on=date(2028, 11, 30)
    )
    assert made.new


def test_a_night_cannot_be_moved_onto_a_date_its_series_has(club, club_night, host, make_event):
    made = series_services.series_next_night(series=club, by=host, idempotency_key=uuid.uuid4())
    with pytest.raises(ValidationError) as refusal:
        game_services.event_update(event=club_night, by=host, date=made.event.date)
    assert "Its series already has a night on this date." in str(refusal.value)
    club_night.refresh_from_db()
    assert club_night.date == date(2026, 11, 27)
    # A night of no series may share its date with any.
    other = make_event(name="Other", date=date(2026, 12, 3))
    game_services.event_update(event=other, by=host, date=made.event.date)


def test_the_next_date_is_today_where_the_series_plays(club, host):
    # 23:30 on Friday 4 December in Paris is already Saturday in Tokyo (the server's zone).
    late = datetime(2026, 12, 4, 22, 30, tzinfo=UTC)
    with (
        mock.patch("django.utils.timezone.localdate", REAL_LOCALDATE),
        mock.patch("django.utils.timezone.now", return_value=late),
    ):
        assert series_services.series_today(club) == date(2026, 12, 4)
        assert timezone.localdate() == date(2026, 12, 5)
