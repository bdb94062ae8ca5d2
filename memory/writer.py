"""The write path: propose → verify → commit, plus edits and forgetting.

Messages of one channel are handled in timestamp order. A batch is committed as one upsert of
nodes (idempotent by node id), then the registry, then a watermark; on open, states behind the
watermark are re-derived from the nodes, so a crash between the writes loses nothing.
"""

from __future__ import annotations

import json
import logging
import re
from collections import OrderedDict, defaultdict, deque
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import overload

import numpy as np

from memory.analysis.message import MessageAnalyzer
from memory.analysis.values import Value
from memory.budget import analysis_text, analysis_view
from memory.embeddings import Embedder
from memory.facets import facet_state_id, node_state_ids
from memory.faults import FaultPoints
from memory.models import (
    EvidenceNode,
    Facet,
    Message,
    MessageKey,
    Outcome,
    Proposal,
    Scope,
    Verdict,
    Verification,
)
from memory.proposer import Proposer, WriteItem, derive_topic
from memory.registry import (
    ChannelKey,
    Registry,
    RegistryHit,
    StateRecord,
    chain_of,
    describe,
    record_from_chain,
    state_id_for,
)
from memory.rewrite import (
    IMPLICIT_CONTEXT_GAP_S,
    Rewrite,
    answered_turn,
    final_rewrite,
    pre_rewrite,
)
from memory.store import MemoryStore, Window, scope_sql
from memory.store.rows import row_to_node, to_epoch
from memory.store.store import NODE_SEARCH_COLUMNS
from memory.store.tables import sql_in, sql_str
from memory.text import family_of, find_slots, tokens
from memory.verify import Verifier, VerifyContext

logger = logging.getLogger(__name__)

_RECENT = 12
_WATERMARK = "registry_seq"
_FORGETTING = "forget_pending"
_EDITING = "edit_pending"


@dataclass
class WriteReport:
    committed: int = 0
    skipped: int = 0
    # Messages refused at commit because they were deleted or forgotten.
    refused: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    downgraded: int = 0


class _Tool:
    """search_registry for one batch: the item's own channel, nothing else."""

    _PHRASES = 4096

    def __init__(self, registry: Registry, embedder: Embedder) -> None:
        self._registry = registry
        self._embedder = embedder
        # Subject phrases and topics recur message after message: embed each once.
        self._phrases: OrderedDict[str, np.ndarray] = OrderedDict()

    def similarity(self, phrase: str, topics: Sequence[str]) -> list[float]:
        """Cosine similarity of ``phrase`` to each of ``topics`` (embedded, cached)."""
        wanted = [t for t in dict.fromkeys([phrase, *topics]) if t not in self._phrases]
        if wanted:
            for text, vec in zip(wanted, self._embedder.embed_batch(wanted), strict=True):
                self._phrases[text] = np.asarray(vec, dtype=np.float32)
            while len(self._phrases) > self._PHRASES:
                self._phrases.popitem(last=False)
        q = self._phrases[phrase]
        return [float(q @ self._phrases[t]) if t in self._phrases else 0.0 for t in topics]

    def search_registry(
        self, item: WriteItem, query: str, *, k: int = 5, families: set[str] | None = None
    ) -> list[RegistryHit]:
        from memory.text import content_terms

        msg = item.message
        vector = item.vector
        if vector is None or query.strip() != msg.text.strip():
            vector = self._embedder.embed_batch([query])[0] if query.strip() else None
        return self._registry.search(
            (msg.platform, msg.space, msg.channel),
            terms=content_terms(query), vector=vector, k=k, families=families, text=query,
        )


    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        msg = item.message
        return self._registry.get((msg.platform, msg.space, msg.channel), state_id)


