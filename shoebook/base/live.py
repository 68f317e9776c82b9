"""Pushed live: what a write changed, sent to every screen that shows it.

A write calls :func:`announce` inside its transaction; the change reaches the streams only if
that transaction commits. Each server process has one :data:`hub` that holds the streams open
in it (server-sent events, :func:`stream_response`) and hands each change to the streams
subscribed to one of its topics (``shoe:<id>``, ``event:<id>``, ``guest:<id>``,
``tournament:<id>``).

- The embedded default (SQLite, one ``runserver`` process): the change is handed to the hub by
  ``transaction.on_commit``.
- PostgreSQL (several server processes): the change is also sent with ``pg_notify`` inside the
  transaction, which PostgreSQL delivers only at commit, to every process that LISTENs; in each
  process that holds a stream, one listener thread (its own connection) hands the changes of the
  *other* processes to its hub. Its own it already had, on commit.

The payload is ids and numbers only: PostgreSQL refuses a NOTIFY of 8000 bytes or more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import threading
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections, transaction
from django.http import HttpRequest, StreamingHttpResponse

logger = logging.getLogger(__name__)

CHANNEL = "shoebook_live"
NOTIFY_LIMIT = 8000  # bytes: PostgreSQL's limit on a NOTIFY payload
HEARTBEAT_SECONDS = 15.0  # a comment line so that proxies and browsers keep the stream open
RETRY_MILLISECONDS = 3000  # the browser's wait before it opens a dropped stream again
# A stream ends after this long and the browser opens it again: its viewer is checked afresh
# (a private link revoked, a login ended stops its changes within this time).
STREAM_SECONDS = 600.0
PENDING_LIMIT = 200  # changes a slow stream may fall behind before it is told to start afresh
LISTENER_RETRY_SECONDS = 2.0
CHANGES_KEPT = 100_000  # topics whose last change the hub remembers (then it starts afresh)
LISTENER_POLL_SECONDS = 1.0  # how often the listener looks up from its connection to stop
_BOOT = uuid.uuid4().hex


def origin() -> str:
    """This process, as its notifications name it (it skips its own): read at each use, as
    a server that loads the app before it forks its workers gives them all this module."""
    return f"{os.getpid()}-{_BOOT}"


# Facts that a screen outside the staff may see: ids of the table and numbers, never a guest's.
PUBLIC_FACTS = frozenset({"topic", "what", "shoe", "event", "next", "last", "round", "tournament"})
RESYNC: dict[str, object] = {"topic": "*", "what": "resync"}
ACCESS_CHANGED = "access"  # ``what`` of a change that ends its streams (a link revoked)

Facts = Mapping[str, object]
Shape = Callable[[dict[str, object]], dict[str, object]]


@dataclass(frozen=True)
class Change:
    topics: tuple[str, ...]
    facts: Facts

    def for_topics(self, topics: tuple[str, ...]) -> dict[str, object] | None:
        """The message a stream subscribed to ``topics`` gets, under the first of them that
        the change names (a guest's page: the guest's own before their table's)."""
        topic = next((topic for topic in topics if topic in self.topics), None)
        if topic is None:
            return None
        return {"topic": topic, **self.facts}


class Subscription:
    """One open stream's mailbox: the hub puts changes in from any thread; the stream takes
    them out, from its own thread (WSGI) or its event loop (ASGI)."""

    def __init__(self, topics: Iterable[str]) -> None:
        self.topics = tuple(dict.fromkeys(topics))
        self._lock = threading.Lock()
        self._pending: deque[dict[str, object]] = deque()
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._async_ready: asyncio.Event | None = None

    def bind_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._async_ready = asyncio.Event()

    def deliver(self, message: dict[str, object]) -> None:
        with self._lock:
            if len(self._pending) >= PENDING_LIMIT:
                self._pending.clear()
                message = dict(RESYNC)
            self._pending.append(message)
        self._ready.set()
        if self._loop is not None and self._async_ready is not None:
            with contextlib.suppress(RuntimeError):  # its loop has closed: the stream is gone
                self._loop.call_soon_threadsafe(self._async_ready.set)

    def take(self) -> list[dict[str, object]]:
        with self._lock:
            messages = list(self._pending)
            self._pending.clear()
            self._ready.clear()
            if self._async_ready is not None:
                self._async_ready.clear()
        return messages

    def wait(self, timeout: float) -> list[dict[str, object]]:
        self._ready.wait(timeout)
        return self.take()

    async def wait_async(self, timeout: float) -> list[dict[str, object]]:
        assert self._async_ready is not None, "bind_loop() first"
        if not self._ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._async_ready.wait(), timeout)
        return self.take()


