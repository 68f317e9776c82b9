"""The ledger checks itself: every invariant recomputed from the raw rows.

:func:`check_ledger` reads the rows in bulk (a fixed number of queries, however many events,
hands or bets), recomputes in Python what they must agree on, and returns each row that does
not as a :class:`LedgerProblem` (model, primary key, what is wrong, expected and found):

1. Hands: stored cards are a complete hand under the drawing rules and the event's decks, and
   the stored winner and pair flags are the cards'. Bets: what the rules core pays
   (``Hand.outcome()``, ``resolve_bet``) under the event's rules; the bet's event is its hand's;
   its type is offered; its stake is within the table limits; its guest sat in that seat for
   that hand and is on the event's list.
2. Each bet's net is its gross less its commission, and the commission is not negative (the
   database's check constraints hold these too; :func:`bet_arithmetic_problems` is the check).
3. Zero-sum: per event, the house's net as the app reports it (``results.house_rows``, read from
   ``GuestEventResult``) plus the guests' net over the event's shoes (from the bets of its
   hands) is zero. A hand or a shoe keeps no figure of its own: its house net is minus its bets'
   net by definition, so the per-event sum is where the two sides can disagree.
4. ``GuestEventResult``: one row per guest and event with bets, each equal to the sums of the
   bets (missing, extra and wrong rows are named).
5. Balances as the app reads them (``results.guest_balances``; with one event, also that
   event's settlement list, ``results.event_settlement``) equal the guest's bets' nets plus
   their settlements (``Settlement.amount`` is what the guest paid the house) and the transfers
   between guests (``Transfer``: settled for the payer, owed back by the payee), less their tips
   (``Tip``: out of the guest's balance, counted with the night's result).
6. Seatings: no two seatings of one seat in a shoe, and no two of one guest in a shoe, cover a
   common hand; a seated guest is on the event's list.
7. Coups (Chemin de fer, Baccara banque): each is settled again through the one pipeline
   (``games.settle.settle``) from what is stored — its hand, its ``Coup`` row, the
   pontes' stakes, who sat where and the coup before it in the shoe — and its bets (the bank's
   side too), its ``Coup`` row and its hand's cards and winner must be what that settles. Invariant
   1's Punto Banco checks (drawing rules, payouts, table limits) do not apply to a coup.
8. The count (``ledger.count.integrity``): chips taken and counted, adjustments and nights kept
   by their count alone. A void is exactly its row's opposite, voided once; a count by
   denomination adds up to its chips; a guest's rows are at a night whose list has them; a night
   kept by its count alone has no hand. Its guests' results are their counts less their chips
   taken, and an adjustment is in its guest's result at its night: both join invariant 4's sums.
9. Expenses (``ledger.expenses.integrity``): an expense's shares add up to it exactly and are
   the odd cent's rule's (``ledger.expenses.shares``); the guests it names are on its night's
   list; it is not at a tournament table; a void is its row's exact opposite, shares and all.
   What each guest paid less their shares joins invariant 5's balances.
10. What the apps above the ledger register (:func:`register_check`): a tournament's rebuys and
   add-ons, each within its window and count, and each rebuy bought under the starting stack
   by the stack its hands had left (``tournaments.integrity``).
10. The dealers' tips and the tab (``ledger.tips.integrity``): a tip's guest is on its night's
   list, its hand is its night's and its guest's tips from a hand are at most what they won
   there, a void is its row's exact opposite, a keyed tip still records what its key recorded;
   per night the pool is the sum of the tips, the guests' tip lines are minus it (so guests' net
   + house's net + the pool is zero) and the dealers' shares add up to it. A settlement names a
   tab only when settled against the tab, and a void names its settlement's tab.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from games.models import Event
from ledger.integrity.balances import MSG_GUEST_BALANCE, MSG_SETTLEMENT_LINE, BalanceChecks
from ledger.integrity.coups import (
    MSG_COUP_BET,
    MSG_COUP_BET_EXTRA,
    MSG_COUP_BET_MISSING,
    MSG_COUP_HAND,
    MSG_COUP_MISSING,
    MSG_COUP_RECORD,
    MSG_COUP_UNSETTLED,
    CoupChecks,
)
from ledger.integrity.hands import (
    MSG_BET_COMMISSION,
    MSG_BET_COMMISSION_NEGATIVE,
    MSG_BET_EVENT,
    MSG_BET_GROSS,
    MSG_BET_NET,
    MSG_BET_NET_ARITHMETIC,
    MSG_BET_NOT_OFFERED,
    MSG_BET_NOT_SEATED,
    MSG_BET_SEAT,
    MSG_BET_STAKE,
    MSG_BET_TYPE,
    MSG_BET_UNSETTLED,
    MSG_HAND_BANKER_PAIR,
    MSG_HAND_CARDS,
    MSG_HAND_PLAYER_PAIR,
    MSG_HAND_RESULT,
    MSG_HAND_WINNER,
    SMALLEST_STAKE,
    HandChecks,
    bet_arithmetic_problems,
    bet_payout_problems,
    hand_problems,
)
from ledger.integrity.report import LedgerCheck, LedgerProblem, missing_result_key
from ledger.integrity.seating import (
    MSG_SEATING_GUEST_OVERLAP,
    MSG_SEATING_SEAT_OVERLAP,
    overlapping_seatings,
)
from ledger.integrity.state import BET_COLUMNS, MSG_EVENT_RULES, MSG_NOT_ON_LIST, BetRow
from ledger.integrity.totals import (
    MSG_EVENT_NOT_ZERO_SUM,
    MSG_RESULT_EXTRA,
    MSG_RESULT_MISSING,
    MSG_RESULT_TOTALS,
    TotalsChecks,
)
from ledger.models import Guest
from ledger.tips.integrity import tip_problems

__all__ = [
    "BET_COLUMNS",
    "MSG_BET_COMMISSION",
    "MSG_BET_COMMISSION_NEGATIVE",
    "MSG_BET_EVENT",
    "MSG_BET_GROSS",
    "MSG_BET_NET",
    "MSG_BET_NET_ARITHMETIC",
    "MSG_BET_NOT_OFFERED",
    "MSG_BET_NOT_SEATED",
    "MSG_BET_SEAT",
    "MSG_BET_STAKE",
    "MSG_BET_TYPE",
    "MSG_BET_UNSETTLED",
    "MSG_COUP_BET",
    "MSG_COUP_BET_EXTRA",
    "MSG_COUP_BET_MISSING",
    "MSG_COUP_HAND",
    "MSG_COUP_MISSING",
    "MSG_COUP_RECORD",
    "MSG_COUP_UNSETTLED",
    "MSG_EVENT_NOT_ZERO_SUM",
    "MSG_EVENT_RULES",
    "MSG_GUEST_BALANCE",
    "MSG_HAND_BANKER_PAIR",
    "MSG_HAND_CARDS",
    "MSG_HAND_PLAYER_PAIR",
    "MSG_HAND_RESULT",
    "MSG_HAND_WINNER",
    "MSG_NOT_ON_LIST",
    "MSG_RESULT_EXTRA",
    "MSG_RESULT_MISSING",
    "MSG_RESULT_TOTALS",
    "MSG_SEATING_GUEST_OVERLAP",
    "MSG_SEATING_SEAT_OVERLAP",
    "MSG_SETTLEMENT_LINE",
    "SMALLEST_STAKE",
    "BetRow",
    "LedgerCheck",
    "LedgerProblem",
    "bet_arithmetic_problems",
    "bet_payout_problems",
    "check_ledger",
    "hand_problems",
    "ledger_problems",
    "missing_result_key",
    "overlapping_seatings",
    "register_check",
]

# Checks of rows the ledger keeps for the apps above it (a tournament's rebuys and add-ons
# against its stacks): each app registers its own from its AppConfig.ready(), since the ledger
# does not import the apps that stand on it.
LedgerCheckFunction = Callable[[Event | None], Iterable[LedgerProblem]]
REGISTERED_CHECKS: list[LedgerCheckFunction] = []


def register_check(check: LedgerCheckFunction) -> LedgerCheckFunction:
    if check not in REGISTERED_CHECKS:
        REGISTERED_CHECKS.append(check)
    return check


def check_ledger(event: Event | None = None) -> LedgerCheck:
    """Recompute every invariant (of one event, if given) from the rows; see the module's doc."""
    report = _Checker(event).run()
    for check in REGISTERED_CHECKS:
        report.problems.extend(check(event))
    return report


def ledger_problems(event: Event | None = None) -> list[LedgerProblem]:
    return check_ledger(event).problems


class _Checker(HandChecks, CoupChecks, TotalsChecks, BalanceChecks):
    """Every invariant, in the order each needs the rows the others load."""

    def run(self) -> LedgerCheck:
        self._load_events()
        self.names = dict(Guest.objects.order_by().values_list("pk", "name"))
        self._load_coups()
        self._check_hands()
        self._load_lists_and_seatings()
        self._check_bets()
        self._check_coups()
        self._add_charges()
        self._add_count()
        self._check_results()
        self._check_zero_sum()
        self._check_balances()
        self.report.problems.extend(LedgerProblem(*row) for row in tip_problems(self.scope))
        return self.report
