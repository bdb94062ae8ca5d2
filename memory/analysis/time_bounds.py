"""Which end of a time span a question asks for, and where a message says it.

"what time does the hackathon finish?" over "10am-7pm" is 7pm; over "8:30 start, lunch at
12, done by 3:30" it is 3:30; "what time do the doors open?" over "doors 7pm, music till
11" is 7pm. Words are data; extend freely.
"""

from __future__ import annotations

import re

from memory.analysis.question_words import words

#: Question words asking for the end of a span ("finish", "wrap up", "how late").
END_CUES = frozenset(
    "finish finishes finished finishing end ends ending wrap wraps over done until till "
    "close closes closing late later".split())
#: Question words asking for its start ("start", "kick off", "doors").
START_CUES = frozenset(
    "start starts starting begin begins beginning kick kicks kickoff doors open opens "
    "opening early".split())

_CLOCK = r"\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.|h)?"
_TIMELIKE = re.compile(r"[:.]\d{2}|[ap]\.?m\.?|h$", re.IGNORECASE)
_RANGE = re.compile(
    rf"(?<![\d/])({_CLOCK})\s*(?:-|–|—|to|till|til|until)\s*({_CLOCK})(?![\d/])",
    re.IGNORECASE)
# Words before a bare-number range that make it hours ("open 12 to 7", "from 9-5").
_SPAN_WORDS = re.compile(r"\b(?:open|opens|from|between|runs|hours)\s*$", re.IGNORECASE)
_ENDS_AT = re.compile(
    rf"\b(?:done|finish(?:es|ed|ing)?|ends?|ending|wrap(?:s|ping)?(?: up)?|over|till|til|"
    rf"until|close[sd]?|closing)\s+(?:by\s+|at\s+|around\s+|@\s?)?({_CLOCK})(?![\d/])",
    re.IGNORECASE)
_STARTS_AT = re.compile(
    rf"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)? off|doors|open(?:s|ing)?|from)"
    rf"\s+(?:at\s+|by\s+|around\s+|@\s?)?({_CLOCK})(?![\d/])|(?<![\d/])({_CLOCK})\s+"
    rf"(?:start|kick-?off|doors)\b", re.IGNORECASE)


def asked_bound(question: str) -> str:
    """"end" when ``question`` asks when something finishes, "start" when it asks when it
    starts, else ""."""
    lows = {w.low for w in words(question)}
    if lows & END_CUES:
        return "end"
    if lows & START_CUES:
        return "start"
    return ""


def bound_time(text: str, bound: str) -> str:
    """The time ``text`` gives for the ``bound`` ("end" or "start") of a span: a range's
    end or start ("10am-7pm"), or a time beside an end or start word ("done by 3:30",
    "8:30 start"); "" when it gives none."""
    found: list[tuple[int, str]] = []
    for m in _RANGE.finditer(text):
        first, last = m.group(1).strip(), m.group(2).strip()
        opened = _SPAN_WORDS.search(text[max(0, m.start() - 14):m.start()]) is not None
        if _TIMELIKE.search(first) or _TIMELIKE.search(last) or opened:
            found.append((m.start(), last if bound == "end" else first))
    marked = _ENDS_AT if bound == "end" else _STARTS_AT
    for m in marked.finditer(text):
        clock = (m.group(1) or (m.group(2) if m.lastindex and m.lastindex > 1 else "") or "")
        if clock and _plausible(clock.strip()):
            found.append((m.start(), clock.strip()))
    return min(found)[1] if found else ""


def _plausible(clock: str) -> bool:
    """Whether a number beside a span word can be a time of day ("till 7", not "over 200")."""
    if _TIMELIKE.search(clock):
        return True
    return clock.isdigit() and 1 <= int(clock) <= 24
