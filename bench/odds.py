"""How long the exact odds take: `.venv/bin/python bench/odds.py [--repeat N]`.

First, side by side in one process: Punto Banco's 8-deck odds table (every deal counted, every bet
priced, caches cleared) against `bench/odds_reference.py`, an independent plain-Python count, run
interleaved; the counts must be identical. Goal: 8 decks in 30 ms or less, about half the
reference. Then `manage.py baccarat_odds --decks 8` as a whole process, beside the project's
Django start-up and a bare Python start-up. Goal: 0.35 s or less.

Then each run clears the caches and, for 1–8 decks, counts every ordered deal and prices every bet
type (side bets included) under the standard rules (Punto Banco); solves Chemin de fer's best
play; reads Chemin de fer's and Baccara banque's figures as the page does (counted ahead by
`python -m games.guest_banked.banque_odds`). Goal: the read under 0.05 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from odds_reference import reference_counts  # beside this script, on the path when run

from games.guest_banked import banque_odds, chemin_odds
from games.guest_banked.chemin_drawing import Choice
from games.odds import deal_counts, odds_table
from games.payouts import RuleSet

ROOT = Path(__file__).resolve().parent.parent


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


def side_by_side(repeat: int) -> None:
    """The odds table and the reference, interleaved, so both see the same machine."""
    ours, reference = [], []
    for _ in range(repeat):
        deal_counts.cache_clear()
        start = time.perf_counter()
        odds_table(RuleSet(), 8)
        ours.append(time.perf_counter() - start)
        start = time.perf_counter()
        counted = reference_counts(8)
        reference.append(time.perf_counter() - start)
    same = counted == {
        (s.player_total, s.banker_total, s.player_card_count, s.banker_card_count): n
        for s, n in deal_counts(8).items()
    }
    ours_ms, reference_ms = statistics.median(ours) * 1000, statistics.median(reference) * 1000
    print(f"Punto Banco, 8 decks, side by side ({repeat} runs each, interleaved, medians):")
    print(f"  games.odds.odds_table       {ours_ms:>7.1f} ms   (goal: 30 ms or less)")
    print(f"  bench/odds_reference.py     {reference_ms:>7.1f} ms")
    print(f"  ratio                       {ours_ms / reference_ms:>7.2f}      (goal: about 0.5)")
    print(f"  counts identical            {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("games.odds and the reference disagree on the 8-deck counts")


def whole_process(repeat: int) -> None:
    """`manage.py baccarat_odds` from start to finish, beside Django starting up and Python doing
    nothing."""
    commands = {
        "manage.py baccarat_odds --decks 8": [sys.executable, "manage.py", "baccarat_odds"],
        "manage.py version (Django start-up)": [sys.executable, "manage.py", "version"],
        "python -c pass (the floor)": [sys.executable, "-c", "pass"],
    }
    # As a host runs it: bytecode cached (a first run writes it, even if the caller's environment
    # says not to), so the figure is start-up, not compiling the project.
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # CPU time beside wall time: on a busy machine the wall time waits for other work too.
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for run in range(repeat + 1):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, cwd=ROOT, env=environment, check=True, capture_output=True)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            if run:
                times[name].append((wall, cpu))
    print(f"Whole process ({repeat} runs each, interleaved, medians; wall and CPU):")
    for name, taken in times.items():
        wall = statistics.median(w for w, _ in taken)
        cpu = statistics.median(c for _, c in taken)
        print(f"  {name:<36}{wall:>7.3f} s  {cpu:>7.3f} s CPU")
    print("  (goal for the command: 0.35 s or less)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    side_by_side(max(repeat, 3))
    whole_process(repeat)
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
