"""search_evidence: two-pass hybrid search, scoping, suppression, ranking and controls."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.embeddings import HashingEmbedder
from memory.models import Scope
from memory.reader.features import content_relevance
from memory.reader.rerank import FeatureReranker, Hit
from memory.reader.search import (
    ABLATE_RERANKER,
    ABLATE_VERSIONED_STATE,
    EvidenceSearch,
    rrf,
)
from tests.support.reader_memory import (
    EVERYTHING,
    PRIVATE_PHRASE,
    PUBLIC,
    T0,
    Memory,
    build,
    chat,
    noise,
)

QUESTION = "Which database should we pick for the analytics pipeline?"


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    return build(tmp_path, chat() + noise(20))


def search(mem: Memory, **kw: Any) -> EvidenceSearch:
    return EvidenceSearch(store=mem.store, embedder=mem.embedder, reranker=FeatureReranker(),
                          **kw)


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([[("a", 9.0), ("b", 1.0)], [("b", 5.0), ("c", 4.0)]], k=60)
    assert [nid for nid, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_two_pass_expansion_reaches_a_reply_sharing_no_words(mem: Memory) -> None:
    reply = mem.node("C1.11")  # "Honestly ClickHouse handles columnar aggregations ..."
    s = search(mem, first_pass=3, anchors=1)
    # One pass cannot see it: it shares no word with the question and noise does.
    assert reply not in s.hybrid_rrf(QUESTION, PUBLIC, k=6)
    assert reply not in s.bm25_only(QUESTION, PUBLIC, k=30)
    found = [n.node_id for n in s.search_evidence(QUESTION, PUBLIC, k=6)]
    assert mem.node("C1.10") in found
    assert reply in found


def test_structure_gives_no_bonus(mem: Memory) -> None:
    """The reply is in the pool but ranked by content: the question itself comes first."""
    hits = search(mem, first_pass=3, anchors=1).search_ranked(QUESTION, PUBLIC, k=10)
    ids = [h.node.node_id for h in hits]
    assert ids[0] == mem.node("C1.10")
    reply = ids.index(mem.node("C1.11"))
    assert all(hits[reply].score <= h.score for h in hits[:reply])


def test_results_are_chronological_and_ranked_versions_agree(mem: Memory) -> None:
    s = search(mem)
    nodes = s.search_evidence("atlas design review time", PUBLIC, k=5)
    ranked = s.search_ranked("atlas design review time", PUBLIC, k=5)
    assert len(nodes) == 5
    assert [n.ts for n in nodes] == sorted(n.ts for n in nodes)
    assert {n.node_id for n in nodes} == {h.node.node_id for h in ranked}
    assert [h.score for h in ranked] == sorted((h.score for h in ranked), reverse=True)


def test_exclude_suppresses_passages_already_returned(mem: Memory) -> None:
    s = search(mem)
    first = s.search_evidence("review time", PUBLIC, k=3)
    seen = {n.node_id for n in first}
    second = s.search_evidence("review time", PUBLIC, k=3, exclude=seen)
    assert second and not seen & {n.node_id for n in second}


@pytest.mark.parametrize("ablate", [frozenset(), frozenset({ABLATE_RERANKER}),
                                    frozenset({ABLATE_VERSIONED_STATE})])
def test_scope_excludes_private_channel(mem: Memory, ablate: frozenset[str]) -> None:
    s = search(mem, ablate=ablate)
    private = mem.node("C2.1", channel="C2")
    query = f"{PRIVATE_PHRASE} review HR drive"
    everything = [n.node_id for n in s.search_evidence(query, EVERYTHING, k=30)]
    assert private in everything  # findable when the scope includes it
    public = s.search_evidence(query, PUBLIC, k=30)
    assert public and all(n.channel == "C1" for n in public)
    for control in (s.bm25_only, s.dense_only, s.hybrid_rrf):
        assert private not in control(query, PUBLIC, k=30)
    assert s.search_evidence(query, Scope(platform="slack", space="other"), k=5) == []


def test_participants_and_time_window_constrain_results(mem: Memory) -> None:
    s = search(mem)
    by_alice = s.search_evidence("review", PUBLIC, participants=["Alice"], k=10)
    assert by_alice and {n.speaker for n in by_alice} == {"Alice"}
    late = s.search_evidence("review", PUBLIC, ts_from=T0 + timedelta(minutes=5), k=10)
    assert late and all(n.ts >= T0 + timedelta(minutes=5) for n in late)


def test_speaker_named_in_query_raises_their_messages(mem: Memory) -> None:
    s = search(mem)
    named = s.search_ranked("what did Bob suggest for the team outing", PUBLIC, k=40)
    plain = s.search_ranked("what was suggested for the team outing", PUBLIC, k=40)
    bob = mem.node("C1.6")

    def score(hits: list[Hit], node_id: str) -> float:
        return next(h.score for h in hits if h.node.node_id == node_id)

    by_id = {h.node.node_id: h for h in named}
    assert by_id[bob].features["speaker"] == 1.0
    assert by_id[mem.node("C1.5")].features["speaker"] == 0.0
    assert score(named, bob) - score(named, mem.node("C1.5")) > (
        score(plain, bob) - score(plain, mem.node("C1.5")))


def test_reranker_ablation_keeps_fused_order(mem: Memory) -> None:
    hits = search(mem, ablate=frozenset({ABLATE_RERANKER})).search_ranked(
        "release version", PUBLIC, k=5)
    assert hits
    assert all(h.score == h.fused for h in hits)
    assert [h.fused for h in hits] == sorted((h.fused for h in hits), reverse=True)


class RecordingReranker:
    """A real Reranker that prefers the latest message, recording what it was shown."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def rerank(self, query: str, hits: list[Hit], *, vectors: dict[str, np.ndarray],
               query_vector: np.ndarray, reference: object = None) -> list[float]:
        self.seen = [h.node.node_id for h in hits]
        return [h.node.ts.timestamp() for h in hits]


