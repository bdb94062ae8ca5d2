"""What an answer is composed of: its lines (a state's chain, a message quoted as evidence), the
statements read from messages, and the small tests the composer makes of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from memory.analysis.cue_words import off_calls_off
from memory.analysis.matching import is_build, values_match
from memory.analysis.message import MessageAnalysis
from memory.analysis.question import QuestionAnalysis, find_phrase, is_change_word, words
from memory.analysis.question_lexicon import SELF_WORDS, QuestionLexicon
from memory.dates import WEEKDAY_NAMES
from memory.models import ChainEntry, Citation, EvidenceNode, State, Verdict
from memory.reader.answer import citation, day_label, value_day
from memory.reader.coverage import Unit, told_part
from memory.reader.extract import Person
from memory.reader.when_values import calendar_day
from memory.reader.word_forms import forms, unit_forms
from memory.text import STOPWORDS, content_terms, is_calendar_word, names_value, shorten

# How much a state may cover less than the best message and still be the answer.
STATE_MARGIN = 0.15


# How close to the best coverage a message must come to count among the answering ones
# (earlier statements of a timeline are read more widely: they often use other words).
NEAR_BEST = 0.15


EVIDENCE_LINES = 2


# Slot kinds a question asking no particular kind of value may be answered with.
ANY_VALUE = ("money", "version", "date", "time", "region", "name", "number")


_TRAILING = " ,.;:!?)(\"'*"


QUOTE_CHARS = 200


@dataclass
class Composed:
    """An answer's lines, its short form, citations and the states it used."""

    lines: list[str]
    short: str
    citations: list[Citation] = field(default_factory=list)
    states: list[State] = field(default_factory=list)
    #: When a later message changed the value the answer first found: that value, as
    #: shown, and its citation.
    replaced: str = ""
    replaced_cite: Citation | None = None


@dataclass
class Statement:
    """What one unit states for a question: the answering sentence and who said it, the
    value of the kind asked, and a value it names as replaced."""

    unit: Unit
    node: EvidenceNode
    sentence: str
    value: str
    replaced: str


# How strongly a newer message must say a value changed to outrank a state's value (a
# keep word such as "still" is a weak signal, a move or a correction a strong one).
OVERRIDE_CHANGE = 0.5
# How long before a revision that accepts it a suggestion may have been made.
ACCEPTED_WITHIN = timedelta(days=1)


def said_before(node: EvidenceNode, value: str, nodes: Mapping[str, EvidenceNode], *,
                within: timedelta | None = None) -> EvidenceNode | None:
    """The latest message before ``node`` in its channel, by someone else, naming ``value``
    (within ``within`` of it, when given): what a reply taking it up was put forward by."""
    said = [n for n in nodes.values() if n.channel == node.channel
            and n.speaker_id != node.speaker_id and n.ts < node.ts
            and (within is None or node.ts - n.ts <= within) and names_value(n.text, value)]
    return max(said, key=lambda n: (n.ts, n.seq), default=None)


def entry_value(entry: ChainEntry, *, short_days: bool = False) -> str:
    """A chain value with the calendar day it means ("tomorrow at 12:00 (13 November
    2024)", "sept 26 (26 September 2025)"; with ``short_days``, "wed (11 September 2024)":
    see :func:`memory.reader.when_values.calendar_day`)."""
    value = entry.value or shorten(entry.quote, 80)
    day = value_day(entry.value, entry.ts) or calendar_day(
        entry.value, entry.ts, short=short_days) if entry.value else ""
    return f"{value} ({day})" if day and day not in value else value


def entry_label(entry: ChainEntry) -> str:
    """``"4 pm (Carmen, Nov 4)"``: a chain value with who stated it and when (and the day a
    relative value meant: ``"Friday 10am (8 November 2024; Alice, Nov 6)"``)."""
    who = entry.speaker.split()[0] if entry.speaker else "?"
    day = value_day(entry.value, entry.ts) if entry.value else ""
    value = entry.value or shorten(entry.quote, 80)
    meant = f"{day}; " if day else ""
    # "elena (Feb 10)", not "elena (elena, Feb 10)", when someone named themself
    said = "" if values_match(value, entry.speaker) else f"{who}, "
    return f"{value} ({meant}{said}{day_label(entry.ts)})"