class Writer:
    def __init__(
        self,
        *,
        store: MemoryStore,
        embedder: Embedder,
        proposer: Proposer,
        verification: bool = True,
        recover: bool = True,
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
        self.registry = Registry(store=store, weights=self.analyzer.lexicon.weights)
        self._recent: dict[ChannelKey, _Recent] = {}
        self._tool = _Tool(self.registry, embedder)
        # One background thread embeds a batch ahead of the proposer (see _EmbedAhead).
        self._embedding: ThreadPoolExecutor | None = None
        if recover:  # a read-only opening must not write (the writing process recovers)
            self.recover()

    # ---- recovery -----------------------------------------------------------------------
    def recover(self) -> int:
        """Re-derive states touched by nodes committed after the last registry flush."""
        mark = int(self.store.tables.get_meta(_WATERMARK) or 0)
        rows = self.store.tables.query_nodes(f"seq > {mark}",
                                             columns=["node_id", "state_id", "proposal_json"])
        states = sorted({sid for r in rows for sid in _row_states(r)})
        if states:
            logger.info("re-deriving %d states after an interrupted commit", len(states))
            self._rederive(states)
            self.registry.flush()
        self.store.tables.set_meta(_WATERMARK, str(self.store.tables.max_seq()))
        pending = self.store.tables.get_meta(_FORGETTING)
        if pending:
            intent = json.loads(pending)
            logger.info("finishing an interrupted forget of %d nodes", len(intent["ids"]))
            self._finish_forget(list(intent["ids"]), list(intent["states"]))
        editing = self.store.tables.get_meta(_EDITING)
        if editing:
            intent = json.loads(editing)
            logger.info("finishing an interrupted edit")
            self._refresh(list(intent["ids"]), list(intent["states"]))
            self.store.tables.set_meta(_EDITING, "")
        return len(states)

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
        if not todo:
            return
        recent = self._recent_nodes(key, todo[0])
        batch_nodes: dict[str, EvidenceNode] = {}
        items: list[WriteItem] = []
        bases: list[Rewrite] = []
        # What is analysed is the analysis budget's view of each message (and of every node
        # it is read with); the node keeps, and the index searches, the whole text.
        full = {m.key.node_id(): m for m in todo}
        # The last turns of each thread (None: the channel's top level) before each message.
        turns: dict[str | None, deque[EvidenceNode]] = defaultdict(lambda: deque(maxlen=_RECENT))
        for n in recent.nodes:
            turns[n.thread_id].append(n)
        for m in todo:
            view = analysis_view(m)
            parent = _view(self._parent(m, batch_nodes))
            before = turns[m.thread_id]
            linked = answered_turn(view, list(before), analyzer=self.analyzer,
                                   people=[t.speaker for t in before],
                                   fallback=parent is None)
            bases.append(_whole(pre_rewrite(view, parent, previous=before[-1] if before else None,
                                            linked=linked), view, m))
            items.append(WriteItem(message=view, node_id=m.key.node_id(), parent=parent,
                                   linked=linked))
            batch_nodes[m.id] = _placeholder(view)
            before.append(batch_nodes[m.id])
        ahead = _EmbedAhead(self._embed_pool(), self.embedder, [b.searchable for b in bases])

        committed: list[EvidenceNode] = []
        batch_states: dict[str, str] = {}
        try:
            size = max(1, self.proposer.batch_size)
            for start in range(0, len(items), size):
                chunk = items[start : start + size]
                ahead.fill(items, start + len(chunk))
                for item in chunk:
                    item.recent = list(recent.nodes)
                    if item.parent is not None and item.parent.message_id in batch_nodes:
                        item.parent = batch_nodes[item.parent.message_id]
                    if item.linked is not None and item.linked.message_id in batch_nodes:
                        item.linked = batch_nodes[item.linked.message_id]
                proposals = self.proposer.propose(chunk, self._tool)
                for item, base, proposal in zip(
                    chunk, bases[start : start + size], _align(chunk, proposals), strict=True
                ):
                    node = self._commit_one(item, base, proposal, batch_states, report,
                                            full=full[item.node_id])
                    batch_nodes[item.message.id] = _view(node)
                    committed.append(node)
                    recent.add(_view(node))
            self.faults.reach("proposed")
            self.store.put_nodes(committed, np.stack([_vec(i) for i in items]), fresh=True)
            self.faults.reach("nodes_written")
            self.registry.flush()
            self.faults.reach("registry_flushed")
            self.store.tables.set_meta(_WATERMARK, str(max(n.seq for n in committed)))
        except BaseException:
            ahead.cancel()
            self.registry.discard_cache()
            self._recent.pop(key, None)
            raise
        report.committed += len(committed)

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
        anchor = next((n for n in (item.linked, item.parent)
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
    def _recent_nodes(self, key: ChannelKey, first: Message) -> _Recent:
        """The channel's latest turns (by time, then commit order) at most three days before
        ``first``: the same set whether they stayed cached since they were committed or are
        read back after a restart, so a resumed ingest proposes as an uninterrupted one."""
        cutoff = first.ts - timedelta(days=3)
        cached = self._recent.get(key)
        if cached is None or cached.cutoff > cutoff:
            platform, space, channel = key
            # Only ids and times are read for the whole window; the latest are sorted before
            # any is cut (a row limit would keep whichever rows the table returns first).
            rows = self.store.tables.query_nodes(
                scope_sql(Scope(platform=platform, space=space, channels=(channel,)),
                          Window(ts_from=cutoff)),
                columns=["node_id", "ts", "seq"])
            latest = sorted(rows, key=lambda r: (r["ts"], r["seq"]))[-_RECENT:]
            nodes = [_view(n) for n in self.store.get_nodes([r["node_id"] for r in latest])]
            cached = self._recent[key] = _Recent(cutoff, [n for n in nodes if n is not None])
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

    # ---- edits --------------------------------------------------------------------------
    def edit(self, *, platform: str, space: str, channel: str, message_id: str,
             text: str) -> bool:
        """Re-verify a committed message against its new text. False if not committed.

        Nothing of the replaced text survives: the value is kept only if every one of its
        words is still said (else the same kind of value in the new text replaces it, else
        the message becomes context), the topic only if the new text still names it (else
        it is derived again from the new words), the audit record is rebuilt (its reasons
        quoted the old proposal), and every node that borrowed the old text is recomposed.
        The caller purges old versions afterwards (see ``Pipeline.drain``)."""
        node = self.store.find_message(
            channel=channel, message_id=message_id, platform=platform, space=space
        )
        if node is None:
            return False
        if node.text == text:
            return True
        seen = analysis_text(text)
        verdict, value = node.verdict, node.value
        reasons = ["re-verified after an edit"]
        found = self.analyzer.analyze(seen, speaker=node.speaker).values
        if verdict in (Verdict.ESTABLISH, Verdict.REVISE) and value and not _says(seen, value):
            old_family = (node.proposal.value_family if node.proposal is not None
                          and node.proposal.value_family else
                          next((s.family for s in find_slots(value)), None))
            replacement = next((s for s in found if s.family == old_family), None)
            if replacement is not None:
                value = replacement.text
            else:
                verdict, value = Verdict.CONTEXT, ""
                reasons.append("value no longer stated after an edit; downgraded to context")
        topic = node.topic
        if topic and not _says(seen, topic) and verdict in (Verdict.ESTABLISH,
                                                             Verdict.CONTEXT):
            # A topic made of the message's own words must not outlive them (a revision's
            # or restatement's topic is its state's, named by the chain's root).
            slots = find_slots(seen)
            at = next((s for s in slots if s.text == value), None)
            topic = derive_topic(seen, slots, value=at) if verdict is Verdict.ESTABLISH else ""
        old = node.verification or Verification(outcome=Outcome.ACCEPTED, verdict=verdict)
        ver = Verification(
            outcome=old.outcome if verdict is node.verdict else Outcome.DOWNGRADED,
            verdict=verdict, reasons=reasons,
        )
        state_id = node.state_id if verdict is not Verdict.CONTEXT else None
        old_proposal = node.proposal or Proposal(message_id=node.message_id)
        # Rebuilt rather than copied: the old proposal's rewrite and reason quoted the old
        # text. Further states are re-grounded like the main one: the new value of the same
        # kind, or no root at all (their state then re-derives from what remains).
        proposal = Proposal(
            message_id=node.message_id, topic=topic, verdict=verdict, source_quote=value,
            prior_state_id=old_proposal.prior_state_id, proposer=old_proposal.proposer,
            act=old_proposal.act, value_family=old_proposal.value_family,
            reason=old_proposal.reason if _says(seen, old_proposal.reason) else "",
            answers=old_proposal.answers,
            facets=[_reground(f, seen, found, taken={value}) for f in old_proposal.facets],
        )
        updated = node.model_copy(update={
            "text": text, "edited": True, "verdict": verdict, "value": value, "topic": topic,
            "state_id": state_id, "verification": ver, "proposal": proposal,
            "rewrite": "", "context_ids": [],
        })
        affected = sorted(s for s in {node.state_id, state_id, *node_state_ids(node)} if s)
        # Recorded first: a crash before the dependants are recomposed is finished by
        # recover (a replayed edit finds the new text already stored and would stop there).
        self.store.tables.set_meta(_EDITING, json.dumps({"ids": [updated.node_id],
                                                         "states": affected}))
        self.store.rewrite_nodes([updated])
        # Cached recent turns hold the old text: later proposals must not read it.
        self._recent.pop((platform or node.platform, space or node.space, channel), None)
        self._refresh([updated.node_id], affected)
        self.store.tables.set_meta(_EDITING, "")
        return True

    # ---- forgetting ---------------------------------------------------------------------
    def forget(self, node_ids: Sequence[str]) -> int:
        """Remove nodes from every table and index, repair chains and rewrite dependants.

        Crash-safe: the intent is recorded first, and :meth:`recover` finishes an interrupted
        forget (deleting is idempotent; dependants are found by their references to the
        forgotten ids, which stay until they are rewritten). Old table versions still hold
        the text until :meth:`MemoryStore.purge` runs."""
        nodes = self.store.get_nodes(node_ids)
        if not nodes:
            return 0
        # First: from here on no delivery, retry or import can bring them back.
        self.store.bury(MessageKey(platform=n.platform, space=n.space, channel=n.channel,
                                   message_id=n.message_id) for n in nodes)
        ids = [n.node_id for n in nodes]
        states = sorted({sid for n in nodes for sid in node_state_ids(n)})
        self.store.tables.set_meta(_FORGETTING, json.dumps({"ids": ids, "states": states}))
        self._finish_forget(ids, states)
        return len(ids)

    def _finish_forget(self, ids: list[str], states: list[str]) -> None:
        self.store.delete_nodes(ids)
        for recent in self._recent.values():
            recent.drop(ids)
        self._refresh(ids, states)
        self.store.tables.set_meta(_FORGETTING, "")

    def _refresh(self, changed: Sequence[str], states: Sequence[str]) -> None:
        """After nodes changed or vanished: re-derive their states (chain structure), then
        recompose and re-embed every node whose rewrite borrowed from them, then re-derive
        again so state descriptions are made from the recomposed passages."""
        self._rederive(states)
        self.registry.flush()
        self.faults.reach("rederived")
        dependants = self._dependants(changed)
        if dependants:
            self._recompose(dependants)
            touched = {n.state_id for n in dependants if n.state_id} | set(states)
            self._rederive(sorted(touched))
            self.registry.flush()

    def _dependants(self, ids: Sequence[str]) -> list[EvidenceNode]:
        quoted = ", ".join("'" + i.replace("'", "''") + "'" for i in ids)
        where = (
            f"array_has_any(context_ids, make_array({quoted})) OR "
            f"{sql_in('reply_to_node', ids)} OR {sql_in('supersedes', ids)} OR "
            f"{sql_in('node_id', ids)}"
        )
        rows = self.store.tables.query_nodes(where, columns=["node_id"])
        return self.store.get_nodes([r["node_id"] for r in rows])

    def _recompose(self, nodes: Sequence[EvidenceNode]) -> None:
        out: list[EvidenceNode] = []
        parents = {p.node_id: p for p in self.store.get_nodes(
            [n.reply_to_node for n in nodes if n.reply_to_node])}
        turns_before = self._turns_before(nodes)
        for n in nodes:
            parent = _view(parents.get(n.reply_to_node)) if n.reply_to_node else None
            msg = Message(
                platform=n.platform, space=n.space, channel=n.channel, id=n.message_id,
                user=n.speaker_id, user_name=n.speaker, ts=n.ts, text=analysis_text(n.text),
                thread_id=n.thread_id, reply_to=n.reply_to, channel_name=n.channel_name or None,
                permalink=n.permalink,
            )
            prior = self._prior_for(n)
            verdict, value, state_id = n.verdict, n.value, n.state_id
            if verdict is Verdict.RESTATE:
                # A restatement confirms whatever the chain held before it, as repaired.
                if prior is None:
                    verdict, value, state_id = Verdict.CONTEXT, "", None
                else:
                    value = prior.value
            proposal = (n.proposal or Proposal(message_id=n.message_id)).model_copy(
                update={"verdict": verdict, "source_quote": value, "rewrite": "",
                        "topic": n.topic}
            )
            base = pre_rewrite(msg, parent, previous=_view(turns_before.get(n.node_id)))
            rw = final_rewrite(_whole(base, msg, msg.model_copy(update={"text": n.text})),
                               proposal, prior=prior)
            verification = n.verification
            if verification is not None:
                verification = verification.model_copy(
                    update={"reasons": _own_reasons(verification.reasons, n.text)})
            out.append(n.model_copy(update={
                "rewrite": rw.text, "context": rw.context, "context_ids": rw.context_ids,
                "reply_to_node": parent.node_id if parent else None,
                "proposal": proposal, "verdict": verdict, "value": value,
                "state_id": state_id, "verification": verification,
            }))
        vectors = self.embedder.embed_batch([n.searchable for n in out])
        self.store.put_nodes(out, vectors)

    def _turns_before(self, nodes: Sequence[EvidenceNode]) -> dict[str, EvidenceNode]:
        """For each of ``nodes`` (by id), the latest stored message before it in its channel
        and thread within the implicit-context gap (older turns are never quoted). One
        query per 200 nodes, whatever the time span between them."""
        found: dict[tuple[str, str, str, str | None], list[EvidenceNode]] = defaultdict(list)
        for i in range(0, len(nodes), 200):
            ranges = " OR ".join(
                f"(platform = {sql_str(n.platform)} AND space = {sql_str(n.space)} AND "
                f"channel = {sql_str(n.channel)} AND ts >= "
                f"{to_epoch(n.ts) - IMPLICIT_CONTEXT_GAP_S} AND ts <= {to_epoch(n.ts)})"
                for n in nodes[i : i + 200])
            for row in self.store.tables.query_nodes(ranges, columns=NODE_SEARCH_COLUMNS):
                c = row_to_node(row)
                found[(c.platform, c.space, c.channel, c.thread_id)].append(c)
        out: dict[str, EvidenceNode] = {}
        for n in nodes:
            before = [c for c in found.get((n.platform, n.space, n.channel, n.thread_id), [])
                      if (c.ts, c.seq) < (n.ts, n.seq) and c.node_id != n.node_id]
            if before:
                out[n.node_id] = max(before, key=lambda c: (c.ts, c.seq))
        return out

    def _prior_for(self, node: EvidenceNode) -> StateRecord | None:
        if node.verdict not in (Verdict.REVISE, Verdict.RESTATE) or not node.state_id:
            return None
        chain = chain_of(self.store.state_nodes([node.state_id]))
        before = [c for c in chain if c.seq < node.seq]
        if not before:
            return None
        prev = before[-1]
        return StateRecord(
            state_id=node.state_id, platform=node.platform, space=node.space,
            channel=node.channel, topic=node.topic, description="", value=prev.value,
            value_family="", active_node_id=prev.node_id, revision_count=0,
            created_ts=0.0, updated_ts=0.0, vector=np.zeros(0, dtype=np.float32),
        )

    def _rederive(self, state_ids: Iterable[str]) -> None:
        ids = list(dict.fromkeys(state_ids))
        if not ids:
            return
        members = self.store.state_nodes(ids)
        by_state: dict[str, list[EvidenceNode]] = defaultdict(list)
        for n in members:
            if n.state_id:
                by_state[n.state_id].append(n)
        # One fixed copy per node, whatever number of rules touch it: a node queued twice
        # into one merge makes LanceDB refuse the whole write.
        fixes: dict[str, EvidenceNode] = {}

        def fix(n: EvidenceNode, **update: object) -> None:
            fixes[n.node_id] = fixes.get(n.node_id, n).model_copy(update=update)

        heads: dict[str, str] = {}
        for sid in ids:
            members_of = by_state.get(sid, [])
            chain = chain_of(members_of)
            topic = chain[0].topic if chain else ""
            if chain and chain[0].verdict is not Verdict.ESTABLISH:
                # The root is gone: the state is now named by its new root's own words, so
                # no word of the forgotten message outlives it.
                root = chain[0]
                topic = derive_topic(analysis_text(root.text),
                                     find_slots(analysis_text(root.text))) or root.value
            prev: EvidenceNode | None = None
            for i, n in enumerate(chain):
                want_verdict = Verdict.ESTABLISH if i == 0 else Verdict.REVISE
                want_sup = prev.node_id if prev else None
                if n.supersedes != want_sup or n.verdict is not want_verdict or n.topic != topic:
                    fix(n, supersedes=want_sup, verdict=want_verdict, topic=topic)
                prev = n
            in_chain = {c.node_id for c in chain}
            for n in members_of:
                if n.node_id in in_chain:
                    continue
                if not chain:
                    # Restatements of a state that no longer exists become plain context,
                    # named by nothing: their topic was the forgotten state's.
                    fix(n, state_id=None, verdict=Verdict.CONTEXT, topic="", value="")
                elif n.topic != topic:
                    fix(n, topic=topic)
            if chain:
                heads[sid] = chain[-1].node_id
        if fixes:
            self.store.rewrite_nodes(list(fixes.values()))
        vectors = self.store.node_vectors(list(heads.values()))
        members = self.store.state_nodes(ids)
        by_state = defaultdict(list)
        for n in members:
            if n.state_id:
                by_state[n.state_id].append(n)
        for sid in ids:
            chain = chain_of(by_state.get(sid, []))
            if not chain:
                self.registry.drop(sid)
                continue
            fam = family_of(chain[0].value, analysis_text(chain[0].text))
            rec = record_from_chain(sid, chain, vectors, fam)
            if rec is not None:
                if rec.vector.size == 0:
                    rec.vector = np.zeros(self.store.dim, dtype=np.float32)
                # A restatement touches its state as committing it did (``_apply``), so a
                # state re-derived after a restart is the one an uninterrupted run holds.
                rec.updated_ts = max(to_epoch(n.ts) for n in by_state[sid] if n.verdict in (
                    Verdict.ESTABLISH, Verdict.REVISE, Verdict.RESTATE))
                self.registry.put(rec)


def _whole(base: Rewrite, view: Message, message: Message) -> Rewrite:
    """``base`` (made from the analysis view of ``message``) quoting the whole message:
    what is read back and answered from is the message itself, not the part analysed."""
    if view.text == message.text:
        return base
    cut = view.text.strip()
    return Rewrite(base.text.replace(cut, message.text.strip(), 1) if cut else base.text,
                   base.context_ids, base.context)


class _Recent:
    """A channel's latest turns, in time order (then commit order), at most ``_RECENT``;
    ``cutoff`` is the earliest time the store was read from."""

    def __init__(self, cutoff: datetime, nodes: Sequence[EvidenceNode]) -> None:
        self.cutoff = cutoff
        self.nodes = sorted(nodes, key=_turn_order)[-_RECENT:]

    def add(self, node: EvidenceNode) -> None:
        self.nodes = sorted([*(n for n in self.nodes if n.node_id != node.node_id), node],
                            key=_turn_order)[-_RECENT:]

    def drop(self, ids: Iterable[str]) -> None:
        gone = set(ids)
        self.nodes = [n for n in self.nodes if n.node_id not in gone]

    def forget_before(self, cutoff: datetime) -> None:
        self.nodes = [n for n in self.nodes if n.ts >= cutoff]


def _turn_order(n: EvidenceNode) -> tuple[datetime, int]:
    return (n.ts, n.seq)


@overload
def _view(node: EvidenceNode) -> EvidenceNode: ...


@overload
def _view(node: None) -> None: ...


def _view(node: EvidenceNode | None) -> EvidenceNode | None:
    """``node`` as the write path analyses it: its text cut to the analysis budget."""
    if node is None:
        return None
    text = analysis_text(node.text)
    return node if text is node.text else node.model_copy(update={"text": text})


class _EmbedAhead:
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


def _align(chunk: Sequence[WriteItem], proposals: Sequence[Proposal]) -> list[Proposal]:
    """One proposal per item whatever the proposer returned (missing → context)."""
    by_id = {p.message_id: p for p in proposals}
    return [by_id.get(i.message.id) or Proposal(message_id=i.message.id, proposer="missing")
            for i in chunk]


# A quoted fragment in an audit reason ("value quote '4 pm' is not grounded"): reasons are
# short, and the fragment is bounded, so the pattern is linear.
_QUOTED = re.compile(r"'([^'\n]{1,300})'|\"([^\"\n]{1,300})\"")
# Quoted ids (states, nodes, messages) are not anyone's words.
_ID = re.compile(r"[sn]_[0-9a-f]{1,64}|msg:[^\s]{1,100}|[\d.]{1,40}")


def _own_reasons(reasons: Sequence[str], text: str) -> list[str]:
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


def _says(text: str, phrase: str) -> bool:
    """Whether every word of ``phrase`` is in ``text`` (stricter than ``grounded``, which
    tolerates a missing word: after an edit, that word may be the one taken out)."""
    words = tokens(phrase)
    have = set(tokens(text))
    return bool(words) and all(w in have for w in words)
def _reground(facet: Facet, text: str, found: Sequence[Value], *, taken: set[str]) -> Facet:
    """``facet`` as the edited ``text`` still supports it: its value if every word is still
    said, else the new value of the same kind, else no root; an opened state's topic only if
    the text still names it (a revised state's topic is its chain's)."""
    if not _says(text, facet.source_quote):
        new = next((v for v in found
                    if v.family == facet.value_family and v.text not in taken), None)
        if new is None:
            return facet.model_copy(update={"source_quote": "", "topic": ""})
        taken.add(new.text)
        facet = facet.model_copy(update={"source_quote": new.text})
    if facet.prior_state_id is None and facet.topic and not _says(text, facet.topic):
        slots = find_slots(text)
        at = next((s for s in slots if s.text == facet.source_quote), None)
        facet = facet.model_copy(update={"topic": derive_topic(text, slots, value=at)})
    return facet


def _row_states(row: dict[str, object]) -> list[str]:
    """The states a stored node row belongs to (its own and the facets it establishes)."""
    out = [str(row["state_id"])] if row.get("state_id") else []
    raw = row.get("proposal_json")
    if isinstance(raw, str) and raw:
        facets = Proposal.model_validate_json(raw).facets
        out += [facet_state_id(str(row["node_id"]), k) for k in range(1, len(facets) + 1)]
    return out


def _placeholder(m: Message) -> EvidenceNode:
    return EvidenceNode(
        node_id=m.key.node_id(), platform=m.platform, space=m.space, channel=m.channel,
        message_id=m.id, speaker_id=m.user, speaker=m.speaker, ts=m.ts, text=m.text,
        thread_id=m.thread_id,
    )


def _vec(item: WriteItem) -> np.ndarray:
    if item.vector is None:
        raise ValueError(f"message {item.message.id} was not embedded")
    return item.vector
