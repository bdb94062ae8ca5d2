"""The active-state registry: one entry per conversational state, scoped to one channel.

The writer reads it through ``search_registry`` (lexical + dense over state descriptions) and
changes it only through commit. It is cached in memory per channel and flushed to the LanceDB
``states`` table with every committed batch; the nodes table stays the source of truth and
``rederive`` rebuilds a state from its chain.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from memory.analysis.lexicon import Weights
from memory.analysis.matching import same_value
from memory.facets import state_id_for
from memory.models import ChainEntry, EvidenceNode, State, Verdict
from memory.store.ports import Store
from memory.store.rows import Row, from_epoch, to_epoch
from memory.text import content_terms, value_key

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


__all__ = ["ChannelKey", "Registry", "RegistryHit", "StateRecord", "chain_of", "describe",
           "record_from_chain", "state_id_for", "to_state"]


class Registry:
    def __init__(self, *, store: Store, weights: Weights | None = None) -> None:
        self._store = store
        self._weights = weights or Weights()
        self._by_channel: dict[ChannelKey, dict[str, StateRecord]] = {}
        self._dirty: set[str] = set()
        self._removed: set[str] = set()
        # Columnar copies of the loaded channels for search (built on first search).
        self._indexes: dict[ChannelKey, _SearchIndex] = {}

    def _load(self, key: ChannelKey) -> dict[str, StateRecord]:
        cached = self._by_channel.get(key)
        if cached is None:
            platform, space, channel = key
            rows = self._store.states.in_channel(platform=platform, space=space,
                                                 channel=channel)
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
        index = self._indexes.get(rec.channel_key)
        if index is not None:
            index.put(rec)
        self._dirty.add(rec.state_id)
        self._removed.discard(rec.state_id)

    def remove(self, key: ChannelKey, state_id: str) -> None:
        self._load(key).pop(state_id, None)
        index = self._indexes.get(key)
        if index is not None:
            index.remove(state_id)
        self._dirty.discard(state_id)
        self._removed.add(state_id)

    def drop(self, state_id: str) -> None:
        """Remove a state whatever channel it is cached under (its chain is gone)."""
        for states in self._by_channel.values():
            states.pop(state_id, None)
        for index in self._indexes.values():
            index.remove(state_id)
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
        """search_registry: channel-scoped active states ranked by lexical + dense similarity.

        Score (weights from :class:`~memory.analysis.lexicon.Weights`) = search_lexical ·
        term overlap + search_dense · max(cosine, 0), + search_family for a wanted value
        family, + search_value_named when ``text`` names the state's current value, + up to
        search_recency for recency. Ties keep the channel's state order."""
        states = self._load(key)
        if not states:
            return []
        index = self._indexes.get(key)
        if index is None:
            index = self._indexes[key] = _SearchIndex(states.values())
        return index.search(set(terms), vector, k=k, families=families, text=text,
                            weights=self._weights)

    def flush(self) -> None:
        rows: list[Row] = []
        for states in self._by_channel.values():
            rows.extend(states[s].to_row() for s in self._dirty if s in states)
        self._store.states.put(rows)
        self._store.states.delete(sorted(self._removed))
        self._dirty.clear()
        self._removed.clear()

    def discard_cache(self) -> None:
        """Forget unflushed changes (a failed batch); the next read reloads from the table."""
        self._by_channel.clear()
        self._indexes.clear()
        self._dirty.clear()
        self._removed.clear()


def _nameable(key: str) -> bool:
    """The length rule of :func:`memory.text.names_value` for a value key."""
    return len(key) >= 3 or (len(key) == 2 and any(ch.isdigit() for ch in key))