class Hub:
    """This process's open streams, by topic."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: set[Subscription] = set()
        self._unsure: set[Subscription] = set()  # opened with a ``since`` while not listening
        self._listener: PostgresListener | None = None
        self._changed: dict[str, float] = {}  # topic → when its last change reached this hub
        self._known_since = time.time()  # changes before this one are not known here

    def subscribe(self, topics: Iterable[str], *, since: float | None = None) -> Subscription:
        """``since``: when the page was drawn; a change to one of ``topics`` after it (or one
        this process cannot know of) is the subscription's first message, as a resync. Opened
        while this process does not listen yet (PostgreSQL), the resync comes once it listens:
        only a page read from then on can be vouched for."""
        subscription = Subscription(topics)
        listener = self.listener() if connection.vendor == "postgresql" else None
        with self._lock:
            self._subscriptions.add(subscription)
            if since is None:
                return subscription
            if listener is not None and not listener.listening.is_set():
                self._unsure.add(subscription)
                return subscription
        if self.changed_since(subscription.topics, since):
            subscription.deliver(dict(RESYNC))
        return subscription

    def began_listening(self, listening: threading.Event, *, dropped: bool) -> None:
        """The listener listens from now on: pages drawn before now cannot be vouched for, and
        the streams opened meanwhile (every stream, after a dropped connection) read afresh."""
        with self._lock:  # with subscribe's check: a stream is either unsure here or vouched for
            self._known_since = max(self._known_since, time.time())
            listening.set()
            unsure = list(self._subscriptions) if dropped else list(self._unsure)
            self._unsure.clear()
        for subscription in unsure:
            subscription.deliver(dict(RESYNC))

    def changed_since(self, topics: Iterable[str], since: float) -> bool:
        with self._lock:
            if since <= self._known_since:
                return True
            return any(self._changed.get(topic, 0.0) >= since for topic in topics)

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscriptions.discard(subscription)
            self._unsure.discard(subscription)

    @property
    def streams(self) -> int:
        with self._lock:
            return len(self._subscriptions)

    def publish(self, change: Change) -> None:
        now = time.time()
        with self._lock:
            if len(self._changed) > CHANGES_KEPT:
                self._changed.clear()
                self._known_since = max(self._known_since, now)
            self._changed.update(dict.fromkeys(change.topics, now))
            subscriptions = list(self._subscriptions)
        for subscription in subscriptions:
            message = change.for_topics(subscription.topics)
            if message is not None:
                subscription.deliver(message)

    def listener(self) -> PostgresListener:
        with self._lock:
            if self._listener is None or not self._listener.is_alive():
                self._listener = PostgresListener(self)
                self._listener.start()
            return self._listener

    def stop_listener(self) -> None:
        """Close the listener's connection (the tests, before they drop their database)."""
        with self._lock:
            listener, self._listener = self._listener, None
        if listener is not None:
            listener.stop()


