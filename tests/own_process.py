"""Scripts of the suite run in an interpreter of their own, with real threads, against a real
database: the server the run was given when it is PostgreSQL (`make test-postgres`), else a new
SQLite file (`make test`; never the suite's in-memory database, which takes no second writer).
A test that calls ``database_for`` reaches the run's database (tests/conftest.py keeps it in the
PostgreSQL run)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def database_for(folder: Path, name: str) -> str:
    """The run's PostgreSQL, or a SQLite file ``name`` in ``folder``."""
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith("postgres") else f"sqlite:///{folder / name}"


def run_script(
    module: str, *args: str, database: str, timeout: float, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` on ``database``, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={
            **os.environ,
            "DATABASE_URL": database,
            "DJANGO_SETTINGS_MODULE": "shoebook.settings",
            **env,
        },
    )


def report_of(result: subprocess.CompletedProcess[str]) -> Any:
    """The JSON report a script prints last; it must have ended well."""
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])
