"""Typed value slots of a chat message: times, dates, ranges, places, people, versions,
regions, money, counts, named choices and cancellations.

The base patterns of :mod:`memory.text` find times, dates, versions, regions, money, numbers
and decided names; the lexicon adds ranges, ordinal days, builds, places and the patterns
of people. Adjacent parts of one moment ("Fri Oct 18" + "at 11am", "sat 15th" +
"02:00-04:00 cet") join into one value, so a revision quotes the whole of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from memory.analysis.lexicon import PLACE_WORDS_TOO, TOOL_NAMES, Lexicon, default_lexicon
from memory.analysis.people import people_values
from memory.analysis.slot_patterns import (
    CLOCK_AFTER,
    CLOCK_BEFORE,
    DOTTED_CLOCK,
    PLACE_AFTER_WHEN,
    PRICE_AFTER,
    QUARTER_CLOCK,
    SPAN_OF_DAYS,
    VERSION_BEFORE,
)
from memory.analysis.value_types import (
    _RANK,
    _WHEN,
    FAMILY,
    STATUS_FAMILY,
    Kind,
    Token,
    Value,
    tokenize,
)
from memory.dates.days import WEEKDAY_NAMES
from memory.text import STOPWORDS, is_calendar_word, joins_day_set

__all__ = ["BARE_HOURS", "FAMILY", "STATUS_FAMILY", "Kind", "Token", "Value", "find_values", "mask",
           "hours_after_a_day", "people_values", "tokenize", "value_family"]


# Between two parts of one moment: spaces, commas, "at", "@", "from", "on", "the", dashes.
_WHEN_GLUE = re.compile(r"[\s,@(]{0,3}(?:(?:at|from|on|the|by|-|–)[\s,]{1,2}){0,2}",
                        re.IGNORECASE)


_PLUS_ONE = re.compile(r"(?<![\w+])\+1\b")


_FORMATTING = re.compile(r"\*{1,3}|_{2,3}|~~|`{1,3}|^\s{0,4}[•·▪◦-]\s", re.MULTILINE)


def mask(text: str, lexicon: Lexicon) -> str:
    """``text`` with markup, URLs and file names blanked out (same length, so offsets hold)."""
    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    text = lexicon.file_name.sub(blank, lexicon.markup.sub(blank, text))
    # "+1" agrees, it is never a value; **bold**, __underline__, `code`, ~~strike~~ and
    # bullets are formatting
    return _FORMATTING.sub(blank, _PLUS_ONE.sub(blank, text))


def find_values(text: str, lexicon: Lexicon, *, speaker: str = "",
                people: Iterable[str] = ()) -> list[Value]:
    """Every value slot of ``text`` (already masked) in reading order, overlaps resolved in
    favour of the longer span and the more specific kind, parts of one moment joined."""
    found: list[Value] = []
    for kind, pattern in lexicon.slots:
        for m in pattern.finditer(text):
            group = "v" if "v" in pattern.groupindex and m.group("v") else 0
            value = m.group(group).strip()
            if not value or (kind == "count" and not _meaningful_count(value)):
                continue
            if kind == "count" and len(value.split()) > 2 and _labelled(text, m.start(group)):
                continue  # "level 2 support tickets": the number is a label's
            if kind == "count" and _SPAN_BEFORE.search(text, max(0, m.start(group) - 8),
                                                       m.start(group)):
                continue  # "open 10-6 weekdays": the number ends a span, counting nothing
            if kind == "range" and not _plausible_span(value):
                continue  # "4-0 jun 3" is a score and a day, "the 9th to the 3rd" no span
            if kind == "choice" and (is_calendar_word(value.split()[0]) or all(
                    w.lower() in STOPWORDS for w in value.split())
                    or _every_weekday(value.split()[-1])):
                continue  # "moved to Fri Oct 18", "coming fridays now instead of …" are dates
            if kind == "choice" and _ADVERB.fullmatch(value):
                continue  # "Realistically it's 1 July now": how it is said, not a choice
            s = m.start(group) + (len(m.group(group)) - len(m.group(group).lstrip()))
            if kind == "version" and _dotted_clock(text, s, s + len(value)):
                kind = "time"
            elif kind not in ("time", "version", "money") and _in_a_clock(text, s):
                continue  # the minutes of a time ("the 7:50 bus"; not "1:4 kids", "Q1:40")
            found.append(Value(Kind(kind), value, s, s + len(value)))
    for pattern in lexicon.places:
        for m in pattern.finditer(text):
            group = "v" if "v" in pattern.groupindex and m.group("v") else 0
            value = m.group(group)
            if not _place_name(value, people):
                continue
            start, end = m.span(group)
            if value.split()[-1][:1].isupper():
                end += _name_after(text, end)  # "Bistro Marée", "Hotel Indigo"
            found.append(Value(Kind.PLACE, text[start:end], start, end))
    for m in lexicon.place_names.finditer(text):
        name = m.group("v")
        if not name[:1].isupper() and (len(name) < 5 or name in PLACE_WORDS_TOO
                                       or name.lower() != name):
            continue  # "lisbon, july 11-18" in casual chat, but never "us" or "turkey"
        # "Norway goes first" names a place; "the Lisbon support team" a team
        nxt = re.match(r"\s{1,3}([a-z][\w'-]{1,20})", text[m.end():m.end() + 24])
        if nxt is not None and nxt.group(1) not in STOPWORDS and nxt.group(1) not in _PLACE_NEXT:
            continue
        end = m.end("v")
        end += _name_after(text, end)  # "London Marriott", "Lisbon Congress Centre"
        if _place_name(text[m.start("v"):end], people):
            found.append(Value(Kind.PLACE, text[m.start("v"):end], m.start("v"), end))
    found.extend(people_values(text, speaker=speaker, people=people))
    # "same hall", "same time": what stays as it was, not a value of its own
    found = [v for v in found if not _SAME.match(v.text)]
    found = [_titled(v, text) for v in found]
    # "last tuesday at st barnabas will be 29 april": the last one of a series, which the
    # date after it tells, not the week before
    found = [v for v in found if not (_LAST_OF_SERIES.search(text, max(0, v.start - 8), v.end)
                                      and _TOLD_AFTER.match(text, v.end))]
    for v in [v for v in found if v.kind in (Kind.DATE, Kind.TIME)]:
        at = _PLACE_AFTER_WHEN.match(text, v.end)
        if at is not None:
            found.append(Value(Kind.PLACE, at.group("v"), at.start("v"), at.end("v")))
    # "feb 9–13 clashes with …": a span of days is not cut short by a count of its last day
    spans = [v for v in found if v.kind is Kind.RANGE
             and any(is_calendar_word(w) for w in v.text.split())]
    found = [v for v in found if not (v.kind is Kind.COUNT and any(
        r.start < v.start < r.end for r in spans))]
    return _join_when(_resolve(found), text, lexicon)


_PLACE_AFTER_WHEN = re.compile(PLACE_AFTER_WHEN, re.IGNORECASE)
# A sentence adverb ("Realistically", "Honestly", "Hopefully"): no name ends so.
_ADVERB = re.compile(r"[A-Za-z]{2,20}(?:ally|ously|ively|ately|ably|ibly|fully|lessly|ently|"
                     r"antly|edly|estly|ankly)")
_CAPITAL_WORD = re.compile(r"\s[A-Z][\w'’&-]{1,24}")


def _name_after(text: str, end: int) -> int:
    """How far the capitalised words right after ``end`` run on as part of a name (up to
    two; a day or month after a name is no part of it: "Cafe Nero Tuesday")."""
    at = end
    for _ in range(2):
        m = _CAPITAL_WORD.match(text, at)
        word = m.group().strip() if m is not None else ""
        if m is None or is_calendar_word(word) or word.lower() in STOPWORDS or word.endswith(
                ("'s", "’s")):
            break  # ("Cafe Rouge Priya's buying": a name's possessive starts another phrase)
        at = m.end()
    return at - end
# "the last tuesday", "first thursday": one of a series, by its place in it
_LAST_OF_SERIES = re.compile(r"\b(?:last|first|final)\s(?:" + "|".join(
    d.lower() for d in WEEKDAY_NAMES) + r")$", re.IGNORECASE)
_TOLD_AFTER = re.compile(r"[^.!?;\n]{0,40}?\b(?:is|will\sbe|'ll\sbe|would\sbe|falls\son)\s"
                         r"(?:the\s|on\s)?\d", re.IGNORECASE)


_SAME = re.compile(r"(?:the\s)?same\b", re.IGNORECASE)
# A title and its full stop before a name ("Dr. Elena Ruiz", "Mrs. Okafor").
_TITLE = re.compile(r"(?:dr|mr|mrs|ms|mx|prof|rev|fr|sr|st)", re.IGNORECASE)
_TITLED_NAME = re.compile(r"\.?\s[A-Z][\w'’-]{1,24}(?:\s[A-Z][\w'’-]{1,24})?")


def titled_end(text: str, name: str, end: int) -> int:
    """Where a name that is only a title ("Dr" of "Dr. Elena Ruiz") ends once the name after
    its full stop is read with it; ``end`` for any other name."""
    if not _TITLE.fullmatch(name.rstrip(".")):
        return end
    m = _TITLED_NAME.match(text, end)
    if m is None:
        return end
    # (a day or a function word after the name is no part of it: "Dr. Patel Thursday")
    words = m.group().split()
    while len(words) > 1 and (is_calendar_word(words[-1]) or words[-1].lower() in STOPWORDS):
        words.pop()
    if is_calendar_word(words[0].lstrip(".")) or words[0].lower() in STOPWORDS:
        return end
    return text.index(words[-1], end) + len(words[-1])


def _titled(value: Value, text: str) -> Value:
    """A name cut at its title's full stop, made whole ("Dr" → "Dr. Elena Ruiz")."""
    if value.kind not in (Kind.CHOICE, Kind.PERSON) or value.speaker:
        return value
    end = titled_end(text, value.text, value.end)
    return Value(value.kind, text[value.start:end], value.start, end) if end != value.end \
        else value
