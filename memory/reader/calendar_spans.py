"""Calendar arithmetic for resolving dates: the resolution of a date expression, weekday and
month names, number words, the span of a day, week, weekend, month or year around a day,
and how a day is spoken.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

Granularity = Literal["day", "week", "month", "year"]


Prefer = Literal["past", "future"]


WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


_WEEKDAYS: dict[str, int] = {name.lower(): i for i, name in enumerate(WEEKDAY_NAMES)}


_WEEKDAYS.update(
    {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
     "sat": 5, "sun": 6}
)  # fmt: skip


_MONTHS: dict[str, int] = {name.lower(): i + 1 for i, name in enumerate(MONTH_NAMES)}


_MONTHS.update({name[:3].lower(): i + 1 for i, name in enumerate(MONTH_NAMES)})


_MONTHS["sept"] = 9


_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "a": 1, "an": 1, "a few": 3,
    "a couple": 2, "couple": 2, "a couple of": 2, "couple of": 2,
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class DateResolution:
    """An inclusive range of days that a date expression denotes.

    A single day has ``start == end``; ``text`` is the expression as given (trimmed).
    """

    start: date
    end: date
    granularity: Granularity
    text: str

    def __post_init__(self) -> None:
        if self.end < self.start:
            raise ValueError(f"end {self.end} is before start {self.start}")

    def iso(self) -> str:
        """``"2023-05-07"`` for a single day, else ``"2023-05-01..2023-05-31"``."""
        if self.start == self.end:
            return self.start.isoformat()
        return f"{self.start.isoformat()}..{self.end.isoformat()}"

    def spoken(self) -> str:
        """How a person would say it: ``"7 May 2023"``, ``"the week of 1 May 2023"``,
        ``"May 2023"``, ``"2023"``; other ranges as ``"1 May 2023 – 3 June 2023"``."""
        s, e = self.start, self.end
        day = spoken_day(s)
        if s == e:
            return day
        if self.granularity == "year" and (s.month, s.day, e.month, e.day) == (1, 1, 12, 31) \
                and s.year == e.year:
            return str(s.year)
        if self.granularity == "month" and s.day == 1 and (s.year, s.month) == (e.year, e.month):
            return f"{MONTH_NAMES[s.month - 1]} {s.year}"
        if self.granularity == "week" and (e - s).days == 6:
            return f"the week of {day}"
        return f"{day} – {spoken_day(e)}"

    def contains(self, day: date) -> bool:
        """Whether ``day`` (a datetime's own calendar date) falls inside the range."""
        if isinstance(day, datetime):
            day = day.date()
        return self.start <= day <= self.end


def format_day(d: date) -> str:
    """``"Monday, 8 May 2023"``, independent of the process locale."""
    return f"{WEEKDAY_NAMES[d.weekday()]}, {d.day} {MONTH_NAMES[d.month - 1]} {d.year}"


def spoken_day(d: date) -> str:
    """``"8 May 2023"`` (a datetime contributes its own calendar date)."""
    if isinstance(d, datetime):
        d = d.date()
    return f"{d.day} {MONTH_NAMES[d.month - 1]} {d.year}"


def add_months(d: date, months: int) -> date:
    """``d`` shifted by whole months, the day clamped to the target month's last day.

    Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year); Mar 31 − 1 month is Feb 28/29;
    Feb 29 + 12 months is Feb 28. Raises ``ValueError``/``OverflowError`` outside year 1..9999.
    """
    index = d.year * 12 + (d.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(d.day, last))


_Span = tuple[date, date, Granularity]


def _day(d: date) -> _Span:
    return d, d, "day"


def _week(d: date) -> _Span:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6), "week"


def _month(year: int, month: int) -> _Span:
    return (
        date(year, month, 1),
        date(year, month, calendar.monthrange(year, month)[1]),
        "month",
    )


def _year(year: int) -> _Span:
    return date(year, 1, 1), date(year, 12, 31), "year"


def _weekend(saturday: date) -> _Span:
    return saturday, saturday + timedelta(days=1), "week"


def _unit_span(ref: date, unit: str, n: int) -> _Span:
    """The whole ``unit`` containing ``ref`` shifted by ``n`` units."""
    if unit == "fortnight":
        unit, n = "week", n * 2
    if unit == "day":
        return _day(ref + timedelta(days=n))
    if unit == "week":
        return _week(ref + timedelta(weeks=n))
    if unit == "month":
        shifted = add_months(ref, n)
        return _month(shifted.year, shifted.month)
    return _year(ref.year + n)
