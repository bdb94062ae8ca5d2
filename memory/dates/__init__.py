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

from memory.dates import numeric as _numeric  # noqa: F401  (registers "6/20", "fri 6/20")
from memory.dates.days import (
    MONTH_NAMES,
    WEEKDAY_NAMES,
    DateResolution,
    Granularity,
    Prefer,
    add_months,
    format_day,
    spoken_day,
    weekday_day,
    with_weekday,
)
from memory.dates.resolve import find_date_expressions, resolve_date
from memory.dates.spoken import coarser_than_a_day, resolved_dates

__all__ = [
    "coarser_than_a_day",
    "MONTH_NAMES",
    "WEEKDAY_NAMES",
    "DateResolution",
    "Granularity",
    "Prefer",
    "add_months",
    "find_date_expressions",
    "format_day",
    "resolve_date",
    "resolved_dates",
    "spoken_day",
    "weekday_day",
    "with_weekday",
]
