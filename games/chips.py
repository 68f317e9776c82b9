"""Chip amounts as the database keeps them: ``Decimal`` in Python, whole cents in a column.

SQLite computes ``SUM()`` over a decimal column in floating point (``10000.0000000188``); over an
integer column it is exact, as it is on PostgreSQL. So every amount (a table limit, a stake, a
result) is stored as integer cents and every aggregate comes back as an exact ``Decimal`` through
:class:`MoneyField`. Reading and formatting money is ``ledger.money.amounts``'s job.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.expressions import Combinable, Expression
from django.utils.translation import gettext_lazy

from games.payouts import CENT

# The largest amount a form takes (a limit, a settlement): thirteen digits with the cents, which
# every database's column holds with room to spare for sums of a season.
MAX_CHIPS = Decimal("99999999999.99")
# The largest table limit (a cash night's or a tournament round's): one hand at it, every seat
# staking it on every bet there is and each paying its longest odds (the Dragon 7's 40:1, the
# pairs' 12:1, …), still comes to less than one ledger amount. tests/games/test_payouts.py
# works the bound out from the rules core.
MAX_TABLE_LIMIT = Decimal(50_000_000)
MSG_TABLE_LIMIT = gettext_lazy(
    "A table limit is at most 50,000,000: a hand at that limit, at every seat and on the longest"
    " odds, must stay within one ledger amount (99,999,999,999.99)."
)


def table_limit_validators() -> list[MaxValueValidator]:
    return [MaxValueValidator(MAX_TABLE_LIMIT, message=MSG_TABLE_LIMIT)]


MSG_NOT_CENTS = "Enter an amount in whole cents at most (e.g. 12.50)."


def to_cents(amount: Decimal) -> int:
    cents = amount * 100
    if cents != cents.to_integral_value():
        raise ValidationError(MSG_NOT_CENTS, code="not_cents")
    return int(cents)


def from_cents(cents: int | Decimal) -> Decimal:
    return (Decimal(cents) / 100).quantize(CENT)


# What a model's money field may be set to; it always reads back a ``Decimal``.
_Amount = Decimal | int | str | Combinable


class MoneyField(models.BigIntegerField[_Amount, Decimal]):
    """A chip amount (``Decimal``, two places) stored as a whole number of cents."""

    description = "Chip amount, stored in cents"

    def from_db_value(
        self,
        value: int | Decimal | float | None,
        expression: Expression,
        connection: BaseDatabaseWrapper,
    ) -> Decimal | None:
        if value is None:
            return None
        if isinstance(value, float):  # never expected: integers sum exactly
            raise TypeError(f"Money came back from the database as a float ({value!r}).")
        return from_cents(value)

    def to_python(self, value: object) -> Decimal | None:
        if value is None or value == "":
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return Decimal(str(value))
        except InvalidOperation:
            raise ValidationError("Enter a number.", code="invalid") from None

    def get_prep_value(self, value: object) -> int | None:
        amount = self.to_python(value)
        return None if amount is None else to_cents(amount)

    def formfield(self, **kwargs: Any) -> forms.Field | None:
        # Skip IntegerField.formfield: the form deals in chips, not cents.
        return models.Field.formfield(
            self, form_class=forms.DecimalField, max_digits=13, decimal_places=2, **kwargs
        )
