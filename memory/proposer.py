"""Proposers: turn a message plus what the writer saw of memory into a Proposal.

Two proposers share the :class:`Proposer` protocol — the deterministic offline proposer here
and the LLM proposer in ``memory.llm.writer_agent`` — and both feed the same verify/commit.
A proposal never changes memory by itself.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.registry import RegistryHit, StateRecord
from memory.text import (
    CUE_ONLY,
    DECISION_CUES,
    STATE_NOUNS,
    STOPWORDS,
    Slot,
    SlotKind,
    clauses,
    content_terms,
    find_slots,
    has_cue,
    has_revision_cue,
    is_agreement,
    is_noise,
    is_procedural,
    is_procedural_word,
    is_year,
    names_procedure,
    names_value,
    overlap,
    primary_slot,
    shorten,
    stem,
    strip_urls,
    tokens,
)


@dataclass
class WriteItem:
    """One message as the writer sees it: the message, its resolved context and vector."""

    message: Message
    node_id: str
    parent: EvidenceNode | None = None
    recent: list[EvidenceNode] = field(default_factory=list)
    vector: np.ndarray | None = None


class RegistryTool(Protocol):
    """The writer's view of memory: channel-scoped active states only."""

    def search_registry(
        self, item: WriteItem, query: str, *, k: int = 5, families: set[str] | None = None
    ) -> list[RegistryHit]: ...

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        """An active state of the item's own channel, or None."""
        ...


class Proposer(Protocol):
    #: How many messages of one channel it proposes for at once.
    batch_size: int
    name: str

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        """One proposal per item, in order. ``prior_state_id`` may name a state id or
        ``msg:<message id>`` for a state established by an earlier item of the same batch."""
        ...


_CUE_WORDS = {stem(w) for cue in CUE_ONLY for w in tokens(cue)} | {"instead", "actually", "now"}
# A follow-up this short, with no topic words of its own, refers to what was just discussed.
_FOLLOW_UP_MAX_TERMS = 2
_WINDOW_S = 3 * 86400


@dataclass
class _Clause:
    start: int
    text: str
    slots: list[Slot]
    terms: set[str]
    cue: bool


@dataclass
class _Candidate:
    hit: RegistryHit
    slot: Slot
    score: float
    same_value: bool