def chain_line(state: State) -> str:
    """``"Atlas design review: now Friday 10am (…) · was 4 pm (Carmen, Nov 4)"``."""
    entries = [e for e in reversed(state.chain) if e.value]
    if not entries:
        return state.topic
    if len(entries) == 1:
        return f"{state.topic}: {entry_label(entries[0])}"
    parts = [f"now {entry_label(entries[0])}"] + [f"was {entry_label(e)}" for e in entries[1:]]
    return f"{state.topic}: " + " · ".join(parts)


def evidence_line(node: EvidenceNode) -> str:
    where = f"#{node.channel_name}" if node.channel_name else node.channel
    return f'{node.speaker} ({where}, {day_label(node.ts)}): "{shorten(node.text, QUOTE_CHARS)}"'


def subjects_of(analysis: MessageAnalysis, value: str) -> list[str]:
    """The subjects the message states ``value`` of (its claims' own, else their
    clause's)."""
    return [s for c in analysis.clauses for cl in c.claims
            if cl.value.text and cl.value.text.lower() in value.lower()
            and (s := cl.subject or c.subject)]


def _said_of(analysis: MessageAnalysis, value: str, subject: frozenset[str]) -> bool:
    """Whether the message states ``value`` of ``subject``: the value's subject, or the
    message's when its clause names none, shares a word with it; or the clause points back
    at something named before ("we're calling *it* 2.4")."""
    taken = {f for c in analysis.clauses for cl in c.claims if cl.subject
             for f in unit_forms(cl.subject)}
    for clause in analysis.clauses:
        for claim in clause.claims:
            if not claim.value.text or claim.value.text.lower() not in value.lower():
                continue
            # A subject borrowed from a header ("Atlas: Callum is off from 1 Nov") says
            # the value is about something under that header, not about the header's
            # thing itself: the clause's own words must name the state.
            heading = unit_forms(claim.heading) if claim.heading else frozenset()
            own = " ".join(w for w in f"{claim.subject} {clause.subject}".split()
                           if not unit_forms(w) <= heading)
            about = own or f"{claim.subject} {clause.subject}"
            if not clause.subject and not unit_forms(analysis.subject) & taken:
                # a clause naming nothing goes on about the message's subject, unless
                # another value of the message is already said of it
                about += f" {analysis.subject}"
            return bool(unit_forms(about) & subject) or clause.pointer
    return False


def best_answer(answers: Sequence[EvidenceNode], question: EvidenceNode,
                qa: QuestionAnalysis) -> EvidenceNode:
    """Of the turns answering ``question``, the one that says the most of what both
    questions are about ("yes, we should open it up" over "lol nice"); the first on ties.
    Questions answer nothing."""
    told = [a for a in answers if told_part(a.text)] or list(answers)
    wanted = unit_forms(question.text) | {f for t in qa.terms for f in forms(t)}
    return max(told, key=lambda a: (len(wanted & unit_forms(a.text)),
                                    len(words(a.text)) > 3, -told.index(a)))


def _before(timeline: Sequence[Statement], i: int) -> Statement:
    """The latest statement before ``timeline[i]`` with another value; ``timeline[i]``'s
    replaced value when none has one."""
    current = unit_forms(timeline[i].value)
    for st in reversed(timeline[:i]):
        if unit_forms(st.value) != current:
            return st
    # ... else the value replaced where it was said, the latest first ("€52 pp now
    # instead of 45" before the reminders repeating €52)
    for st in (timeline[i], *reversed(timeline[:i])):
        if st.replaced:
            return Statement(st.unit, st.node, st.sentence, st.replaced, "")
    return timeline[i]


def _names_someone(state: State, people: Sequence[Person], *, latest: bool = False) -> bool:
    """Whether a state's values (with ``latest``, its current one) name a person the scope
    knows, a speaker speaking of themselves, or a named party ("Prairie Gold Mills")."""
    values = " ".join(e.value for e in (state.chain[-1:] if latest else state.chain) if e.value)
    lows = {w.low for w in words(values)}
    if lows & SELF_WORDS or any(p.keys & lows for p in people):
        return True
    # (a day or month is nobody: "Sunday 22 Feb, 7am"; nor is a room or a spot: "Cove Room
    # U-shape")
    return not lows & _SPOT_NOUNS and any(
        w.text[:1].isupper() and not is_calendar_word(w.text) for w in words(values))


# Nouns of rooms and spots a name can label ("Cove Room", "Pitch 2"), which no party is.
_SPOT_NOUNS = frozenset({
    "room", "hall", "floor", "suite", "booth", "rack", "stage", "desk", "container", "unit",
    "pitch", "plot", "locker", "dock", "platform", "stall", "ward", "cabin", "tent", "bunk",
    "berth", "pier", "bed", "table", "bay", "gate", "lane", "court", "car", "park",
})


