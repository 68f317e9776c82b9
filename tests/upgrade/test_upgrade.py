"""An upgrade keeps the rules a night was played under: a database made by the release before the
bank's rotation changed (tests/upgrade/before_rotation.sqlite3, made by make_fixture.py: a Chemin
de fer night where a suite was lost and the bank went back to the seat that lost it), migrated to
this release, has clean books and every figure as that release recorded it; its backup restores."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def run(mode: str, database: Path, backup: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "tests.upgrade.run", mode, str(backup)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite:///{database}",
            "DJANGO_SETTINGS_MODULE": "shoebook.settings",
        },
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_night_of_the_earlier_release_keeps_its_rotation_figures_and_clean_books(tmp_path):
    made = json.loads((HERE / "before_rotation.json").read_text())
    database = tmp_path / "upgraded.sqlite3"
    shutil.copy(HERE / "before_rotation.sqlite3", database)
    backup = tmp_path / "after-upgrade.json.gz"

    upgraded = run("upgrade", database, backup)
    assert upgraded["rotations"] == {"Chemin de fer, a week ago": "original"}
    assert upgraded["problems"] == []
    assert upgraded["figures"] == made["figures"]
    # Read by today's rule, the same rows fail: the night's own rule is what clears them.
    assert any("cannot be settled again" in found for found in upgraded["problems_by_todays_rule"])

    restored = run("restore", tmp_path / "restored.sqlite3", backup)
    assert restored["problems"] == []
    assert restored["rotations"] == upgraded["rotations"]
    assert restored["figures"] == made["figures"]


def test_a_backup_the_earlier_release_wrote_restores_each_night_read_as_it_was_played(tmp_path):
    """Its nights do not say how their bank went round: each is read the way its coups settle
    as stored, and restore says so."""
    made = json.loads((HERE / "before_rotation.json").read_text())
    backup = tmp_path / "before_rotation_backup.json.gz"
    shutil.copy(HERE / "before_rotation_backup.json.gz", backup)
    restored = run("restore-unsigned", tmp_path / "restored.sqlite3", backup)
    assert restored["problems"] == []
    assert restored["rotations"] == {"Chemin de fer, a week ago": "original"}
    assert restored["figures"] == made["figures"]
    assert "1 (Chemin de fer, a week ago)" in restored["said"]
