"""The tips and the tab check themselves, for ``check_ledger``: each row against what it must be,
recomputed from the rows in bulk (a fixed number of queries).

A night with tips is zero-sum with its pool: the guests' net (their results and, minus, their
tips) plus the house's net plus the dealers' pool is zero. The results and the house are checked
by the totals; here, that the pool the pages show is the sum of the tip rows, that the guests'
tip lines the balances read are minus those rows, and that the shares add up to the pool.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from games.models import Event, Hand
from ledger.models import Bet, EventGuest, Settlement, Tip
from ledger.money.amounts import money_sum
from ledger.money.lines import LineKind, ledger_lines
from ledger.money.services import content_digest
from ledger.tips.selectors import pools

ZERO = Decimal(0)

MSG_VOID_NOT_OPPOSITE = "its void is not its exact opposite"
MSG_NOT_ON_LIST = "its guest is not on its night's list"
MSG_HAND_ELSEWHERE = "its hand is not one of its night's"
MSG_MORE_THAN_WON = "its guest's tips from the hand are more than they won on it"
MSG_DIGEST = "what it records is not what its key recorded"
MSG_POOL = "the night's tips pool is not the sum of its tips"
MSG_TIP_LINES = "the guests' tip lines are not minus the night's tips"
MSG_SHARES = "the dealers' shares do not add up to the night's pool"
MSG_TAB_REFERENCE = "it names a tab but was not settled against the tab"
MSG_TAB_VOID = "its void names another tab than the settlement it voids"

Problem = tuple[str, int, str, str, str]


def _text(amount: Decimal) -> str:
    return f"{amount:.2f}"


def tip_problems(scope: Event | None) -> list[Problem]:
    """Each broken tip, pool or tab row as (model, primary key, what is wrong, expected, found)."""
    problems: list[Problem] = []
    tips = Tip.objects.order_by("pk")
    lists = EventGuest.objects.all()
    settlements = Settlement.objects.order_by("pk")
    if scope is not None:
        tips, lists = tips.filter(event=scope), lists.filter(event=scope)
        settlements = settlements.filter(event=scope)
    rows = {tip.pk: tip for tip in tips}
    listed = set(lists.values_list("event_id", "guest_id"))
    hand_ids = {tip.hand_id for tip in rows.values() if tip.hand_id is not None}
    shoes = dict(Hand.objects.filter(pk__in=hand_ids).values_list("id", "shoe__event_id"))
    won = {
        (hand_id, guest_id): amount
        for hand_id, guest_id, amount in Bet.objects.filter(hand_id__in=hand_ids)
        .values_list("hand_id", "guest_id")
        .annotate(n=money_sum("net"))
        .order_by()
    }
    from_hands: dict[tuple[int, int], list[Tip]] = defaultdict(list)
    raw: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for tip in rows.values():
        if tip.hand_id is not None:
            from_hands[(tip.hand_id, tip.guest_id)].append(tip)
        digest = content_digest(
            tip.event_id, tip.guest_id, tip.amount, tip.source, tip.hand_id or "", tip.note
        )
        if tip.content_digest and tip.content_digest != digest:
            problems.append(("Tip", tip.pk, MSG_DIGEST, tip.content_digest[:12], digest[:12]))
        raw[tip.event_id] += tip.amount
        if (tip.event_id, tip.guest_id) not in listed:
            problems.append(("Tip", tip.pk, MSG_NOT_ON_LIST, "on the list", "not on it"))
        if tip.hand_id is not None and shoes.get(tip.hand_id) != tip.event_id:
            problems.append(("Tip", tip.pk, MSG_HAND_ELSEWHERE, f"event {tip.event_id}", "other"))
        original = rows.get(tip.voids_id) if tip.voids_id is not None else None
        if original is not None:
            same = (original.event_id, original.guest_id, original.source, -original.amount)
            if same != (tip.event_id, tip.guest_id, tip.source, tip.amount):
                expected = _text(-original.amount)
                problems.append(("Tip", tip.pk, MSG_VOID_NOT_OPPOSITE, expected, _text(tip.amount)))
    for key, tipped in sorted(from_hands.items()):
        total = sum((tip.amount for tip in tipped), ZERO)
        if total > won.get(key, ZERO):
            first = min(tip.pk for tip in tipped)
            problems.append(
                ("Tip", first, MSG_MORE_THAN_WON, _text(won.get(key, ZERO)), _text(total))
            )
    events = set(raw)
    if events:
        lines: dict[int, Decimal] = defaultdict(lambda: ZERO)
        nights = Event.objects.filter(pk__in=events)
        for line in ledger_lines(events=nights, kinds={LineKind.TIP}):
            assert line.event_id is not None
            lines[line.event_id] += line.amount
        for event_id, pool in sorted(pools(events).items()):
            if pool.total != raw[event_id]:
                problems.append(
                    ("Event", event_id, MSG_POOL, _text(raw[event_id]), _text(pool.total))
                )
            if lines[event_id] + raw[event_id] != 0:
                found = _text(lines[event_id])
                problems.append(("Event", event_id, MSG_TIP_LINES, _text(-raw[event_id]), found))
            shared = sum((share.amount for share in pool.shares), ZERO)
            if pool.shares and shared != pool.total:
                problems.append(("Event", event_id, MSG_SHARES, _text(pool.total), _text(shared)))
    by_id = {row.pk: row for row in settlements}
    for row in by_id.values():
        if row.tab_reference and row.method != Settlement.Method.TAB:
            problems.append(("Settlement", row.pk, MSG_TAB_REFERENCE, "no tab", row.tab_reference))
        voided = by_id.get(row.voids_id) if row.voids_id is not None else None
        if voided is not None and voided.tab_reference != row.tab_reference:
            expected = voided.tab_reference or "no tab"
            found = row.tab_reference or "no tab"
            problems.append(("Settlement", row.pk, MSG_TAB_VOID, expected, found))
    return problems
