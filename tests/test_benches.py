"""Every benchmark runs at a smoke size, so none of them rots between the runs that matter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("adversarial.py", ["--size", "10"], "all"),
        ("junk_upload.py", ["--rows", "30000"], "more than 20,000 rows"),
        ("log_night.py", ["--shoes", "1", "--hands", "3"], "save p50"),
        ("odds.py", ["--repeat", "1"], "median"),
        ("clearing.py", ["--smoke"], "fewest ms"),
        ("excel.py", ["--events", "1"], "import"),
        (
            "results_pages.py",
            ["--events", "2", "--shoes", "1", "--hands", "3", "--repeat", "2", "--no-cache"],
            "p50",
        ),
        ("load.py", ["--seconds", "3", "--workers", "1"], "errors"),
    ],
)
def test_a_benchmark_runs_and_prints_its_figures(script, args, expected):
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=300, check=True)  # fmt: skip
    assert expected in done.stdout
