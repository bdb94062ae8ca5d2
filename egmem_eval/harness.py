"""``egmem eval``: retrieval recall and answer F1 of egmem against one-shot controls.

Each conversation of a benchmark is ingested into its own space through the real write path
(:class:`~memory.writer.Writer` with the offline proposer), then every question is answered by
the :class:`~memory.reader.offline.OfflineReader` and ranked by three one-shot controls over
the original turns (BM25, dense, hybrid RRF; no rewrites, no expansion, no reranking). Recall
counts gold evidence (message ids) among the first k distinct nodes a system gathered. LoCoMo
category 5 (adversarial, unanswerable) is excluded from recall but kept for answer F1.
Answer F1 is token F1 of the reader's short answer (``Answer.short``: a state's value, a
resolved date, the answering clause), or of its full answer when it has none.
"""

from __future__ import annotations

import json
import logging
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from egmem_eval.datasets import (
    DatasetName,
    EvalConversation,
    EvalDataset,
    EvalQuestion,
    load_dataset,
)
from egmem_eval.metrics import DEFAULT_KS, Tally
from memory.embeddings import Embedder, MiniLMEmbedder
from memory.models import Answer, EvidenceNode, Scope
from memory.proposer import OfflineProposer
from memory.reader.offline import OfflineReader
from memory.reader.rerank import FeatureReranker
from memory.reader.search import (
    ABLATE_VERIFICATION,
    ABLATIONS,
    EvidenceSearch,
)
from memory.reader.tools import ReaderTools
from memory.store import open_store
from memory.store.ports import NodeStore, Store
from memory.writer import Writer, open_writer

logger = logging.getLogger(__name__)

SYSTEMS = ("egmem", "bm25", "dense", "hybrid")
EXCLUDED_FROM_RECALL = {"locomo": {"5"}}
Progress = Callable[[int, int], None]


