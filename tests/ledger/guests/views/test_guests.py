from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from games import services as game_services
from games.models import Event, Hand, Shoe
from ledger.guests import services as guest_services
from ledger.guests.views.guests import MSG_PLAYING_NOW_ABOVE
from ledger.hands import services as hand_services
from ledger.models import Bet, EventGuest, Guest, GuestEventResult, Settlement
from ledger.money import services as money_services
from ledger.money.charts import balance_steps
from ledger.money.results import guest_history
from tests.conftest import bet

D = Decimal
pytestmark = pytest.mark.django_db


def link(guest: Guest) -> str:
    return reverse("ledger:guest_page", args=[guest.pk, guest.access_token])


def test_a_guest_sees_their_own_page_by_private_link_without_logging_in(client, played):
    aki = played[1]
    guest_services.guest_link_issue(guest=aki)
    response = client.get(link(aki))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Aki</h1>" in page
    assert "Balance <strong>+$100</strong> · ¥10,000" in page
    assert "Ben" not in page  # nobody else's name, let alone figures
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]
    assert len(aki.access_token) >= 43  # 256 bits, url-safe base64


def test_wrong_revoked_or_someone_elses_token_is_a_404(client, played):
    aki, ben = played[1], played[2]
    guest_services.guest_link_issue(guest=aki)
    guest_services.guest_link_issue(guest=ben)
    old_link = link(aki)
    assert (
        client.get(reverse("ledger:guest_page", args=[aki.pk, ben.access_token])).status_code == 404
    )
    assert client.get(reverse("ledger:guest_page", args=[aki.pk, "x" * 43])).status_code == 404
    guest_services.guest_link_issue(guest=aki)  # replaced: the old one stops working
    assert client.get(old_link).status_code == 404
    assert client.get(link(aki)).status_code == 200
    guest_services.guest_link_revoke(guest=aki)
    assert client.get(reverse("ledger:guest_page", args=[aki.pk, "-"])).status_code == 404
    assert client.get(old_link).status_code == 404


def test_a_guest_page_refreshes_itself_while_the_guest_is_playing(client, played, shoe, host):
    aki = played[1]
    guest_services.guest_link_issue(guest=aki)
    # Its stream says when; every 15 s while the stream cannot open, only while the guest plays.
    page = client.get(link(aki)).content.decode()
    assert 'data-live-url="/g/' in page and 'data-live-poll="15"' in page
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    assert "data-live-poll" not in client.get(link(aki)).content.decode()


def test_a_guest_with_a_login_sees_only_their_own_page(client, played):
    aki = played[1]
    user = User.objects.create_user("aki", password="pw-for-tests")
    Guest.objects.filter(pk=aki.pk).update(user=user)
    client.force_login(user)
    page = client.get(reverse("ledger:my_page")).content.decode()
    assert "<h1>Aki</h1>" in page and "Ben" not in page
    for host_page in ("ledger:guest_list", "ledger:standings", "ledger:house"):
        assert client.get(reverse(host_page)).status_code == 403
    assert client.get(reverse("ledger:event_list")).url == reverse("ledger:my_page")
    stranger = User.objects.create_user("nobody", password="pw-for-tests")
    client.force_login(stranger)
    assert client.get(reverse("ledger:my_page")).status_code == 404


def test_the_host_issues_replaces_and_revokes_links_with_a_qr_code(client, host, dealer, played):
    aki = played[1]
    client.force_login(host)
    detail = reverse("ledger:guest_detail", args=[aki.pk])
    assert "Make a private link" in client.get(detail).content.decode()
    client.post(reverse("ledger:guest_link_issue", args=[aki.pk]))
    aki.refresh_from_db()
    page = client.get(detail).content.decode()
    assert link(aki) in page and "<svg" in page  # the QR code, as inline SVG
    client.post(reverse("ledger:guest_link_revoke", args=[aki.pk]))
    aki.refresh_from_db()
    assert aki.access_token == ""
    client.force_login(dealer)
    assert client.post(reverse("ledger:guest_link_issue", args=[aki.pk])).status_code == 403
    assert client.get(detail).status_code == 403


