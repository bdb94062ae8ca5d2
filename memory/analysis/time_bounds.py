"""Which end of a time span a question asks for, and where a message says it.

"what time does the hackathon finish?" over "10am-7pm" is 7pm; over "8:30 start, lunch at
12, done by 3:30" it is 3:30; "what time does the box office open?" over "tickets 7.50-9.50,
box office opens 6pm" is 6pm. Words are data; extend freely.
"""

from __future__ import annotations

import functools
import re

from memory.analysis.question_words import words
from memory.text import STOPWORDS

#: Question words asking for the end of a span ("finish", "wrap up", "how late").
END_CUES = frozenset(
    "finish finishes finished finishing end ends ended ending wrap wraps over done until "
    "till close closes closed late shut shuts".split())
#: Question words asking for its start ("start", "kick off", "doors").
START_CUES = frozenset(
    "start starts starting begin begins beginning kick kicks kickoff doors open opens "
    "early".split())
# Words that may follow the cue word in such a question ("close on sundays now", "the end
# time"); any other word makes it a name ("the closing meeting", "the start-up pitch").
_AFTER_CUE = re.compile(
    r"(?:time|times|up|off|on|at|by|till|until|tonight|today|tomorrow|now|then|again|each|"
    r"every|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekdays|weekends|sat|sun)$")

# Words before "out" asking when a place must be left ("be out of the hall by").
_BEING = frozenset({"be", "get", "been", "being", "are", "is", "we're", "were"})

# Words opening a clause of the question about something else ("what time are juniors on
# sundays while kingsmere's closed", "what time does it start once the hall shuts").
_SUBORDINATE = frozenset("while whilst once since because cos as if unless though although "
                         "whereas".split())

# A clock time: "7pm", "3:30", "19:00", "7.30pm", or a bare hour where a span word says it
# is one. Not a price ("7.50"), a duration ("2-3 hours") or a date ("14 june").
_CLOCK = r"\d{1,2}(?::\d{2}|\.\d{2}\s?(?:am|pm))?\s?(?:am|pm|a\.m\.|p\.m\.)?"
_NOT_AFTER = (r"(?![\d/:]|\.\d|\s?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|st\b|nd\b|"
              r"rd\b|th\b|days?\b|hours?\b|hrs?\b|h\b|mins?\b|minutes?\b|weeks?\b|months?\b|"
              r"years?\b|people\b|ppl\b|doors?\b|%|k\b|x\b))")
_TIMELIKE = re.compile(r":\d{2}|[ap]\.?m\.?$", re.IGNORECASE)
_SUFFIX = re.compile(r"(am|pm|a\.m\.|p\.m\.)$", re.IGNORECASE)
_RANGE = re.compile(
    rf"(?<![\d/.£$€])({_CLOCK})\s{{0,3}}(?:-|–|—|to|till|til|until)\s{{0,3}}({_CLOCK}){_NOT_AFTER}",
    re.IGNORECASE)
_ENDS_AT = re.compile(
    rf"\b(?P<w>done|finish(?:es|ing)?|ends?|ending|wrap(?:s|ping)?(?: up)?|till|til|until|"
    rf"close|closes|closing|shut|shuts|shutting|stops|stopping|to stop|"
    rf"out(?:\sof(?:\s[\w'’]{{1,20}}){{1,4}}?)?(?=\s{{1,3}}(?:by|at)\b))\s{{1,3}}"
    rf"(?:(?:time|time's|time is)\s{{1,3}})?"
    rf"(?:(?:by|at|around)\s{{1,3}}|@\s?)?(?P<c>{_CLOCK}){_NOT_AFTER}",
    re.IGNORECASE)
_STARTS_AT = re.compile(
    rf"\b(?P<w>start(?:s|ing)?|begin(?:s|ning)?|kick(?:s|ing)? off|doors|open(?:s|ing)?)"
    rf"\s{{1,3}}(?:(?:time|time's|time is)\s{{1,3}})?(?:(?:at|by|around)\s{{1,3}}|@\s?)?"
    rf"(?P<c>{_CLOCK}){_NOT_AFTER}|(?<![\d/.£$€])"
    rf"(?P<c2>\d{{1,2}}(?::\d{{2}})?\s?(?:am|pm)|\d{{1,2}}:\d{{2}})\s{{1,3}}(?P<w2>start|kick-?off|"
    rf"doors)\b", re.IGNORECASE)
# A span closed for a while ("closed 12:00-13:00 for lunch") is not the opening hours.
_CLOSED_BEFORE = re.compile(r"\b(?:closed|shut|break|lunch)\s{0,3}(?:from\s{1,3})?$",
                            re.IGNORECASE)
# Words before a bare-number range that make it hours ("open 12 to 7", "from 9-5").
_SPAN_WORDS = re.compile(r"\b(?:open|opens|from|between|hours|runs?|running)\s{0,3}$",
                         re.IGNORECASE)