_DOTTED = re.compile(DOTTED_CLOCK)
_MINUTES = re.compile(r"[0-5]\d(?!\d)")


def _in_a_clock(text: str, start: int) -> bool:
    """Whether a value starting at ``start`` is the minutes of a time ("the 7:50 bus"): an
    hour and a colon before two digits, the hour not part of a code ("Q1:40", "1:4")."""
    if start < 2 or text[start - 1] != ":":
        return False
    j = start - 2
    while j >= 0 and j > start - 4 and text[j].isdigit():
        j -= 1
    if j == start - 2 or (j >= 0 and text[j].isalnum()):
        return False
    return _MINUTES.match(text, start) is not None
_CLOCK_BEFORE = re.compile(CLOCK_BEFORE, re.IGNORECASE)
_CLOCK_AFTER = re.compile(CLOCK_AFTER, re.IGNORECASE)
_QUARTER = re.compile(QUARTER_CLOCK)
_PRICE_AFTER = re.compile(PRICE_AFTER, re.IGNORECASE)
_VERSION_BEFORE = re.compile(VERSION_BEFORE, re.IGNORECASE)


# Words of software releases anywhere in a message: its dotted numbers are versions.
_VERSION_TALK = re.compile(
    r"\b(?:v\d|versions?|releases?|released|builds?|upgrade|upgrading|bump|patch|ios|android|"
    r"python|node|firmware|k8s|kubernetes|terraform|postgres|milestone|rc\d?|sdk|api|"
    r"deploy|deployed|tag|tagged|changelog|branch)\b", re.IGNORECASE)