def run_eval(
    dataset_name: DatasetName,
    path: Path | str,
    *,
    k: int = 10,
    limit: int | None = None,
    ablate: frozenset[str] = frozenset(),
    embedder: Embedder | None = None,
    data_dir: Path | None = None,
    trace: Path | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Evaluate on ``dataset_name`` read from ``path``; returns the JSON-able result.

    ``limit`` caps the number of questions (conversations are ingested only as needed);
    ``ablate`` names components to disable (see :data:`~memory.reader.search.ABLATIONS`);
    ``data_dir`` keeps the built stores there (default: a temporary folder, removed after);
    ``trace`` writes one JSON line per question (gold, gathered ids, answer) for analysis.
    Raises :class:`~memory.errors.InputError` for an unreadable dataset and ``ValueError``
    for an unknown ablation.
    """
    unknown = set(ablate) - ABLATIONS
    if unknown:
        raise ValueError(f"unknown ablation(s) {sorted(unknown)}; known: {sorted(ABLATIONS)}")
    dataset = load_dataset(dataset_name, Path(path))
    emb = embedder if embedder is not None else MiniLMEmbedder()
    own_dir = data_dir is None
    root = Path(tempfile.mkdtemp(prefix="egmem-eval-")) if data_dir is None else data_dir
    try:
        return _run(dataset, emb, root, k=k, limit=limit, ablate=frozenset(ablate),
                    trace=trace, progress=progress)
    finally:
        if own_dir:
            shutil.rmtree(root, ignore_errors=True)


def _run(dataset: EvalDataset, embedder: Embedder, root: Path, *, k: int, limit: int | None,
         ablate: frozenset[str], trace: Path | None, progress: Progress | None
         ) -> dict[str, Any]:
    root.mkdir(parents=True, exist_ok=True)
    systems = _Systems.open(root, embedder, k=k, ablate=ablate)
    excluded = EXCLUDED_FROM_RECALL.get(dataset.name, set())
    tally = Tally(ks=DEFAULT_KS)
    total = dataset.question_count if limit is None else min(limit, dataset.question_count)
    done = 0
    reader_seconds = 0.0
    ingest_seconds = 0.0
    trace_fh = trace.open("w", encoding="utf-8") if trace is not None else None
    try:
        for conv in dataset.conversations:
            if done >= total:
                break
            started = time.perf_counter()
            systems.ingest(conv)
            ingest_seconds += time.perf_counter() - started
            scope = Scope(platform=conv.messages[0].platform if conv.messages else None,
                          space=conv.space)
            to_message = {m.key.node_id(): m.id for m in conv.messages}
            for q in conv.questions[: total - done]:
                gold = q.gold_ids if q.category not in excluded else []
                t0 = time.perf_counter()
                answer = systems.reader.answer(q.question, scope=scope,
                                               reference=q.reference_date)
                reader_seconds += time.perf_counter() - t0
                ranked = systems.ranked(q.question, answer, scope, to_message)
                prediction = answer.short or answer.answer
                for system in SYSTEMS:
                    tally.add(system, category=q.category, ranked_ids=ranked[system],
                              gold=gold, prediction=prediction if system == "egmem" else None,
                              reference=q.answer)
                if trace_fh is not None:
                    trace_fh.write(_trace_line(q, gold, answer, ranked) + "\n")
                done += 1
                if progress is not None:
                    progress(done, total)
    finally:
        if trace_fh is not None:
            trace_fh.close()
        systems.close()
    return _result(dataset, tally, done, reader_seconds, ingest_seconds, k=k, ablate=ablate,
                   embedder=embedder)


@dataclass
class _Systems:
    """egmem (its own store, writer and reader, built with the ablations) and the one-shot
    controls over a second store holding the original turns."""

    store: Store
    raw: Store
    embedder: Embedder
    writer: Writer
    reader: OfflineReader
    controls: EvidenceSearch

    @classmethod
    def open(cls, root: Path, embedder: Embedder, *, k: int, ablate: frozenset[str]
             ) -> _Systems:
        store = open_store(uri=str(root / "egmem"), lexical_dir=root / "egmem-lex",
                           dim=embedder.dim)
        raw = open_store(uri=str(root / "raw"), lexical_dir=root / "raw-lex", dim=embedder.dim)
        writer = open_writer(store=store, embedder=embedder, proposer=OfflineProposer(),
                             verification=ABLATE_VERIFICATION not in ablate)
        # Ablations are construction options: the search, the tools and the reader are
        # built without the disabled components.
        search = EvidenceSearch(store=store, embedder=embedder, reranker=FeatureReranker(),
                                ablate=ablate)
        tools = ReaderTools(store=store, embedder=embedder, search=search, ablate=ablate)
        reader = OfflineReader(tools=tools, k=k)
        controls = EvidenceSearch(store=raw, embedder=embedder, reranker=FeatureReranker())
        return cls(store=store, raw=raw, embedder=embedder, writer=writer, reader=reader,
                   controls=controls)

    def ingest(self, conv: EvalConversation) -> None:
        self.writer.write(conv.messages)
        _ingest_raw(self.raw, self.embedder, conv)

    def ranked(self, question: str, answer: Answer, scope: Scope,
               to_message: dict[str, str]) -> dict[str, list[str]]:
        depth = max(DEFAULT_KS)
        c = self.controls
        return {
            "egmem": _messages(answer.gathered, to_message),
            "bm25": _messages(c.bm25_only(question, scope, k=depth), to_message),
            "dense": _messages(c.dense_only(question, scope, k=depth), to_message),
            "hybrid": _messages(c.hybrid_rrf(question, scope, k=depth), to_message),
        }

    def close(self) -> None:
        self.store.close()
        self.raw.close()


def _trace_line(q: EvalQuestion, gold: list[str], answer: Answer,
                ranked: dict[str, list[str]]) -> str:
    return json.dumps({
        "qid": q.qid, "category": q.category, "question": q.question,
        "answer": q.answer, "prediction": answer.short or answer.answer,
        "full_answer": answer.answer,
        "abstained": answer.abstained, "gold": gold,
        "egmem": ranked["egmem"][:max(DEFAULT_KS)], "hybrid": ranked["hybrid"],
    })


def _messages(node_ids: Sequence[str], to_message: dict[str, str]) -> list[str]:
    return [to_message[n] for n in node_ids if n in to_message]


def _ingest_raw(store: NodeStore, embedder: Embedder, conv: EvalConversation) -> None:
    """The controls' corpus: original turns with their speaker, no rewrite, no structure."""
    if not conv.messages:
        return
    nodes = [
        EvidenceNode(
            node_id=m.key.node_id(), seq=i, platform=m.platform, space=m.space,
            channel=m.channel, channel_name=m.channel_name or "", message_id=m.id,
            thread_id=m.thread_id, speaker_id=m.user, speaker=m.speaker, ts=m.ts,
            text=f"{m.speaker}: {m.text}",
        )
        for i, m in enumerate(conv.messages)
    ]
    vectors = np.asarray(embedder.embed_batch([n.text for n in nodes]), dtype=np.float32)
    store.put_nodes(nodes, vectors)


def _result(dataset: EvalDataset, tally: Tally, questions: int, reader_seconds: float,
            ingest_seconds: float, *, k: int, ablate: frozenset[str], embedder: Embedder
            ) -> dict[str, Any]:
    metrics = [f"recall@{x}" for x in DEFAULT_KS] + ["f1"]
    systems: dict[str, Any] = {}
    categories: dict[str, Any] = {}
    for system in SYSTEMS:
        if system not in tally.systems:
            continue
        summary = tally.summary(system)
        systems[system] = {m: summary[m] for m in metrics}
        systems[system]["recall_questions"] = summary["recall_count"]
        for cat in tally.categories():
            try:
                cs = tally.summary(system, cat)
            except KeyError:
                continue
            entry = {m: cs[m] for m in metrics}
            entry["questions"] = cs["count"]
            entry["recall_questions"] = cs["recall_count"]
            categories.setdefault(cat, {})[system] = entry
    if "egmem" not in systems or all(
            systems[s]["f1"] is None for s in systems if s != "egmem"):
        for s in systems:
            if s != "egmem":
                systems[s].pop("f1", None)
        for cat in categories.values():
            for s, entry in cat.items():
                if s != "egmem":
                    entry.pop("f1", None)
    return {
        "dataset": dataset.name,
        "questions": questions,
        "k": k,
        "ablate": sorted(ablate),
        "embedder": embedder.name,
        "systems": systems,
        "categories": categories,
        "skipped_evidence": dataset.skipped_evidence,
        "seconds_per_question": reader_seconds / questions if questions else 0.0,
        "ingest_seconds": ingest_seconds,
        "messages": dataset.message_count,
        "finished": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"


def render_markdown(result: dict[str, Any]) -> str:
    """The result as Markdown: a systems table, then one table per category."""
    cols = ["recall@5", "recall@10", "recall@20", "f1"]
    head = "| system | R@5 | R@10 | R@20 | F1 |\n|---|---:|---:|---:|---:|"
    ablate = ", ".join(result.get("ablate") or []) or "none"
    lines = [
        f"**{result['dataset']}** — {result['questions']} questions, k={result.get('k')}, "
        f"ablations: {ablate}, embedder: {result.get('embedder', '?')}; "
        f"{result['seconds_per_question'] * 1000:.0f} ms per question (reader), "
        f"{result['skipped_evidence']} gold evidence ids skipped.",
        "",
        head,
    ]
    for name, row in result["systems"].items():
        lines.append(f"| {name} | " + " | ".join(_fmt(row.get(c)) for c in cols) + " |")
    lines += ["", "| category | system | n (recall) | R@5 | R@10 | R@20 | F1 |",
              "|---|---|---:|---:|---:|---:|---:|"]
    for cat, by_system in result["categories"].items():
        for name, row in by_system.items():
            lines.append(
                f"| {cat} | {name} | {row['questions']} ({row['recall_questions']}) | "
                + " | ".join(_fmt(row.get(c)) for c in cols) + " |"
            )
    return "\n".join(lines) + "\n"
