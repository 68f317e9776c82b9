"""The bar's network between the browser and a server, for the browser tests: a TCP proxy on
loopback, in the test process, in front of any server (the live test server, gunicorn).

- ``latency_ms``: every chunk is forwarded ``latency_ms / 2`` after it arrived, each way, so a
  request and its answer take ``latency_ms`` more (one more round trip); chunks stay in order and
  keep flowing meanwhile, as on a slow link.
- ``offline = True``: every open connection is cut and every new one is dropped, unanswered; to
  the browser (its pages and its service worker alike) the server is gone. ``offline = False``
  lets new connections through again.

Chromium's own emulation (``slow_network``, ``context.set_offline``) does not reach what a
service worker sends; this does, and it works against a server in another process, where the
``wifi`` fixture (which patches Django's in-process server) cannot reach.
"""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from urllib.parse import urlsplit

CHUNK = 64 * 1024
ACCEPT_POLL_SECONDS = 0.1


class Proxy:
    """``Proxy("http://127.0.0.1:8000", latency_ms=150)``; its ``url`` is the address to use
    instead. ``close()`` (or a ``with`` block) stops it."""

    def __init__(self, target_url: str, *, latency_ms: float = 0) -> None:
        target = urlsplit(target_url)
        if target.hostname is None or target.port is None:
            raise ValueError(f"{target_url}: a proxy needs the server's host and port")
        self.target = (target.hostname, target.port)
        self.latency_ms = latency_ms
        self._offline = False
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(ACCEPT_POLL_SECONDS)
        port = self._listener.getsockname()[1]
        self.url = f"{target.scheme}://127.0.0.1:{port}"
        threading.Thread(target=self._accept, name=f"proxy :{port}", daemon=True).start()

    def __enter__(self) -> Proxy:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def offline(self) -> bool:
        return self._offline

    @offline.setter
    def offline(self, value: bool) -> None:
        self._offline = value
        if value:
            self._cut_all()

    def close(self) -> None:
        self._closed.set()
        self._cut_all()
        self._listener.close()

    # --- the connections ----------------------------------------------------------------------

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                client, _address = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed
            if self._offline:
                _cut(client)  # no answer at all: the connection just ends
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                _cut(client)
                continue
            server.settimeout(None)
            client.settimeout(None)
            with self._lock:
                self._open |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(
                    target=self._forward, args=(source, sink), name="proxy pump", daemon=True
                ).start()

    def _forward(self, source: socket.socket, sink: socket.socket) -> None:
        """Read from ``source``; a second thread writes each chunk to ``sink`` when it is due, so
        reading goes on while a chunk waits out its latency."""
        due: queue.Queue[tuple[float, bytes] | None] = queue.Queue()
        writer = threading.Thread(target=self._deliver, args=(due, sink), daemon=True)
        writer.start()
        while True:
            try:
                data = source.recv(CHUNK)
            except OSError:
                data = b""
            if not data or self._offline:
                break
            due.put((time.monotonic() + self.latency_ms / 2000, data))
        due.put(None)
        writer.join()
        # One side is done (or the link was cut): so is the connection, both ways.
        self._forget(source, sink)

    def _deliver(self, due: queue.Queue[tuple[float, bytes] | None], sink: socket.socket) -> None:
        while (item := due.get()) is not None:
            when, data = item
            time.sleep(max(0.0, when - time.monotonic()))
            if self._offline:
                return  # what was on its way is lost with the link
            try:
                sink.sendall(data)
            except OSError:
                return

    def _forget(self, *sockets: socket.socket) -> None:
        with self._lock:
            self._open -= set(sockets)
        for sock in sockets:
            _cut(sock)

    def _cut_all(self) -> None:
        with self._lock:
            cut, self._open = self._open, set()
        for sock in cut:
            _cut(sock)


def _cut(sock: socket.socket) -> None:
    """Close at once; ``shutdown`` first wakes a thread blocked reading it (``close`` does not)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
