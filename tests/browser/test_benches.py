"""The browser benchmark runs at a smoke size with the browser suite, so it never rots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"

pytestmark = pytest.mark.browser


def test_the_table_benchmark_counts_taps_times_saves_and_measures_widths():
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH / "table_in_browser.py"),
            "--hands",
            "2",
            "--latency",
            "0",
            "--back-to-back",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "Repeat last bets, by result" in done.stdout
    assert "no script (floor)" in done.stdout
    assert "/rules/" in done.stdout
    assert "hands lost or moved                  0 (of 3" in done.stdout
