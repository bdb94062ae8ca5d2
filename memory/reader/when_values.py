"""The when-values of an answer: the day or time a sentence states nearest the question's
words, the calendar day it resolves to, and whether a value holds a time of day, a day, or
only a longer period.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from datetime import date, datetime

from memory.analysis.contrast_words import WEEKDAY_CONTRASTS
from memory.analysis.lexicon import default_lexicon
from memory.analysis.question import QuestionAnalysis
from memory.analysis.question_lexicon import RECURRING_DAYS
from memory.analysis.slot_patterns import HHMM, NOT_YEAR
from memory.analysis.time_bounds import clock_span
from memory.analysis.value_types import Kind
from memory.analysis.values import BARE_HOURS, find_values
from memory.dates import DateResolution, resolve_date, resolved_dates, weekday_day
from memory.reader.answer import split_sentences
from memory.reader.coverage_days import numeric_days
from memory.reader.extract import (
    _RANGE_AFTER,
    _TRAILING,
    _UNTIL,
    MAX_TEXT,
    _part_ends,
    replaced_at,
    term_positions,
)
from memory.text import (
    Slot,
    SlotKind,
    find_slots,
    has_time_of_day,
    recurs_only,
    weekdays_in,
)

__all__ = ["calendar_day", "clock_beside", "day_beside", "has_clock", "has_day", "is_day_span",
           "kept_clock", "time_near", "time_range_end", "when_in"]


def _with_bare_hours(sentence: str, slots: list[Slot]) -> list[Slot]:
    """``slots`` and the bare hours after "at" no slot reads ("ceremony at 3"), and the
    dotted times and spans of bare hours the analyzer reads ("its weds now at st annes
    6.30", "sat 21st, 10-5"): a time of day where one is asked."""
    text = sentence[:MAX_TEXT]
    lex = default_lexicon()
    extra = [Slot(SlotKind.TIME, v.text, v.start, v.end) for v in find_values(text, lex)
             if (v.kind is Kind.TIME and "." in v.text)
             or (v.kind is Kind.RANGE and BARE_HOURS.fullmatch(v.text))]
    extra += [Slot(SlotKind.TIME, m.group(0), m.start(), m.end())
              for m in _AT_HOUR.finditer(text)]
    out = list(slots)
    for sl in extra:
        if not any(o.start < sl.end and sl.start < o.end for o in out):
            out.append(sl)
    return out


def time_near(qa: QuestionAnalysis, sentence: str) -> str:
    """The time of day ``sentence`` says nearest the question's words ("ceremony at 3" in
    "setup: 10am Sat 28th, ceremony at 3" for "what time was the ceremony?"), as said with
    its range; empty when it says none or the question names nothing in it."""
    anchors = term_positions(qa, sentence)
    if not anchors:
        return ""
    slots = _with_bare_hours(sentence, [sl for sl in find_slots(sentence)
                                        if sl.kind is SlotKind.TIME
                                        and not replaced_at(sentence, sl.start, sl.end)])
    if not slots:
        return ""
    best = min(slots, key=lambda sl: min(abs(sl.start - a) for a in anchors))
    return clock_span(sentence, best.start, best.end) or best.text


def when_in(qa: QuestionAnalysis, sentence: str, said: datetime, *, prefer: str
            ) -> tuple[str, str]:
    """The when-value ``sentence`` states nearest the question's words, as written with the
    clock range that follows it ("wed 8-18", "wednesdays 15:00"), and the calendar day it
    resolves to against ``said`` ("17 September 2025"; empty for a recurring day)."""
    slots = [sl for sl in find_slots(sentence) if sl.kind.value in ("date", "time")
             and not replaced_at(sentence, sl.start, sl.end)]
    if qa.asks_clock:
        slots = _with_bare_hours(sentence, slots)
    if prefer == "past":
        # a date something lasts until is not the day it happened ("good until apr 14")
        slots = [sl for sl in slots if not _UNTIL.search(sentence[max(0, sl.start - 12):
                                                                   sl.start])]
        if _WILL.search(sentence):
            prefer = "future"  # "i'll open applications thursday": the thursday after
    anchors = term_positions(qa, sentence)
    if anchors and slots:
        # the value in the part naming the thing asked, then the nearest ("stencil
        # arrives wed the 12th, so the workshop … to saturday the 15th"); a part that is
        # only a moment belongs to the part it opens ("Thursday 6pm, the book club meets")
        parts = _part_ends(sentence, slots)

        def part(at: int) -> int:
            return bisect.bisect_right(parts, at)

        slots.sort(key=lambda sl: min((part(sl.start) != part(a), abs(sl.start - a))
                                      for a in anchors))
    started = _FROM_WHEN.match(qa.text) is not None or _ASKS_START.search(qa.text) is not None
    if started:
        # "from which saturday does it kick in": the day it runs from ("from the 25th"),
        # or the day said right after a start ("membership goes to £72 from 1 May, Rosa
        # starts 11 April": Rosa's start, not the membership's)
        slots.sort(key=lambda sl: (
            _STARTS_ON.search(sentence[max(0, sl.start - 16):sl.start]) is None,
            not _runs_from(sentence, sl)))
    # a time that ends or opens a range is said as that range ("sundays 9–10am")
    timed = [sl for sl in slots if sl.kind.value == "time"]
    times = [clock_span(sentence, sl.start, sl.end) or sl.text for sl in timed]
    first_time = timed[0] if timed else None
    # the recurring day the time is said with ("open 10-6 weekdays, saturday hours go to
    # 9-1, still closed sundays": 9-1 is no sunday's)
    recurring = RECURRING_DAYS.search(sentence) if first_time is None else _said_with(
        sentence, first_time.start, first_time.end)
    if started and any(sl.kind.value == "date" and _runs_from(sentence, sl) for sl in slots):
        recurring = None  # "when did wednesday nights start": the day they run from
    if recurring is not None:
        clock = times[0] if times else ""
        return f"{recurring.group()} {clock}".strip(), ""
    asked_days = _days_asked(qa.text)
    named = [sl for sl in slots if sl.kind.value == "date" and _BARE_WEEKDAY.fullmatch(
        sl.text.strip()) and weekdays_in(sl.text) <= asked_days]
    for sl in slots:
        if sl.kind.value != "date":
            continue
        if asked_days and weekdays_in(sl.text) and not weekdays_in(sl.text) & asked_days:
            continue  # "saturday hours go to 9-1" tells no weekday's hours
        if prefer == "past" and sl in named and len(named) < sum(
                x.kind.value == "date" for x in slots):
            continue  # "handing the sunday rides over from 16 june": the day names the rides
        res = resolve_date(sl.text, said, prefer="past" if prefer == "past" else "future")
        if res is not None and _DAY_OF_MONTH.search(sl.text) and not _YEAR.search(sl.text):
            # "from 16 June", said on 6 June: the 16 June nearest when it was said, whether
            # the question asks what happened or what will
            other = resolve_date(sl.text, said, prefer="future" if prefer == "past" else "past")
            if other is not None and abs(other.start - said.date()) < abs(res.start - said.date()):
                res = other
        if res is None:
            found = resolved_dates(sl.text, said, prefer="past" if prefer == "past"
                                   else "future")
            res = found[0][1] if found else None
        if res is None:
            continue
        text = sl.text.strip(_TRAILING)
        tail = _RANGE_AFTER.match(sentence, sl.end)
        hour = _DAY_AT_HOUR.match(sentence, sl.end)
        if tail is not None:
            text = f"{text} {tail.group(1)}"
        elif hour is not None and not has_clock(text):
            text = f"{text} {hour.group().strip()}"  # "2moro at 8"
        elif times and not has_clock(text):
            # the time said in the day's own part ("saturday hours go to 9-1"), else the
            # nearest the question's words
            lo, hi = _part_at(sentence, sl.start)
            own = [clock_span(sentence, t.start, t.end) or t.text for t in timed
                   if lo <= t.start < hi]
            text = f"{text} {(own or times)[0]}"
        return text, _said(res, text)
    if recurring is not None:
        clock = times[0] if times else ""
        return f"{recurring.group()} {clock}".strip(), ""
    numeric = numeric_days(sentence, said)
    if numeric:  # "LAV lease ends 31/1"
        return numeric[0][0], _said(numeric[0][1], numeric[0][0])
    return (times[0], "") if times else ("", "")


# A day of a named month ("16 June", "june 16th"), and a year.
_DAY_OF_MONTH = re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s(?:of\s)?(?:jan|feb|mar|apr|may|jun|jul|"
                           r"aug|sep|oct|nov|dec)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|"
                           r"nov|dec)[a-z]{0,6}\s\d{1,2}(?:st|nd|rd|th)?\b", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
# A weekday alone, one or many ("sunday", "the sundays").
_BARE_WEEKDAY = re.compile(r"(?:the\s)?(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)"
                           r"[a-z]{0,6}", re.IGNORECASE)


# What joins the days of a list ("tuesdays + thursdays", "mondays and fridays").
_LISTED = re.compile(r"\s{0,2}(?:[+&,/]|and|or)\s{0,2}", re.IGNORECASE)
# Where a sentence ends inside a message's text.
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
# Where a part of a sentence ends: a comma, semicolon or stop not inside a number.
_PART_BREAK = re.compile(r"[,;.!?](?!\d)")


# The days a kind of day stands for ("weekdays", "weekends"), by their first three letters.
_DAY_KINDS: dict[str, frozenset[str]] = {
    kind: frozenset(day[:3] for day in WEEKDAY_CONTRASTS[kind][0])
    for kind in ("weekday", "weekend")}


def _runs_from(sentence: str, sl: Slot) -> bool:
    """Whether the slot ``sl`` is the day something runs from ("from the 25th")."""
    return _FROM.search(sentence[max(0, sl.start - 14):sl.start]) is not None


def _days_asked(question: str) -> set[str]:
    """The weekdays ``question`` names, by their first three letters, a kind of day
    ("weekday hours") standing for its days."""
    days = weekdays_in(question)
    for word in re.findall(r"[a-z]{7,9}", question.lower()):
        days |= _DAY_KINDS.get(word.removesuffix("s"), frozenset())
    return days


def _part_at(sentence: str, at: int) -> tuple[int, int]:
    """The bounds of the part of ``sentence`` holding position ``at``."""
    lo = max((m.end() for m in _PART_BREAK.finditer(sentence, 0, at)), default=0)
    hi = next((m.start() for m in _PART_BREAK.finditer(sentence, at)), len(sentence))
    return lo, hi


def _said_with(sentence: str, start: int, end: int) -> re.Match[str] | None:
    """The recurring day ("sundays") the time at ``start``..``end`` is said with: the last
    one before it in its sentence with no other day between ("we're on Wednesdays,
    7:30–9pm"; not "sundays" for the 9-1 of "saturday hours go to 9-1, still closed
    sundays"), else one right after it ("9-10am sundays"); None when there is none."""
    before = list(RECURRING_DAYS.finditer(sentence, 0, start))
    if before:
        between = sentence[before[-1].end():start]
        if not weekdays_in(between) and not _SENTENCE_END.search(between):
            at = len(before) - 1
            while at and _LISTED.fullmatch(sentence[before[at - 1].end():before[at].start()]):
                at -= 1  # "tuesdays + thursdays at 20:00": the list, from its first day
            return before[at]
    gap = re.match(r"\s{1,2}", sentence[end:])
    return RECURRING_DAYS.match(sentence, end + gap.end()) if gap is not None else None


# A question asking the day something runs from ("from when", "from which saturday",
# "starting when", "as of when").
_FROM_WHEN = re.compile(r"\W{0,3}(?:from|starting|as of|beginning)\s(?:when|which|what)\b",
                        re.IGNORECASE)
# A question asking when something started ("when did the wednesday nights start").
_ASKS_START = re.compile(r"\bwhen\b.{0,60}\b(?:start|started|begin|began|kick(?:ed)? off)\b",
                         re.IGNORECASE)
# A start said right before its day ("Rosa starts 11 April", "kicks off on the 3rd").
_STARTS_ON = re.compile(r"\b(?:starts|begins|kicks\soff)\s(?:on\s)?(?:the\s)?$", re.IGNORECASE)
# The word opening the day something runs from ("from the 25th", "starting mon 4th").
_FROM = re.compile(r"\b(?:from|starting|as of|beginning|effective)\s(?:the\s)?$", re.IGNORECASE)


# The speaker's own plan ahead ("i'll open applications thursday", "we're going to …").
_WILL = re.compile(r"\b(?:i'll|i’ll|we'll|we’ll|i will|we will|i'm going to|we're going to|"
                   r"gonna)\b", re.IGNORECASE)


# "at 3": a bare hour after "at", no clock time written out.
_BARE_HOUR_AT = r"(?:at|@)\s(?:1[0-2]|[1-9])(?![\w:.,/%-]|\s?(?:am|pm|o'?clock)\b)"
# A bare hour right after a day, with "at" ("2moro at 8", "sat at 2"): that day's time.
_DAY_AT_HOUR = re.compile(r"\s" + _BARE_HOUR_AT + r"(?!\s(?:ppl|people|kids|adults|of|per|each)\b)",
                          re.IGNORECASE)
# A bare hour after "at" ("ceremony at 3"), not a count or an amount ("at 3 tables").
_AT_HOUR = re.compile(r"\b" + _BARE_HOUR_AT + r"(?!\s[a-z]{3,20})", re.IGNORECASE)


# A value that is a range of bare hours ("11 to 3", "9-5"): a time of day, as the message
# analyzer reads it where a time is proposed or agreed.
_HOUR_RANGE = re.compile(r"\s{0,3}(?:[01]?\d|2[0-4])(?::\d{2})?\s?(?:-|–|to|till|until)\s?"
                         r"(?:[01]?\d|2[0-4])(?::\d{2})?\s{0,3}")


# a value the analyzer read as a 24-hour time ("2130")
_FOUR_DIGITS = re.compile(NOT_YEAR + HHMM)


def _said(res: DateResolution, text: str) -> str:
    """A resolved day with its weekday unless ``text`` names it ("Friday 6 June 2025"); a
    range as spoken."""
    return weekday_day(res.start, text) if res.start == res.end else res.spoken()


def clock_beside(text: str, day: str) -> str:
    """The time of day ``text`` gives right after the day ``day`` it states, with only a
    word of meeting or starting between ("dawn chorus walk: sun 3 may, meet 4:30am at the
    north gate" → "4:30am"); "" when it gives none there."""
    at = text[:MAX_TEXT].lower().find(day.lower()) if day else -1
    if at < 0:
        return ""
    end = at + len(day)
    for sl in find_slots(text[:MAX_TEXT]):
        if sl.start < end or sl.kind is not SlotKind.TIME or not has_clock(sl.text):
            continue
        if _BESIDE.fullmatch(text[end:sl.start]) is None:
            return ""
        return clock_span(text, sl.start, sl.end) or sl.text
    return ""


def day_beside(text: str, clock: str, said: datetime) -> str:
    """The day ``text`` (a message said at ``said``) gives in the sentence stating the time
    of day ``clock``, with the calendar day it means ("📍 meetup TOMORROW: …, 1–5pm" →
    "TOMORROW (Saturday 26 April 2025)"); "" when that sentence gives none or several."""
    timed = re.compile(rf"(?<![\w:.]){re.escape(clock)}(?![\w:])", re.IGNORECASE)
    for sentence in split_sentences(text[:MAX_TEXT]):
        if timed.search(sentence) is None:
            continue
        days = [sl for sl in find_slots(sentence) if sl.kind is SlotKind.DATE
                and has_day(sl.text) and not has_clock(sl.text)]
        if len({sl.text.lower() for sl in days}) != 1:
            continue
        day = calendar_day(days[0].text, said)
        return f"{days[0].text} ({day})" if day else days[0].text
    return ""


def calendar_day(value: str, said: datetime, *, short: bool = False) -> str:
    """The calendar day a when-value names, as said ("sept 26" → "26 September 2025");
    empty when it names none, or a range or month. With ``short``, a weekday written short
    ("wed", "sat 7pm") names one too (a value known to be a day; in running text such
    words are as often other words)."""
    day = calendar_date(value, said, short=short)
    return weekday_day(day, value) if day is not None else ""


def calendar_date(value: str, said: datetime, *, short: bool = False) -> date | None:
    """The one calendar day a when-value names (see :func:`calendar_day`), or None."""
    if is_day_span(value) or recurs_only(value):
        return None  # "16-27 march": a span, not its last day; "every friday": no one day
    found = resolved_dates(value, said, prefer="future")
    if found:
        res = found[0][1]
        return res.start if res.start == res.end else None
    if not short:
        return None
    # a value said to be a day ("wed", "sat 7pm"): its weekday, however short, is one —
    # alone or with its time only ("wed nights", "sat or sun" are no one day); said on that
    # weekday, it is that very day
    m = _SHORT_DAY.fullmatch(value.strip())
    if m is None:
        return None
    weekday = resolve_date(m.group("wd"), said, prefer="future")
    if weekday is None or weekday.start != weekday.end:
        return None
    ahead = (weekday.start - said.date()).days
    return said.date() if ahead == 7 else weekday.start


# A weekday said alone or with its time only ("wed", "Sat 7pm", "fri, 8:30").
_SHORT_DAY = re.compile(r"(?P<wd>(?i:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun))\.?"
                        r"(?:,?\s{1,3}(?:at\s)?\d{1,2}(?:[:.]\d\d)?\s?(?i:am|pm)?)?")


# What may stand between a day and its time ("sun 3 may, meet 4:30am", "fri from 6pm",
# "tonight! 7pm").
_BESIDE = re.compile(r"[\s,;(!-]{0,4}(?:(?:meet(?:ing)?|start(?:s|ing)?|kick-?off|doors(?:\s"
                     r"open)?|from|arrive|arrival)\s{1,3})?(?:at\s{1,3}|@\s?)?",
                     re.IGNORECASE)


def kept_clock(text: str, before: Sequence[str]) -> str:
    """The time of day a day's move keeps: the one time ``text`` (the moving message) says,
    else the latest one the values ``before`` it held ("THURSDAYS …, still 7pm")."""
    said = {sl.text for sl in find_slots(text[:MAX_TEXT])
            if sl.kind is SlotKind.TIME and has_clock(sl.text)}
    if len(said) == 1:
        return said.pop()
    for value in reversed(before):
        held = [sl.text for sl in find_slots(value) if sl.kind is SlotKind.TIME
                and has_clock(sl.text)]
        if held:
            return held[0]
    return ""


def is_day_span(value: str) -> bool:
    """Whether ``value`` joins two days of a month by a dash ("16-27 march", "feb 16-20"),
    not two clock times."""
    return _DAY_SPAN.search(value) is not None


_DAY_SPAN = re.compile(r"(?<![\d:.])\d{1,2}(?:st|nd|rd|th)?\s?[-–]\s?\d{1,2}(?:st|nd|rd|th)?"
                       r"(?![\d:.]|\s?(?:am|pm)\b)", re.IGNORECASE)


def has_clock(text: str) -> bool:
    """Whether ``text`` holds a time of day (also inside a date: "Thu Feb 25, 6:30pm"), or
    is a range of hours ("11 to 3")."""
    return has_time_of_day(text) or _HOUR_RANGE.fullmatch(text) is not None or \
        _FOUR_DIGITS.fullmatch(text.strip()) is not None


def has_day(text: str) -> bool:
    """Whether ``text`` names a day (a date, a weekday, "tomorrow", "fridays"), not only a
    time."""
    return RECURRING_DAYS.search(text[:MAX_TEXT]) is not None or any(
        s.kind.value == "date" for s in find_slots(text[:MAX_TEXT]))


def time_range_end(text: str) -> str:
    """The end of the first clock range in ``text`` ("14:03-14:38" → "14:38")."""
    times = [s.text for s in find_slots(text[:MAX_TEXT]) if s.kind.value == "time"]
    return times[1] if len(times) > 1 else ""
