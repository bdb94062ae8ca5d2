"""Dates as said in a message: each date expression with what it denotes, resolved against
the time the message was said. Shared by the write half (rewrites) and the read half
(presenting values and answering *when*)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from memory.dates.days import DateResolution, Prefer
from memory.dates.resolve import find_date_expressions, resolve_date
from memory.text import WEEKDAY

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
            res = _pin_day(res, int(pin.group(1) or pin.group(2)))
            pinned_end = pin.end()
        out.append((expr, res))
        if len(out) == 4:
            break
    return out


# A day of the month right after a weekday says which one it means: "next Friday (the
# 15th)", "thursday 11th", "sat the 5th".
_PINNED_DAY = re.compile(
    r"\s{0,10}(?:\((?:the\s{1,10})?(\d{1,2})(?:st|nd|rd|th)?\)"
    r"|,?\s{0,3}(?:the\s{1,10})?(\d{1,2})(?:st|nd|rd|th)\b)", re.IGNORECASE)


def _pin_day(res: DateResolution, day: int) -> DateResolution:
    """The occurrence of ``res``'s weekday nearest it (two weeks before to four after) that
    falls on the ``day``-th of its month: which Friday "next Friday (the 15th)" means, which
    Thursday "thursday 11th". Else ``res`` unchanged."""
    for weeks in (0, 1, -1, 2, -2, 3, 4):
        d = res.start + timedelta(weeks=weeks)
        if d.day == day:
            return DateResolution(start=d, end=d, granularity="day", text=res.text)
    return res
