"""The active-state registry: one entry per conversational state, scoped to one channel.

The writer reads it through ``search_registry`` (lexical + dense over state descriptions) and
changes it only through commit. It is cached in memory per channel and flushed to the LanceDB
``states`` table with every committed batch; the nodes table stays the source of truth and
``rederive`` rebuilds a state from its chain.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.models import ChainEntry, EvidenceNode, State, Verdict
from memory.store import MemoryStore
from memory.store.rows import Row, from_epoch, to_epoch
from memory.store.tables import sql_str
from memory.text import content_terms, names_value, overlap

logger = logging.getLogger(__name__)

ChannelKey = tuple[str, str, str]


@dataclass
class StateRecord:
    state_id: str
    platform: str
    space: str
    channel: str
    topic: str
    description: str
    value: str
    value_family: str
    active_node_id: str
    revision_count: int
    created_ts: float
    updated_ts: float
    vector: np.ndarray
    terms: set[str] = field(default_factory=set)

    @property
    def channel_key(self) -> ChannelKey:
        return (self.platform, self.space, self.channel)

    def to_row(self) -> Row:
        return {
            "state_id": self.state_id, "platform": self.platform, "space": self.space,
            "channel": self.channel, "topic": self.topic, "description": self.description,
            "value": self.value, "value_family": self.value_family,
            "active_node_id": self.active_node_id, "revision_count": self.revision_count,
            "created_ts": self.created_ts, "updated_ts": self.updated_ts,
            "vector": [float(x) for x in self.vector],
        }

    @classmethod
    def from_row(cls, row: Row) -> StateRecord:
        return cls(
            state_id=row["state_id"], platform=row["platform"], space=row["space"],
            channel=row["channel"], topic=row["topic"], description=row["description"],
            value=row["value"], value_family=row.get("value_family") or "",
            active_node_id=row["active_node_id"], revision_count=row["revision_count"],
            created_ts=row["created_ts"], updated_ts=row["updated_ts"],
            vector=np.asarray(row["vector"], dtype=np.float32),
            terms=set(content_terms(row["topic"] + " " + row["description"])),
        )


@dataclass(frozen=True)
class RegistryHit:
    state: StateRecord
    score: float
    lexical: float
    dense: float


def state_id_for(node_id: str) -> str:
    """A state is named after the node that established it: replay-safe and stable."""
    return "s_" + node_id.removeprefix("n_")


class Registry:
    def __init__(self, *, store: MemoryStore) -> None:
        self._store = store
        self._by_channel: dict[ChannelKey, dict[str, StateRecord]] = {}
        self._dirty: set[str] = set()
        self._removed: set[str] = set()

    def _load(self, key: ChannelKey) -> dict[str, StateRecord]:
        cached = self._by_channel.get(key)
        if cached is None:
            platform, space, channel = key
            rows = self._store.tables.query_states(
                f"platform = {sql_str(platform)} AND space = {sql_str(space)} "
                f"AND channel = {sql_str(channel)}"
            )
            cached = {r["state_id"]: StateRecord.from_row(r) for r in rows}
            self._by_channel[key] = cached
        return cached

    def states(self, key: ChannelKey) -> list[StateRecord]:
        return list(self._load(key).values())

    def get(self, key: ChannelKey, state_id: str) -> StateRecord | None:
        """Only states of the given channel are visible: a revision cannot cross channels."""
        return self._load(key).get(state_id)

    def put(self, rec: StateRecord) -> None:
        self._load(rec.channel_key)[rec.state_id] = rec
        rec.terms = set(content_terms(rec.topic + " " + rec.description))
        self._dirty.add(rec.state_id)
        self._removed.discard(rec.state_id)

    def remove(self, key: ChannelKey, state_id: str) -> None:
        self._load(key).pop(state_id, None)
        self._dirty.discard(state_id)
        self._removed.add(state_id)

    def drop(self, state_id: str) -> None:
        """Remove a state whatever channel it is cached under (its chain is gone)."""
        for states in self._by_channel.values():
            states.pop(state_id, None)
        self._dirty.discard(state_id)
        self._removed.add(state_id)

    def search(
        self,
        key: ChannelKey,
        *,
        terms: Sequence[str],
        vector: np.ndarray | None,
        k: int = 5,
        families: set[str] | None = None,
        text: str = "",
    ) -> list[RegistryHit]:
        """search_registry: channel-scoped active states ranked by lexical + dense similarity."""
        states = self._load(key)
        if not states:
            return []
        recs = list(states.values())
        qterms = set(terms)
        dense = np.zeros(len(recs), dtype=np.float32)
        if vector is not None:
            mat = np.stack([r.vector for r in recs])
            dense = mat @ vector.astype(np.float32)
        hits = []
        newest = max(r.updated_ts for r in recs)

        for rec, d in zip(recs, dense, strict=True):
            lex = overlap(qterms, rec.terms)
            score = 0.55 * lex + 0.45 * max(float(d), 0.0)
            if families and rec.value_family in families:
                score += 0.1
            if text and rec.value and names_value(text, rec.value):
                # The message names this state's current value: likely about it.
                score += 0.3
            # Recent states are likelier referents of a short follow-up.
            score += 0.05 * float(np.exp(-(newest - rec.updated_ts) / 86400.0))
            hits.append(RegistryHit(rec, score, lex, float(d)))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:k]

    def flush(self) -> None:
        rows: list[Row] = []
        for states in self._by_channel.values():
            rows.extend(states[s].to_row() for s in self._dirty if s in states)
        self._store.tables.upsert_states(rows)
        self._store.tables.delete_states(sorted(self._removed))
        self._dirty.clear()
        self._removed.clear()

    def discard_cache(self) -> None:
        """Forget unflushed changes (a failed batch); the next read reloads from the table."""
        self._by_channel.clear()
        self._dirty.clear()
        self._removed.clear()


def chain_of(nodes: Sequence[EvidenceNode]) -> list[EvidenceNode]:
    """The supersession chain of one state: establishing and revising nodes in commit order."""
    return [
        n for n in sorted(nodes, key=lambda n: n.seq)
        if n.verdict in (Verdict.ESTABLISH, Verdict.REVISE)
    ]


def to_state(rec: StateRecord, chain: Sequence[EvidenceNode]) -> State:
    return State(
        state_id=rec.state_id, platform=rec.platform, space=rec.space, channel=rec.channel,
        topic=rec.topic, description=rec.description, value=rec.value,
        active_node_id=rec.active_node_id, revision_count=rec.revision_count,
        updated_at=from_epoch(rec.updated_ts),
        chain=[
            ChainEntry(
                node_id=n.node_id, message_id=n.message_id, value=n.value, speaker=n.speaker,
                ts=n.ts, quote=n.text, verdict=n.verdict, permalink=n.permalink,
            )
            for n in chain
        ],
    )


def record_from_chain(
    state_id: str, chain: Sequence[EvidenceNode], vectors: dict[str, np.ndarray],
    family: str,
) -> StateRecord | None:
    """Re-derive a registry entry from what remains of its chain (after a delete or edit)."""
    if not chain:
        return None
    first, last = chain[0], chain[-1]
    topic = first.topic or last.topic
    return StateRecord(
        state_id=state_id, platform=last.platform, space=last.space, channel=last.channel,
        topic=topic, description=describe(topic, last.value, last.passage), value=last.value,
        value_family=family, active_node_id=last.node_id, revision_count=len(chain) - 1,
        created_ts=to_epoch(first.ts), updated_ts=to_epoch(last.ts),
        vector=vectors.get(last.node_id, np.zeros(0, dtype=np.float32)),
    )


def describe(topic: str, value: str, passage: str) -> str:
    base = f"{topic}: {value}" if value else topic
    return f"{base} — {passage[:200]}"
