"""Backups through ``manage.py backup`` and ``restore``. A backup taken while another device saves
hands (a database that takes concurrent writers only): no save is refused for it, it restores into
an empty database, it holds every hand whose bets it holds, and the books add up. Backups edited by
hand (a bet's amounts changed or moved to another guest, every bet taken out, an administrator
slipped in, a name with an invisible character, an existing login's password replaced or a
switched-off login switched on, a session and a content type added; truncated, not JSON, not UTF-8,
XML with an entity bomb, YAML, a gzip bomb, and more): each is refused in one line (a
``CommandError``, never another exception) and the database is left as it was — by the checks of
the books when the operator vouches for the file (``--unsigned``), by its seal otherwise. The
backup as written restores, every count and balance as before, and again over it is refused.
Restoring replaces the whole database: these groups run after all the others, the edited backups
last.
"""

from __future__ import annotations

import gzip
import io
import json
import shutil
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.db import connection
from django.http import HttpResponse, HttpResponseBase
from django.urls import reverse

from games.models import Hand
from ledger.management.backup_seal import seal_of
from ledger.models import Bet
from ledger.money import services as money_services
from ledger.money.amounts import money_sum
from ledger.money.results import guest_balances
from tests.adversary.ground import Case, Night, ledger_problems, race, user_client, zipfile_bytes

# --- a backup under load, and restores -------------------------------------------------------

BACKED_UP_APPS = ("games", "ledger", "tournaments")


def fingerprint() -> tuple[object, ...]:
    """What a refused restore leaves as it was, and a good one brings back: every backed-up
    table's count of rows, the logins and who of them is staff, the bets' net and every
    guest's balance."""
    counts = tuple(
        (model._meta.label, model._default_manager.count())
        for label in BACKED_UP_APPS
        for model in apps.get_app_config(label).get_models()
    )
    logins = tuple(User.objects.order_by("username").values_list("username", "is_staff",
                                                                 "is_superuser"))  # fmt: skip
    net = Bet.objects.aggregate(net=money_sum("net"))["net"]
    return counts, logins, Group.objects.count(), net, tuple(sorted(guest_balances().items()))


