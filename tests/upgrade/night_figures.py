"""A night's figures, read the same way by the earlier release (``make_fixture.py``, run as a
script beside this file) and by this one (``run.py``): so that the upgrade test compares like
with like."""

from __future__ import annotations


def figures() -> dict[str, object]:
    """The night's figures: what make_fixture.py recorded with the earlier release, and what
    run.py reads at this one."""
    from ledger.models import Bet, Coup, GuestEventResult, Settlement

    return {
        "results": sorted(
            [
                row.guest.name,
                f"{row.stake:.2f}",
                f"{row.gross:.2f}",
                f"{row.commission:.2f}",
                f"{row.net:.2f}",
            ]
            for row in GuestEventResult.objects.select_related("guest")
        ),
        "bets": sorted(
            [
                bet.hand.number,
                bet.seat,
                bet.guest.name,
                bet.bet_type,
                f"{bet.stake:.2f}",
                f"{bet.gross:.2f}",
                f"{bet.commission:.2f}",
                f"{bet.net:.2f}",
            ]
            for bet in Bet.objects.select_related("hand", "guest")
        ),
        "coups": [
            [
                coup.hand.number,
                coup.banker_seat,
                f"{coup.bank:.2f}",
                coup.move,
                f"{coup.bank_after:.2f}",
                coup.rotation_seat,
                coup.suite_seat,
                coup.suite_way,
                f"{coup.house_cut:.2f}",
            ]
            for coup in Coup.objects.select_related("hand").order_by("hand__number")
        ],
        "settlements": sorted(
            [row.guest.name, f"{row.amount:.2f}"]
            for row in Settlement.objects.select_related("guest")
        ),
    }
