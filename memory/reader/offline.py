"""The offline reader: the paper's tools under a fixed policy, answering extractively.

Policy for one question (each step conditioned on what the previous ones returned):

1. ``search_evidence`` on the question; dates in the question are resolved against the
   reference day and steer ranking.
2. For state-like questions ("what time", "which version", "current", "now", "decided",
   "moved", "still", …) ``read_current_state``, including the states of the evidence found
   and the states sharing their topic; for any question whose best evidence belongs to a
   state that was revised, that state, and for a question asking a kind of value ("where",
   "when", "how much"…) the states sharing its topic that hold that kind. One decision's
   parts may sit in separate states (a lunch's date, and its place decided in the thread):
   the part asked for answers, each state its own candidate.
3. A second round (unless ablated) with the question expanded by the anchors' speakers and
   key terms; passages already returned are suppressed.
4. Answer: for state questions the current value with its chain ("4 pm (was 3 pm, revised
   by Alice on Nov 3)") of the states holding the kind of value asked, otherwise the best
   sentences of the top evidence; cite the nodes used. Abstain when the best relevance is
   below a threshold.

A *who said it* question ("Who suggested Taqueria Luna for the team lunch?") asks for a
person, not a value: no state answers it. The thing said is also looked up literally, and the
answer is the speaker of the earliest message whose own words put it forward, cited.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from memory.models import Answer, Citation, EvidenceNode, Scope, State
from memory.reader.answer import (
    asks_when,
    attributed_phrase,
    best_clause,
    best_sentences,
    citation,
    current_value,
    dated_current_value,
    day_label,
    describe_state,
    first_said,
    key_terms,
    named_span,
    split_sentences,
)
from memory.reader.dates import find_date_expressions, spoken_day
from memory.reader.search import ABLATE_SINGLE_ROUND, Hit
from memory.reader.tools import ReaderSession, ReaderTools, asked_families
from memory.rewrite import resolved_dates
from memory.text import content_terms, family_of, shorten, tokens

logger = logging.getLogger(__name__)

NOT_FOUND = "Not mentioned in the conversation: I found no evidence for this in memory."

_STATE_CUES = re.compile(
    r"\b(what time|when is|when's|which version|what version|current(?:ly)?|now|decided|"
    r"decision|moved|still|latest|final|changed|new (?:time|date)|rescheduled|deadline|"
    r"due|what day)\b",
    re.IGNORECASE,
)


# How relevant a passage must be for its state to answer a question without state cues:
# above the abstention threshold, since a weak match on one shared word ("budget") must not
# turn into another decision's current value.
STATE_EVIDENCE_RELEVANCE = 0.40
# Literal matches read for a *who said it* question (oldest first).
LOOKUP_K = 50
# A message quoted whole as who said something when it is this short.
QUOTE_WHOLE_CHARS = 200


def is_state_question(question: str) -> bool:
    """Whether ``question`` asks for the current value of something that may have changed."""
    return bool(_STATE_CUES.search(question))


class OfflineReader:
    """Deterministic reader over :class:`ReaderTools`.

    ``k`` passages per search; ``min_relevance`` is the abstention threshold on the best
    evidence's absolute content relevance (``Hit.features["relevance"]``).
    """

    def __init__(self, *, tools: ReaderTools, k: int = 10, min_relevance: float = 0.20,
                 expansion_terms: int = 4) -> None:
        self.tools = tools
        self.k = k
        self.min_relevance = min_relevance
        self.expansion_terms = expansion_terms

    def answer(
        self,
        question: str,
        *,
        scope: Scope,
        reference: datetime | None = None,
        ablate: frozenset[str] = frozenset(),
    ) -> Answer:
        session = self.tools.session(scope, reference=reference, ablate=ablate)
        session.round = 1
        hits = session.search_hits(question, k=self.k)
        for expr in find_date_expressions(question):
            session.resolve_date(expr)
        said = attributed_phrase(question)
        # A who-said question asks for a person: no state's value answers it.
        states = [] if said else _read_states(question, session, hits[:3])
        rounds = 1
        if ABLATE_SINGLE_ROUND not in ablate and hits:
            expanded = self.expand(question, hits[:3])
            if expanded != question:
                session.round = 2
                hits = hits + session.search_hits(expanded, k=self.k)
                rounds = 2
        if said:
            # The first mention may be older than anything the searches ranked.
            literal = session.lookup_phrase(named_span(said) or said, k=LOOKUP_K)
            sayer = first_said(said, [h.node for h in hits] + literal)
            if sayer is not None:
                return _said_answer(sayer, session, rounds)
        return self._compose(question, session, hits, states, rounds)

    def expand(self, question: str, anchors: list[Hit]) -> str:
        """The question plus the anchors' speakers and most frequent new key terms."""
        qterms = set(content_terms(question))
        qtokens = set(tokens(question))
        extra: list[str] = []
        for h in anchors:
            speaker = h.node.speaker
            if speaker and not set(tokens(speaker)) & qtokens and speaker not in extra:
                extra.append(speaker)
        extra += key_terms([h.node for h in anchors], exclude=qterms,
                           limit=self.expansion_terms)
        return f"{question} {' '.join(extra)}".strip() if extra else question

    def _compose(self, question: str, session: ReaderSession, hits: list[Hit],
                 states: list[State], rounds: int) -> Answer:
        best = max((h.features.get("relevance", 0.0) for h in hits), default=0.0)
        relevant = best >= self.min_relevance
        if not relevant and not states:
            return Answer(answer=NOT_FOUND, abstained=True, rounds=rounds,
                          gathered=list(session.gathered))
        citations: list[Citation] = []
        parts: list[str] = []
        answered = _answer_states(question, states)
        for state in answered:
            parts.append(f"{state.topic}: {describe_state(state)}")
            for entry in reversed(state.chain):
                node = session.nodes.get(entry.node_id)
                if node is not None:
                    citations.append(citation(node))
        if not states or not relevant:
            ranked = [h.node for h in sorted(hits, key=lambda h: -h.score)][:5]
        else:
            ranked = []
        chosen = best_sentences(question, ranked, limit=2)
        for node, sentence in chosen:
            parts.append(f"{node.speaker}: {sentence}")
            citations.append(citation(node, quote=sentence))
        short = short_answer(question, answered, chosen)
        if short and not answered and asks_when(question):
            parts.insert(0, short)  # the resolved date, which no quoted line spells out
        # One line per state or quoted sentence, so separate candidates never run together.
        text = "\n".join(parts) if parts else NOT_FOUND
        unique = list({c.node_id: c for c in citations}.values())
        # The states that answer first, then the others read.
        read = answered + [s for s in states if s not in answered]
        return Answer(answer=text, short=short, abstained=False, citations=unique,
                      states=read, rounds=rounds, gathered=list(session.gathered))


