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
from tests.upgrade.night_figures import figures  # noqa: E402


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
