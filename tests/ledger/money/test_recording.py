"""The one record() of a money row: recorded once by its key (the same key again answers the row
it made, the same key with other content is refused), the kind's checks refusing before
anything is written, one audit entry; and the family of money rows, recorded through it alone,
with their tables as they were."""

from __future__ import annotations

import ast
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from ledger.models import (
    Adjustment,
    AuditEntry,
    ChipMove,
    Guest,
    MoneyRow,
    Settlement,
    Transfer,
)
from ledger.money.recording import (
    MSG_KEY_USED_FOR,
    Recording,
    content_digest,
    record,
)

ROOT = Path(__file__).resolve().parents[3]
D = Decimal

MSG_REFUSED = "Not tonight."


def settlement_words(row: Settlement) -> str:
    return f"{row.amount} for {row.guest.name}"


def snapshot(row: Settlement) -> dict[str, object]:
    return {"id": row.pk, "amount": f"{row.amount:.2f}", "note": row.note}


def refuse_negative(row: Settlement) -> None:
    if row.amount < 0:
        raise ValidationError({"amount": MSG_REFUSED})


def refuse_everything(row: Settlement) -> None:
    raise ValidationError({"amount": MSG_REFUSED})


# A kind of its own, so that these tests read record() and not one service's words.
PAID = Recording(
    model=Settlement,
    content=lambda row: (row.guest_id, row.event_id, row.amount, row.method, row.note),
    words=settlement_words,
    snapshot=snapshot,
    summary=lambda row: f"paid by {row.guest.name}",
    action=AuditEntry.Action.SETTLEMENT,
    check=refuse_negative,
)


@pytest.fixture
def aki(guests) -> Guest:
    return guests[0]


def paid(event, guest, amount, note=""):
    return Settlement(guest=guest, event=event, amount=D(amount), method="cash", note=note)


def written() -> tuple[int, int]:
    return Settlement.objects.count(), AuditEntry.objects.filter(action="settlement").count()


@pytest.mark.django_db
def test_the_same_key_twice_records_one_row_and_answers_it_again(event, aki, host):
    key = uuid.uuid4()
    first = record(PAID, paid(event, aki, 40), by=host, idempotency_key=key)
    again = record(PAID, paid(event, aki, 40), by=host, idempotency_key=key)
    assert first.new and not again.new
    assert again.row.pk == first.row.pk
    assert written() == (1, 1)
    stored = Settlement.objects.get()
    assert stored.idempotency_key == key
    assert stored.content_digest == content_digest(aki.pk, event.pk, D(40), "cash", "")
    assert stored.recorded_by == host


@pytest.mark.django_db
def test_the_same_key_with_other_content_is_refused_saying_what_it_recorded(event, aki, host):
    key = uuid.uuid4()
    record(PAID, paid(event, aki, 40), by=host, idempotency_key=key)
    for other in (paid(event, aki, 41), paid(event, aki, 40, note="tip")):
        with pytest.raises(ValidationError) as refused:
            record(PAID, other, by=host, idempotency_key=key)
        assert refused.value.messages == [MSG_KEY_USED_FOR.format(what="40.00 for Aki")]
    assert written() == (1, 1)


@pytest.mark.django_db
def test_rows_without_a_key_are_each_recorded(event, aki, host):
    record(PAID, paid(event, aki, 40), by=host)
    record(PAID, paid(event, aki, 40), by=host)
    assert written() == (2, 2)
    assert set(Settlement.objects.values_list("content_digest", flat=True)) == {""}


@pytest.mark.django_db
def test_recording_writes_one_audit_entry_with_the_kind_s_snapshot(event, aki, host):
    row = record(PAID, paid(event, aki, 40, note="cash at the bar"), by=host).row
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.event_id, entry.by, entry.summary) == (
        AuditEntry.Action.SETTLEMENT,
        event.pk,
        host,
        "paid by Aki",
    )
    assert entry.after == {"id": row.pk, "amount": "40.00", "note": "cash at the bar"}
    assert entry.before is None


@pytest.mark.django_db
def test_the_kind_s_check_refusing_writes_nothing_and_leaves_the_key_free(event, aki, host):
    key = uuid.uuid4()
    with pytest.raises(ValidationError) as refused:
        record(PAID, paid(event, aki, -40), by=host, idempotency_key=key)
    assert refused.value.message_dict == {"amount": [MSG_REFUSED]}
    assert written() == (0, 0)
    assert record(PAID, paid(event, aki, 5), by=host, idempotency_key=key).new


@pytest.mark.django_db
def test_a_key_already_recorded_is_answered_before_the_checks(event, aki, host):
    # A resend after the first was recorded answers it, even if the night no longer allows it.
    key = uuid.uuid4()
    first = record(PAID, paid(event, aki, 40), by=host, idempotency_key=key)
    closed = PAID.also(refuse_everything)
    again = record(closed, paid(event, aki, 40), by=host, idempotency_key=key)
    assert again.row.pk == first.row.pk and not again.new


