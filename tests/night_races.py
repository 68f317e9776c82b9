"""Run by tests/test_night_locks.py in a fresh interpreter against a real database (a SQLite file
or PostgreSQL): two writes of one night at once, through the real services, each interleaved the
way that broke the books before they took the night's lock. Prints a JSON report: per race, what
each write answered ("done", "refused: …" or "error: …", an exception that is no refusal), what
``check_ledger`` says of the night after, and the facts each race is judged on.

The interleaving is forced, not hoped for: the first write runs to a point inside its service
(after the reads it decides on) and waits there while the second runs; if the second is held
back by the first's lock, the first goes on after ``PAUSE_SECONDS`` and commits, and then the
second runs. Without the lock the second commits inside the first's window, which is the race.
"""

from __future__ import annotations

import json
import sys
import threading
import uuid
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from types import ModuleType
from typing import Any

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.exceptions import ValidationError  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

import ledger.count.services as count_services  # noqa: E402
import ledger.hands.services as hand_services  # noqa: E402
import ledger.money.services as money_services  # noqa: E402
import ledger.nights.services as night_services  # noqa: E402
import tournaments.services as tournament_services  # noqa: E402
from games import services as game_services  # noqa: E402
from games.entry import BetEntry, HandEntry  # noqa: E402
from games.models import Event, Hand  # noqa: E402
from games.payouts import STANDARD_RULES, BetType  # noqa: E402
from games.rules import Winner  # noqa: E402
from ledger.guests import services as guest_services  # noqa: E402
from ledger.integrity import check_ledger  # noqa: E402
from ledger.models import (  # noqa: E402
    Adjustment,
    AuditEntry,
    Bet,
    Charge,
    ChipMove,
    CountSetup,
    Guest,
    GuestEventResult,
)

# Long enough for the second write to commit inside the first's window where nothing holds it
# back; on SQLite it always waits (its write transaction holds the database).
PAUSE_SECONDS = 1.0 if connection.vendor == "postgresql" else 0.3


def outcome(job: Callable[[], object]) -> str:
    try:
        job()
    except ValidationError as refusal:
        return "refused: " + " ".join(refusal.messages)
    except Exception as error:  # a deadlock, a duplicate key: what a view would answer 5xx
        return f"error: {type(error).__name__}: {error}"[:300]
    finally:
        connection.close()
    return "done"


