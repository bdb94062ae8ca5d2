"""Proposers: turn a message plus what the writer saw of memory into a Proposal.

Two proposers share the :class:`Proposer` protocol — the deterministic offline proposer here
and the LLM proposer in ``memory.llm.writer_agent`` — and both feed the same verify/commit.
A proposal never changes memory by itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.registry import RegistryHit
from memory.text import (
    CUE_ONLY,
    DECISION_CUES,
    REVISION_CUES,
    STOPWORDS,
    Slot,
    content_terms,
    find_slots,
    has_cue,
    is_agreement,
    is_noise,
    overlap,
    shorten,
    stem,
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


class OfflineProposer:
    """Deterministic proposer: cue words, value slots, registry similarity and reply context."""

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
        agreement = is_agreement(text)
        slots = [] if agreement else find_slots(text)
        families = {s.family for s in slots}
        own_terms = topic_terms(text, slots)
        context = " ".join(n.passage for n in self._context_nodes(item))
        query = text if len(own_terms) > _FOLLOW_UP_MAX_TERMS else f"{text} {context}"
        hits = registry.search_registry(item, query, k=5, families=families or None)

        if agreement:
            target = self._referent(item, hits)
            if target is not None:
                return base.model_copy(update={
                    "verdict": Verdict.RESTATE, "topic": target.state.topic,
                    "prior_state_id": target.state.state_id, "source_quote": "",
                })
            return base

        if slots:
            revision = self._revision(item, hits, slots, own_terms)
            if revision is not None:
                hit, slot = revision
                if _same_value(slot.text, hit.state.value):
                    return base.model_copy(update={
                        "verdict": Verdict.RESTATE, "topic": hit.state.topic,
                        "prior_state_id": hit.state.state_id, "source_quote": slot.text,
                    })
                return base.model_copy(update={
                    "verdict": Verdict.REVISE, "topic": hit.state.topic,
                    "prior_state_id": hit.state.state_id, "source_quote": slot.text,
                })
            topic = derive_topic(text, slots) or self._borrowed_topic(item)
            if topic:
                return base.model_copy(update={
                    "verdict": Verdict.ESTABLISH, "topic": topic,
                    "source_quote": _value_quote(slots),
                })
            return base

        if has_cue(text, DECISION_CUES) and len(own_terms) >= 2 and not text.rstrip().endswith("?"):
            topic = derive_topic(text, slots)
            return base.model_copy(update={
                "verdict": Verdict.ESTABLISH, "topic": topic,
                "source_quote": _first_clause(text),
            })
        return base

    def _context_nodes(self, item: WriteItem) -> list[EvidenceNode]:
        out = [item.parent] if item.parent is not None else []
        cutoff = item.message.ts.timestamp() - _WINDOW_S
        thread = item.message.thread_id
        same_thread = [n for n in item.recent if thread and (n.thread_id == thread
                                                              or n.message_id == thread)]
        others = [n for n in item.recent if n not in same_thread and n.ts.timestamp() >= cutoff]
        out.extend(same_thread[-3:] or others[-3:])
        return out

    def _referent(self, item: WriteItem, hits: list[RegistryHit]) -> RegistryHit | None:
        """The state a short agreement refers to: the parent's, else the newest in context."""
        context_states = [n.state_id for n in self._context_nodes(item) if n.state_id]
        for sid in context_states:
            for h in hits:
                if h.state.state_id == sid:
                    return h
        return None

    def _revision(
        self, item: WriteItem, hits: list[RegistryHit], slots: list[Slot], own_terms: set[str]
    ) -> tuple[RegistryHit, Slot] | None:
        text = item.message.text
        cue = has_cue(text, REVISION_CUES)
        context_states = {n.state_id for n in self._context_nodes(item) if n.state_id}
        for hit in hits:
            slot = next((s for s in slots if s.family == hit.state.value_family), None)
            if slot is None:
                continue
            topical = overlap(own_terms, hit.state.terms)
            in_context = hit.state.state_id in context_states
            follow_up = len(own_terms) <= _FOLLOW_UP_MAX_TERMS and in_context
            if cue and (topical >= 0.34 or in_context or follow_up):
                return hit, slot
            # Without a cue, only a restatement of the same topic in the same words counts;
            # sharing a topic alone never makes a revision.
            if topical >= 0.75 and len(own_terms & hit.state.terms) >= 2 and _same_value(
                slot.text, hit.state.value
            ):
                return hit, slot
        return None

    def _borrowed_topic(self, item: WriteItem) -> str:
        parent = item.parent
        if parent is not None:
            return parent.topic or derive_topic(parent.text, find_slots(parent.text))
        return ""


def topic_terms(text: str, slots: Sequence[Slot]) -> set[str]:
    slot_words = {t for s in slots for t in tokens(s.text)}
    return {t for t in content_terms(text) if t not in slot_words and t not in _CUE_WORDS
            and not t.isdigit()}


def derive_topic(text: str, slots: Sequence[Slot], *, max_words: int = 4) -> str:
    """A short label from the message's own content words, in their order of appearance."""
    slot_words = {t for s in slots for t in tokens(s.text)}
    words: list[str] = []
    for t in tokens(text):
        if (t in STOPWORDS or t in slot_words or stem(t) in _CUE_WORDS or len(t) < 3
                or t.isdigit() or re.fullmatch(r"[\d.:,%$-]+", t)):
            continue
        if t not in words:
            words.append(t)
        if len(words) == max_words:
            break
    return " ".join(words)


def _value_quote(slots: list[Slot]) -> str:
    return slots[0].text if slots else ""


def _first_clause(text: str) -> str:
    clause = re.split(r"(?<=[.!?;])\s|\n", text.strip(), maxsplit=1)[0]
    return shorten(clause, 120).rstrip("…")


def _same_value(a: str, b: str) -> bool:
    na = re.sub(r"[^a-z0-9]", "", a.lower())
    nb = re.sub(r"[^a-z0-9]", "", b.lower())
    return bool(na) and na == nb