class _SearchIndex:
    """One channel's states laid out for search: vectors, update times and family codes in
    arrays, an inverted index of topic/description terms, and value keys, so a search costs
    a matrix-vector product plus the postings of the query's terms rather than a Python pass
    over every state (a busy channel accumulates thousands).

    Slots follow the channel dict's insertion order (a re-put keeps its slot, a removed
    state frees it), so stable sorting by score breaks ties exactly as the dict order did.
    """

    def __init__(self, records: Iterable[StateRecord]) -> None:
        self._slot: dict[str, int] = {}
        self._recs: list[StateRecord | None] = []
        self._terms: list[frozenset[str]] = []
        self._vkeys: list[str] = []
        self._postings: dict[str, dict[int, None]] = {}
        self._by_value: dict[str, dict[int, None]] = {}
        self._families: dict[str, int] = {}
        self._dim = 0
        self._vectors = np.zeros((0, 0), dtype=np.float32)
        self._updated = np.zeros(0, dtype=np.float64)
        self._nterms = np.zeros(0, dtype=np.float64)
        self._family = np.zeros(0, dtype=np.int64)
        self._alive = np.zeros(0, dtype=bool)
        for rec in records:
            self.put(rec)

    def _grow(self, need: int) -> None:
        cap = len(self._alive)
        if need <= cap:
            return
        new = max(64, cap * 2, need)
        vectors = np.zeros((new, self._dim), dtype=np.float32)
        vectors[:cap] = self._vectors
        self._vectors = vectors
        for name in ("_updated", "_nterms", "_family", "_alive"):
            old = getattr(self, name)
            arr = np.zeros(new, dtype=old.dtype)
            arr[:cap] = old
            setattr(self, name, arr)

    def put(self, rec: StateRecord) -> None:
        slot = self._slot.get(rec.state_id)
        if slot is None:
            slot = len(self._recs)
            self._slot[rec.state_id] = slot
            self._recs.append(rec)
            self._terms.append(frozenset())
            self._vkeys.append("")
        else:
            self._unlink(slot)
            self._recs[slot] = rec
        if self._dim == 0 and rec.vector.size:
            self._dim = int(rec.vector.size)
            self._vectors = np.zeros((len(self._alive), self._dim), dtype=np.float32)
        self._grow(slot + 1)
        if self._dim:
            self._vectors[slot] = rec.vector if rec.vector.size == self._dim else 0.0
        self._updated[slot] = rec.updated_ts
        terms = frozenset(rec.terms)
        self._terms[slot] = terms
        self._nterms[slot] = len(terms)
        for t in terms:
            self._postings.setdefault(t, {})[slot] = None
        vkey = value_key(rec.value) if rec.value else ""
        self._vkeys[slot] = vkey
        if _nameable(vkey):
            self._by_value.setdefault(vkey, {})[slot] = None
        self._family[slot] = self._families.setdefault(rec.value_family, len(self._families))
        self._alive[slot] = True

    def remove(self, state_id: str) -> None:
        slot = self._slot.pop(state_id, None)
        if slot is not None:
            self._unlink(slot)
            self._recs[slot] = None
            self._alive[slot] = False

    def _unlink(self, slot: int) -> None:
        for t in self._terms[slot]:
            self._postings.get(t, {}).pop(slot, None)
        vkey = self._vkeys[slot]
        if vkey:
            self._by_value.get(vkey, {}).pop(slot, None)

    def search(self, qterms: set[str], vector: np.ndarray | None, *, k: int,
               families: set[str] | None, text: str, weights: Weights) -> list[RegistryHit]:
        n = len(self._recs)
        live = np.flatnonzero(self._alive[:n])
        if live.size == 0 or k <= 0:
            return []
        dense = np.zeros(n, dtype=np.float32)
        if vector is not None and self._dim:
            dense = self._vectors[:n] @ vector.astype(np.float32)
        lex = np.zeros(n, dtype=np.float64)
        if qterms:
            hits = [np.fromiter(p, dtype=np.int64, count=len(p))
                    for t in qterms if (p := self._postings.get(t))]
            if hits:
                shared = np.bincount(np.concatenate(hits), minlength=n).astype(np.float64)
                denom = np.minimum(float(len(qterms)), self._nterms[:n])
                np.divide(shared, denom, out=lex, where=(shared > 0) & (denom > 0))
        w = weights
        score = w.search_lexical * lex + w.search_dense * np.maximum(dense.astype(np.float64),
                                                                     0.0)
        if families:
            wanted = np.zeros(len(self._families), dtype=bool)
            wanted[[c for f, c in self._families.items() if f in families]] = True
            score += w.search_family * wanted[self._family[:n]]
        if text:
            tkey = value_key(text)
            named = [s for vkey, slots in self._by_value.items() if vkey in tkey for s in slots]
            if named:
                score[named] += w.search_value_named
        newest = float(self._updated[live].max())
        score += w.search_recency * np.exp(-(newest - self._updated[:n]) / 86400.0)
        order = live[np.argsort(-score[live], kind="stable")][:k]
        out: list[RegistryHit] = []
        for slot in order:
            rec = self._recs[slot]
            if rec is not None:
                out.append(RegistryHit(rec, float(score[slot]), float(lex[slot]),
                                       float(dense[slot])))
        return out


