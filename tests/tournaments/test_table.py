"""A tournament at the table: the bar and the seats' tools on a tournament table's page (stacks,
the first-bet marker, the mandatory minimum, the secret bet), and the live leaderboard on the
table display and on each player's own page."""

from __future__ import annotations

import json
import re
import secrets
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from games import services as game_services
from games.tournament import first_bet_seat
from ledger.guests import services as guest_services
from ledger.models import Bet, Guest
from tests.pages import HTMX, form_data, save, table_url, text
from tests.tournaments.conftest import NAMES, open_shoe
from tournaments import services
from tournaments.models import TableSeat
from tournaments.selectors import (
    MSG_SECRET_LAST_HAND,
    MSG_SECRET_OFF,
    MSG_SECRET_USED,
    round_board,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(make_tournament, add_round, host):
    """A tournament of ``players`` whose first round (of ``hands``) has started."""

    def start(players=3, *, names=None, hands=4, round_settings=None, **settings):
        tournament = make_tournament(players=names or NAMES[:players], **settings)
        round_ = add_round(tournament, hands=hands, **(round_settings or {}))
        services.round_draw(round_=round_, by=host, seed=1)
        return services.round_start(round_=round_, by=host)

    return start


def names_by_seat(table) -> dict[int, str]:
    return {
        place.seat: place.entrant.guest.name
        for place in table.seats.select_related("entrant__guest")
    }


def marker(page: str) -> list[str]:
    return re.findall(r'data-first-bet="(\d)"', page)


def stacks_shown(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-stack="(\d)">([^<]*)<', page))


def seat_row(page: str, seat: int) -> str:
    return re.search(rf'<tr class="[^"]*" data-seat="{seat}">.*?</tr>', page, re.S).group(0)


# --- the table page ---------------------------------------------------------------------------


def test_the_bar_shows_the_hand_the_stacks_and_who_bets_first(client, host, started, play):
    round_ = started(3, hands=4)
    table = round_.tables.get()
    shoe = open_shoe(table)
    client.force_login(host)
    page = unescape(text(client.get(table_url(shoe))))
    assert "Round 1 · table 1" in page
    assert "Hand 1 of 4" in page and "(0 played, 4 to play)" in page
    assert stacks_shown(page) == {"1": "1,000", "2": "1,000", "3": "1,000"}
    assert marker(page) == ["1"]

    # Banker wins: seat 1's 100 on Banker pays 95, seat 2 loses all 1,000 on Player.
    play(table, "B", {1: ("banker", 100), 2: ("player", 1000)})
    page = unescape(text(client.get(table_url(shoe))))
    assert "Hand 2 of 4" in page and "(1 played, 3 to play)" in page
    assert stacks_shown(page) == {"1": "1,095", "2": "out", "3": "1,000"}
    assert first_bet_seat([1, 2, 3], 2) == 2
    assert marker(page) == ["3"]  # seat 2 is out: the marker passes it by
    assert "data-fill" not in seat_row(page, 2)  # a player who is out has no minimum to place


def test_a_table_of_nine_seats_nine_and_settles_bets_on_seats_8_and_9(client, host, started, play):
    round_ = started(9, hands=4, seats_per_table=9)
    table = round_.tables.get()
    assert sorted(table.seats.values_list("seat", flat=True)) == list(range(1, 10))
    shoe = open_shoe(table)
    client.force_login(host)
    page = unescape(text(client.get(table_url(shoe))))
    assert [seat for seat in range(1, 11) if f'data-seat="{seat}"' in page] == list(range(1, 10))
    assert 'name="stake_9_banker"' in page and 'name="stake_10_banker"' not in page
    hand = play(table, "B", {8: ("banker", 100), 9: ("player", 200)})
    nets = dict(Bet.objects.filter(hand=hand).values_list("seat", "net"))
    assert nets == {8: Decimal(95), 9: Decimal(-200)}
    page = unescape(text(client.get(table_url(shoe))))
    assert {seat: stacks_shown(page)[seat] for seat in "189"} == {
        "1": "1,000",
        "8": "1,095",
        "9": "800",
    }
    corrected = text(client.get(reverse("ledger:hand_detail", args=[hand.pk])))
    assert 'name="stake_9_player" value="200"' in corrected  # the hand's page has seats 1–9
    with pytest.raises(ValidationError, match="There is no seat 10: seats run 1–9"):
        play(table, "B", {10: ("banker", 10)})


def test_the_marker_skips_a_player_who_is_out_all_round(client, host, started, play):
    round_ = started(4, hands=6)
    table = round_.tables.get()
    shoe = open_shoe(table)
    client.force_login(host)
    play(table, "B", {3: ("player", 1000)})  # seat 3 is out after hand 1
    shown = []
    for _hand in range(4):
        shown += marker(text(client.get(table_url(shoe))))
        play(table, "B", {1: ("banker", 10)})
    assert shown == ["2", "4", "1", "2"]


def test_the_last_player_standing_ends_the_table(client, host, started, play):
    round_ = started(2, hands=5)
    table = round_.tables.get()
    shoe = open_shoe(table)
    winner = table.seats.select_related("entrant__guest").get(seat=2).entrant.guest
    play(table, "B", {1: ("player", 1000), 2: ("banker", 10)})
    client.force_login(host)
    page = unescape(text(client.get(table_url(shoe))))
    assert f"Last player standing: {winner.name}" in page
    assert marker(page) == [] and "data-fill" not in page
    with pytest.raises(ValidationError, match=f"Only {winner.name} has chips left"):
        play(table, "B", {2: ("banker", 10)})
    board = leaderboard_of(text(client.get(display_url(table.event))))
    assert f"last player standing: {winner.name}" in board
    closed = services.round_close(round_=round_, by=host)  # 1 of 5 hands: the table is done
    assert closed.is_closed
    assert list(round_.tournament.entrants.filter(out_after_round__isnull=True)) == [
        table.seats.get(seat=2).entrant
    ]


def test_a_rebuy_for_the_player_who_is_out_plays_the_table_on(host, started, play):
    round_ = started(2, hands=5, rebuy_rounds=1, rebuy_chips=Decimal(1000), max_rebuys=1)
    table = round_.tables.get()
    play(table, "B", {1: ("player", 1000)})
    assert round_board(round_).tables[0].last_standing is not None
    services.rebuy(entrant=table.seats.get(seat=1).entrant, by=host)
    board = round_board(round_).tables[0]
    assert not board.is_done and board.last_standing is None
    assert board.first_bet_seat == 2  # the turn goes on from seat 1 as before
    play(table, "B", {1: ("banker", 10)})


def test_the_marker_moves_in_the_partial_a_save_answers_with(client, dealer, started):
    round_ = started(3, hands=4)
    shoe = open_shoe(round_.tables.get())
    client.force_login(dealer)
    for hand in (1, 2, 3):
        answer = text(save(client, shoe, result="banker", stake_3_banker="10"))
        assert f"Hand {hand} saved" in answer
        assert marker(answer) == [str(hand % 3 + 1)]
    answer = unescape(text(save(client, shoe, result="player", stake_3_banker="10")))
    assert "All 4 hands played" in answer
    assert marker(answer) == []  # the round is over at this table: nobody bets first


def test_a_cash_table_has_none_of_it(client, host, seated, shoe):
    client.force_login(host)
    page = text(client.get(table_url(shoe)))
    assert "tournament-bar" not in page and "data-stack" not in page
    assert "tournament.js" not in page


def test_the_mandatory_minimum_goes_on_the_tournaments_side_as_if_typed(client, host, started):
    round_ = started(3, round_settings={"table_min": Decimal(20)}, mandatory_side="player")
    shoe = open_shoe(round_.tables.get())
    client.force_login(host)
    page = unescape(text(client.get(table_url(shoe))))
    link = re.search(
        r'<a class="t-minimum" href="([^"]+)" data-fill="stake_2_player" '
        r'data-amount="20" title="No bet: minimum 20 on Player"',
        page,
    )
    assert link is not None
    assert link.group(1) == f"{table_url(shoe)}?stake_2_player=20"

    # Without JavaScript: the link fills the box, and the hand goes through the pipeline.
    filled = text(client.get(link.group(1)))
    data = form_data(filled)
    assert data["stake_2_player"] == "20"
    assert data["stake_1_player"] == "" and data["stake_2_banker"] == ""
    response = client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), data | {"result": "player"}, **HTMX
    )
    assert "Hand 1 saved" in text(response)
    bet = Bet.objects.get()
    assert (bet.seat, bet.bet_type, bet.stake, bet.net) == (2, "player", Decimal(20), Decimal(20))