def test_the_balance_chart_steps_shoe_by_shoe_from_the_first_night(played, shoe, host, record):
    aki = played[1]
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    second = game_services.shoe_start(event=shoe.event, by=host)
    hand_services.seat_guest(shoe=second, seat=1, guest=aki, by=host)
    record(second, "8 K", "9 K", [bet(1, "player", 30)])
    money_services.settlement_record(
        guest=aki, event=shoe.event, amount=D("-70"), method="cash", by=host
    )
    labels, values = balance_steps(guest_history(aki))
    assert values == [D(0), D("100.00"), D("70.00"), D("0.00")]
    assert len(labels) == 4
    token = guest_services.guest_link_issue(guest=aki)
    page = Client().get(reverse("ledger:guest_page", args=[aki.pk, token])).content.decode()
    assert "balance-chart" in page and "<polyline" in page


def test_a_long_history_shows_the_latest_nights_in_full_and_pages_the_rest(
    client, host, django_assert_max_num_queries
):
    from tests.ledger.money.histories import build_history

    few = build_history(3, host)
    with CaptureQueriesContext(connection) as captured:
        page = client.get(link(few)).content.decode()
    assert page.count('class="event-history"') == 3 and 'id="earlier"' not in page
    with transaction.atomic():  # the same guests again, over 30 nights
        for model in (GuestEventResult, Bet, Settlement, Hand, Shoe, EventGuest, Event, Guest):
            model.objects.all().delete()
    many = build_history(30, host)
    with django_assert_max_num_queries(len(captured)):
        page = client.get(link(many)).content.decode()
    assert page.count('class="event-history"') == 5  # the latest five, shoe by shoe
    assert page.count("<td>2024-01-") == 20  # the earlier nights a line each, 20 to a page
    assert "?page=2#earlier" in page and "Page 1 of 2" in page
    with django_assert_max_num_queries(len(captured)):
        older = client.get(link(many) + "?page=2").content.decode()
    assert "?page=1#earlier" in older and "Page 2 of 2" in older
    assert older.count("<td>2024-01-") == 5 and older.count('class="event-history"') == 5


def test_the_chart_and_the_settlements_stay_the_same_size_over_a_long_history(client, host):
    """The chart draws the latest nights from the balance carried in; the settlements come a
    page at a time, newest first, a voided one still marked when its void is on another page."""
    from ledger.guests.views.guests import CHART_NIGHTS, EVENTS_IN_FULL, SETTLEMENTS_PER_PAGE
    from ledger.money.amounts import format_chips
    from tests.ledger.money.histories import build_history

    aki = build_history(CHART_NIGHTS + 10, host)  # a settlement of 5 every night
    oldest = Settlement.objects.filter(guest=aki).earliest("id")
    money_services.settlement_void(settlement=oldest, reason="wrong guest", by=host)
    page = client.get(link(aki)).content.decode()
    polyline = page.split('<polyline points="')[1].split('"')[0]
    # From the carried balance: a step per shoe of the nights in full, one per settlement.
    assert len(polyline.split()) == 1 + EVENTS_IN_FULL + CHART_NIGHTS
    assert ">Start<" not in page
    full = guest_history(aki)
    shown = format_chips(full.balance, full.symbol, signed=True)
    assert f"Balance <strong>{shown}</strong>" in page and full.symbol in shown
    rows = page.count("<td>paid ") + page.count("<td>received ") + page.count("<td>Void of No. ")
    assert rows == SETTLEMENTS_PER_PAGE
    # Newest first: the void on top, worded as a void of the payment it reverses.
    assert page.index("<td>Void of No. ") < page.index("<td>paid ")
    assert "Reason: wrong guest" in page and "voided-tag" not in page
    assert "?settlements=2#settlements" in page and "Page 1 of 3" in page
    last = client.get(link(aki) + "?settlements=3").content.decode()
    assert last.count("<td>paid ") == 1 and last.count("voided-tag") == 1  # the oldest


