"""The count's forms under attack: chips by denomination and as a total (amounts odd, huge,
negative, not numbers, denominations the night does not have), how they were paid, adjustments,
voids and the settings; pages opened before the night closed, a guest merged away, a double tap.
Each must be refused with its reason and nothing recorded, or accepted and recorded once, with
``check_ledger`` clean after."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal

from django.urls import reverse

from games.entry import BetEntry, HandEntry
from ledger.count import services as count_services
from ledger.hands import services as hand_services
from ledger.models import Adjustment, ChipMove, CountSetup
from ledger.nights import services as night_services
from tests.adversary.ground import Case, Night, ledger_problems, page_text

ODD_AMOUNTS = (
    "", " ", "-5", "−5", "0", "0.001", "1e30", "NaN", "inf", "１２", "12,5", "1_000", "10" * 12,
    "<b>5</b>", "=SUM(A1)", "5;DROP", "0x10", "１,０００", "50.00", "1,000",
)  # fmt: skip
# Digits int() or str.isdigit() takes that are no 0-9: circled, superscript, subscript, the
# mathematical alphabets', other scripts'. Full-width ones (a Japanese phone's) are read.
ODD_NUMBERS = ("", "-1", "1.5", "abc", "10001", "٣", "1e3", "  7 ", "0", "12", "①", "¹²", "₃",
               "𝟗", "⑩", "𝟓", "३", "１２")  # fmt: skip
VALID_AMOUNTS = {"50.00", "1,000", "１２", "１,０００"}  # what read_amount takes as an amount
VALID_NUMBERS = {"", "0", "12", "  7 ", "１２"}  # whole numbers in ASCII or full-width


def _rows() -> int:
    return ChipMove.objects.count() + Adjustment.objects.count() + CountSetup.objects.count()


def _judged(post: Callable[[], object], *, should_accept: bool) -> Callable[[], str]:
    def run() -> str:
        before = _rows()
        response = post()
        code = getattr(response, "status_code", 500)
        if code >= 500:
            return "crashed"
        added = _rows() - before
        if should_accept:
            if added < 1:
                return f"wrong: refused what must be accepted ({code})"
            problems = ledger_problems()
            return f"wrong: {problems}" if problems else "accepted"
        if added:
            return f"wrong: recorded what must be refused ({code})"
        if code < 400 and "errorlist" not in page_text(response):  # type: ignore[arg-type]
            return f"wrong: refused without saying why ({code})"
        return "refused"

    return run


def count_cases(night: Night, rng: random.Random, size: int) -> Iterator[Case]:
    client, event = night.client, night.event
    chips_url = reverse("ledger:chips_add", args=[event.pk])
    guest = night.guests[0]

    def chips(kind: str, **fields: str) -> Callable[[], object]:
        data = {"kind": kind, "guest": str(guest.pk), "idempotency_key": str(uuid.uuid4())}
        return lambda: client.post(chips_url, data | fields)

    for text in rng.sample(ODD_AMOUNTS, min(size, len(ODD_AMOUNTS))):
        good = text in VALID_AMOUNTS
        counted = good or text == "0"  # a count may find nothing left; a buy-in may not
        yield Case(
            "counts", f"total {text!r}", _judged(chips("count", total=text), should_accept=counted)
        )
        yield Case(
            "counts",
            f"buy-in {text!r}",
            _judged(chips("buy_in", total=text, source="cash"), should_accept=good),
        )
    for text in ODD_NUMBERS:
        # A box of 25s holding ``text`` beside a box of 100s holding 1: accepted when it reads
        # as a whole number from 0 to 10,000.
        yield Case(
            "counts",
            f"25s {text!r}",
            _judged(chips("count", n_100="1", n_25=text), should_accept=text in VALID_NUMBERS),
        )
    for label, fields in (
        ("unknown kind", {"kind": "steal"}),
        ("a denomination not in the set", {"n_7": "2"}),
        ("no source on a buy-in", {"kind": "buy_in"}),
        ("an unknown source", {"kind": "buy_in", "source": "iou"}),
        ("the tray with a guest", {"kind": "tray"}),
        ("a guest that is not one", {"guest": "99999999"}),
        ("a guest id that is text", {"guest": "abc"}),
        ("no key", {"idempotency_key": ""}),
        ("a total and boxes that disagree", {"n_100": "2", "total": "250"}),
        ("a page total of sNaN", {"seen_counted": "sNaN"}),
        ("a page total of NaN", {"seen_counted": "NaN"}),
        ("a page total of Infinity", {"seen_counted": "-Infinity"}),
        ("a page total in other digits", {"seen_counted": "𝟎"}),
    ):
        data = {"total": "100"} | fields
        kind = data.pop("kind", "count")
        yield Case("counts", label, _judged(chips(kind, **data), should_accept=False))
    yield Case("counts", "a double tap", _double_tap(night))
    yield Case("counts", "adjustments", _adjustments(night))
    yield Case("counts", "settings", _settings(night))
    yield Case(
        "counts", "a page opened before the close", _after_close(Night(f"{night.host.username}z"))
    )


def _double_tap(night: Night) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:chips_add", args=[night.event.pk])
        data = {"kind": "count", "guest": str(night.guests[1].pk), "total": "300",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        before = ChipMove.objects.count()
        answers = [night.client.post(url, data).status_code for _ in range(2)]
        if max(answers) >= 500:
            return "crashed"
        added = ChipMove.objects.count() - before
        return "accepted" if added == 1 else f"wrong: a double tap recorded {added} rows"

    return run


def _adjustments(night: Night) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:adjustment_add", args=[night.event.pk])
        guest = night.guests[2].pk
        for amount, reason in (("0", "x"), ("abc", "x"), ("40", ""), ("40", "a\u202ereason"),
                               ("1e30", "x"), ("-0.001", "x")):  # fmt: skip
            before = Adjustment.objects.count()
            response = night.client.post(
                url,
                {
                    "guest": guest,
                    "amount": amount,
                    "reason": reason,
                    "idempotency_key": str(uuid.uuid4()),
                },
            )
            if response.status_code >= 500:
                return "crashed"
            if Adjustment.objects.count() != before:
                return f"wrong: booked {amount!r} / {reason!r}"
        response = night.client.post(
            url,
            {
                "guest": guest,
                "amount": "−40",
                "reason": "lost chips",
                "idempotency_key": str(uuid.uuid4()),
            },
        )
        booked = Adjustment.objects.filter(guest_id=guest).first()
        if booked is None or response.status_code >= 400:
            return f"wrong: a good adjustment was refused ({response.status_code})"
        void_url = reverse("ledger:adjustment_void", args=[booked.pk])
        night.client.post(void_url, {"reason": ""})
        night.client.post(void_url, {"reason": "found it"})
        night.client.post(void_url, {"reason": "twice"})
        if Adjustment.objects.filter(voids=booked).count() != 1:
            return "wrong: the void was not recorded exactly once"
        problems = ledger_problems()
        return f"wrong: {problems}" if problems else "accepted"

    return run


def _settings(night: Night) -> Callable[[], str]:
    def run() -> str:
        hand_services.record_hand(
            shoe=night.shoe,
            number=hand_services.next_hand_number(night.shoe),
            entry=HandEntry(result="player", bets=(BetEntry(1, "player", Decimal(10)),)),
            by=night.host,
        )
        url = reverse("ledger:count_setup", args=[night.event.pk])
        for data in (
            {"denominations": "5 5"},
            {"denominations": "x"},
            {"denominations": ""},
            {"denominations": "1 5", "opening_float": "-1"},
            {"denominations": "1 " * 20},
            {"denominations": "1 5", "count_only": "on"},
        ):  # a night with hands
            response = night.client.post(url, data)
            if response.status_code >= 500:
                return "crashed"
            if CountSetup.objects.filter(event=night.event, count_only=True).exists():
                return "wrong: a night with hands became count-only"
        return "refused"

    return run


def _after_close(night: Night) -> Callable[[], str]:
    def run() -> str:
        count_services.setup_of(night.event)
        night_services.shoe_close(shoe=night.shoe, by=night.host)
        night_services.event_close(event=night.event, by=night.host)
        url = reverse("ledger:chips_add", args=[night.event.pk])
        data = {"kind": "count", "guest": str(night.guests[0].pk), "total": "100",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        before = ChipMove.objects.count()
        response = night.client.post(url, data)
        if response.status_code >= 500:
            return "crashed"
        if ChipMove.objects.count() != before:
            return "wrong: chips recorded at a closed night"
        return "refused" if "reopen it" in page_text(response) else "wrong: no reason given"

    return run
