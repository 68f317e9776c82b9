"""What ``check_ledger`` answers: each broken row, and the report."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal


@dataclass(frozen=True)
class LedgerProblem:
    """One broken row: ``str()`` is the line ``check_ledger`` prints."""

    model: str
    pk: int | str
    message: str
    expected: str = ""
    found: str = ""

    def __str__(self) -> str:
        text = f"{self.model} {self.pk}: {self.message}"
        if self.expected or self.found:
            text += f" (expected {self.expected}; found {self.found})"
        return text


def missing_result_key(guest_id: int, event_id: int) -> str:
    """How a missing ``GuestEventResult`` row is named, having no primary key."""
    return f"(guest {guest_id}, event {event_id})"


@dataclass
class LedgerCheck:
    problems: list[LedgerProblem] = field(default_factory=list)
    bets: int = 0
    hands: int = 0
    guests: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def money_text(amount: Decimal) -> str:
    return f"{amount:.2f}"


def totals_text(
    hands: int, stake: Decimal, gross: Decimal, commission: Decimal, net: Decimal
) -> str:
    return (
        f"hands {hands}, stake {money_text(stake)}, gross {money_text(gross)}, "
        f"commission {money_text(commission)}, net {money_text(net)}"
    )
