"""How long the exact odds take: `.venv/bin/python bench/odds.py [--repeat N]`.

Each run clears the caches and, for 1–8 decks, counts every ordered deal and prices every bet
type (side bets included) under the standard rules (Punto Banco); solves Chemin de fer's best
play; reads Chemin de fer's and Baccara banque's figures as the page does (counted ahead by
`python -m games.banque_odds`). Goal: 8 decks under 0.5 s, and the read under 0.05 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import banque_odds, chemin_odds
from games.chemin import Choice
from games.odds import deal_counts, odds_table
from games.payouts import RuleSet


def time_once(decks: int) -> float:
    deal_counts.cache_clear()
    start = time.perf_counter()
    odds_table(RuleSet(), decks)
    return time.perf_counter() - start


def time_chemin(decks: int) -> float:
    chemin_odds._count_deals.cache_clear()
    start = time.perf_counter()
    chemin_odds.chemin_odds(decks)
    return time.perf_counter() - start


def time_read(decks: int) -> float:
    """What the page does for the guest-banked games: read both games' figures."""
    for cached in (banque_odds.priced, banque_odds.chemin_priced, banque_odds._priced):
        cached.cache_clear()
    start = time.perf_counter()
    banque_odds.priced(decks).best_reply(0, Choice.DRAW)
    banque_odds.chemin_priced(decks)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    for game, timed in (
        ("Punto Banco", time_once),
        ("Chemin de fer", time_chemin),
        ("Guest-banked, as the page reads them", time_read),
    ):
        print(f"{game}: {'decks':>5}  {'median s':>9}  {'min s':>7}  ({repeat} runs, cold cache)")
        for decks in range(1, 9):
            times = [timed(decks) for _ in range(repeat)]
            median = statistics.median(times)
            print(f"{' ' * len(game)}  {decks:>5}  {median:>9.3f}  {min(times):>7.3f}")


if __name__ == "__main__":
    main()
