"""What `make test-postgres` runs again after `make test`: the tests PostgreSQL can change the
answer of (tests/conftest.py marks the others `no_database`), property tests drawing fewer
examples."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import settings

from tests.conftest import SECOND_DATABASE, examples

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 5), done.stdout[-2000:] + done.stderr[-2000:]  # 5: none
    return {line.split("[")[0] for line in done.stdout.splitlines() if "::" in line}


def test_only_the_tests_that_touch_no_database_are_left_to_the_first_run():
    files = [
        "tests/games/test_cards.py",  # the rules: no database
        "tests/ledger/guests/test_names.py",  # some with the database, some without
        "tests/test_concurrency.py",  # hands DATABASE_URL to processes of its own
        "tests/shoebook/base/test_live.py",  # PostgreSQL's LISTEN/NOTIFY
    ]
    everything = collected(*files)
    left_out = collected("-m", "no_database", *files)
    names = "tests/ledger/guests/test_names.py::"
    assert "tests/games/test_cards.py::test_parse_cards_names_the_bad_token_in_a_list" in left_out
    assert f"{names}test_a_name_is_kept_as_nfkc_with_its_spaces_collapsed" in left_out
    assert f"{names}test_the_migration_normalises_names_and_reports_collisions_without_merging" in (
        everything - left_out
    )
    assert not {test for test in everything if "test_concurrency" in test} & left_out
    assert not {test for test in everything if "test_live.py" in test} & left_out
    assert len(left_out) < len(everything)


def test_the_second_run_leaves_out_the_first_run_s_share_and_draws_fewer_examples():
    steps = subprocess.run(
        ["make", "-n", "test-postgres"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert "HYPOTHESIS_PROFILE=second-database" in steps
    assert "not no_database and not one_database" in steps
    assert "not browser and not bench" in steps


def test_a_property_test_keeps_its_examples_but_under_the_second_database_s_profile():
    assert examples(30) == 30
    before = settings.get_current_profile_name()
    settings.load_profile(SECOND_DATABASE)
    try:
        assert examples(30) == 5
        assert examples(3) == 3
        assert settings().max_examples == 5
    finally:
        settings.load_profile(before)


def test_the_long_tests_are_collected_first():
    order = [
        line.split("[")[0]
        for line in subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
             "tests/games/test_cards.py", "tests/test_concurrency.py"],
            cwd=ROOT, capture_output=True, text=True, check=True,
        ).stdout.splitlines()
        if "::" in line
    ]  # fmt: skip
    long = collected("-m", "long", "tests/games/test_cards.py", "tests/test_concurrency.py")
    mixed = (
        "tests/test_concurrency.py::"
        "test_hands_settlements_seats_and_merges_at_once_answer_without_an_error"
    )
    assert mixed in long
    assert set(order[: len(long)]) == long
    assert len(order) > len(long)
