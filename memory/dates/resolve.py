"""The date grammar: :func:`resolve_date` turns one expression into a
:class:`~memory.dates.days.DateResolution` relative to a reference day, and
:func:`find_date_expressions` finds such expressions inside free text. The conventions are
the package's (:mod:`memory.dates`)."""

from __future__ import annotations

import calendar
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory.analysis.cue_words import ORDINAL_THINGS
from memory.dates.days import (
    MONTH_NAMES,
    WEEKDAY_NAMES,
    DateResolution,
    Prefer,
    Span,
    add_months,
    day_span,
    month_span,
    unit_span,
    week_span,
    weekend_span,
    year_span,
)

logger = logging.getLogger(__name__)

_WEEKDAYS: dict[str, int] = {name.lower(): i for i, name in enumerate(WEEKDAY_NAMES)}
_WEEKDAYS.update(
    {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3, "thur": 3, "thurs": 3, "fri": 4,
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



# A dot is taken only after an abbreviation, so "on Friday." leaves the full stop out.
_WD = (
    r"(?P<wd>(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?![a-z])"
    r"|(?:mon|tues|tue|weds|wed|thurs|thur|thu|fri|sat|sun)(?![a-z])\.?)"
)
_MON = (
    r"(?P<mon>(?:january|february|march|april|may|june|july|august|september|october"
    r"|november|december)(?![a-z])|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)"
    r"(?![a-z])\.?)"
)
_ORD = r"(?:st|nd|rd|th)?(?!\d)"
_NUM = r"(?P<n>\d{1,3}|a\s+couple\s+of|a\s+couple|couple\s+of|a\s+few|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an|a)"  # noqa: E501
_UNIT = r"(?P<unit>day|week|month|year|fortnight)s?"
_MONTH_DAY = rf"{_MON}\s+(?:the\s+)?(?P<day>\d{{1,2}}){_ORD}(?:,?\s+(?P<year>\d{{4}}))?"
_DAY_MONTH = rf"(?:the\s+)?(?P<day>\d{{1,2}}){_ORD}\s+(?:of\s+)?{_MON}(?:,?\s+(?P<year>\d{{4}}))?"
_ISO_DAY = (
    r"(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})"
    r"(?:[t\s]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|utc|[+-]\d{2}:?\d{2})?)?"
)


def _key(word: str) -> str:
    """A matched weekday or month name as a lookup key: lowercase, without its dot."""
    return word.lower().rstrip(".")


def _plain(pattern: str) -> str:
    """``pattern`` with its named groups made anonymous, to embed it in another pattern."""
    return re.sub(r"\(\?P<\w+>", "(?:", pattern)


_Handler = Callable[[re.Match[str], date, Prefer], Span | None]


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    exact: re.Pattern[str]
    scan: re.Pattern[str]
    handler: _Handler
    findable: Callable[[re.Match[str]], bool]


_RULES: list[_Rule] = []


def _always(m: re.Match[str]) -> bool:
    return True


def _rule(
    pattern: str, *, findable: Callable[[re.Match[str]], bool] = _always
) -> Callable[[_Handler], _Handler]:
    def register(handler: _Handler) -> _Handler:
        _RULES.append(
            _Rule(
                name=handler.__name__,
                exact=re.compile(pattern, re.IGNORECASE),
                scan=re.compile(rf"(?<!\w)(?:{pattern})(?![\w])", re.IGNORECASE),
                handler=handler,
                findable=findable,
            )
        )
        return handler

    return register


def _count(raw: str) -> int:
    words = " ".join(raw.lower().split())
    return int(words) if words.isdigit() else _NUMBERS[words]


def _last_weekday(ref: date, wd: int) -> date:
    return ref - timedelta(days=(ref.weekday() - wd) % 7 or 7)


def _next_weekday(ref: date, wd: int) -> date:
    return ref + timedelta(days=(wd - ref.weekday()) % 7 or 7)


def _direction(word: str) -> int:
    """+1 for words that look forward, −1 for backward, 0 for "this"."""
    word = " ".join(word.lower().split())
    if word in ("next", "coming", "this coming", "following", "later", "after", "from now",
                "hence"):  # fmt: skip
        return 1
    if word in ("last", "past", "this past", "previous", "prior", "ago", "earlier", "before",
                "back"):  # fmt: skip
        return -1
    return 0


_PREPOSITIONS = frozenset(
    "in on during since until till by of before after through from early mid late".split()
)


def _word_before(m: re.Match[str]) -> str:
    """The word just before a match, lower-cased ("" for none)."""
    # Only the last few characters can hold the word before: searching the whole prefix
    # is quadratic on a long word.
    before = re.search(r"(\w+)\s+$", m.string[max(0, m.start() - 40) : m.start()])
    return before.group(1).lower() if before is not None else ""


def _preceded_by_preposition(m: re.Match[str]) -> bool:
    return _word_before(m) in _PREPOSITIONS


def _not_modal_may(m: re.Match[str]) -> bool:
    """Rejects lowercase "may" (the verb) unless a year makes it a date."""
    return m.group("mon") != "may" or bool(m.groupdict().get("year"))


# Tomorrow and today as chat writes them too ("training tmrw", "2moro", "tdy", "tonite").
_TOMORROW = ("tomorrow", "tmrw", "tmr", "tmw", "tomo", "2moro", "2morrow", "tmrow")
_TODAY = ("today", "tonight", "2day", "tdy", "2nite", "tonite")


@_rule(
    r"(?P<w>(?:the\s+)?day\s+before\s+yesterday|(?:the\s+)?day\s+after\s+tomorrow|yesterday"
    r"|last\s+night|this\s+(?:morning|afternoon|evening)|" + "|".join(_TOMORROW + _TODAY) + ")"
)
def _simple(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    w = m.group("w").lower()
    if "before yesterday" in w:
        return day_span(ref - timedelta(days=2))
    if "after tomorrow" in w:
        return day_span(ref + timedelta(days=2))
    if w == "yesterday" or w.startswith("last"):
        return day_span(ref - timedelta(days=1))
    if w in _TOMORROW:
        return day_span(ref + timedelta(days=1))
    return day_span(ref)


@_rule(r"the\s+(?P<unit>day|week|month|year)\s+(?P<dir>before|after)")
def _the_unit_before_after(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return unit_span(ref, m.group("unit").lower(), n=_direction(m.group("dir")))


@_rule(r"the\s+(?P<dir>following|next|previous|prior)\s+(?P<unit>day|week|month|year)")
def _the_following_unit(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return unit_span(ref, m.group("unit").lower(), n=_direction(m.group("dir")))


@_rule(rf"(?P<dir>last|next|this\s+coming|this\s+past|this|coming|past)\s+{_WD}")
def _rel_weekday(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    wd, step = _WEEKDAYS[_key(m.group("wd"))], _direction(m.group("dir"))
    if step < 0:
        return day_span(_last_weekday(ref, wd))
    if step > 0:
        return day_span(_next_weekday(ref, wd))
    return day_span(ref - timedelta(days=ref.weekday() - wd))


@_rule(rf"{_WD}\s+(?P<dir>last|this|next)\s+week")
def _weekday_of_week(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    monday = week_span(ref + timedelta(weeks=_direction(m.group("dir"))))[0]
    return day_span(monday + timedelta(days=_WEEKDAYS[_key(m.group("wd"))]))


@_rule(r"(?P<dir>last|this|next|previous|coming)\s+(?P<unit>weekend|week|wk|month|year)")
def _rel_period(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    unit, step = m.group("unit").lower(), _direction(m.group("dir"))
    unit = "week" if unit == "wk" else unit  # chat spelling: "next wk"
    if unit != "weekend":
        return unit_span(ref, unit, n=step)
    this_saturday = ref + timedelta(days=5 - ref.weekday())
    if step < 0:
        return weekend_span(this_saturday - timedelta(weeks=1))
    if step > 0 and ref.weekday() >= 5:
        return weekend_span(this_saturday + timedelta(weeks=1))
    return weekend_span(this_saturday)


@_rule(r"(?:the\s+)?weekend")
def _bare_weekend(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    this_saturday = ref + timedelta(days=5 - ref.weekday())
    if ref.weekday() >= 5 or prefer == "future":
        return weekend_span(this_saturday)
    return weekend_span(this_saturday - timedelta(weeks=1))


@_rule(rf"{_NUM}\s+{_UNIT}\s+(?P<dir>ago|earlier|before|back|later|after|from\s+now|hence)")
def _offset(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    n = _count(m.group("n")) * _direction(m.group("dir"))
    return unit_span(ref, m.group("unit").lower(), n=n)


@_rule(rf"in\s+{_NUM}\s+{_UNIT}(?:'?\s+time)?")
def _in_offset(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return unit_span(ref, m.group("unit").lower(), n=_count(m.group("n")))


def _yearless(ref: date, month: int, day: int, direction: int, prefer: Prefer) -> date | None:
    """The ``month``/``day`` nearest ``ref`` in ``direction`` (0 = ``prefer``, at or on ``ref``)."""
    forward = direction > 0 or (direction == 0 and prefer == "future")
    strict = direction != 0
    # Eight years always contain a Feb 29, so a valid month/day is found within them.
    for k in range(9):
        year = ref.year + k if forward else ref.year - k
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if forward and (candidate > ref or (not strict and candidate == ref)):
            return candidate
        if not forward and (candidate < ref or (not strict and candidate == ref)):
            return candidate
    return None


def _month_day_span(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    month, day = _MONTHS[_key(m.group("mon"))], int(m.group("day"))
    if m.group("year"):
        return day_span(date(int(m.group("year")), month, day))
    word = (m.groupdict().get("dir") or "").lower()
    if word == "this":
        return day_span(date(ref.year, month, day))
    found = _yearless(ref, month, day, _direction(word), prefer)
    return day_span(found) if found else None


_rule(rf"(?:(?P<dir>last|this|next)\s+)?{_MONTH_DAY}", findable=_not_modal_may)(_month_day_span)
_rule(_DAY_MONTH, findable=_not_modal_may)(_month_day_span)


@_rule(rf"{_MON},?\s+(?P<year>\d{{4}})")
def _month_year(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return month_span(int(m.group("year")), _MONTHS[_key(m.group("mon"))])


_WEEK_OF = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3,
            "4th": 3}


@_rule(rf"(?:the\s+)?(?P<which>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+week\s+of\s+"
       rf"{_MON}(?:,?\s+(?P<year>\d{{4}}))?")
def _week_of_month(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"the second week of November": days 8-14; "the last week of June": its last seven."""
    month = _MONTHS[_key(m.group("mon"))]
    if m.group("year"):
        year = int(m.group("year"))
    else:
        ahead = prefer == "future"
        year = ref.year if (month >= ref.month if ahead else month <= ref.month) else (
            ref.year + 1 if ahead else ref.year - 1)
    first, last, _ = month_span(year, month)
    which = m.group("which").lower()
    start = last - timedelta(days=6) if which == "last" else first + timedelta(
        weeks=_WEEK_OF[which])
    return start, start + timedelta(days=6), "week"


def _bare_month_findable(m: re.Match[str]) -> bool:
    # (a month is what a plan is "for": "lathe induction is on the list for nov"; a year
    # after "for" may be a count: "for 2000 people")
    if m.group("dir") or _preceded_by_preposition(m) or _word_before(m) == "for":
        return True
    word = m.group("mon")
    # Alone, only a capitalised full name counts, and never "May" (the verb at a sentence start).
    return len(word) > 3 and word[0].isupper() and not word.endswith(".") and word != "May"


@_rule(rf"(?:(?P<dir>last|this|next)\s+)?{_MON}", findable=_bare_month_findable)
def _bare_month(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    month = _MONTHS[_key(m.group("mon"))]
    word = (m.group("dir") or "").lower()
    if word == "this":
        return month_span(ref.year, month)
    if word == "next" or (not word and prefer == "future"):
        later = month > ref.month or (not word and month == ref.month)
        return month_span(ref.year if later else ref.year + 1, month)
    earlier = month < ref.month or (not word and month == ref.month)
    return month_span(ref.year if earlier else ref.year - 1, month)


def _not_an_ordinal_thing(m: re.Match[str]) -> bool:
    """"the 2nd floor", "the 3rd round": an ordinal of a thing, not a day of the month."""
    return _ORDINAL_THING.match(m.string, m.end()) is None


_ORDINAL_THING = re.compile(rf"\s{{1,3}}{ORDINAL_THINGS}\b", re.IGNORECASE)


@_rule(r"the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)", findable=_not_an_ordinal_thing)
def _day_of_month(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    day, step = int(m.group("day")), 1 if prefer == "future" else -1
    for k in range(13):
        first = add_months(ref.replace(day=1), k * step)
        if day > calendar.monthrange(first.year, first.month)[1]:
            continue
        candidate = first.replace(day=day)
        if (candidate >= ref) if step > 0 else (candidate <= ref):
            return day_span(candidate)
    return None


@_rule(_ISO_DAY)
def _iso_day(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return day_span(date(int(m.group("y")), int(m.group("m")), int(m.group("d"))))


@_rule(r"(?P<y>\d{4})-(?P<m>\d{2})(?![-/]?\d)")
def _iso_month(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return month_span(int(m.group("y")), int(m.group("m")))


@_rule(r"(?P<year>(?:19|20)\d{2})", findable=_preceded_by_preposition)
def _bare_year(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return year_span(int(m.group("year")))


def _bare_weekday_findable(m: re.Match[str]) -> bool:
    # Abbreviations alone ("sat", "sun", "wed") are ordinary words too often.
    return _key(m.group("wd")) in {name.lower() for name in WEEKDAY_NAMES}


@_rule(_WD, findable=_bare_weekday_findable)
def _bare_weekday(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    wd = _WEEKDAYS[_key(m.group("wd"))]
    return day_span(_next_weekday(ref, wd) if prefer == "future" else _last_weekday(ref, wd))


_FULL_DATE = "|".join(
    _plain(p) for p in (_MONTH_DAY, _DAY_MONTH, _ISO_DAY, r"the\s+\d{1,2}(?:st|nd|rd|th)")
)


def _never(m: re.Match[str]) -> bool:
    return False


# An ordinal alone ("22nd") is a day where it is already known to be one ("22nd fine");
# in running text it is as often a rank ("1st day"), so it is never found there.
@_rule(r"(?P<day>\d{1,2})(?:st|nd|rd|th)", findable=_never)
def _bare_day_of_month(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    return _day_of_month(m, ref, prefer)


@_rule(rf"{_WD},?\s+(?P<rest>{_FULL_DATE})")
def _weekday_date(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    wd = _WEEKDAYS[_key(m.group("wd"))]
    rest = m.group("rest")
    first = _resolve_span(rest, ref, prefer)
    if first is None or first[0].weekday() == wd:
        return first
    other = _resolve_span(rest, ref, "future" if prefer == "past" else "past")
    return other if other is not None and other[0].weekday() == wd else first


# Chat forms a value slot names whole ("deadline fri 18th", "off the week of may 26"):
# resolved when asked for, never picked out of running text (a scan keeps "the 18th" and
# "may 26" as it always has).
@_rule(rf"{_WD},?\s+(?P<day>\d{{1,2}}(?:st|nd|rd|th))", findable=_never)
def _weekday_ordinal(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"tue 13th": the 13th, as "tue the 13th"."""
    return _resolve_span(f"{m.group('wd')} the {m.group('day')}", ref, prefer)


_DAY_SPAN_JOIN = r"\s?(?:-|–|—|to|until|till|thru|through)\s?"


def _day_span(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"15th-16th", "14–16 may", "may 14-16": from the first day to the last, the last
    resolved as a day of its own and the first taken back within its month (or the one
    before: "30th-2nd")."""
    first, last = int(m.group("d1")), int(m.group("day"))
    month = m.group("mon")
    ending = _resolve_span(f"{last} {month}" if month else f"the {last}th", ref, prefer)
    if ending is None or first == last:
        return None
    end = ending[1]
    try:
        start = end.replace(day=first) if first < last else add_months(
            end.replace(day=1), -1).replace(day=first)
    except ValueError:
        return None
    return (start, end, "day") if (end - start).days <= 31 else None


# Spans of days: an ordinal or a month must say they are days ("9-5" is hours, "3-4" a score).
_rule(rf"(?:the\s+)?(?P<d1>\d{{1,2}})(?:st|nd|rd|th){_DAY_SPAN_JOIN}(?:the\s+)?"
      rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)(?:\s+(?:of\s+)?{_MON})?", findable=_never)(_day_span)
_rule(rf"(?:the\s+)?(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?{_DAY_SPAN_JOIN}(?:the\s+)?"
      rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON}", findable=_never)(_day_span)
_rule(rf"{_MON}\s+(?:the\s+)?(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?{_DAY_SPAN_JOIN}(?:the\s+)?"
      rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?", findable=_never)(_day_span)


@_rule(rf"(?:the\s+)?(?:wk|week)\s+of\s+(?P<rest>{_FULL_DATE})", findable=_never)
def _week_of(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"the week of may 26": the day it names."""
    return _resolve_span(m.group("rest"), ref, prefer)


# --- entry points ------------------------------------------------------------------------

_EDGE_PUNCT = " \t\n\"'`()[]{}.,;:!?"
_LEADING_PREPOSITION = re.compile(
    r"^(?:on|in|during|over|at|since|until|till|by|from|of|for|before|after)\s+", re.IGNORECASE
)
_TRAILING_TIME = re.compile(
    r",?\s{1,40}(?:at\s{1,10})?(?:\d{1,2}(?::\d{2})?\s{0,5}(?:am|pm|a\.m\.?|p\.m\.?)|\d{1,2}:\d{2}"
    r"|noon|midnight|eod|morning|afternoon|evening|night)(?:\s{0,5}utc)?$",
    re.IGNORECASE,
)


def _resolve_span(text: str, ref: date, prefer: Prefer) -> Span | None:
    plain = " ".join(text.replace("\u2019", "'").split())
    no_prep = _LEADING_PREPOSITION.sub("", plain)
    candidates = dict.fromkeys(
        (plain, no_prep, _TRAILING_TIME.sub("", plain), _TRAILING_TIME.sub("", no_prep))
    )
    for candidate in candidates:
        for rule in _RULES:
            m = rule.exact.fullmatch(candidate)
            if m is None:
                continue
            try:
                span = rule.handler(m, ref, prefer)
            except (ValueError, OverflowError):
                span = None  # an impossible calendar date, or outside year 1..9999
            if span is not None:
                return span
    return None


_DAYISH = rf"(?:{_plain(_MONTH_DAY)}|{_plain(_DAY_MONTH)})"


@_rule(rf"between\s+(?P<a>{_DAYISH})\s+and\s+(?P<b>{_DAYISH})")
def _between(m: re.Match[str], ref: date, prefer: Prefer) -> Span | None:
    """"between August 11 and August 15 2023": every day from the first to the second;
    a year given only at the end is the first day's too."""
    a, b = m.group("a"), m.group("b")
    year = re.search(r"\d{4}\s*$", b)
    if year and not re.search(r"\d{4}\s*$", a):
        a = f"{a} {year.group(0).strip()}"
    first, second = _resolve_span(a, ref, prefer), _resolve_span(b, ref, prefer)
    if first is None or second is None or second[1] < first[0]:
        return None
    if (second[1] - first[0]).days > 366:
        return None
    return first[0], second[1], "day"


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
    for rule in _RULES:
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
