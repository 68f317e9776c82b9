"""Password reset: off without a mail server, throttled with one, and a mail that fails is a line
in the log, not a traceback."""

from __future__ import annotations

import logging
import smtplib

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse
from django.test import override_settings
from django.urls import reverse

from shoebook.accounts import MSG_TOO_MANY_RESETS, client_address
from shoebook.base.env import env_networks
from shoebook.middleware import forwarded_proto_middleware

pytestmark = pytest.mark.django_db

WITH_MAIL = {
    "PASSWORD_RESET": True,
    "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
    "PASSWORD_RESETS_PER_HOUR": 3,
}


@pytest.fixture(autouse=True)
def fresh_allowance():
    cache.clear()


@pytest.mark.parametrize(
    "page",
    [
        reverse("password_reset"),
        reverse("password_reset_done"),
        reverse("password_reset_confirm", args=["MQ", "set-password"]),
        reverse("password_reset_complete"),
    ],
)
def test_without_a_mail_server_the_reset_pages_are_not_found(client, page):
    assert client.get(page).status_code == 404
    assert client.post(page, {"email": "host@example.com"}).status_code == 404
    assert mail.outbox == []


@override_settings(**WITH_MAIL)
def test_with_a_mail_server_a_reset_is_mailed_and_asks_are_limited_per_address(client):
    User.objects.create_user("aki", email="aki@example.com", password="x" * 12)
    url = reverse("password_reset")
    assert client.get(url).status_code == 200
    for _ask in range(3):
        assert client.post(url, {"email": "aki@example.com"}).status_code == 302
    assert len(mail.outbox) == 3
    refused = client.post(url, {"email": "aki@example.com"})
    assert refused.status_code == 429
    assert refused.content.decode() == str(MSG_TOO_MANY_RESETS)
    assert len(mail.outbox) == 3
    other = client.post(url, {"email": "aki@example.com"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302  # another address has its own allowance


@override_settings(**WITH_MAIL, TRUSTED_PROXIES=["10.0.0.2/32"])
def test_behind_a_trusted_proxy_a_strangers_asks_spend_their_own_allowance(client):
    User.objects.create_user("aki", email="aki@example.com", password="x" * 12)
    url = reverse("password_reset")
    stranger = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    asks = [client.post(url, {"email": "aki@example.com"}, **stranger) for _ask in range(4)]
    assert [ask.status_code for ask in asks] == [302, 302, 302, 429]
    owner = {"REMOTE_ADDR": "10.0.0.2", "HTTP_X_FORWARDED_FOR": "198.51.100.20"}
    assert client.post(url, {"email": "aki@example.com"}, **owner).status_code == 302


@override_settings(**WITH_MAIL, PASSWORD_RESETS_PER_ADDRESS_PER_HOUR=5)
def test_the_allowance_is_per_address_asked_for_with_a_cap_per_client(client):
    User.objects.create_user("aki", email="aki@example.com", password="x" * 12)
    url = reverse("password_reset")
    for _ask in range(3):
        assert client.post(url, {"email": " AKI@example.com"}).status_code == 302
    assert client.post(url, {"email": "aki@example.com"}).status_code == 429  # the same, cased
    # Another address asked for from the same client has its own allowance, up to the client's.
    assert client.post(url, {"email": "ben@example.com"}).status_code == 302
    assert client.post(url, {"email": "cho@example.com"}).status_code == 302
    assert client.post(url, {"email": "dan@example.com"}).status_code == 429
    assert client.post(url, {"email": "dan@example.com"}, REMOTE_ADDR="10.0.0.9").status_code == 302


@override_settings(**WITH_MAIL)
def test_a_mail_that_fails_is_one_line_in_the_log_and_the_same_page(client, monkeypatch, caplog):
    User.objects.create_user("aki", email="aki@example.com", password="x" * 12)

    def refused(*args, **kwargs):
        raise smtplib.SMTPConnectError(421, "no service")

    monkeypatch.setattr("shoebook.accounts.EmailMultiAlternatives.send", refused)
    with caplog.at_level(logging.WARNING):
        answer = client.post(reverse("password_reset"), {"email": "aki@example.com"})
    assert answer.status_code == 302 and answer.url == reverse("password_reset_done")
    lines = [record for record in caplog.records if record.name == "shoebook.accounts"]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert "not sent" in lines[0].getMessage()
    assert not [record for record in caplog.records if record.exc_info]  # no traceback at all


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "client"),
    [
        ("203.0.113.7", "", ["10.0.0.2/32"], "203.0.113.7"),
        ("203.0.113.7", "198.51.100.20", ["10.0.0.2/32"], "203.0.113.7"),  # not a proxy of ours
        ("10.0.0.2", "198.51.100.20", [], "10.0.0.2"),  # the proxy not named: the header ignored
        ("10.0.0.2", "198.51.100.20", ["10.0.0.2/32"], "198.51.100.20"),
        ("10.0.0.2", "1.2.3.4, 198.51.100.20", ["10.0.0.0/8"], "198.51.100.20"),  # 1.2.3.4: typed
        ("10.0.0.2", "198.51.100.20, 10.0.0.7", ["10.0.0.0/8"], "198.51.100.20"),  # two proxies
        ("10.0.0.2", "198.51.100.20:5100", ["10.0.0.2/32"], "198.51.100.20"),
        ("10.0.0.2", "[2001:db8::1]:443", ["10.0.0.2/32"], "2001:db8::1"),
        ("10.0.0.2", "not an address", ["10.0.0.2/32"], "10.0.0.2"),
        ("::1", "198.51.100.20", ["::1/128"], "198.51.100.20"),
    ],
)
def test_the_client_address_is_read_one_way(rf, settings, peer, forwarded, trusted, client):
    settings.TRUSTED_PROXIES = trusted
    request = rf.get(
        "/", REMOTE_ADDR=peer, **({"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {})
    )
    assert client_address(request) == client


@pytest.mark.parametrize(
    ("value", "networks"),
    [("", []), ("127.0.0.1, 10.0.0.0/8", ["127.0.0.1/32", "10.0.0.0/8"]), ("::1", ["::1/128"])],
)
def test_the_trusted_proxies_are_read_from_the_environment(monkeypatch, value, networks):
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", value)
    assert env_networks("FORWARDED_ALLOW_IPS") == networks


@pytest.mark.parametrize("value", ["*", "proxy.local", "10.0.0.300"])
def test_a_trusted_proxy_must_be_named_by_its_address(monkeypatch, value):
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", value)
    with pytest.raises(ImproperlyConfigured, match="FORWARDED_ALLOW_IPS"):
        env_networks("FORWARDED_ALLOW_IPS")


def test_a_client_the_server_already_took_from_the_header_is_not_warned_of(
    rf, settings, caplog, monkeypatch
):
    # gunicorn, given the same FORWARDED_ALLOW_IPS, puts the client in REMOTE_ADDR and leaves the
    # header: nothing is wrong. A proxy not named is said, once.
    settings.TRUSTED_PROXIES = ["127.0.0.1/32"]
    monkeypatch.setattr("shoebook.accounts._warned_untrusted", set())
    taken = rf.get("/", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7")
    unnamed = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="203.0.113.7")
    with caplog.at_level(logging.WARNING):
        assert client_address(taken) == "203.0.113.7"
        assert [client_address(unnamed) for _ in range(3)] == ["10.0.0.2"] * 3
    warned = [r.getMessage() for r in caplog.records if r.name == "shoebook.accounts"]
    assert len(warned) == 1 and warned[0].startswith("X-Forwarded-For from 10.0.0.2 is ignored")


@pytest.mark.parametrize(
    ("peer", "trusted", "secure"),
    [
        ("203.0.113.9", [], False),  # a client at the server itself claiming HTTPS
        ("127.0.0.1", [], False),  # a proxy nobody named
        ("127.0.0.1", ["127.0.0.1/32"], True),  # the proxy the operator trusts
    ],
)
def test_https_is_believed_from_the_trusted_proxy_alone(rf, settings, peer, trusted, secure):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.TRUSTED_PROXIES = trusted
    request = rf.get("/", REMOTE_ADDR=peer, HTTP_X_FORWARDED_PROTO="https")
    seen = []
    forwarded_proto_middleware(lambda request: seen.append(request.is_secure()) or HttpResponse())(
        request
    )
    assert seen == [secure]
    assert django_settings.MIDDLEWARE[0] == "shoebook.middleware.forwarded_proto_middleware"