@functools.lru_cache(maxsize=1024)
def bound_cue(question: str) -> tuple[str, str]:
    """(the bound ``question`` asks for, the word asking it): ("end", "close") for "what
    time does the shop close on sundays"; ("", "") when it asks for neither."""
    ws = [w.low for w in words(_main_clause(question))]
    for i, w in enumerate(ws):
        after = ws[i + 1] if i + 1 < len(ws) else ""
        if w == "out" and i and ws[i - 1] in _BEING:
            return "end", w  # "what time do we have to be out of the hall"
        if after == "of" or (after and after not in STOPWORDS and not _AFTER_CUE.match(after)):
            continue  # "the closing meeting", "the end of year party": a name
        if w.startswith("end") and after == "up":
            continue  # "what time did it end up being": the outcome, not the span's end
        if w in END_CUES:
            return "end", w
        if w in START_CUES:
            return "start", w
    return "", ""


def bound_time(text: str, bound: str, cue: str = "") -> str:
    """The time ``text`` gives for the ``bound`` ("end" or "start") of a span: a time beside
    the question's own ``cue`` word ("box office opens 6pm"), else a range's end or start
    ("10am-7pm"), else a time beside another end or start word ("done by 3:30", "8:30
    start"); "" when it gives none."""
    marked: list[tuple[bool, int, str]] = []
    for m in (_ENDS_AT if bound == "end" else _STARTS_AT).finditer(text):
        found = m.groupdict()
        clock = str(found.get("c") or found.get("c2") or "")
        word = str(found.get("w") or found.get("w2") or "").lower()
        if clock and _plausible(clock.strip()):
            by_cue = bool(cue) and word[:4] == cue[:4]
            marked.append((not by_cue, m.start(), clock.strip()))
    ranged: list[tuple[int, str]] = []
    for m in _RANGE.finditer(text):
        first, last = str(m.group(1)).strip(), str(m.group(2)).strip()
        before = text[max(0, m.start() - 16):m.start()]
        if _CLOSED_BEFORE.search(before):
            continue
        if _TIMELIKE.search(first) or _TIMELIKE.search(last) or _SPAN_WORDS.search(before):
            suffix = _SUFFIX.search(last)
            if suffix and not _TIMELIKE.search(first):
                first = f"{first}{suffix.group(1)}"  # "8-11pm" starts at 8pm
            ranged.append((m.start(), last if bound == "end" else first))
    cued = [c for other, _, c in sorted(marked) if not other]
    picked = cued[0] if cued else (min(ranged)[1] if ranged else (
        min(marked)[2] if marked else ""))
    if picked.isdigit():
        # a bare hour the text also says with its half of the day ("runs 12–7 … stop at
        # 7 pm"): that one
        said = re.search(rf"(?<![\d:.]){picked}\s?(am|pm)\b", text, re.IGNORECASE)
        if said is not None:
            return said.group(0)
    return picked


def cue_gives(text: str, cue: str, value: str) -> bool:
    """Whether the first time after the question's own ``cue`` word in ``text`` is
    ``value`` ("check-in opens an hour earlier, 7am. weighing still starts 10": the 7am is
    when check-in opens, whatever "starts" says after it)."""
    if not cue or not value:
        return False
    for m in re.finditer(rf"\b{re.escape(cue[:4])}\w{{0,6}}\b", text, re.IGNORECASE):
        rest = re.split(r"[.!?;\n]", text[m.end():m.end() + 48], maxsplit=1)[0]
        first = re.search(rf"(?<![\d/.£$€]){_CLOCK}{_NOT_AFTER}", rest, re.IGNORECASE)
        if first is not None and first.group(0).strip().lower().replace(" ", "") == \
                value.strip().lower().replace(" ", ""):
            return True
    return False


def own_time(text: str, cue: str, thing: str, value: str) -> bool:
    """Whether ``value`` is the time ``text`` gives the thing asked about: after the
    question's own ``cue`` word (:func:`cue_gives`), or right after the thing's name
    ("7:30 kick-off it is, gates 6:45": 6:45 is when the gates open, not the kick-off)."""
    if cue_gives(text, cue, value):
        return True
    last = thing.split()[-1] if thing.split() else ""
    if not last or not value:
        return False
    return re.search(rf"\b{re.escape(last)}\s{{0,2}}(?:[:=@-]|at|from)?\s{{0,2}}"
                     rf"{re.escape(value)}(?![\d:])", text, re.IGNORECASE) is not None


def _plausible(clock: str) -> bool:
    """Whether a number beside a span word can be a time of day ("till 7", not "till 70")."""
    if _TIMELIKE.search(clock):
        return True
    return clock.isdigit() and 1 <= int(clock) <= 24


def _main_clause(question: str) -> str:
    """``question`` without its clauses about something else: a comma-separated part
    opened by a subordinating word, and the rest of a part from such a word on ("what time
    are juniors on sundays while kingsmere's closed", "on tuesdays, once hockey are off,
    what time do we finish")."""
    kept: list[str] = []
    for part in question.split(","):
        ws = part.split()
        at = next((i for i, w in enumerate(ws) if w.lower() in _SUBORDINATE), len(ws))
        kept.append(" ".join(ws[:at]))
    return ", ".join(k for k in kept if k)


def clock_span(text: str, start: int, end: int) -> str:
    """The clock range of ``text`` that the time at ``start``..``end`` ends or opens
    ("sundays 9–10am" for the "10am"); "" when that time is no end of a range."""
    for m in _RANGE.finditer(text):
        if m.start() <= start and end <= m.end():
            return m.group().strip()
    return ""
