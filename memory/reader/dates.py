"""Date expressions in chat text → calendar ranges, deterministically and with stdlib only.

:func:`resolve_date` turns one expression ("last Tuesday", "two weeks ago", "May 8",
"2023-05-07") into a :class:`DateResolution`, an inclusive ``start``..``end`` range of days
with a granularity, relative to a reference day. :func:`find_date_expressions` finds such
expressions inside free text so callers can resolve them. English only.

Conventions (the reference day is ``r``; weeks run Monday–Sunday):

* ``last <weekday>`` is the most recent one strictly before ``r``; ``next <weekday>`` the
  first one strictly after ``r``; ``this <weekday>`` the one in ``r``'s week (past, today or
  future). A bare weekday ("Tuesday", "on Tuesday") means the same as ``last`` (with
  ``prefer="future"``: the same as ``next``). ``<weekday> last|this|next week`` picks the
  day inside that week.
* ``last|this|next week|month|year`` is the whole previous/current/following period.
* A weekend is Saturday–Sunday, reported with granularity ``"week"``. ``this weekend`` is
  the one of ``r``'s week; ``last weekend`` the most recent one that ended strictly before
  ``r`` (always the previous week's); ``next weekend`` the first that starts strictly after
  ``r`` (so on a weekday it equals ``this weekend``); a bare "the weekend" is the one
  containing ``r`` or else the most recent past one (``prefer="future"``: the coming one).
* Offsets — ``N <unit> ago|earlier|before|back``, ``in N <unit>``, ``N <unit>
  later|after|from now`` — shift ``r`` by calendar arithmetic and return the whole unit that
  contains the shifted day: "3 days ago" is a day, "two weeks ago" a Monday–Sunday week,
  "a month ago" a month, so "a week ago" equals "last week". Month shifts clamp the day to
  the month's end (see :func:`add_months`: Jan 31 + 1 month is Feb 28, or Feb 29 in a leap
  year), so "in 1 month" from Jan 31 is February, never March. Counts are digits, the words
  one..twelve, "a"/"an" (1), "a couple (of)" (2), "a few" (3); "a fortnight" is 2 weeks.
* ``the day|week|month|year before|after`` and ``the following|next|previous|prior
  <unit>`` are one unit before/after ``r``. For "N days later" or "the week after", pass the
  day the expression is relative to (e.g. the event mentioned earlier) as the reference.
* Month names (full or abbreviated) with an optional day and year: "May 8", "8 May 2023",
  "the 8th of May", "May 2023", "in June". Without a year, a date or month is the nearest
  one at or before ``r`` (``prefer="future"``: at or after); ``next``/``last`` make it
  strictly after/before; ``this`` takes ``r``'s year. "the 8th" is a day of the nearest
  month at or before ``r`` (future: at or after) that has that day.
* ISO dates "2023-05-07" (an attached time is ignored, the written date is kept), ISO
  months "2023-05", years "2023" / "in 2023".
* A leading preposition ("on Tuesday", "in June") and a trailing time of day ("Friday
  10am", "tomorrow at 3 pm", "Thursday morning") are ignored. A weekday before a full date
  ("Monday, 8 May 2023", the :func:`format_day` form) is a check: for a date without a
  year it picks the year, past or future, whose weekday matches.

Anything else, and impossible dates ("Feb 30", "2023-13-01"), resolve to ``None``.
"""

from __future__ import annotations

import logging
from datetime import date, datetime

from memory.reader import date_rules
from memory.reader.calendar_spans import (
    MONTH_NAMES,
    WEEKDAY_NAMES,
    DateResolution,
    Granularity,
    Prefer,
    add_months,
    format_day,
    spoken_day,
)
from memory.reader.date_rules import _EDGE_PUNCT, _resolve_span

logger = logging.getLogger(__name__)


__all__ = [
    "DateResolution",
    "Granularity",
    "Prefer",
    "add_months",
    "find_date_expressions",
    "format_day",
    "resolve_date",
    "spoken_day",
    "WEEKDAY_NAMES",
    "MONTH_NAMES",
]


def resolve_date(
    expression: str, reference: datetime | date, *, prefer: Prefer = "past"
) -> DateResolution | None:
    """Resolve one date expression relative to ``reference``; ``None`` if it is not one.

    ``reference`` is the day the expression is relative to (for a question, the day it is
    asked; for a message, the day it was sent; for "N days later", the earlier event). A
    datetime contributes its own calendar date, so convert it to the speaker's time zone
    first. ``prefer`` decides the direction of expressions that leave it open (a bare
    weekday, month, "May 8", "the 8th", "the weekend"); see the module docstring.
    Deterministic: the same arguments always give the same result.
    """
    ref = reference.date() if isinstance(reference, datetime) else reference
    text = expression.strip(_EDGE_PUNCT)
    if not text:
        return None
    span = _resolve_span(text, ref, prefer)
    if span is None:
        logger.debug("no date in an expression of %d chars", len(text))
        return None
    start, end, granularity = span
    return DateResolution(start=start, end=end, granularity=granularity, text=text)


_PROBE = date(2000, 6, 15)


def find_date_expressions(text: str) -> list[str]:
    """The date expressions inside ``text``, in order of appearance, as substrings of it.

    Overlapping candidates keep the longest ("the day before yesterday", not "yesterday";
    "Friday last week", not "last week"). Leading prepositions and times of day are left
    out ("in June" → "June", "Friday 10am" → "Friday"). To avoid ordinary words, a bare
    weekday must be spelled out, a bare month must be a capitalised full name or follow a
    preposition ("in may"), "May" alone needs a preposition, lowercase "may" with a day
    needs a year, and a bare year needs a preposition ("in 2023"). Every returned string
    resolves with :func:`resolve_date`.
    """
    found: list[tuple[int, int]] = []
    for rule in date_rules.rules():
        for m in rule.scan.finditer(text):
            if not rule.findable(m):
                continue
            try:
                valid = rule.handler(m, _PROBE, "past") is not None
            except (ValueError, OverflowError):
                valid = False
            if valid:
                found.append((m.start(), m.end()))
    found.sort(key=lambda span: (span[0], -span[1]))
    chosen: list[str] = []
    last_end = -1
    for start, end in found:
        if start >= last_end:
            chosen.append(text[start:end])
            last_end = end
    return chosen
