"""The parts the write path and its repairs share: a channel's recent turns, the analysis
view of a node, a batch's embeddings computed ahead, and the rules that keep an edited
message's audit record and facets to what it still says."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import overload

import numpy as np

from memory.analysis.matching import measure, same_measure, values_match
from memory.analysis.values import Value
from memory.budget import analysis_text
from memory.embeddings import Embedder
from memory.models import EvidenceNode, Facet, Message, Proposal
from memory.proposer import WriteItem, derive_topic
from memory.rewrite import Rewrite
from memory.text import find_slots, tokens

# The most recent turns a proposal reads of its channel (and of each thread).
RECENT = 12


def whole(base: Rewrite, view: Message, message: Message) -> Rewrite:
    """``base`` (made from the analysis view of ``message``) quoting the whole message:
    what is read back and answered from is the message itself, not the part analysed."""
    if view.text == message.text:
        return base
    cut = view.text.strip()
    return Rewrite(base.text.replace(cut, message.text.strip(), 1) if cut else base.text,
                   base.context_ids, base.context)


class Recent:
    """A channel's latest turns, in time order (then commit order), at most ``RECENT``;
    ``cutoff`` is the earliest time the store was read from."""

    def __init__(self, cutoff: datetime, nodes: Sequence[EvidenceNode]) -> None:
        self.cutoff = cutoff
        self.nodes = sorted(nodes, key=turn_order)[-RECENT:]

    def add(self, node: EvidenceNode) -> None:
        self.nodes = sorted([*(n for n in self.nodes if n.node_id != node.node_id), node],
                            key=turn_order)[-RECENT:]

    def drop(self, ids: Iterable[str]) -> None:
        gone = set(ids)
        self.nodes = [n for n in self.nodes if n.node_id not in gone]

    def forget_before(self, cutoff: datetime) -> None:
        self.nodes = [n for n in self.nodes if n.ts >= cutoff]


def turn_order(n: EvidenceNode) -> tuple[datetime, int]:
    return (n.ts, n.seq)


@overload
def view(node: EvidenceNode) -> EvidenceNode: ...


@overload
def view(node: None) -> None: ...


def view(node: EvidenceNode | None) -> EvidenceNode | None:
    """``node`` as the write path analyses it: its text cut to the analysis budget."""
    if node is None:
        return None
    text = analysis_text(node.text)
    return node if text is node.text else node.model_copy(update={"text": text})


class EmbedAhead:
    """A batch's texts embedded in order by a background thread, a chunk at a time, so
    proposing the first items overlaps embedding the rest (onnxruntime and HTTP clients
    release the GIL; on 2 cores this hides most of the writer's Python time). A batch that
    fits one chunk is embedded inline. ``fill`` hands vectors out as the proposer reaches
    them; an embedding error surfaces there, inside the writer's failure handling."""

    FIRST = 64
    CHUNK = 256

    def __init__(self, pool: ThreadPoolExecutor, embedder: Embedder,
                 texts: Sequence[str]) -> None:
        self._bounds = [0, min(len(texts), self.FIRST)]
        while self._bounds[-1] < len(texts):
            self._bounds.append(min(len(texts), self._bounds[-1] + self.CHUNK))
        self._inline: np.ndarray | None = None
        self._futures: list[Future[np.ndarray]] = []
        if len(texts) <= self.FIRST:
            self._inline = embedder.embed_batch(texts)
        else:
            self._futures = [pool.submit(embedder.embed_batch, texts[a:b])
                             for a, b in zip(self._bounds, self._bounds[1:], strict=False)]
        self._next = 0
        self._filled = 0

    def fill(self, items: Sequence[WriteItem], upto: int) -> None:
        """Set ``vector`` on ``items[:upto]`` (waiting for their chunks)."""
        while self._filled < upto:
            i = self._next
            vecs = self._inline if self._inline is not None else self._futures[i].result()
            start = self._bounds[i]
            for j, vec in enumerate(vecs):
                items[start + j].vector = vec
            self._filled = start + len(vecs)
            self._next += 1

    def cancel(self) -> None:
        for f in self._futures:
            f.cancel()


def align(chunk: Sequence[WriteItem], proposals: Sequence[Proposal]) -> list[Proposal]:
    """One proposal per item whatever the proposer returned (missing → context)."""
    by_id = {p.message_id: p for p in proposals}
    return [by_id.get(i.message.id) or Proposal(message_id=i.message.id, proposer="missing")
            for i in chunk]


# A quoted fragment in an audit reason ("value quote '4 pm' is not grounded"): reasons are
# short, and the fragment is bounded, so the pattern is linear.
_QUOTED = re.compile(r"'([^'\n]{1,300})'|\"([^\"\n]{1,300})\"")
# Quoted ids (states, nodes, messages) are not anyone's words.
_ID = re.compile(r"[sn]_[0-9a-f]{1,64}|msg:[^\s]{1,100}|[\d.]{1,40}")


def own_reasons(reasons: Sequence[str], text: str) -> list[str]:
    """``reasons`` without those quoting words the message itself does not say: they
    quoted a message that was since edited or forgotten."""
    low = text.lower()
    kept: list[str] = []
    for reason in reasons:
        quoted = [q for a, b in _QUOTED.findall(reason)
                  if not _ID.fullmatch(q := a or b)]
        if all(q.lower() in low for q in quoted):
            kept.append(reason)
        elif not kept or not kept[-1].startswith("(a reason"):
            kept.append("(a reason quoting edited or forgotten text was removed)")
    return kept


def says(text: str, phrase: str) -> bool:
    """Whether every word of ``phrase`` is in ``text`` (stricter than ``grounded``, which
    tolerates a missing word: after an edit, that word may be the one taken out)."""
    words = tokens(phrase)
    have = set(tokens(text))
    return bool(words) and all(w in have for w in words)


def still_holds(text: str, value: str, replaced: Sequence[str], *,
                found: Sequence[Value] = (), family: str | None = None) -> bool:
    """Whether an edited ``text`` still states ``value``: every word said, not named as
    what the new value replaces ("goes to $135 (not 153, fat fingers)" no longer holds
    "$153"), and not only mentioned beside a value of its kind the text does state ("going
    up to $750 (was going to be $600 …)" no longer holds "$600")."""
    if not says(text, value) or any(values_match(r, value) for r in replaced):
        return False
    kin = [v for v in found if family is not None and v.family == family]
    return not kin or any(values_match(v.text, value) for v in kin)


def replacement_of(value: str, family: str | None, found: Sequence[Value], *,
                   replaced: Sequence[str] = (), taken: Iterable[str] = ()) -> Value | None:
    """The value of an edited text that takes ``value``'s place: of its family, not named as
    replaced, and of its measure when one has it ("$153" edited gives "$135", not "20%")."""
    pool = [v for v in found if v.family == family and v.text not in taken
            and not any(values_match(r, v.text) for r in replaced)]
    # the one sharing most of the old value's words first ("Saturday June 6, 10am–4pm"
    # edited is "Saturday June 6, 10am–3pm", not the "tonight" said before it)
    said = set(tokens(value))
    pool.sort(key=lambda v: -len(said & set(tokens(v.text))))
    own = measure(value)
    return next((v for v in pool if own and measure(v.text) == own), None) or next(
        (v for v in pool if same_measure(v.text, value)), None)


def reground(facet: Facet, text: str, found: Sequence[Value], *, taken: set[str],
             replaced: Sequence[str] = ()) -> Facet:
    """``facet`` as the edited ``text`` still supports it: its value if still held (see
    :func:`still_holds`), else the new value of the same kind, else no root; an opened
    state's topic only if the text still names it (a revised state's topic is its
    chain's)."""
    if not still_holds(text, facet.source_quote, replaced, found=found,
                       family=facet.value_family):
        new = replacement_of(facet.source_quote, facet.value_family, found,
                             replaced=replaced, taken=taken)
        if new is None:
            return facet.model_copy(update={"source_quote": "", "topic": ""})
        taken.add(new.text)
        facet = facet.model_copy(update={"source_quote": new.text})
    if facet.prior_state_id is None and facet.topic and not says(text, facet.topic):
        slots = find_slots(text)
        at = next((s for s in slots if s.text == facet.source_quote), None)
        facet = facet.model_copy(update={"topic": derive_topic(text, slots, value=at)})
    return facet


def placeholder(m: Message) -> EvidenceNode:
    return EvidenceNode(
        node_id=m.key.node_id(), platform=m.platform, space=m.space, channel=m.channel,
        message_id=m.id, speaker_id=m.user, speaker=m.speaker, ts=m.ts, text=m.text,
        thread_id=m.thread_id,
    )


def vector_of(item: WriteItem) -> np.ndarray:
    if item.vector is None:
        raise ValueError(f"message {item.message.id} was not embedded")
    return item.vector
