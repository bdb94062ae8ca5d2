"""Comparing values: is the value a message names the one a state holds?

"the 20th" names "Dec 20", "412" names "build 412", "05:00" is already part of "sat 22nd,
02:00-05:00", "2:30" is "2:30pm". A value is broken into parts (day, month, weekday, clock
time on a 12-hour dial, words) and compared part by part.
"""

from __future__ import annotations

import re

from memory.analysis.cue_words import (
    CHANGE_VERBS,
    CONTRASTING_MODIFIERS,
    FACET_NOUNS,
    NUMBER_WORDS,
)
from memory.analysis.slot_patterns import MONEY_PATTERN
from memory.analysis.values import STATUS_FAMILY
from memory.text import STOPWORDS, clean, content_terms, is_calendar_word, stem, value_key

_MONTHS = {m: i for i, names in enumerate((
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
    ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
    ("oct", "october"), ("nov", "november"), ("dec", "december")), start=1) for m in names}
_WEEKDAYS = {d: i for i, names in enumerate((
    ("mon", "monday", "mondays"), ("tue", "tues", "tuesday", "tuesdays"),
    ("wed", "weds", "wednesday", "wednesdays"), ("thu", "thur", "thurs", "thursday", "thursdays"),
    ("fri", "friday", "fridays"), ("sat", "saturday", "saturdays"),
    ("sun", "sunday", "sundays"))) for d in names}
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s?(am|pm|a\.m\.|p\.m\.)?(?![\w%])",
                    re.IGNORECASE)
_DAY = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9][a-z0-9.'-]{0,200}", re.IGNORECASE)
_FILLER = frozenset("the a an at on in of same window from to until till by and".split())
#: Kinds of value that can stand for one another: a venue may be named as a choice.
_COMPATIBLE = ({"name", "where"},)


def compatible(family: str, state_family: str) -> bool:
    """Whether a value of ``family`` can replace one of ``state_family`` (a cancellation
    ends a state of any kind)."""
    if family == STATUS_FAMILY or family == state_family:
        return True
    if not state_family:
        return family == "name"
    return any({family, state_family} <= group for group in _COMPATIBLE)


def parts(value: str) -> set[str]:
    """The parts of a value: ``d:20`` (day of month), ``m:12``, ``w:4`` (weekday),
    ``t:2:30`` (clock time on a 12-hour dial), and its other words."""
    text = clean(value).lower()
    out: set[str] = set()
    consumed: list[tuple[int, int]] = []
    for m in _CLOCK.finditer(text):
        has_colon = m.group(2) is not None
        if not (has_colon or m.group(3)):
            continue
        hour = int(m.group(1)) % 12
        out.add(f"t:{hour}:{m.group(2) or '00'}")
        consumed.append(m.span())
    for m in _DAY.finditer(text):
        out.add(f"d:{int(m.group(1))}")
        consumed.append(m.span())
    words = [(m.group(0), m.span()) for m in _WORD.finditer(text)]
    for i, (w, span) in enumerate(words):
        if any(s <= span[0] < e for s, e in consumed):
            continue
        w = w.strip(".'")
        if w in _MONTHS:
            out.add(f"m:{_MONTHS[w]}")
            if i + 1 < len(words) and words[i + 1][0].isdigit() and len(words[i + 1][0]) <= 2:
                out.add(f"d:{int(words[i + 1][0])}")
                consumed.append(words[i + 1][1])
            elif i + 1 < len(words) and re.fullmatch(r"\d{1,2}[-–]\d{1,2}", words[i + 1][0]):
                for day in re.split(r"[-–]", words[i + 1][0]):  # "july 11-18"
                    out.add(f"d:{int(day)}")
                consumed.append(words[i + 1][1])
        elif w in _WEEKDAYS:
            out.add(f"w:{_WEEKDAYS[w]}")
        elif w.isdigit() and len(w) <= 2 and i > 0 and words[i - 1][0].strip(".") in _MONTHS:
            continue
        elif (w.isdigit() and len(w) <= 2 and i + 1 < len(words)
              and words[i + 1][0].strip(".") in _MONTHS):
            out.add(f"d:{int(w)}")  # "21 Oct"
        elif (w.isdigit() and 1 <= int(w) <= 31 and i > 0
              and words[i - 1][0].strip(".") in _WEEKDAYS):
            out.add(f"d:{int(w)}")  # "thu 22"
        elif w not in _FILLER:
            out.add(w)
    return out


def values_match(named: str, value: str) -> bool:
    """Whether ``named`` (as a message says it) names ``value`` (as a state holds it):
    "the 20th" names "Dec 20", "412" names "build 412", "eu-west-1" names "eu-west-1"."""
    a, b = value_key(named), value_key(value)
    if not a or not b:
        return False
    if a == b:
        return True
    pa = {p for p in parts(named) if p not in _RELATIVE}
    return bool(pa) and pa <= parts(value)


def same_value(new: str, current: str) -> bool:
    """Whether ``new`` adds nothing to ``current``: the same value, or a part of it
    ("05:00" of "02:00-05:00", "tomorrow at 2:30" of "Tue Oct 22, 2:30pm" — relative words
    aside, which only the reference day could settle)."""
    a, b = value_key(new), value_key(current)
    if not a or not b:
        return False
    if a == b:
        return True
    pa = {p for p in parts(new) if p not in _RELATIVE}
    pb = parts(current)
    return bool(pa) and pa <= pb


_RELATIVE = frozenset({"today", "tomorrow", "tonight", "tmrw", "tmr", "tmw", "tomo", "2moro",
                       "2morrow", "tmrow", "tdy", "tonite", "2nite", "next", "this",
                       "coming", "week", "pm", "am", "morning", "afternoon", "evening"})


_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")


def abbreviates(subject: str, topic: str) -> bool:
    """Whether ``subject`` names ``topic`` by its initials ("JC" → "journal club", "DR" →
    "disaster recovery region") or by its words cut short ("reg close" → "registration
    close", "conf" → "conference"), or the other way round."""
    for short, long in ((subject, topic), (topic, subject)):
        words = [w for w in re.findall(r"[A-Za-z][\w'-]{0,200}", long)]
        initials = "".join(w[0].upper() for w in words)
        for m in _ACRONYM.finditer(short):
            if len(m.group(0)) >= 2 and m.group(0) in initials:
                return True
        if _cut_short(short, [w.lower() for w in words]):
            return True
    return False


def names_cut_short(text: str, topic: str) -> bool:
    """Whether ``text`` names a word of ``topic`` cut short ("reg" for "registration")."""
    long_words = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]{0,200}", topic)]
    return any(w not in _FILLER and _shortens(w, long_words)
               for w in (x.lower() for x in re.findall(r"[A-Za-z][\w'-]{0,40}", text[:2000])))


