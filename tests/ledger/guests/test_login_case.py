"""Logins are one whatever their case: "Mika" and "mika" are one login, refused by the form, by
the service and by the database itself (a unique index on the lower-cased name), so that two
invitations accepted at the same moment cannot both make one."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from ledger.guests import services as guest_services
from ledger.guests.services import MSG_LOGIN_TAKEN

PASSWORD = "Quiet-harbour-2026"


def accept_form(username: str) -> dict[str, str]:
    return {"username": username, "password1": PASSWORD, "password2": PASSWORD}


@pytest.mark.django_db
def test_the_database_refuses_a_login_differing_only_in_case():
    User.objects.create_user("Mika", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("mika", password=PASSWORD)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("MIKA", password=PASSWORD)
    assert list(User.objects.values_list("username", flat=True)) == ["Mika"]


@pytest.mark.django_db
def test_the_invitation_form_refuses_a_login_differing_only_in_case(client, event, host):
    User.objects.create_user("Mika", password=PASSWORD)
    guest = guest_services.event_guest_add(event=event, name="Mika Sato", by=host)
    token = guest_services.guest_invitation_issue(guest=guest, by=host)
    response = client.post(reverse("ledger:invitation_accept", args=[token]), accept_form("mika"))
    assert response.status_code == 400  # the form again, with why
    assert "already exists" in response.content.decode()
    assert User.objects.count() == 2  # the host and Mika


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("one", "other"), [("Mika", "mika"), ("mika", "rnika")], ids=["case", "look-alike"]
)
def test_two_invitations_accepted_at_once_with_names_differing_in_case_make_one_login(
    event, host, one, other
):
    for attempt in range(5):
        guests = [
            guest_services.event_guest_add(event=event, name=f"{name} {attempt}", by=host)
            for name in ("Sato", "Ito")
        ]
        tokens = [guest_services.guest_invitation_issue(guest=guest, by=host) for guest in guests]
        names = (f"{one}{attempt}", f"{other}{attempt}")
        answers = accept_at_once(tokens, names)
        assert User.objects.filter(username__in=names).count() == 1, answers
        refused = [answer for answer in answers if isinstance(answer, ValidationError)]
        assert len(refused) == 1, answers
        said = refused[0].message_dict["username"][0]
        assert said.startswith(str(MSG_LOGIN_TAKEN).split("{")[0]) or "reads like" in said


def accept_at_once(tokens: list[str], names: tuple[str, str]) -> list[object]:
    """Both invitations accepted in threads released at once: each one's login or refusal."""
    barrier = threading.Barrier(2)
    answers: list[object] = [None, None]

    def accept(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = guest_services.guest_invitation_accept(
                token=tokens[index], username=names[index], password=PASSWORD
            )
        except ValidationError as error:
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=accept, args=(index,)) for index in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.django_db
def test_the_migration_stops_naming_logins_already_differing_only_in_case():
    from importlib import import_module

    from django.apps import apps

    migration = import_module("ledger.migrations.0022_logins_one_whatever_the_case")
    User.objects.create_user("Ken", password=PASSWORD)
    with transaction.atomic():  # the index dropped for this test only (DDL rolls back)
        with connection.cursor() as cursor:
            cursor.execute(f"DROP INDEX {migration.INDEX}")
        User.objects.create_user("Mika", password=PASSWORD)
        User.objects.create_user("mika", password=PASSWORD)
        editor = SimpleNamespace(connection=connection)  # all the step reads of its editor
        with pytest.raises(RuntimeError, match="differ only in case: Mika / mika\\. Rename"):
            migration.refuse_duplicates(apps, editor)
        transaction.set_rollback(True)
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user("KEN", password=PASSWORD)  # the index is back
