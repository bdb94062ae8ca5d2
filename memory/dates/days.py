"""Calendar days and ranges of days: what a date expression denotes, and how it is said.

:class:`DateResolution` is an inclusive ``start``..``end`` range of days with a granularity;
the span helpers build the whole day, week (Monday–Sunday), month or year around a day.
Stdlib only, English only.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from memory.text import WEEKDAY

Granularity = Literal["day", "week", "month", "year"]
Prefer = Literal["past", "future"]

WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
#: The full month names as lower-case words ("the april launch"; the short forms as well are
#: :data:`memory.analysis.cue_words.MONTH_WORDS`).
FULL_MONTH_WORDS: frozenset[str] = frozenset(m.lower() for m in MONTH_NAMES)
#: A month's number by its full name or a short form no other word has ("feb", "sept";
#: "jan", "mar" and "may" are names and words too).
MONTH_OF_WORD: dict[str, int] = {
    **{m.lower(): i for i, m in enumerate(MONTH_NAMES, start=1)},
    "feb": 2, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}


def months_in(text: str) -> set[int]:
    """The months ``text`` names by :data:`MONTH_OF_WORD` ("feb dark-sky night" → {2})."""
    return {MONTH_OF_WORD[w] for w in re.findall(r"[a-z]{2,20}", text.lower())
            if w in MONTH_OF_WORD}


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


def with_weekday(day: str) -> str:
    """A day spoken as :func:`spoken_day` says it, with its weekday ("18 January 2025" →
    "Saturday 18 January 2025"): an answer standing alone names it; other text as it is."""
    m = _SPOKEN.fullmatch(day.strip())
    if m is None or m.group(2) not in MONTH_NAMES:
        return day
    try:
        d = date(int(m.group(3)), MONTH_NAMES.index(m.group(2)) + 1, int(m.group(1)))
    except ValueError:
        return day
    return weekday_day(d)


_SPOKEN = re.compile(r"(\d{1,2}) ([A-Z][a-z]{2,8}) (\d{4})")


def weekday_day(d: date, said: str = "") -> str:
    """``"Friday 6 June 2025"``: a day as an answer names it, so that "which day" and "what
    date" are both answered; without the weekday when the words ``said`` with it name one
    already ("Friday 10am" → "8 November 2024")."""
    if isinstance(d, datetime):
        d = d.date()
    if WEEKDAY.search(said):
        return spoken_day(d)
    return f"{WEEKDAY_NAMES[d.weekday()]} {spoken_day(d)}"



def add_months(d: date, months: int) -> date:
    """``d`` shifted by whole months, the day clamped to the target month's last day.

    Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year); Mar 31 − 1 month is Feb 28/29;
    Feb 29 + 12 months is Feb 28. Raises ``ValueError``/``OverflowError`` outside year 1..9999.
    """
    index = d.year * 12 + (d.month - 1) + months
    year, month0 = divmod(index, 12)
    last = calendar.monthrange(year, month0 + 1)[1]
    return date(year, month0 + 1, min(d.day, last))


# --- spans: what an expression denotes ------------------------------------------------

Span = tuple[date, date, Granularity]


def day_span(d: date) -> Span:
    return d, d, "day"


def week_span(d: date) -> Span:
    monday = d - timedelta(days=d.weekday())
    return monday, monday + timedelta(days=6), "week"


def month_span(year: int, month: int) -> Span:
    return (
        date(year, month, 1),
        date(year, month, calendar.monthrange(year, month)[1]),
        "month",
    )


def year_span(year: int) -> Span:
    return date(year, 1, 1), date(year, 12, 31), "year"


def weekend_span(saturday: date) -> Span:
    return saturday, saturday + timedelta(days=1), "week"


def unit_span(ref: date, unit: str, *, n: int) -> Span:
    """The whole ``unit`` containing ``ref`` shifted by ``n`` units."""
    if unit == "fortnight":
        unit, n = "week", n * 2
    if unit == "day":
        return day_span(ref + timedelta(days=n))
    if unit == "week":
        return week_span(ref + timedelta(weeks=n))
    if unit == "month":
        shifted = add_months(ref, n)
        return month_span(shifted.year, shifted.month)
    return year_span(ref.year + n)


# --- grammar -----------------------------------------------------------------------------