def _cut_short(short: str, long_words: list[str]) -> bool:
    """Whether every word of ``short`` is a word of the long phrase or its first letters
    (at least three, and at least two fewer than the word), one of them cut."""
    said = [w.lower() for w in re.findall(r"[A-Za-z][\w'-]{0,200}", short)
            if w.lower() not in _FILLER]
    cut = False
    for w in said:
        if w in long_words:
            continue
        if not _shortens(w, long_words):
            return False
        cut = True
    return cut


def _shortens(word: str, long_words: list[str]) -> bool:
    """Whether ``word`` is the first letters of one of ``long_words`` (at least three, and
    at least two fewer than the word: "reg" of "registration")."""
    return len(word) >= 3 and any(lw.startswith(word) and len(lw) >= len(word) + 2
                                  for lw in long_words)


_BUILD = re.compile(r"\b(?:rc|build|beta|alpha|b|nightly)[\s.-]?\d|\brc\b|^\d{3,6}$",
                    re.IGNORECASE)


def same_grain(a: str, b: str) -> bool:
    """Whether two version values are of one grain: a release ("2.4") and a build or
    release candidate of it ("rc1", "build 418", "2.4.0-rc1") never replace one another."""
    return is_build(a) == is_build(b)


def clock_for_day(clock_only: bool, value: str) -> bool:
    """Whether a clock time said alone (``clock_only``) would stand in for a value naming
    a day and no time ("ok 6:30" after "Thursday 12th"): it is the time of something, not
    a new day. A bare number or range of them may be hours and does not count as a day."""
    return clock_only and not (_CLOCK_IN.search(value) or _BARE_HOURS.fullmatch(value.strip()))