def short_answer(question: str, states: list[State],
                 sentences: list[tuple[EvidenceNode, str]]) -> str:
    """The direct answer alone: the current value of the best state; for a *when*
    question, the date the best sentence names (resolved against when it was said) or else
    the day it was said; otherwise the clause of the best sentence that holds the most of
    the question's terms. Empty when there is nothing to extract from."""
    if states:
        return dated_current_value(states[0])
    if not sentences:
        return ""
    node, sentence = sentences[0]
    if asks_when(question):
        dates = resolved_dates(sentence, node.ts) or resolved_dates(node.text, node.ts)
        if dates:
            return dates[0][1].spoken()
        return spoken_day(node.ts)
    return best_clause(question, sentence)


def _read_states(question: str, session: ReaderSession, top: list[Hit]) -> list[State]:
    """The states that may answer ``question``, given its ``top`` evidence (step 2)."""
    anchors = list(dict.fromkeys(h.node.state_id for h in top if h.node.state_id))
    if is_state_question(question):
        return session.read_current_state(question, k=2, state_ids=anchors, siblings=True)
    strong = list(dict.fromkeys(
        h.node.state_id for h in top if h.node.state_id
        and h.features.get("relevance", 0.0) >= STATE_EVIDENCE_RELEVANCE))
    if not strong:
        return []
    # Strong evidence belongs to something that was revised: the answer is its current value
    # with its history, whatever words the question used. A state sharing its topic answers
    # when it holds the kind of value asked, revised or not.
    found = session.read_current_state(question, k=len(strong) + 1, state_ids=strong,
                                       siblings=True)
    kin = {(s.channel, s.topic) for s in found if s.state_id in strong}
    kinds = answer_kinds(question)
    return [s for s in found
            if (s.state_id in strong and len(s.chain) > 1)
            or (s.state_id not in strong and (s.channel, s.topic) in kin
                and value_kind(s) in kinds)]


def _said_answer(node: EvidenceNode, session: ReaderSession, rounds: int) -> Answer:
    """The speaker of ``node`` as who said it, with the message quoted (its first sentence
    when long) and cited."""
    sentences = split_sentences(node.text)
    quote = node.text if len(node.text) <= QUOTE_WHOLE_CHARS or not sentences else sentences[0]
    quote = shorten(quote, QUOTE_WHOLE_CHARS)
    return Answer(answer=f"{node.speaker} ({day_label(node.ts)}): {quote}", short=node.speaker,
                  abstained=False, citations=[citation(node, quote=quote)], rounds=rounds,
                  gathered=list(session.gathered))


def answer_kinds(question: str) -> set[str]:
    """Value families that answer ``question``: those it asks for, and for *where* also named
    choices (a place is decided by name: "Taqueria Luna")."""
    kinds = asked_families(question)
    return kinds | {"name"} if "where" in kinds else kinds


def value_kind(state: State) -> str:
    """The family of a state's current value as its message stated it ("name" for "switching
    to Taqueria Luna"); "" for free text."""
    source = state.chain[-1].quote if state.chain else ""
    return family_of(current_value(state), source)


def _answer_states(question: str, states: list[State]) -> list[State]:
    """The states holding the kind of value asked for, in the given order; the best state
    when none does (or the question asks no kind). Separate states are separate candidates:
    they are listed, never merged."""
    if not states:
        return []
    kinds = answer_kinds(question)
    held = [s for s in states if kinds and value_kind(s) in kinds]
    return held or states[:1]
