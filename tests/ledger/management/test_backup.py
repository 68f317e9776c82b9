from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import tracemalloc
import zlib
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Event, Hand
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import ledger_problems
from ledger.management.commands.backup import one_snapshot
from ledger.models import Bet, Charge, Guest, GuestEventResult, HandRevision, Settlement, StackRow
from ledger.money import services as money_services
from ledger.money.results import event_shoe_rows, guest_balances
from shoebook.base.roles import is_host
from tests.conftest import entry
from tournaments.models import Entrant, Round, TableSeat, Tournament, TournamentTable

TOURNAMENT_MODELS = (Tournament, Entrant, Round, TournamentTable, TableSeat, StackRow, Charge)

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


# Flush and restore as on a real database, outside a test transaction (PostgreSQL's TRUNCATE needs
# that).
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_an_empty_database_with_every_balance_identical(tmp_path, host):
    call_command("load_demo", stdout=StringIO())
    event = Event.objects.get()
    guest = event.guests.first()
    demo_host = type(host).objects.get(username="host")
    money_services.settlement_record(
        guest=guest, event=event, amount=Decimal("-12.50"), method="cash", by=demo_host
    )
    hand = Hand.objects.filter(bets__isnull=False).first()
    hand_services.hand_correct(
        hand=hand, entry=entry(result=hand.outcome().winner), reason="backup test", by=demo_host
    )
    before = {
        "balances": guest_balances(),
        "shoes": [row.figures for row in event_shoe_rows(event)[0]],
        "counts": (Bet.objects.count(), Settlement.objects.count(), HandRevision.objects.count(),
                   GuestEventResult.objects.count()),
    }  # fmt: skip
    backup = tmp_path / "shoebook.json.gz"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    assert backup.stat().st_size > 10_000

    call_command("flush", interactive=False, verbosity=0)
    assert not Event.objects.exists()
    out = StringIO()
    call_command("restore", str(backup), "--with-users", stdout=out)
    assert "Restored 1 event(s) and 15 guest(s)." in out.getvalue()
    restored = Event.objects.get()
    assert guest_balances() == before["balances"]
    assert [row.figures for row in event_shoe_rows(restored)[0]] == before["shoes"]
    assert (
        Bet.objects.count(),
        Settlement.objects.count(),
        HandRevision.objects.count(),
        GuestEventResult.objects.count(),
    ) == before["counts"]
    assert is_host(type(host).objects.get(username="host"))
    # The restored database keeps working: the next hand gets a fresh id.
    guest_services.guest_link_issue(guest=restored.guests.first())


def test_restore_refuses_a_database_that_is_not_empty(tmp_path, event):
    backup = tmp_path / "b.json"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    with pytest.raises(CommandError, match="not empty"):
        call_command("restore", str(backup))
    with pytest.raises(CommandError, match="No backup"):
        call_command("restore", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match=r"\.json"):
        call_command("backup", "--output", str(tmp_path / "b.txt"))


@pytest.mark.django_db(transaction=True)
def test_restore_refuses_a_backup_with_names_the_rule_refuses(tmp_path):
    backup = tmp_path / "crafted.json"
    backup.write_text(
        json.dumps(
            [
                {
                    "model": "ledger.guest",
                    "pk": 1,
                    "fields": {
                        "name": "Ken\u0001",
                        "name_key": "ken\u0001",
                        "created_at": "2026-11-20T00:00:00Z",
                        "access_token": "",
                        "user": None,
                    },
                },
            ]
        )
    )
    with pytest.raises(CommandError, match="break the name rule"):
        call_command("restore", str(backup), "--with-users", "--unsigned", stdout=StringIO())
    assert not Guest.objects.exists()


SQLITE_SIDE = """
import json, sys
import django
django.setup()
from django.core.management import call_command
from ledger.money.results import guest_balances
action, path = sys.argv[1], sys.argv[2]
call_command("migrate", verbosity=0)
if action == "backup":
    call_command("load_demo", verbosity=0)
    call_command("backup", "--output", path, verbosity=0)
else:
    call_command("restore", path, "--with-users", verbosity=0)
print(json.dumps({str(guest): str(balance) for guest, balance in guest_balances().items()}))
"""