def _dotted_clock(text: str, start: int, end: int) -> bool:
    """Whether a dotted number is a time of day by the words around it: "thurs 8.15",
    "at 7.30", "8.30 then?" (British chat writes times with a dot; "v2.15", "release 3.10"
    stay versions)."""
    if _DOTTED.fullmatch(text[start:end]) is None:
        return False
    before = text[max(0, start - 14):start]
    if _VERSION_BEFORE.search(before) is not None or _PRICE_AFTER.match(
            text[end:end + 14]) is not None:
        return False
    if _CLOCK_BEFORE.search(before) is not None:
        return True
    if _QUARTER.fullmatch(text[start:end]) is None or text[start] == "0":
        return False  # ("0.45 for the pilot": an amount)
    # a quarter hour is a time unless the message speaks of software ("k8s 1.29 -> 1.30")
    # or it measures something ("2.30m")
    return _CLOCK_AFTER.match(text[end:end + 14]) is not None or (
        _VERSION_TALK.search(text) is None and re.match(r"[\w%]", text[end:end + 1]) is None)


def _every_weekday(word: str) -> bool:
    """Whether ``word`` is a weekday said of every week ("fridays"): a date, never a name's
    last word ("Mars", "Phoenix Suns")."""
    return word.lower().endswith("days") and is_calendar_word(word[:-1])


#: Words after a place name that keep it a place ("Norway goes first", "Portugal only").
_PLACE_NEXT = frozenset({"goes", "go", "went", "wins", "won", "first", "second", "third",
                         "next", "last", "only", "instead", "again", "too", "either",
                         "works", "it", "is", "was", "then", "now", "please", "pls", "plz"})


#: Nouns a number after them labels rather than counts ("level 2", "grade 10", "step 3").
_LABEL_NOUNS = frozenset("""level grade line step gate top room ticket pr bug order size model
no number version ios python node phase round week wk page ep episode season part stage tier
team group section chapter year day floor row seat aisle platform bay lane route""".split())


def _labelled(text: str, start: int) -> bool:
    """Whether the number at ``start`` follows a noun that labels it."""
    before = re.search(r"([A-Za-z]{1,12})[\s#]{1,2}$", text[max(0, start - 16):start])
    return before is not None and before.group(1).lower() in _LABEL_NOUNS


# What makes a span of numbers one of days: a month or an ordinal in it.
_SPAN_WORDS = re.compile(r"\d(?:st|nd|rd|th)\b|[a-z]{3}", re.IGNORECASE)


