"""Context-resolved rewrites: what a message means, readable without its neighbours.

Search, reranking and presentation use the rewrite (paper A.1). It names the speaker and
channel, resolves relative dates against the message's own time, and spells out what a short
reply or a revision refers to. Every node whose text is borrowed is recorded, so forgetting
that node can rewrite its dependants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from memory.analysis.definitions import SpeechAct
from memory.analysis.message import MessageAnalyzer
from memory.analysis.message_patterns import ALTERNATIVES_ASKED
from memory.dates import resolved_dates
from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.registry import StateRecord
from memory.text import content_terms, is_agreement, overlap, shorten, tokens

_SHORT = 8


@dataclass
class Rewrite:
    text: str
    context_ids: list[str] = field(default_factory=list)
    # The previous turn this one most likely answers, kept apart from ``text``: it helps
    # find the message (vector, BM25) but its words are not the message's own, so phrase
    # lookup, term features and presentation never see it.
    context: str = ""

    @property
    def searchable(self) -> str:
        return f"{self.text} {self.context}" if self.context else self.text


def date_notes(text: str, message: Message) -> list[str]:
    """``"<expression> = <ISO date or range>"`` for each date the message names."""
    return [f"{expr} = {res.iso()}" for expr, res in resolved_dates(text, message.ts)]


# An earlier message counts as implicit context only this soon before (conversation turns).
IMPLICIT_CONTEXT_GAP_S = 30 * 60
# At most 300 characters of a question: an unbounded run tried at every position of a long
# text without "?" would read the rest of the sentence each time (quadratic).
_QUESTION = re.compile(r"[^.!?\n]{0,300}\?")


def implicit_context(message: Message, previous: EvidenceNode | None) -> EvidenceNode | None:
    """The message a turn without an explicit parent most likely answers: the one just
    before it in the same channel and thread, by someone else, within a short gap."""
    if previous is None or previous.speaker_id == message.user:
        return None
    if previous.thread_id != message.thread_id:
        return None
    gap = (message.ts - previous.ts).total_seconds()
    return previous if 0 <= gap <= IMPLICIT_CONTEXT_GAP_S else None


def answered_turn(message: Message, turns: Sequence[EvidenceNode], *,
                  analyzer: MessageAnalyzer, people: Sequence[str] = (),
                  fallback: bool = True) -> EvidenceNode | None:
    """The earlier turn ``message`` answers in chat without threads.

    Candidates are the turns by others since the speaker's own last turn in the same thread
    (or top level), at most :attr:`Weights.link_turns` back and :attr:`Weights.link_gap_s`
    old. A question or proposal scores most, more when the message gives the kind of value
    it asks for ("who's got it?" → "me"), shares its words or names its speaker; one further
    back than the last turn needs one of those, and each turn in between costs a factor
    :attr:`Weights.link_decay`. Without a good enough question or
    proposal, the turn just before (by someone else) is the context, as in a dialogue
    (unless ``fallback`` is False: a reply with a parent has its context already)."""
    w = analyzer.lexicon.weights
    same = [t for t in turns if t.thread_id == message.thread_id]
    candidates: list[EvidenceNode] = []
    for t in reversed(same[-w.link_turns:]):
        if t.speaker_id == message.user:
            if _own_poll(t, message) and (message.ts - t.ts).total_seconds() <= w.link_gap_s:
                candidates.append(t)  # "black or purple?" … votes … "purple it is"
            break
        gap = (message.ts - t.ts).total_seconds()
        if gap < 0 or gap > w.link_gap_s:
            break
        candidates.append(t)
    if not candidates:
        return None
    a = analyzer.analyze(message.text, speaker=message.speaker, people=people)
    families = {v.family for v in a.values}
    said = set(content_terms(message.text))
    mentioned = {tok.lower() for tok in tokens(message.text)}
    best: tuple[float, EvidenceNode] | None = None
    between = 0  # substantive turns passed ("+1", "lol nice" do not count)
    for distance, t in enumerate(candidates):
        ta = analyzer.analyze(t.text, speaker=t.speaker, people=people)
        aside = ta.noise or ta.system or (len(t.text.split()) <= 4 and not ta.values)
        if ta.noise or ta.system:
            continue
        score = 0.0
        if ta.act is SpeechAct.PROPOSAL:
            score += w.link_proposal
        elif ta.question:
            score += w.link_question
        if score == 0.0:
            between += not aside
            continue
        # a value of the kind asked or suggested; a bare "yes" only to the last real turn
        kind = bool(families & ta.asks) or (ta.act is SpeechAct.PROPOSAL and (
            bool(families & {v.family for v in ta.values}) or (a.agrees and not between)))
        shared = overlap(said, set(content_terms(t.text)))
        first = t.speaker.split()[0].lower() if t.speaker else ""
        named = bool(first) and first in mentioned
        if distance and not (kind or named or shared >= 0.5):
            continue  # further back than the last turn only with evidence it is answered
        score += w.link_kind * kind + w.link_lexical * shared + w.link_mention * named
        score *= w.link_decay ** distance
        if score >= w.link_min and (best is None or score > best[0]):
            best = (score, t)
    if best is not None:
        return best[1]
    return implicit_context(message, candidates[0]) if fallback else None


# The longest message that settles the speaker's own poll ("purple it is then").
_SETTLING_WORDS = 8


def _own_poll(turn: EvidenceNode, message: Message) -> bool:
    """Whether ``message`` settles a question its speaker asked in ``turn``: a short
    message naming one of the question's words ("black or purple?" → "purple it is")."""
    return (ALTERNATIVES_ASKED.search(turn.text) is not None
            and len(message.text.split()) <= _SETTLING_WORDS
            and bool(set(content_terms(message.text)) & set(content_terms(turn.text))))


