"""The live streams, one of each kind: a save reaches the screens that show it within a second,
and each stream carries only what its viewer may see."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
from decimal import Decimal

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connection, connections
from django.test import AsyncClient, Client
from django.urls import reverse

from games import services as game_services
from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Guest
from ledger.people import services as people_services
from shoebook.base import live
from tests.conftest import bet
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

WITHIN = 1.0  # seconds, from the save's commit to the message read from the stream


@pytest.fixture(autouse=True)
def short_heartbeat(monkeypatch):
    # A stream with nothing to say answers a heartbeat after this long: a missing message
    # fails the test at once instead of leaving it waiting.
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", WITHIN)


class Stream:
    def __init__(self, client: Client, url: str) -> None:
        self.response = client.get(url)
        assert self.response.status_code == 200, url
        self.chunks = iter(self.response.streaming_content)
        assert next(self.chunks).decode().startswith("retry: ")

    def next_change(self) -> dict[str, object]:
        """The next message; fails on a heartbeat (nothing came within the second)."""
        started = time.monotonic()
        text = next(self.chunks).decode()
        assert text.startswith("event: change\n"), f"nothing within {WITHIN}s: {text!r}"
        assert time.monotonic() - started < WITHIN
        return json.loads(text.split("data: ", 1)[1])

    def nothing(self) -> None:
        assert next(self.chunks).decode() == ": heartbeat\n\n"

    def close(self) -> None:
        self.response.close()


@pytest.fixture
def streams():
    opened: list[Stream] = []

    def open_(client: Client, url: str) -> Stream:
        opened.append(Stream(client, url))
        return opened[-1]

    yield open_
    for stream in opened:
        stream.close()
    live.hub.stop_listener()  # its connection would keep the test database from being dropped
    assert live.hub.streams == 0  # a closed stream leaves the hub


@pytest.fixture
def saving(django_capture_on_commit_callbacks):
    """Saves whose commit hooks run, as they do outside a test's transaction."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def staff(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_second_phone_gets_the_hand_with_the_next_number_and_the_seating(
    streams, saving, seated, shoe, record, dealer
):
    phone = streams(staff(dealer), reverse("ledger:shoe_live", args=[shoe.pk]))
    with saving():
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    change = phone.next_change()
    seating = " ".join(f"{seat}:{guest.pk}" for seat, guest in sorted(seated.items()))
    read_at = change.pop("at")  # when the facts were read: the phone keeps the newest
    assert isinstance(read_at, int) and read_at > 0
    assert change == {"topic": f"shoe:{shoe.pk}", "what": "hand", "shoe": shoe.pk,
                      "event": shoe.event_id, "next": 2, "last": 1, "seating": seating}  # fmt: skip


def test_a_phone_gets_undos_and_seat_changes(streams, saving, seated, shoe, record, host, guests):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    phone = streams(staff(host), reverse("ledger:shoe_live", args=[shoe.pk]))
    with saving():
        hand_services.hand_undo(shoe=shoe, by=host, number=1)
    undone = phone.next_change()
    assert (undone["what"], undone["next"], undone["last"]) == ("undo", 1, 0)
    with saving():
        hand_services.seat_guest(shoe=shoe, seat=2, guest=guests[7], by=host)
    seat = phone.next_change()
    assert seat["what"] == "seat"
    assert f"2:{guests[7].pk}" in str(seat["seating"]).split()


def test_a_phone_does_not_hear_another_table(streams, saving, seated, shoe, host, make_event):
    phone = streams(staff(host), reverse("ledger:shoe_live", args=[shoe.pk]))
    with saving():
        hand_services.seat_clear(shoe=shoe, seat=7, by=host)
    assert phone.next_change()["what"] == "seat"
    other_event = make_event(name="Other")
    other = game_services.shoe_start(event=other_event, by=host)
    with saving():
        guest = guest_services.event_guest_add(event=other_event, name="Zed", by=host)
        hand_services.seat_guest(shoe=other, seat=1, guest=guest, by=host)
    phone.nothing()


