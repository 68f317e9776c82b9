"""When the server itself fails — its disk full, its database restarted — the answer is a 503
that says so and that nothing was saved (a page, the table's htmx part, or JSON), and the log's
first line names the cause: never a 500 whose page blames nobody, nor a log that blames the
session store for a lost database connection."""

from __future__ import annotations

import errno
import logging
import uuid
from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import InterfaceError, OperationalError, close_old_connections, connection
from django.test import Client
from django.urls import reverse

from ledger.models import ChipMove
from shoebook.outages import MSG_DATABASE_RESTARTED, MSG_DISK_FULL, outage_of

pytestmark = pytest.mark.django_db

DISK_FULL = [
    OSError(errno.ENOSPC, "No space left on device"),
    OperationalError("database or disk is full"),  # SQLite
    OperationalError('could not extend file "base/16384/16385": No space left on device'),
    OperationalError('could not write to file "pg_wal/xlogtemp.123": No space left on device'),
]
CONNECTION_LOST = [
    OperationalError("server closed the connection unexpectedly"),
    OperationalError("terminating connection due to administrator command"),
    OperationalError("consuming input failed: server closed the connection unexpectedly"),
    OperationalError("the database system is shutting down"),
    OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused'),
    InterfaceError("connection already closed"),
]


def staff_client(host) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(host)
    return client


def count_post(client, event, guest, **headers):
    data = {"kind": "count", "guest": guest.pk, "total": "100", "idempotency_key": uuid.uuid4()}
    return client.post(reverse("ledger:chips_add", args=[event.pk]), data, **headers)


@pytest.mark.parametrize("error", DISK_FULL + CONNECTION_LOST, ids=str)
def test_each_outage_is_told_from_other_errors(error):
    expected = "disk" if error in DISK_FULL else "connection"
    assert outage_of(error) == expected
    wrapped = RuntimeError("while saving")
    wrapped.__cause__ = error
    assert outage_of(wrapped) == expected  # found where it was raised from


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("no such table: ledger_guest"),
        OSError(errno.EACCES, "Permission denied"),
        ValueError("a bug"),
    ],
    ids=str,
)
def test_other_errors_are_no_outage(error):
    assert outage_of(error) is None


@pytest.mark.parametrize("error", DISK_FULL, ids=str)
def test_a_full_disk_is_a_503_that_says_so_and_that_nothing_was_saved(
    host, event, guests, caplog, error
):
    client = staff_client(host)
    with mock.patch("ledger.count.services.chips_record", side_effect=error):
        answer = count_post(client, event, guests[0])
    assert answer.status_code == 503 and answer["Retry-After"]
    page = answer.content.decode()
    assert str(MSG_DISK_FULL) in page and "<html" in page
    assert not ChipMove.objects.exists()
    first = next(r for r in caplog.records if r.levelno >= logging.ERROR)
    assert "out of disk space" in first.getMessage() and "/count/" in first.getMessage()
    assert sum(r.levelno >= logging.ERROR for r in caplog.records) == 1  # said once


def test_a_full_disk_answers_the_table_s_script_and_json_in_their_own_form(host, event, guests):
    client = staff_client(host)
    error = OperationalError("database or disk is full")
    with mock.patch("ledger.count.services.chips_record", side_effect=error):
        part = count_post(client, event, guests[0], HTTP_HX_REQUEST="true")
        data = count_post(client, event, guests[0], HTTP_ACCEPT="application/json")
    assert part.status_code == 503 and part["Content-Type"].startswith("text/plain")
    assert part.content.decode() == str(MSG_DISK_FULL)
    assert data.status_code == 503 and data.json() == {"error": str(MSG_DISK_FULL)}


@pytest.mark.parametrize("error", CONNECTION_LOST, ids=str)
def test_a_lost_database_connection_in_the_session_store_is_a_503_that_names_the_database(
    host, caplog, error
):
    client = staff_client(host)
    with mock.patch.object(SessionStore, "load", side_effect=error):
        answer = client.get(reverse("ledger:event_list"))
    assert answer.status_code == 503
    assert str(MSG_DATABASE_RESTARTED) in answer.content.decode()
    first = next(r for r in caplog.records if r.levelno >= logging.ERROR)
    said = first.getMessage()
    assert said.startswith("The database connection was lost") and "session" not in said
    assert "/events/" in said


def test_a_lost_connection_in_a_view_is_a_503_too_and_the_site_comes_back(host, event, guests):
    client = staff_client(host)
    error = OperationalError("server closed the connection unexpectedly")
    with mock.patch("ledger.count.services.chips_record", side_effect=error):
        answer = count_post(client, event, guests[0], HTTP_HX_REQUEST="true")
    assert answer.status_code == 503 and answer.content.decode() == str(MSG_DATABASE_RESTARTED)
    assert client.get(reverse("ledger:event_list")).status_code == 200


def test_another_error_is_still_the_500_page(host):
    client = staff_client(host)
    with mock.patch("ledger.nights.views.events_for_list", side_effect=ValueError("a bug")):
        answer = client.get(reverse("ledger:event_list"))
    assert answer.status_code == 500
    assert "Something went wrong on our side" in answer.content.decode()


@pytest.mark.slow
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL server's restart")
@pytest.mark.django_db(transaction=True)
def test_a_postgresql_backend_killed_under_a_request_is_a_503_then_the_site_comes_back(host):
    """The server ends this process's connection, as a restart does (pg_terminate_backend from
    another connection): the next request finds it gone."""
    import psycopg

    client = staff_client(host)
    assert client.get(reverse("ledger:event_list")).status_code == 200
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    settings = connection.settings_dict
    other = psycopg.connect(
        host=settings["HOST"], port=settings["PORT"], user=settings["USER"],
        dbname=settings["NAME"], autocommit=True,
    )  # fmt: skip
    with other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    answer = client.get(reverse("ledger:event_list"))
    assert answer.status_code == 503
    assert str(MSG_DATABASE_RESTARTED) in answer.content.decode()
    # What Django does at the end of every request (the test client leaves it out, to keep a
    # test's transaction): a connection that failed is closed, the next request opens another.
    close_old_connections()
    assert client.get(reverse("ledger:event_list")).status_code == 200