def test_custom_reranker_decides_the_order(mem: Memory) -> None:
    rr = RecordingReranker()
    s = EvidenceSearch(store=mem.store, embedder=mem.embedder, reranker=rr)
    hits = s.search_ranked("review", PUBLIC, k=3)
    assert rr.seen
    assert [h.node.ts for h in hits] == sorted((h.node.ts for h in hits), reverse=True)


def test_feature_reranker_scores_every_hit(mem: Memory) -> None:
    s = EvidenceSearch(store=mem.store, embedder=mem.embedder, reranker=FeatureReranker())
    hits = s.search_ranked("Which version is the release?", PUBLIC, k=4)
    assert all({"dense", "terms", "speaker", "date"} <= set(h.features) for h in hits)
    assert "2." in hits[0].node.passage


def _turn(i: int, speaker: str, text: str, *, answers: str | None = None) -> Hit:
    from memory.models import EvidenceNode
    node = EvidenceNode(node_id=f"n{i}", seq=i, platform="slack", space="T1", channel="C1",
                        message_id=str(i), speaker_id=speaker.lower(), speaker=speaker,
                        ts=T0 + timedelta(minutes=i), text=text,
                        context_ids=[answers] if answers else [])
    return Hit(node=node, fused=0.5, score=0.5)


def test_an_answer_inherits_most_of_its_questions_lead() -> None:
    rr = FeatureReranker(w_answer=0.8)
    question = _turn(1, "Jon", "Wow! What dance were you doing?")
    answer = _turn(2, "Gina", 'A contemporary piece called "Finding Freedom".', answers="n1")
    own_follow_up = _turn(3, "Jon", "Loved it.", answers="n1")  # the asker, not an answer
    after_statement = _turn(5, "Gina", "Nice.", answers="n4")
    statement = _turn(4, "Jon", "We won first place at regionals.")
    hits = [question, answer, own_follow_up, statement, after_statement]
    scores = [0.8, 0.3, 0.3, 0.8, 0.3]
    out = rr._answers_inherit(hits, scores)
    assert out[1] == pytest.approx(0.3 + 0.8 * 0.5)
    assert out[1] < out[0]  # still below the question it answers
    assert answer.features["answers"] == pytest.approx(0.8)
    assert out[2] == 0.3 and out[4] == 0.3  # same speaker; antecedent asks nothing
    assert [out[0], out[3]] == [0.8, 0.8]
    # An answer that already outscores its question keeps its own score.
    assert rr._answers_inherit(hits, [0.2, 0.6, 0.3, 0.8, 0.3])[1] == 0.6


