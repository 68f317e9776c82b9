"""Two hosts changing each other at the same moment: the people lock takes them one at a time,
and the second reads the first's change (it may no longer be a host), so that the site never
ends with no host."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import connection

from ledger.people import services
from shoebook.base.roles import HOSTS
from tests.conftest import make_user


def at_once(writes: list[Callable[[], object]]) -> list[object]:
    """Each write in a thread of its own, released together: what each answered or raised."""
    barrier = threading.Barrier(len(writes))
    answers: list[object] = [None] * len(writes)

    def run(index: int) -> None:
        try:
            barrier.wait()
            answers[index] = writes[index]()
        except ValidationError as error:
            answers[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(writes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["revoke", "demote"])
def test_two_hosts_removing_each_other_at_once_leave_one_host(write):
    for attempt in range(5):
        one, other = make_user(f"one{attempt}", HOSTS), make_user(f"other{attempt}", HOSTS)
        User.objects.exclude(pk__in=[one.pk, other.pk]).update(is_active=False)

        def change(user: User, by: User) -> Callable[[], object]:
            if write == "revoke":
                return lambda: services.access_revoke(user=user, by=by)
            return lambda: services.role_change(user=user, role="dealer", by=by)

        answers = at_once([change(other, one), change(one, other)])
        refused = [answer for answer in answers if isinstance(answer, ValidationError)]
        assert len(refused) == 1, answers
        assert refused[0].messages == [str(services.MSG_NOT_A_HOST)]
        hosts = User.objects.filter(is_active=True, groups__name=HOSTS)
        assert hosts.filter(pk__in=[one.pk, other.pk]).count() == 1
