"""Answers that do not fit the question: they say it back, or give a day for a time.

A value made of nothing but the question's own words ("desk 1" for "what card reader is on
desk 1 now", "sat" for "when's the first sat clinic", "Fiona" for "who's on the table with
Fiona") tells the asker nothing they had not typed: it is the question's anchor, never its
answer. The exceptions are the questions that offer their answers: a choice between named
alternatives ("a band or a DJ?") and a yes/no check ("is it still 3pm?").

A question that asks no person ("where's the meetup happening", "which printer is doing the
shirts") is not answered by a member's name alone ("kestrel", "Hana"): the name is who said
something, found where the value was missing.

A question asking the time of day ("what time did the workshop start") is not answered by a
day alone ("Wednesday 19 February"): the day is what the asker knew or did not ask; one
asking the day ("what day do pickers get paid") not by a week or a month ("this week").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory.analysis.definitions import QuestionKind
from memory.analysis.question import QuestionAnalysis, words
from memory.analysis.question_lexicon import CLOCK_NOUNS
from memory.dates.spoken import ANY_DAY, coarser_than_a_day
from memory.models import EvidenceNode
from memory.reader.alternatives import alternatives
from memory.reader.answer import day_label
from memory.reader.answer_parts import Composed
from memory.reader.extract import Person, named_people
from memory.reader.when_values import has_clock
from memory.text import STOPWORDS, SlotKind, find_slots, shorten, stem, tokens

# A value's trailing parenthesis restates it (a date resolved, a speaker): not the value.
_TRAILING = re.compile(r"\s{0,3}\([^()]{0,200}\)\s{0,3}$")
_DIGIT = re.compile(r"\d")
# "the first time round", "this time": an occasion, not a time of day.
_OCCASION = re.compile(r"\b(?:first|last|next|this|that|every|each|second|third|same|any|some|"
                       r"one|other|another)\s{1,3}times?\b", re.IGNORECASE)
_CLOCK_ASKED = re.compile(rf"\b(?:{'|'.join(sorted(CLOCK_NOUNS))})\b", re.IGNORECASE)
# Words after which a value the question ends with is what it is measured from or part of
# its noun phrase, not a candidate answer ("before trapmasters?", "moved to the AGM", "for
# the hackathon").
_ANCHORING = frozenset({"before", "after", "from", "to", "than", "over", "of", "instead",
                        "with", "at", "on", "in", "for", "since", "until", "till", "by",
                        "about", "not", "except", "besides", "like", "vs", "versus",
                        "the", "a", "an", "our", "my", "your", "their", "his", "her", "its",
                        "this", "that", "these", "those", "is", "are", "was", "were"})
# How many words more than the candidate a statement says for it to restate it.
_RESTATED = 3
# A question checking a value it names ("still £40?").
_CHECKS = re.compile(r"\bstill\b", re.IGNORECASE)
# A part of the day is a time of day ("tonight", "sat morning").
_DAY_PART = re.compile(r"\b(?:tonight|morning|mornings|afternoon|afternoons|evening|evenings|"
                       r"noon|midday|midnight|lunchtime|lunch|overnight)\b", re.IGNORECASE)
# Where the person an answer names first ends ("Priya Raman (Feb 19): …", "Sam, Feb 27: …").
_PERSON_END = re.compile(r"[(:,]")
_PERSON_WORDS = frozenset({"who", "whom", "whose", "who's", "who’s", "who'd", "who'll"})


def misfits(qa: QuestionAnalysis, value: str, people: Sequence[Person] = (),
            asker: str = "") -> bool:
    """Whether ``value``, an answer's value, cannot be what ``qa`` asks (``people``: the
    members the scope knows; ``asker``: the name of the member asking)."""
    return echoes(qa, value) or (asks_time_of_day(qa) and day_alone(value)) or (
        qa.asks_day and period_alone(value)) or (
        member_alone(value, people) and not asks_person(qa)) or (
        asks_person(qa) and is_asker(value, asker)) or names_asked(qa, value, people)


def period_alone(value: str) -> bool:
    """Whether ``value`` names only a week, a month or longer ("this week (the week of 16
    February 2026)", "March"): no answer to "what day" (the asker wants the day)."""
    return coarser_than_a_day(_TRAILING.sub("", value), ANY_DAY)


def is_asker(value: str, asker: str) -> bool:
    """Whether the person ``value`` names first is ``asker``, the member asking: "who's
    covering my thursday" is not answered by its asker, nor "who fixed the generator" by
    the one who asked the chat about it."""
    if not asker:
        return False
    low, name = _first_person(value).lower(), asker.lower()
    return bool(low) and (low == name or low == name.split()[0])


def _first_person(value: str) -> str:
    """The person ``value`` names first ("Priya Raman (Feb 19): …" → "Priya Raman")."""
    return _PERSON_END.split(_TRAILING.sub("", value), maxsplit=1)[0].strip().lstrip("@")


