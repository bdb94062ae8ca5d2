"""The write path: analyze → match → propose → verify → commit.

Messages of one channel are handled in timestamp order. A batch is committed as one upsert of
nodes (idempotent by node id), then the registry, then a watermark; on open, states behind the
watermark are re-derived from the nodes (:meth:`Writer.recover`), so a crash between the
writes loses nothing. Edits, forgets and recovery live in ``memory.repair``.
"""

from __future__ import annotations

import logging
from collections import defaultdict, deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta

import numpy as np

from memory.analysis.message import MessageAnalyzer
from memory.budget import analysis_text, analysis_view
from memory.embeddings import Embedder
from memory.facets import facet_state_id, node_state_ids
from memory.faults import FaultPoints
from memory.models import (
    EvidenceNode,
    Message,
    Proposal,
    Scope,
    Verdict,
    Verification,
)
from memory.proposer import Proposer, WriteItem
from memory.registry import ChannelKey, Registry, StateRecord, describe, state_id_for
from memory.registry_search import RegistrySearch
from memory.repair import WATERMARK, Repair
from memory.rewrite import Rewrite, answered_turn, final_rewrite, pre_rewrite
from memory.store import Window
from memory.store.ports import Store
from memory.store.rows import to_epoch
from memory.text import family_of
from memory.verify import Verifier, VerifyContext
from memory.write_support import (
    RECENT,
    EmbedAhead,
    Recent,
    align,
    placeholder,
    vector_of,
    view,
    whole,
)

logger = logging.getLogger(__name__)


@dataclass
class WriteReport:
    committed: int = 0
    skipped: int = 0
    # Messages refused at commit because they were deleted or forgotten.
    refused: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    downgraded: int = 0


@dataclass
class _Batch:
    """One channel's messages on their way through the write path."""

    full: dict[str, Message]
    items: list[WriteItem] = field(default_factory=list)
    bases: list[Rewrite] = field(default_factory=list)
    # Each message's node so far, by message id: a placeholder until it is committed.
    nodes: dict[str, EvidenceNode] = field(default_factory=dict)
    committed: list[EvidenceNode] = field(default_factory=list)
    # States established in this batch, by the message that established them.
    states: dict[str, str] = field(default_factory=dict)


