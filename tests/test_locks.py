"""Row locks that cannot deadlock with the database's own foreign-key checks.

Inserting a bet or a settlement checks the guest, the event or the shoe it points at (on
PostgreSQL, FOR KEY SHARE on that row). A service that had locked such a row FOR UPDATE blocked
those checks: a hand saved while a settlement was recorded at the same night deadlocked (each
commit's check waiting on the other's lock). Every lock is FOR NO KEY UPDATE, on the row itself:
still one writer at a time per row, never in the way of a check.
"""

from __future__ import annotations

import ast
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.locks import MSG_GUEST_MERGED_AWAY
from ledger.money import services as money_services
from tests.conftest import bet

ROOT = Path(__file__).resolve().parent.parent


def lock_calls() -> list[tuple[str, int, ast.Call]]:
    calls = []
    for package in ("games", "ledger", "tournaments"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == (
                    "select_for_update"
                ):
                    calls.append((str(path.relative_to(ROOT)), node.lineno, node))
    return calls


# The one lock that takes a key: a merge deletes the guest it merges away, and locks it as its
# DELETE would (FOR UPDATE), first, so that writes pointing at the guest wait or are waited for.
DELETING_LOCKS = {"ledger/locks.py"}


def test_every_lock_is_on_its_own_row_and_leaves_keys_to_foreign_key_checks():
    wrong = []
    for where, line, call in lock_calls():
        options = {keyword.arg: ast.unparse(keyword.value) for keyword in call.keywords}
        deleting = where in DELETING_LOCKS and "no_key" not in options
        if (options.get("no_key") != "True" and not deleting) or options.get("of") != "('self',)":
            wrong.append(f"{where}:{line}")
    assert wrong == []
    assert sum(where in DELETING_LOCKS for where, _line, _call in lock_calls()) == 2
    assert len(lock_calls()) > 20  # the check reads the services, not an empty tree


@pytest.mark.django_db
def test_a_hand_and_a_settlement_take_no_lock_a_key_check_waits_on(seated, shoe, record, host):
    with CaptureQueriesContext(connection) as queries:
        record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
        money_services.settlement_record(
            guest=seated[1], event=shoe.event, amount=Decimal(100), method="cash", by=host
        )
    locks = [query["sql"] for query in queries if " FOR " in query["sql"]]
    shared = (" FOR NO KEY UPDATE", " FOR KEY SHARE")
    assert [sql for sql in locks if not any(mode in sql for mode in shared)] == []
    if connection.vendor == "postgresql":
        assert locks  # the services lock what they change


@pytest.mark.django_db
def test_a_merge_locks_its_two_guests_in_one_order_whichever_way_round(event, host):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    akii = guest_services.event_guest_add(event=event, name="Akii", by=host)
    with CaptureQueriesContext(connection) as queries:
        guest_services.guest_merge(guest=akii, other=aki, by=host)
    locks = [query["sql"] for query in queries if " FOR " in query["sql"]]
    merged = [sql for sql in locks if '"ledger_guest"' in sql.split(" FROM ")[1].split()[0]]
    if connection.vendor == "postgresql":
        assert merged and all('ORDER BY "ledger_guest"."id" ASC' in sql for sql in merged)
    assert not type(aki).objects.filter(pk=aki.pk).exists()


@pytest.mark.django_db
def test_a_seat_holds_its_guest_before_the_shoe_and_a_merge_locks_the_guest_it_deletes(
    shoe, event, host
):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    bo = guest_services.event_guest_add(event=event, name="Bo", by=host)
    with CaptureQueriesContext(connection) as seating:
        hand_services.seat_guest(shoe=shoe, seat=7, guest=aki, by=host)
    hand_services.seat_clear(shoe=shoe, seat=7, by=host)
    with CaptureQueriesContext(connection) as merging:
        guest_services.guest_merge(guest=bo, other=aki, by=host)
    if connection.vendor == "postgresql":
        seat_locks = [query["sql"] for query in seating if " FOR " in query["sql"]]
        assert seat_locks[0].endswith("FOR KEY SHARE") and '"ledger_guest"' in seat_locks[0]
        assert '"games_shoe"' in seat_locks[1]
        merge_locks = [query["sql"] for query in merging if " FOR " in query["sql"]]
        assert merge_locks[0].endswith(' FOR UPDATE OF "ledger_guest"')


WRITES_FOR_A_GUEST = {
    "settle": lambda guest, event, host: money_services.settlement_record(
        guest=guest, event=event, amount=Decimal(10), method="cash", by=host
    ),
    "rename": lambda guest, event, host: guest_services.guest_rename(
        guest=guest, name="Akira", by=host
    ),
    "credit limit": lambda guest, event, host: guest_services.guest_credit_limit_set(
        guest=guest, credit_limit=Decimal(100), by=host
    ),
    "new link": lambda guest, event, host: guest_services.guest_link_issue(guest=guest),
    "link revoked": lambda guest, event, host: guest_services.guest_link_revoke(guest=guest),
    "invitation revoked": lambda guest, event, host: guest_services.guest_invitation_revoke(
        guest=guest, by=host
    ),
    "alias removed": lambda guest, event, host: guest_services.guest_alias_remove(
        alias=guest.stale_alias, by=host
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("write", WRITES_FOR_A_GUEST)
def test_a_write_for_a_guest_merged_away_meanwhile_is_refused_in_words(write, event, host):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    bo = guest_services.event_guest_add(event=event, name="Bo", by=host)
    alias = guest_services.guest_alias_add(guest=aki, name="Akiko", by=host)
    stale = type(aki).objects.get(pk=aki.pk)  # the page was read before the merge
    stale.stale_alias = type(alias).objects.get(pk=alias.pk)
    guest_services.guest_merge(guest=bo, other=aki, by=host)
    with pytest.raises(ValidationError) as refusal:
        WRITES_FOR_A_GUEST[write](stale, event, host)
    assert " ".join(refusal.value.messages) == str(MSG_GUEST_MERGED_AWAY)


@pytest.mark.django_db
def test_accepting_an_invitation_locks_the_guest_before_the_invitation_as_a_revoke_does(
    event, host
):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    token = guest_services.guest_invitation_issue(guest=aki, by=host)
    with CaptureQueriesContext(connection) as accepting:
        user = guest_services.guest_invitation_accept(
            token=token, username="aki", password="a long pass phrase 42"
        )
    assert type(aki).objects.get(pk=aki.pk).user == user
    if connection.vendor == "postgresql":
        locked = [query["sql"].split(" FROM ")[1].split()[0] for query in accepting
                  if " FOR " in query["sql"]]  # fmt: skip
        assert locked[:2] == ['"ledger_guest"', '"ledger_guestinvitation"']


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url_name", "service"),
    [
        ("ledger:guest_link_issue", "guest_link_issue"),
        ("ledger:guest_link_revoke", "guest_link_revoke"),
        ("ledger:guest_invitation_revoke", "guest_invitation_revoke"),
        ("ledger:guest_alias_remove", "guest_alias_remove"),
    ],
)
def test_a_guest_page_s_write_that_loses_to_a_merge_says_so(
    client, event, host, monkeypatch, url_name, service
):
    aki = guest_services.event_guest_add(event=event, name="Aki", by=host)
    bo = guest_services.event_guest_add(event=event, name="Bo", by=host)
    alias = guest_services.guest_alias_add(guest=aki, name="Akiko", by=host)
    original = getattr(guest_services, service)

    def merged_first(**kwargs):  # another device's merge lands between the page and the write
        guest_services.guest_merge(guest=bo, other=aki, by=host)
        return original(**kwargs)

    monkeypatch.setattr(guest_services, service, merged_first)
    client.force_login(host)
    args = [aki.pk, alias.pk] if service == "guest_alias_remove" else [aki.pk]
    response = client.post(reverse(url_name, args=args), follow=True)
    assert response.status_code == 200
    assert str(MSG_GUEST_MERGED_AWAY) in response.content.decode()