@pytest.mark.django_db
def test_a_write_s_own_check_runs_after_the_kind_s(event, aki, host):
    seen = []
    kind = PAID.also(lambda row: seen.append(row.amount))
    with pytest.raises(ValidationError):
        record(kind, paid(event, aki, -3), by=host)
    assert seen == []  # the kind refused first
    record(kind, paid(event, aki, 3), by=host)
    assert seen == [D(3)]


# --- the family ------------------------------------------------------------------------------

FIVE = {
    "recorded_by": "ForeignKey",
    "recorded_at": "DateTimeField",
    "voids": "OneToOneField",
    "idempotency_key": "UUIDField",
    "content_digest": "CharField",
}


def money_rows() -> list[type[MoneyRow]]:
    return [model for model in apps.get_models() if issubclass(model, MoneyRow)]


def test_the_four_kinds_are_money_rows_with_the_five_fields_of_the_family():
    assert {Settlement, Transfer, ChipMove, Adjustment} <= set(money_rows())
    for model in money_rows():
        fields = {name: model._meta.get_field(name) for name in FIVE}
        assert {name: type(f).__name__ for name, f in fields.items()} == FIVE
        assert fields["voids"].related_model is model  # "self": a row voids its own kind
        assert fields["idempotency_key"].unique


@pytest.mark.django_db
def test_no_table_changes_the_constraints_keep_their_names_and_no_migration_is_missing():
    state = MigrationLoader(connection).project_state()
    for model in money_rows():
        migrated = state.models["ledger", model._meta.model_name].options["constraints"]
        assert sorted(c.name for c in model._meta.constraints) == sorted(c.name for c in migrated)
    call_command("makemigrations", "ledger", "--check", "--dry-run", verbosity=0)


# Modules that write money rows without record(), and why.
WRITERS = {
    "ledger/money/recording.py": "record() itself",
    "ledger/money/reversal.py": "the one reversal",
    "ledger/workbook/imports/night_workbook.py": "a checked workbook written whole, one audit",
    "ledger/workbook/count_imports.py": "a checked count sheet written whole, one audit",
}
CREATES = {"create", "bulk_create", "get_or_create", "update_or_create"}


def writes_of_money_rows(tree: ast.Module, kinds: set[str]) -> list[int]:
    """The lines where a money row is written other than by record(): ``Kind.objects.create``
    and its like, ``Kind(...).save()``, or ``.save()`` of a name given a ``Kind(...)``."""
    found = []
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for function in functions or [tree]:
        built = {
            target.id
            for node in ast.walk(function)
            if isinstance(node, ast.Assign | ast.AnnAssign)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name)
            and node.value.func.id in kinds
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)
        }
        for call in ast.walk(function):
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
                continue
            owner = call.func.value
            if call.func.attr in CREATES and isinstance(owner, ast.Attribute):
                if isinstance(owner.value, ast.Name) and owner.value.id in kinds:
                    found.append(call.lineno)
            elif call.func.attr == "save":
                made_here = isinstance(owner, ast.Call) and getattr(owner.func, "id", "") in kinds
                if made_here or (isinstance(owner, ast.Name) and owner.id in built):
                    found.append(call.lineno)
    return sorted(set(found))


def test_every_money_row_is_recorded_through_record_alone():
    kinds = {model.__name__ for model in money_rows()}
    bypassing = []
    for package in ("games", "ledger", "tournaments", "shoebook"):
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or where in WRITERS:
                continue
            lines = writes_of_money_rows(ast.parse(path.read_text()), kinds)
            bypassing += [f"{where}:{line}" for line in lines]
    assert bypassing == [], "write money rows with ledger.money.recording.record"
    for where in WRITERS:
        assert (ROOT / where).exists(), where  # no excuse outlives its module


@pytest.mark.parametrize(
    "source",
    [
        "def f(event):\n    Settlement.objects.create(event=event)",
        "def f(rows):\n    ChipMove.objects.bulk_create(rows)",
        "def f(event):\n    row = Adjustment(event=event)\n    row.full_clean()\n    row.save()",
        "def f(event):\n    Transfer(event=event).save()",
        "def f(event):\n    row: Settlement = Settlement(event=event)\n    row.save()",
    ],
)
def test_the_check_finds_a_money_row_written_around_record(source):
    kinds = {"Settlement", "Transfer", "ChipMove", "Adjustment"}
    assert writes_of_money_rows(ast.parse(source), kinds) != []
    assert writes_of_money_rows(ast.parse(source.replace("def f", "def g")), set()) == []