def test_a_stake_filled_by_a_link_is_checked_like_a_typed_one(client, host, started):
    round_ = started(2, round_settings={"table_min": Decimal(20)})
    shoe = open_shoe(round_.tables.get())
    client.force_login(host)
    filled = text(client.get(table_url(shoe) + "?stake_1_banker=5000&stake_9_tie=5&number=9"))
    data = form_data(filled)
    assert data["stake_1_banker"] == "5000" and data["number"] == "1"
    response = client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), data | {"result": "banker"}, **HTMX
    )
    assert "Hand 1 saved" not in text(response)
    assert not Bet.objects.exists()


# --- the secret bet ---------------------------------------------------------------------------


def mark(round_, seat, hand, by, **kwargs):
    event = round_.tables.get().event
    return services.secret_bet_mark(table_event=event, seat=seat, hand_number=hand, by=by)


def refusal(error: ValidationError) -> str:
    return " ".join(error.messages)


def test_a_secret_bet_on_the_last_hand_only(started, host, play):
    round_ = started(3, hands=3, secret_bet="last")
    table = round_.tables.get()
    with pytest.raises(ValidationError) as error:
        mark(round_, 1, 1, host)
    assert refusal(error.value) == str(MSG_SECRET_LAST_HAND).format(hands=3)
    play(table, "B")
    play(table, "P")
    place = mark(round_, 1, 3, host)
    assert place.secret_hand == 3
    assert TableSeat.objects.get(table=table, seat=1).secret_hand == 3