def on_a_sqlite_file(tmp_path, action: str, backup) -> dict[int, Decimal]:
    """Run the other side of a restore on a fresh SQLite file, in its own process."""
    tmp_path.mkdir()
    env = os.environ | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'other.sqlite3'}",
        "DJANGO_SETTINGS_MODULE": "shoebook.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", SQLITE_SIDE, action, str(backup)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    balances = json.loads(done.stdout.strip().splitlines()[-1])  # after what the commands print
    return {int(guest): Decimal(balance) for guest, balance in balances.items()}


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.django_db(transaction=True)
def test_a_sqlite_backup_restores_into_this_database_and_back(tmp_path):
    """Under `make test-postgres` these are the two crossings, SQLite → PostgreSQL and
    PostgreSQL → SQLite; under `make test`, SQLite to SQLite."""
    backup = tmp_path / "from-sqlite.json.gz"
    written = on_a_sqlite_file(tmp_path / "a", "backup", backup)
    call_command("restore", str(backup), "--with-users", stdout=StringIO())
    assert guest_balances() == written and len(written) == 15
    demo_host = User.objects.get(username="host")
    money_services.settlement_record(
        guest=Guest.objects.get(name="田中"),
        event=Event.objects.get(),
        amount=Decimal("-12.50"),
        method="cash",
        by=demo_host,
    )
    again = tmp_path / f"from-{connection.vendor}.json.gz"
    call_command("backup", "--output", str(again), stdout=StringIO())
    assert on_a_sqlite_file(tmp_path / "b", "restore", again) == guest_balances()


@pytest.mark.django_db(transaction=True)
def test_a_backup_keeps_the_tournaments(tmp_path):
    call_command("load_demo", stdout=StringIO())
    call_command("load_demo_tournament", stdout=StringIO())
    counts = {model: model.objects.count() for model in TOURNAMENT_MODELS}
    balances = guest_balances()
    backup = tmp_path / "shoebook.json.gz"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), "--with-users", stdout=StringIO())
    assert {model: model.objects.count() for model in TOURNAMENT_MODELS} == counts
    assert all(counts.values())
    assert guest_balances() == balances
    assert ledger_problems() == []


def tampered(tmp_path, change) -> Path:
    """The demo night backed up, ``change`` applied to its rows, written back; the database left
    empty, as a restore wants it."""
    call_command("load_demo", stdout=StringIO())
    backup = tmp_path / "b.json"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    rows = json.loads(backup.read_text())
    change(rows)
    backup.write_text(json.dumps(rows))
    call_command("flush", interactive=False, verbosity=0)
    return backup


# The demo's dealer and host, and the administrator a tampered file adds.
POWERS_SAID = "dealer (Dealers), host (superuser, staff, Hosts), mallory (superuser, staff)"


def raise_a_bet(rows) -> None:
    # Consistent on its own (net = gross − commission): only the books as a whole can tell.
    bet = next(row for row in rows if row["model"] == "ledger.bet" and row["fields"]["stake"])
    for column in ("gross", "net"):
        bet["fields"][column] = str(Decimal(bet["fields"][column]) + 1000)


