"""What the offline proposer decides with: the messages it is given (write items), the registry
of states it reads, the context of one message (its thread, the turn it answers, the states
in play), the matches and decisions it makes, and how one message's decisions combine (its
primary update and its facets).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from memory.analysis.cue_words import CONTACT_VERBS, GOT_BACK
from memory.analysis.definitions import SpeechAct
from memory.analysis.lexicon import CLAUSE_VERBS, FACET_NOUNS, KIND_NOUNS, SAID_CHANGE
from memory.analysis.matching import compatible, values_match
from memory.analysis.message import Claim, Clause, MessageAnalysis
from memory.analysis.values import STATUS_FAMILY
from memory.models import EvidenceNode, Message, Verdict
from memory.registry import RegistryHit, StateRecord
from memory.text import (
    SlotKind,
    content_terms,
    find_slots,
    one_dated_day,
    stem,
    tokens,
    value_key,
)


@dataclass
class WriteItem:
    """One message as the writer sees it: the message, its resolved context and vector."""

    message: Message
    node_id: str
    parent: EvidenceNode | None = None
    recent: list[EvidenceNode] = field(default_factory=list)
    vector: np.ndarray | None = None
    #: In chat without threads: the earlier turn this one most likely answers or accepts (a
    #: question or proposal a few messages up, by someone else).
    linked: EvidenceNode | None = None


class RegistryTool(Protocol):
    """The writer's view of memory: channel-scoped active states only."""

    def search_registry(
        self, item: WriteItem, query: str, *, k: int = 5, families: set[str] | None = None
    ) -> list[RegistryHit]: ...

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        """An active state of the item's own channel, or None."""
        ...


@runtime_checkable
class SubjectSimilarity(Protocol):
    """Optional: how close a subject phrase is to state topics, by embeddings."""

    def similarity(self, phrase: str, topics: Sequence[str]) -> list[float]: ...


# An earlier turn is context for this one only this soon before it.
_CONTEXT_WINDOW_S = 3 * 86400


_RECENT_TURNS = 3


_MAX_FACETS = 8


# How much better a later revision in a message must match to be its main one.
_CLEARLY = 0.3


_SUGGESTING = frozenset({SpeechAct.PROPOSAL, SpeechAct.QUESTION})


# Proposal cues that put a value forward (others ask someone to do something).
_SUGGESTION_CUES = frozenset({"how about", "what about", "maybe", "perhaps", "proposing",
                              "i propose", "propose", "proposal", "i suggest", "i'd suggest",
                              "suggest", "suggesting", "suggestion", "i'd vote for",
                              "i vote for", "vote for", "or maybe", "alternatively", "idea:",
                              "option:", "we could", "why not"})


_WE_CUES = frozenset({"can we", "could we", "should we", "shall we", "any chance",
                      "is it ok if", "is it okay if", "would it work", "what if"})


_CHANGING = frozenset({SpeechAct.DECISION, SpeechAct.CORRECTION, SpeechAct.CANCELLATION,
                       SpeechAct.REASSIGNMENT})


@dataclass
class _Context:
    """What a message is read against: the turn it answers, its thread and recent turns."""

    anchor: EvidenceNode | None = None
    anchor_analysis: MessageAnalysis | None = None
    strong: list[StateRecord] = field(default_factory=list)
    weak: list[StateRecord] = field(default_factory=list)
    subject: str = ""
    #: Whether ``subject`` is the thread's (its first message's): a reply in the thread
    #: stating a value with no subject of its own is about it.
    threaded: bool = False
    #: The value a proposal just before this message suggested, with its subject.
    suggested: Claim | None = None
    suggested_clause: Clause | None = None
    #: The turn by someone else the message follows and may answer (a reply in a talk,
    #: not a speaker going on alone): its text, empty when there is none.
    replying: str = ""
    #: Words of the names of people in the channel: a name shared by two subjects
    #: ("Callum's handover", "Callum's paternity leave") does not make them one.
    people: frozenset[str] = frozenset()

    @property
    def strong_ids(self) -> set[str]:
        return {s.state_id for s in self.strong}

    @property
    def weak_ids(self) -> set[str]:
        return {s.state_id for s in self.weak}


@dataclass
class _Match:
    state: StateRecord
    score: float
    qualifies: bool
    strong: bool


@dataclass
class _Decision:
    verdict: Verdict
    topic: str
    quote: str
    family: str
    act: SpeechAct
    state: StateRecord | None = None
    score: float = 0.0
    change: float = 0.0  # the strength of the change its clause says
    #: The earlier turn the decision takes its subject from, when not the one the message
    #: answers (the turn that put the option forward).
    answers: str = ""




_OCCURRENCE = re.compile(r"\b(?:today|tonight|tomorrow|this week|next week|this time|"
                         r"(?:this|next) (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b",
                         re.IGNORECASE)


# A dated day from which a thing ends for good ("cancelled for good from 20 March"): the
# series ends then, not one meeting of it.
_FOR_GOOD = re.compile(r"\b(?:from|starting|as of|onwards|for good|permanently|going forward|"
                       r"until further notice|from now on|after)\b", re.IGNORECASE)