def _plausible_span(value: str) -> bool:
    """Whether a span of days names days that can be one: both 1-31, the first before the
    second, or a span across a month's end ("28-3"). Ranges of hours ("11 to 3") and of
    weekdays are not spans of days."""
    m = SPAN_OF_DAYS.search(value)
    if m is None or not _SPAN_WORDS.search(value) or BARE_HOURS.fullmatch(value):
        return True  # ("9 till 2 then": a span of hours)
    first, last = int(m.group(1)), int(m.group(2))
    if not (1 <= first <= 31 and 1 <= last <= 31):
        return False
    return first < last or (first >= 25 and last <= 7)


def _meaningful_count(value: str) -> bool:
    """"30%", "3 screens", "two engineers" count; a lone "5 s" or "1x" hardly does."""
    return not re.fullmatch(r"\d\s?(?:s|x)", value, re.IGNORECASE)


def _place_name(value: str, people: Iterable[str]) -> bool:
    words = value.split()
    head = words[-1] if words else ""
    if not head or is_calendar_word(head) or head.lower() in STOPWORDS:
        return False
    if words[0].lower() in TOOL_NAMES or is_calendar_word(words[0]):
        return False
    names = {p.lower() for p in people}
    return value.lower() not in names and head.lower() not in names


def _resolve(values: list[Value]) -> list[Value]:
    """Non-overlapping values: longer spans first, then the more specific kind."""
    ordered = sorted(values, key=lambda v: (-(v.end - v.start), _RANK[v.kind], v.start))
    kept: list[Value] = []
    for v in ordered:
        if not v.text.strip():
            continue
        if any(v.start < k.end and v.end > k.start for k in kept):
            continue
        kept.append(v)
    return sorted(kept, key=lambda v: v.start)


#: A span of bare hours ("12-4", "9 till 2").
# A number and a dash right before another number: the second ends a span ("10-6").
_SPAN_BEFORE = re.compile(r"\d\s?[-–]\s?$")
BARE_HOURS = re.compile(r"\d{1,2}(?:\s?[-–]\s?|\s(?:to|till|until)\s)\d{1,2}")


def hours_after_a_day(day: str, hours: str) -> bool:
    """Whether ``hours`` is a span of bare hours said after a calendar day (one holding a
    number: "Sat 5 Sep", "21st"): a value of its own, unlike a weekday's hours."""
    return bool(BARE_HOURS.fullmatch(hours)) and any(ch.isdigit() for ch in day)


def _join_when(values: list[Value], text: str, lexicon: Lexicon) -> list[Value]:
    """Join the parts of one moment into one value and take a trailing time zone along."""
    out: list[Value] = []
    for v in values:
        # (bare hours after a calendar day stay apart: "BBQ Sat 5 Sep, 12-4" is on the 5th,
        # from 12; after a weekday they are its hours: "sundays 1–6")
        if out and out[-1].kind in _WHEN and v.kind in _WHEN and not v.is_year \
                and not hours_after_a_day(out[-1].text, v.text):
            prev = out[-1]
            glue = _WHEN_GLUE.fullmatch(text[prev.end:v.start])
            # a parenthesis holding more than the moment is an aside ("Tue Oct 22, 2:30pm
            # (2pm clashed …)"), one holding just it pins it down ("next Friday (the 15th)")
            aside = "(" in text[prev.end:v.start] and text[v.end:v.end + 1] != ")"
            day_set = joins_day_set(prev.text, text[prev.end:v.start], v.text)
            if (glue is not None or day_set) and v.start - prev.end <= 8 and not aside:
                kind = Kind.RANGE if Kind.RANGE in (prev.kind, v.kind) else (
                    Kind.DATE if Kind.DATE in (prev.kind, v.kind) else Kind.TIME)
                end = v.end
                if "(" in text[prev.end:v.start] and text[end:end + 1] == ")":
                    end += 1  # "next Friday (the 15th)"
                out[-1] = Value(kind, text[prev.start:end].rstrip(" ,("), prev.start, end)
                continue
        out.append(v)
    for i, v in enumerate(out):
        if v.kind in _WHEN:
            tz = lexicon.timezone.match(text, v.end)
            if tz is not None:
                out[i] = replace(v, text=text[v.start:tz.end()], end=tz.end())
    return out


def value_family(value: str, source: str = "", *, lexicon: Lexicon | None = None) -> str:
    """The family of ``value`` as found in ``source`` (its message), else as it reads alone;
    "" for free text."""
    lex = lexicon or default_lexicon()
    if source:
        for v in find_values(mask(source, lex), lex):
            if v.text == value:
                return v.family
    alone = find_values(value, lex)
    if len(alone) == 1 or (alone and alone[0].start == 0):
        return alone[0].family
    return ""
