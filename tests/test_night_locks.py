"""Two writes of one night at once, each interleaved the way that broke the books before every
write of a night took the night's lock first (``games.locks.lock_night``), with real threads on
a real database (tests/night_races.py, in a fresh interpreter): a SQLite file under
`make test`, PostgreSQL under `make test-postgres`, where the writers really overlap.

- the count-only switch against a hand or an adjustment: one of the two is refused, never a
  count-only night with hands or adjustments (which ``check_ledger`` and restore refuse);
- the switch against a count: the guest's total is the count's, not what it was before;
- the switch's recompute against a hand or an adjustment writing the same guest's total: no
  duplicate key (a 500), the later write refused in words;
- a count, an adjustment or a hand's correction against the night's close: recorded before the
  close, or refused in words, never a row after it;
- a round's close against a rebuy or an add-on: no deadlock, and no chips bought in a round
  that has closed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from games.services import MSG_EVENT_CLOSED
from ledger.count.services import (
    MSG_CLOSED,
    MSG_COUNT_ONLY_HAS_ADJUSTMENTS,
    MSG_COUNT_ONLY_HAS_HANDS,
    MSG_NO_ADJUSTMENT_HERE,
)
from ledger.hands.services import MSG_COUNT_ONLY_NIGHT
from tests.own_process import database_for, report_of, run_script
from tournaments.services import MSG_NOT_PLAYING

ROOT = Path(__file__).resolve().parent.parent

# Its races run on the run's database server (PostgreSQL under `make test-postgres`), which a
# subprocess reaches through DATABASE_URL: the suite's own database fixtures are not asked for.
pytestmark = [pytest.mark.database, pytest.mark.long]


@pytest.fixture(scope="module")
def races(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    database = database_for(tmp_path_factory.mktemp("races"), "night.sqlite3")
    report: dict[str, Any] = report_of(
        run_script("tests.night_races", database=database, timeout=600)
    )
    return report


def no_error_and_clean_books(race: dict[str, Any]) -> None:
    assert [answer for answer in race["answers"] if answer.startswith("error")] == []
    assert race["problems"] == []


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("switch_on_then_hand", MSG_COUNT_ONLY_NIGHT),
        ("hand_then_switch_on", MSG_COUNT_ONLY_HAS_HANDS.format(hands=1)),
        ("switch_on_then_adjustment", MSG_NO_ADJUSTMENT_HERE),
        ("adjustment_then_switch_on", MSG_COUNT_ONLY_HAS_ADJUSTMENTS),
    ],
)
def test_the_count_only_switch_and_a_hand_or_an_adjustment_at_once_one_is_refused(
    races, name, refused
):
    race = races[name]
    no_error_and_clean_books(race)
    assert race["answers"][0] == "done"
    assert race["answers"][1] == f"refused: {refused}"
    written = race["hands"] + race["adjustments"]
    assert race["count_only"] == (written == 0)  # the first one's, never both


@pytest.mark.parametrize("name", ["count_then_switch_on", "switch_on_then_count"])
def test_switching_count_only_on_while_a_count_is_recorded_keeps_the_count(races, name):
    race = races[name]
    no_error_and_clean_books(race)
    assert race["answers"] == ["done", "done"]
    assert race["count_only"] and race["counts"] == 1
    # 500 taken, 300 handed back: -200, not the -500 of the buy-in alone
    assert list(race["totals_as_stored"].values()) == ["-200.00"]
    assert race["totals_as_stored"] == race["totals_recomputed"]


@pytest.mark.parametrize(
    ("name", "refused"),
    [
        ("switch_on_recompute_then_hand", MSG_COUNT_ONLY_NIGHT),
        ("switch_on_recompute_then_adjustment", MSG_NO_ADJUSTMENT_HERE),
    ],
)
def test_the_switch_s_recompute_and_a_write_of_the_same_guest_s_total_never_collide(
    races, name, refused
):
    race = races[name]
    no_error_and_clean_books(race)
    assert race["answers"][0] == "done"
    assert race["answers"][1] == f"refused: {refused}"
    assert race["totals_as_stored"] == race["totals_recomputed"]


@pytest.mark.parametrize("name", ["count_then_close", "adjustment_then_close"])
def test_a_count_or_an_adjustment_under_way_when_the_night_closes_lands_before_the_close(
    races, name
):
    race = races[name]
    no_error_and_clean_books(race)
    assert race["answers"] == ["done", "done"]
    assert race["closed"] and race["counts"] + race["adjustments"] == 1
    assert race["rows_after_close"] == []


@pytest.mark.parametrize("name", ["close_then_count", "close_then_adjustment"])
def test_a_count_or_an_adjustment_sent_as_the_night_closes_is_refused_in_words(races, name):
    race = races[name]
    no_error_and_clean_books(race)
    assert race["answers"] == ["done", f"refused: {MSG_CLOSED}"]
    assert race["closed"] and race["counts"] + race["adjustments"] == 0
    assert race["rows_after_close"] == []


def test_a_correction_and_the_night_s_close_at_once_never_correct_a_closed_night(races):
    correcting_first = races["correction_then_close"]
    no_error_and_clean_books(correcting_first)
    assert correcting_first["answers"] == ["done", "done"]
    assert correcting_first["closed"] and not correcting_first["corrected_after_close"]
    closing_first = races["close_then_correction"]
    no_error_and_clean_books(closing_first)
    assert closing_first["answers"] == ["done", f"refused: {MSG_EVENT_CLOSED}"]
    assert not closing_first["corrected_after_close"]


@pytest.mark.parametrize("stage", ["final", "heat"])
@pytest.mark.parametrize("kind", ["rebuy", "add_on"])
def test_a_round_s_close_and_a_rebuy_or_an_add_on_at_once_never_deadlock(races, kind, stage):
    closing_first = races[f"round_close_then_{kind}_{stage}"]
    no_error_and_clean_books(closing_first)
    assert closing_first["answers"][0] == "done"
    # The chips were asked for in a round that closed meanwhile: refused, not bought.
    assert closing_first["answers"][1].startswith("refused: ")
    assert closing_first["answers"][1].endswith(str(MSG_NOT_PLAYING).split("}")[1])
    buying_first = races[f"{kind}_then_round_close_{stage}"]
    no_error_and_clean_books(buying_first)
    assert buying_first["answers"] == ["done", "done"]


def test_every_race_ran_on_a_database_taking_concurrent_writers(races):
    assert races["vendor"] in ("sqlite", "postgresql")
    assert len(races) - 1 == 22