def add_an_administrator(rows) -> None:
    rows.insert(0, {"model": "auth.user", "fields": {
        "username": "mallory", "password": "!", "is_superuser": True, "is_staff": True,
        "is_active": True, "date_joined": "2026-11-20T00:00:00Z", "groups": [],
        "user_permissions": [], "first_name": "", "last_name": "", "email": "",
    }})  # fmt: skip


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("change", "users", "said"),
    [
        (raise_a_bet, ["--with-users"], "The file's books do not add up"),
        (add_an_administrator, [], POWERS_SAID),
        (lambda rows: rows.append({"model": "ledger.bet", "pk": 1, "fields": {}}),
         ["--with-users"], "not one this site can load"),
    ],
)  # fmt: skip
def test_a_tampered_backup_is_refused_in_one_line_and_nothing_is_kept(
    tmp_path, change, users, said
):
    backup = tampered(tmp_path, change)
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(backup), "--unsigned", *users, stdout=StringIO())
    assert said in str(refused.value)
    assert "\n" not in str(refused.value) and "Traceback" not in str(refused.value)
    assert not Event.objects.exists() and not Bet.objects.exists()
    assert not User.objects.filter(username__in=["host", "mallory"]).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("b.json", b"this is not json"),
        ("b.json", b"null"),  # JSON, but not a list of rows
        ("b.json.gz", gzip.compress(b'[{"model": "ledger.guest"}]', mtime=0)[:30]),  # cut short
        ("b.json", b'[{"model": "ledger.guest", "pk": 99999999999999999999, "fields": {}}]'),
        ("b.xml", b"<not xml"),
    ],
)
def test_a_file_that_is_not_a_backup_is_one_line(tmp_path, name, content):
    junk = tmp_path / name
    junk.write_bytes(content)
    with pytest.raises(CommandError, match=r"not one this site can load .*Nothing") as refused:
        call_command("restore", str(junk), "--unsigned", stdout=StringIO())
    assert "\n" not in str(refused.value)
    assert not Guest.objects.exists()


SNAPSHOT_SIDE = """
import json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.ledger.management.test_backup import counts_in_a_snapshot
print(json.dumps(counts_in_a_snapshot()))
"""


def counts_around_a_write(tmp_path) -> list[int]:
    """Guests counted inside one snapshot before and after another connection adds one, then
    after it: in a process of its own on a SQLite file (WAL, as deployed), or here on
    PostgreSQL, where each thread has its own connection."""
    if connection.vendor == "sqlite":
        env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'snapshot.sqlite3'}"}
        done = subprocess.run([sys.executable, "-c", SNAPSHOT_SIDE], env=env, cwd=ROOT,
                              capture_output=True, text=True, check=True)  # fmt: skip
        return json.loads(done.stdout.strip().splitlines()[-1])

    return counts_in_a_snapshot()


def counts_in_a_snapshot() -> list[int]:
    """Guests counted inside one snapshot, before and after another connection adds one, and
    after the snapshot."""

    def another_device():
        guest_services.guest_create(name="Later")
        connection.close()

    seen = []
    with one_snapshot():
        seen.append(Guest.objects.count())
        writer = threading.Thread(target=another_device)
        writer.start()
        writer.join()
        seen.append(Guest.objects.count())
    seen.append(Guest.objects.count())
    return seen


@pytest.mark.django_db(transaction=True)
def test_a_backup_reads_every_table_as_of_one_moment_while_another_device_writes(tmp_path):
    # Read as each statement comes (the old backup), a bet saved mid-dump pointed at a hand the
    # file did not hold, and the backup could never be restored.
    assert counts_around_a_write(tmp_path) == [0, 0, 1]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("change", "users", "said"),
    [
        (lambda rows: None, ["--with-users"], None),  # the site's own rows load
        (raise_a_bet, ["--with-users"], "The file's books do not add up"),
        (
            add_an_administrator,
            [],
            POWERS_SAID,
        ),
    ],
)
def test_loaddata_is_checked_as_a_restore_is(tmp_path, change, users, said):
    # Django's own loaddata would have written the raised bet and the administrator unchecked.
    fixture = tampered(tmp_path, change)
    Group.objects.filter(user__isnull=True).delete()  # the fixture brings the roles
    if said is None:
        out = StringIO()
        call_command("loaddata", str(fixture), *users, stdout=out)
        assert Event.objects.exists() and ledger_problems() == []
        assert out.getvalue().startswith("Installed ")
        return
    out = StringIO()
    with pytest.raises(CommandError) as refused:
        call_command("loaddata", str(fixture), *users, stdout=out)
    assert said in str(refused.value) and "\n" not in str(refused.value)
    assert out.getvalue() == ""  # no "Installed …" before the refusal
    assert not Event.objects.exists() and not Bet.objects.exists()
    assert not User.objects.filter(username__in=["host", "mallory"]).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"is_superuser": True, "is_staff": True}, "dealer (superuser, staff)"),
        ({"groups": [["Hosts"]]}, "dealer (Hosts)"),
    ],
)
def test_loaddata_gives_no_existing_login_more_powers_without_with_users(tmp_path, fields, said):
    # A file that names an existing login by its natural key overwrites that login's row.
    dealer = User.objects.create_user("dealer", password="Quiet-harbour-2026")
    Group.objects.get_or_create(name="Hosts")
    fixture = tmp_path / "promote.json"
    fixture.write_text(json.dumps([{"model": "auth.user", "fields": {
        "username": "dealer", "password": dealer.password, "is_active": True,
        "date_joined": "2026-11-20T00:00:00Z", "groups": [], "user_permissions": [],
        "first_name": "", "last_name": "", "email": "", "is_superuser": False, "is_staff": False,
    } | fields}]))  # fmt: skip
    with pytest.raises(CommandError) as refused:
        call_command("loaddata", str(fixture), verbosity=0)
    assert said in str(refused.value)
    dealer.refresh_from_db()
    assert not dealer.is_superuser and not dealer.groups.exists()