def _key(value: str) -> str:
    return value_key(value)


def _occurrence(clause: Clause) -> bool:
    """Whether a cancellation names one occurrence ("sync today is cancelled")."""
    return bool(_OCCURRENCE.search(clause.text)) or (
        one_dated_day(clause.text) and not _FOR_GOOD.search(clause.text))


def _without_values(clause: Clause) -> str:
    """The clause's words without its values (what it says about them)."""
    text = clause.text
    for v in sorted((*clause.values, *clause.old), key=lambda v: -v.start):
        s, e = v.start - clause.start, v.end - clause.start
        if 0 <= s <= e <= len(text):
            text = text[:s] + " " + text[e:]
    return text


def _matchable(terms: set[str]) -> set[str]:
    """Subject words without the ones naming the kind of value ("launch date" is "launch",
    "release version" is "release"): the value's family already says that. A subject made
    only of them keeps them."""
    out = {t for t in terms if t not in KIND_NOUNS}
    out = out or set(terms)
    # "check-in" is "check in": a hyphenated word counts by its parts too
    return out | {part for t in out if "-" in t for part in content_terms(t.replace("-", " "))}


def closed_compounds(text: str) -> set[str]:
    """A verb and its particle said apart, written as one word ("kick off" is "kickoff",
    "hands over" is "handover"): the particle alone is no subject word, the compound is."""
    return {stem(m.group(1).lower()) + m.group(2).lower() for m in _OPEN_COMPOUND.finditer(text)}


# a verb and the particle after it ("kick off", "set up", "hand over")
_OPEN_COMPOUND = re.compile(r"\b([a-z]{2,20})[\s-](off|up|over|out|down|through|in)\b",
                            re.IGNORECASE)


def _same_subject(a: set[str], b: set[str]) -> bool:
    """Whether two subjects name the same thing: one contains the other, or they share at
    least half of all their words."""
    shared = a & b
    if not shared:
        return False
    return a <= b or b <= a or len(shared) / len(a | b) >= 0.5


# The longest question a message asks and answers itself ("venue for the team offsite? I
# vote the lake house").
_ASKED_WORDS = 8


def _inherit(claim: Claim, before: Sequence[Clause], *, answered: str = "",
             changing: bool = False) -> Claim:
    """A claim that names no subject takes the message's own earlier one: the nearest clause
    before it that states something about a subject, else the header that opened the message
    ("Bad news on lunch: ... Switching to Taqueria Luna"). A short clause only picking one of
    the alternatives ``answered`` offered ("per car." to "per car or per room?") names no
    subject: it is an answer. A change said outright (``changing``) is of the short header
    that opened the message ("redcliffe update — BOM says 38 on the 27th. … pushing to fri 6
    march")."""
    if not before:
        return claim
    subject = next((c.subject for c in reversed(before) if c.subject and c.claims), "")
    last = before[-1]
    # (praise for the turn before, "good spot.", names nothing of its own)
    if not subject and last.subject and not last.claims and not _picks(last, answered) \
            and last.act is not SpeechAct.CONFIRMATION and (
            len(last.text.split()) <= 4
            # "font for the landing page? i vote Inter": what it asked, answered at once
            or (last.act is SpeechAct.QUESTION and len(last.text.split()) <= _ASKED_WORDS)):
        subject = last.subject  # "cert renewed ✅ new one good until apr 14 2026"
    header = before[0]
    if (not subject and header.subject and not header.claims and len(before) > 1
            and ((before[1].label and before[1].label.strip() == header.text.strip())
                 or (changing and len(header.text.split()) <= _HEADER_WORDS
                     and not _reports_contact(header.text)))):
        # ("dunmore rang, … so they've moved us to tue 23rd": who got in touch is no
        # subject; the change is of what the talk is on)
        subject = header.subject
    if not subject:
        return claim
    return Claim(claim.value, subject, frozenset(content_terms(subject)))


def _reports_contact(text: str) -> bool:
    """Whether a short clause only says someone got in touch ("dunmore rang", "ashcombe
    came back", "supplier emailed")."""
    words = tokens(text)
    return bool(words) and (words[-1] in CONTACT_VERBS or words[-2:] in GOT_BACK)


# The most words of a header a change later in the message is of.
_HEADER_WORDS = 4


def _picks(clause: Clause, answered: str) -> bool:
    """Whether ``clause`` only repeats one alternative of a choice the turn it answers
    offered."""
    offered = set(tokens(answered))
    said = set(tokens(clause.text))
    return "or" in offered and bool(said) and said <= offered


def _qualify(claim: Claim, before: Sequence[Clause]) -> Claim:
    """A subject that only names an aspect ("earliest is the 14th", "new date is Friday") is
    an aspect of what the message spoke of before ("ligand batch came out contaminated ...
    earliest is the 14th")."""
    earlier = next((c.subject for c in reversed(before) if c.subject
                    and not set(c.terms) <= FACET_NOUNS), "")
    if not earlier:
        return claim
    words: list[str] = []
    for w in earlier.split()[:4]:
        if w.lower() in CLAUSE_VERBS:
            break  # "ligand batch came out contaminated" is about the ligand batch
        words.append(w)
    if not words:
        return claim
    subject = f"{' '.join(words)} {claim.subject}"
    return dataclasses.replace(claim, subject=subject, terms=frozenset(content_terms(subject)))


