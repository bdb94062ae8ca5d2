"""Dates as said in a message: each date expression with what it denotes, resolved against
the time the message was said. Shared by the write half (rewrites) and the read half
(presenting values and answering *when*)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memory.analysis.lexicon import ORDINAL_THINGS
from memory.dates.days import DateResolution, Prefer
from memory.dates.resolve import find_date_expressions, resolve_date
from memory.text import WEEKDAY, weekdays_in

_FUTURE = re.compile(
    r"\b(will|won't|'ll|shall|going to|gonna|let's|lets|plan|planning|next|upcoming|"
    r"tomorrow|schedul\w*|moved? to|slips? to|push\w* to|postpon\w*|is on|are on|"
    r"see you|until|by|due|deadline|review|meeting|launch|release)\b",
    re.IGNORECASE,
)


def resolved_dates(text: str, ts: datetime, *, prefer: Prefer | None = None
                   ) -> list[tuple[str, DateResolution]]:
    """The date expressions ``text`` holds with what they denote, resolved against the time
    it was said (at most four). Open ones ("Friday") point forward in plans, back otherwise,
    unless ``prefer`` says."""
    if prefer is None:
        prefer = "future" if _FUTURE.search(text) else "past"
    out: list[tuple[str, DateResolution]] = []
    cursor = 0
    pinned_end = -1
    for expr in find_date_expressions(text):
        at = text.find(expr, cursor)
        cursor = at + len(expr) if at >= 0 else cursor
        if 0 <= at < pinned_end:
            continue  # the "(the 15th)" that pinned the expression before it
        res = resolve_date(expr, ts, prefer=prefer)
        if res is None:
            continue
        if at >= 0 and res.start == res.end and WEEKDAY.search(expr) and (
                pin := _PINNED_DAY.match(text, at + len(expr))) is not None:
            # "next Friday (the 15th)": the speaker spelled out which one they meant.
            res = _pin_day(res, int(pin.group(1) or pin.group(2)), ts)
            pinned_end = pin.end()
        out.append((expr, res))
        if len(out) == 4:
            break
    return out


# A day of the month right after a weekday says which one it means: "next Friday (the
# 15th)", "thursday 11th", "sat the 5th".
_PINNED_DAY = re.compile(
    r"\s{0,10}(?:\((?:the\s{1,10})?(\d{1,2})(?:st|nd|rd|th)?\)"
    r"|,?\s{0,3}(?:the\s{1,10})?(\d{1,2})(?:st|nd|rd|th)\b"
    # ... of a month, not of a thing ("thursday, 2nd floor boardroom")
    r"(?!\s" + ORDINAL_THINGS + r"\b))", re.IGNORECASE)


def _pin_day(res: DateResolution, day: int, ts: datetime) -> DateResolution:
    """The occurrence of ``res``'s weekday (two weeks before it to five after) that falls on
    the ``day``-th of its month: which Friday "next Friday (the 15th)" means, which Saturday
    "saturday 28th". The first on or after the day it was said, else the latest before.
    Else ``res`` unchanged."""
    found = [d for weeks in range(-2, 6)
             if (d := res.start + timedelta(weeks=weeks)).day == day]
    if not found:
        return res
    ahead = [d for d in found if d >= ts.date()]
    d = ahead[0] if ahead else found[-1]
    return DateResolution(start=d, end=d, granularity="day", text=res.text)


#: Any day will do to tell whether a value names a day at all (or numbers could be one).
ANY_DAY = datetime(2001, 6, 15, tzinfo=UTC)


def coarser_than_a_day(value: str, said: datetime) -> bool:
    """Whether every date ``value`` names is a week, a month or longer ("this week", "next
    month"; the day it was resolved to, in brackets, is left out). A value naming a weekday
    ("tuesdays") or none at all ("2", "3pm") is not."""
    text = value.split(" (")[0]
    found = resolved_dates(text, said)
    return bool(found) and all(res.granularity != "day" for _, res in found) and not (
        weekdays_in(text))
