"""How long the exact odds take: `.venv/bin/python bench/odds.py [--repeat N]`.

Each run clears the cache and counts every ordered deal for 1–8 decks, then prices every bet
type (side bets included) under the standard rules. Goal: 8 decks under 0.5 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.odds import deal_counts, odds_table
from games.payouts import RuleSet


def time_once(decks: int) -> float:
    deal_counts.cache_clear()
    start = time.perf_counter()
    odds_table(RuleSet(), decks)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    print(f"{'decks':>5}  {'median s':>9}  {'min s':>7}  ({repeat} runs, cold cache)")
    for decks in range(1, 9):
        times = [time_once(decks) for _ in range(repeat)]
        print(f"{decks:>5}  {statistics.median(times):>9.3f}  {min(times):>7.3f}")


if __name__ == "__main__":
    main()
