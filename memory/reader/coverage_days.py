"""The days a question names, and how they scope the coverage test: a unit told on (or
naming) a day the question asks about covers it; one told on another day covers it at a
share, or not at all when the question pins a day or month ("the week of mar 24")."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from memory.analysis.cue_words import MONTH_WORDS, WEEKDAY_WORDS, _alternation
from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis, months_named
from memory.analysis.slot_patterns import NUMERIC_DAY
from memory.dates import DateResolution, find_date_expressions, resolve_date
from memory.dates.days import MONTH_OF_WORD, months_in
from memory.text import find_slots, weekdays_in

if TYPE_CHECKING:
    from memory.reader.coverage import Unit


def scoped_by_days(qa: QuestionAnalysis) -> bool:
    """Whether the days a question names say when its answer was told or happens ("on
    call the week of mar 24", "what did Nate do on 9 November"), rather than being a value
    of the change it asks about ("why did it move off Thursday", "who moved it to the
    22nd", "what was it before the 21st")."""
    if qa.kind in (QuestionKind.WHY, QuestionKind.PREVIOUS, QuestionKind.ORIGINAL):
        return False
    return not (qa.kind is QuestionKind.WHO and qa.role in ("changer", "decider"))


def question_days(qa: QuestionAnalysis, reference: datetime | None
                   ) -> list[tuple[DateResolution, bool]]:
    """The days the question names (each read both backward and forward from the
    reference: "the april meetup" may be last April's or the next), each with whether it is
    specific (a month, a day of the month, a year) rather than a weekday or a relative
    word."""
    if reference is None:
        return []
    out = []
    for expr in qa.dates:
        specific = bool(_SPECIFIC.search(expr))
        if not specific and _OF_A_DAY.search(qa.text) is not None and re.fullmatch(
                r"(?:the\s)?week(?:end)?", expr.strip(), re.IGNORECASE):
            continue  # "the 4th of july weekend" is the weekend of that day, not this one
        for prefer in ("past", "future") if specific else ("past" if qa.past else "future",):
            res = resolve_date(expr, reference, prefer=prefer)
            if res is not None:
                out.append((res, specific))
    return out


# A weekend or week named by the day it holds ("4th of july weekend", "the 12th week").
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]{0,6}"
# (or by the occasion it holds: "memorial day weekend", "the bank holiday weekend")
_OF_A_DAY = re.compile(r"(?:\d(?:st|nd|rd|th)?|\b" + _MONTH + r")\s{1,3}week(?:end)?\b|"
                       r"\bweek(?:end)?\s{1,3}of\s{1,3}(?:the\s{1,3})?(?:\d|" + _MONTH + r"\b)|"
                       r"\b(?:[a-z]{1,15}day|holiday|easter|christmas|xmas|thanksgiving|halloween|"
                       r"new\syear'?s|(?-i:[A-Z][a-z]{1,20}))\s{1,3}weekend\b", re.IGNORECASE)


# A unit neither told on nor naming the question's day covers it at this share.
DATE_MISS = 0.5
DAY_MARGIN = timedelta(days=3)
# ... and at this share when told only within the margin of the day.
DATE_NEAR = 0.9
# A date expression that pins a day or month: a month or year it names ("the week of mar
# 24", "in May 2023"), a day of the month ("the 22nd"), or a day ahead ("next friday",
# "tomorrow"). "thursday" could be any Thursday, and "4 years ago" or "last week" is
# relative to whenever it is read: those only weigh.
_SPECIFIC = re.compile(r"\b" + _MONTH + r"|\b(?:19|20)\d{2}\b|"
                       r"\b\d{1,2}(?:st|nd|rd|th)\b|\bnext\s{1,10}\w{1,6}day\b|\bthis\s{1,10}\w{1,6}day\b|"
                       r"\btomorrow\b|\btonight\b|\btoday\b", re.I)


def dated_score(score: float, unit: Unit, days: Sequence[tuple[DateResolution, bool]]
                 ) -> float:
    """``score`` when ``unit`` is on or names one of the question's days (a few days of
    margin: what happened is often told a day or two later); else 0 when the question
    pins a day or month ("the week of mar 24", "the april meetup"), half when it names only
    a weekday."""
    if on_days(unit, [d for d, _ in days], margin=timedelta(0)):
        return score
    if on_days(unit, [d for d, _ in days]):
        return score * DATE_NEAR
    if names_the_months(unit, [d for d, _ in days]):
        return score
    if any(specific for _, specific in days):
        return 0.0
    # a bare weekday is any of its days: "the sunday rides" are the rides the chat calls
    # "sunday rides", whichever Sunday it said so on
    asked = weekdays_in(_WORDS_TOO.sub(" ", " ".join(d.text for d, _ in days)))
    return score if asked & weekdays_in(_WORDS_TOO.sub(" ", unit.told)) else score * DATE_MISS


# Short forms that are other words too ("we sat outside", "the sun's out").
_WORDS_TOO = re.compile(r"\b(?:sat|sun|wed|mon)\b", re.IGNORECASE)


def names_the_months(unit: Unit, days: Sequence[DateResolution]) -> bool:
    """Whether ``unit`` names by its bare name a month one of ``days`` is ("475/month
    starting april" for "the dues from april"), which a scan for date expressions leaves
    out of running text ("may" only capitalised: "we may need" names none)."""
    asked = {d.start.month for d in days if d.granularity == "month"}
    if not asked:
        return False
    named = {MONTH_OF_WORD[m.group(1).lower()] for m in _MONTH_WORD.finditer(unit.told)
             if m.group(1).lower() in MONTH_OF_WORD and (
                 m.group(1).lower() != "may" or _MAY_MONTH.search(
                     unit.told, max(0, m.start() - 12), m.end() + 4) is not None)}
    return bool(asked & named)


_MONTH_WORD = re.compile(r"\b([A-Za-z]{3,9})\b")
# "may" as the month: after a word of time or before a day ("from May", "may 3rd"; not
# "May need to push the rota back")
_MAY_MONTH = re.compile(r"\b(?:in|from|of|since|until|till|til|starting|by|early|mid|late|"
                        r"end|during|for)\s{1,3}may\b|\bmay\s{1,3}\d", re.IGNORECASE)


def on_days(unit: Unit, days: Sequence[DateResolution], *,
             margin: timedelta = DAY_MARGIN) -> bool:
    """Whether ``unit`` was told on, or names, one of ``days`` (told within ``margin``)."""
    ts = unit.ts
    if ts is None:
        return False
    told = ts.date()
    if any(d.start - margin <= told <= d.end + margin for d in days):
        return True
    return names_days(unit, days)


def names_days(unit: Unit, days: Sequence[DateResolution]) -> bool:
    """Whether ``unit`` names one of ``days`` (read from when it was told)."""
    ts = unit.ts
    if ts is None:
        return False
    for expr in day_expressions(unit.told)[:6]:
        for prefer in ("past", "future"):
            res = resolve_date(expr, ts, prefer=prefer)
            if res is not None and any(res.start <= d.end and d.start <= res.end
                                       for d in days):
                return True
    return any(res.start <= d.end and d.start <= res.end
               for _, res in numeric_days(unit.told, ts) for d in days)


@functools.lru_cache(maxsize=4096)
def day_expressions(text: str) -> tuple[str, ...]:
    """The days ``text`` names: its date expressions and the chat forms its date slots
    name whole ("kwame closing sat 12th", "deadline fri 18th"), which a scan of running
    text leaves out."""
    found = list(find_date_expressions(text))
    # Only forms that spell a weekday or month: a bare "4/22" read both ways would be any
    # year's April 22nd.
    found += [s.text for s in find_slots(text) if s.kind.value == "date"
              and any(c.isalpha() for c in s.text)
              and not any(s.text in f or f in s.text for f in found)]
    return tuple(found)


# "ends 31/1", "6/14 Mia": a day written as numbers (the slot patterns' form), not a price,
# a fraction of one or a percentage.
_NUMERIC_DAY = re.compile(rf"(?<![\d/.$£€]){NUMERIC_DAY}(?!%)")


def numeric_days(text: str, ts: datetime) -> list[tuple[str, DateResolution]]:
    """The days ``text`` writes as numbers where only one order is a calendar day, as
    written and as the reading nearest ``ts`` (a chat names the day just past or just
    ahead)."""
    return list(_numeric_days(text, ts))


# The same units are read for every question of a session.
@functools.lru_cache(maxsize=4096)
def _numeric_days(text: str, ts: datetime) -> tuple[tuple[str, DateResolution], ...]:
    out: list[tuple[str, DateResolution]] = []
    for m in _NUMERIC_DAY.finditer(text[:2000]):
        readings = [r for p in ("past", "future")
                    if (r := resolve_date(m.group(), ts, prefer=p)) is not None]
        if readings:
            told = ts.date()
            out.append((m.group(), min(readings, key=lambda r: abs((r.start - told).days))))
    return tuple(out)


# A day of the month beside its weekday or month ("saturday 14th", "the 14th of march"),
# not an ordinal of a thing ("4th place").
_WEEKDAY_OR_MONTH = _alternation((*WEEKDAY_WORDS, *MONTH_WORDS))
_ORD = r"((?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th))"
_DAY_ORDINALS = (
    re.compile(r"\b(?:" + _WEEKDAY_OR_MONTH + r")\.?\s(?:the\s)?" + _ORD + r"\b", re.IGNORECASE),
    re.compile(r"\b" + _ORD + r"\s(?:of\s)?(?:" + _WEEKDAY_OR_MONTH + r")\b", re.IGNORECASE),
)


def days_named(text: str) -> set[str]:
    """The days of the month ``text`` names beside their weekday or month."""
    return {m.group(1).lower() for p in _DAY_ORDINALS for m in p.finditer(text)}


def with_day_named(weights: Sequence[float], scored: Sequence[tuple[float, Unit]],
                   days: Sequence[tuple[DateResolution, bool]]) -> list[tuple[float, Unit]]:
    """``scored`` with the single days a question names as the value of the change it asks
    about ("why did it move to the 18th") weighed as one of its words (of the question's
    heaviest ``weights``) for the units naming them; not a period ("why are tickets dearer
    this year")."""
    moved_to = [d for d, _ in days if d.start == d.end]
    if not moved_to or not weights:
        return list(scored)
    total, share = sum(weights), max(weights)
    return [(max(s, (s * total + share) / (total + share))
             if s > 0 and names_days(u, moved_to) else s, u) for s, u in scored]


def another_months(qa: QuestionAnalysis, unit: Unit) -> bool:
    """Whether the question names which month's instance of a thing it asks about ("who's
    judging the *may* comp") and ``unit`` names that thing by another month only ("April
    comp closed … Kim judging live"; not "the next comp, entries close 30 April")."""
    lows = [w.lower() for w in re.findall(r"[\w'’-]{1,30}", qa.text)]
    named = months_named(qa.text)
    things = {lows[i + 1] for i, w in enumerate(lows[:-1]) if w in named}
    if not things:
        return False
    asked = {MONTH_OF_WORD[w] for w in named}
    text = " ".join((unit.told, unit.context, unit.thread))
    said = {MONTH_OF_WORD[m.group(1).lower()] for m in _MONTH_BEFORE.finditer(text)
            if m.group(2).lower() in things and m.group(1).lower() in MONTH_OF_WORD}
    return bool(said) and not said & asked and not months_in(text) & asked


# A month word right before a noun ("April comp").
_MONTH_BEFORE = re.compile(r"\b([A-Za-z]{3,9})(?=(?:'s)?\s{1,3}([\w'’-]{2,30}))")
