"""Devices at odds over the same rows. A stale page: the dealer saves a bet for the guest it saw on
seat 1 after the host seated someone else there; it must be refused, recording no bet. A double
tap: the same hand posted from two devices at once records its bet once. Racing locks
(``deadlocks``): a hand and a settlement at one night, a guest seated while merged into another,
one pair of guests merged both ways, each pair of requests at once. One night's lock (``night
races``): the count-only switch with a hand, an adjustment or a count, a count or an adjustment
with the night's close, the final's close with a rebuy or an add-on. A sample of the race
matrix's pairs (``matrix``, from ``tests/races``: every write against every other on a fresh
night). No answer may be a 5xx (a 503 is one) or an error escaping the app; each is a write or a
refusal that says why, exactly one write goes through where only one can, and the books add up.
The double taps, the deadlocks, the night races and the matrix need a database that takes
concurrent writers (a file, or PostgreSQL), not the test suite's in-memory SQLite.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.http import HttpResponseBase
from django.test import Client
from django.urls import reverse

from games.models import Event, Hand
from ledger.count import services as count_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Adjustment, Bet, ChipMove, CountSetup, Guest, Seating, StackRow
from ledger.nights import services as night_services
from tests.adversary.ground import (
    HTMX,
    Case,
    Night,
    ledger_problems,
    page_text,
    race,
    said,
    status,
    user_client,
)
from tests.adversary.tournament_helpers import play
from tournaments import services as tournament_services
from tournaments.models import Round

# --- races ---------------------------------------------------------------------------------


def race_cases(night: Night, count: int, *, threads: bool) -> Iterator[Case]:
    """A stale page, and (``threads``: on a database that takes concurrent writers, not the
    test suite's in-memory SQLite) a double tap from two devices at once."""

    def stale_seat() -> str:
        """The dealer sees seat 1's guest; the host seats someone else; the dealer saves."""
        seen = night.hand_data(result="tie", stake_1_tie="10")
        newcomer = guest_services.event_guest_add(
            event=night.event, name=f"New {uuid.uuid4().hex[:6]}", by=night.host
        )
        hand_services.seat_guest(shoe=night.shoe, seat=1, guest=newcomer, by=night.host)
        before = Bet.objects.count()
        code = night.client.post(
            reverse("ledger:hand_record", args=[night.shoe.pk]), seen
        ).status_code
        if Bet.objects.count() > before:
            return f"wrong: the bet went to {Bet.objects.latest('pk').guest}"
        return status(code, accepted=False)

    def double_save() -> str:
        data = night.hand_data(result="tie", stake_2_tie="10")
        url = reverse("ledger:hand_record", args=[night.shoe.pk])
        codes: list[int] = []
        threads = [
            threading.Thread(
                target=lambda: codes.append(_client(night).post(url, data).status_code)
            )
            for _ in range(2)
        ]
        before = Bet.objects.count()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if any(code >= 500 for code in codes):
            return "crashed"
        added = Bet.objects.count() - before
        return "accepted" if added == 1 else f"wrong: a double tap recorded {added} bets"

    for n in range(count):
        if threads and n % 2 == 0:
            yield Case("races", "double tap", double_save)
        else:
            yield Case("races", "stale seat", stale_seat)


def _client(night: Night) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(night.host)
    return client


# --- deadlocks -----------------------------------------------------------------------------


def _race_outcome(
    answers: list[HttpResponseBase | str], went_through: list[bool], one: bool
) -> str:
    """No 5xx (a 503 too), nothing escaping; ``one``: exactly one of the racing writes went
    through, the other refused with something said; else each went through. Then the books
    must add up."""
    for answer in answers:
        if isinstance(answer, str):
            return f"crashed: {answer}"[:200]
        if answer.status_code >= 500:
            return f"crashed: {answer.status_code} {page_text(answer)[:80]!r}"
    through = sum(went_through)
    refused = [a for a, done in zip(answers, went_through, strict=True) if not done]
    if any(not isinstance(a, str) and not said(a).strip() for a in refused):
        return "wrong: refused with nothing said"
    if one and through != 1:
        return f"wrong: {through} of the {len(answers)} racing writes went through"
    problems = ledger_problems()
    if problems:
        return f"wrong: {problems}"
    if one or through == len(answers):
        return "accepted"
    return "refused"


def deadlock_cases(tag: str, count: int) -> Iterator[Case]:
    """Two devices writing what locks the same rows, at once (a database that takes concurrent
    writers only): a hand and a settlement at one night; a guest seated while merged into
    another; one pair of guests merged both ways. No answer is a 5xx (a 503 is one), each is
    a write or a refusal that says why, and the books add up."""
    night = Night(f"{tag}d")
    guest, url = night.guests[0], reverse("ledger:settlement_record", args=[night.event.pk])

    def hand_and_settlement() -> str:
        hand, settle = user_client(night.host), user_client(night.host)
        data = night.hand_data(result="tie", stake_1_tie="10")
        form = {"guest": guest.pk, "direction": "guest_paid", "amount": "10", "method": "cash",
                "confirm": "on", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        hands, settlements = Hand.objects.count(), guest.settlements.count()
        answers = race(
            lambda: hand.post(reverse("ledger:hand_record", args=[night.shoe.pk]), data),
            lambda: settle.post(url, form),
        )
        done = [Hand.objects.count() > hands, guest.settlements.count() > settlements]
        return _race_outcome(answers, done, one=False)

    def pair() -> tuple[Guest, Guest]:
        """Two new guests on the night's list, seated nowhere: free to merge."""
        made = uuid.uuid4().hex[:6]

        def add(name: str) -> Guest:
            return guest_services.event_guest_add(
                event=night.event, name=f"{name} {made}", by=night.host
            )

        return add("Xavi"), add("Yuki")

    def merge(client: Client, into: Guest, other: Guest) -> Callable[[], HttpResponseBase]:
        url = reverse("ledger:guest_merge", args=[into.pk])
        return lambda: client.post(url, {"other": other.pk})

    def seat_while_merged(seat: int) -> Callable[[], str]:
        def run() -> str:
            x, y = pair()
            seating = reverse("ledger:seat_change", args=[night.shoe.pk])
            seater, merger = user_client(night.host), user_client(night.host)
            answers = race(
                lambda: seater.post(seating, {"seat": str(seat), "guest": str(x.pk)}, headers=HTMX),
                merge(merger, y, x),
            )
            seated = Seating.objects.filter(shoe=night.shoe, guest=x, to_hand__isnull=True)
            done = [seated.exists(), not Guest.objects.filter(pk=x.pk).exists()]
            return _race_outcome(answers, done, one=True)

        return run

    def merged_both_ways() -> str:
        x, y = pair()
        answers = race(merge(user_client(night.host), y, x),
                        merge(user_client(night.host), x, y))  # fmt: skip
        kept = Guest.objects.filter(pk__in=[x.pk, y.pk]).values_list("pk", flat=True)
        done = [list(kept) == [y.pk], list(kept) == [x.pk]]
        return _race_outcome(answers, done, one=True)

    def invitations_at_once(one: str, other: str) -> Callable[[], str]:
        """Two guests accept their invitations at the same moment, with logins that are one
        (differing in case, or look-alikes): one login is made, the other refused with why."""

        def run() -> str:
            made = uuid.uuid4().hex[:6]
            guests = [guest_services.guest_create(name=f"Invitee {made} {n}") for n in (1, 2)]
            links = [
                reverse("ledger:invitation_accept",
                        args=[guest_services.guest_invitation_issue(guest=g, by=night.host)])
                for g in guests
            ]  # fmt: skip
            names = [f"{one}{made}", f"{other}{made}"]
            password = f"Adv {made} pass!"

            def accept(url: str, name: str) -> Callable[[], HttpResponseBase]:
                form = {"username": name, "password1": password, "password2": password}
                return lambda: Client(raise_request_exception=False).post(url, form)

            answers = race(*(accept(url, name) for url, name in zip(links, names, strict=True)))
            done = [User.objects.filter(username=name).exists() for name in names]
            return _race_outcome(answers, done, one=True)

        return run

    for n in range(count):
        yield Case(
            "deadlocks", "invitations at once: Mika and mika", invitations_at_once("Mika", "mika")
        )
        yield Case(
            "deadlocks", "invitations at once: mike and rnike", invitations_at_once("mike", "rnike")
        )
        yield Case("deadlocks", "a hand and a settlement at once", hand_and_settlement)
        yield Case("deadlocks", "X seated while merged into Y", seat_while_merged(n % 7 + 1))
        yield Case("deadlocks", "X into Y and Y into X at once", merged_both_ways)


# --- one night's writes at once (the night's lock) -----------------------------------------


def night_lock_cases(tag: str, count: int) -> Iterator[Case]:
    """Writes that must take turns on one night's lock, each pair sent at once (a database that
    takes concurrent writers only): the count-only switch with a hand, an adjustment or a
    count; a count or an adjustment with the night's close; a round's close with a rebuy or an
    add-on. No answer is a 5xx (a 503 is one), one of the switch's pairs is refused in words,
    nothing is recorded after the close, and the books add up."""

    def switch(night: Night) -> Callable[[], HttpResponseBase]:
        client = user_client(night.host)
        url = reverse("ledger:count_setup", args=[night.event.pk])
        return lambda: client.post(url, {"denominations": "5 25 100", "count_only": "on"})

    def count_only(night: Night) -> bool:
        return CountSetup.objects.filter(event=night.event, count_only=True).exists()

    def adjust(night: Night) -> Callable[[], HttpResponseBase]:
        client = user_client(night.host)
        url = reverse("ledger:adjustment_add", args=[night.event.pk])
        data = {"guest": night.guests[0].pk, "amount": "50", "reason": "short",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        return lambda: client.post(url, data)

    def counted(night: Night) -> Callable[[], HttpResponseBase]:
        count_services.chips_record(event=night.event, guest=night.guests[0], kind="buy_in",
                                    chips=Decimal(500), source="cash", by=night.host)  # fmt: skip
        client = user_client(night.host)
        url = reverse("ledger:chips_add", args=[night.event.pk])
        data = {"kind": "count", "guest": str(night.guests[0].pk), "total": "300",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        return lambda: client.post(url, data)

    def switch_and_hand() -> str:
        night = Night(f"{tag}s{uuid.uuid4().hex[:4]}")
        hand = user_client(night.host)
        data = night.hand_data(result="tie", stake_1_tie="10")
        answers = race(
            lambda: hand.post(reverse("ledger:hand_record", args=[night.shoe.pk]), data),
            switch(night),
        )
        done = [Hand.objects.filter(shoe=night.shoe).exists(), count_only(night)]
        return _race_outcome(answers, done, one=True)

    def switch_and_adjustment() -> str:
        night = Night(f"{tag}a{uuid.uuid4().hex[:4]}")
        answers = race(adjust(night), switch(night))
        done = [Adjustment.objects.filter(event=night.event).exists(), count_only(night)]
        return _race_outcome(answers, done, one=True)

    def count_and_switch() -> str:
        night = Night(f"{tag}c{uuid.uuid4().hex[:4]}")
        answers = race(counted(night), switch(night))
        counts = ChipMove.objects.filter(event=night.event, kind="count")
        return _race_outcome(answers, [counts.exists(), count_only(night)], one=False)

    def at_the_close(write: Callable[[Night], Callable[[], HttpResponseBase]]) -> Callable[[], str]:
        def run() -> str:
            night = Night(f"{tag}z{uuid.uuid4().hex[:4]}")
            night_services.shoe_close(shoe=night.shoe, by=night.host)
            closer = user_client(night.host)
            url = reverse("ledger:event_close", args=[night.event.pk])
            rows = [ChipMove.objects.filter(event=night.event, kind="count"),
                    Adjustment.objects.filter(event=night.event)]  # fmt: skip
            answers = race(write(night), lambda: closer.post(url))
            closed_at = Event.objects.get(pk=night.event.pk).closed_at
            late = [row for query in rows for row in query
                    if closed_at is not None and row.recorded_at > closed_at]  # fmt: skip
            if late:
                return f"wrong: {len(late)} rows recorded after the close"
            return _race_outcome(answers, [any(q.exists() for q in rows), closed_at is not None],
                                 one=False)  # fmt: skip

        return run

    def round_close_and(kind: str) -> Callable[[], str]:
        def run() -> str:
            made = uuid.uuid4().hex[:6]
            host = User.objects.get(pk=night_host.pk)
            cup = tournament_services.tournament_create(
                name=f"Race cup {made}", date=date(2026, 11, 24), by=host,
                entry_fee=Decimal(50), cut_percent=Decimal(0), rebuy_price=Decimal(40),
                rebuy_chips=Decimal(1000), rebuy_rounds=1, max_rebuys=3,
                add_on_price=Decimal(20), add_on_chips=Decimal(500), add_on_round=1,
            )  # fmt: skip
            aki = tournament_services.entrant_add(tournament=cup, name=f"Aki {made}", by=host)
            tournament_services.entrant_add(tournament=cup, name=f"Ben {made}", by=host)
            round_ = tournament_services.round_add(
                tournament=cup, by=host, hands=1, table_min=Decimal(10),
                table_max=Decimal(1000), bet_unit=Decimal(10), is_final=True,
            )  # fmt: skip
            tournament_services.round_draw(round_=round_, by=host, seed=1)
            tournament_services.round_start(round_=round_, by=host)
            table = round_.tables.get()
            seat = table.seats.get(entrant=aki).seat
            play(table, host, "player", {seat: ("banker", "10")})
            buyer, closer = user_client(host), user_client(host)
            buy = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, aki.pk])
            close = reverse("tournaments:round_close", args=[round_.pk])
            rows = StackRow.objects.filter(event=table.event, kind=kind)
            answers = race(lambda: buyer.post(buy), lambda: closer.post(close))
            closed = Round.objects.get(pk=round_.pk).closed_at is not None
            return _race_outcome(answers, [rows.exists(), closed], one=False)

        return run

    night_host = Night(f"{tag}h").host
    for _ in range(count):
        yield Case("night races", "the count-only switch and a hand at once", switch_and_hand)
        yield Case("night races", "the count-only switch and an adjustment at once",
                   switch_and_adjustment)  # fmt: skip
        yield Case("night races", "a count and the count-only switch at once", count_and_switch)
        yield Case("night races", "a count and the night's close at once", at_the_close(counted))
        yield Case("night races", "an adjustment and the night's close at once",
                   at_the_close(adjust))  # fmt: skip
        yield Case("night races", "the final's close and a rebuy at once", round_close_and("rebuy"))
        yield Case("night races", "the final's close and an add-on at once",
                   round_close_and("add_on"))  # fmt: skip


# --- the race matrix's pairs ----------------------------------------------------------------


def matrix_cases(count: int) -> Iterator[Case]:
    """``count`` pairs of the race matrix's sample (``tests/races``), each once on a fresh night
    (a database that takes concurrent writers only): an error escaping or a 5xx is a crash; a
    deadlock left after the retry, a write acknowledged but absent or twice, refused but there,
    or ``check_ledger``'s problem is wrong."""
    from tests.races.__main__ import SMOKE
    from tests.races.moves import BY_NAME
    from tests.races.runner import kind_for, run_pair, watching

    def case(a_name: str, b_name: str) -> Callable[[], str]:
        def run() -> str:
            watching()
            a, b = BY_NAME[a_name], BY_NAME[b_name]
            kind = kind_for(a, b)
            assert kind is not None
            done = run_pair(a, b, kind)
            if done.errors:
                return f"crashed: {done.errors[0]}"[:200]
            if done.deadlocks:
                return f"wrong: {done.deadlocks} deadlocks left after the retry"
            if done.wrong or done.ledger:
                return f"wrong: {[*done.wrong, *done.ledger][0]}"[:200]
            return "accepted" if all(a.startswith("done") for a in done.answers) else "refused"

        return run

    for n in range(count):
        a_name, b_name = SMOKE[n % len(SMOKE)].split("/")
        yield Case("matrix", f"{a_name} / {b_name}", case(a_name, b_name))