def chain_of(nodes: Sequence[EvidenceNode]) -> list[EvidenceNode]:
    """The supersession chain of one state: establishing and revising nodes in commit order."""
    return [
        n for n in sorted(nodes, key=lambda n: n.seq)
        if n.verdict in (Verdict.ESTABLISH, Verdict.REVISE)
    ]


def history(chain: Sequence[EvidenceNode]) -> list[EvidenceNode]:
    """A chain as people tell it: a revision that only makes the value more exact ("the
    21st" → "21 Oct", "Amara" → "Amara Obi", "Friday" → "Friday at 12:30") stands in for the
    value it refines, so the value before it is the one that was changed."""
    out: list[EvidenceNode] = []
    for n in chain:
        if out and n.value and out[-1].value and same_value(out[-1].value, n.value):
            out[-1] = n
            continue
        out.append(n)
    return out


def to_state(rec: StateRecord, chain: Sequence[EvidenceNode]) -> State:
    return State(
        state_id=rec.state_id, platform=rec.platform, space=rec.space, channel=rec.channel,
        topic=rec.topic, description=rec.description, value=rec.value,
        active_node_id=rec.active_node_id, revision_count=rec.revision_count,
        updated_at=from_epoch(rec.updated_ts),
        chain=[chain_entry(n) for n in chain],
    )


def chain_entry(n: EvidenceNode) -> ChainEntry:
    """One node of a chain as the reader and the front ends see it."""
    p = n.proposal
    return ChainEntry(
        node_id=n.node_id, message_id=n.message_id, value=n.value, speaker=n.speaker,
        ts=n.ts, quote=n.text, verdict=n.verdict, permalink=n.permalink,
        act=p.act if p is not None else "", reason=p.reason if p is not None else "",
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
    if not family and first.proposal is not None:
        # The verified proposal knows the kind of value where the text alone cannot tell
        # (a person claimed in the first person, a named choice).
        if first.proposal.source_quote == first.value:
            family = first.proposal.value_family
        else:
            family = next((f.value_family for f in first.proposal.facets
                           if f.source_quote == first.value), "")
    return StateRecord(
        state_id=state_id, platform=last.platform, space=last.space, channel=last.channel,
        topic=topic, description=describe(topic, last.value, last.passage), value=last.value,
        value_family=family, active_node_id=last.node_id, revision_count=len(chain) - 1,
        created_ts=to_epoch(first.ts), updated_ts=to_epoch(last.ts),
        vector=vectors.get(last.node_id, np.zeros(0, dtype=np.float32)),
    )


def describe(topic: str, value: str, passage: str) -> str:
    base = f"{topic}: {value}" if value else topic
    return f"{base} — {around(passage, value)[:200]}"


_SENTENCE_END = re.compile(r"[.!?;\n]\s")


def around(passage: str, value: str, *, short: int = 160) -> str:
    """The part of a long passage that states ``value``: its sentence, and in a long list
    its item after the list's header ("Weekly roll-up: ... Garnet SSO 21 Oct ..." is
    "Weekly roll-up: Garnet SSO 21 Oct"), so a state of a many-item message is described by
    its own words."""
    at = passage.lower().find(value.lower()) if value else -1
    if len(passage) <= short or at < 0:
        return passage
    start = max((m.end() for m in _SENTENCE_END.finditer(passage, 0, at)), default=0)
    end_m = _SENTENCE_END.search(passage, at + len(value))
    end = end_m.start() + 1 if end_m is not None else len(passage)
    sentence = passage[start:end]
    if len(sentence) <= short or ", " not in sentence:
        return sentence
    rel = at - start
    colon = sentence.rfind(": ", 0, rel)
    head = sentence[:colon + 1] + " " if 0 <= colon <= 80 else ""
    lo = sentence.rfind(", ", colon + 1 if head else 0, rel)
    hi = sentence.find(", ", rel + len(value))
    item = sentence[lo + 2 if lo >= 0 else (colon + 2 if head else 0):hi if hi >= 0 else None]
    return (head + item.strip()).strip()