def interleave(
    first: Callable[[], object],
    second: Callable[[], object],
    *,
    module: ModuleType,
    name: str,
) -> list[str]:
    """``first`` runs until ``module.name`` has answered in its thread, then waits while
    ``second`` runs (at most ``PAUSE_SECONDS``: ``second`` may be waiting on its lock)."""
    arrived, released = threading.Event(), threading.Event()
    original = getattr(module, name)
    owner: dict[str, int] = {}

    def paused(*args: Any, **kwargs: Any) -> Any:
        result = original(*args, **kwargs)
        if threading.get_ident() == owner.get("id") and not arrived.is_set():
            arrived.set()
            released.wait(PAUSE_SECONDS)
        return result

    answers = ["not run", "not run"]

    def run_first() -> None:
        owner["id"] = threading.get_ident()
        try:
            answers[0] = outcome(first)
        finally:
            arrived.set()  # refused before the pause: the second runs after it

    def run_second() -> None:
        arrived.wait(60)
        try:
            answers[1] = outcome(second)
        finally:
            released.set()

    setattr(module, name, paused)
    try:
        threads = [threading.Thread(target=run_first), threading.Thread(target=run_second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        setattr(module, name, original)
    return answers


class Night:
    """A cash night with three guests on its list (seated at an open shoe unless ``shoe`` is
    False), a chip set of 5, 25 and 100, and a host."""

    def __init__(self, host: User, *, shoe: bool = True, count_only: bool = False) -> None:
        tag = uuid.uuid4().hex[:8]
        self.host = host
        self.event = game_services.event_create(
            name=f"Race {tag}", date=date(2026, 11, 22), rules=STANDARD_RULES, by=host
        )
        self.guests = [
            guest_services.event_guest_add(event=self.event, name=f"G{n}-{tag}", by=host)
            for n in range(1, 4)
        ]
        count_services.count_setup_save(
            event=self.event, by=host, denominations=["5", "25", "100"], count_only=count_only
        )
        self.shoe = game_services.shoe_start(event=self.event, by=host) if shoe else None
        if self.shoe is not None:
            for seat, guest in enumerate(self.guests, start=1):
                hand_services.seat_guest(shoe=self.shoe, seat=seat, guest=guest, by=host)

    def switch(self, count_only: bool) -> Callable[[], object]:
        return lambda: count_services.count_setup_save(
            event=self.event, by=self.host, denominations=["5", "25", "100"], count_only=count_only
        )

    def hand(self) -> Callable[[], object]:
        assert self.shoe is not None
        shoe = self.shoe
        return lambda: hand_services.record_hand(
            shoe=shoe,
            number=hand_services.next_hand_number(shoe),
            by=self.host,
            idempotency_key=uuid.uuid4(),
            entry=HandEntry(
                result=Winner.BANKER, bets=(BetEntry(1, BetType.BANKER, Decimal(100)),)
            ),
        )

    def adjustment(self, guest: Guest | None = None) -> Callable[[], object]:
        return lambda: count_services.adjustment_record(
            event=self.event,
            guest=guest or self.guests[0],
            amount=Decimal(50),
            reason="the count was short",
            by=self.host,
            idempotency_key=uuid.uuid4(),
        )

    def chips(self, kind: str, amount: int, guest: Guest | None = None) -> Callable[[], object]:
        return lambda: count_services.chips_record(
            event=self.event,
            guest=guest or self.guests[0],
            kind=kind,
            by=self.host,
            chips=Decimal(amount),
            source="cash" if kind == ChipMove.Kind.BUY_IN else "",
            idempotency_key=uuid.uuid4(),
        )

    def close(self) -> Callable[[], object]:
        return lambda: night_services.event_close(event=self.event, by=self.host)

    def report(self, answers: list[str]) -> dict[str, Any]:
        event = Event.objects.get(pk=self.event.pk)
        setup = CountSetup.objects.get(event=event)
        stored = {
            row.guest_id: str(row.net) for row in GuestEventResult.objects.filter(event=event)
        }
        recomputed = {
            row.guest_id: str(row.net)
            for row in money_services.result_rows(
                bets=Bet.objects.filter(event=event),
                charges=Charge.objects.filter(event=event),
                chip_moves=ChipMove.objects.filter(event=event),
                adjustments=Adjustment.objects.filter(event=event),
            )
        }
        late = [
            str(move.recorded_at - event.closed_at)
            for model in (ChipMove, Adjustment)
            for move in model.objects.filter(event=event)
            if event.closed_at is not None and move.recorded_at > event.closed_at
        ]
        return {
            "answers": answers,
            "problems": [str(problem) for problem in check_ledger(event).problems],
            "count_only": setup.count_only,
            "hands": Hand.objects.filter(shoe__event=event).count(),
            "adjustments": Adjustment.objects.filter(event=event).count(),
            "counts": ChipMove.objects.filter(event=event, kind=ChipMove.Kind.COUNT).count(),
            "closed": event.closed_at is not None,
            "rows_after_close": late,
            "totals_as_stored": stored,
            "totals_recomputed": recomputed,
        }


# --- the races ------------------------------------------------------------------------------


def switch_on_then_hand(host: User) -> dict[str, Any]:
    """The switch has counted no hand when a hand is saved: one of the two must lose."""
    night = Night(host)
    answers = interleave(night.switch(True), night.hand(), module=count_services, name="setup_of")
    return night.report(answers)


def hand_then_switch_on(host: User) -> dict[str, Any]:
    """A hand has read that the night is not count-only when the switch is turned on."""
    night = Night(host)
    answers = interleave(night.hand(), night.switch(True), module=hand_services, name="_settle")
    return night.report(answers)


def switch_on_then_adjustment(host: User) -> dict[str, Any]:
    night = Night(host)
    answers = interleave(
        night.switch(True), night.adjustment(), module=count_services, name="setup_of"
    )
    return night.report(answers)


def adjustment_then_switch_on(host: User) -> dict[str, Any]:
    night = Night(host)
    answers = interleave(
        night.adjustment(), night.switch(True), module=count_services, name="lock_guest"
    )
    return night.report(answers)


def count_then_switch_on(host: User) -> dict[str, Any]:
    """A count has read that the night is not count-only (its result is not recomputed) when
    the switch is turned on and recomputes every guest's result without it."""
    night = Night(host, shoe=False)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.chips(ChipMove.Kind.COUNT, 300),
        night.switch(True),
        module=count_services,
        name="counted_chips",
    )
    return night.report(answers)


def switch_on_then_count(host: User) -> dict[str, Any]:
    """The switch has recomputed every guest's result when a count comes in, reading the night
    as not count-only yet."""
    night = Night(host, shoe=False)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.switch(True),
        night.chips(ChipMove.Kind.COUNT, 300),
        module=count_services,
        name="count_results_refresh",
    )
    return night.report(answers)