def test_the_tv_display_gets_its_table_without_a_guest_id(
    streams, saving, seated, shoe, record, host
):
    token = game_services.event_display_link_issue(event=shoe.event)
    tv = streams(Client(), reverse("live:display", args=[shoe.event_id, token]))
    with saving():
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    change = tv.next_change()
    assert change == {"topic": f"event:{shoe.event_id}", "what": "hand", "shoe": shoe.pk,
                      "event": shoe.event_id, "next": 2, "last": 1}  # fmt: skip
    with saving():
        count_services.chips_record(event=shoe.event, guest=seated[1], kind="buy_in",
                                    chips=Decimal(500), source="cash", by=host)  # fmt: skip
    assert set(tv.next_change()) <= live.PUBLIC_FACTS


def test_a_private_link_carries_its_own_guest_only(streams, saving, seated, shoe, record, host):
    aki, ben = seated[1], seated[2]
    links = {guest.pk: guest_services.guest_link_issue(guest=guest) for guest in (aki, ben)}
    guest = Guest.objects.get(pk=aki.pk)
    mine = streams(Client(), reverse("live:guest", args=[aki.pk, guest.access_token]))
    assert links
    with saving():  # Ben's money: not Aki's
        count_services.chips_record(event=shoe.event, guest=ben, kind="buy_in",
                                    chips=Decimal(500), source="cash", by=host)  # fmt: skip
        count_services.chips_record(event=shoe.event, guest=aki, kind="buy_in",
                                    chips=Decimal(300), source="cash", by=host)  # fmt: skip
    change = mine.next_change()
    assert change == {"topic": f"guest:{aki.pk}", "what": "chips", "event": shoe.event_id}
    with saving():  # a hand at Aki's table
        record(shoe, "9 7", "J J 10", [bet(2, "player", 10)])
    change = mine.next_change()
    assert change["topic"] == f"guest:{aki.pk}"
    assert set(change) <= live.PUBLIC_FACTS  # no seating: nobody else's id


def test_a_guest_who_logged_in_gets_their_own_changes_on_me(streams, saving, seated, shoe, host):
    aki = seated[1]
    login = User.objects.create_user("aki-live", password="pw-for-tests")
    Guest.objects.filter(pk=aki.pk).update(user=login)
    mine = streams(staff(login), reverse("live:me"))
    with saving():
        hand_services.seat_clear(shoe=shoe, seat=1, by=host)
    assert mine.next_change() == {"topic": f"guest:{aki.pk}", "what": "seat", "shoe": shoe.pk,
                                  "event": shoe.event_id, "next": 1, "last": 0}  # fmt: skip


def test_the_count_page_gets_a_count_a_buy_in_and_an_adjustment(
    streams, saving, seated, shoe, host
):
    count = streams(staff(host), reverse("ledger:event_live", args=[shoe.event_id]))
    with saving():
        count_services.chips_record(event=shoe.event, guest=seated[1], kind="buy_in",
                                    chips=Decimal(500), source="cash", by=host)  # fmt: skip
    assert count.next_change()["what"] == "chips"
    with saving():
        count_services.adjustment_record(event=shoe.event, guest=seated[1], amount=Decimal(5),
                                         reason="a bet never logged", by=host)  # fmt: skip
    assert count.next_change() == {"topic": f"event:{shoe.event_id}", "what": "adjustment",
                                   "event": shoe.event_id}  # fmt: skip


@pytest.fixture
def tournament_round(host, event):
    tournament = tournament_services.tournament_create(
        name="Spring cup", date=event.date, by=host, entry_fee=Decimal(50), add_on_chips=500,
        add_on_price=Decimal(20), add_on_round=1,
    )  # fmt: skip
    for name in ("Aki", "Ben", "Chie"):
        tournament_services.entrant_add(tournament=tournament, name=name, by=host)
    round_ = tournament_services.round_add(tournament=tournament, by=host, hands=3)
    tournament_services.round_draw(round_=round_, by=host)
    tournament_services.round_start(round_=round_, by=host)
    return round_


