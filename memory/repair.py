"""Repairs of committed memory: an edit re-verified, a forget carried through chains and
dependants, and the recovery that finishes what a crash interrupted.

Each records its intent in the store's meta port first, so :meth:`Repair.recover` can finish
it; states are re-derived from their chains (the nodes are the source of truth).
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np

from memory.analysis.message import MessageAnalyzer
from memory.budget import analysis_text
from memory.embeddings import Embedder
from memory.facets import node_state_ids
from memory.faults import FaultPoints
from memory.models import (
    EvidenceNode,
    Message,
    MessageKey,
    Outcome,
    Proposal,
    Verdict,
    Verification,
)
from memory.proposer import derive_topic
from memory.registry import ChannelKey, Registry, StateRecord, chain_of, record_from_chain
from memory.rewrite import IMPLICIT_CONTEXT_GAP_S, final_rewrite, pre_rewrite
from memory.store import Span
from memory.store.ports import Store
from memory.store.rows import to_epoch
from memory.text import family_of, find_slots
from memory.write_support import (
    Recent,
    own_reasons,
    reground,
    replacement_of,
    says,
    still_holds,
    view,
    whole,
)

logger = logging.getLogger(__name__)

# Meta keys: the highest seq whose states the registry holds, and a forget's or an edit's
# intent while it is carried out.
WATERMARK = "registry_seq"
_FORGETTING = "forget_pending"
_EDITING = "edit_pending"


class Repair:
    """Edits, forgets and recovery over the writer's store and registry; ``recent`` is the
    writer's cache of each channel's latest turns, which a repair must not leave stale."""

    def __init__(self, *, store: Store, registry: Registry, embedder: Embedder,
                 analyzer: MessageAnalyzer, faults: FaultPoints,
                 recent: dict[ChannelKey, Recent]) -> None:
        self.store = store
        self.registry = registry
        self.embedder = embedder
        self.analyzer = analyzer
        self.faults = faults
        self._recent = recent

    # ---- recovery -----------------------------------------------------------------------
    def recover(self) -> int:
        """Re-derive states touched by nodes committed after the last registry flush."""
        mark = int(self.store.meta.get(WATERMARK) or 0)
        states = self.store.states_touched_after(mark)
        if states:
            logger.info("re-deriving %d states after an interrupted commit", len(states))
            self._rederive(states)
            self.registry.flush()
        self.store.meta.set(WATERMARK, str(self.store.max_seq()))
        pending = self.store.meta.get(_FORGETTING)
        if pending:
            intent = json.loads(pending)
            logger.info("finishing an interrupted forget of %d nodes", len(intent["ids"]))
            self._finish_forget(list(intent["ids"]), list(intent["states"]))
        editing = self.store.meta.get(_EDITING)
        if editing:
            intent = json.loads(editing)
            logger.info("finishing an interrupted edit")
            # The edited rows may hold the new text while their index documents still hold
            # the old: the watermark cannot tell (an edit keeps its node's seq).
            self.store.require_purge()
            self.store.reindex_nodes(list(intent["ids"]))
            self._refresh(list(intent["ids"]), list(intent["states"]))
            self.store.meta.set(_EDITING, "")
        return len(states)

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
        updated = self._edited(node, text)
        state_id = updated.state_id
        affected = sorted(s for s in {node.state_id, state_id, *node_state_ids(node)} if s)
        # Recorded first: a crash before the dependants are recomposed is finished by
        # recover (a replayed edit finds the new text already stored and would stop there),
        # and one before the caller's purge by the next open (the edit is done by then, and
        # nothing else would purge the old versions that still hold the replaced text).
        self.store.meta.set(_EDITING, json.dumps({"ids": [updated.node_id],
                                                  "states": affected}))
        self.store.require_purge()
        self.store.rewrite_nodes([updated])
        # Cached recent turns hold the old text: later proposals must not read it.
        self._recent.pop((platform or node.platform, space or node.space, channel), None)
        self._refresh([updated.node_id], affected)
        self.store.meta.set(_EDITING, "")
        return True

    def _edited(self, node: EvidenceNode, text: str) -> EvidenceNode:
        """``node`` as its new ``text`` still supports it (see :meth:`edit`)."""
        seen = analysis_text(text)
        verdict, value = node.verdict, node.value
        reasons = ["re-verified after an edit"]
        analysis = self.analyzer.analyze(seen, speaker=node.speaker)
        found = analysis.values
        replaced = [o.text for c in analysis.clauses for o in c.old]
        old_family = (node.proposal.value_family if node.proposal is not None
                      and node.proposal.value_family else
                      next((s.family for s in find_slots(value)), None))
        if verdict in (Verdict.ESTABLISH, Verdict.REVISE) and value and not still_holds(
                seen, value, replaced, found=found, family=old_family):
            replacement = replacement_of(value, old_family, found, replaced=replaced)
            if replacement is not None:
                value = replacement.text
            else:
                verdict, value = Verdict.CONTEXT, ""
                reasons.append("value no longer stated after an edit; downgraded to context")
        topic = node.topic
        if topic and not says(seen, topic) and verdict in (Verdict.ESTABLISH,
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
            reason=old_proposal.reason if says(seen, old_proposal.reason) else "",
            answers=old_proposal.answers,
            facets=[reground(f, seen, found, taken={value}, replaced=replaced)
                    for f in old_proposal.facets],
        )
        return node.model_copy(update={
            "text": text, "edited": True, "verdict": verdict, "value": value, "topic": topic,
            "state_id": state_id, "verification": ver, "proposal": proposal,
            "rewrite": "", "context_ids": [],
        })

    # ---- forgetting ---------------------------------------------------------------------
    def forget(self, node_ids: Sequence[str]) -> int:
        """Remove nodes from every table and index, repair chains and rewrite dependants.

        Crash-safe: the intent is recorded first, and :meth:`recover` finishes an interrupted
        forget (deleting is idempotent; dependants are found by their references to the
        forgotten ids, which stay until they are rewritten). Old table versions still hold
        the text until the store's purge runs."""
        nodes = self.store.get_nodes(node_ids)
        if not nodes:
            return 0
        # First: from here on no delivery, retry or import can bring them back.
        self.store.bury(MessageKey(platform=n.platform, space=n.space, channel=n.channel,
                                   message_id=n.message_id) for n in nodes)
        ids = [n.node_id for n in nodes]
        states = sorted({sid for n in nodes for sid in node_state_ids(n)})
        self.store.meta.set(_FORGETTING, json.dumps({"ids": ids, "states": states}))
        self._finish_forget(ids, states)
        return len(ids)

    def _finish_forget(self, ids: list[str], states: list[str]) -> None:
        self.store.delete_nodes(ids)
        for recent in self._recent.values():
            recent.drop(ids)
        self._refresh(ids, states)
        self.store.meta.set(_FORGETTING, "")

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
        return self.store.get_nodes(self.store.dependants(ids))

    def _recompose(self, nodes: Sequence[EvidenceNode]) -> None:
        out: list[EvidenceNode] = []
        parents = {p.node_id: p for p in self.store.get_nodes(
            [n.reply_to_node for n in nodes if n.reply_to_node])}
        turns_before = self._turns_before(nodes)
        for n in nodes:
            parent = view(parents.get(n.reply_to_node)) if n.reply_to_node else None
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
            base = pre_rewrite(msg, parent, previous=view(turns_before.get(n.node_id)))
            rw = final_rewrite(whole(base, msg, msg.model_copy(update={"text": n.text})),
                               proposal, prior=prior)
            verification = n.verification
            if verification is not None:
                verification = verification.model_copy(
                    update={"reasons": own_reasons(verification.reasons, n.text)})
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
            spans = [Span(n.platform, n.space, n.channel,
                          to_epoch(n.ts) - IMPLICIT_CONTEXT_GAP_S, to_epoch(n.ts))
                     for n in nodes[i : i + 200]]
            for c in self.store.nodes_in_spans(spans):
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
        """Rebuild states from their chains: fix the chain links and topics of the members,
        then put each state's record (or drop a state whose chain is gone)."""
        ids = list(dict.fromkeys(state_ids))
        if not ids:
            return
        heads = self._fix_chains(ids, _by_state(self.store.state_nodes(ids)))
        vectors = self.store.node_vectors(list(heads.values()))
        by_state = _by_state(self.store.state_nodes(ids))
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

    def _fix_chains(self, ids: list[str], by_state: dict[str, list[EvidenceNode]]
                    ) -> dict[str, str]:
        """Re-link each state's chain (root establishes, each revision supersedes the one
        before, one topic) and rewrite the members that differ; returns each state's head."""
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
        return heads


def _by_state(members: Iterable[EvidenceNode]) -> dict[str, list[EvidenceNode]]:
    by_state: dict[str, list[EvidenceNode]] = defaultdict(list)
    for n in members:
        if n.state_id:
            by_state[n.state_id].append(n)
    return by_state
