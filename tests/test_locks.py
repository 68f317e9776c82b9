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
def test_a_seat_holds_its_night_its_shoe_then_its_guest_and_a_merge_locks_the_guest_it_deletes(
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
        locked = [sql.split(" FROM ")[1].split()[0] for sql in seat_locks]
        assert locked == ['"games_event"', '"games_shoe"', '"ledger_guest"']
        assert seat_locks[2].endswith("FOR KEY SHARE")
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


# --- one lock order, read from the services (docs/developers.md, "Locks in one order") --------

TOURNAMENT, ROUND, NIGHT, SHOE, GUESTS, ROW = range(6)
ORDER_NAMES = ("tournament", "round", "night", "shoe", "guests", "the row changed")
# The helpers that take a lock, by name (games/locks.py, ledger/locks.py).
LOCK_HELPERS = {
    # A series stands above its nights as a tournament does: its next night is made under it.
    "lock_series": TOURNAMENT,
    "lock_night": NIGHT,
    "lock_nights": NIGHT,
    "lock_night_of_shoe": NIGHT,
    "lock_open_night": NIGHT,
    "hold_guests": GUESTS,
    "lock_guest": GUESTS,
    "lock_for_merge": GUESTS,
}
# A raw row lock, by the model locked (any other model: the one row being changed).
LOCKED_MODELS = {"Tournament": TOURNAMENT, "Series": TOURNAMENT, "Round": ROUND, "Event": NIGHT,
                 "Shoe": SHOE, "Guest": GUESTS}  # fmt: skip
WRITES = {"save", "create", "bulk_create", "get_or_create", "update_or_create"}
QUERYSET_WRITES = {"update", "delete"}
# The modules whose atomic functions are the write services.
SERVICE_FILES = ("services.py", "transfers.py")
# Services that write no night's rows (or write them with no night lock, on purpose), and why.
NOT_A_NIGHT_S_WRITE = {
    "event_create": "a new night: nobody else can see it until it commits",
    "tournament_create": "a new tournament and its night, seen by nobody until it commits",
    "guest_create": "a new guest, no night's",
    "guest_rename": "the guest's own row, locked",
    "guest_alias_add": "the guest's aliases, the guest locked",
    "guest_alias_remove": "the guest's aliases, the guest locked",
    "guest_invitation_issue": "the guest's invitations, the guest locked",
    "guest_invitation_revoke": "the guest's invitations, the guest locked",
    "guest_invitation_accept": "a login and the guest's own row, the guest locked",
    "guest_credit_limit_set": "the guest's own row, locked",
    "guest_link_issue": "the guest's own row, locked",
    "guest_link_revoke": "the guest's own row, locked",
    "staff_invitation_issue": "a new invitation, no night's (the people lock held)",
    "staff_invitation_withdraw": "an invitation's own row, locked (the people lock held)",
    "staff_invitation_accept": "a login and an invitation's own row, locked (the people lock)",
    "role_change": "a login's groups, its row locked (the people lock held)",
    "access_revoke": "a login's own row and its sessions, locked (the people lock held)",
    "guest_merge": (
        "moves rows from one guest to another, both locked FOR UPDATE: every write of a night"
        " holds its guests after its night, so a merge, taking no night, never waits on one"
    ),
    "results_rebuild": "every night's totals, rebuilt by an operator's command",
    "way_add": "a new way to pay, no night's",
    "way_edit": "a way to pay's own row, locked",
    "way_retire": "a way to pay's own row, locked",
    "way_move": "two ways to pay's own rows, locked",
    "pay_handle_save": "a guest's handles, the guest locked",
    "secret_bet_mark": "a tournament seat's own row, locked",
    "secret_bet_clear": "a tournament seat's own row, locked",
}


class Source:
    """Python modules by path (relative to the repository), parsed once; a test feeds its own."""

    def __init__(self, files: dict[str, str]) -> None:
        self.trees = {path: ast.parse(text) for path, text in files.items()}
        self.functions = {
            (path, node.name): node
            for path, tree in self.trees.items()
            for node in tree.body
            if isinstance(node, ast.FunctionDef)
        }
        self.imports = {path: _imports(tree) for path, tree in self.trees.items()}
        self._steps: dict[tuple[str, str], list[tuple[str, int, str]]] = {}

    @classmethod
    def of_repository(cls) -> Source:
        files = {
            str(path.relative_to(ROOT)): path.read_text()
            for package in ("games", "ledger", "tournaments")
            for path in sorted((ROOT / package).rglob("*.py"))
            if "migrations" not in path.parts
        }
        return cls(files)

    def resolve(self, path: str, call: ast.Call) -> tuple[str, str] | None:
        """The function of these modules that ``call`` calls, if it is one."""
        func = call.func
        if isinstance(func, ast.Name):
            if (path, func.id) in self.functions:
                return path, func.id
            imported = self.imports[path].get(func.id)
            return imported if imported in self.functions else None
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            module = self.imports[path].get(func.value.id)
            if module is not None and (module[0], func.attr) in self.functions:
                return module[0], func.attr
        return None

    def steps(self, path: str, name: str) -> list[tuple[str, int, str]]:
        """What the function does, in source order, through the functions it calls: ("lock",
        rank, what) and ("write", 0, what)."""
        key = (path, name)
        if key in self._steps:
            return self._steps[key]
        self._steps[key] = []  # a recursion reads as nothing
        found: list[tuple[str, int, str]] = []
        calls = [n for n in ast.walk(self.functions[key]) if isinstance(n, ast.Call)]
        for call in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            attr = call.func.attr if isinstance(call.func, ast.Attribute) else None
            called = call.func.id if isinstance(call.func, ast.Name) else attr
            where = f"{path}:{call.lineno}"
            if called in LOCK_HELPERS:
                found.append(("lock", LOCK_HELPERS[called], f"{called} ({where})"))
            elif attr == "select_for_update":
                model = _root_name(call.func)
                found.append(("lock", LOCKED_MODELS.get(model, ROW), f"{model} ({where})"))
            elif attr in WRITES or (
                attr in QUERYSET_WRITES and "objects" in ast.unparse(call.func)
            ):
                found.append(("write", 0, f"{ast.unparse(call.func)[:60]} ({where})"))
            elif (target := self.resolve(path, call)) is not None:
                found.extend(self.steps(*target))
        self._steps[key] = found
        return found

    def services(self) -> list[tuple[str, str]]:
        """Every atomic function of a services module."""
        return [
            (path, name)
            for (path, name), node in self.functions.items()
            if path.endswith(SERVICE_FILES) and any(
                ast.unparse(decorator) == "transaction.atomic" for decorator in node.decorator_list
            )
        ]  # fmt: skip


def _imports(tree: ast.Module) -> dict[str, tuple[str, str]]:
    """Names bound by ``from x import y [as z]``: z → (the module's path, y) for a function, or
    (the path of module x.y, "") when y is a module."""
    bound = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            base = node.module.replace(".", "/")
            for alias in node.names:
                local = alias.asname or alias.name
                if (ROOT / base / f"{alias.name}.py").exists():
                    bound[local] = (f"{base}/{alias.name}.py", "")
                else:
                    module = (
                        f"{base}.py" if (ROOT / f"{base}.py").exists() else f"{base}/__init__.py"
                    )
                    bound[local] = (module, alias.name)
    return bound


def _root_name(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ast.unparse(node)


def lock_order_problems(source: Source) -> list[str]:
    """Each service that writes before it holds its night (a tournament, a round or the night
    itself) or takes a lock out of the one order: a lock of a kind earlier in the order than
    one it holds, unless it holds that kind already (the same night again, a round's next
    table)."""
    problems = []
    for path, name in source.services():
        steps = source.steps(path, name)
        writes = [i for i, (kind, _rank, _what) in enumerate(steps) if kind == "write"]
        night = [i for i, (kind, rank, _w) in enumerate(steps) if kind == "lock" and rank <= NIGHT]
        if writes and name not in NOT_A_NIGHT_S_WRITE and (not night or night[0] > writes[0]):
            problems.append(
                f"{name} ({path}) writes before it locks its night: {steps[writes[0]][2]}"
            )
        held: set[int] = set()
        for kind, rank, what in steps:
            if kind != "lock":
                continue
            if held and rank < max(held) and rank not in held:
                after = ORDER_NAMES[max(held)]
                problems.append(f"{name} ({path}) locks {ORDER_NAMES[rank]} after {after}: {what}")
            held.add(rank)
    return problems


def test_every_service_locks_its_night_before_it_writes_and_every_lock_in_the_one_order():
    source = Source.of_repository()
    services = {name for _path, name in source.services()}
    assert {"record_hand", "count_setup_save", "chips_record", "adjustment_void", "round_close",
            "rebuy", "event_close", "transfer_record", "settlement_record"} <= services  # fmt: skip
    assert set(NOT_A_NIGHT_S_WRITE) <= services  # no excuse outlives its service
    assert lock_order_problems(source) == []


def test_the_order_is_the_one_the_developer_s_guide_writes():
    guide = " ".join((ROOT / "docs/developers.md").read_text().split())
    assert "tournament → round → the night (several: in id order) → shoe → guests" in guide


FAKE_SERVICES = """
from django.db import transaction
from games.locks import lock_night
from ledger.locks import lock_guest


def _helper(event):
    lock_night(event)


@transaction.atomic
def {name}(*, event, guest):
{body}
"""


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("    lock_night(event)\n    lock_guest(guest)\n    Adjustment.objects.create(event=event)",
         None),
        ("    _helper(event)\n    Adjustment(event=event).save()", None),
        ("    Adjustment.objects.create(event=event)\n    lock_night(event)",
         "writes before it locks its night: Adjustment.objects.create"),
        ("    lock_guest(guest)\n    Adjustment.objects.filter(event=event).delete()",
         "writes before it locks its night"),
        ("    lock_guest(guest)\n    lock_night(event)\n    guest.save()",
         "locks night after guests: lock_night"),
        ("    lock_night(event)\n    Shoe.objects.select_for_update(of=('self',)).get()\n"
         "    Event.objects.select_for_update(of=('self',)).get(pk=2)",
         None),  # the night again, held already
        ("    Shoe.objects.select_for_update(of=('self',)).get()\n    _helper(event)",
         "locks night after shoe: lock_night"),
        ("    Round.objects.select_for_update().get()\n"
         "    Tournament.objects.select_for_update().get()\n    Charge.objects.create()",
         "locks tournament after round: Tournament"),
    ],
)  # fmt: skip
def test_the_order_check_finds_a_service_out_of_order(body, problem):
    fake = FAKE_SERVICES.format(name="adjustment_fake", body=body)
    problems = lock_order_problems(Source({"ledger/fake/services.py": fake}))
    if problem is None:
        assert problems == []
    else:
        assert len(problems) == 1 and problem in problems[0], problems