def switch_on_recompute_then_hand(host: User) -> dict[str, Any]:
    """The switch's recompute has cleared the guests' totals and not yet written them when a
    hand writes the same guest's total (the duplicate key)."""
    night = Night(host)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.switch(True), night.hand(), module=money_services, name="result_rows"
    )
    return night.report(answers)


def switch_on_recompute_then_adjustment(host: User) -> dict[str, Any]:
    """The same with an adjustment."""
    night = Night(host, shoe=False)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.switch(True), night.adjustment(), module=money_services, name="result_rows"
    )
    return night.report(answers)


def count_then_close(host: User) -> dict[str, Any]:
    """A count has checked that the night is open when the night is closed."""
    night = Night(host, shoe=False, count_only=True)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.chips(ChipMove.Kind.COUNT, 300),
        night.close(),
        module=count_services,
        name="counted_chips",
    )
    return night.report(answers)


def close_then_count(host: User) -> dict[str, Any]:
    """The night is being closed when a count checks that it is open."""
    night = Night(host, shoe=False, count_only=True)
    night.chips(ChipMove.Kind.BUY_IN, 500)()
    answers = interleave(
        night.close(),
        night.chips(ChipMove.Kind.COUNT, 300),
        module=night_services,
        name="_audit_open_state",
    )
    return night.report(answers)


def adjustment_then_close(host: User) -> dict[str, Any]:
    night = Night(host, shoe=False)
    answers = interleave(
        night.adjustment(), night.close(), module=count_services, name="lock_guest"
    )
    return night.report(answers)


def close_then_adjustment(host: User) -> dict[str, Any]:
    night = Night(host, shoe=False)
    answers = interleave(
        night.close(), night.adjustment(), module=night_services, name="_audit_open_state"
    )
    return night.report(answers)


def _corrected_night(host: User) -> tuple[Night, Callable[[], object]]:
    """A night with one hand logged and its shoe closed (ready to close), and a correction of
    that hand."""
    night = Night(host)
    assert night.shoe is not None
    night.hand()()
    night_services.shoe_close(shoe=night.shoe, by=host)
    hand = Hand.objects.get(shoe=night.shoe)
    tie = HandEntry(result=Winner.TIE, bets=(BetEntry(1, BetType.BANKER, Decimal(100)),))
    return night, lambda: hand_services.hand_correct(
        hand=hand, entry=tie, reason="misread", by=host
    )


def _corrections_report(night: Night, answers: list[str]) -> dict[str, Any]:
    report = night.report(answers)
    audit = AuditEntry.objects.filter(event=night.event).order_by("pk")
    actions = list(audit.values_list("action", flat=True))
    corrected, closed = AuditEntry.Action.HAND_CORRECTED, AuditEntry.Action.EVENT_CLOSED
    both = corrected in actions and closed in actions
    report["corrected_after_close"] = both and actions.index(corrected) > actions.index(closed)
    return report


def correction_then_close(host: User) -> dict[str, Any]:
    """A correction has checked that the night is open when the night is closed."""
    night, correct = _corrected_night(host)
    answers = interleave(correct, night.close(), module=hand_services, name="_settle")
    return _corrections_report(night, answers)


def close_then_correction(host: User) -> dict[str, Any]:
    night, correct = _corrected_night(host)
    answers = interleave(night.close(), correct, module=night_services, name="_audit_open_state")
    return _corrections_report(night, answers)


