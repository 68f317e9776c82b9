"""A tournament's rebuys and add-ons, checked against the rules they were bought under.

Registered with ``ledger.integrity`` (see ``TournamentsConfig.ready``), so ``check_ledger``
reports them with everything else. Each rebuy must fall in the rebuy window (its round, and by
the hand its table had reached), within the most rebuys a player may buy, and be bought while the
player's stack at the table, as its rows and the hands before it had left it, was under the
starting stack; each add-on in the add-on round, once; and each with its fee charged. What a
restored or edited file claims is held to what the services allow. A fixed number of queries,
however many tables and hands.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.db.models import Count, F

from games.models import Event
from ledger.integrity import LedgerProblem
from ledger.models import Bet, Charge, StackRow
from ledger.money.amounts import ZERO

MSG_REBUY_WINDOW = "the rebuy falls outside the tournament's rebuy window"
MSG_REBUY_COUNT = "the player has more rebuys than the tournament allows"
MSG_REBUY_STACK = "the rebuy was bought with a stack at or over the starting stack"
MSG_REBUY_CHIPS = "its chips are not the tournament's rebuy chips"
MSG_ADD_ON_ROUND = "the add-on falls outside the tournament's add-on round"
MSG_ADD_ON_COUNT = "the player has more than one add-on"
MSG_ADD_ON_CHIPS = "its chips are not the tournament's add-on chips"
MSG_NOT_PAID = "no fee was charged for it at the tournament's night"  # when it has a price

BOUGHT = (StackRow.Kind.REBUY, StackRow.Kind.ADD_ON)
TOURNAMENT = "event__tournament_table__round__tournament__"
Row = Mapping[str, Any]  # a bought row with its round's and tournament's rules beside it
Key = tuple[int, int]  # (table's event, guest)


def stack_row_problems(event: Event | None = None) -> list[LedgerProblem]:
    """The rebuys and add-ons that break their tournament's rules (of one table, if given)."""
    rows = StackRow.objects.order_by("pk")
    if event is not None:
        rows = rows.filter(event=event)
    bought = list(
        rows.filter(kind__in=BOUGHT).values(
            "pk", "event_id", "guest_id", "kind", "chips", "after_hand",
            round_number=F("event__tournament_table__round__number"),
            tournament=F(f"{TOURNAMENT}id"),
            rebuy_rounds=F(f"{TOURNAMENT}rebuy_rounds"),
            rebuy_until_hand=F(f"{TOURNAMENT}rebuy_until_hand"),
            max_rebuys=F(f"{TOURNAMENT}max_rebuys"),
            rebuy_chips=F(f"{TOURNAMENT}rebuy_chips"),
            add_on_round=F(f"{TOURNAMENT}add_on_round"),
            add_on_chips=F(f"{TOURNAMENT}add_on_chips"),
            rebuy_price=F(f"{TOURNAMENT}rebuy_price"),
            add_on_price=F(f"{TOURNAMENT}add_on_price"),
            starting_stack=F(f"{TOURNAMENT}starting_stack"),
        )
    )  # fmt: skip
    if not bought:
        return []
    tables = {row["event_id"] for row in bought}
    stack_rows: dict[Key, list[tuple[int, int, Decimal]]] = defaultdict(list)
    for pk, table, guest, after_hand, chips in StackRow.objects.filter(
        event_id__in=tables
    ).values_list("pk", "event_id", "guest_id", "after_hand", "chips"):
        stack_rows[table, guest].append((pk, after_hand, chips))
    results: dict[Key, list[tuple[int, Decimal]]] = defaultdict(list)  # (hand number, net)
    for table, guest, number, net in Bet.objects.filter(event_id__in=tables).values_list(
        "event_id", "guest_id", "hand__number", "net"
    ):
        results[table, guest].append((number, net))
    paid = _fees_charged({row["tournament"] for row in bought})
    problems: list[LedgerProblem] = []
    counts: Counter[tuple[int, int, str]] = Counter()
    for row in bought:
        counts[row["tournament"], row["guest_id"], row["kind"]] += 1
        count = counts[row["tournament"], row["guest_id"], row["kind"]]
        price = row["rebuy_price" if row["kind"] == StackRow.Kind.REBUY else "add_on_price"]
        if price and count > paid[row["tournament"], row["guest_id"], row["kind"]]:
            problems.append(LedgerProblem("StackRow", row["pk"], MSG_NOT_PAID))
        if row["kind"] == StackRow.Kind.REBUY:
            stack = _stack_before(row, stack_rows, results)
            findings = _rebuy_findings(row, count, stack)
        else:
            findings = _add_on_findings(row, count)
        problems += [LedgerProblem("StackRow", row["pk"], *finding) for finding in findings]
    return problems


def _fees_charged(tournaments: set[int]) -> Counter[tuple[int, int, str]]:
    """How many rebuy and add-on fees each player was charged, per tournament. One query."""
    charged = (
        Charge.objects.filter(event__tournament__in=tournaments, kind__in=BOUGHT)
        .values_list("event__tournament", "guest_id", "kind")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return Counter({(tournament, guest, kind): n for tournament, guest, kind, n in charged})


def _stack_before(
    row: Row,
    stack_rows: Mapping[Key, list[tuple[int, int, Decimal]]],
    results: Mapping[Key, list[tuple[int, Decimal]]],
) -> Decimal:
    """The player's stack at the table when the rebuy was bought: the rows before it and the
    hands up to the one it came after."""
    key = row["event_id"], row["guest_id"]
    chips = sum((amount for pk, after, amount in stack_rows[key] if pk < row["pk"]), start=ZERO)
    played = sum((net for number, net in results[key] if number <= row["after_hand"]), start=ZERO)
    return chips + played


def _rebuy_findings(row: Row, count: int, stack: Decimal) -> list[tuple[str, str, str]]:
    findings = []
    in_round = row["rebuy_rounds"] >= row["round_number"]
    in_hands = not row["rebuy_until_hand"] or row["after_hand"] <= row["rebuy_until_hand"]
    if not (in_round and in_hands and row["rebuy_chips"]):
        window = f"round ≤ {row['rebuy_rounds']}, after hand ≤ {row['rebuy_until_hand'] or '—'}"
        found = f"round {row['round_number']}, after hand {row['after_hand']}"
        findings.append((MSG_REBUY_WINDOW, window, found))
    if count > row["max_rebuys"]:
        findings.append((MSG_REBUY_COUNT, f"≤ {row['max_rebuys']}", str(count)))
    if stack >= row["starting_stack"]:
        findings.append((MSG_REBUY_STACK, f"< {row['starting_stack']}", str(stack)))
    if row["chips"] != row["rebuy_chips"]:
        findings.append((MSG_REBUY_CHIPS, str(row["rebuy_chips"]), str(row["chips"])))
    return findings


def _add_on_findings(row: Row, count: int) -> list[tuple[str, str, str]]:
    findings = []
    if row["add_on_round"] != row["round_number"] or not row["add_on_chips"]:
        expected = f"round {row['add_on_round'] or '—'}"
        findings.append((MSG_ADD_ON_ROUND, expected, f"round {row['round_number']}"))
    if count > 1:
        findings.append((MSG_ADD_ON_COUNT, "1", str(count)))
    if row["chips"] != row["add_on_chips"]:
        findings.append((MSG_ADD_ON_CHIPS, str(row["add_on_chips"]), str(row["chips"])))
    return findings