class OfflineProposer:
    """Deterministic proposer: cue words, value slots, registry similarity and reply context.

    A message is read clause by clause: a revision needs a revision cue ("instead", "moved
    to", "from X to Y", …) in the clause that carries the new value, and a prior state of the
    same kind of value that the clause is about (shared topic words, the old value named, or
    the state being what this reply/thread is about). Sharing a topic alone never revises.
    """

    batch_size = 1
    name = "offline"

    def propose(self, items: Sequence[WriteItem], registry: RegistryTool) -> list[Proposal]:
        return [self._one(item, registry) for item in items]

    def _one(self, item: WriteItem, registry: RegistryTool) -> Proposal:
        msg = item.message
        text = msg.text
        base = Proposal(message_id=msg.id, proposer=self.name)
        if msg.is_bot or is_noise(text):
            return base
        context_nodes = self._context_nodes(item)
        context_states = [n.state_id for n in context_nodes if n.state_id]
        reply = _is_reply(msg)
        if is_agreement(text) and len(tokens(text)) <= 8:
            target = self._context_state(item, registry, context_states)
            if target is None:
                return base
            # A reply "ok so, final: Friday 10am" opens like assent but names a new value: it
            # is read as a result below, not as a confirmation of the old one.
            if not (reply and _names_other_value(text, target)):
                return base.model_copy(update={
                    "verdict": Verdict.RESTATE, "topic": target.topic,
                    "prior_state_id": target.state_id,
                })

        parts = self._clauses(text)
        slots = [sl for c in parts for sl in c.slots]
        families = {sl.family for sl in slots}
        own_terms = set().union(*(c.terms for c in parts)) if parts else set()
        context = " ".join(n.passage for n in context_nodes)
        query = text if len(own_terms) > _FOLLOW_UP_MAX_TERMS else f"{text} {context}"
        hits = registry.search_registry(item, query, k=8, families=families or None)
        for sid in context_states:
            if all(h.state.state_id != sid for h in hits):
                rec = registry.get_state(item, sid)
                if rec is not None:
                    hits.append(RegistryHit(rec, 0.0, 0.0, 0.0))

        best = self._best_revision(text, parts, hits, set(context_states), reply=reply)
        if best is not None:
            verdict = Verdict.RESTATE if best.same_value else Verdict.REVISE
            return base.model_copy(update={
                "verdict": verdict, "topic": best.hit.state.topic,
                "prior_state_id": best.hit.state.state_id, "source_quote": best.slot.text,
            })
        if text.rstrip().endswith("?"):
            return base
        if reply:
            threaded = self._thread_decision(
                parts, self._thread_states(item, registry, context_nodes))
            if threaded is not None:
                return base.model_copy(update=threaded)
        decision = has_cue(text, DECISION_CUES)
        for clause in parts:
            value = primary_slot(clause.slots)
            if value is None or is_year(value):
                continue
            label = self._label(parts, clause)
            if not (decision or label or _stated(clause, value)):
                continue
            # In a reply a procedural label ("Poll's closed:") names no topic; the subject is
            # then the clause's own words or, failing those, what the reply answers.
            topic = derive_topic(clause.text, clause.slots,
                                 label="" if reply and is_procedural(label) else label,
                                 value=value, offset=clause.start)
            topic = topic or self._borrowed_topic(item)
            if topic:
                return base.model_copy(update={
                    "verdict": Verdict.ESTABLISH, "topic": topic, "source_quote": value.text,
                })
        if decision and len(own_terms) >= 2:
            return base.model_copy(update={
                "verdict": Verdict.ESTABLISH,
                "topic": derive_topic(text, slots),
                "source_quote": _first_clause(text),
            })
        return base

    @staticmethod
    def _clauses(text: str) -> list[_Clause]:
        whole_cue = has_revision_cue(text)
        out = []
        parts = clauses(text)
        for start, part in parts:
            sl = [dataclasses.replace(s, start=s.start + start, end=s.end + start)
                  for s in find_slots(part)]
            cue = has_revision_cue(part) or (whole_cue and len(parts) == 1)
            out.append(_Clause(start, part, sl, topic_terms(part, sl), cue))
        return out

    @staticmethod
    def _label(parts: list[_Clause], clause: _Clause) -> str:
        """A short slot-less clause just before ("Launch update:", "Weekly design sync:")
        names what the value clause is about."""
        idx = parts.index(clause)
        prev = parts[idx - 1] if idx > 0 else None
        if prev is not None and not prev.slots and len(tokens(prev.text)) <= 6:
            return prev.text
        return ""

    def _best_revision(
        self, text: str, parts: list[_Clause], hits: list[RegistryHit], context: set[str],
        *, reply: bool = False,
    ) -> _Candidate | None:
        found: list[_Candidate] = []
        for clause in parts:
            if not clause.slots:
                continue
            label = self._label(parts, clause)
            if reply and is_procedural(label):
                label = ""  # "Poll's closed:" says nothing about which state this is
            about = clause.terms | (topic_terms(label, []) if label else set())
            for hit in hits:
                st = hit.state
                same_kind = [s for s in clause.slots if s.family == st.value_family]
                if not same_kind or not st.value:
                    continue
                new = [s for s in same_kind if not _same_value(s.text, st.value)]
                topical = overlap(about, set(content_terms(st.topic)))
                if not clause.cue:
                    # Without a cue only a restatement counts: same value, same subject.
                    if new or topical < 0.5:
                        continue
                old_named = names_value(clause.text, st.value)
                in_context = st.state_id in context
                follow_up = len(about) <= _FOLLOW_UP_MAX_TERMS and in_context
                if not (topical >= 0.5 or old_named or in_context or follow_up):
                    continue
                score = topical + (0.6 if old_named else 0.0) + (0.4 if in_context else 0.0)
                score += 0.2 * max(hit.dense, 0.0)
                slot = _new_value(clause, new) if new else same_kind[0]
                found.append(_Candidate(hit, slot, score, not new))
        return max(found, key=lambda c: c.score) if found else None

    @staticmethod
    def _thread_states(
        item: WriteItem, registry: RegistryTool, context_nodes: list[EvidenceNode]
    ) -> list[StateRecord]:
        """The active states of this channel that the reply's parent or thread belongs to,
        parent first, then the thread's newest turns."""
        thread = item.message.thread_id
        ids: list[str] = []
        for n in context_nodes:
            in_thread = n is item.parent or bool(
                thread and (n.thread_id == thread or n.message_id == thread))
            if in_thread and n.state_id and n.state_id not in ids:
                ids.append(n.state_id)
        return [rec for sid in ids if (rec := registry.get_state(item, sid)) is not None]

    def _thread_decision(
        self, parts: list[_Clause], states: list[StateRecord]
    ) -> dict[str, object] | None:
        """A reply that announces a result in a thread holding a state is about that state,
        unless it names another subject.

        The value decided is a named choice ("Pho Saigon it is") if the clause has one, else
        a value of the kind a thread state holds, else the clause's primary value. Its
        subject is the clause's label (unless procedural: "Poll's closed:", "Final answer:",
        "ok so") and its own words before the value, less cue and procedural words. A subject
        that shares no topic with the thread's states ("venue:" under "offsite date") is
        another topic: None, and the message is proposed as if top-level. A clause without a
        sign of a result (a label, a revision cue, procedural words, a named choice) is
        skipped. Otherwise a value of the kind a thread state holds revises (or restates)
        it; a value of another kind opens a state under the thread's topic, not the label's.
        """
        if not states:
            return None
        families = {st.value_family for st in states}
        for clause in parts:
            primary = primary_slot(clause.slots)
            if primary is None or is_year(primary):
                continue
            value = primary if primary.kind is SlotKind.NAME else next(
                (s for s in clause.slots if s.family in families and not is_year(s)), primary)
            label = self._label(parts, clause)
            procedural = bool(label) and is_procedural(label)
            subject = _subject_terms(clause, value, "" if procedural else label)
            about = [st for st in states
                     if overlap(subject, set(content_terms(st.topic))) >= 0.5]
            if subject and not about:
                return None
            if not (label or clause.cue or _announces(clause, value)
                    or value.kind is SlotKind.NAME):
                continue
            candidates = about or states
            same_kind = next((st for st in candidates
                              if st.value and st.value_family == value.family), None)
            if same_kind is not None:
                verdict = (Verdict.RESTATE if _same_value(value.text, same_kind.value)
                           else Verdict.REVISE)
                return {"verdict": verdict, "topic": same_kind.topic,
                        "prior_state_id": same_kind.state_id, "source_quote": value.text}
            return {"verdict": Verdict.ESTABLISH, "topic": candidates[0].topic,
                    "source_quote": value.text}
        return None

    def _context_nodes(self, item: WriteItem) -> list[EvidenceNode]:
        out = [item.parent] if item.parent is not None else []
        cutoff = item.message.ts.timestamp() - _WINDOW_S
        thread = item.message.thread_id
        same_thread = [n for n in item.recent if thread and (n.thread_id == thread
                                                              or n.message_id == thread)]
        others = [n for n in item.recent if n not in same_thread and n.ts.timestamp() >= cutoff]
        out.extend(reversed(same_thread[-3:] or others[-3:]))
        return out

    @staticmethod
    def _context_state(
        item: WriteItem, registry: RegistryTool, context_states: list[str]
    ) -> StateRecord | None:
        """The state a short agreement refers to: its parent's, else the newest in context."""
        for sid in context_states:
            rec = registry.get_state(item, sid)
            if rec is not None:
                return rec
        return None

    def _borrowed_topic(self, item: WriteItem) -> str:
        parent = item.parent
        if parent is not None:
            return parent.topic or derive_topic(parent.text, find_slots(parent.text))
        return ""


