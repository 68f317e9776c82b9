"""The installable app: manifests per role, the maskable icon, the offline page, and what the
service worker keeps when it installs. (Served by the production server, with hashed static
files: tests/test_production_server.py; in Chromium: tests/browser/test_offline.py.)"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.urls import reverse
from PIL import Image

from ledger.guests import services as guest_services
from ledger.models import Guest
from shoebook.base import webapp

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"
OFFLINE_FILES = re.compile(r"^const OFFLINE_FILES = (\[.*\]);$", re.M)


def offline_files(client) -> list[str]:
    worker = client.get(reverse("service_worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    return json.loads(OFFLINE_FILES.search(worker.content.decode()).group(1))


def test_the_hosts_app_opens_at_the_events_with_a_maskable_icon(client):
    manifest = client.get(reverse("web_manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert (data["start_url"], data["scope"], data["id"]) == ("/events/", "/", "/events/")
    purposes = {(icon["src"], icon.get("purpose")) for icon in data["icons"]}
    assert ("/static/icons/icon-maskable-512.png", "maskable") in purposes
    assert ("/static/icons/icon-192.png", "any") in purposes
    assert ("/static/icons/icon-512.png", "any") in purposes


def test_the_maskable_icon_keeps_its_chip_inside_the_safe_zone():
    # A launcher may cut the icon to any shape that keeps the central circle of 80% of its width:
    # past it only the background (whatever colour fills the corners) may show.
    icon = Image.open(STATIC / "icons" / "icon-maskable-512.png").convert("RGB")
    assert icon.size == (512, 512)
    background = icon.getpixel((0, 0))
    safe_radius = 0.4 * 512
    outside = [
        (x, y)
        for y in range(0, 512, 2)
        for x in range(0, 512, 2)
        if (x + 0.5 - 256) ** 2 + (y + 0.5 - 256) ** 2 > safe_radius**2
        and icon.getpixel((x, y)) != background
    ]
    assert outside == []
    assert icon.getpixel((256, 256)) != background  # the chip is there


@pytest.fixture
def linked_guest(guests) -> tuple[Guest, str]:
    guest = guests[0]
    return guest, guest_services.guest_link_issue(guest=guest)


def test_a_guests_app_opens_at_their_own_page_and_keeps_to_it(client, linked_guest):
    guest, token = linked_guest
    page_url = reverse("ledger:guest_page", args=[guest.pk, token])
    page = client.get(page_url).content.decode()
    manifest_url = reverse("ledger:guest_manifest", args=[guest.pk, token])
    assert f'<link rel="manifest" href="{manifest_url}">' in page
    assert page.count('rel="manifest"') == 1

    manifest = client.get(manifest_url)
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest["Cache-Control"] == "private, no-cache"
    assert manifest["Referrer-Policy"] == "no-referrer"
    data = manifest.json()
    assert (data["start_url"], data["scope"], data["id"]) == (page_url, page_url, page_url)
    assert any(icon.get("purpose") == "maskable" for icon in data["icons"])


def test_a_guests_manifest_needs_the_link_valid_now(client, linked_guest):
    guest, token = linked_guest
    wrong = reverse("ledger:guest_manifest", args=[guest.pk, token[:-2] + "xx"])
    assert client.get(wrong).status_code == 404
    guest_services.guest_link_issue(guest=guest)  # replaced: the old link's manifest is gone too
    assert client.get(reverse("ledger:guest_manifest", args=[guest.pk, token])).status_code == 404


def test_a_guest_with_a_login_keeps_the_sites_manifest(client, linked_guest):
    guest, _token = linked_guest
    user = User.objects.create_user("aki-login", password="pw-for-tests")
    Guest.objects.filter(pk=guest.pk).update(user=user)
    client.force_login(user)
    page = client.get(reverse("ledger:my_page")).content.decode()
    assert f'<link rel="manifest" href="{reverse("web_manifest")}">' in page


def test_the_offline_page_is_the_same_for_everyone_and_carries_nothing_of_theirs(client, host):
    anonymous = client.get(reverse("offline"))
    client.force_login(host)
    hosts = client.get(reverse("offline"))
    assert anonymous.status_code == hosts.status_code == 200
    assert hosts.content == anonymous.content
    page = hosts.content.decode()
    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page
    assert host.username not in page
    assert '<script src="/static/js/offline.js" defer></script>' in page
    assert "data-offline-tables" in page


def test_the_offline_page_speaks_japanese(client):
    page = client.get(reverse("offline"), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "接続がありません" in page
    assert "{time}に表示" in page  # offline.js fills in the time


def test_the_worker_keeps_every_file_a_table_page_loads(client, host, seated, shoe):
    client.force_login(host)
    page = client.get(reverse("ledger:shoe_table", args=[shoe.pk])).content.decode()
    loaded = set(re.findall(r'<script[^>]* src="(/static/[^"]+)"', page))
    loaded |= set(re.findall(r'<link[^>]* href="(/static/[^"]+)"', page))
    assert "/static/js/table.js" in loaded
    kept = offline_files(client)
    assert loaded - set(kept) == set()
    assert "/static/js/offline.js" in kept  # the offline page's own script
    assert "/static/icons/icon-maskable-512.png" in kept
    assert len(kept) == len(set(kept))  # cache.addAll refuses a URL twice


def test_the_worker_keeps_the_offline_page_and_what_it_loads(client):
    worker = client.get(reverse("service_worker")).content.decode()
    assert f'const OFFLINE_PAGE = "{reverse("offline")}";' in worker
    assert 'const STATIC_PREFIX = "/static/";' in worker
    page = client.get(reverse("offline")).content.decode()
    loaded = set(re.findall(r'(?:src|href)="(/static/[^"]+)"', page))
    assert loaded - set(offline_files(client)) == set()


def test_a_missing_file_is_left_out_of_the_workers_list_not_a_failure(client, monkeypatch, caplog):
    monkeypatch.setattr(webapp, "OFFLINE_FILES", (*webapp.OFFLINE_FILES, "js/not-written.js"))
    with caplog.at_level(logging.WARNING, logger="shoebook.base.webapp"):
        kept = offline_files(client)
    assert "/static/js/not-written.js" not in kept
    assert "/static/js/site.js" in kept
    assert "js/not-written.js" in caplog.text
