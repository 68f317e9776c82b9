from __future__ import annotations

import copy
import importlib
import inspect
import os
import re
import uuid
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, transaction
from django.test import override_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from games import services as game_services
from games.cards import parse_cards
from games.entry import MSG_ON_SEAT, BetEntry, HandEntry
from games.models import Event
from games.payouts import BetType, RuleSet
from games.rules import Hand
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from shoebook.base import live
from shoebook.base.roles import DEALERS, HOSTS

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# --- what the second database runs ------------------------------------------------------------
# `make test` runs the whole suite on SQLite; `make test-postgres` runs it again on PostgreSQL,
# but only where PostgreSQL can change the answer (pyproject.toml's markers): not a test that
# touches no database, nor one marked `one_database`; and its property tests draw fewer
# examples (the profile below).

# A test that asks for one of these, or is marked django_db, uses the test database
# (django_db_blocker is not one: pytest-django's own autouse fixtures ask for it in every test).
DATABASE_FIXTURES = frozenset({
    "db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback",
    "live_server", "django_db_setup",
})  # fmt: skip
# A test that hands DATABASE_URL from its environment to a process of its own uses the database
# the run was given, without any of those fixtures (or it is marked `database`).
READS_DATABASE_URL = re.compile(
    r"""environ\b[^\n]*["']DATABASE_URL["']|getenv\(\s*["']DATABASE_URL|\bdatabase_for\("""
)


def uses_a_database(item: pytest.Item) -> bool:
    if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    if item.get_closest_marker("django_db") or item.get_closest_marker("database"):
        return True
    function = getattr(item, "function", None)
    try:
        source = inspect.getsource(function) if function is not None else ""
    except (OSError, TypeError):
        source = ""
    return bool(READS_DATABASE_URL.search(source))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if not uses_a_database(item):
            item.add_marker(pytest.mark.no_database)
    # The tests marked `long` run first: pytest-xdist's `load` hands each worker a run of
    # consecutive tests from the front of this order, then the rest as the workers free up, so
    # a minute-long test started last would leave the other worker idle for that minute.
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


# The second database's property tests: the same strategies, fewer examples. A test that names
# its own max_examples takes ``examples(n)``: n, or on the second database at most this many.
SECOND_DATABASE = "second-database"
SECOND_DATABASE_EXAMPLES = 5
hypothesis_settings.register_profile(SECOND_DATABASE, max_examples=SECOND_DATABASE_EXAMPLES)
if os.environ.get("HYPOTHESIS_PROFILE"):
    hypothesis_settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


def examples(n: int) -> int:
    """A property test's max_examples: ``n``, fewer under the second database's profile."""
    if hypothesis_settings.get_current_profile_name() == SECOND_DATABASE:
        return min(n, SECOND_DATABASE_EXAMPLES)
    return n


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Hashing with the production algorithm would spend most of the suite's time on logins.
    settings.PASSWORD_HASHERS = FAST_HASHERS
    # Login throttling (django-axes) has its own tests; elsewhere the test client logs in
    # without a request, which axes refuses.
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def live_listener_stopped():
    # A stream opened on PostgreSQL starts this process's LISTEN connection (shoebook.base.live):
    # closed after the test, or the test database could not be dropped at the end.
    yield
    live.hub.stop_listener()


@pytest.fixture(autouse=True)
def default_language():
    # A request in Japanese leaves the thread's language set; each test starts in the default.
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture
def hand_from():
    """Build a validated hand from two strings of cards: ``hand_from("9 7", "J J 10")``."""

    def build(player: str, banker: str) -> Hand:
        return Hand.from_cards(parse_cards(player), parse_cards(banker))

    return build


def seed_pay_ways() -> None:
    """The list of ways to pay its data migration makes, again where missing: a transactional
    test empties the tables after it, the migration's rows too."""
    from django.apps import apps

    importlib.import_module("ledger.migrations.0025_pay_ways_seeded").seed(apps, None)


def make_user(username: str, role: str | None) -> User:
    user = User.objects.create_user(username, password="pw-for-tests")
    if role:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


@pytest.fixture
def host(db) -> User:
    return make_user("hostess", HOSTS)


@pytest.fixture
def dealer(db) -> User:
    return make_user("dealer", DEALERS)


@pytest.fixture
def outsider(db) -> User:
    """Logged in, but neither host nor dealer."""
    return make_user("stranger", None)


@pytest.fixture
def make_event(host):
    def build(**overrides) -> object:
        fields = {
            "name": "Friday night",
            "date": date(2026, 11, 20),
            "rules": RuleSet(),
            "by": host,
            "table_min": Decimal(10),
            "table_max": Decimal(1000),
        }
        return game_services.event_create(**(fields | overrides))

    return build


@pytest.fixture
def event(make_event):
    return make_event()


GUEST_NAMES = ("Aki", "Ben", "Chie", "Daisuke", "Emi", "Fumio", "Goro", "Hana")


@pytest.fixture
def guests(event, host):
    return [guest_services.event_guest_add(event=event, name=name, by=host) for name in GUEST_NAMES]


@pytest.fixture
def shoe(event, host):
    return game_services.shoe_start(event=event, by=host)


@pytest.fixture
def seated(shoe, guests, host):
    """Seven guests in seats 1–7 (Hana, the eighth, waits)."""
    for seat, guest in zip(range(1, 8), guests, strict=False):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return dict(zip(range(1, 8), guests, strict=False))


def bet(seat: int, bet_type: str, stake: str | int) -> BetEntry:
    return BetEntry(seat=seat, bet=BetType(bet_type), stake=Decimal(str(stake)))


