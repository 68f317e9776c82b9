"""Requests the site cannot read are refused with a 400 that says why, before anything reads them:
never a 500, whoever sends them."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from shoebook.middleware import MSG_NOT_UTF8

pytestmark = pytest.mark.django_db


def login_form_post(client: Client, charset: str):
    client.get(reverse("login"))  # the CSRF cookie, as any visitor gets it
    token = client.cookies["csrftoken"].value
    return client.post(
        reverse("login"),
        b"username=host&password=x",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
        HTTP_X_CSRFTOKEN=token,
    )


@override_settings(DEBUG=True)  # the development server: Django answers with its debug page
@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "shift_jis", "utf8"])
def test_a_form_in_another_charset_is_a_400_that_says_so(charset):
    answer = login_form_post(Client(enforce_csrf_checks=True), charset)
    assert answer.status_code == 400
    assert str(MSG_NOT_UTF8) in answer.content.decode()


def test_a_form_in_utf_8_is_read_as_ever():
    answer = login_form_post(Client(enforce_csrf_checks=True), "UTF-8")
    assert answer.status_code == 200  # the login page again: wrong password
    assert 'name="username"' in answer.content.decode()


@override_settings(DEBUG=False)
def test_without_the_middleware_the_site_s_400_page_still_reads_nothing_of_the_request(settings):
    # Django's own 400 page asks for the form's token, reads the form again and fails again.
    settings.MIDDLEWARE = [m for m in settings.MIDDLEWARE if "form_charset" not in m]
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    answer = login_form_post(client, "utf-16")
    assert answer.status_code == 400
    assert str(MSG_NOT_UTF8) in answer.content.decode()
