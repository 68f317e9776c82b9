"""Password reset: off without a mail server, throttled with one, and a mail that fails is a line
in the log, not a traceback."""

from __future__ import annotations

import logging
import smtplib

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

from shoebook.accounts import MSG_TOO_MANY_RESETS

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