class _RecordingEmbedder(HashingEmbedder):
    """The hashing embedder, keeping every text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed_batch(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed_batch(texts)


@pytest.mark.parametrize(("query", "embedded"), [
    ("what did Bob suggest for the team outing", "what did suggest for the team outing"),
    ("What are Bob's and alice’s plans?", "What are and plans?"),
    # Ivy speaks only in the private channel, outside this scope: her name is content here.
    ("what did Ivy draft", "what did Ivy draft"),
    ("Bobby tables", "Bobby tables"),  # a name word must match whole
    ("Bob?", "Bob?"),  # nothing but names: keep them
])
def test_speaker_names_in_scope_are_not_embedded(mem: Memory, query: str,
                                                 embedded: str) -> None:
    recorder = _RecordingEmbedder()
    EvidenceSearch(store=mem.store, embedder=recorder,
                   reranker=FeatureReranker()).search_ranked(query, PUBLIC, k=5)
    assert recorder.texts[0] == embedded
    # The whole question is embedded as well when names were left out (for relevance).
    assert recorder.texts[1:] == ([query] if embedded != query else [])


def test_relevance_gate_reads_the_whole_question_names_included(mem: Memory) -> None:
    """Ranking leaves names out; abstention must not: a question about what named people
    said is about their messages."""
    query = "what did Bob suggest for the team outing"
    hits = search(mem).search_ranked(query, PUBLIC, k=5)
    whole = mem.embedder.embed_batch([query])[0]
    vectors = mem.store.node_vectors([h.node.node_id for h in hits])
    for h in hits:
        dense = float(vectors[h.node.node_id] @ whole)
        assert h.features["relevance"] == pytest.approx(
            content_relevance(dense, h.features["terms"]))
    bob = next(h for h in hits if h.node.node_id == mem.node("C1.6"))
    assert bob.features["relevance"] > bob.features["dense"] * 0.5 + bob.features["terms"] * 0.5


def test_speaker_words_are_scoped_and_cover_names_and_ids(mem: Memory) -> None:
    words = ["bob", "ivy", "zed", "tables", "alice"]
    assert mem.store.speaker_words(words, PUBLIC) == {"bob", "zed", "alice"}
    assert mem.store.speaker_words(words, EVERYTHING) == {"bob", "ivy", "zed", "alice"}
    assert mem.store.speaker_words([], EVERYTHING) == set()


def test_a_search_reads_rows_in_few_queries(mem: Memory) -> None:
    """Dense hits come with their rows; BM25-only hits are read with the anchors'
    neighbours. Each LanceDB query costs milliseconds before it reads a row."""
    with mem.store.inspection().counting_queries() as calls:
        hits = search(mem).search_ranked(QUESTION, PUBLIC, k=6)
    assert hits
    assert calls.count("vector_search_with_vectors") == 1
    assert "vector_search" not in calls and "query_nodes" not in calls
    # The anchors' neighbours (with the unread hits), plus one read only when an anchor
    # was found by BM25 alone.
    assert 1 <= calls.count("query_nodes_with_vectors") <= 2