def day_for_clock(day_only: bool, value: str, *, clock_beside: bool) -> bool:
    """Whether a day said without a time (``day_only``), beside a time said in the same
    clause (``clock_beside``: "now Friday Sept 19, Buckhorn farm, from 8pm"), would stand
    in for a value that is a time alone ("8pm" for the gates): the day is the event's, the
    time beside it that value's."""
    return day_only and clock_beside and bool(_CLOCK_IN.search(value)) and not (
        _DAY_IN.search(value))


def has_clock_in(value: str) -> bool:
    """Whether ``value`` holds a time of day ("Fri 8pm", "10:30")."""
    return _CLOCK_IN.search(value) is not None


_DAY_IN = re.compile(r"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]{0,6}\b|\b\d{1,2}(?:st|nd|rd|th)\b|"
                     r"\b\d{1,2}/\d{1,2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                     r"[a-z]{0,7}\b|\b(?:today|tonight|tomorrow|tmrw)\b", re.IGNORECASE)


_CLOCK_IN = re.compile(r"\d[:.]\d{2}\b|\d\s?(?:am|pm|a\.m\.|p\.m\.)|\b(?:noon|midday|midnight)\b",
                       re.IGNORECASE)
_BARE_HOURS = re.compile(r"\d{1,2}(?:\s?[-–]\s?\d{1,2})?")


def is_build(value: str) -> bool:
    """Whether a version value names a build or a candidate ("rc1", "build 418")."""
    return _BUILD.search(value.strip()) is not None


_MONEY = re.compile(MONEY_PATTERN, re.IGNORECASE)
_COUNTED = re.compile(r"(?:\d|\b(?:" + "|".join(sorted({*NUMBER_WORDS, "forty", "dozen"}))
                      + r"))\s(?!(?:grand|bucks|quid|dollars|euros|pounds|cents)\b)[a-z]{2,30}",
                      re.IGNORECASE)


def measure(value: str) -> str:
    """What an amount measures: ``"money"`` ("£6.80", "40 grand"), ``"count"`` ("150 tees"),
    or ``""`` for a number alone, which may be either."""
    if _MONEY.search(value):
        return "money"
    return "count" if _COUNTED.search(value) else ""


def same_measure(a: str, b: str) -> bool:
    """Whether two amounts may replace one another: a price never replaces a count of
    things ("150 tees" is no new price of "£6.80")."""
    x, y = measure(a), measure(b)
    return not (x and y and x != y)


def same_counted(a: str, b: str) -> bool:
    """Whether two counts may be one thing's: not when each names what it counts and the
    two differ ("7 heats" is no new "4 pilots" a heat; "6 weeks" may follow "3 months")."""
    p, q = _counted_noun(a), _counted_noun(b)
    return not (p and q and p != q)


def _counted_noun(value: str) -> str:
    """What a count counts, stemmed, with every unit of time one ("duration") and every
    word for people one ("people"); "" when it names nothing."""
    for m in _COUNTED_NOUN.finditer(value.lower()):
        run = m.group(1).split()
        # the noun ends the words counted: "150 forest green tees", "600 race numbers"
        cut = next((i for i, w in enumerate(run) if w in _NOT_COUNTED or w in STOPWORDS
                    or is_calendar_word(w)), len(run))
        if not cut:
            continue
        root = stem(run[cut - 1])
        if root in _DURATIONS:
            return "duration"
        return "people" if root in _PEOPLE else root
    return ""


_COUNTED_NOUN = re.compile(r"\d[\d,.]{0,12}\s?([a-z]{3,20}(?:\s[a-z]{1,20}){0,3})\b")
# (besides the stopwords and calendar words)
_NOT_COUNTED = frozenset("per max tops total less extra instead".split())
_DURATIONS = frozenset(stem(w) for w in """day days week weeks wks month months hour hours
hrs min mins minute minutes sec secs second seconds year years yrs""".split())
_PEOPLE = frozenset(stem(w) for w in """people ppl person persons pax heads guests
attendees""".split())


def siblings(a: str, b: str) -> bool:
    """Whether two subjects share a word but name two things of one thing: the longer one,
    containing the other, ends on a head the shorter lacks ("playtest feedback survey" /
    "playtest", "van insurance" / "van"), or they end on different heads, neither in the
    other ("playtest build" / "playtest survey"). Not one thing named twice ("Atlas
    design review" / "the review", "ledger migration" / "migration", "layoff review with
    the board" / "layoff review"). A verb or an aspect noun ending a subject ("playtest
    slides", "summit venue") is not its head, nor is a phrase after a preposition."""
    x, y = _head_terms(a), _head_terms(b)
    if not x or not y or not set(x) & set(y):
        return False
    if set(x) <= set(y) or set(y) <= set(x):
        short, long_ = (x, y) if len(set(x)) < len(set(y)) else (y, x)
        return long_[-1] not in short
    if x[-1] == y[-1] and _contrast(set(x) - set(y), set(y) - set(x)):
        return True  # "half plot" / "full plot": two kinds of one thing
    return x[-1] not in y and y[-1] not in x


def shared_verbs_only(a: set[str], b: set[str]) -> bool:
    """Whether two stemmed subjects share only words of what happens ("prints arriving" /
    "dinghy arrives", "doors open" / "shop opens") while each names a thing of its own:
    the shared verb makes them no one thing."""
    shared = a & b
    if not shared or not shared <= _TRAILING_VERBS:
        return False
    return bool(a - shared - _TRAILING_VERBS - _FACETS) and bool(
        b - shared - _TRAILING_VERBS - _FACETS)


def other_of_kind(a: str, b: str, *, asked: frozenset[str] = frozenset()) -> bool:
    """Whether two subjects name two things of one kind: the same head, each with a word of
    its own before it ("watch party" / "lan party", "q3 planning" / "q4 planning"); a
    word of its own that ``asked`` (stemmed) names does not count."""
    x, y = _head_terms(a), _head_terms(b)
    if len(x) < 2 or len(y) < 2 or x[-1] != y[-1]:
        return False
    return bool(set(x) - set(y) - asked) and bool(set(y) - set(x))


def named_otherwise(a: str, b: str, text: str, asked: frozenset[str]) -> bool:
    """Whether subject ``a`` (of a message saying ``text``) names another thing of the kind
    of ``b``: both end on one word, ``a`` has a word of its own the question (``asked``,
    stemmed) does not name, and the word of ``b``'s own the question names is not said in
    ``text`` ("committee meeting got moved" beside the "lab meeting" asked about)."""
    x, y = content_terms(a), content_terms(b)
    if not x or not y or x[-1] != y[-1]:
        return False
    return bool(set(x) - set(y) - asked) and bool(
        (set(y) - set(x)) & asked - set(content_terms(text)))


def _contrast(a: set[str], b: set[str]) -> bool:
    """Whether ``a`` and ``b`` hold two words of one group of contrasting modifiers."""
    return any(a & group and b & group for group in _CONTRASTS)


def _head_terms(text: str) -> list[str]:
    """The stemmed words of a subject up to its head: without a phrase after a preposition
    and without the verbs and aspect nouns that end it."""
    cut = _AFTER_HEAD.split(text.lower(), maxsplit=1)[0]
    terms = content_terms(cut) or content_terms(text)
    while len(terms) > 1 and (terms[-1] in _TRAILING_VERBS or terms[-1] in _FACETS):
        terms.pop()  # "summit venue" is the summit's venue: the summit
    return terms


_AFTER_HEAD = re.compile(r"\s(?:with|for|of|at|on|in|about|from|by|before|after)\s")
# Verbs a subject phrase may end on ("the playtest slides", "survey closes"), stemmed.
_TRAILING_VERBS = frozenset(stem(w) for w in (*CHANGE_VERBS, *"""
slide slides slid close closes closed open opens opened start starts started end ends
ended land lands landed ship ships shipped run runs go goes went happen happens lock
locks locked come comes arrive arrives due fire fires fired meet meets collect collects
deliver delivers leave leaves depart departs""".split()))
_FACETS = frozenset(stem(w) for w in FACET_NOUNS)
_CONTRASTS = tuple(frozenset(stem(w) for w in g) for g in CONTRASTING_MODIFIERS)

