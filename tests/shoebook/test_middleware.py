"""Requests the site cannot read are refused with a 400 that says why, before anything reads them:
never a 500, whoever sends them."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, OperationalError
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import ResolverMatch, reverse

from shoebook.middleware import (
    MSG_DATABASE_BUSY,
    MSG_NOT_UTF8,
    DatabaseBusyMiddleware,
    database_busy,
)

pytestmark = pytest.mark.django_db


def login_form_post(client: Client, charset: str):
    client.get(reverse("login"))  # the CSRF cookie, as any visitor gets it
    token = client.cookies["csrftoken"].value
    return client.post(
        reverse("login"),
        b"username=host&password=x",
        content_type="application/x-www-form-urlencoded",
        CONTENT_TYPE=f"application/x-www-form-urlencoded; charset={charset}",  # as sent
        HTTP_X_CSRFTOKEN=token,
    )


@override_settings(DEBUG=True)  # the development server: Django answers with its debug page
@pytest.mark.parametrize("charset", ["utf-16", "latin-1", "shift_jis", "x-no-such-charset"])
def test_a_form_in_another_charset_is_a_400_that_says_so(charset):
    answer = login_form_post(Client(enforce_csrf_checks=True), charset)
    assert answer.status_code == 400
    assert str(MSG_NOT_UTF8) in answer.content.decode()


@pytest.mark.parametrize("charset", ["UTF-8", "utf8", "UTF_8"])  # one encoding, its names
def test_a_form_in_utf_8_is_read_as_ever(charset):
    answer = login_form_post(Client(enforce_csrf_checks=True), charset)
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


class Deadlock(Exception):
    sqlstate = "40P01"  # as psycopg names PostgreSQL's deadlock_detected


def busy() -> OperationalError:
    error = OperationalError("deadlock detected")
    error.__cause__ = Deadlock()
    return error


def request_to(view):
    request = RequestFactory().post("/shoes/1/hands/")
    request.resolver_match = ResolverMatch(view, (), {"shoe_id": 1})
    return request


def test_a_write_that_deadlocked_is_run_once_more_and_answers_as_it_then_does():
    tries = []

    def view(request, shoe_id):
        tries.append(shoe_id)
        if len(tries) == 1:
            raise busy()
        return HttpResponse("Hand 12 saved")

    request = request_to(view)
    try:
        view(request, shoe_id=1)
    except OperationalError as error:
        answer = DatabaseBusyMiddleware(lambda r: HttpResponse()).process_exception(request, error)
    assert answer.content == b"Hand 12 saved" and tries == [1, 1]


def test_a_write_that_deadlocks_twice_is_a_503_that_says_nothing_was_saved():
    def view(request, shoe_id):
        raise busy()

    request = request_to(view)
    answer = DatabaseBusyMiddleware(lambda r: HttpResponse()).process_exception(request, busy())
    assert answer.status_code == 503 and answer["Retry-After"] == "1"
    assert answer.content.decode() == str(MSG_DATABASE_BUSY)


def test_other_database_errors_are_not_hidden():
    request = request_to(lambda request, shoe_id: HttpResponse())
    error = DatabaseError("no such table")
    assert (
        DatabaseBusyMiddleware(lambda r: HttpResponse()).process_exception(request, error) is None
    )
    assert not database_busy(ValueError("deadlock"))
    assert database_busy(OperationalError("database is locked"))


@pytest.mark.parametrize("charset", [None, "UTF-8"])
def test_a_form_whose_fields_are_not_utf_8_is_a_400_whatever_it_says(host, event, charset):
    # "Zoë" percent-encoded in Latin-1: Django would keep "Zo\ufffd" and say nothing.
    client = Client()
    client.force_login(host)
    content_type = "application/x-www-form-urlencoded" + (f"; charset={charset}" if charset else "")
    answer = client.post(
        reverse("ledger:event_guest_add", args=[event.pk]),
        b"name=Zo%EB+Bront%EB",
        content_type="application/x-www-form-urlencoded",
        CONTENT_TYPE=content_type,
    )
    assert answer.status_code == 400
    assert str(MSG_NOT_UTF8) in answer.content.decode()
    assert not event.guests.exists()


def test_a_form_in_percent_encoded_utf_8_is_read(host, event):
    client = Client()
    client.force_login(host)
    client.post(
        reverse("ledger:event_guest_add", args=[event.pk]),
        b"name=Zo%C3%AB+Bront%C3%AB",
        content_type="application/x-www-form-urlencoded",
    )
    assert [guest.name for guest in event.guests.all()] == ["Zoë Brontë"]


def test_a_multipart_form_naming_a_charset_no_codec_knows_is_a_400(host, event):
    client = Client()
    client.force_login(host)
    body = (b'--b\r\nContent-Disposition: form-data; name="name"\r\n\r\n'
            + "田中".encode("cp932") + b"\r\n--b--\r\n")  # fmt: skip
    answer = client.post(
        reverse("ledger:event_guest_add", args=[event.pk]),
        body,
        content_type="multipart/form-data; boundary=b",
        CONTENT_TYPE="multipart/form-data; boundary=b; charset=x-klingon",
    )
    assert answer.status_code == 400
    assert not event.guests.exists()
