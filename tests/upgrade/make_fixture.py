"""Makes tests/upgrade/before_rotation.sqlite3 and its figures with the release before the bank's
rotation changed (the commit before "The bank goes round as the table passes it"): a Chemin de
fer night recorded through that release's services, where a suite is lost and the bank goes back
to the seat that lost it, as that release read the rotation. Run with that release's code first
on the path, from a copy of it:

    git archive <commit before the change> | tar -x -C /tmp/old && cd /tmp/old
    DATABASE_URL=sqlite:////tmp/old/before.sqlite3 <repo>/.venv/bin/python \\
        <repo>/tests/upgrade/make_fixture.py <repo>/tests/upgrade

and before_rotation_backup.json.gz is that release's ``manage.py backup`` of a copy of it. The
fixture is kept as it was made; this script says how, and is not run by the tests.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, os.getcwd())  # the old release's code, before the installed one

import django

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402
from night_figures import figures  # noqa: E402  (beside this script)

from games import services as game_services  # noqa: E402
from games.entry import BetEntry, HandEntry  # noqa: E402
from games.guest_banked.terms import CoupTerms  # noqa: E402
from games.models import Event, Hand  # noqa: E402
from games.payouts import RuleSet  # noqa: E402
from ledger.guests import services as guest_services  # noqa: E402
from ledger.hands import services as hand_services  # noqa: E402
from ledger.integrity import ledger_problems  # noqa: E402
from ledger.money import services as money_services  # noqa: E402
from ledger.nights import services as night_services  # noqa: E402

# (banker seat, bank, result, covers as (seat, stake), the banker's move and suite)
COUPS = [
    (1, "100", "banker", [(2, "100")], {"move": "suite", "suite_seat": 2}),
    # Seat 2 took the suite at its giver's right and loses it: the bank goes to the right of
    # seat 1, the giver — seat 2 again, who just lost it (the earlier reading).
    (2, "195", "player", [(3, "195")], {}),
    (2, "50", "banker", [(4, "50")], {"move": "keep"}),
    (2, "97.50", "player", [(5, "97.50")], {}),
    (3, "40", "banker", [(1, "40")], {"move": "retire"}),
    # A suite nobody takes: the next in turn banks at the minimum banco and, losing, the bank
    # returns to the right of the giver, seat 4 — seat 5, who just lost it.
    (4, "30", "banker", [(5, "30")], {"move": "suite"}),
    (5, "10", "player", [(1, "10")], {}),
    (5, "20", "banker", [(2, "20")], {"move": "retire"}),
]


def main() -> None:
    out = Path(sys.argv[1])
    call_command("migrate", verbosity=0)
    host = User.objects.create_user("host")
    host.groups.add(Group.objects.get_or_create(name="Hosts")[0])
    event = game_services.event_create(
        name="Chemin de fer, a week ago",
        date=date(2026, 11, 18),
        rules=RuleSet(),
        by=host,
        game="chemin_de_fer",
        table_min=Decimal(10),
    )
    guests = [
        guest_services.event_guest_add(event=event, name=name, by=host)
        for name in ("Aki", "Ben", "Chie", "Daisuke", "Emi")
    ]
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, guest in enumerate(guests, start=1):
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    for banker, bank, result, covers, terms in COUPS:
        entry = HandEntry(
            result=result,
            bets=tuple(BetEntry(seat, "ordinary", Decimal(stake)) for seat, stake in covers),
            coup=CoupTerms(banker_seat=banker, bank=Decimal(bank), **terms),
        )
        hand_services.record_hand(
            shoe=shoe,
            number=hand_services.next_hand_number(shoe),
            entry=entry,
            by=host,
            idempotency_key=uuid.uuid4(),
        )
    night_services.shoe_close(shoe=shoe, by=host)
    money_services.settlement_record(
        guest=guests[0],
        event=event,
        amount=Decimal(50),
        method="cash",
        by=host,
        idempotency_key=uuid.uuid4(),
    )
    # Played a week before the upgrade, as the night was.
    week_ago = timezone.now() - timedelta(days=7)
    Hand.objects.update(logged_at=week_ago)
    assert ledger_problems() == [], ledger_problems()
    made = {
        "made_by": "the release before the rotation change (tests/upgrade/make_fixture.py)",
        "made_at": datetime.now(tz=UTC).isoformat(timespec="seconds"),
        "event": Event.objects.get().pk,
        "figures": figures(),
    }
    (out / "before_rotation.json").write_text(json.dumps(made, indent=1, ensure_ascii=False))
    print(json.dumps(made["figures"]["coups"]))


if __name__ == "__main__":
    main()
