"""An independent count of every Punto Banco deal, the floor `bench/odds.py` compares against.

The simplest exact enumeration in plain Python, sharing no code with `games/`: each side's two
first cards as a pair of values (an unequal pair comes in two orders), then the third cards by the
tableau written out again here. Every deal is counted as the first six cards out of the shoe,
as `games.odds` counts them, so the two must agree on every figure. Run on its own it prints the
8-deck counts by winner: `.venv/bin/python bench/odds_reference.py [--decks 8]`.
"""

from __future__ import annotations

import argparse
from collections import Counter
from itertools import product

# Banker's two-card total -> the Player's third-card values it draws against.
BANKER_DRAWS = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: set(range(2, 8)),
    5: set(range(4, 8)),
    6: {6, 7},
    7: set(),
}
PAIRS = [(low, high) for low in range(10) for high in range(low, 10)]


def reference_counts(decks: int) -> Counter[tuple[int, int, int, int]]:
    """Ordered six-card deals per (Player total, Banker total, Player cards, Banker cards)."""
    shoe = [16 * decks] + [4 * decks] * 9  # cards of each baccarat value, tens first
    cards = 52 * decks
    counts: Counter[tuple[int, int, int, int]] = Counter()

    def draw(value: int) -> int:
        ways = shoe[value]
        shoe[value] -= 1
        return ways

    for (p1, p2), (b1, b2) in product(PAIRS, repeat=2):
        ways = draw(p1) * draw(p2) * draw(b1) * draw(b2)
        ways *= (1 if p1 == p2 else 2) * (1 if b1 == b2 else 2)
        if ways:
            player, banker = (p1 + p2) % 10, (b1 + b2) % 10
            if player >= 8 or banker >= 8 or (player >= 6 and banker >= 6):
                counts[player, banker, 2, 2] += ways * (cards - 4) * (cards - 5)
            elif player >= 6:  # the Player stands; the Banker draws on 0–5
                for b3 in range(10):
                    counts[player, (banker + b3) % 10, 2, 3] += ways * shoe[b3] * (cards - 5)
            else:
                for p3 in range(10):
                    ways3 = ways * draw(p3)
                    if p3 in BANKER_DRAWS[banker]:
                        for b3 in range(10):
                            counts[(player + p3) % 10, (banker + b3) % 10, 3, 3] += ways3 * shoe[b3]
                    else:
                        counts[(player + p3) % 10, banker, 3, 2] += ways3 * (cards - 5)
                    shoe[p3] += 1
        for value in (p1, p2, b1, b2):
            shoe[value] += 1
    return +counts  # a value drawn out of an empty shoe counted 0 ways: drop those


def by_winner(counts: Counter[tuple[int, int, int, int]]) -> dict[str, int]:
    won: Counter[str] = Counter()
    for (player, banker, _, _), ways in counts.items():
        won["player" if player > banker else "banker" if banker > player else "tie"] += ways
    return dict(won)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decks", type=int, default=8)
    decks = parser.parse_args().decks
    for winner, ways in sorted(by_winner(reference_counts(decks)).items()):
        print(f"{winner:<7}{ways:>22,}")


if __name__ == "__main__":
    main()