class PostgresListener(threading.Thread):
    """LISTENs on its own connection and hands the other processes' changes to the hub."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(name="shoebook-live-listener", daemon=True)
        self.hub = hub
        self.listening = threading.Event()
        self._stopping = threading.Event()
        self._params = _listener_params()

    def run(self) -> None:
        import psycopg

        dropped = False
        while not self._stopping.is_set():
            try:
                with psycopg.connect(**self._params, autocommit=True) as listen:
                    listen.execute(f"LISTEN {CHANNEL}")
                    self.hub.began_listening(self.listening, dropped=dropped)
                    while not self._stopping.is_set():
                        for notification in listen.notifies(timeout=LISTENER_POLL_SECONDS):
                            self.receive(notification.payload)
            except Exception:
                self.listening.clear()  # what is sent from now on is lost until it listens again
                logger.warning("The live listener lost its connection; retrying.", exc_info=True)
                self._stopping.wait(LISTENER_RETRY_SECONDS)
            self.listening.clear()
            dropped = True

    def stop(self) -> None:
        self._stopping.set()
        self.join(LISTENER_POLL_SECONDS * 3)

    def receive(self, payload: str) -> None:
        try:
            data = json.loads(payload)
        except ValueError:
            return
        if data.get("origin") == origin():
            return  # this process's own change: its hub had it on commit
        self.hub.publish(Change(tuple(data.get("topics", ())), data.get("facts", {})))


def _listener_params() -> dict[str, Any]:
    """The default database's connection settings, as Django would connect (the test database
    under the tests), without what only Django's own cursors use."""
    params = dict(connections["default"].get_connection_params())
    for django_only in ("cursor_factory", "context", "prepare_threshold", "server_side_binding"):
        params.pop(django_only, None)
    # A connection gone without a word (a host asleep, a router's table flushed) is found out by
    # TCP keepalives, as its listener would otherwise wait for notifications that never come.
    for keepalive, value in (("keepalives", 1), ("keepalives_idle", 30),
                             ("keepalives_interval", 10), ("keepalives_count", 3)):  # fmt: skip
        params.setdefault(keepalive, value)
    return params


hub = Hub()


def start_listening(*, wait: float = 0.0) -> None:
    """On PostgreSQL, start this process's listener now rather than with its first stream
    (``wait``: seconds at most until it listens), so that a page drawn from then on knows every
    change after it and its stream needs no resync to start with. A server process calls it as
    it starts (``shoebook.asgi``); without it the first stream of a process starts afresh."""
    if connection.vendor == "postgresql":
        listener = hub.listener()
        if wait:
            listener.listening.wait(wait)


def announce(topic: str, **facts: object) -> None:
    """Tell the screens that show ``topic`` what changed (``what=``, and ids and numbers);
    called inside the write's transaction, delivered only if it commits."""
    announce_to((topic,), **facts)


def announce_to(topics: Iterable[str], **facts: object) -> None:
    """One change under several topics (a hand: its shoe, its event, its players): one
    NOTIFY on PostgreSQL, none on SQLite; each stream gets it once, under its first topic."""
    change = Change(tuple(dict.fromkeys(topics)), dict(facts))
    if not change.topics:
        return
    if connection.vendor == "postgresql":
        payload = json.dumps(
            {"origin": origin(), "topics": change.topics, "facts": change.facts},
            separators=(",", ":"),
            default=str,
        )
        if len(payload.encode()) >= NOTIFY_LIMIT:
            logger.warning("A live change too long to send (%s): sent bare.", change.topics[:3])
            payload = json.dumps(
                {"origin": origin(), "topics": change.topics[:50], "facts": dict(RESYNC)}
            )
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
    transaction.on_commit(lambda: hub.publish(change))


# --- the streams --------------------------------------------------------------------------


def staff_facts(message: dict[str, object]) -> dict[str, object]:
    return message


def public_facts(message: dict[str, object]) -> dict[str, object]:
    """What a TV display or a guest may see: the table's ids and numbers, no other guest."""
    return {key: value for key, value in message.items() if key in PUBLIC_FACTS}


def event_text(message: Mapping[str, object]) -> str:
    return f"event: change\ndata: {json.dumps(message, separators=(',', ':'), default=str)}\n\n"


def _opening() -> str:
    return f"retry: {RETRY_MILLISECONDS}\n: open\n\n"