def _without_people(phrase: str, people: frozenset[str]) -> str:
    if not people:
        return phrase
    words = [w for w in phrase.split() if not set(content_terms(w)) & people]
    return " ".join(words) if words else phrase


def _states_of(node: EvidenceNode) -> list[str]:
    from memory.facets import node_state_ids

    return node_state_ids(node)


def _consistent(decisions: list[_Decision]) -> list[_Decision]:
    """A message that states a state's current value again does not, in the same breath,
    replace it by another value of that kind without saying so: that other value is about
    something else ("lunch at the usual place; meet in the lobby" keeps the place)."""
    restated: dict[tuple[str, str], list[str]] = {}
    for d in decisions:
        if d.verdict is Verdict.RESTATE and d.state is not None:
            restated.setdefault((d.state.state_id, d.family), []).append(d.quote)
    # (a day said beside the time kept is the plan's new day: "sat 22nd then, same 10am")
    return [d for d in decisions
            if not (d.verdict is Verdict.REVISE and d.state is not None
                    and (d.state.state_id, d.family) in restated and d.change < 0.5
                    and not (_names_day(d.quote) and not any(
                        _names_day(q) for q in restated[(d.state.state_id, d.family)])))]


def _rescheduled(decisions: list[_Decision]) -> list[_Decision]:
    """A thing called off and given a new day in one message is moved, not cancelled
    ("thursday's in-service is off. she's offered the 19th, same time"): the new day is the
    change, and the thing keeps going."""
    if len(decisions) > _RESCHEDULE_DECISIONS:
        # a roll-up naming many things ("Atlas 11 Nov, …, Ember on hold, …"): one thing on
        # hold and another's new day are no move of one thing
        return decisions
    moved = {d.topic.lower() for d in decisions
             if d.verdict is Verdict.REVISE and d.family == "when"}
    return [d for d in decisions
            if not (d.family == STATUS_FAMILY and d.act is SpeechAct.CANCELLATION
                    and d.topic.lower() in moved)]


# The most decisions a message moving one thing makes (its day, its time, its place, …).
_RESCHEDULE_DECISIONS = 4


def _names_day(quote: str) -> bool:
    return any(s.kind is SlotKind.DATE for s in find_slots(quote))


def _primary(decisions: list[_Decision], asked: frozenset[str]) -> _Decision:
    """The main update of a message: its strongest revision, else a restatement, else the
    first state it opens — except that the answer to what the message answers asks for
    ("Where should we go?" → "Pho Saigon it is, Friday at 12:30") comes before a revision
    that only adds detail to a value ("Friday" → "Friday at 12:30")."""
    answer = next((d for d in decisions if d.verdict is Verdict.ESTABLISH
                   and d.family != STATUS_FAMILY
                   and any(compatible(d.family, f) for f in asked)), None)
    revisions = [d for d in decisions if d.verdict is Verdict.REVISE]
    if answer is not None and all(
            d.state is not None and values_match(d.state.value, d.quote) for d in revisions):
        return answer
    for verdict in (Verdict.REVISE, Verdict.RESTATE):
        found = [d for d in decisions if d.verdict is verdict]
        said = [d for d in found if d.change >= SAID_CHANGE]
        if verdict is Verdict.REVISE and said:
            # a change said outright is the message's point over a value only reported
            # beside it ("BOM says 38 on the 27th. … pushing to fri 6 march", "Nightwing only
            # have 2 units free … switching the whole order to Echo Rentals")
            found = said
        if found:
            # The first change a message names is its point ("primary ana, secondary
            # bjorn"), unless a later one is clearly the better match.
            top = max(d.score for d in found)
            return next(d for d in found if d.score >= top - _CLEARLY)
    # (of one topic, the value a change is said of: "redcliffe update — BOM says 38 on the
    # 27th … pushing to fri 6 march" opens the trip on the 6th)
    first = decisions[0]
    return next((d for d in decisions if d.change >= SAID_CHANGE and d.topic == first.topic),
                first)


def _facets(decisions: list[_Decision], primary: _Decision) -> list[_Decision]:
    """The further states a message opens (one per subject and kind of value) and revises
    (one value per state; "the Cup moves to the Bathurst Community Centre and the date is now
    Aug 24" revises the venue and the date)."""
    seen = {(primary.topic.lower(), primary.family)}
    revised = {primary.state.state_id} if primary.state is not None else set()
    out: list[_Decision] = []
    for d in decisions:
        if d is primary or not d.quote:
            continue
        if d.verdict is Verdict.REVISE and d.state is not None:
            if d.state.state_id in revised:
                continue
            revised.add(d.state.state_id)
            out.append(d)
            continue
        if d.verdict is not Verdict.ESTABLISH:
            continue
        key = (d.topic.lower(), d.family)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out[:_MAX_FACETS]