@pytest.mark.django_db(transaction=True)
def test_a_backup_changed_since_it_was_written_is_refused_by_its_seal(tmp_path):
    # A guest renamed in the file: nothing in the books can tell, but the seal, keyed by the
    # site's SECRET_KEY, can.
    call_command("load_demo", stdout=StringIO())
    backup = tmp_path / "b.json"
    out = StringIO()
    call_command("backup", "--output", str(backup), stdout=out)
    assert "sealed in b.json.sig" in out.getvalue()
    rows = json.loads(backup.read_text())
    guest = next(row for row in rows if row["model"] == "ledger.guest")
    guest["fields"]["name"] += " Jr"
    guest["fields"]["name_key"] = guest["fields"]["name"].casefold()
    backup.write_text(json.dumps(rows))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(backup), "--with-users", stdout=StringIO())
    assert str(refused.value).startswith("The backup does not match its seal")
    (tmp_path / "b.json.sig").unlink()
    with pytest.raises(CommandError, match="The backup has no seal"):
        call_command("restore", str(backup), "--with-users", stdout=StringIO())
    assert not Event.objects.exists()
    call_command("restore", str(backup), "--with-users", "--unsigned", stdout=StringIO())
    assert Event.objects.exists() and ledger_problems() == []  # vouched for: the books hold


JOINED = "2026-11-20T00:00:00Z"


def login_row(username: str, password: str, *, roles=(), **fields) -> dict:
    return {"model": "auth.user", "fields": {
        "username": username, "password": password, "is_superuser": False, "is_staff": False,
        "is_active": True, "date_joined": JOINED, "last_login": None,
        "groups": [[role] for role in roles], "user_permissions": [], "first_name": "",
        "last_name": "", "email": ""} | fields}  # fmt: skip


@pytest.fixture
def logins_here(db):
    """A host (superuser) and a dealer whose login was switched off, already in the database."""
    host = User.objects.create_superuser("host", password="Own-harbour-2026")
    host.groups.add(Group.objects.get_or_create(name="Hosts")[0])
    dealer = User.objects.create_user("dealer", password="Quiet-harbour-2026", is_active=False)
    dealer.groups.add(Group.objects.get_or_create(name="Dealers")[0])
    User.objects.update(date_joined=JOINED)
    return host, dealer


def crafted(tmp_path, rows) -> Path:
    path = tmp_path / "crafted.json"
    path.write_text(json.dumps(rows))
    return path


def takeover(host: User) -> list[dict]:
    """The file the attack wrote: the host's password replaced, the dealer switched on again,
    and a new login beside them."""
    return [
        login_row("host", make_password("mallory"), roles=["Hosts"], is_superuser=True,
                  is_staff=True),
        login_row("dealer", User.objects.get(username="dealer").password, roles=["Dealers"]),
        login_row("newbie", "!"),
    ]  # fmt: skip