def _anchors(qa: QuestionAnalysis, lexicon: QuestionLexicon) -> tuple[set[str], set[str]]:
    """The value words of the values a question names, split into those a change left
    ("off Thursday", "from the 15th") and those it reached."""
    low = qa.text.lower()
    left: set[str] = set()
    reached: set[str] = set()
    # where the question says the change ("why was the course on the 16th *cancelled*")
    said = [at for c in qa.changes if (at := low.find(c.lower())) >= 0]
    change_at = min(said) if said else -1
    for expr in [*qa.dates, *qa.named, qa.anchor]:
        if not expr:
            continue
        at = low.find(expr.lower())
        before = low[max(0, at - 12): at] if at >= 0 else ""
        # "why *couldn't* we migrate on the 12th", "why not the 17th?": a value the
        # question negates is one the change left; so is a day naming the thing as it
        # was known ("why did the thursday meeting move to 8:30?")
        negated = at >= 0 and _NEGATION.search(low[:at]) is not None
        known_as = at >= 0 and before.endswith("the ") and _NAMES_THING.match(
            low, at + len(expr)) is not None and expr.lower().removesuffix("s") in _WEEKDAYS
        # a value naming the thing before the word of its change is what it was ("the
        # course on the 16th cancelled", "saturday's meetup moved"; not "moved to the 22nd")
        # (a weekday before the thing's noun is part of its name: "why did tuesday
        # circuits move off 6am")
        named_before = 0 <= at < change_at and expr in qa.dates \
            and any(ch.isdigit() for ch in expr) \
            and not before.rstrip().endswith(("to", "until", "till"))
        target = left if negated or known_as or named_before or any(
            before.rstrip().endswith(w) for w in lexicon.left_value) else reached
        target |= _value_words(expr, lexicon)
    return left, reached


# A word after a day that makes the day part of a thing's name ("the thursday *meeting*").
_NAMES_THING = re.compile(r"\s(?!(?:at|to|from|on|in|or|and|instead|now|then|not)\b)[a-z]{3,20}")
_WEEKDAYS = frozenset(d.lower() for d in WEEKDAY_NAMES)
_NEGATION = re.compile(r"n't\b|n’t\b|\b(?:not|never|no longer|cant|couldnt|didnt|wont|"
                       r"isnt|wasnt|arent|werent|doesnt)\b")


def _changed_by(entries: Sequence[ChainEntry], qa: QuestionAnalysis,
                families: Sequence[frozenset[str]] = ()) -> ChainEntry | None:
    """The latest of ``entries`` whose message uses a change word of the question
    ("postponed" for "why did we postpone…"), else one of the same group of ``families``
    ("pushed back" for "why did it get delayed")."""
    wanted = {f for c in qa.changes for f in forms(c)}
    if not wanted:
        return None
    for e in reversed(entries):
        if wanted & unit_forms(e.quote):
            return e
    kin: set[str] = set()
    for group in families:
        said = {f for w in group for f in forms(w)}
        if wanted & said:
            kin |= said
    kin -= wanted
    if kin:
        for e in reversed(entries):
            if kin & unit_forms(e.quote):
                return e
    return None


def _value_words(text: str, lexicon: QuestionLexicon) -> set[str]:
    """The words of an anchor that can name a value ("it got moved to tuesday" →
    "tuesday"): not change words, not pronouns or stopwords."""
    out: set[str] = set()
    for w in words(text):
        if w.low in STOPWORDS or w.low in lexicon.question_words or \
                is_change_word(w.low, lexicon):
            continue
        out |= forms(w.low)
    return out


_NUMBER = re.compile(r"(?<![\w.])\d[\d,]{0,15}(?:\.\d{1,6})?")


def direction(text: str, lexicon: QuestionLexicon) -> int:
    """+1 when ``text`` (a question's *before* clause) names an increase ("the increase",
    "the price went up"), -1 a decrease, 0 neither or both."""
    lows = [w.low for w in words(text)]
    up = any(find_phrase(lows, p) >= 0 for p in lexicon.rises)
    down = any(find_phrase(lows, p) >= 0 for p in lexicon.falls)
    return (1 if up else -1) if up != down else 0


