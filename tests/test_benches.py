"""Every benchmark runs at a smoke size, so none of them rots between the runs that matter."""

from __future__ import annotations

import re
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
        (
            "live.py",
            ["--players", "14", "--seconds", "3", "--saves", "3", "--hand-every", "1"],
            "server CPU pushed / polled",
        ),
    ],
)
def test_a_benchmark_runs_and_prints_its_figures(script, args, expected):
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert expected in done.stdout


@pytest.mark.bench
def test_the_load_bench_plays_a_tournament():
    # 14 players at 2 tables for 6 s (each TV asks within 5 s), a hand a second at each: the
    # tournament's saves must be taken (a refused one is an error there), every kind asked for.
    args = ["--profile", "tournament", "--seconds", "6", "--players", "14", "--hand-every", "1"]
    done = subprocess.run(
        [sys.executable, str(BENCH / "load.py"), *args, "--workers", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "slowest kinds of request" in done.stdout
    assert "14 players at 2 tables" in done.stdout
    saved = re.search(r"^hands saved +(\d+)$", done.stdout, re.M)
    assert saved is not None and int(saved.group(1)) >= 2
    assert re.search(r"^errors +0$", done.stdout, re.M), done.stdout
    for kind in (
        "POST /shoes/<id:shoe_id>/hands/",
        "GET /shoes/<id:shoe_id>/?part=board",
        "GET /g/<id:guest_id>/<str:token>/",
        "GET /tournaments/table/standings/<id:guest_id>/<str:token>/",
        "GET /display/<id:event_id>/<str:token>/",
    ):
        assert kind in done.stdout


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
