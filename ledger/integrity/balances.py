"""Invariant 5: balances and the night's settlement list, from sums, settlements, transfers and
expenses."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from django.db.models import Q

from games.models import Event
from ledger.count.integrity import results_without_hands
from ledger.expenses.selectors import expense_nets
from ledger.integrity.report import money_text
from ledger.integrity.state import CheckerState
from ledger.models import Bet, Charge, Settlement, Tip, Transfer
from ledger.money.amounts import ZERO, money_sum
from ledger.money.results import event_settlement, guest_balances

MSG_GUEST_BALANCE = "the balance the app shows is not the sum of the bets' nets and settlements"


MSG_SETTLEMENT_LINE = (
    "its line in the event's settlement list is not the sum of its bets' nets and settlements"
)


class BalanceChecks(CheckerState):
    """Balances as the app reads them against the rows."""

    # --- balances ---------------------------------------------------------------------------

    def _check_balances(self) -> None:
        net: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)  # (guest, event)
        for key, sums in self.sums.items():
            net[key] += sums.net
        settled: dict[tuple[int, int], Decimal] = defaultdict(lambda: ZERO)
        settlements = Settlement.objects.all()
        if self.scope is None:
            guests = set(self.names)
        else:
            guests = {g for e, g in self.guest_lists if e == self.scope.pk}
            guests |= {guest_id for guest_id, _event in self.sums}
            settlements = settlements.filter(guest_id__in=guests)
            bets = Bet.objects.exclude(event__kind=Event.Kind.TOURNAMENT_TABLE)
            for rows, column in ((bets, "net"), (Charge.objects.all(), "amount")):
                elsewhere = (
                    rows.filter(guest_id__in=guests)
                    .exclude(event_id=self.scope.pk)
                    .values_list("guest_id", "event_id")
                    .annotate(net=money_sum(column))
                    .order_by()
                )
                for guest_id, event_id, amount in elsewhere:
                    net[(guest_id, event_id)] += amount
            # Their results without hands elsewhere: counts at nights kept by their count
            # alone, and adjustments.
            for (guest_id, event_id), amount in results_without_hands(None, guests=guests).items():
                if event_id != self.scope.pk:
                    net[(guest_id, event_id)] += amount
        # Expenses: what each guest paid less their shares, a result of the night (any night).
        paid_less_shares, _house = expense_nets(guests=None if self.scope is None else guests)
        for key, amount in paid_less_shares.items():
            net[key] += amount
        for guest_id, event_id, amount in settlements.values_list("guest_id", "event_id", "amount"):
            settled[(guest_id, event_id)] += amount
        # A transfer between guests settles for its payer what it unsettles for its payee.
        transfers = Transfer.objects.all()
        if self.scope is not None:
            transfers = transfers.filter(Q(payer_id__in=guests) | Q(payee_id__in=guests))
        for payer_id, payee_id, event_id, amount in transfers.values_list(
            "payer_id", "payee_id", "event_id", "amount"
        ):
            if payer_id is not None:
                settled[(payer_id, event_id)] += amount
            if payee_id is not None:
                settled[(payee_id, event_id)] -= amount
        # A tip leaves its guest's balance (for the dealers' pool): with the night's result.
        tips = Tip.objects.all() if self.scope is None else Tip.objects.filter(guest_id__in=guests)
        for guest_id, event_id, amount in tips.values_list("guest_id", "event_id", "amount"):
            net[(guest_id, event_id)] -= amount
        self.report.guests = len(guests)

        balance: dict[int, Decimal] = defaultdict(lambda: ZERO)
        for (guest_id, _event), amount in [*net.items(), *settled.items()]:
            balance[guest_id] += amount
        shown = guest_balances()
        for guest_id in sorted(guests):
            expected, found = balance.get(guest_id, ZERO), shown.get(guest_id, ZERO)
            if expected != found:
                self.problem(
                    "Guest", guest_id, MSG_GUEST_BALANCE, money_text(expected), money_text(found)
                )
        if self.scope is not None:
            self._check_settlement_list(net, settled)

    def _check_settlement_list(
        self, net: dict[tuple[int, int], Decimal], settled: dict[tuple[int, int], Decimal]
    ) -> None:
        assert self.scope is not None
        tonight = self.events[self.scope.pk]
        earlier = {
            e.pk for e in self.events.values() if (e.date, e.pk) < (tonight.date, tonight.pk)
        }
        for line in event_settlement(self.scope):
            guest_id = line.guest_id
            before = sum(
                (
                    amount
                    for (g, e), amount in [*net.items(), *settled.items()]
                    if g == guest_id and e in earlier
                ),
                ZERO,
            )
            expected = (
                before,
                net.get((guest_id, tonight.pk), ZERO),
                settled.get((guest_id, tonight.pk), ZERO),
            )
            found = (line.before, line.result, line.settled)
            if expected != found:
                self.problem(
                    "Guest", guest_id, MSG_SETTLEMENT_LINE, _line(*expected), _line(*found)
                )


def _line(before: Decimal, result: Decimal, settled: Decimal) -> str:
    after = before + result + settled
    return (
        f"before {money_text(before)}, result {money_text(result)}, settled {money_text(settled)}, "
        f"after {money_text(after)}"
    )