def _new_value(clause: _Clause, new: list[Slot]) -> Slot:
    """Which of several new values a clause moves to: after "to"/the cue, not "instead of"."""
    low = clause.text.lower()
    for marker in (" to ", " now ", " instead"):
        pos = low.rfind(marker)
        if pos != -1:
            after = [s for s in new if s.start - clause.start >= pos]
            before = [s for s in new if s.start - clause.start < pos]
            if marker == " instead" and before:
                return before[-1]
            if after:
                return after[0]
    return new[0]


def _is_reply(msg: Message) -> bool:
    return bool(msg.reply_to) or bool(msg.thread_id and msg.thread_id != msg.id)


def _names_other_value(text: str, state: StateRecord) -> bool:
    """Whether ``text`` gives ``state`` a value of its kind other than the current one."""
    return any(s.family == state.value_family and not _same_value(s.text, state.value)
               for s in find_slots(text) if not is_year(s))


def _subject_terms(clause: _Clause, value: Slot, label: str) -> set[str]:
    """What a value clause says it is about: its label and its words before the value,
    without slot, cue or procedural words."""
    slot_words = {t for s in clause.slots for t in tokens(s.text)}
    before = clause.text[: value.start - clause.start]
    words = [t for t in tokens(strip_urls(f"{label} {before}"))
             if t not in slot_words and not is_procedural_word(t)
             and stem(t) not in _CUE_WORDS and not re.fullmatch(r"[\d.:,%$-]+", t)]
    return {stem(t) for t in words}


