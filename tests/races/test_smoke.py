"""The race matrix at a smoke size, in a fresh interpreter against a real database: on
PostgreSQL under ``make test-postgres`` (a database of its own on that server), on a SQLite file
under ``make test``. Each move alone is acknowledged and written once (the registry's moves
work), then the sample of pairs in ``tests/races/__main__.py`` (``SMOKE``) is raced once each:
no 5xx, no deadlock left after the retry, every acknowledged write there exactly once and every
refused one absent, ``check_ledger`` clean. The whole matrix is ``python -m tests.races``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.own_process import database_for, run_script
from tests.races.__main__ import SMOKE
from tests.races.moves import MOVES

ROOT = Path(__file__).resolve().parent.parent.parent


# One test, so that the suite's workers run the races once (a module's fixture would run in each
# worker that got one of its tests). Marked django_db only so that the PostgreSQL run, which
# leaves out the tests that touch no database, runs it: its races are on a database of their own
# on the server the run was given.
@pytest.mark.django_db
@pytest.mark.long
def test_each_write_alone_and_each_pair_of_the_sample_at_once_lose_nothing(tmp_path):
    database = database_for(tmp_path, "races.sqlite3")
    done = run_script(
        "tests.races", "--solo", "--smoke", "--runs", "1", "--json", database=database, timeout=600
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert lines, done.stderr[-3000:]
    # Each move alone: acknowledged, and written once.
    alone = [line for line in lines if "solo" in line]
    assert {line["solo"] for line in alone} == {move.name for move in MOVES}
    assert [line for line in alone if not line["clean"]] == []
    # Each pair of the sample at once: no 5xx, no deadlock left, nothing lost or doubled, the
    # books clean.
    pairs = {f"{line['a']}/{line['b']}": line for line in lines if "a" in line}
    assert set(pairs) == set(SMOKE)
    failed = {
        pair: tally["notes"]
        for pair, tally in pairs.items()
        if (tally["errors"], tally["deadlocks"], tally["wrong"], tally["ledger"]) != (0, 0, 0, 0)
    }
    assert failed == {}
    assert lines[-1]["ledger"] == []  # and the whole database's books, after