def test_the_refresh_during_a_shoe_sends_only_what_changes(client, played, shoe, host, record):
    """While the guest plays, the page refreshes only its live part (balance, scoreboard,
    tonight's shoes); once the guest leaves the table, one last refresh brings the whole page."""
    aki = played[1]
    guest_services.guest_link_issue(guest=aki)
    page = client.get(link(aki)).content.decode()
    assert f'hx-get="{link(aki)}?live=1" hx-trigger="live-refresh"' in page
    live = client.get(link(aki) + "?live=1", headers={"HX-Request": "true"})
    text = live.content.decode().strip()
    assert text.startswith('<div id="guest-live"') and "<h1>" not in text
    assert "Balance <strong>+$100</strong>" in text and "no-store" in live["Cache-Control"]
    assert "Settlements" in page and "Settlements" not in text  # nor the list, nor the chart
    record(shoe, "8 K", "9 K", [bet(1, "player", 30)])  # Aki loses 30
    assert (
        "Balance <strong>+$70</strong>"
        in client.get(link(aki) + "?live=1", headers={"HX-Request": "true"}).content.decode()
    )
    hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    done = client.get(link(aki) + "?live=1", headers={"HX-Request": "true"})
    assert done["HX-Retarget"] == "#guest-page" and done["HX-Reswap"] == "outerHTML"
    assert '<section id="guest-page">' in done.content.decode() and "data-live-poll" not in (
        done.content.decode()
    )


def test_a_guest_page_lists_the_transfers_line_by_line_newest_first(client, make_event, host):
    from ledger.money.transfers import transfer_record, transfer_void
    from tests.ledger.banked_nights import play_debts, seven_guest_night

    event, shoe, guests = seven_guest_night(make_event, host)
    seats = {name: seat for seat, name in enumerate(guests, start=1)}
    play_debts(shoe, host, seats, [("A", "B", "50")])  # A owes B 50
    first = transfer_record(event=event, payer=guests["A"], payee=guests["B"],
                            amount=Decimal(20), by=host)  # fmt: skip
    transfer_void(transfer=first, reason="typed 20", by=host)
    transfer_record(event=event, payer=guests["A"], payee=guests["B"], amount=Decimal(50), by=host)
    for who, says in (("A", "paid $50 to B"), ("B", "received $50 from A")):
        guest_services.guest_link_issue(guest=guests[who])
        page = client.get(link(guests[who])).content.decode()
        transfers = page.split('id="transfers"')[1]
        assert transfers.index(says) < transfers.index("Void of No. ")
        assert transfers.count("<tr") == 1 + 3  # the header and three lines


def test_the_events_list_has_the_night_being_played(client, played, host):
    """Tonight's figures are in the part that refreshes itself; the events list below still
    names the night (never "No events yet" under tonight's result), on the private link and on
    the host's page of the guest."""
    aki = played[1]
    event = Event.objects.get(guests=aki)
    guest_services.guest_link_issue(guest=aki)
    client.force_login(host)
    for url in (link(aki), reverse("ledger:guest_detail", args=[aki.pk])):
        page = client.get(url).content.decode()
        events = page.split('id="guest-events"', 1)[1].split("</section>", 1)[0]
        assert "No events yet" not in events
        assert event.name in events and escape(str(MSG_PLAYING_NOW_ABOVE)) in events


def test_a_night_without_hands_shows_its_result_without_an_empty_shoe_table(client):
    import re
    from io import StringIO

    from django.core.management import call_command

    for command in ("load_demo", "load_demo_count", "load_demo_tournament"):
        call_command(command, stdout=StringIO())
    client.force_login(User.objects.get(username="host"))
    counted = Event.objects.nights().get(count_setup__count_only=True)
    tournament = Event.objects.get(kind=Event.Kind.TOURNAMENT)
    for event in (counted, tournament):
        result = GuestEventResult.objects.filter(event=event).select_related("guest").first()
        page = client.get(reverse("ledger:guest_detail", args=[result.guest_id])).content.decode()
        night = rf"<summary>[^<]*{re.escape(event.name)}"
        found = re.search(
            rf'<details class="event-history"[^>]*>\s*{night}.*?</details>', page, re.S
        )
        assert found, event.name
        shown = found.group(0)
        assert "<strong>" in shown  # the night's result
        assert "<table" not in shown and "No bets at this event." not in shown, event.name
