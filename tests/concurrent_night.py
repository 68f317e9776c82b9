"""Run by tests/test_concurrency.py in a fresh interpreter against a real database (a SQLite file
or PostgreSQL): devices racing each other through the real services. Prints a JSON report."""

from __future__ import annotations

import json
import threading
import uuid
from decimal import Decimal

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from games import services as game_services  # noqa: E402
from games.entry import BetEntry, HandEntry  # noqa: E402
from games.payouts import STANDARD_RULES, BetType  # noqa: E402
from games.rules import Winner  # noqa: E402
from ledger.guests import services as guest_services  # noqa: E402
from ledger.hands import services as hand_services  # noqa: E402
from ledger.models import Bet, GuestEventResult  # noqa: E402
from ledger.money.amounts import money_sum  # noqa: E402


def race(*jobs):
    """Run the jobs in threads released together; return each one's result or error text."""
    barrier = threading.Barrier(len(jobs))
    results: list[object] = [None] * len(jobs)

    def run(index, job):
        barrier.wait()
        try:
            results[index] = job()
        except Exception as error:
            results[index] = (
                f"{type(error).__name__}: {' '.join(getattr(error, 'messages', [str(error)]))}"
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def main() -> None:
    call_command("migrate", verbosity=0)
    tag = uuid.uuid4().hex[:8]
    host = User.objects.create_user(f"host-{tag}")
    dealer = User.objects.create_user(f"dealer-{tag}")
    event = game_services.event_create(
        name=f"Race {tag}", date="2026-11-22", rules=STANDARD_RULES, by=host
    )
    guests = [
        guest_services.event_guest_add(event=event, name=f"G{n}-{tag}", by=host) for n in range(4)
    ]
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, guest in enumerate(guests, start=1):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)

    def save(number, seat, by, bets=None):
        return lambda: (
            hand_services.record_hand(
                shoe=shoe,
                number=number,
                by=by,
                idempotency_key=uuid.uuid4(),
                entry=HandEntry(
                    player_cards="9 7",
                    banker_cards="J J 10",
                    bets=tuple(bets or [BetEntry(seat, BetType.BANKER, Decimal(10))]),
                ),
            ).hand.number
        )

    report: dict[str, object] = {}
    # 1. Two devices save hand 1 at once.
    report["same_hand"] = race(save(1, 1, host), save(1, 2, dealer))
    # 2. Two devices each enter a different seat's bet for hand 2; the loser saves again as hand 3.
    first = race(save(2, 3, host), save(2, 4, dealer))
    retried = [
        save(3, 4 if outcome == 2 and index == 0 else 3, (host, dealer)[index])()
        for index, outcome in enumerate(first)
        if isinstance(outcome, str)
    ]
    report["different_seats"] = first
    report["retried"] = retried
    # 3. A correction of hand 1 races a new hand 4.
    hand_one = shoe.hands.get(number=1)

    def correct():
        tie = HandEntry(result=Winner.TIE, bets=(BetEntry(1, BetType.BANKER, Decimal(20)),))
        return hand_services.hand_correct(hand=hand_one, reason="race", by=host, entry=tie)

    report["correction_vs_new_hand"] = race(lambda: correct().version, save(4, 2, dealer))
    bets = Bet.objects.filter(event=event)
    kept = GuestEventResult.objects.filter(event=event).aggregate(n=money_sum("net"))["n"]
    report |= {
        "hands": sorted(shoe.hands.values_list("number", flat=True)),
        "bets": bets.count(),
        "guests_net": str(bets.aggregate(n=money_sum("net"))["n"]),
        "kept_net": str(kept),
        "house_take": str(-bets.aggregate(n=money_sum("net"))["n"]),
        "vendor": connection.vendor,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
