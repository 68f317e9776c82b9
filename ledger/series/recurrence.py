"""When a series' nights fall: plain Python, no Django.

Weekly on a weekday; monthly on the n-th weekday (the fifth meaning the last) or on a day of the
month (a shorter month's night on its last day: the 31st is 30 April, 28 or 29 February); or by
hand, when the host chooses each date and the rule gives none.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta

WEEKLY = "weekly"
MONTHLY_WEEKDAY = "month_weekday"
MONTHLY_DAY = "month_day"
BY_HAND = "by_hand"
LAST_WEEK = 5


@dataclass(frozen=True)
class Rule:
    kind: str
    weekday: int = 4  # Monday 0 … Sunday 6
    week_of_month: int = 1  # 1 to 4, or 5: the last
    day_of_month: int = 1  # 1 to 31


def _months_from(start: date) -> Iterator[tuple[int, int]]:
    year, month = start.year, start.month
    while True:
        yield year, month
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)


def _in_month(rule: Rule, year: int, month: int) -> date:
    days = calendar.monthrange(year, month)[1]
    if rule.kind == MONTHLY_DAY:
        return date(year, month, min(rule.day_of_month, days))
    if rule.week_of_month == LAST_WEEK:
        last = date(year, month, days)
        return last - timedelta(days=(last.weekday() - rule.weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(
        days=(rule.weekday - first.weekday()) % 7 + 7 * (rule.week_of_month - 1)
    )


def dates_after(rule: Rule, after: date, count: int) -> list[date]:
    """The next ``count`` dates of the rule strictly after ``after`` (none by hand), fewer
    where the calendar ends (after 31 December 9999)."""
    if rule.kind == BY_HAND or count <= 0:
        return []
    found: list[date] = []
    try:
        if rule.kind == WEEKLY:
            first = after + timedelta(days=(rule.weekday - after.weekday() - 1) % 7 + 1)
            for n in range(count):
                found.append(first + timedelta(weeks=n))
            return found
        for year, month in _months_from(after):
            day = _in_month(rule, year, month)
            if day > after:
                found.append(day)
                if len(found) == count:
                    return found
    except (OverflowError, ValueError):  # past year 9999
        return found
    return found  # pragma: no cover: the months never run out


def next_date(rule: Rule, after: date) -> date | None:
    """The first date of the rule after ``after``; None by hand."""
    found = dates_after(rule, after, 1)
    return found[0] if found else None
