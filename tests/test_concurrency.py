"""Devices racing each other, with real threads on a real database: SQLite (a file, as in
production) under `make test`, PostgreSQL under `make test-postgres`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.own_process import database_for, report_of, run_script

ROOT = Path(__file__).resolve().parent.parent


def test_racing_devices_lose_nothing_and_duplicate_nothing(tmp_path):
    database = database_for(tmp_path, "race.sqlite3")
    report = report_of(run_script("tests.concurrent_night", database=database, timeout=300))
    errors = [
        str(r)
        for key in ("same_hand", "different_seats", "correction_vs_new_hand")
        for r in report[key]
        if isinstance(r, str)
    ]
    assert not any("locked" in error for error in errors), errors

    # The same hand from two devices: one is saved, the other is told who got there first.
    assert sorted(map(str, report["same_hand"]))[0] == "1"
    loser = next(r for r in report["same_hand"] if isinstance(r, str))
    assert loser.startswith("HandTaken: Hand 1 was already recorded by")
    # Different seats for hand 2: one saved, the other refused clearly and saved as hand 3.
    assert sum(r == 2 for r in report["different_seats"]) == 1
    assert report["retried"] == [3]
    # A correction racing a new hand: both go through.
    assert sorted(map(str, report["correction_vs_new_hand"])) == ["2", "4"]
    assert report["hands"] == [1, 2, 3, 4]
    assert report["bets"] == 4  # hand 1 (corrected), 2, 3, 4: nothing lost, nothing doubled
    assert report["guests_net"] == report["kept_net"]
    assert report["vendor"] in ("sqlite", "postgresql")


@pytest.mark.long
def test_hands_settlements_seats_and_merges_at_once_answer_without_an_error(tmp_path):
    """Four devices write at one night with no pause (tests/mixed_load.py): a minute on
    PostgreSQL, ten seconds on a SQLite file; ``MIXED_LOAD_SECONDS`` sets another length."""
    database = database_for(tmp_path, "mixed.sqlite3")
    on_postgres = database.startswith("postgres")
    seconds = os.environ.get("MIXED_LOAD_SECONDS", "60" if on_postgres else "10")
    result = run_script(
        "tests.mixed_load", "--seconds", seconds, database=database, timeout=float(seconds) + 240
    )
    report = report_of(result)
    assert report["failure_count"] == 0, (report["failures"], report["errors"])
    assert report["errors"] == {}
    assert report["ledger_problems"] == []
    # Every device got writes through, and the races were met: some writes were refused.
    answers = report["answers"]
    assert all(answers[device].get("302", 0) > 0 for device in ("cashier", "floor", "host"))
    assert report["hands_saved"] == report["hands"] > 0
    assert sum(count for device in answers.values() for status, count in device.items()
               if status != "302") > 0  # fmt: skip
