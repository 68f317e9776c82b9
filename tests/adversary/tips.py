"""The dealers' tips and the tab under attack: tips odd, huge, negative or not numbers, from a
hand the guest did not win or another night's, for a guest not on the list; a double tap; a
dealer recording a tip, stopping another's shift or starting one in another's name; a guest or
a dealer reading the shares of others; a tab named on a cash settlement. Each must be refused
with its reason (or a 403) and nothing recorded, or accepted and recorded once, with
``check_ledger`` clean after."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal

from django.contrib.auth.models import Group, User
from django.urls import reverse

from ledger.models import DealerShift, Guest, Settlement, Tip
from ledger.tips import services as tip_services
from ledger.tips.selectors import night_pool
from shoebook.base.roles import DEALERS
from tests.adversary.ground import Case, Night, ledger_problems, page_text, user_client

ODD_TIPS = ("", " ", "-5", "−5", "0", "0.001", "1e30", "NaN", "inf", "12,5", "1_000", "10" * 12,
            "<b>5</b>", "=SUM(A1)", "0x10", "５", "5.00", "1,000")  # fmt: skip
VALID_TIPS = {"５", "5.00", "1,000"}


def _rows() -> int:
    return Tip.objects.count() + DealerShift.objects.count() + Settlement.objects.count()


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


def _dealer(name: str) -> User:
    user = User.objects.create_user(name, password="x")
    user.groups.add(Group.objects.get_or_create(name=DEALERS)[0])
    return user


def tip_cases(night: Night, rng: random.Random, size: int, tag: str) -> Iterator[Case]:
    client, event = night.client, night.event
    url = reverse("ledger:tip_add", args=[event.pk])
    guest = night.guests[0]

    def tip(**fields: str) -> Callable[[], object]:
        data = {"guest": str(guest.pk), "amount": "5", "source": "money",
                "idempotency_key": str(uuid.uuid4())} | fields  # fmt: skip
        return lambda: client.post(url, data)

    for text in rng.sample(ODD_TIPS, min(size, len(ODD_TIPS))):
        yield Case(
            "tips", f"tip {text!r}", _judged(tip(amount=text), should_accept=text in VALID_TIPS)
        )
    won = night.save(**{"player_cards": "9 7", "banker_cards": "J J 10", "stake_1_player": "20"})
    assert won < 400
    hand = event.shoes.get().hands.order_by("-number").first()
    assert hand is not None
    for label, fields in (
        ("an unknown source", {"source": "iou"}),
        ("no key", {"idempotency_key": ""}),
        ("a guest not on the list", {"guest": "99999999"}),
        ("a guest id that is text", {"guest": "abc"}),
        ("a hand that is not one", {"source": "hand_win", "hand": "99999999"}),
        ("more than the hand won", {"source": "hand_win", "hand": str(hand.pk), "amount": "21"}),
        ("a hand the guest did not bet on",
         {"source": "hand_win", "hand": str(hand.pk), "guest": str(night.guests[3].pk)}),
        ("a hand named on a money tip", {"hand": str(hand.pk)}),
        ("a control character in the note", {"note": "a\u0007b"}),
    ):  # fmt: skip
        yield Case("tips", label, _judged(tip(**fields), should_accept=False))
    yield Case("tips", "a tip from the hand's win", _judged(
        tip(source="hand_win", hand=str(hand.pk), amount="20"), should_accept=True))  # fmt: skip
    yield Case("tips", "a double tap", _double_tap(night))
    yield Case("tips", "roles", _roles(night, tag))
    yield Case("tips", "a tab on a cash settlement", _tab(night))


def _double_tap(night: Night) -> Callable[[], str]:
    def run() -> str:
        url = reverse("ledger:tip_add", args=[night.event.pk])
        data = {"guest": str(night.guests[1].pk), "amount": "3", "source": "chips",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        before = Tip.objects.count()
        answers = [night.client.post(url, data).status_code for _ in range(2)]
        if max(answers) >= 500:
            return "crashed"
        added = Tip.objects.count() - before
        return "accepted" if added == 1 else f"wrong: a double tap recorded {added} rows"

    return run


def _roles(night: Night, tag: str) -> Callable[[], str]:
    """Only hosts record tips; a dealer starts and stops only their own shift and reads only
    their own share; a guest's login reads no share."""

    def run() -> str:
        event = night.event
        first, second = _dealer(f"tipped-a-{tag}"), _dealer(f"tipped-b-{tag}")
        shift = tip_services.shift_start(event=event, dealer=second, by=night.host)
        tip_services.tip_record(
            event=event, guest=night.guests[2], amount=Decimal("9.99"), source="money",
            by=night.host,
        )  # fmt: skip
        dealer = user_client(first)
        before = _rows()
        data = {"guest": str(night.guests[2].pk), "amount": "5", "source": "money",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        if dealer.post(reverse("ledger:tip_add", args=[event.pk]), data).status_code != 403:
            return "wrong: a dealer recorded a tip"
        if dealer.post(reverse("ledger:shift_stop", args=[shift.pk])).status_code != 403:
            return "wrong: a dealer stopped another dealer's shift"
        if _rows() != before:
            return "wrong: a refused request recorded a row"
        # A dealer naming another dealer starts their own shift, never the other's.
        dealer.post(reverse("ledger:shift_add", args=[event.pk]), {"dealer": str(second.pk)})
        if DealerShift.objects.filter(dealer=second).count() != 1:
            return "wrong: a dealer started a shift in another's name"
        own = page_text(dealer.get(reverse("ledger:dealer_tips")))
        shares = {s.dealer_id: s.amount for s in night_pool(event).shares}
        if f"{shares[second.pk]:.2f}" in own and shares[second.pk] != shares[first.pk]:
            return "wrong: a dealer read another dealer's share"
        login = User.objects.create_user(f"tipped-guest-{tag}", password="x")
        Guest.objects.filter(pk=night.guests[2].pk).update(user=login)
        reader = user_client(login)
        for name, args in (("ledger:tips_page", [event.pk]), ("ledger:dealer_tips", [])):
            if reader.get(reverse(name, args=args)).status_code != 403:
                return f"wrong: a guest read {name}"
        return "refused"

    return run


def _tab(night: Night) -> Callable[[], str]:
    url = reverse("ledger:settlement_record", args=[night.event.pk])

    def post(**fields: str) -> Callable[[], object]:
        data = {
            "guest": str(night.guests[4].pk),
            "direction": "guest_paid",
            "amount": "10",
            "method": "cash",
            "confirm": "on",
            "idempotency_key": str(uuid.uuid4()),
        } | fields
        return lambda: night.client.post(url, data)  # fmt: skip

    def run() -> str:
        for fields in ({"tab_reference": "Tab 9"}, {"method": "tab", "tab_reference": "T\u200b9"}):
            outcome = _judged(post(**fields), should_accept=False)()
            if outcome != "refused":
                return outcome
        return _judged(post(method="tab", tab_reference="Tab 9"), should_accept=True)()

    return run
