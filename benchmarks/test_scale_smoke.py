"""Smoke tests for the scale benchmarks (``make bench`` runs them; ``make test`` does not)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_ingest  # noqa: E402
import bench_search  # noqa: E402
import run_all  # noqa: E402
import synth  # noqa: E402

from memory.models import Delete, Edit, Message, Verdict  # noqa: E402

pytestmark = pytest.mark.slow


def test_corpus_is_deterministic_and_shaped_like_team_chat() -> None:
    a = synth.generate(3000, seed=3)
    b = synth.generate(3000, seed=3)
    assert a.events == b.events and a.facts == b.facts
    assert synth.generate(3000, seed=4).events != a.events
    msgs = [e for e in a.events if isinstance(e, Message)]
    assert len(msgs) == a.messages == 3000
    assert len({m.channel for m in msgs}) > 10
    assert 0.2 < a.replies / a.messages < 0.5
    assert a.revisions > 0 and a.fact_log
    assert any(isinstance(e, Edit) for e in a.events)
    assert any(isinstance(e, Delete) for e in a.events)
    # Edits and deletes only name messages that arrived before them.
    seen: set[str] = set()
    for e in a.events:
        if isinstance(e, Message):
            seen.add(e.id)
        else:
            assert e.id in seen
    qs = synth.questions(a, 20)
    assert len(qs) == 20
    assert all(q.scope.space and q.scope.channels for q in qs)


def test_live_mix_ingest_applies_edits_and_deletes(tmp_path: Path) -> None:
    res = bench_ingest.run_ingest(800, seed=6, data_dir=tmp_path, embedder="hashing",
                                  mix="live")
    assert res["edits"] > 0 and res["deletes"] > 0
    assert res["committed"] == 800 and res["failed"] == 0
    assert res["evidence_nodes"] == 800 - res["deletes"]


def test_ingest_then_search_end_to_end(tmp_path: Path) -> None:
    data = tmp_path / "d"
    data.mkdir()
    res = bench_ingest.run_ingest(600, seed=5, data_dir=data, embedder="hashing")
    assert res["committed"] == res["evidence_nodes"] == 600 and res["failed"] == 0
    assert res["edits"] == res["deletes"] == 0
    assert res["msgs_per_s"] > 0
    out = bench_search.run_size(600, seed=5, builder="writer", data=data, work=tmp_path,
                                embedder_kind="hashing", queries=10, pool=600, pool_from=None)
    assert out["nodes"] == res["evidence_nodes"]
    assert out["queries"] == 10
    assert out["search_p95_ms"] >= out["search_p50_ms"] > 0
    assert out["hit_at_10"] > 0.5


def test_direct_builder_links_chains_and_replies(tmp_path: Path) -> None:
    out = bench_search.run_size(1500, seed=5, builder="direct", data=None, work=tmp_path,
                                embedder_kind="hashing", queries=5, pool=500, pool_from=None)
    assert out["nodes"] == 1500 and out["pool"] == 500
    from memory.store import open_store

    store = open_store(uri=str(tmp_path / "search_1500" / "lance"),
                       lexical_dir=tmp_path / "search_1500" / "lexical", dim=384)
    rows = store.inspection().node_rows(["verdict", "supersedes", "state_id", "reply_to_node"])
    revisions = [r for r in rows if r["verdict"] == Verdict.REVISE.value]
    assert revisions and all(r["supersedes"] and r["state_id"] for r in revisions)
    replies = [r for r in rows if r["reply_to_node"] is not None]
    parents = store.get_nodes([r["reply_to_node"] for r in replies])
    assert replies and len(parents) == len({r["reply_to_node"] for r in replies})
    store.close()


def test_results_section_rewrite_keeps_other_sections(tmp_path: Path) -> None:
    path = tmp_path / "RESULTS.md"
    run_all.write_section(path, "## Scale\n\nfirst\n")
    text = path.read_text()
    assert run_all.START in text and "first" in text
    path.write_text("# Results\n\n## Quality\n\nkeep me\n\n" + text.split("\n", 1)[1]
                    + "\n## LLM\n\nkeep me too\n")
    run_all.write_section(path, "## Scale\n\nsecond\n")
    text = path.read_text()
    assert "second" in text and "first" not in text
    assert "keep me\n" in text and "keep me too" in text
    assert text.count(run_all.START) == 1 and text.count(run_all.END) == 1


def test_llm_reader_bench_on_the_sample(tmp_path: Path) -> None:
    import llm_reader_bench

    from memory.store import open_store

    store_dir = tmp_path / "store"
    corpus, rows, md = llm_reader_bench.run(
        tmp_path / "absent.json", embedder_kind="hashing", conversations=1, questions=4,
        rerank=True, work=store_dir)
    out = tmp_path / "llm_reader.md"
    out.write_text(md)
    assert "bundled sample" in corpus.name and len(corpus.questions) == 4
    assert [r["questions"] for r in rows] == [4, 4]
    for r in rows:
        reader = r["ops"]["reader"]
        assert reader["calls"] >= 1 and r["rounds_mean"] >= 1
        assert reader["prompt_tokens"] > 0 and reader["completion_tokens"] > 0
        assert reader["est_prompt_tokens"] > 0
        assert r["ops"]["reader"]["failures"] == 0
    assert "rerank" not in rows[0]["ops"] and rows[1]["ops"]["rerank"]["calls"] >= 1
    cited = {c for r in rows for q in r["per_question"] for c in q["cited"]}
    assert cited and all(r["cited_share"] > 0 for r in rows)
    store = open_store(uri=str(store_dir / "db"), lexical_dir=store_dir / "lex", dim=384)
    try:
        assert {n.node_id for n in store.get_nodes(sorted(cited))} == cited
    finally:
        store.close()
    assert "| ideal | 4 |" in out.read_text()
