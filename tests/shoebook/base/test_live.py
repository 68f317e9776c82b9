"""The publisher and the hub: a change reaches the streams only once its write commits."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.db import connection, transaction

from shoebook.base import live
from shoebook.base.live import announce, announce_to, hub, public_facts

pytestmark = pytest.mark.django_db


@pytest.fixture
def subscription():
    subscribed = hub.subscribe(["shoe:1", "event:7"])
    yield subscribed
    hub.unsubscribe(subscribed)


def test_a_change_is_delivered_when_its_transaction_commits(
    subscription, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        announce("shoe:1", what="hand", next=4, last=3)
        assert subscription.take() == []  # not before the commit
    assert subscription.take() == [{"topic": "shoe:1", "what": "hand", "next": 4, "last": 3}]


def test_a_change_is_not_delivered_when_its_transaction_rolls_back(
    subscription, django_capture_on_commit_callbacks
):
    def failing_save() -> None:
        with transaction.atomic():
            announce("shoe:1", what="hand", next=4, last=3)
            raise RuntimeError("the save failed")

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
    ):
        failing_save()
    assert callbacks == []
    assert subscription.wait(0.05) == []


def test_a_stream_gets_only_its_topics_and_each_change_once(
    subscription, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        announce("shoe:2", what="hand")
        announce("guest:5", what="settlement")
        announce_to(["shoe:1", "event:7", "guest:5"], what="hand", shoe=1)
    assert subscription.take() == [{"topic": "shoe:1", "what": "hand", "shoe": 1}]


def test_announcing_adds_no_query_on_sqlite(django_assert_num_queries):
    if connection.vendor == "postgresql":
        pytest.skip("PostgreSQL sends one pg_notify: its own test")
    with transaction.atomic(), django_assert_num_queries(0):
        announce_to(["shoe:1", "event:7"], what="hand", next=2, last=1, seating="1:5 2:9")


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_announcing_sends_one_notify_on_postgresql(django_assert_num_queries):
    with transaction.atomic(), django_assert_num_queries(1) as captured:
        announce_to(["shoe:1", "event:7", "guest:3"], what="hand", next=2, last=1)
    assert "pg_notify" in captured.captured_queries[0]["sql"]


def test_a_display_or_a_guest_sees_no_guest_ids():
    staff = {"topic": "shoe:1", "what": "seat", "shoe": 1, "next": 3, "last": 2,
             "seating": "1:5 2:9", "guest": 5}  # fmt: skip
    assert public_facts(staff) == {"topic": "shoe:1", "what": "seat", "shoe": 1, "next": 3,
                                   "last": 2}  # fmt: skip


def test_a_stream_that_falls_far_behind_is_told_to_start_afresh(subscription):
    for number in range(live.PENDING_LIMIT + 5):
        subscription.deliver({"topic": "shoe:1", "what": "hand", "next": number})
    taken = subscription.take()
    assert taken[0] == live.RESYNC
    assert len(taken) < live.PENDING_LIMIT


def test_the_async_side_of_a_subscription_wakes_on_a_delivery_from_another_thread():
    async def waits() -> list[dict[str, object]]:
        subscribed = hub.subscribe(["tournament:3"])
        subscribed.bind_loop()
        try:
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, lambda: loop.run_in_executor(None, deliver, subscribed))
            return await subscribed.wait_async(5)
        finally:
            hub.unsubscribe(subscribed)

    def deliver(subscribed: live.Subscription) -> None:
        hub.publish(live.Change(("tournament:3",), {"what": "rebuy"}))

    assert asyncio.run(waits()) == [{"topic": "tournament:3", "what": "rebuy"}]


def test_the_wire_format_is_a_change_event_with_json_data():
    text = live.event_text({"topic": "shoe:1", "what": "undo", "next": 3})
    assert text.startswith("event: change\ndata: ")
    assert text.endswith("\n\n")
    assert json.loads(text.split("data: ", 1)[1]) == {"topic": "shoe:1", "what": "undo", "next": 3}


def test_a_stream_opened_after_a_change_its_page_missed_starts_with_a_resync():
    if connection.vendor == "postgresql":  # until it listens, other processes' changes are
        assert hub.listener().listening.wait(5)  # unknown: every stream would start afresh
    drawn = time.time()
    hub.publish(live.Change(("shoe:1",), {"what": "hand"}))  # saved while the page loaded
    late = hub.subscribe(["shoe:1"], since=drawn)
    on_time = hub.subscribe(["shoe:1"], since=time.time() + 1)
    other = hub.subscribe(["shoe:2"], since=drawn)
    try:
        assert late.take() == [live.RESYNC]
        assert on_time.take() == []
        assert other.take() == []
    finally:
        for subscribed in (late, on_time, other):
            hub.unsubscribe(subscribed)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_a_stream_opened_before_its_listener_listens_reads_afresh_once_it_listens():
    hub.stop_listener()
    drawn = time.time()
    subscribed = hub.subscribe(["shoe:9"], since=drawn)  # another process may save meanwhile
    unasked = hub.subscribe(["shoe:9"])  # no page drawn: nothing to vouch for
    try:
        assert subscribed.wait(5) == [live.RESYNC]
        assert hub.listener().listening.is_set()
        assert subscribed.take() == []  # once
        assert unasked.take() == []
    finally:
        hub.unsubscribe(subscribed)
        hub.unsubscribe(unasked)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_a_page_drawn_before_its_listener_listened_starts_its_stream_afresh():
    hub.stop_listener()
    drawn = time.time()
    live.start_listening(wait=5)  # listens by the time the page's stream opens
    assert hub.listener().listening.is_set()
    subscribed = hub.subscribe(["shoe:9"], since=drawn)
    listened_before_the_next_page = hub.subscribe(["shoe:9"], since=time.time())
    try:
        assert subscribed.take() == [live.RESYNC]
        assert listened_before_the_next_page.take() == []
    finally:
        hub.unsubscribe(subscribed)
        hub.unsubscribe(listened_before_the_next_page)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
def test_a_listener_whose_connection_is_ended_listens_again_and_every_stream_reads_afresh(
    monkeypatch,
):
    monkeypatch.setattr(live, "LISTENER_RETRY_SECONDS", 0.05)
    listener = hub.listener()
    assert listener.listening.wait(5)
    subscribed = hub.subscribe(["shoe:9"])  # opened while it listened: vouched for till now
    try:
        with connection.cursor() as cursor:  # as a restart of the server ends it
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query = %s AND datname = current_database()",
                [f"LISTEN {live.CHANNEL}"],
            )
            assert cursor.fetchone() == (True,)
        assert subscribed.wait(10) == [live.RESYNC]
        assert listener.listening.is_set() and hub.listener() is listener
    finally:
        hub.unsubscribe(subscribed)
