"""Links that preview (ledger.guests.previews): a guest's private page carries OpenGraph and
Twitter-card tags — the name, the balance line, a picture of it — and every private page tells
search engines to keep nothing."""

from __future__ import annotations

import html
import re
from io import BytesIO

import pytest
from django.urls import reverse
from PIL import Image

from ledger.guests import services as guest_services
from ledger.guests.sharing import balance_share
from ledger.money.results import guest_history
from tests.conftest import bet

pytestmark = pytest.mark.django_db


def meta(page: str, key: str) -> str:
    found = re.search(rf'<meta (?:property|name)="{re.escape(key)}" content="([^"]*)">', page)
    assert found, key
    return html.unescape(found.group(1))


def test_a_guest_s_link_previews_with_the_balance_and_its_picture(client, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    aki = seated[1]
    token = guest_services.guest_link_issue(guest=aki)
    response = client.get(reverse("ledger:guest_page", args=[aki.pk, token]))
    page = response.content.decode()
    line = balance_share(guest_history(aki)).line
    assert meta(page, "og:title") == aki.name == meta(page, "twitter:title")
    assert meta(page, "og:description") == line and "+$100" in line
    assert meta(page, "twitter:card") == "summary_large_image"
    picture = meta(page, "og:image")
    assert picture == "http://testserver" + reverse("ledger:guest_preview", args=[aki.pk, token])
    png = client.get(picture.removeprefix("http://testserver"))
    assert png["Content-Type"] == "image/png" and png["X-Robots-Tag"] == "noindex, nofollow"
    assert Image.open(BytesIO(png.content)).size == (1200, 630)
    guest_services.guest_link_revoke(guest=aki)  # a revoked link previews nothing
    assert client.get(picture.removeprefix("http://testserver")).status_code == 404


def test_every_private_page_says_noindex(client, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    aki = seated[1]
    token = guest_services.guest_link_issue(guest=aki)
    for address in (
        reverse("ledger:guest_page", args=[aki.pk, token]),
        reverse("ledger:link_receipt", args=[aki.pk, token, shoe.event_id]),
    ):
        response = client.get(address)
        assert response["X-Robots-Tag"] == "noindex, nofollow"
        assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()


def test_the_group_s_link_shows_the_night_s_results_until_the_host_revokes_it(
    client, host, seated, shoe, record
):
    from django.test import Client

    from games.models import Event

    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # the house is down $100
    client.force_login(host)
    client.post(reverse("ledger:event_results_link", args=[shoe.event_id]))
    event = Event.objects.get(pk=shoe.event_id)
    address = reverse("ledger:shared_results", args=[event.pk, event.results_token])
    page = client.get(reverse("ledger:event_share", args=[event.pk])).content.decode()
    assert "http://testserver" + address in page  # the host copies it from the page
    stranger = Client()
    response = stranger.get(address)
    shown = response.content.decode()
    assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex, nofollow"
    assert meta(shown, "og:description").startswith("The house: −$100")
    assert seated[1].name not in shown and "Guest 1" in shown  # names only if the host says
    assert "event_share_names" not in shown and 'name="share_names"' not in shown  # read only
    picture = meta(shown, "og:image").removeprefix("http://testserver")
    assert stranger.get(picture)["Content-Type"] == "image/png"
    client.post(reverse("ledger:event_results_link", args=[event.pk]), {"revoke": "1"})
    assert stranger.get(address).status_code == 404
    assert stranger.get(picture).status_code == 404