def _tournament(host: User, *, final: bool) -> tuple[Any, Any, Any]:
    """A tournament with rebuys and an add-on in its first round, two players, the round
    started (the final table, or a heat sending one on) with its one hand played."""
    tag = uuid.uuid4().hex[:8]
    cup = tournament_services.tournament_create(
        name=f"Race cup {tag}", date=date(2026, 11, 24), by=host, entry_fee=Decimal(50),
        cut_percent=Decimal(0), rebuy_price=Decimal(40), rebuy_chips=Decimal(1000),
        rebuy_rounds=1, max_rebuys=3, add_on_price=Decimal(20), add_on_chips=Decimal(500),
        add_on_round=1,
    )  # fmt: skip
    aki = tournament_services.entrant_add(tournament=cup, name=f"Aki {tag}", by=host)
    tournament_services.entrant_add(tournament=cup, name=f"Ben {tag}", by=host)
    settings: dict[str, Any] = {"is_final": True} if final else {"per_table": 1}
    round_ = tournament_services.round_add(
        tournament=cup, by=host, hands=1, table_min=Decimal(10), table_max=Decimal(1000),
        bet_unit=Decimal(10), **settings,
    )  # fmt: skip
    tournament_services.round_draw(round_=round_, by=host, seed=1)
    tournament_services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    shoe = table.event.shoes.get()
    seat = table.seats.get(entrant=aki).seat
    hand_services.record_hand(
        shoe=shoe, number=1, by=host,
        entry=HandEntry(result=Winner.PLAYER, bets=(BetEntry(seat, BetType.BANKER, Decimal(10)),)),
    )  # fmt: skip
    return cup, round_, aki


def _tournament_report(cup: Any, answers: list[str]) -> dict[str, Any]:
    events = [cup.event, *Event.objects.filter(tournament_table__round__tournament=cup)]
    problems = [str(p) for event in events for p in check_ledger(event).problems]
    return {"answers": answers, "problems": problems}


def round_close_then_rebuy(host: User, *, final: bool, kind: str) -> dict[str, Any]:
    """The round's close holds its round and its tables when a rebuy (an add-on) comes in
    holding the tournament: neither may be lost to a deadlock."""
    cup, round_, aki = _tournament(host, final=final)
    buy = tournament_services.rebuy if kind == "rebuy" else tournament_services.add_on
    answers = interleave(
        lambda: tournament_services.round_close(round_=round_, by=host),
        lambda: buy(entrant=aki, by=host),
        module=tournament_services,
        name="round_board",
    )
    return _tournament_report(cup, answers)


def rebuy_then_round_close(host: User, *, final: bool, kind: str) -> dict[str, Any]:
    cup, round_, aki = _tournament(host, final=final)
    buy = tournament_services.rebuy if kind == "rebuy" else tournament_services.add_on
    answers = interleave(
        lambda: buy(entrant=aki, by=host),
        lambda: tournament_services.round_close(round_=round_, by=host),
        module=tournament_services,
        name="_hands_played",
    )
    return _tournament_report(cup, answers)


RACES: dict[str, Callable[[User], dict[str, Any]]] = {
    "switch_on_then_hand": switch_on_then_hand,
    "hand_then_switch_on": hand_then_switch_on,
    "switch_on_then_adjustment": switch_on_then_adjustment,
    "adjustment_then_switch_on": adjustment_then_switch_on,
    "count_then_switch_on": count_then_switch_on,
    "switch_on_then_count": switch_on_then_count,
    "switch_on_recompute_then_hand": switch_on_recompute_then_hand,
    "switch_on_recompute_then_adjustment": switch_on_recompute_then_adjustment,
    "count_then_close": count_then_close,
    "close_then_count": close_then_count,
    "adjustment_then_close": adjustment_then_close,
    "close_then_adjustment": close_then_adjustment,
    "correction_then_close": correction_then_close,
    "close_then_correction": close_then_correction,
    **{
        name.format(kind=kind, stage="final" if final else "heat"): (
            lambda host, race=race, final=final, kind=kind: race(host, final=final, kind=kind)
        )
        for name, race in (
            ("round_close_then_{kind}_{stage}", round_close_then_rebuy),
            ("{kind}_then_round_close_{stage}", rebuy_then_round_close),
        )
        for final in (True, False)
        for kind in ("rebuy", "add_on")
    },
}


def main() -> None:
    call_command("migrate", verbosity=0)
    host = User.objects.create_user(f"host-{uuid.uuid4().hex[:8]}")
    wanted = sys.argv[1:] or list(RACES)
    report: dict[str, Any] = {"vendor": connection.vendor}
    for name in wanted:
        report[name] = RACES[name](host)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
