"""The browser suite's network between browser and server (tests/browser/network.py), checked
against a plain HTTP server: what it forwards, the latency it adds, and the outage it makes."""

from __future__ import annotations

import http.client
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser.network import Proxy


class Hello(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keeps connections open, as a browser's are

    def do_GET(self) -> None:
        body = b"hello " + self.path.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=httpd.serve_forever, args=(0.05,), daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def get(connection: http.client.HTTPConnection, path: str) -> str:
    connection.request("GET", path)
    return connection.getresponse().read().decode()


@pytest.fixture
def connect():
    """``connect(proxy)``: an HTTP connection through it, closed when the test ends."""
    opened = []

    def to(proxy: Proxy) -> http.client.HTTPConnection:
        host, port = proxy.url.removeprefix("http://").split(":")
        opened.append(http.client.HTTPConnection(host, int(port), timeout=5))
        return opened[-1]

    yield to
    for connection in opened:
        connection.close()


def test_the_proxy_forwards_both_ways_on_one_connection(server, connect):
    with Proxy(server) as proxy:
        connection = connect(proxy)
        assert get(connection, "/one") == "hello /one"
        assert get(connection, "/two") == "hello /two"  # the same connection, kept open


def test_latency_adds_a_round_trip_to_each_request(server, connect):
    with Proxy(server) as proxy:
        connection = connect(proxy)
        get(connection, "/warm")
        started = time.monotonic()
        get(connection, "/fast")
        fast = time.monotonic() - started
        proxy.latency_ms = 200
        started = time.monotonic()
        assert get(connection, "/slow") == "hello /slow"
        slow = time.monotonic() - started
    assert fast < 0.1
    assert 0.2 <= slow < 0.5


def test_offline_cuts_open_connections_and_drops_new_ones_until_it_is_back(server, connect):
    with Proxy(server) as proxy:
        open_before = connect(proxy)
        assert get(open_before, "/") == "hello /"
        proxy.offline = True
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            get(open_before, "/again")  # cut: no answer
        with pytest.raises((ConnectionError, http.client.HTTPException)):
            get(connect(proxy), "/new")  # dropped: no answer either
        proxy.offline = False
        assert get(connect(proxy), "/back") == "hello /back"