def test_the_leaderboard_gets_a_hand_at_a_table_of_its_round(
    streams, saving, tournament_round, host, record
):
    tournament = tournament_round.tournament
    board = streams(staff(host), reverse("tournaments:tournament_live", args=[tournament.pk]))
    table = tournament_round.tables.get()
    shoe = table.event.shoes.get()
    with saving():
        record(shoe, "9 7", "J J 10")
    change = board.next_change()
    assert (change["topic"], change["what"]) == (f"event:{table.event_id}", "hand")


def test_a_players_page_gets_the_leaderboard_of_their_round(
    streams, saving, tournament_round, host
):
    entrant = tournament_round.tournament.entrants.select_related("guest").first()
    token = guest_services.guest_link_issue(guest=entrant.guest)
    mine = streams(Client(), reverse("live:guest", args=[entrant.guest_id, token]))
    with saving():
        tournament_services.add_on(entrant=entrant, by=host)
    change = mine.next_change()
    assert change["topic"] == f"guest:{entrant.guest_id}"
    assert change["what"] == "add-on"


@pytest.fixture
def two_tables(host, event):
    """A started round of ten players at two tables."""
    tournament = tournament_services.tournament_create(
        name="Autumn cup", date=event.date, by=host, entry_fee=Decimal(50)
    )
    for number in range(10):
        tournament_services.entrant_add(tournament=tournament, name=f"Player {number}", by=host)
    round_ = tournament_services.round_add(tournament=tournament, by=host, hands=3)
    tournament_services.round_draw(round_=round_, by=host)
    tournament_services.round_start(round_=round_, by=host)
    tables = list(round_.tables.order_by("pk"))
    assert len(tables) == 2
    return tables


def test_a_tv_and_a_player_hear_a_hand_at_another_table_of_their_round(
    streams, saving, two_tables, record
):
    """The leaderboard they show moves with every table's hands, not only their own."""
    first, second = two_tables
    token = game_services.event_display_link_issue(event=second.event)
    tv = streams(Client(), reverse("live:display", args=[second.event_id, token]))
    player = second.seats.select_related("entrant__guest").first().entrant.guest
    link = guest_services.guest_link_issue(guest=player)
    mine = streams(Client(), reverse("live:guest", args=[player.pk, link]))
    with saving():
        record(first.event.shoes.get(), "9 7", "J J 10")
    for stream in (tv, mine):
        change = stream.next_change()
        assert (change["topic"], change["what"]) == (f"event:{first.event_id}", "hand")


def test_a_stream_answers_as_an_event_stream_never_kept(seated, shoe, dealer):
    response = staff(dealer).get(reverse("ledger:shoe_live", args=[shoe.pk]))
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    chunks = iter(response.streaming_content)
    assert next(chunks).decode() == f"retry: {live.RETRY_MILLISECONDS}\n: open\n\n"
    assert next(chunks).decode() == ": heartbeat\n\n"
    response.close()


def test_a_closed_round_renews_the_stream_of_its_boards(streams, saving, tournament_round, host):
    tournament = tournament_round.tournament
    board = streams(staff(host), reverse("tournaments:tournament_live", args=[tournament.pk]))
    entrant = tournament.entrants.first()
    with saving():
        tournament_services.add_on(entrant=entrant, by=host)
    assert board.next_change()["topic"] == f"tournament:{tournament.pk}"
    with pytest.raises(StopIteration):  # the browser opens it again, with the new tables
        next(board.chunks)


@pytest.mark.django_db(transaction=True)  # the view runs in a thread of its own, on its connection
def test_under_asgi_the_stream_is_an_async_generator_that_gets_the_save(seated, shoe, host):
    """Under ASGI a sync stream would be read whole (or hold Django's thread-sensitive
    executor): the stream is served by an async generator on the event loop."""

    async def run() -> dict[str, object]:
        client = AsyncClient()
        await sync_to_async(client.force_login)(host)
        response = await client.get(reverse("ledger:shoe_live", args=[shoe.pk]))
        assert response.is_async
        chunks = aiter(response.streaming_content)
        assert (await anext(chunks)).decode().startswith("retry: ")
        saved = asyncio.get_running_loop().run_in_executor(None, save)
        text = (await asyncio.wait_for(anext(chunks), WITHIN * 2)).decode()
        await saved
        await chunks.aclose()
        await sync_to_async(connections.close_all)()  # the view's, in Django's executor thread
        return json.loads(text.split("data: ", 1)[1])

    def save() -> None:
        live.hub.publish(live.Change((f"shoe:{shoe.pk}",), {"what": "hand", "next": 2}))

    assert asyncio.run(run()) == {"topic": f"shoe:{shoe.pk}", "what": "hand", "next": 2}
    assert live.hub.streams == 0