def test_a_secret_bet_once_a_round_on_any_hand(started, host, dealer, play):
    round_ = started(3, hands=4, secret_bet="any")
    table = round_.tables.get()
    mark(round_, 1, 1, dealer)
    mark(round_, 1, 1, dealer)  # the same again: still the one
    play(table, "B")
    name = names_by_seat(table)[1]
    with pytest.raises(ValidationError) as error:
        mark(round_, 1, 2, host)
    assert refusal(error.value) == str(MSG_SECRET_USED).format(guest=name, hand=1)
    assert mark(round_, 2, 2, host).secret_hand == 2


def test_no_secret_bet_when_the_tournament_has_none(started, host):
    round_ = started(2, secret_bet="off")
    with pytest.raises(ValidationError) as error:
        mark(round_, 1, 1, host)
    assert refusal(error.value) == str(MSG_SECRET_OFF)


def test_a_secret_bet_is_for_the_hand_being_entered(started, host, play):
    round_ = started(2, hands=4, secret_bet="any")
    table = round_.tables.get()
    play(table, "B")
    with pytest.raises(ValidationError) as error:
        mark(round_, 1, 1, host)  # already saved
    assert refusal(error.value) == str(services.MSG_SECRET_NEXT_HAND_ONLY).format(next=2, number=1)
    with pytest.raises(ValidationError) as error:
        mark(round_, 5, 2, host)
    assert refusal(error.value) == str(services.MSG_NO_PLAYER_IN_SEAT).format(seat=5)


def test_a_secret_bet_taken_back_before_the_hand_is_saved(started, host, play):
    round_ = started(2, hands=4, secret_bet="any")
    table = round_.tables.get()
    event = table.event
    mark(round_, 1, 1, host)
    services.secret_bet_clear(table_event=event, seat=1, hand_number=1, by=host)
    assert TableSeat.objects.get(table=table, seat=1).secret_hand is None
    mark(round_, 1, 1, host)
    play(table, "B")
    with pytest.raises(ValidationError):
        services.secret_bet_clear(table_event=event, seat=1, hand_number=1, by=host)
    assert TableSeat.objects.get(table=table, seat=1).secret_hand == 1  # saved: on the record


