"""How long the fewest transfers take: `.venv/bin/python bench/clearing.py [--repeat N] [--smoke]`.

For 10, 15 and 20 guests with a balance (no two opposite, so the exact search gets them all),
times ``ledger.money.clearing.fewest_transfers`` beside the greedy settling it improves on, and
counts
the transfers of each. Three kinds of night: any cents (few groups sum to zero), round amounts
of $5–$50 (many do), and alike: three in five up $20, the rest down $30 (the most groups that sum
to zero there can be). Goal: 20 guests well under a second.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.money.clearing import Transfer, fewest_transfers, greedy_transfers

Plan = Callable[[dict[int, Decimal]], list[Transfer[int]]]


def night(guests: int, kind: str, seed: int) -> dict[int, Decimal]:
    """Balances of ``guests`` that sum to zero, none zero and no two opposite."""
    if kind == "alike":  # three in five up $20, the others down $30 (guests: a multiple of 5)
        return {guest: Decimal(20 if guest < guests * 3 // 5 else -30) for guest in range(guests)}
    cents = kind == "cents"
    rng = random.Random(seed)
    sign = {fives: rng.choice([-1, 1]) for fives in range(1, 11)}  # no −$5 beside a +$5
    while True:
        if cents:
            amounts = [rng.randint(-50000, 50000) for _ in range(guests - 1)]
        else:
            amounts = [
                sign[fives] * fives * 500 for fives in rng.choices(range(1, 11), k=guests - 1)
            ]
        amounts.append(-sum(amounts))
        if 0 not in amounts and not {-amount for amount in amounts} & set(amounts):
            return {guest: Decimal(amount).scaleb(-2) for guest, amount in enumerate(amounts)}


def timed(plan: Plan, balances: dict[int, Decimal], repeat: int) -> tuple[float, int]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        transfers = plan(balances)
        times.append(time.perf_counter() - start)
    return statistics.median(times), len(transfers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--smoke", action="store_true", help="10 guests, one run: does it run")
    arguments = parser.parse_args()
    sizes, repeat = ([10], 1) if arguments.smoke else ([10, 15, 20], arguments.repeat)
    print(
        f"{'guests':>6}  {'amounts':<7}  {'fewest ms':>9}  {'transfers':>9}  "
        f"{'greedy ms':>9}  {'transfers':>9}  (median of {repeat})"
    )
    for guests in sizes:
        for kind in ("cents", "round", "alike"):
            balances = night(guests, kind, seed=guests)
            fewest, fewest_count = timed(fewest_transfers, balances, repeat)
            greedy, greedy_count = timed(greedy_transfers, balances, repeat)
            print(
                f"{guests:>6}  {kind:<7}  {fewest * 1000:>9.1f}  {fewest_count:>9}  "
                f"{greedy * 1000:>9.2f}  {greedy_count:>9}"
            )


if __name__ == "__main__":
    main()
