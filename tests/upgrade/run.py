"""Run by tests/upgrade/test_upgrade.py in a fresh interpreter, against a copy of a database an
earlier release made (``DATABASE_URL``): ``upgrade BACKUP`` migrates it to this release, checks
its books and writes a backup; ``restore BACKUP`` restores that backup into a new, empty
database (``restore-unsigned``: a backup the earlier release wrote). Each prints a JSON report:
check_ledger's problems and every figure."""

from __future__ import annotations

import io
import json
import sys

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from games.models import Event  # noqa: E402
from ledger.integrity import ledger_problems  # noqa: E402
from ledger.models import Bet, Coup, GuestEventResult, Settlement  # noqa: E402


def figures() -> dict[str, object]:
    """The night's figures as tests/upgrade/make_fixture.py recorded them."""
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


def problems() -> list[str]:
    return [str(problem) for problem in ledger_problems()]


def report() -> dict[str, object]:
    return {
        "problems": problems(),
        "figures": figures(),
        "rotations": dict(Event.objects.values_list("name", "bank_rotation")),
    }


def main() -> None:
    mode, backup = sys.argv[1], sys.argv[2]
    if mode == "upgrade":
        call_command("migrate", verbosity=0)
        found = report()
        with transaction.atomic():  # the same night read by today's rule, then put back
            Event.objects.update(bank_rotation="skips_loser")
            found["problems_by_todays_rule"] = problems()
            transaction.set_rollback(True)
        call_command("backup", output=backup, verbosity=0)
    else:  # restore: a backup of this release, or (restore-unsigned) one the earlier made
        call_command("migrate", verbosity=0)
        said = io.StringIO()
        unsigned = mode == "restore-unsigned"
        call_command("restore", backup, with_users=True, unsigned=unsigned, stdout=said)
        found = report() | {"said": said.getvalue()}
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    main()
