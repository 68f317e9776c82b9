"""The two commands of the README, as make would run them (dry run: nothing is executed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def planned(*args: str) -> str:
    done = subprocess.run(
        ["make", "-n", *args], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_make_run_serves_on_8000_or_the_port_given():
    assert "runserver 127.0.0.1:8000" in planned("run")
    assert "runserver 127.0.0.1:8001" in planned("run", "PORT=8001")


def test_make_run_migrates_and_loads_the_demo_before_serving():
    steps = planned("run")
    assert steps.index("migrate") < steps.index("load_demo --if-empty") < steps.index("runserver")
    # The demo tournament is run by the demo night's host, with the night's guests.
    tournament = steps.index("load_demo_tournament --if-empty")
    assert steps.index("load_demo --if-empty") < tournament < steps.index("runserver")
    # So is the Chemin de fer night, a week after the tournament.
    chemin = steps.index("load_demo_chemin --if-empty")
    assert tournament < chemin < steps.index("runserver")


def test_make_test_leaves_the_benchmarks_to_their_own_step_which_ci_runs():
    assert "-m bench" not in planned("test")
    assert "-m bench" in planned("test-bench")
    steps = (ROOT / ".ci" / "run").read_text().splitlines()
    assert steps.index("make test") < steps.index("make test-bench")


def test_the_suite_s_default_leaves_out_the_browser_and_the_benchmarks():
    # pytest's addopts are what `make test` runs with: a marker dropped there would put minutes of
    # benchmark smoke runs back into every developer's test run.
    collect = [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/test_benches.py"]
    collected = subprocess.run(collect, cwd=ROOT, capture_output=True, text=True, check=False)
    assert "test_a_benchmark_runs_and_prints_its_figures" not in collected.stdout
    assert "test_every_benchmark_has_a_smoke_run" in collected.stdout