def _sync_events(
    topics: tuple[str, ...], shape: Shape, renew_on: frozenset[str], since: float | None
) -> Iterator[str]:
    """The stream under WSGI: one thread per stream, waiting on the hub."""
    subscription = hub.subscribe(topics, since=since)
    ends = time.monotonic() + STREAM_SECONDS
    try:
        yield _opening()
        while time.monotonic() < ends:
            messages = subscription.wait(HEARTBEAT_SECONDS)
            if not messages:
                yield ": heartbeat\n\n"
            for message in messages:
                yield event_text(shape(message))
            if _renews(messages, renew_on):
                return
    finally:
        hub.unsubscribe(subscription)


async def _async_events(
    topics: tuple[str, ...], shape: Shape, renew_on: frozenset[str], since: float | None
) -> AsyncIterator[str]:
    """The stream under ASGI: a coroutine on the event loop, no thread held."""
    subscription = hub.subscribe(topics, since=since)
    subscription.bind_loop()
    ends = time.monotonic() + STREAM_SECONDS
    try:
        yield _opening()
        while time.monotonic() < ends:
            messages = await subscription.wait_async(HEARTBEAT_SECONDS)
            if not messages:
                yield ": heartbeat\n\n"
            for message in messages:
                yield event_text(shape(message))
            if _renews(messages, renew_on):
                return
    finally:
        hub.unsubscribe(subscription)


def _renews(messages: list[dict[str, object]], renew_on: frozenset[str]) -> bool:
    """A change under one of ``renew_on`` may change what the stream should carry (a round
    started: new tables), and a change of access (a private link replaced or revoked) whether
    its viewer may see it at all: it ends, and the browser opens it again, checked afresh."""
    return any(
        message.get("topic") in renew_on or message.get("what") == ACCESS_CHANGED
        for message in messages
    )


def _since(text: str) -> float | None:
    """``?since=``: when the page was drawn (seconds since the epoch), as the page says it."""
    try:
        since = float(text)
    except ValueError:
        return None
    return since if math.isfinite(since) else None


def _release_connections() -> None:
    """The view has read what it needed: a stream holds no database connection for the hours
    it stays open (Django would close it only at the response's end; under ASGI with a pool,
    a hundred streams would hold a hundred connections). One inside a transaction (a test's)
    stays."""
    for open_connection in connections.all(initialized_only=True):
        if not open_connection.in_atomic_block:
            open_connection.close()


def served_by_asgi(request: HttpRequest) -> bool:
    # Django's ASGIRequest keeps its scope; under WSGI there is none.
    return hasattr(request, "scope")


def stream_response(
    request: HttpRequest,
    topics: Iterable[str],
    *,
    shape: Shape = staff_facts,
    renew_on: Iterable[str] = (),
) -> StreamingHttpResponse:
    """A server-sent events stream of the changes to ``topics`` (in order of preference: a
    change under several of them comes under the first), each message shaped for its
    viewer (``public_facts`` outside the staff). Under ASGI an async generator (a sync one would
    be read whole, or hold a thread of Django's one thread-sensitive executor), under WSGI a
    sync one (an async one would be read whole before a byte is sent)."""
    _release_connections()
    wanted, renew = tuple(dict.fromkeys(topics)), frozenset(renew_on)
    since = _since(request.GET.get("since", ""))
    content: Iterator[str] | AsyncIterator[str] = (
        _async_events(wanted, shape, renew, since)
        if served_by_asgi(request)
        else _sync_events(wanted, shape, renew, since)
    )
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx: send each message on at once
    return response


def announce_night(
    event_id: int, what: str, guest_ids: Iterable[int | None] = (), **facts: object
) -> None:
    """A change to a night's money (a count, a buy-in, an adjustment, a settlement, a transfer,
    a close): the night's screens and those of the guests concerned."""
    guests = sorted({guest for guest in guest_ids if guest is not None})
    announce_to(
        [f"event:{event_id}", *(f"guest:{guest}" for guest in guests)],
        what=what,
        event=event_id,
        **facts,
    )
