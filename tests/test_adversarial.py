"""The adversary (tests/adversary/) at a smoke size: no crash, nothing wrong. The full run,
with its table, is ``bench/adversarial.py``."""

from __future__ import annotations

import pytest

from tests.adversary import attack

# The kinds of input each of which has inputs that must be refused.
REFUSING = ("names", "amounts", "files", "urls", "charsets", "keys", "homoglyphs", "bounds",
            "rebuy", "restore", "counts", "expenses", "logins", "coups", "uploads", "rules",
            "payways", "currency")  # fmt: skip


@pytest.mark.django_db
def test_no_input_crashes_or_gets_in_wrongly():
    # Two devices at once need a database file: tests/test_concurrency.py and the bench do that
    # (and the deadlocks and the backups under load with them).
    tally = attack(size=20, threads=False)
    details = tally.pop("_details")
    assert sum(counts["tried"] for counts in tally.values()) >= 150
    assert set(REFUSING) <= set(tally)
    assert all(tally[kind]["refused"] for kind in REFUSING)
    assert not details, "\n".join(details)
