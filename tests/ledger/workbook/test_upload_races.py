"""The same upload sent by three devices at once under one key (a retry while the first is still
writing): exactly one night, and every answer is that night; the same night from three pages,
each with its own key: one night, the others told it is in the ledger already. Real threads on a
SQLite file under `make test`, on PostgreSQL under `make test-postgres` (tests/upload_race.py)."""

from __future__ import annotations

from pathlib import Path

from tests.own_process import database_for, report_of, run_script

ROOT = Path(__file__).resolve().parents[3]


def test_one_upload_sent_three_times_at_once_makes_one_night(tmp_path):
    url = database_for(tmp_path, "uploads.sqlite3")
    result = run_script(
        "tests.upload_race", "3", database=url, timeout=300, ALLOWED_HOSTS="testserver"
    )
    report = report_of(result)
    assert report["vendor"] == ("postgresql" if url.startswith("postgres") else "sqlite")
    assert len(report["rounds"]) == 9
    for race in report["rounds"]:
        (night,) = race["nights"]  # exactly one night for the one upload
        statuses = sorted(status for status, _where in race["answers"])
        assert race["keys"] == 1
        assert (race["bets"], race["chips"]) == ((0, 4) if race["kind"] == "count" else (3, 0))
        if race["kind"] == "keys":  # three pages, three keys: one night, two told it is in
            assert statuses == [302, 400, 400], race
            continue
        assert statuses == [302, 302, 302], race
        assert {where for _status, where in race["answers"]} == {f"/events/{night}/"}, race
    assert report["ledger_problems"] == []