def test_only_a_host_or_a_dealer_marks_a_secret_bet(client, started, outsider, dealer):
    round_ = started(2, secret_bet="any")
    with pytest.raises(PermissionDenied):
        mark(round_, 1, 1, outsider)
    event = round_.tables.get().event
    url = reverse("tournament_table:secret_bet", args=[event.pk])
    client.force_login(outsider)
    assert client.post(url, {"mark": "1", "number": "1"}).status_code == 403
    client.force_login(dealer)
    assert client.post(url, {"mark": "1", "number": "1"}).status_code == 302
    assert TableSeat.objects.get(table__event=event, seat=1).secret_hand == 1


def test_the_secret_toggle_answers_the_script_and_the_plain_form(client, host, started):
    round_ = started(3, hands=4, secret_bet="last")
    event = round_.tables.get().event
    shoe = open_shoe(round_.tables.get())
    url = reverse("tournament_table:secret_bet", args=[event.pk])
    client.force_login(host)
    answer = client.post(url, {"mark": "2", "number": "1"}, **HTMX)
    assert answer.status_code == 400
    assert answer.json()["message"] == str(MSG_SECRET_LAST_HAND).format(hands=4)
    response = client.post(url, {"mark": "2", "number": "1"})
    assert response.status_code == 302 and response.url == table_url(shoe)
    page = unescape(text(client.get(response.url)))
    assert str(MSG_SECRET_LAST_HAND).format(hands=4) in page
    assert "data-secret-seat" not in page  # no seat may go secret on hand 1
    assert client.post(url, {"number": "1"}, **HTMX).status_code == 400


def test_a_secret_stake_is_hidden_on_the_page_until_the_hand_is_saved(client, host, started, play):
    round_ = started(3, hands=2, secret_bet="last")
    table = round_.tables.get()
    shoe = open_shoe(table)
    play(table, "B")
    client.force_login(host)
    page = text(client.get(table_url(shoe)))
    assert 'name="mark" value="2"' in seat_row(page, 2)
    assert 'class="secret"' not in page

    answer = client.post(
        reverse("tournament_table:secret_bet", args=[table.event_id]),
        {"mark": "2", "number": "2"},
        **HTMX,
    )
    assert answer.status_code == 200 and answer.json()["secret"] is True
    page = text(client.get(table_url(shoe)))
    row = seat_row(page, 2)
    assert row.startswith('<tr class=" secret" data-seat="2">')
    assert 'name="unmark" value="2"' in row and 'aria-pressed="true"' in row
    assert seat_row(page, 1).startswith('<tr class="" data-seat="1">')

    # A refused stake: the summary says that seat 2's secret bet is refused, not why.
    refused = text(save(client, shoe, result="banker", stake_2_banker="5000"))
    line = re.search(r'<li data-stake-seat="2" class="masked">.*?</li>', refused, re.S)
    assert line is not None and "Seat 2: the secret bet is refused" in unescape(line.group(0))
    assert seat_row(refused, 2).startswith('<tr class=" secret"')

    saved = text(save(client, shoe, result="banker", stake_2_banker="100"))
    assert "Hand 2 saved" in saved and seat_row(saved, 2).startswith('<tr class="" data-seat')
    assert TableSeat.objects.get(table=table, seat=2).secret_hand == 2


# --- the leaderboard --------------------------------------------------------------------------


def display_url(event) -> str:
    token = game_services.event_display_link_issue(event=event)
    return reverse("display:table_display", args=[event.pk, token])


def leaderboard_of(page: str) -> str:
    found = re.search(r'<section class="leaderboard".*?</section>', page, re.S)
    assert found is not None
    return unescape(found.group(0))


def captions(board: str) -> list[str]:
    found = re.findall(r"<caption>(.*?)</caption>", board, re.S)
    return [" ".join(re.sub(r"<[^>]+>", "", caption).split()) for caption in found]


def lines_of(board: str) -> list[tuple[str, str, str]]:
    """(name, stack, status) of each line, in the order shown."""
    rows = re.findall(
        r'<td class="name"><bdi>([^<]+)</bdi>.*?</td>\s*<td>([^<]+)</td>\s*'
        r'<td class="status">(.*?)</td>',
        board,
        re.S,
    )
    return [(name, stack, re.sub(r"<[^>]+>", "", status)) for name, stack, status in rows]