def empty_database() -> None:
    """Every table emptied, as ``restore`` wants its database (``flush``; inside a test's
    transaction on PostgreSQL, once the deferred foreign keys are checked: TRUNCATE refuses
    to run with their checks pending)."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)


def _restored(path: Path, *options: str) -> str:
    """Restore ``path``: "restored"; "refused: " and the refusal (a ``CommandError``); or
    "crashed: " and any other exception that escaped the command (a traceback)."""
    try:
        call_command("restore", str(path), *options, stdout=io.StringIO())
    except CommandError as error:
        return f"refused: {error}"
    except Exception as error:
        return f"crashed: {type(error).__name__} escaped restore: {error}"[:200]
    return "restored"


def backup_cases(tag: str, count: int) -> Iterator[Case]:
    """A backup taken while another device saves hands (a database that takes concurrent
    writers only): it restores, the books add up, and it holds every hand whose bets it holds.
    Restoring replaces the whole database: this group runs after the others but ``restore``."""

    def under_load(n: int) -> str:
        # A folder of its own, removed when the case ends (one left to the garbage collector
        # warns, in whichever test is running then).
        folder = tempfile.TemporaryDirectory(prefix="shoebook-adversary-")
        try:
            return backed_up_under_load(n, Path(folder.name) / f"busy-{n}.json.gz")
        finally:
            folder.cleanup()

    def backed_up_under_load(n: int, path: Path) -> str:
        night = Night(f"{tag}b{n}")
        saver, url = user_client(night.host), reverse("ledger:hand_record", args=[night.shoe.pk])

        def save_hands() -> HttpResponseBase:
            answer: HttpResponseBase = HttpResponse()
            for k in range(12):
                data = night.hand_data(result="tie", **{f"stake_{k % 7 + 1}_tie": "10"})
                answer = saver.post(url, data)
                if answer.status_code >= 400:
                    break
            return answer

        def back_up() -> HttpResponseBase:
            call_command("backup", "--output", str(path), stdout=io.StringIO())
            return HttpResponse("backed up")

        for answer in race(save_hands, back_up):
            if isinstance(answer, str) or answer.status_code >= 500:
                return f"crashed: {answer if isinstance(answer, str) else answer.status_code}"
            if answer.status_code >= 400:
                return f"wrong: a hand saved during the backup was refused ({answer.status_code})"
        held = Counter(row["model"] for row in json.loads(gzip.decompress(path.read_bytes())))
        empty_database()
        outcome = _restored(path, "--with-users")
        if outcome != "restored":
            return f"wrong: the backup was not restored: {outcome}"
        if (Hand.objects.count(), Bet.objects.count()) != (held["games.hand"], held["ledger.bet"]):
            return (
                f"wrong: restored {Hand.objects.count()} hands, the file held {held['games.hand']}"
            )
        return ledger_problems() or "accepted"

    for n in range(count):
        yield Case("backups", "a backup while hands are saved, restored", partial(under_load, n))


class Restores:
    """The restore group's ground, made when its first case runs (after every other group):
    a night of its own with hands and a settlement, the whole database backed up (``clean``),
    its fingerprint, then every table emptied, as a restore wants it."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.folder = tempfile.TemporaryDirectory(prefix="shoebook-adversary-")
        self.ready = False

    def prepare(self) -> None:
        if self.ready:
            return
        night = Night(f"{self.tag}r")
        for stake in ("10", "25", "100"):
            night.save(player_cards="9 7", banker_cards="J J 10", stake_1_banker=stake,
                       stake_2_player=stake)  # fmt: skip
        money_services.settlement_record(
            guest=night.guests[0], event=night.event, amount=Decimal("12.50"), method="cash",
            by=night.host,
        )  # fmt: skip
        self.bets = set(Bet.objects.filter(event=night.event).values_list("pk", flat=True))
        self.clean = Path(self.folder.name) / "clean.json"
        call_command("backup", "--output", str(self.clean), stdout=io.StringIO())
        self.before = fingerprint()
        empty_database()
        self.empty = fingerprint()
        self.ready = True

    def rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = json.loads(self.clean.read_text())
        return rows

    def bet(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The night's first bet in the rows (a banker bet that won)."""
        return next(row for row in rows if row["model"] == "ledger.bet" and row["pk"] in self.bets)


def _raise_a_bet(rows: list[dict[str, Any]], ground: Restores) -> None:
    bet = ground.bet(rows)["fields"]  # gross and net both: each bet alone still adds up
    for column in ("gross", "net"):
        bet[column] = str(Decimal(bet[column]) + 1000)


def _net_off(rows: list[dict[str, Any]], ground: Restores) -> None:
    bet = ground.bet(rows)["fields"]
    bet["net"] = str(Decimal(bet["net"]) + 1)


def _three_decimals(rows: list[dict[str, Any]], ground: Restores) -> None:
    ground.bet(rows)["fields"]["stake"] = "10.005"


def _another_guest(rows: list[dict[str, Any]], ground: Restores) -> None:
    guests = [row["pk"] for row in rows if row["model"] == "ledger.guest"]
    bet = ground.bet(rows)["fields"]
    bet["guest"] = next(pk for pk in guests if pk != bet["guest"])


def _no_bets(rows: list[dict[str, Any]], ground: Restores) -> None:
    rows[:] = [row for row in rows if row["model"] != "ledger.bet"]


def _administrator(rows: list[dict[str, Any]], ground: Restores) -> None:
    rows.insert(0, {"model": "auth.user", "fields": {
        "username": f"mallory-{ground.tag}", "password": "!", "is_superuser": True,
        "is_staff": True, "is_active": True, "date_joined": "2026-11-20T00:00:00Z",
        "groups": [], "user_permissions": [], "first_name": "", "last_name": "",
        "email": ""}})  # fmt: skip


def _invisible_name(rows: list[dict[str, Any]], ground: Restores) -> None:
    guest = next(row for row in rows if row["model"] == "ledger.guest")["fields"]
    guest["name"] += "\u200b"
    guest["name_key"] += "\u200b"


def _renamed(rows: list[dict[str, Any]], ground: Restores) -> None:
    guest = next(row for row in rows if row["model"] == "ledger.guest")
    guest["fields"]["name"] += " Jr"
    guest["fields"]["name_key"] = guest["fields"]["name"].casefold()


def restore_cases(tag: str) -> Iterator[Case]:
    """Backups edited by hand, then restored (``manage.py restore``): each is refused in one
    line (a ``CommandError``, never another exception) and the database is left as it was;
    the backup as written restores, every count and balance as before, and the books add up.
    an edited file beside the backup's seal, or with none, is refused unless the operator
    vouches for it (``--unsigned``). Restoring replaces the whole database: this group runs
    last."""
    ground = Restores(tag)

    def tampered(
        change: Callable[[list[dict[str, Any]], Restores], None] | None,
        content: Callable[[Restores], bytes] | None = None,
        *,
        suffix: str = ".json",
        options: tuple[str, ...] = ("--with-users", "--unsigned"),
        sealed: bool = False,
    ) -> Callable[[], str]:
        """``--unsigned`` (the operator vouches for the file): what the checks of the books
        find; ``sealed``: the edited file beside the seal of the backup as written."""

        def run() -> str:
            ground.prepare()
            path = Path(ground.folder.name) / f"{uuid.uuid4().hex}{suffix}"
            if content is not None:
                path.write_bytes(content(ground))
            else:
                rows = ground.rows()
                change(rows, ground)  # type: ignore[misc]  # one of the two is given
                path.write_text(json.dumps(rows))
            if sealed:
                shutil.copy(seal_of(ground.clean), seal_of(path))
            outcome = _restored(path, *options)
            if outcome == "restored":
                empty_database()  # to go on with the next case
                return "wrong: restored"
            if fingerprint() != ground.empty:
                return f"wrong: the database changed ({outcome[:80]})"
            if "\n" in outcome:
                return f"wrong: the refusal is not one line: {outcome[:100]!r}"
            return outcome.split(":")[0] if outcome.startswith("refused") else outcome

        return run

    def clean() -> str:
        ground.prepare()
        outcome = _restored(ground.clean, "--with-users")
        if outcome != "restored":
            return f"wrong: the backup as written was not restored: {outcome[:150]}"
        if fingerprint() != ground.before:
            return "wrong: the restored database differs from the one backed up"
        return ledger_problems() or "accepted"

    def again() -> str:
        """The last case: the group's folder is removed after it."""
        try:
            before = fingerprint()
            outcome = _restored(ground.clean, "--with-users")
            if not outcome.startswith("refused") or fingerprint() != before:
                return f"wrong: over a database that was not empty, {outcome[:100]}"
            return "refused"
        finally:
            ground.folder.cleanup()

    def login_changed(change: str, *, with_users: bool = False) -> Callable[[], str]:
        """A login already in the database (``restore`` checks only that no night and no
        guest is), and a file that names it: its password replaced (``password``) or, switched
        off, switched on again (``active``). Without ``--with-users`` it is refused naming the
        login and what would change, the login as it was; with it, restored and listed."""

        def run() -> str:
            ground.prepare()
            name = f"owner-{ground.tag}-{change}"
            login = User.objects.create_user(name, password="Own-harbour-2026",
                                             is_active=change != "active")  # fmt: skip
            row = {"model": "auth.user", "fields": {
                "username": name, "is_active": True, "is_superuser": False, "is_staff": False,
                "date_joined": login.date_joined.isoformat(), "last_login": None, "groups": [],
                "user_permissions": [], "first_name": "", "last_name": "", "email": "",
                "password": make_password("mallory") if change == "password" else login.password,
            }}  # fmt: skip
            path = Path(ground.folder.name) / f"{uuid.uuid4().hex}.json"
            path.write_text(json.dumps([row]))
            said = io.StringIO()
            try:
                call_command("restore", str(path), "--unsigned",
                             *(["--with-users"] if with_users else []), stdout=said)  # fmt: skip
                outcome = "restored"
            except CommandError as error:
                outcome = f"refused: {error}"
            now = User.objects.get(pk=login.pk)
            kept = now.check_password("Own-harbour-2026") and now.is_active == login.is_active
            what = "password" if change == "password" else "active: no → yes"
            empty_database()
            if with_users:
                if (
                    outcome != "restored"
                    or f"Logins changed: {name} ({what})" not in said.getvalue()
                ):
                    return f"wrong: the change was not listed: {outcome} {said.getvalue()[:120]}"
                return "accepted"
            if outcome == "restored" or not kept:
                return f"wrong: an existing login was changed ({what}): {said.getvalue()[:100]}"
            if f"{name} ({what})" not in outcome:
                return f"wrong: the refusal does not say what would change: {outcome[:150]}"
            return "refused"

        return run

    def foreign_rows() -> str:
        """The backup with a session and a content type added: refused, naming both."""
        ground.prepare()
        rows = ground.rows()
        rows.append(
            {
                "model": "sessions.session",
                "pk": "k" * 32,
                "fields": {"session_data": "x", "expire_date": "2030-01-01T00:00:00Z"},
            }
        )
        rows.append({"model": "contenttypes.contenttype",
                     "fields": {"app_label": "x", "model": "y"}})  # fmt: skip
        path = Path(ground.folder.name) / f"{uuid.uuid4().hex}.json"
        path.write_text(json.dumps(rows))
        outcome = _restored(path, "--with-users", "--unsigned")
        if outcome == "restored":
            empty_database()
            return "wrong: restored with a session and a content type"
        if fingerprint() != ground.empty:
            return f"wrong: the database changed ({outcome[:80]})"
        if "'contenttypes.contenttype', 'sessions.session'" not in outcome:
            return f"wrong: the refusal does not name the rows: {outcome[:150]}"
        return outcome.split(":")[0]

    def half(data: bytes) -> bytes:
        return data[: len(data) // 2]

    def text(data: str | bytes, suffix: str = ".json") -> Callable[[], str]:
        data = data.encode() if isinstance(data, str) else data
        return tampered(None, lambda ground: data, suffix=suffix)

    for label, case in [
        ("a bet's gross and net both raised by 1,000", tampered(_raise_a_bet)),
        ("a bet's net not its gross less commission", tampered(_net_off)),
        ("a stake of 10.005", tampered(_three_decimals)),
        ("a bet moved to another guest", tampered(_another_guest)),
        ("every bet taken out", tampered(_no_bets)),
        ("a guest's name with a zero-width space", tampered(_invisible_name)),
        ("an administrator added, no --with-users",
         tampered(_administrator, options=("--unsigned",))),
        ("a bet raised, beside the backup's own seal",
         tampered(_raise_a_bet, options=("--with-users",), sealed=True)),
        ("a guest renamed, with no seal", tampered(_renamed, options=("--with-users",))),
        ("truncated", tampered(None, lambda ground: half(ground.clean.read_bytes()))),
        ("gzip, truncated", tampered(None, lambda ground: half(gzip.compress(
            ground.clean.read_bytes())), suffix=".json.gz")),
        ("not JSON", text("this is not json")),
        ("JSON null", text("null")),
        ("JSON, not a backup", text('{"model": "auth.user"}')),
        ("not UTF-8", text('[{"model": "Zoë"}]'.encode("latin-1"))),
        ("a zip named .json.gz", text(zipfile_bytes(), ".json.gz")),
        ("an id past 64 bits", text(json.dumps([{"model": "ledger.guest", "pk": 10**22,
                                                  "fields": {"name": "A", "name_key": "a"}}]))),
        ("XML that is not XML", text("not xml", ".xml")),
        ("XML with an entity bomb", text(XML_BOMB, ".xml")),
        ("YAML", text("- model: auth.user", ".yaml")),
        ("an existing login's password replaced, no --with-users", login_changed("password")),
        ("a login switched off switched on again, no --with-users", login_changed("active")),
        ("an existing login's password replaced, --with-users: listed",
         login_changed("password", with_users=True)),
        ("a session and a content type added", foreign_rows),
        ("a 420 kB gzip that unpacks to 400 MB", text(gzip_bomb(400), ".json.gz")),
        ("the backup as written", clean),
        ("the backup again, over it", again),
    ]:  # fmt: skip
        yield Case("restore", label, case)


def gzip_bomb(megabytes: int) -> bytes:
    """A small gzip of JSON that unpacks to ``megabytes``: a list, then spaces (one member of a
    megabyte of spaces, repeated)."""
    spaces = gzip.compress(b" " * (1 << 20), mtime=0)
    return gzip.compress(b"[", mtime=0) + spaces * megabytes + gzip.compress(b"]", mtime=0)


XML_BOMB = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
    '<django-objects version="1.0">&lol2;</django-objects>'
)