def names_asked(qa: QuestionAnalysis, value: str, people: Sequence[Person]) -> bool:
    """Whether ``value`` answers *who* with a member the question itself names: "who
    covered Katie's nights" is not answered by Katie, nor "who swapped on-call with sofia"
    by Sofia; they are who it happened to or with. A choice offered ("tom or sam?") or a
    check ("was it jake?") names its answer."""
    if qa.kind is not QuestionKind.WHO or qa.confirm or qa.polar or alternatives(qa) is not None:
        return False
    person = _first_person(value)
    said = {w.low for w in words(person)}
    return bool(said) and any(
        said <= p.keys or person.lower() == p.name.lower()
        for _, p in named_people(qa.text, people))


def asks_time_of_day(qa: QuestionAnalysis) -> bool:
    """Whether ``qa`` asks for a time of day itself (not why or who of a timed thing, nor
    "the first time round", an occasion)."""
    if not qa.asks_clock or qa.kind in (QuestionKind.WHY, QuestionKind.WHO):
        return False
    return _CLOCK_ASKED.search(_OCCASION.sub("", qa.text)) is not None


def shown(qa: QuestionAnalysis, short: str, lines: Sequence[str]) -> str:
    """The value an answer shows its asker: the person for *who*; else its first line
    without the speaker and day after it (a sentence answering in full shows more than its
    ``short`` clause)."""
    if qa.kind is QuestionKind.WHO or not lines:
        return short
    return _TRAILING.sub("", lines[0])


def asks_person(qa: QuestionAnalysis) -> bool:
    """Whether ``qa`` asks who: a member's name may answer it."""
    return qa.kind is QuestionKind.WHO or qa.family == "person" or bool(
        _PERSON_WORDS & {w.low for w in words(qa.text)})


def member_alone(value: str, people: Sequence[Person]) -> bool:
    """Whether ``value`` is nothing but a member's name (or one word of it, or a handle)."""
    low = _TRAILING.sub("", value).strip().lstrip("@").lower()
    return bool(low) and any(low == p.name.lower() or low in p.keys for p in people)


def echoes(qa: QuestionAnalysis, value: str) -> bool:
    """Whether ``value`` holds no word the question ``qa`` did not."""
    if not value or qa.confirm or alternatives(qa) is not None:
        return False
    if _CHECKS.search(qa.text):
        return False  # "are subs still £40 or did we change them?" checks a value it names
    value = _TRAILING.sub("", value)
    said = _words(value)
    return bool(said) and said <= _words(qa.text) and not _candidate(qa.text, value)


def _candidate(question: str, value: str) -> bool:
    """Whether ``question`` ends by naming, as the answer it expects, words ``value`` says
    together ("who's playing the fundraiser, Kettle Drum Collective?", "what is the banner
    text <script>…"): not words a noun phrase or a change is measured from ("… for the
    hackathon", "… before trapmasters?", "… moved to the AGM?")."""
    asked, said = tokens(question), tokens(value)
    joined = f" {' '.join(said)} "
    tail = 0
    while tail < len(asked) - 1 and f" {' '.join(asked[-tail - 1:])} " in joined:
        tail += 1
    if tail == 0 or asked[-tail - 1] in _ANCHORING:
        return False
    # set apart by a comma, or said back inside a longer statement: not the question's own
    # words ("from when do we open 8:30 on sundays" is not answered "8:30 on sundays")
    before = question.rstrip(" ?!.").lower()
    named = " ".join(asked[-tail:])
    return before.endswith(f", {named}") or len(said) >= tail + _RESTATED


def named_by_asker(qa: QuestionAnalysis, composed: Composed, nodes: dict[str, EvidenceNode],
                   people: Sequence[Person], asker: str) -> Composed | None:
    """The member the asker's own answering message names, when it names exactly one
    other than the asker and those the question names ("I've reached out to Hana Kimura"
    for "who's the guest on ep 43 now?" asked by its sayer); None otherwise."""
    cited = composed.citations[0] if composed.citations else None
    node = nodes.get(cited.node_id) if cited is not None else None
    if node is None or not is_asker(node.speaker, asker):
        return None
    asked = {w.low for w in words(qa.text)}
    others = {p.name: p for _, p in named_people(node.text, people)
              if not is_asker(p.name, asker) and not p.keys & asked}
    if len(others) != 1:
        return None
    name = next(iter(others))
    first = f"{name} ({day_label(node.ts)}): {shorten(node.text, 160)}"
    return Composed([first, *composed.lines[1:]], name, composed.citations, [])


def day_alone(value: str) -> bool:
    """Whether ``value`` names a day and no time of day, nor a bare number that may be
    one ("at 3, Friday 23 January")."""
    if not value or has_clock(value) or _DAY_PART.search(value):
        return False
    slots = find_slots(value)
    if not any(s.kind is SlotKind.DATE for s in slots) or any(
            s.kind is SlotKind.TIME for s in slots):
        return False
    rest = value
    for s in sorted(slots, key=lambda x: -x.start):
        if s.kind is SlotKind.DATE:
            rest = rest[:s.start] + rest[s.end:]
    return _DIGIT.search(rest) is None


def _words(text: str) -> set[str]:
    return {stem(t.strip("'.-")) for t in tokens(text) if t not in STOPWORDS}


__all__ = ["asks_person", "asks_time_of_day", "day_alone", "echoes", "is_asker", "member_alone",
           "misfits", "named_by_asker", "names_asked", "shown"]
