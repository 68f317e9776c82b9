"""The production configuration, started for real: static files collected into a temporary
STATIC_ROOT (hashed names, compressed copies, a manifest), gunicorn with DEBUG off over a
throwaway SQLite file. What the app needs offline must be served there: the service worker
(which once failed on ``static("")``: the manifest storage has no entry for an empty name), the
web manifest and its icons, the offline page, the static files through WhiteNoise."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message

import pytest

from tests.production import Server, production_server

HASHED = re.compile(r"^/static/.+\.[0-9a-f]{12}\.[a-z0-9]+$")  # ManifestStaticFilesStorage's names


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message
    body: bytes

    def text(self) -> str:
        return self.body.decode()


def fetch(server: Server, path: str, **headers: str) -> Answer:
    request = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Server]:
    workdir = tmp_path_factory.mktemp("production")
    database = f"sqlite:///{workdir / 'shoebook.sqlite3'}"
    with production_server(database_url=database, workdir=workdir, migrate=True) as running:
        yield running


def worker_files(worker: str) -> list[str]:
    return json.loads(re.search(r"^const OFFLINE_FILES = (\[.*\]);$", worker, re.M).group(1))


def test_the_service_worker_is_served_and_every_file_it_keeps_is_there(server):
    worker = fetch(server, "/service-worker.js")
    assert worker.status == 200, worker.text()
    assert worker.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert 'const STATIC_PREFIX = "/static/";' in worker.text()
    imported = re.findall(r'"(/static/vendor/[^"]+)"', worker.text())
    kept = worker_files(worker.text())
    assert len(imported) == 3 and len(kept) >= 10
    for path in (*imported, *kept):
        assert HASHED.match(path), path  # the names collectstatic wrote
        assert fetch(server, path).status == 200, path
    names = {re.sub(r"\.[0-9a-f]{12}\.", ".", path) for path in kept}
    assert {
        "/static/js/table.js",
        "/static/js/site.js",
        "/static/css/site.css",
        "/static/js/offline.js",
        "/static/django_htmx/htmx-2.min.js",
    } <= names


def test_the_web_manifest_and_its_icons_are_served(server):
    manifest = fetch(server, "/manifest.webmanifest")
    assert manifest.status == 200
    assert manifest.headers["Content-Type"] == "application/manifest+json"
    data = json.loads(manifest.body)
    assert data["start_url"] == "/events/"
    purposes = set()
    for icon in data["icons"]:
        assert HASHED.match(icon["src"]), icon
        answer = fetch(server, icon["src"])
        assert answer.status == 200, icon
        assert answer.headers["Content-Type"] == icon["type"]
        purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}


def test_the_offline_page_and_what_it_loads_are_served(server):
    page = fetch(server, "/offline/")
    assert page.status == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    loaded = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text())
    assert any("/js/offline." in path for path in loaded)
    for path in loaded:
        assert HASHED.match(path) and fetch(server, path).status == 200, path


def test_static_files_come_from_whitenoise_compressed_and_cached_for_good(server):
    worker = fetch(server, "/service-worker.js").text()
    site_css = next(path for path in worker_files(worker) if "/css/site." in path)
    answer = fetch(server, site_css, **{"Accept-Encoding": "gzip"})
    assert answer.status == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert answer.headers["Content-Type"].startswith("text/css")
    assert "immutable" in answer.headers["Cache-Control"]


def test_pages_render_with_the_hashed_names(server):
    login = fetch(server, "/accounts/login/")
    assert login.status == 200
    assert re.search(r'<script src="/static/js/site\.[0-9a-f]{12}\.js"', login.text())


def log_in_from(server: Server, address: str, password: str) -> int:
    """A login as ``nobody`` sent by a proxy on loopback for a client at ``address``. (The
    production cookies are Secure: over plain HTTP the form's token cookie is sent by hand.)"""
    forwarded = {"X-Forwarded-For": address}
    form = fetch(server, "/accounts/login/", **forwarded)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text())
    cookie = re.search(r"csrftoken=([^;]+)", form.headers["Set-Cookie"])
    data = urllib.parse.urlencode(
        {"username": "nobody", "password": password, "csrfmiddlewaretoken": token.group(1)}
    ).encode()
    request = urllib.request.Request(
        f"{server.url}/accounts/login/",
        data=data,
        headers={
            **forwarded,
            "Referer": f"{server.url}/accounts/login/",
            "Cookie": f"csrftoken={cookie.group(1)}",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_behind_a_trusted_proxy_the_lockout_counts_the_clients_address(server):
    # The client's address comes from X-Forwarded-For when the proxy is trusted
    # (FORWARDED_ALLOW_IPS, loopback here): five wrong passwords lock that login out for that
    # client, not for everyone behind the proxy.
    answers = [log_in_from(server, "203.0.113.7", "wrong") for _ in range(5)]
    assert answers[:4] == [200] * 4 and answers[4] == 429
    assert log_in_from(server, "203.0.113.7", "wrong") == 429
    assert log_in_from(server, "198.51.100.20", "wrong") == 200
