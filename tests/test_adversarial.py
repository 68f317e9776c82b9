"""The adversary (tests/adversary.py) at a smoke size: no crash, nothing wrong. The full run,
with its table, is ``bench/adversarial.py``."""

from __future__ import annotations

import pytest

from tests.adversary import attack


@pytest.mark.django_db
def test_no_input_crashes_or_gets_in_wrongly():
    # Two devices at once need a database file: tests/test_concurrency.py and the bench do that.
    tally = attack(size=20, threads=False)
    details = tally.pop("_details")
    assert sum(counts["tried"] for counts in tally.values()) >= 60
    assert all(
        counts["refused"] and counts["tried"]
        for kind, counts in tally.items()
        if kind in ("names", "amounts", "files", "urls")
    )
    assert not details, "\n".join(details)