class Writer:
    """Commits messages as evidence nodes and keeps the registry in step. ``registry`` is
    the state registry it commits to; ``lookup`` is what its proposer reads of it. Nothing
    is read or repaired at construction: the writing process calls :meth:`recover`."""

    def __init__(
        self,
        *,
        store: Store,
        embedder: Embedder,
        proposer: Proposer,
        registry: Registry,
        lookup: RegistrySearch,
        verification: bool = True,
        faults: FaultPoints | None = None,
        analyzer: MessageAnalyzer | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.proposer = proposer
        self.verification = verification
        self.faults = faults or FaultPoints()
        self.analyzer = analyzer or MessageAnalyzer()
        self.verifier = Verifier(analyzer=self.analyzer)
        self.registry = registry
        self.lookup = lookup
        self._recent: dict[ChannelKey, Recent] = {}
        self.repair = Repair(store=store, registry=registry, embedder=embedder,
                             analyzer=self.analyzer, faults=self.faults, recent=self._recent)
        # One background thread embeds a batch ahead of the proposer (see EmbedAhead).
        self._embedding: ThreadPoolExecutor | None = None

    # ---- repairs (memory.repair) --------------------------------------------------------
    def recover(self) -> int:
        """Finish what an interrupted commit, forget or edit left (the writing process, once
        at open); returns how many states were re-derived."""
        return self.repair.recover()

    def edit(self, *, platform: str, space: str, channel: str, message_id: str,
             text: str) -> bool:
        """Re-verify a committed message against its new text (see :meth:`Repair.edit`)."""
        return self.repair.edit(platform=platform, space=space, channel=channel,
                                message_id=message_id, text=text)

    def forget(self, node_ids: Sequence[str]) -> int:
        """Remove nodes from every table and index (see :meth:`Repair.forget`)."""
        return self.repair.forget(node_ids)

    # ---- writing ------------------------------------------------------------------------
    def write(self, messages: Sequence[Message]) -> WriteReport:
        """Commit messages (any channels); each channel's messages in timestamp order."""
        report = WriteReport()
        by_channel: dict[ChannelKey, list[Message]] = defaultdict(list)
        for m in messages:
            by_channel[(m.platform, m.space, m.channel)].append(m)
        for key, msgs in by_channel.items():
            msgs.sort(key=lambda m: (m.ts, m.id))
            self._write_channel(key, msgs, report)
        return report

    def _write_channel(self, key: ChannelKey, msgs: list[Message], report: WriteReport) -> None:
        todo = self._new_messages(msgs, report)
        if not todo:
            return
        recent = self._recent_nodes(key, todo[0])
        batch = self._analyze(todo, recent)
        ahead = EmbedAhead(self._embed_pool(), self.embedder,
                           [b.searchable for b in batch.bases])
        try:
            self._propose_and_verify(batch, recent, ahead, report)
            self._commit(batch)
        except BaseException:
            ahead.cancel()
            self.registry.discard_cache()
            self._recent.pop(key, None)
            raise
        report.committed += len(batch.committed)

    def _new_messages(self, msgs: list[Message], report: WriteReport) -> list[Message]:
        """``msgs`` less those already committed (replays) and those deleted or forgotten."""
        ids = [m.key.node_id() for m in msgs]
        done = self.store.existing_ids(ids)
        todo = [m for m in msgs if m.key.node_id() not in done]
        report.skipped += len(msgs) - len(todo)
        if todo:
            # Checked again at commit: a delete may have landed since the submit, or come
            # through another worker's inbox.
            gone = self.store.buried([m.key for m in todo])
            report.refused += len(gone)
            todo = [m for m in todo if m.key not in gone]
        return todo

    def _analyze(self, todo: list[Message], recent: Recent) -> _Batch:
        """Each message's parent, the turn it answers and its pre-rewrite: what the proposer
        and the verifier read of it. What is analysed is the analysis budget's view of each
        message (and of every node it is read with); the node keeps, and the index
        searches, the whole text."""
        batch = _Batch(full={m.key.node_id(): m for m in todo})
        # The last turns of each thread (None: the channel's top level) before each message.
        turns: dict[str | None, deque[EvidenceNode]] = defaultdict(lambda: deque(maxlen=RECENT))
        for n in recent.nodes:
            turns[n.thread_id].append(n)
        for m in todo:
            seen = analysis_view(m)
            parent = view(self._parent(m, batch.nodes))
            before = turns[m.thread_id]
            linked = answered_turn(seen, list(before), analyzer=self.analyzer,
                                   people=[t.speaker for t in before],
                                   fallback=parent is None)
            last = before[-1] if before else None
            batch.bases.append(whole(pre_rewrite(seen, parent, previous=last, linked=linked),
                                     seen, m))
            batch.items.append(WriteItem(message=seen, node_id=m.key.node_id(),
                                         parent=parent, linked=linked))
            batch.nodes[m.id] = placeholder(seen)
            before.append(batch.nodes[m.id])
        return batch

    def _propose_and_verify(self, batch: _Batch, recent: Recent, ahead: EmbedAhead,
                            report: WriteReport) -> None:
        """Proposals chunk by chunk (each item seeing the batch's committed turns before
        it), each verified and turned into a node and a registry change."""
        items = batch.items
        size = max(1, self.proposer.batch_size)
        for start in range(0, len(items), size):
            chunk = items[start : start + size]
            ahead.fill(items, start + len(chunk))
            for item in chunk:
                item.recent = list(recent.nodes)
                if item.parent is not None and item.parent.message_id in batch.nodes:
                    item.parent = batch.nodes[item.parent.message_id]
                if item.linked is not None and item.linked.message_id in batch.nodes:
                    item.linked = batch.nodes[item.linked.message_id]
            proposals = self.proposer.propose(chunk, self.lookup)
            for item, base, proposal in zip(
                chunk, batch.bases[start : start + size], align(chunk, proposals), strict=True
            ):
                node = self._commit_one(item, base, proposal, batch.states, report,
                                        full=batch.full[item.node_id])
                batch.nodes[item.message.id] = view(node)
                batch.committed.append(node)
                recent.add(view(node))

    def _commit(self, batch: _Batch) -> None:
        """Nodes, then the registry, then the watermark (see the module docstring)."""
        self.faults.reach("proposed")
        self.store.put_nodes(batch.committed, np.stack([vector_of(i) for i in batch.items]),
                             fresh=True)
        self.faults.reach("nodes_written")
        self.registry.flush()
        self.faults.reach("registry_flushed")
        self.store.meta.set(WATERMARK, str(max(n.seq for n in batch.committed)))

    def _embed_pool(self) -> ThreadPoolExecutor:
        if self._embedding is None:
            self._embedding = ThreadPoolExecutor(max_workers=1,
                                                 thread_name_prefix="egmem-embed")
        return self._embedding

    def _commit_one(
        self,
        item: WriteItem,
        base: Rewrite,
        proposal: Proposal,
        batch_states: dict[str, str],
        report: WriteReport,
        *,
        full: Message,
    ) -> EvidenceNode:
        msg = item.message
        key = (msg.platform, msg.space, msg.channel)
        if proposal.prior_state_id and proposal.prior_state_id.startswith("msg:"):
            ref = batch_states.get(proposal.prior_state_id[4:])
            proposal = proposal.model_copy(update={"prior_state_id": ref})
        # What the proposal says the message answers (its parent, or the question or
        # proposal it follows); a value it takes over must be grounded there.
        # (or the earlier turn that put forward the option it takes up).
        anchor = next((n for n in (item.linked, item.parent, *reversed(item.recent))
                       if n is not None and n.message_id == proposal.answers),
                      item.parent or item.linked)
        context = VerifyContext(
            text=anchor.text if anchor is not None else "",
            asked=anchor.context if anchor is not None and proposal.answers
            and proposal.answers == anchor.message_id else "",
            state_ids=frozenset(sid for n in (item.parent, item.linked) if n is not None
                                for sid in node_state_ids(n)),
            latest=self._latest_of_family(key, proposal, msg.ts.timestamp()),
        )
        final, verification, prior = self.verifier.verify(
            proposal, msg, lambda sid: self.registry.get(key, sid), enabled=self.verification,
            context=context,
        )
        rewrite = final_rewrite(
            base, final, prior=prior, llm_rewrite=proposal.rewrite if proposal.proposer != "offline"
            else "",
        )
        node = self._node(item, final, verification, rewrite, prior, full=full)
        self._apply(node, final, prior, item.vector)
        if node.state_id and final.verdict is Verdict.ESTABLISH:
            batch_states[msg.id] = node.state_id
        report.verdicts[final.verdict.value] += 1
        if verification.outcome.value == "downgraded":
            report.downgraded += 1
        return node

    def _node(
        self,
        item: WriteItem,
        proposal: Proposal,
        verification: Verification,
        rewrite: Rewrite,
        prior: StateRecord | None,
        *,
        full: Message,
    ) -> EvidenceNode:
        m = full
        state_id: str | None = None
        supersedes: str | None = None
        value = ""
        topic = proposal.topic
        if proposal.verdict is Verdict.ESTABLISH:
            state_id = state_id_for(item.node_id)
            value = proposal.source_quote
        elif prior is not None:
            state_id = prior.state_id
            topic = prior.topic
            if proposal.verdict is Verdict.REVISE:
                supersedes = prior.active_node_id
                value = proposal.source_quote
            else:
                value = prior.value
        return EvidenceNode(
            node_id=item.node_id, seq=self.store.next_seq(), platform=m.platform,
            space=m.space, channel=m.channel, channel_name=m.channel_name or "",
            message_id=m.id, thread_id=m.thread_id, reply_to=m.reply_to or (
                m.thread_id if m.thread_id and m.thread_id != m.id else None),
            reply_to_node=item.parent.node_id if item.parent else None,
            speaker_id=m.user, speaker=m.speaker, ts=m.ts, text=m.text,
            rewrite=rewrite.text, context=rewrite.context, permalink=m.permalink, topic=topic,
            state_id=state_id,
            verdict=proposal.verdict, value=value, supersedes=supersedes, edited=m.edited,
            context_ids=rewrite.context_ids, proposal=proposal, verification=verification,
        )

    def _latest_of_family(self, key: ChannelKey, proposal: Proposal,
                          now: float) -> frozenset[str]:
        """The channel's most recently updated state of the proposal's kind of value, if it
        was touched in the last days: "actually we're calling it 2.4" is about it."""
        if proposal.verdict is not Verdict.REVISE or not proposal.value_family:
            return frozenset()
        same = [r for r in self.registry.states(key)
                if r.value_family == proposal.value_family and now - r.updated_ts <= 3 * 86400]
        if not same:
            return frozenset()
        return frozenset({max(same, key=lambda r: r.updated_ts).state_id})

    def _apply(
        self, node: EvidenceNode, proposal: Proposal, prior: StateRecord | None,
        vector: np.ndarray | None,
    ) -> None:
        """Registry side of commit: establish a state, or move an existing one's value."""
        vec = vector if vector is not None else np.zeros(self.store.dim, dtype=np.float32)
        ts = to_epoch(node.ts)
        if proposal.verdict is Verdict.ESTABLISH and node.state_id:
            self.registry.put(StateRecord(
                state_id=node.state_id, platform=node.platform, space=node.space,
                channel=node.channel, topic=node.topic,
                description=describe(node.topic, node.value, node.passage), value=node.value,
                value_family=proposal.value_family
                or family_of(node.value, analysis_text(node.text)),
                active_node_id=node.node_id, revision_count=0, created_ts=ts, updated_ts=ts,
                vector=vec,
            ))
        elif proposal.verdict is Verdict.REVISE and prior is not None:
            prior.value = node.value
            prior.active_node_id = node.node_id
            prior.revision_count += 1
            prior.updated_ts = ts
            prior.description = describe(prior.topic, node.value, node.passage)
            prior.vector = vec
            self.registry.put(prior)
        elif proposal.verdict is Verdict.RESTATE and prior is not None:
            prior.updated_ts = max(prior.updated_ts, ts)
            self.registry.put(prior)
        for k, facet in enumerate(proposal.facets, start=1):
            if facet.prior_state_id:
                # A further state this message revises (verified against the registry).
                rec = self.registry.get((node.platform, node.space, node.channel),
                                        facet.prior_state_id)
                if rec is not None:
                    rec.value = facet.source_quote
                    rec.active_node_id = node.node_id
                    rec.revision_count += 1
                    rec.updated_ts = ts
                    rec.description = describe(rec.topic, facet.source_quote, node.passage)
                    rec.vector = vec
                    self.registry.put(rec)
                continue
            # A further state this message opens: its chain starts at this node.
            self.registry.put(StateRecord(
                state_id=facet_state_id(node.node_id, k), platform=node.platform,
                space=node.space, channel=node.channel, topic=facet.topic,
                description=describe(facet.topic, facet.source_quote, node.passage),
                value=facet.source_quote, value_family=facet.value_family,
                active_node_id=node.node_id, revision_count=0, created_ts=ts, updated_ts=ts,
                vector=vec,
            ))

    # ---- context ------------------------------------------------------------------------
    def _recent_nodes(self, key: ChannelKey, first: Message) -> Recent:
        """The channel's latest turns (by time, then commit order) at most three days before
        ``first``: the same set whether they stayed cached since they were committed or are
        read back after a restart, so a resumed ingest proposes as an uninterrupted one."""
        cutoff = first.ts - timedelta(days=3)
        cached = self._recent.get(key)
        if cached is None or cached.cutoff > cutoff:
            platform, space, channel = key
            # Only ids and times are read for the whole window; the latest are sorted before
            # any is cut (a row limit would keep whichever rows the table returns first).
            marks = self.store.turn_marks(
                Scope(platform=platform, space=space, channels=(channel,)),
                Window(ts_from=cutoff))
            latest = sorted(marks, key=lambda r: (r[1], r[2]))[-RECENT:]
            nodes = [view(n) for n in self.store.get_nodes([r[0] for r in latest])]
            cached = self._recent[key] = Recent(cutoff, [n for n in nodes if n is not None])
        cached.forget_before(cutoff)
        return cached

    def _parent(self, m: Message, batch: dict[str, EvidenceNode]) -> EvidenceNode | None:
        ref = m.reply_to or (m.thread_id if m.thread_id and m.thread_id != m.id else None)
        if not ref:
            return None
        if ref in batch:
            return batch[ref]
        return self.store.find_message(
            channel=m.channel, message_id=ref, platform=m.platform, space=m.space
        )



def open_writer(*, store: Store, embedder: Embedder, proposer: Proposer,
                verification: bool = True, faults: FaultPoints | None = None,
                analyzer: MessageAnalyzer | None = None) -> Writer:
    """A writer over ``store`` with a registry of its own, recovered: for a process that
    writes ``store`` and builds nothing else around it (the evaluation harness, a tool)."""
    analyzer = analyzer or MessageAnalyzer()
    registry = Registry(store=store, weights=analyzer.lexicon.weights)
    writer = Writer(store=store, embedder=embedder, proposer=proposer, registry=registry,
                    lookup=RegistrySearch(registry, embedder), verification=verification,
                    faults=faults, analyzer=analyzer)
    writer.recover()
    return writer