def test_the_display_of_a_tournament_table_shows_the_round_at_every_table(
    client, started, play, host
):
    round_ = started(14, hands=3, round_settings={"per_table": 2})
    first, _second = round_.tables.all()
    url = display_url(first.event)
    board = leaderboard_of(text(client.get(url)))
    assert captions(board) == ["Table 1 · 3 hands left", "Table 2 · 3 hands left"]

    names = names_by_seat(first)
    play(first, "B", {3: ("banker", 200), 5: ("player", 100)})
    board = leaderboard_of(text(client.get(url)))
    assert captions(board) == ["Table 1 · 2 hands left", "Table 2 · 3 hands left"]
    lines = lines_of(board)
    assert len(lines) == 14
    table_1 = lines[:7]
    assert table_1[0] == (names[3], "1,190", "qualifying")
    assert table_1[-1] == (names[5], "900", "")
    # Everyone else at table 1 is level: the tie at the cut sends them all on (split ties).
    assert {line[2] for line in table_1[1:-1]} == {"qualifying"}


def test_the_display_refreshes_the_leaderboard_with_the_roads(client, started):
    round_ = started(2)
    page = text(client.get(display_url(round_.tables.get().event)))
    display = re.search(r'<div id="display".*?</div>\s*<noscript>', page, re.S).group(0)
    # Fetched again when its stream says so; every 5 s while the stream cannot open.
    assert 'hx-trigger="live-refresh"' in display and 'data-live-poll="5"' in display
    assert 'class="leaderboard"' in display


def test_the_display_never_shows_a_hand_before_it_is_saved(client, started, host):
    round_ = started(3, hands=2, secret_bet="any")
    table = round_.tables.get()
    url = display_url(table.event)
    drawn = re.compile(r"\?since=[\d.]+")  # when the page was drawn, for its stream
    before = drawn.sub("", text(client.get(url)))
    mark(round_, 2, 1, host)
    after = drawn.sub("", text(client.get(url)))
    assert after == before  # a secret bet marked: nothing shows, nothing moves
    assert "secret" not in before.lower()


def test_a_cash_display_has_no_leaderboard(client, shoe):
    page = text(client.get(display_url(shoe.event)))
    assert "leaderboard" not in page


def guest_link(guest) -> tuple[str, str]:
    token = guest_services.guest_link_issue(guest=guest)
    return (
        reverse("ledger:guest_page", args=[guest.pk, token]),
        reverse("tournament_table:guest_standings", args=[guest.pk, token]),
    )


def test_a_players_page_shows_the_tournament_now_with_their_line(client, started, play):
    round_ = started(7, hands=3)
    table = round_.tables.get()
    place = table.seats.select_related("entrant__guest").get(seat=4)
    guest = place.entrant.guest
    play(table, "B", {4: ("banker", 500)})
    page_url, standings_url = guest_link(guest)
    page = text(client.get(page_url))
    assert "Tournament now" in page
    assert f'hx-get="{standings_url}" hx-trigger="live-refresh"' in page
    assert 'data-live-topics="tournament event" data-live-gap="5" data-live-spread="1"' in page
    board = leaderboard_of(page)
    mine = re.search(r'<tr class="([^"]*)" aria-current="true">.*?</tr>', board, re.S)
    assert "you" in mine.group(1) and guest.name in mine.group(0)
    assert lines_of(board)[0] == (guest.name, "1,475", "qualifying")
    assert board.count("aria-current") == 1

    again = client.get(standings_url)
    assert again.status_code == 200 and again["Cache-Control"] == "private, no-store"
    assert lines_of(leaderboard_of(text(again))) == lines_of(board)


def test_during_a_tournament_a_players_page_opens_on_the_leaderboard(client, started, play):
    round_ = started(3, hands=3)
    table = round_.tables.get()
    play(table, "B", {1: ("banker", 100)})
    page_url, _standings = guest_link(table.seats.get(seat=1).entrant.guest)
    page = text(client.get(page_url))
    leaderboard, roads = page.index('id="tournament-now"'), page.index('class="scoreboard"')
    assert leaderboard < page.index('class="balance') < roads
    folded = re.search(r'<details class="tournament-roads">(.*?)</details>', page, re.S)
    assert folded is not None and 'class="scoreboard"' in folded.group(1)  # closed: no "open"
    live = text(client.get(page_url + "?live=1", headers={"HX-Request": "true"}))
    assert '<details class="tournament-roads">' in live