def amount(value: str) -> float | None:
    """The one number a value states ("£1,224" → 1224.0), or None."""
    found = _NUMBER.findall(value)
    if len(found) != 1:
        return None
    return float(found[0].replace(",", ""))


def moved(before: str, after: str, way: int) -> bool:
    """Whether the amount went from ``before`` to ``after`` in direction ``way``."""
    a, b = amount(before), amount(after)
    return a is not None and b is not None and a != b and (b > a) == (way > 0)


def last_move(values: Sequence[str], way: int) -> int:
    """The index of the latest of ``values`` (in time order) reached by a move in direction
    ``way`` from the one before it; -1 when none was."""
    return next((i for i in range(len(values) - 1, 0, -1)
                 if moved(values[i - 1], values[i], way)), -1)


def _asks(text: str) -> bool:
    """Whether a message asks something (a question, or a proposal put as one)."""
    return "?" in text


# A status that ends a plan rather than moving it to a new value.
ENDED = frozenset({"cancelled", "called off", "scrapped", "on hold", "pulled out", "pulled",
                   "dropped", "no longer"})


def status_of(text: str, lexicon: QuestionLexicon) -> str:
    """The change of state ``text`` tells, as its status word ("postponed", "moved",
    "cancelled"), the first of the lexicon's order (an end before a move); "" for none."""
    # "glasgow's off" is "glasgow is off"; "lou's off to ikea" is someone away
    ws = words(text)
    lows: list[str] = []
    for w, nxt in zip(ws, [*ws[1:], None], strict=True):
        called_off = (w.low.endswith("'s") and nxt is not None and nxt.low == "off"
                      and off_calls_off(w.low, text[nxt.end:]))
        lows += [w.low[:-2], "is"] if called_off else [w.low]
    for pattern, status in lexicon.status:
        if find_phrase(lows, pattern) >= 0:
            return status
    return ""


def confirm_line(qa: QuestionAnalysis, *, value: str, text: str, said: str,
                 lexicon: QuestionLexicon) -> str:
    """The answer to "is X still …?": "Yes" when the latest value is the one asked about
    (or none is asked and nothing changed), else "No" with the change: its status and the
    new value ("No — postponed: next month (Dana, Apr 11)")."""
    asked = {f for d in qa.dates for w in words(d) if w.low not in STOPWORDS
             for f in forms(w.low)}
    held = unit_forms(value)
    status = status_of(text, lexicon)
    if status and (status in ENDED or not asked & held):
        shown = value if value and not held <= unit_forms(status) else ""
        return f"No — {status}{': ' + shown if shown else ''} {said}"
    if asked and value and not asked & held:
        return f"No — now {value} {said}"
    return f"Yes — {value} {said}" if value else f"Yes {said}"


def why_answer(reason: str, source: EvidenceNode, state: State | None,
                order: Sequence[EvidenceNode]) -> Composed:
    """The why-answer: the reason with who gave it, the chain it explains (when the
    reason is the change's own or its context's), the evidence."""
    lines = [f"{shorten(reason, 300)} ({source.speaker}, {day_label(source.ts)})"]
    if state is not None:
        lines.append(chain_line(state))
    lines.append(evidence_line(source))
    cites = [citation(source)] + [citation(n) for n in order[:2] if n is not source]
    return Composed(lines, reason, cites, [state] if state is not None else [])


# A question asking for a build or a candidate rather than a release.
_BUILD_ASKED = re.compile(r"\b(?:build|builds|rc|candidate|beta|alpha|nightly)\b", re.IGNORECASE)


def release_grain(qa: QuestionAnalysis, statements: list[Statement]) -> list[Statement]:
    """For a version asked of a release, the statements of releases ("2.4"), not of its
    builds or candidates ("rc1 today"), when there are any."""
    if qa.family != "version" or _BUILD_ASKED.search(qa.text):
        return statements
    return [st for st in statements if not st.value or not is_build(st.value)] or statements


def revises_another(node: EvidenceNode, answer: EvidenceNode) -> bool:
    """Whether the writer committed ``node`` as a change of another state than the one
    ``answer`` set: a turn moving the heating engineer's visit off wednesday is no new day
    for the newsletter held on wednesday."""
    # (only when the turn names that other thing: "fine by me, friday 15th" linked to the
    # scouts' booking by a writer's slip names nothing, and may still move the plan)
    return (node.verdict is Verdict.REVISE and node.state_id is not None
            and answer.state_id is not None and node.state_id != answer.state_id
            and bool(set(content_terms(node.topic)) & set(content_terms(node.text))))
