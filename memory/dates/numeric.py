"""Days written as numbers: "fri 6/20", "6/20", "20/6", "11/28/25".

Month/day and day/month orders are both in use and nothing in the text says which: a day is
read only where one reading alone is a calendar date ("6/20", "20/6"), or where a weekday
says which reading is meant ("fri 6/20", "fri 20/6"). "6/7" alone is left unread rather
than guessed. Running text is scanned only for the weekday form: a bare "6/6" or "24/7" is
as often a count or a score as a day.
"""

from __future__ import annotations

import re
from datetime import date

from memory.dates.days import Prefer, Span, day_span
from memory.dates.resolve import _WD, _WEEKDAYS, _key, _never, _rule, _yearless

__all__: list[str] = []

_NUMERIC = r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?(?![/\d])"


def _readings(m: re.Match[str], ref: date, prefer: Prefer) -> list[date]:
    """Every calendar day the numbers can be: month/day and day/month."""
    a, b = int(m.group("a")), int(m.group("b"))
    year = m.group("y")
    out: list[date] = []
    for month, day in dict.fromkeys(((a, b), (b, a))):
        if not (1 <= month <= 12 and 1 <= day <= 31):
            continue
        if year:
            full = int(year) + (2000 if len(year) == 2 else 0)
            try:
                out.append(date(full, month, day))
            except ValueError:
                continue
        else:
            found = _yearless(ref, month, day, 0, prefer)
            if found is not None:
                out.append(found)
    return out


@_rule(_NUMERIC, findable=_never)
def _numeric_day(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"6/20": the one reading that is a day; none when both are."""
    days = _readings(m, ref, prefer)
    return day_span(days[0]) if len(days) == 1 else None


@_rule(rf"{_WD}\.?,?\s+{_NUMERIC}")
def _weekday_numeric_day(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"fri 6/20": the reading that falls on that weekday, in the nearer year that has it."""
    wd = _WEEKDAYS[_key(m.group("wd"))]
    other: Prefer = "future" if prefer == "past" else "past"
    near = _readings(m, ref, prefer)
    days = [d for d in [*near, *_readings(m, ref, other)] if d.weekday() == wd]
    if days:
        return day_span(days[0])
    # a weekday that fits no year near: the one reading there is, as "Friday 20 June" is
    return day_span(near[0]) if len(near) == 1 else None