def context_quote(text: str, limit: int = 140) -> str:
    """What a reply needs of the message it answers: its questions, else its start."""
    questions = [q.strip() for q in _QUESTION.findall(text) if q.strip()]
    if questions:
        return shorten(" ".join(questions[-2:]), limit)
    return shorten(text, limit)


def pre_rewrite(
    message: Message, parent: EvidenceNode | None, *, previous: EvidenceNode | None = None,
    linked: EvidenceNode | None = None,
) -> Rewrite:
    """The rewrite before a proposal exists: used for the message's vector.

    ``parent`` is the explicit reply parent (quoted for short replies and agreements);
    ``previous`` is the message just before this one in its channel and thread. When there
    is no explicit parent, the turn the message answers — ``linked`` (see
    :func:`answered_turn`), else a previous turn by someone else within
    :data:`IMPLICIT_CONTEXT_GAP_S` — becomes the rewrite's ``context``,
    ``(after <speaker>: "...")`` — in a conversation a turn usually answers the one before
    it ("It's a mix of drama and romance!" answers "What genre is it?").
    """
    where = f" in #{message.channel_name}" if message.channel_name else ""
    parts = [f"{message.speaker}{where}: {message.text.strip()}"]
    ctx: list[str] = []
    context = ""
    if parent is not None and (len(tokens(message.text)) <= _SHORT or is_agreement(message.text)):
        parts.append(f'(replying to {parent.speaker}: "{shorten(parent.text, 140)}")')
        ctx.append(parent.node_id)
    before = linked if linked is not None and linked is not parent else (
        implicit_context(message, previous) if parent is None else None)
    if before is not None and (parent is None or before.message_id != parent.message_id):
        # The turn it answers (a question or proposal a few messages up, in a thread
        # or not): found with the message, and where a value it takes over is grounded.
        context = f'(after {before.speaker}: "{context_quote(before.text)}")'
        ctx.append(before.node_id)
    notes = date_notes(message.text, message)
    if notes:
        parts.append("[" + "; ".join(notes) + "]")
    return Rewrite(" ".join(parts), ctx, context)


def revision_marker(topic: str, old: str, new: str) -> str:
    """What a rewrite says of a revision: " [revises <topic>: <old> → <new>]"."""
    return f" [revises {topic}: {old} → {new}]"


def revised_from(text: str) -> str | None:
    """The old value a rewrite's revision marker names (see :func:`revision_marker`)."""
    m = _REVISED_FROM.search(text)
    return m.group(1) if m is not None else None


_REVISED_FROM = re.compile(r"\[revises [^:\]]{1,80}: ([^→\]]{1,80}) → ")


def final_rewrite(
    base: Rewrite,
    proposal: Proposal,
    *,
    prior: StateRecord | None,
    llm_rewrite: str = "",
) -> Rewrite:
    """Add the verified state relation to the base rewrite (and the LLM's own, if any)."""
    text = base.text
    ctx = list(base.context_ids)
    context = base.context
    if llm_rewrite and llm_rewrite.strip() and llm_rewrite.strip() not in text:
        text = f"{text} — {shorten(llm_rewrite, 300)}"
    if proposal.verdict is Verdict.REVISE and prior is not None:
        text += revision_marker(prior.topic, prior.value, proposal.source_quote)
        ctx.append(prior.active_node_id)
    elif proposal.verdict is Verdict.RESTATE and prior is not None:
        if proposal.reason and not proposal.source_quote:
            text += f" [why {prior.topic} changed]"
        else:
            text += f" [confirms {prior.topic}: {prior.value}]"
        ctx.append(prior.active_node_id)
    elif proposal.verdict is Verdict.ESTABLISH and proposal.source_quote:
        text += f" [{proposal.topic}: {proposal.source_quote}]"
    for facet in proposal.facets:
        if not facet.source_quote:
            continue
        if facet.prior_state_id:
            # The state it revises lists this node among its members (memory.facets).
            text += f" [revises {facet.topic}: → {facet.source_quote}]"
            ctx.append(facet.prior_state_id)
        else:
            text += f" [{facet.topic}: {facet.source_quote}]"
    return Rewrite(text, list(dict.fromkeys(ctx)), context)
