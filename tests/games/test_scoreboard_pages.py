from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services as game_services
from games.models import Event
from games.payouts import RuleSet
from games.scoreboard import scoreboard
from games.views import DISPLAY_WIDTHS
from ledger.guests import services as guest_services
from tests.conftest import bet
from tests.ledger.banked_nights import guest_banked
from tests.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # Player, Banker pair
    record(shoe, "8 K", "9 K")  # Banker natural
    record(shoe, "8 K", "8 Q")  # Tie
    return shoe


def test_the_table_page_shows_the_roads_with_links_to_each_hand(client, host, played):
    client.force_login(host)
    page = client.get(reverse("ledger:shoe_table", args=[played.pk])).content.decode()
    assert "Bead plate" in page and "Big road" in page and "Cockroach Pig" in page
    assert len(re.findall(r'class="bead bead-', page)) == 3
    first = played.hands.get(number=1)
    assert f'<a href="{reverse("ledger:hand_detail", args=[first.pk])}">' in page
    assert 'class="pair-banker"' in page
    assert "3 hands" in page and "Banker 1 (33.3%)" in page


def test_a_playing_guest_sees_the_roads_without_links(client, played, seated):
    token = guest_services.guest_link_issue(guest=seated[1])
    page = client.get(reverse("ledger:guest_page", args=[seated[1].pk, token])).content.decode()
    assert "Big road" in page
    assert "/hands/" not in page


def test_the_table_display_is_read_only_refreshes_itself_and_needs_its_link(client, host, played):
    event = played.event
    assert (
        client.get(reverse("display:table_display", args=[event.pk, "x" * 43])).status_code == 404
    )
    client.force_login(host)
    client.post(reverse("ledger:display_link_issue", args=[event.pk]))
    event.refresh_from_db()
    link = reverse("display:table_display", args=[event.pk, event.display_token])
    assert link in client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    client.logout()
    page = client.get(link).content.decode()
    assert 'hx-trigger="live-refresh"' in page and 'data-live-poll="5"' in page
    stream = reverse("live:display", args=[event.pk, event.display_token])
    assert f'data-live-url="{stream}?since=' in page
    assert "<form" not in page and "<button" not in page and "<input" not in page
    assert "/hands/" not in page
    assert 'rel="icon"' in page  # no 404 for /favicon.ico on a TV left on all night
    assert len(re.findall(r'class="big big-', page)) == 2
    game_services.event_display_link_issue(event=event)  # replaced: the old link stops
    assert client.get(link).status_code == 404


def test_only_hosts_issue_display_links(client, dealer, played):
    client.force_login(dealer)
    response = client.post(reverse("ledger:display_link_issue", args=[played.event_id]))
    assert response.status_code == 403


def test_a_road_of_fixed_width_shows_its_newest_columns(shoe, record):
    for result in "B" * 8 + "PB" * 12:  # the tail reaches column 2; 25 columns in all
        record(shoe, result=result, player_pair=False, banker_pair=False)
    grown = scoreboard(shoe)["big"]
    assert grown.columns == 25
    fixed = scoreboard(shoe, widths={"big_road": 10, "small_road": 40})
    big = fixed["big"]
    assert (big.columns, big.width) == (10, 100)
    assert [mark["number"] for mark in big.marks] == list(range(23, 33))  # the last ten
    assert [(mark["col"], mark["row"]) for mark in big.marks] == [(c, 0) for c in range(10)]
    assert 'viewBox="0 0 100 60"' in big.svg
    small = next(road for road in fixed["derived"] if road.name == "small_road")
    assert small.columns == 40  # fewer marks than that: the grid is drawn to the full width
    assert fixed["bead"].columns == 12  # roads not given a width grow as before


def test_the_table_display_draws_the_newest_columns_of_a_long_shoe(client, shoe, record):
    for result in "PB" * 35:  # 70 columns
        record(shoe, result=result, player_pair=False, banker_pair=False)
    token = game_services.event_display_link_issue(event=shoe.event)
    page = client.get(reverse("display:table_display", args=[shoe.event_id, token]))
    marks = [int(n) for n in re.findall(r'class="big big-\w+" data-hand="(\d+)"', text(page))]
    assert marks == list(range(71 - DISPLAY_WIDTHS["big_road"], 71))
    table = scoreboard(shoe)["big"]
    assert len(table.marks) == 70  # the host's table page still draws the whole road


def shown_board(client, host, shoe) -> str:
    """The scoreboard of the shoe as the table display shows it."""
    client.force_login(host)
    client.post(reverse("ledger:display_link_issue", args=[shoe.event_id]))
    shoe.event.refresh_from_db()
    page = text(
        client.get(reverse("display:table_display", args=[shoe.event_id, shoe.event.display_token]))
    )
    return page[page.index('class="scoreboard"') : page.index("</section>")]


def test_a_guest_banked_board_says_ponte_and_bank_and_marks_no_pairs(client, host, played):
    guest_banked(
        played.event
    )  # the hands' cards hold a banker pair, bet on at no guest-banked game
    board = shown_board(client, host, played)
    assert "Bank 1 (33.3%)" in board and "Ponte 1 (33.3%)" in board and "Égalité 1" in board
    assert "Banker" not in board and "Player" not in board
    assert "pair-" not in board and "data-pairs" not in board
    assert re.search(r'class="bead bead-banker[^"]*"[^>]*>.*?>B</text>', board)


@pytest.mark.parametrize("pairs_offered", [True, False])
def test_a_punto_banco_board_marks_pairs_only_where_they_are_offered(
    client, host, played, pairs_offered
):
    if not pairs_offered:
        Event.objects.filter(pk=played.event_id).update(
            rules=RuleSet(side_bets=frozenset()).to_dict()
        )
    board = shown_board(client, host, played)
    assert "Banker 1 (33.3%)" in board and "Player 1 (33.3%)" in board
    assert ('class="pair-banker"' in board) is pairs_offered
    assert ("data-pairs" in board) is pairs_offered
