from datetime import date

import pytest

from ledger.series.recurrence import (
    BY_HAND,
    LAST_WEEK,
    MONTHLY_DAY,
    MONTHLY_WEEKDAY,
    WEEKLY,
    Rule,
    dates_after,
    next_date,
)

FRIDAY, SUNDAY = 4, 6


def test_weekly_falls_on_its_weekday_strictly_after():
    rule = Rule(WEEKLY, weekday=FRIDAY)
    assert dates_after(rule, date(2026, 11, 27), 3) == [  # a Friday: the next one
        date(2026, 12, 4),
        date(2026, 12, 11),
        date(2026, 12, 18),
    ]
    assert next_date(rule, date(2026, 11, 26)) == date(2026, 11, 27)  # a Thursday
    assert next_date(rule, date(2026, 12, 28)) == date(2027, 1, 1)  # across the year


@pytest.mark.parametrize(
    ("week", "after", "expected"),
    [
        (1, date(2026, 11, 6), [date(2026, 12, 4), date(2027, 1, 1), date(2027, 2, 5)]),
        (2, date(2026, 11, 1), [date(2026, 11, 13), date(2026, 12, 11), date(2027, 1, 8)]),
        # The last Friday: in a month of five Fridays the fifth, else the fourth.
        (LAST_WEEK, date(2026, 11, 1), [date(2026, 11, 27), date(2026, 12, 25), date(2027, 1, 29)]),
    ],
)
def test_monthly_on_the_n_th_weekday(week, after, expected):
    assert (
        dates_after(Rule(MONTHLY_WEEKDAY, weekday=FRIDAY, week_of_month=week), after, 3) == expected
    )


def test_monthly_on_a_day_the_month_lacks_falls_on_its_last_day():
    rule = Rule(MONTHLY_DAY, day_of_month=31)
    assert dates_after(rule, date(2027, 1, 1), 4) == [
        date(2027, 1, 31),
        date(2027, 2, 28),
        date(2027, 3, 31),
        date(2027, 4, 30),
    ]
    assert next_date(rule, date(2028, 1, 31)) == date(2028, 2, 29)  # a leap year
    assert next_date(Rule(MONTHLY_DAY, day_of_month=30), date(2027, 2, 28)) == date(2027, 3, 30)


def test_by_hand_gives_no_date():
    assert next_date(Rule(BY_HAND), date(2026, 11, 1)) is None
    assert dates_after(Rule(BY_HAND), date(2026, 11, 1), 5) == []


def test_the_last_sunday_of_march_is_the_night_daylight_saving_starts_in_europe():
    rule = Rule(MONTHLY_WEEKDAY, weekday=SUNDAY, week_of_month=LAST_WEEK)
    assert next_date(rule, date(2027, 3, 1)) == date(2027, 3, 28)