# A save made by another server process: on PostgreSQL its NOTIFY reaches this process's
# listener, which hands it to the streams held here.
SAVE_IN_ANOTHER_PROCESS = """
import django, sys
django.setup()
from decimal import Decimal
from django.contrib.auth.models import User
from games.models import Event
from ledger.count import services
from ledger.models import Guest
event, guest = Event.objects.get(pk=int(sys.argv[1])), Guest.objects.get(pk=int(sys.argv[2]))
services.chips_record(event=event, guest=guest, kind="buy_in", chips=Decimal(500),
                      source="cash", by=User.objects.get(username=sys.argv[3]))
"""


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
@pytest.mark.django_db(transaction=True)  # the other process must see this one's rows
def test_a_save_in_another_process_reaches_a_stream_held_in_this_one(streams, seated, shoe, host):
    count = streams(staff(host), reverse("ledger:event_live", args=[shoe.event_id]))
    token = game_services.event_display_link_issue(event=shoe.event)
    tv = streams(Client(), reverse("live:display", args=[shoe.event_id, token]))
    assert live.hub.listener().listening.wait(5)
    database = connection.settings_dict
    url = (f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}"
           f"/{database['NAME']}")  # fmt: skip
    other = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    subprocess.run(
        [
            sys.executable,
            "-c",
            SAVE_IN_ANOTHER_PROCESS,
            str(shoe.event_id),
            str(seated[1].pk),
            host.username,
        ],
        env=other | {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "shoebook.settings"},
        check=True,
        timeout=60,
    )
    assert count.next_change() == {"topic": f"event:{shoe.event_id}", "what": "chips",
                                   "event": shoe.event_id}  # fmt: skip
    assert tv.next_change()["what"] == "chips"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_change_rolled_back_in_another_process_reaches_no_stream(streams, shoe, host):
    count = streams(staff(host), reverse("ledger:event_live", args=[shoe.event_id]))
    assert live.hub.listener().listening.wait(5)
    code = (
        "import django; django.setup(); from django.db import transaction; "
        "from shoebook.base.live import announce\n"
        "try:\n with transaction.atomic():\n"
        f"  announce('event:{shoe.event_id}', what='chips'); raise RuntimeError\n"
        "except RuntimeError: pass\n"
    )
    database = connection.settings_dict
    url = (f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}"
           f"/{database['NAME']}")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], env=os.environ | {"DATABASE_URL": url},
                   check=True, timeout=60)  # fmt: skip
    count.nothing()


def test_a_players_live_part_brings_their_leaderboard_along(tournament_round):
    """One fetch per hand at the player's table refreshes their figures and their leaderboard
    (out of band): their stream does not carry every other table's hands."""
    entrant = tournament_round.tournament.entrants.select_related("guest").first()
    token = guest_services.guest_link_issue(guest=entrant.guest)
    page = reverse("ledger:guest_page", args=[entrant.guest_id, token])
    live_part = Client().get(page + "?live=1", headers={"HX-Request": "true"}).content.decode()
    assert live_part.lstrip().startswith('<div id="guest-live"')
    assert '<section id="tournament-now" class="tournament-now" hx-swap-oob="true"' in live_part
    whole = Client().get(page).content.decode()
    assert "hx-swap-oob" not in whole


def test_a_page_drawn_before_a_save_its_stream_missed_is_told_to_resync(
    streams, saving, seated, shoe, record, dealer
):
    drawn = time.time()
    with saving():
        record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    url = reverse("ledger:shoe_live", args=[shoe.pk])
    phone = streams(staff(dealer), f"{url}?since={drawn}")
    assert phone.next_change() == live.RESYNC
    if connection.vendor == "postgresql":  # until it listens, every stream starts afresh
        assert live.hub.listener().listening.wait(5)
    assert streams(staff(dealer), f"{url}?since={time.time() + 1}").nothing() is None
    assert streams(staff(dealer), f"{url}?since=nan").nothing() is None  # unreadable: none