def test_at_a_cash_table_a_guests_roads_stay_open(client, seated):
    page_url, _standings = guest_link(seated[1])
    page = text(client.get(page_url))
    assert 'class="scoreboard"' in page and "tournament-roads" not in page


def test_the_tournament_now_needs_the_players_link(client, started):
    round_ = started(2)
    guest = round_.tables.get().seats.get(seat=1).entrant.guest
    _page, standings_url = guest_link(guest)
    wrong = reverse("tournament_table:guest_standings", args=[guest.pk, secrets.token_urlsafe(32)])
    assert client.get(wrong).status_code == 404
    assert client.get(standings_url).status_code == 200


def test_a_player_who_logs_in_sees_it_on_their_page_too(client, started):
    round_ = started(2)
    guest = round_.tables.get().seats.get(seat=2).entrant.guest
    user = User.objects.create_user("player-two", password="pw-for-tests")
    Guest.objects.filter(pk=guest.pk).update(user=user)
    client.force_login(user)
    page = text(client.get(reverse("ledger:my_page")))
    mine = reverse("tournament_table:my_standings")
    assert f'hx-get="{mine}"' in page
    assert "aria-current" in leaderboard_of(text(client.get(mine)))


def test_no_tournament_now_for_a_guest_in_none(client, seated):
    page_url, _standings = guest_link(seated[1])
    assert "Tournament now" not in text(client.get(page_url))


# --- queries ----------------------------------------------------------------------------------


def queries_for(client, url, **headers):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, **headers).status_code == 200
    return len(captured)


@pytest.mark.parametrize("page", ["table", "display", "guest", "standings"])
def test_the_pages_run_the_same_queries_with_2_or_9_players(
    client, host, started, play, page, django_assert_max_num_queries
):
    def url_for(round_):
        table = round_.tables.get()
        play(table, "B", {1: ("banker", 100), 2: ("player", 100)})
        guest = table.seats.get(seat=1).entrant.guest
        page_url, standings_url = guest_link(guest)
        return {
            "table": table_url(open_shoe(table)),
            "display": display_url(table.event),
            "guest": page_url,
            "standings": standings_url,
        }[page]

    client.force_login(host)
    small = queries_for(client, url_for(started(2, secret_bet="any")))
    others = [f"Guest {n}" for n in range(1, 10)]
    large_url = url_for(started(9, names=others, secret_bet="any", seats_per_table=9))
    with django_assert_max_num_queries(small):
        queries_for(client, large_url)


def test_the_phone_gets_each_seats_stack_and_the_short_stack_rule(client, host, started, play):
    """What the phone checks before Save (static/js/table_state.js ``limitProblems``): each
    seat's stack before the hand being entered, the unit, the rule for a short stack — and
    the page and the round's page say which rule the tournament plays."""
    round_ = started(3, hands=4, round_settings={"table_min": Decimal(100)}, short_stack="out")
    table = round_.tables.get()
    shoe = open_shoe(table)
    play(table, "B", {1: ("banker", 100), 2: ("player", 950)})
    client.force_login(host)
    page = text(client.get(table_url(shoe)))
    rules = re.search(r'id="keypad-rules"[^>]*>(.*?)</script>', page, re.S)[1]
    limits = json.loads(rules)["limits"]
    assert limits["stacks"] == {"1": 109500, "2": 5000, "3": 100000}
    assert (limits["stacks_for"], limits["unit"], limits["min"]) == (2, 1000, 10000)
    assert limits["short_stack"] == "out"
    said = "A stack under the table minimum is out"
    assert 'data-short-stack="out"' in page and said in page
    assert stacks_shown(unescape(page)) == {"1": "1,095", "2": "out", "3": "1,000"}
    round_page = text(client.get(reverse("tournaments:round_detail", args=[round_.pk])))
    assert 'data-short-stack="out"' in round_page and said in round_page
    detail = reverse("tournaments:tournament_detail", args=[round_.tournament.pk])
    assert f'data-short-stack="out">{said}<' in text(client.get(detail))
