"""Invariants 3, 4 and 8's sums: the guests' totals rows and the zero sum of each night."""

from __future__ import annotations

from games.models import Event
from ledger.count.integrity import count_problems, results_without_hands
from ledger.expenses.integrity import expense_problems
from ledger.integrity.report import LedgerProblem, missing_result_key, money_text, totals_text
from ledger.integrity.state import CheckerState
from ledger.models import Charge, GuestEventResult
from ledger.money.amounts import ZERO
from ledger.money.results import house_rows

MSG_RESULT_TOTALS = "its totals are not the sums of the guest's bets at the event"
MSG_RESULT_MISSING = "the guest has bets at the event but no totals row"
MSG_RESULT_EXTRA = "the guest has no bets at the event"
MSG_EVENT_NOT_ZERO_SUM = "the house's net and the guests' net over its shoes do not sum to zero"


class TotalsChecks(CheckerState):
    """Charges and the count added to the sums; the totals rows and the zero sum."""

    def _add_charges(self) -> None:
        """A tournament's entry fees, rebuys, add-ons and prizes: its guests' results there."""
        charges = Charge.objects.order_by()
        if self.scope is not None:
            charges = charges.filter(event_id=self.scope.pk)
        for guest_id, event_id, amount in charges.values_list("guest_id", "event_id", "amount"):
            self.sums[(guest_id, event_id)].add_charge(amount)
            self.net_over_shoes[event_id] += amount

    def _add_count(self) -> None:
        """A count-only night's results (counts less chips taken) and the count's adjustments:
        results without hands, like a charge (``ledger.count.integrity``)."""
        for (guest_id, event_id), amount in results_without_hands(self.scope).items():
            self.sums[(guest_id, event_id)].add_charge(amount)
            self.net_over_shoes[event_id] += amount
        self.report.problems.extend(LedgerProblem(*row) for row in count_problems(self.scope))
        self.report.problems.extend(LedgerProblem(*row) for row in expense_problems(self.scope))

    # --- totals -----------------------------------------------------------------------------

    def _check_results(self) -> None:
        results = GuestEventResult.objects.order_by("pk")
        if self.scope is not None:
            results = results.filter(event_id=self.scope.pk)
        seen = set()
        columns = ("pk", "guest_id", "event_id", "hands", "stake", "gross", "commission", "net")
        for pk, guest_id, event_id, *figures in results.values_list(*columns):
            seen.add((guest_id, event_id))
            found = totals_text(*figures)
            sums = self.sums.get((guest_id, event_id))
            if sums is None:
                self.problem("GuestEventResult", pk, MSG_RESULT_EXTRA, "no row", found)
            elif sums.describe() != found:
                self.problem("GuestEventResult", pk, MSG_RESULT_TOTALS, sums.describe(), found)
        for (guest_id, event_id), sums in sorted(self.sums.items()):
            if (guest_id, event_id) not in seen:
                self.problem(
                    "GuestEventResult",
                    missing_result_key(guest_id, event_id),
                    MSG_RESULT_MISSING,
                    sums.describe(),
                    "no row",
                )

    def _check_zero_sum(self) -> None:
        events = Event.objects.nights()
        if self.scope is not None:
            events = events.filter(pk=self.scope.pk)
        for row in house_rows(events):
            guests = self.net_over_shoes.get(row.event.pk, ZERO)
            house = row.figures.house_net
            if house + guests != 0:
                self.problem(
                    "Event",
                    row.event.pk,
                    MSG_EVENT_NOT_ZERO_SUM,
                    f"house net {money_text(-guests)} against the guests' {money_text(guests)}",
                    f"house net {money_text(house)}",
                )
