"""Every benchmark runs at a smoke size, so none of them rots between the runs that matter."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


@pytest.mark.bench
@pytest.mark.parametrize(
    ("script", "args", "expected"),
    [
        ("adversarial.py", ["--size", "10"], "all"),
        ("junk_upload.py", ["--rows", "30000"], "more than 20,000 rows"),
        ("log_night.py", ["--shoes", "1", "--hands", "3"], "save p50"),
        ("save.py", ["--hands", "3"], "save / floor"),
        ("odds.py", ["--repeat", "1"], "median"),
        ("odds_reference.py", ["--decks", "1"], "banker"),
        ("clearing.py", ["--smoke"], "fewest ms"),
        ("excel.py", ["--events", "1"], "import"),
        (
            "results_pages.py",
            ["--events", "2", "--shoes", "1", "--hands", "3", "--repeat", "2", "--no-cache"],
            "floor",
        ),
        ("load.py", ["--seconds", "3", "--workers", "1"], "slowest kinds of request"),
    ],
)
def test_a_benchmark_runs_and_prints_its_figures(script, args, expected):
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert expected in done.stdout


@pytest.mark.bench
def test_the_excel_bench_takes_peak_memory_in_a_fresh_process():
    # Linux carries a parent's peak memory into its children; the bench's export must not report
    # the 300 MB its parent holds (the season it built) as its own.
    sys.path.insert(0, str(BENCH))
    from excel import in_fresh_process

    held = bytearray(300 * 1024 * 1024)
    for page in range(0, len(held), 4096):
        held[page] = 1
    report = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    naive = subprocess.run(
        [sys.executable, "-c", report], capture_output=True, text=True, check=True
    )
    assert int(naive.stdout) / 1024 >= 300  # the control: what the old way reported
    stdout, peak_mb = in_fresh_process("print('done')")
    assert stdout.strip() == "done"
    assert peak_mb < 100
    del held


def test_every_benchmark_has_a_smoke_run():
    # A new script in bench/ without a smoke run here (or in the browser suite) would rot unseen.
    here = Path(__file__).resolve()
    smoked = here.read_text() + (here.parent / "browser" / "test_benches.py").read_text()
    helpers = {"throwaway.py"}
    scripts = {path.name for path in BENCH.glob("*.py")} - helpers
    assert {name for name in scripts if f'"{name}"' not in smoked} == set()