def test_restore_never_changes_an_existing_login_without_with_users(tmp_path, logins_here):
    host, _dealer = logins_here
    before = list(User.objects.order_by("pk").values())
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(crafted(tmp_path, takeover(host))), "--unsigned",
                     stdout=StringIO())  # fmt: skip
    assert str(refused.value) == (
        "The file would change logins already here: dealer (active: no → yes), host (password)."
        " Nothing was loaded (with --with-users, if the file is your own backup)."
    )
    assert list(User.objects.order_by("pk").values()) == before  # newbie not made either
    assert User.objects.get(username="host").check_password("Own-harbour-2026")


def test_restore_lists_every_login_it_makes_and_changes(tmp_path, logins_here):
    host, _dealer = logins_here
    out = StringIO()
    call_command("restore", str(crafted(tmp_path, takeover(host))), "--unsigned", "--with-users",
                 stdout=out)  # fmt: skip
    assert out.getvalue().strip() == (
        "Restored 0 event(s) and 0 guest(s). Logins made: newbie."
        " Logins changed: dealer (active: no → yes), host (password)."
    )
    assert User.objects.get(username="dealer").is_active


def test_a_login_renamed_by_its_id_is_a_change_too(tmp_path, logins_here):
    host, _dealer = logins_here
    row = login_row("host2", host.password, roles=["Hosts"], is_superuser=True, is_staff=True)
    with pytest.raises(CommandError, match=r"host \(name: host → host2\)"):
        call_command("restore", str(crafted(tmp_path, [row | {"pk": host.pk}])), "--unsigned",
                     stdout=StringIO())  # fmt: skip
    assert User.objects.filter(username="host").exists()


@pytest.mark.parametrize(
    "foreign",
    [
        {"model": "sessions.session", "pk": "k" * 32,
         "fields": {"session_data": "x", "expire_date": "2030-01-01T00:00:00Z"}},
        {"model": "contenttypes.contenttype", "fields": {"app_label": "x", "model": "y"}},
        {"model": "auth.permission", "fields": {"name": "x", "content_type": ["auth", "user"],
                                                "codename": "x"}},
        {"model": "axes.accessattempt", "fields": {}},
    ],
)  # fmt: skip
def test_restore_loads_only_the_projects_own_rows_naming_any_other(tmp_path, logins_here, foreign):
    rows = [login_row("newbie", "!"), foreign]
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(crafted(tmp_path, rows)), "--unsigned", "--with-users",
                     stdout=StringIO())  # fmt: skip
    assert str(refused.value) == (
        f"The file holds rows a backup does not: {foreign['model']!r} (a backup holds the games,"
        " ledger and tournaments rows, logins and roles). Nothing was loaded."
    )
    assert not User.objects.filter(username="newbie").exists()


def gzip_bomb(path: Path, megabytes: int) -> Path:
    """A small gzip of ``megabytes`` of JSON (a list, then spaces)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: a gzip header and trailer
    with path.open("wb") as file:
        file.write(packer.compress(b"["))
        for _megabyte in range(megabytes):
            file.write(packer.compress(b" " * (1 << 20)))
        file.write(packer.compress(b"]") + packer.flush())
    return path


def test_a_gzip_bomb_is_refused_past_the_bound_without_being_held(tmp_path, settings):
    settings.RESTORE_MAX_MEGABYTES = 8
    bomb = gzip_bomb(tmp_path / "bomb.json.gz", 40)
    assert bomb.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(CommandError) as refused:
            call_command("restore", str(bomb), "--unsigned", stdout=StringIO())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(refused.value) == (
        "The backup is more than 8 MB once uncompressed: refused before reading further."
        " Nothing was loaded (restore --max-megabytes N, if the file is your own backup)."
    )
    assert peak < 8 << 20  # chunks of a megabyte: never the 40 MB, nor the bound's 8
    # Under the bound it is read, and refused for what it is: no rows.
    small = gzip_bomb(tmp_path / "small.json.gz", 2)
    with pytest.raises(CommandError, match=r"not one this site can load \(it holds no rows\)"):
        call_command("restore", str(small), "--unsigned", "--max-megabytes", "3")
    assert not User.objects.exists() and not Event.objects.exists()