def test_the_table_page_names_its_stream(client, seated, shoe, dealer):
    client.force_login(dealer)
    page = client.get(reverse("ledger:shoe_table", args=[shoe.pk])).content.decode()
    assert f'data-live-url="{reverse("ledger:shoe_live", args=[shoe.pk])}?since=' in page


def test_a_page_asks_for_the_changes_since_before_its_view_read_the_table(
    client, seated, shoe, dealer
):
    """A save landing while the view reads is after the page's ``since``: its stream reads it."""
    client.force_login(dealer)
    first_read: list[float] = []

    def stamp(execute, sql, params, many, context):
        if "ledger_bet" in sql or "games_hand" in sql:
            first_read.append(time.time())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(stamp):
        page = client.get(reverse("ledger:shoe_table", args=[shoe.pk])).content.decode()
    since = float(re.search(r"\?since=([\d.]+)", page).group(1))
    assert first_read
    assert since <= first_read[0]


def test_the_service_worker_leaves_every_stream_to_the_network(client, seated, shoe):
    """Its first fetch listener, before Workbox's routes, stops a stream's request there: the
    worker neither answers nor keeps one (a kept stream would replay stale changes offline)."""
    worker = client.get(reverse("service_worker")).content.decode()
    guard = worker.index("event.stopImmediatePropagation()")
    assert guard < worker.index("workbox.routing.registerRoute")
    pattern = re.search(r"const STREAM = /(.+)/;", worker).group(1).replace("\\/", "/")
    streams = [
        reverse("ledger:shoe_live", args=[shoe.pk]),
        reverse("ledger:event_live", args=[shoe.event_id]),
        reverse("live:display", args=[shoe.event_id, "token"]),
        reverse("live:guest", args=[seated[1].pk, "token"]),
        reverse("live:me"),
    ]
    assert all(re.search(pattern, url) for url in streams)
    assert not re.search(pattern, reverse("ledger:shoe_table", args=[shoe.pk]))
    assert "text/event-stream" in worker[:guard]


def test_a_stream_ends_in_time_so_that_its_viewer_is_checked_again(monkeypatch, seated, shoe):
    guest = seated[1]
    token = guest_services.guest_link_issue(guest=guest)
    monkeypatch.setattr(live, "STREAM_SECONDS", 0.0)
    response = Client().get(reverse("live:guest", args=[guest.pk, token]))
    chunks = list(response.streaming_content)  # it ends: the browser opens it again
    assert [chunk.decode() for chunk in chunks] == [f"retry: {live.RETRY_MILLISECONDS}\n: open\n\n"]
    guest_services.guest_link_revoke(guest=guest)
    assert Client().get(reverse("live:guest", args=[guest.pk, token])).status_code == 404


def test_revoking_a_private_link_ends_its_open_streams(streams, saving, seated):
    guest = seated[1]
    token = guest_services.guest_link_issue(guest=guest)
    mine = streams(Client(), reverse("live:guest", args=[guest.pk, token]))
    with saving():
        guest_services.guest_link_revoke(guest=guest)
    assert mine.next_change()["what"] == live.ACCESS_CHANGED
    assert next(mine.chunks, None) is None  # it ends: opened again, the link is refused
    assert Client().get(reverse("live:guest", args=[guest.pk, token])).status_code == 404


def test_revoking_a_dealer_ends_the_open_table_streams_and_refuses_theirs_again(
    streams, saving, seated, shoe, host, dealer
):
    url = reverse("ledger:shoe_live", args=[shoe.pk])
    client = staff(dealer)
    phone = streams(client, url)
    with saving():
        people_services.access_revoke(user=dealer, by=host)
    assert phone.next_change()["what"] == live.ACCESS_CHANGED
    assert next(phone.chunks, None) is None  # it ends: opened again, the login is refused
    again = client.get(url)
    assert again.status_code == 302 and again.url.startswith(reverse("login"))
