"""search_evidence: two-pass hybrid search with structural scoping (paper §3.5, A.1).

Pass 1 runs hybrid search (Tantivy BM25 + LanceDB vectors, fused by reciprocal rank) over
the whole scope and keeps a few anchors. The anchors' topic buckets (nodes of the same
state), reply/thread neighbours and supersession neighbours, together with the best pass-1
hits, form a candidate pool; pass 2 reapplies hybrid search inside that pool. Candidates are
then reranked and the top k are returned in chronological order.

Structure narrows *where* to look; content relevance ranks. A neighbour enters the pool
because of structure but is ranked only by what it says: no score is ever added for being a
neighbour. Scope is passed into every store query, so nothing outside it can come back.

The one-shot controls used by the evaluation (:meth:`EvidenceSearch.bm25_only`,
:meth:`~EvidenceSearch.dense_only`, :meth:`~EvidenceSearch.hybrid_rrf`) rank the same
store in one pass, with neither expansion nor reranking.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, datetime, time, timedelta

import numpy as np

from memory.dates import find_date_expressions, resolve_date
from memory.embeddings import Embedder
from memory.models import EvidenceNode, Scope
from memory.reader.features import content_relevance, key_terms, name_words, query_features
from memory.reader.rerank import Hit, Reranker
from memory.store import Window
from memory.store.ports import SearchStore
from memory.text import STOPWORDS, content_terms, tokens

logger = logging.getLogger(__name__)

RRF_K = 60
# Ablation names understood by the read path (paper A.3).
ABLATE_RERANKER = "reranker"
ABLATE_VERSIONED_STATE = "versioned-state"
ABLATE_SINGLE_ROUND = "single-round"
ABLATE_VERIFICATION = "verification"
ABLATIONS = frozenset(
    {ABLATE_RERANKER, ABLATE_VERSIONED_STATE, ABLATE_SINGLE_ROUND, ABLATE_VERIFICATION}
)


def rrf(rankings: Iterable[Sequence[tuple[str, float]]], *, k: int = RRF_K) -> list[
        tuple[str, float]]:
    """Reciprocal-rank fusion of ranked (id, score) lists: sum of 1 / (k + rank)."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, (node_id, _) in enumerate(ranking, start=1):
            scores[node_id] = scores.get(node_id, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


class EvidenceSearch:
    """Hybrid evidence search over one store's :class:`SearchStore` port.

    ``first_pass`` is how many pass-1 hits join the pool, ``anchors`` how many of them
    expand it through structure (their topic buckets, reply/thread and supersession
    neighbours, nearest in time first, up to ``max_pool`` candidates), ``rerank_depth`` how
    many pass-2 hits the reranker sees. With ``date_scoping`` and a reference day, the days a
    query names ("on 8 May", "in June") also contribute pass-1 hits from inside them.
    """

    def __init__(
        self,
        *,
        store: SearchStore,
        embedder: Embedder,
        reranker: Reranker,
        anchors: int = 4,
        first_pass: int = 30,
        rerank_depth: int = 60,
        max_pool: int = 400,
        date_scoping: bool = True,
        ablate: frozenset[str] = frozenset(),
    ) -> None:
        self.store = store
        self.ablate = ablate
        self.date_scoping = date_scoping
        self.embedder = embedder
        self.reranker: Reranker = reranker
        self.anchors = anchors
        self.first_pass = first_pass
        self.rerank_depth = rerank_depth
        self.max_pool = max_pool

    # ---- the tool ------------------------------------------------------------------------
    def search_evidence(
        self,
        query: str,
        scope: Scope,
        *,
        participants: Sequence[str] | None = None,
        ts_from: datetime | None = None,
        ts_to: datetime | None = None,
        k: int = 10,
        exclude: Collection[str] = frozenset(),
        reference: datetime | None = None,
    ) -> list[EvidenceNode]:
        """The top ``k`` passages by relevance, presented oldest first; ``exclude`` names
        passages already returned for this question (they are suppressed)."""
        hits = self.search_ranked(query, scope, participants=participants, ts_from=ts_from,
                                  ts_to=ts_to, k=k, exclude=exclude,
                                  reference=reference)
        return [h.node for h in sorted(hits, key=lambda h: (h.node.ts, h.node.seq))]

    def search_ranked(
        self,
        query: str,
        scope: Scope,
        *,
        participants: Sequence[str] | None = None,
        ts_from: datetime | None = None,
        ts_to: datetime | None = None,
        k: int = 10,
        exclude: Collection[str] = frozenset(),
        reference: datetime | None = None,
    ) -> list[Hit]:
        """Like :meth:`search_evidence` but ranked by relevance, best first, with scores.

        ``reference`` is the day the question is asked (for dates it mentions)."""
        if not query.strip() or k <= 0:
            return []
        window = Window(
            speakers=tuple(participants) if participants else None,
            ts_from=ts_from, ts_to=ts_to,
        )
        qvec, whole = self._query_vectors(query, scope)
        # Rows and vectors are read once, as the pool grows: dense hits come with theirs,
        # pass 2 ranks the pool by the exact cosine of those vectors (a pool is a few
        # hundred rows) instead of asking LanceDB again, and the reranker reads the same rows.
        nodes: dict[str, EvidenceNode] = {}
        vectors: dict[str, np.ndarray] = {}
        pool = self._pool(query, qvec, scope, window, exclude=exclude,
                          reference=reference, nodes=nodes, vectors=vectors)
        if not pool:
            return []
        members = [nid for nid in pool if nid in nodes]
        dense = sorted(((nid, float(vectors[nid] @ qvec)) for nid in members),
                       key=lambda kv: (-kv[1], kv[0]))
        pool_window = Window(
            speakers=window.speakers, ts_from=ts_from, ts_to=ts_to, node_ids=tuple(members)
        )
        lexical = self.store.lexical_search(query, scope, k=len(members),
                                             window=pool_window)
        pass2 = rrf([dense, lexical])
        ranked = [(nid, s) for nid, s in pass2 if nid not in exclude]
        ranked = ranked[: max(self.rerank_depth, k)]
        hits = [Hit(node=nodes[nid], fused=s, score=s) for nid, s in ranked]
        if ABLATE_RERANKER not in self.ablate and hits:
            scores = self.reranker.rerank(query, hits, vectors=vectors, query_vector=qvec,
                                          reference=reference)
            for h, s in zip(hits, scores, strict=True):
                h.score = s
            hits.sort(key=lambda h: (-h.score, h.node.seq))
        _content_relevance(query, hits, vectors, whole, reference)
        logger.debug("search_evidence: pool=%d returned=%d", len(pool), min(k, len(hits)))
        return hits[:k]

    # ---- one-shot controls ---------------------------------------------------------------
    def bm25_only(self, query: str, scope: Scope, *, k: int = 10) -> list[str]:
        """Node ids of the top ``k`` BM25 hits in scope (control: no expansion, no rerank)."""
        return [nid for nid, _ in self.store.lexical_search(query, scope, k=k)]

    def dense_only(self, query: str, scope: Scope, *, k: int = 10) -> list[str]:
        """Node ids of the top ``k`` vector hits in scope."""
        return [nid for nid, _ in self.store.vector_search(self._embed(query), scope, k=k)]

    def hybrid_rrf(self, query: str, scope: Scope, *, k: int = 10) -> list[str]:
        """Node ids of the top ``k`` of BM25 and vector rankings fused by reciprocal rank."""
        depth = max(k, 50)
        fused = self._hybrid(query, self._embed(query), scope, None, depth)
        return [nid for nid, _ in fused[:k]]

    # ---- internals ----------------------------------------------------------------------
    def _query_vectors(self, query: str, scope: Scope) -> tuple[np.ndarray, np.ndarray]:
        """The vector ranking compares (of the query's topic) and the one the abstention
        gate compares (of the whole query)."""
        topic = self._topic(query, scope)
        # Ranking compares the topic; the abstention gate (content relevance) the whole
        # question, names included, as it was calibrated: "How does Chandler call Doug?" is
        # about what Chandler and Doug said, so without the names nothing looks relevant.
        if topic == query:
            qvec = self._embed(query)
            return qvec, qvec
        qvec, whole = np.asarray(self.embedder.embed_batch([topic, query]), dtype=np.float32)
        return qvec, whole

    def _pool(self, query: str, qvec: np.ndarray, scope: Scope, window: Window, *,
              exclude: Collection[str], reference: datetime | None,
              nodes: dict[str, EvidenceNode], vectors: dict[str, np.ndarray]
              ) -> dict[str, None]:
        """Pass 1 and structure: the candidate ids (in insertion order) whose rows and
        vectors are added to ``nodes``/``vectors``; empty when pass 1 finds nothing."""
        depth = self.first_pass + len(exclude)
        pass1 = self._hybrid_read(query, qvec, scope, window, depth, nodes, vectors)
        if not pass1:
            return {}
        top_ids = [nid for nid, _ in pass1]
        pool = dict.fromkeys(top_ids)
        for nid in self._dated(query, qvec, scope, window, reference, nodes, vectors):
            pool.setdefault(nid)
        anchor_ids = [n for n in top_ids if n not in exclude][: self.anchors] or top_ids[
            : self.anchors]
        self._read([nid for nid in anchor_ids if nid not in nodes], scope, nodes, vectors)
        anchor_nodes = [nodes[nid] for nid in anchor_ids if nid in nodes]
        # Hits only BM25 found are read with the anchors' neighbours, in one query.
        unread = set(pool).difference(nodes)
        found, found_vectors = self.store.neighbours(anchor_nodes, scope, include=list(unread))
        vectors.update(found_vectors)
        nodes.update((n.node_id, n) for n in found if n.node_id in unread)
        near = self._neighbours(anchor_nodes, [n for n in found if n.node_id not in unread],
                                window)
        for n in near:
            if len(pool) >= self.max_pool:
                break
            if n.node_id not in pool:
                pool[n.node_id] = None
                nodes[n.node_id] = n
        return pool

    def _embed(self, text: str) -> np.ndarray:
        return np.asarray(self.embedder.embed_batch([text])[0], dtype=np.float32)

    def _topic(self, query: str, scope: Scope) -> str:
        """``query`` without the names of speakers in ``scope``: what is embedded.

        Every passage is embedded with its speaker's name, so a name in the query makes
        dense similarity favour that speaker's shortest turns ("Bye Joanna!" for "What
        nickname does Nate use for Joanna?"). Who spoke is matched as a feature instead
        (LoCoMo dev R@10 .800 → .813). A query that is only names keeps them."""
        words = [w for w in name_words(query) if w not in STOPWORDS]
        names = self.store.speaker_words(words, scope) if words else set()
        if not names:
            return query
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        topic = " ".join(re.sub(rf"(?<![\w'’])(?:{alternatives})(?:['’]s?)?(?![\w'’])", " ",
                                query, flags=re.IGNORECASE).split())
        return topic if any(ch.isalnum() for ch in topic) else query

    def _hybrid(self, query: str, qvec: np.ndarray, scope: Scope, window: Window | None,
                depth: int) -> list[tuple[str, float]]:
        if depth <= 0:
            return []
        dense = self.store.vector_search(qvec, scope, k=depth, window=window)
        lexical = self.store.lexical_search(query, scope, k=depth, window=window)
        return rrf([dense, lexical])

    def _hybrid_read(self, query: str, qvec: np.ndarray, scope: Scope, window: Window,
                     depth: int, nodes: dict[str, EvidenceNode],
                     vectors: dict[str, np.ndarray]) -> list[tuple[str, float]]:
        """:meth:`_hybrid`, adding the dense hits' rows and vectors to ``nodes``/``vectors``."""
        dense, found, found_vectors = self.store.vector_search_nodes(qvec, scope, k=depth,
                                                                    window=window)
        nodes.update((n.node_id, n) for n in found)
        vectors.update(found_vectors)
        return rrf([dense, self.store.lexical_search(query, scope, k=depth, window=window)])

    def _read(self, node_ids: Sequence[str], scope: Scope, nodes: dict[str, EvidenceNode],
              vectors: dict[str, np.ndarray]) -> None:
        if node_ids:
            found, found_vectors = self.store.search_nodes(node_ids, scope)
            nodes.update((n.node_id, n) for n in found)
            vectors.update(found_vectors)

    def _dated(self, query: str, qvec: np.ndarray, scope: Scope, window: Window,
               reference: datetime | None, nodes: dict[str, EvidenceNode],
               vectors: dict[str, np.ndarray]) -> list[str]:
        """Pass-1 hits inside the days the query names ("on 8 May", "in June"), a day of
        margin either side: time is metadata scoping, like participants. The dense hits'
        rows join ``nodes``."""
        if reference is None or not self.date_scoping:
            return []
        out: list[str] = []
        for expr in find_date_expressions(query)[:2]:
            res = resolve_date(expr, reference)
            if res is None:
                continue
            lo = datetime.combine(res.start - timedelta(days=1), time.min, tzinfo=UTC)
            hi = datetime.combine(res.end + timedelta(days=1), time.max, tzinfo=UTC)
            if window.ts_from is not None:
                lo = max(lo, window.ts_from)
            if window.ts_to is not None:
                hi = min(hi, window.ts_to)
            if lo > hi:
                continue
            dated = Window(speakers=window.speakers, ts_from=lo, ts_to=hi)
            out += [nid for nid, _ in self._hybrid_read(
                query, qvec, scope, dated, max(1, self.first_pass // 2), nodes, vectors)]
        return out

    def _neighbours(self, anchors: Sequence[EvidenceNode], found: Sequence[EvidenceNode],
                    window: Window) -> list[EvidenceNode]:
        """The structural neighbours ``found`` for the anchors that the window admits,
        nearest in time first.

        Without versioned state (ablation) only reply and thread relations count: topic
        buckets and supersession links are derived state views."""
        if not anchors:
            return []
        keep = [n for n in found if _admissible(n, window)
                and (ABLATE_VERSIONED_STATE not in self.ablate or _reply_or_thread(n, anchors))]
        # Near neighbours first, so a capped pool keeps the local context of each anchor.
        def distance(n: EvidenceNode) -> float:
            return min(abs((n.ts - a.ts).total_seconds()) for a in anchors)
        return sorted(keep, key=distance)


def _content_relevance(query: str, hits: Sequence[Hit], vectors: dict[str, np.ndarray],
                       qvec: np.ndarray, reference: datetime | None) -> None:
    """Set ``features["relevance"]`` (absolute, reranker-independent) on every hit, from
    ``qvec`` and the term features the reranker left (computed here when it left none)."""
    feats = None if all("terms" in h.features for h in hits) else query_features(
        query, [h.node for h in hits], reference=reference)
    for h in hits:
        vec = vectors.get(h.node.node_id)
        dense = float(vec @ qvec) if vec is not None else 0.0
        terms = h.features["terms"] if feats is None else feats.score(h.node)["terms"]
        h.features["relevance"] = content_relevance(dense, terms)


def expand_query(question: str, anchors: Sequence[Hit], *, terms: int = 4) -> str:
    """``question`` with the anchors' speakers it does not name and their ``terms`` most
    frequent key terms it lacks: the query of a question's second search round."""
    qterms = set(content_terms(question))
    qtokens = set(tokens(question))
    extra: list[str] = []
    for h in anchors:
        speaker = h.node.speaker
        if speaker and not set(tokens(speaker)) & qtokens and speaker not in extra:
            extra.append(speaker)
    extra += key_terms([h.node for h in anchors], exclude=qterms, limit=terms)
    return f"{question} {' '.join(extra)}".strip() if extra else question


def _admissible(node: EvidenceNode, window: Window) -> bool:
    """Participant and time constraints also bound the pool (neighbours come unfiltered)."""
    if window.speakers is not None and node.speaker not in window.speakers and (
        node.speaker_id not in window.speakers
    ):
        return False
    if window.ts_from is not None and node.ts < window.ts_from:
        return False
    return not (window.ts_to is not None and node.ts > window.ts_to)


def _reply_or_thread(node: EvidenceNode, anchors: Sequence[EvidenceNode]) -> bool:
    for a in anchors:
        if node.reply_to_node == a.node_id or a.reply_to_node == node.node_id:
            return True
        threads = {t for t in (a.thread_id, a.message_id) if t}
        if node.thread_id is not None and node.thread_id in threads:
            return True
    return False