def entry(player="", banker="", bets=(), *, result=None, player_pair=None, banker_pair=None):
    """A hand as entered: ``entry("9 7", "J J 10", [bet(1, "player", 10)])``."""
    return HandEntry(
        player_cards=player,
        banker_cards=banker,
        result=result,
        player_pair=player_pair,
        banker_pair=banker_pair,
        bets=tuple(bets),
    )


def on_seat(seat: int, bet_label: str, template: str, /, **params) -> str:
    """A bet's problem as the table words it: ``Seat 1 · Player: …`` (the core's constants)."""
    return MSG_ON_SEAT.format(seat=seat, bet=bet_label, problem=template.format(**params))


@pytest.fixture
def record(host):
    """Record the next hand of a shoe: ``record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])``."""

    def do(shoe, player="", banker="", bets=(), *, by=None, key=None, **flags):
        return hand_services.record_hand(
            shoe=shoe,
            number=hand_services.next_hand_number(shoe),
            entry=entry(player, banker, bets, **flags),
            by=by or host,
            idempotency_key=key or uuid.uuid4(),
        ).hand

    return do


# --- the reference night, built once per test session ------------------------------------

DEMO_MODELS = (
    "auth.Group", "auth.User", "auth.User_groups", "games.Event", "games.Shoe", "games.Hand",
    "ledger.Guest", "ledger.EventGuest", "ledger.Seating", "ledger.Bet",
    "ledger.GuestEventResult", "ledger.HandRevision", "ledger.Settlement", "ledger.AuditEntry",
    "ledger.CountSetup", "ledger.ChipMove",
)  # fmt: skip


class _RollBack(Exception):
    pass


@pytest.fixture(scope="session")
def demo_rows(django_db_setup, django_db_blocker):
    """The demo night's rows, made once through the real services (``load_demo``) and rolled
    back; each test that asks for ``demo_night`` gets them inserted in its own transaction."""
    rows = {}
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        try:
            with transaction.atomic():
                call_command("load_demo", stdout=StringIO())
                for label in DEMO_MODELS:
                    model = apps.get_model(label)
                    rows[model] = list(model.objects.order_by("pk"))
                raise _RollBack
        except _RollBack:
            pass
    return rows


def _as_now(kept: dict[type, list], model: type, instances: list) -> list:
    """Copies of rows kept from earlier in the session, to insert now (``_in_order``: the groups
    first). A role's group is the one of that name now: a transactional test since (its flush,
    then the roles made again) may have made the groups under other ids, which a kept login's
    roles would point past."""
    rows = [copy.copy(row) for row in instances]
    if model is Group:
        missing = [row for row in rows if not Group.objects.filter(name=row.name).exists()]
        for row in missing:
            row.pk = None
        return missing
    if model is User.groups.through:
        now = dict(Group.objects.values_list("name", "pk"))
        names = {group.pk: group.name for group in kept.get(Group, [])}
        for row in rows:
            row.group_id = now.get(names.get(row.group_id, ""), row.group_id)
    return rows


def _in_order(kept: dict[type, list]) -> list[tuple[type, list]]:
    return sorted(kept.items(), key=lambda item: item[0] is not Group)


@pytest.fixture
def demo_night(db, demo_rows):
    """The reference night (6 shoes × 40 hands, 15 guests, host / shoebook-demo): its event."""
    for model, instances in _in_order(demo_rows):
        model.objects.bulk_create(_as_now(demo_rows, model, instances), ignore_conflicts=True)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(demo_rows)):
            cursor.execute(sql)
    return Event.objects.get()


# --- the demos' nights, built once per test session ----------------------------------------
# Loading the four demos through their services takes tens of seconds on PostgreSQL. A module
# whose tests only need them loaded declares ``rows = demo_snapshot("load_demo", ...)`` (a
# session fixture: the commands run once per session, per xdist worker, on the empty test
# database in a transaction that is rolled back, and every row they made is kept) and inserts
# them in each test with ``insert_as_made(rows)``: the same rows, pks and timestamps (auto_now
# fields are not stamped again) as if the commands had run in that test.


def _table_models() -> list[type]:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def demo_snapshot(*commands: str):
    @pytest.fixture(scope="session")
    def rows(django_db_setup, django_db_blocker) -> dict[type, list]:
        made: dict[type, list] = {}
        with django_db_blocker.unblock():
            try:
                with transaction.atomic():
                    before = {
                        model: set(model.objects.values_list("pk", flat=True))
                        for model in _table_models()
                    }
                    for command in commands:
                        call_command(command, stdout=StringIO())
                    for model, old in before.items():
                        new = [row for row in model.objects.order_by("pk") if row.pk not in old]
                        if new:
                            made[model] = new
                    made[Group] = list(Group.objects.order_by("pk"))  # the roles, by name
                    raise _RollBack
            except _RollBack:
                pass
        return made

    return rows


def insert_as_made(rows: dict[type, list]) -> None:
    for model, instances in _in_order(rows):
        stamped = [
            field
            for field in model._meta.concrete_fields
            if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
        ]
        saved = [(field, field.auto_now, field.auto_now_add) for field in stamped]
        for field in stamped:
            field.auto_now = field.auto_now_add = False
        try:
            model.objects.bulk_create(_as_now(rows, model, instances))
        finally:
            for field, now, now_add in saved:
                field.auto_now, field.auto_now_add = now, now_add
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(rows)):
            cursor.execute(sql)


# The four demos in the order `make run` loads them: the season that the figures' and the open
# data's tests read.
season_rows = demo_snapshot(
    "load_demo", "load_demo_chemin", "load_demo_count", "load_demo_tournament"
)