def _announces(clause: _Clause, value: Slot) -> bool:
    """Whether procedural words lead up to the value ("poll's closed, X", "final: X")."""
    before = clause.text[: value.start - clause.start]
    return any(names_procedure(t) for t in tokens(before))


_STATED = re.compile(
    r"(?:\b(?:is|are|was|were|be|at|on|in|to|for|by|until|till|from|set|moved|stays?|goes|"
    r"it's|it is)|[:=])\s+(?:[\w'’-]+\s+)?$", re.IGNORECASE)


def _stated(clause: _Clause, value: Slot) -> bool:
    """Whether the clause states the value of something ("X is/at/on VALUE")."""
    if value.kind is SlotKind.NAME:
        return True
    before = clause.text[: value.start - clause.start]
    return bool(_STATED.search(before)) or bool(set(tokens(before)) & _STATE_NOUNS)


_STATE_NOUNS = {w for cue in STATE_NOUNS for w in tokens(cue)}


def _norm(value: str) -> str:
    return re.sub(r"[^a-z0-9]", "", value.lower())


def topic_terms(text: str, slots: Sequence[Slot]) -> set[str]:
    slot_words = {t for s in slots for t in tokens(s.text)}
    return {t for t in content_terms(strip_urls(text))
            if t not in slot_words and t not in _CUE_WORDS and not t.isdigit()}


def derive_topic(
    text: str, slots: Sequence[Slot], *, max_words: int = 4, label: str = "",
    value: Slot | None = None, offset: int = 0,
) -> str:
    """A short label: the clause's subject words before its value (or its first content
    words), after a short "Label:" if the message has one."""
    slot_words = {t for s in slots for t in tokens(s.text)}

    def words(part: str) -> list[str]:
        out: list[str] = []
        for t in tokens(strip_urls(part)):
            if (t in STOPWORDS or t in slot_words or stem(t) in _CUE_WORDS or len(t) < 3
                    or re.fullmatch(r"[\d.:,%$-]+", t) or t in out):
                continue
            out.append(t)
        return out

    head = words(label)[:2]
    if value is not None:
        before = words(text[: value.start - offset])
        body = before[-(max_words - len(head)):] if before else words(text)
    else:
        body = words(text)
    picked = list(dict.fromkeys(head + body))
    return " ".join(picked[:max_words])


def _first_clause(text: str) -> str:
    clause = re.split(r"(?<=[.!?;])\s|\n", text.strip(), maxsplit=1)[0]
    return shorten(clause, 120).rstrip("…")


def _same_value(a: str, b: str) -> bool:
    na = re.sub(r"[^a-z0-9]", "", a.lower())
    nb = re.sub(r"[^a-z0-9]", "", b.lower())
    return bool(na) and na == nb
