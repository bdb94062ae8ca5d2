"""What a message's words say about the thing a value belongs to: the label a message opens
with ("Staff meeting - …"), a code naming one of a series ("U10" is not "U12"), a value
spoken of as the thing itself ("the 8:15 is tricky for me") or as the mark of another
thing ("the 6:30 train"). The writer reads a thread and the turn a reply answers by them.
"""

from __future__ import annotations

import functools
import re

from memory.analysis.cue_words import SERIES_NOUNS
from memory.analysis.message import MessageAnalysis
from memory.dates.days import MONTH_OF_WORD, months_in
from memory.text import STOPWORDS, is_calendar_word

# The most words a message's opening label may have ("Staff meeting - …", "AGM date?").
_HEADING_WORDS = 4


def heading(analysis: MessageAnalysis) -> str:
    """The subject a message opens with as a label of its own, stating no value ("Staff
    meeting - thinking we move it to Wednesdays 1pm …"): what the rest is about."""
    first = analysis.clauses[0] if analysis.clauses else None
    if first is None or first.claims or not first.subject or len(analysis.clauses) < 2:
        return ""
    return first.subject if len(first.subject.split()) <= _HEADING_WORDS else ""


# A code naming one of a series of things: a few letters and a number ("U10", "rc2", "Q3",
# "Y7s"); not a time or an ordinal ("6pm", "2nd"), which start with the number.
_CODE = re.compile(r"\b([a-z]{1,4})(\d{1,4})s?\b", re.IGNORECASE)


# One of a numbered series in words: a noun, then its number ("round 4", "block 5"); "at 4",
# "til 7", "top 16" or "draft 3" say when, how much or which revision, not which thing.
_SERIES = re.compile(r"\b([a-z]{2,12})\s{1,2}#?(\d{1,3})(?![\w:.,/]\d|\w)", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def _codes(text: str) -> frozenset[tuple[str, str]]:
    """The series members ``text`` names; cached, as the coverage test asks it of every
    unit against every question."""
    return frozenset({(m.group(1).lower(), m.group(2)) for m in _CODE.finditer(text)} | {
        (m.group(1).lower(), m.group(2)) for m in _SERIES.finditer(text)
        if _series_noun(m.group(1).lower())})


def _series_noun(word: str) -> bool:
    """Whether ``word`` before a number names one of a series ("round 4"; lexicon data)."""
    return word in SERIES_NOUNS or (word.endswith("s") and word[:-1] in SERIES_NOUNS)


def other_codes(subject: str, topic: str) -> bool:
    """Whether two subjects name different members of one series ("U10 training" and "U12
    pre-season training", "rc2 sign-off" and "rc3 sign-off", "round 4" and "Spring Series
    Round 3"): a code of the same letters, or a noun, with another number, and none in
    common."""
    mine, theirs = _codes(subject), _codes(topic)
    if not mine or not theirs or mine & theirs:
        return False
    return bool({p for p, _ in mine} & {p for p, _ in theirs})


def other_month(subject: str, topic: str, value: str = "") -> bool:
    """Whether ``subject`` names one month's instance of a thing ("May launch", "the march
    newsletter") that ``topic`` does not name: another instance, or the thing in general
    ("launch times"), is another state — unless the state's ``value`` falls in that month
    ("Oct board meeting moved to Thu 23rd" of a board meeting on 16 Oct)."""
    words = re.findall(r"[a-z]{2,20}", subject.lower())
    mine = {MONTH_OF_WORD[w] for i, w in enumerate(words[:-1]) if w in MONTH_OF_WORD
            and not is_calendar_word(words[i + 1]) and words[i + 1] not in STOPWORDS}
    return bool(mine) and not mine & months_in(f"{topic} {value}")

# A day or time a plan cannot keep: a negated verb of being able, then the value after
# "on"/"at"/"for" in the same clause.
_BLOCKED_ON = (r"\b(?:can't|cant|cannot|can not|won't|wont|unable to|no way)\s[^.!?;]{0,80}?"
               r"\b(?:on|at|for)\s(?:the\s)?%s(?![\w:])")


# A value spoken of as the thing itself: it opens the message or a clause, or follows
# "the", and a verb of how it suits follows it.
_SPOKEN_OF = (r"(?:^|[.!?,;:]\s{0,3}|\bthe\s)%s\s{1,3}(?:is|isn't|isnt|was|doesn't|doesnt|"
              r"won't|wont|clashes|works|might|may|could|would|can't|cant)\b")


def spoken_of(text: str, value: str) -> bool:
    """Whether ``text`` speaks of ``value`` as the thing that holds it ("the 8:15 is a bit
    tricky for me") or as the day something can no longer happen on ("can't have 12 people
    in a freezing office on the 15th")."""
    said = re.escape(value)
    return re.search(_SPOKEN_OF % said, text[:2000], re.IGNORECASE) is not None or re.search(
        _BLOCKED_ON % said, text[:2000], re.IGNORECASE) is not None


_NEXT_WORD = re.compile(r"\s{1,3}([a-z][a-z'’]{2,20})\b")


def of_another(text: str, value: str) -> bool:
    """Whether ``value`` is said in ``text`` as the mark of another thing, a noun right after
    it ("anyone else on the 6:30 *train*?", "the 14th *birthday*"), not as a value asked
    about ("do they deliver tuesdays too?")."""
    at = text.lower().find(value.lower())
    if at < 0:
        return False
    m = _NEXT_WORD.match(text.lower(), at + len(value))
    return m is not None and m.group(1) not in STOPWORDS and m.group(1) not in _AFTER_A_VALUE \
        and not is_calendar_word(m.group(1))


# Words that follow a value said for itself ("10 instead?", "6:30 works", "3pm sharp").
_AFTER_A_VALUE = frozenset("""instead then now too please pls sharp again only ok okay works
work worked fine still yet maybe latest tops max each per start starts finish finishes ish
onwards good suits""".split())
