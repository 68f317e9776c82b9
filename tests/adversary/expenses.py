"""Expenses under attack through the night's expense form: amounts zero, negative, huge, odd or
not numbers; shares naming a guest of another night or no one; weights of zero, too large or in
other scripts' digits; a guest's stack or the tray paid by the wrong side; odd unicode in what it
was; a double tap; a void twice. Each must be refused with its reason and nothing recorded, or
accepted and recorded once, its shares adding up to it, with ``check_ledger`` clean after."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator

from django.urls import reverse

from ledger.models import Expense, ExpenseShare
from tests.adversary.ground import Case, Night, ledger_problems, page_text

ODD_AMOUNTS = ("", "0", "-5", "−5", "0.001", "1e30", "NaN", "inf", "10" * 12, "<b>5</b>",
               "=SUM(A1)", "0x10", "99999999999999.99")  # fmt: skip
GOOD_AMOUNTS = ("50", "1,000", "１２", "0.03", "99999999999.99")
ODD_WHAT = ("", "   ", "pizza\u202e", "pizza\u200b", "a\nb", "x" * 201, "\x00", "piz\u0000za")
GOOD_WHAT = ("ピザとビール", "🍕 & 🍺", "Café <b>crème</b>", "=SUM(A1)", "Ω" * 200)
# A weight of 0 (or blank) is "not sharing"; every weight 0 is no sharer at all.
ODD_WEIGHTS = ("-1", "1.5", "①", "¹", "𝟗", "٣", "1001", "abc")


def _rows() -> int:
    return Expense.objects.count() + ExpenseShare.objects.count()


def _form(night: Night, **fields: str) -> dict[str, str]:
    return {
        "what": "Pizza",
        "amount": "60",
        "paid_by": "house",
        "paid_in": "money",
        "split": "equal",
        "idempotency_key": str(uuid.uuid4()),
    } | fields


def _judged(night: Night, data: dict[str, str], *, should_accept: bool) -> Callable[[], str]:
    url = reverse("ledger:expense_record", args=[night.event.pk])

    def run() -> str:
        before = _rows()
        response = night.client.post(url, data)
        code = response.status_code
        if code >= 500:
            return "crashed"
        added = _rows() - before
        if should_accept:
            if not added:
                return f"wrong: refused what must be accepted ({code})"
            expense = Expense.objects.latest("id")
            if sum(s.amount for s in expense.shares.all()) != expense.amount:
                return "wrong: the shares do not add up to the expense"
            if expense.what != data["what"].strip():
                return f"wrong: kept {expense.what!r} for {data['what']!r}"
            problems = ledger_problems()
            return f"wrong: {problems}" if problems else "accepted"
        if added:
            return f"wrong: recorded what must be refused ({code})"
        if code < 400 or "errorlist" not in page_text(response):
            return f"wrong: refused without saying why ({code})"
        return "refused"

    return run


def expense_cases(night: Night, tag: str) -> Iterator[Case]:
    guest = night.guests[0]
    share = f"share_{guest.pk}"
    for text in ODD_AMOUNTS:
        data = _form(night, amount=text, share_house="1")
        yield Case("expenses", f"amount {text!r}", _judged(night, data, should_accept=False))
    for text in GOOD_AMOUNTS:
        data = _form(night, amount=text, share_house="1", **{share: "1"})
        yield Case("expenses", f"amount {text!r}", _judged(night, data, should_accept=True))
    for text in ODD_WHAT:
        data = _form(night, what=text, share_house="1")
        yield Case("expenses", f"what {text[:20]!r}", _judged(night, data, should_accept=False))
    for text in GOOD_WHAT:
        data = _form(night, what=text, share_house="1")
        yield Case("expenses", f"what {text[:20]!r}", _judged(night, data, should_accept=True))
    for text in ODD_WEIGHTS:
        data = _form(night, split="shares", share_house="1", **{share: text})
        yield Case("expenses", f"weight {text!r}", _judged(night, data, should_accept=False))
    data = _form(night, split="shares", share_house="１", **{share: "2"})
    yield Case("expenses", "a guest and the house, 2:1", _judged(night, data, should_accept=True))
    for label, fields in (
        ("no sharer", {}),
        ("every weight blank", {share: "", "share_house": ""}),
        ("every weight 0", {share: "0", "share_house": "0", "split": "shares"}),
        ("a payer that is no guest", {"paid_by": "99999999", "share_house": "1"}),
        ("a payer id that is text", {"paid_by": "abc", "share_house": "1"}),
        ("the tray paid by a guest", {"paid_by": str(guest.pk), "paid_in": "tray",
                                      "share_house": "1"}),
        ("a stack paid by the house", {"paid_in": "stack", "share_house": "1"}),
        ("an unknown way to pay", {"paid_in": "iou", "share_house": "1"}),
        ("an unknown split", {"split": "half", "share_house": "1"}),
        ("a share box of no guest", {"share_99999999": "1"}),
        ("a share box that is text", {"share_abc": "1", "share_house": "1"}),
        ("no key", {"idempotency_key": "", "share_house": "1"}),
    ):  # fmt: skip
        yield Case("expenses", label, _judged(night, _form(night, **fields), should_accept=False))
    yield Case("expenses", "a sharer of another night", _stranger(night, tag))
    yield Case("expenses", "a double tap", _double_tap(night))
    yield Case("expenses", "a void twice", _void_twice(night))


def _stranger(night: Night, tag: str) -> Callable[[], str]:
    def run() -> str:
        other = Night(f"{tag}x")
        stranger = other.guests[0]
        data = _form(night, share_house="1", **{f"share_{stranger.pk}": "1"})
        outcome = _judged(night, data, should_accept=False)()
        if outcome != "refused":
            return outcome
        payer = _form(night, paid_by=str(stranger.pk), share_house="1")
        return _judged(night, payer, should_accept=False)()

    return run


def _double_tap(night: Night) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:expense_record", args=[night.event.pk])
        data = _form(night, everyone="on")
        before = Expense.objects.count()
        answers = [night.client.post(url, data).status_code for _ in range(2)]
        if max(answers) >= 500:
            return "crashed"
        added = Expense.objects.count() - before
        return "accepted" if added == 1 else f"wrong: a double tap recorded {added} expenses"

    return run


def _void_twice(night: Night) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:expense_record", args=[night.event.pk])
        night.client.post(url, _form(night, what="Taxi", share_house="1"))
        bought = Expense.objects.filter(what="Taxi", event=night.event).first()
        if bought is None:
            return "wrong: a good expense was refused"
        void_url = reverse("ledger:expense_void", args=[bought.pk])
        answers = [night.client.post(void_url, {"reason": reason}).status_code
                   for reason in ("", "wrong night", "twice")]  # fmt: skip
        if max(answers) >= 500:
            return "crashed"
        if Expense.objects.filter(voids=bought).count() != 1:
            return "wrong: the void was not recorded exactly once"
        problems = ledger_problems()
        return f"wrong: {problems}" if problems else "accepted"

    return run


__all__ = ["expense_cases"]
