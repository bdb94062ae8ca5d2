"""search_evidence latency at scale, beside its floors (raw LanceDB vector and Tantivy queries).

For each size the store holds that many evidence nodes of the deterministic synthetic corpus
(``synth.generate``). Stores come from one of two builders:

* ``writer`` — the real ingest path (``bench_ingest.run_ingest``: inbox → offline writer →
  MiniLM), or an existing data directory it left (``--data N=DIR``);
* ``direct`` — nodes written straight through ``MemoryStore.put_nodes`` with precomputed
  vectors (used for 1M, where the writer would take hours on 2 cores). Fact messages get
  states and supersession links as the writer would give them, replies their parent. The
  first ``--pool`` nodes carry their own MiniLM vectors (copied from a writer-built store of
  the same seed when ``--pool-from`` names one, else embedded here); node i beyond the pool
  reuses pool vector i mod pool plus small Gaussian noise (renormalised), so the vector
  distribution is realistic but those nodes' vectors do not describe their own text.

Then ``Egmem.maintain()`` runs (compaction; the IVF_HNSW_SQ vector index once the table
holds 50k rows) and ``--queries`` fact questions (``synth.questions``, each scoped like a
member of the space asking: every public channel plus the fact's own channel) are timed:

* ``search_evidence(q, scope, k=10)`` end to end (query embedding included; the embedder's
  single-text cache is disabled so repeated question texts are not free);
* the query embedding alone;
* the floors on the same question and scope: one LanceDB vector query (prefiltered to the
  scope, depth 30 as pass 1 uses) and one Tantivy BM25 query (same scope, depth 30).

RSS is reported after opening the store and after the queries. One size per process.

Run from the repository root::

    .venv/bin/python benchmarks/bench_search.py --sizes 10000,100000,1000000
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil  # noqa: E402
import synth  # noqa: E402
from benchutil import dir_mb, peak_rss_mb, percentile, rss_mb  # noqa: E402

from bot.app import build  # noqa: E402
from bot.settings import Settings  # noqa: E402
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402
from memory.models import EvidenceNode, Message, MessageKey, Verdict  # noqa: E402
from memory.reader.rerank import FeatureReranker  # noqa: E402
from memory.reader.search import EvidenceSearch  # noqa: E402
from memory.store import MemoryStore, open_store  # noqa: E402

logger = logging.getLogger(__name__)

DEPTH = 30  # EvidenceSearch's default first_pass: what pass 1 asks each index for
_CHUNK = 50_000


def make_embedder(kind: str) -> Embedder:
    if kind == "hashing":
        return HashingEmbedder()
    emb = MiniLMEmbedder(cache_size=0)
    emb.load()
    return emb


# ---- the direct builder ------------------------------------------------------------------
def _node_id(m: Message | tuple[str, str, str, str]) -> str:
    if isinstance(m, Message):
        return m.key.node_id()
    p, s, c, mid = m
    return MessageKey(platform=p, space=s, channel=c, message_id=mid).node_id()


def _rewrite(m: Message) -> str:
    return f"{m.speaker} in #{m.channel_name}: {m.text.strip()}"


def pool_vectors(messages: list[Message], pool: int, embedder: Embedder,
                 pool_from: Path | None) -> np.ndarray:
    """MiniLM vectors of the first ``pool`` messages: read from a writer-built store of the
    same corpus where it has them, embedded here otherwise."""
    head = messages[:pool]
    out = np.zeros((len(head), embedder.dim), dtype=np.float32)
    have = np.zeros(len(head), dtype=bool)
    if pool_from is not None and pool_from.exists():
        store = open_store(uri=str(pool_from / "lance"), lexical_dir=pool_from / "lexical",
                           dim=embedder.dim)
        ids = [_node_id(m) for m in head]
        pos = {nid: i for i, nid in enumerate(ids)}
        for start in range(0, len(ids), 5000):
            got = store.node_vectors(ids[start : start + 5000])
            for nid, vec in got.items():
                out[pos[nid]] = vec
                have[pos[nid]] = True
        store.close()
    missing = np.flatnonzero(~have)
    for start in range(0, len(missing), 4096):
        idx = missing[start : start + 4096]
        out[idx] = embedder.embed_batch([_rewrite(head[i]) for i in idx])
    logger.info("pool: %d vectors read, %d embedded", int(have.sum()), len(missing))
    return out


def build_direct(store: MemoryStore, corpus: synth.Corpus, pool: np.ndarray,
                 *, seed: int) -> dict[str, float]:
    """Write every message of ``corpus`` as a node through ``put_nodes``."""
    rng = np.random.default_rng(seed)
    # A fact's statement establishes a state and each revision supersedes the last one.
    chain_head: dict[tuple[str, str, str], str] = {}
    state_of: dict[tuple[str, str, str], str] = {}
    batch: list[EvidenceNode] = []
    put_s = 0.0

    def flush(first: int) -> float:
        idx = np.arange(first, first + len(batch))
        vecs = pool[idx % len(pool)].copy()
        far = idx >= len(pool)
        if far.any():
            noisy = vecs[far] + rng.normal(0.0, 0.015, size=(int(far.sum()), pool.shape[1]))
            vecs[far] = noisy / np.linalg.norm(noisy, axis=1, keepdims=True)
        t0 = time.perf_counter()
        store.put_nodes(batch, vecs, fresh=True)
        logger.info("direct build: %d nodes", first + len(batch))
        return time.perf_counter() - t0

    first = 0
    for m in corpus.messages_only():
        nid = _node_id(m)
        parent = m.reply_to
        reply_node = _node_id((m.platform, m.space, m.channel, parent)) if parent else None
        verdict, state_id, supersedes, topic, value = Verdict.CONTEXT, None, None, "", ""
        fact = corpus.fact_log.get(m.id)
        if fact is not None:
            key = (fact.space, fact.channel, fact.subject)
            topic, value = fact.subject, fact.value
            if key in chain_head:
                verdict, state_id, supersedes = Verdict.REVISE, state_of[key], chain_head[key]
            else:
                verdict, state_id = Verdict.ESTABLISH, "s_" + nid.removeprefix("n_")
                state_of[key] = state_id
            chain_head[key] = nid
        batch.append(EvidenceNode(
            node_id=nid, seq=store.next_seq(), platform=m.platform, space=m.space,
            channel=m.channel, channel_name=m.channel_name or "", message_id=m.id,
            thread_id=m.thread_id, reply_to=m.reply_to, reply_to_node=reply_node,
            speaker_id=m.user, speaker=m.speaker, ts=m.ts, text=m.text, rewrite=_rewrite(m),
            permalink=m.permalink, topic=topic, state_id=state_id, verdict=verdict,
            value=value, supersedes=supersedes,
        ))
        if len(batch) >= _CHUNK:
            put_s += flush(first)
            first += len(batch)
            batch = []
    if batch:
        put_s += flush(first)
    return {"put_s": put_s}


# ---- measuring ---------------------------------------------------------------------------
_STAGES = ("speaker_words", "vector_search_nodes", "lexical_search", "neighbours",
           "search_nodes")


def _instrument(obj: Any, names: tuple[str, ...], acc: dict[str, list[float]]) -> None:
    """Time every call of ``obj.<name>`` into ``acc[name]`` (per-instance wrappers)."""
    for name in names:
        inner = getattr(obj, name)

        def timed(*a: Any, _inner: Any = inner, _name: str = name, **kw: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return _inner(*a, **kw)
            finally:
                acc[_name].append(time.perf_counter() - t0)

        setattr(obj, name, timed)


def measure(data: Path, corpus: synth.Corpus, *, embedder: Embedder, queries: int,
            seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    eg = build(Settings(data=str(data)), embedder=embedder)
    out["rss_open_mb"] = round(rss_mb(), 0)
    out["nodes"] = eg.store.count_nodes()
    t0 = time.perf_counter()
    eg.maintain()
    out["maintain_s"] = round(time.perf_counter() - t0, 1)
    indices = eg.store.inspection().node_indexes()
    out["indexes"] = sorted(ix.kind for ix in indices)
    out["vector_index"] = any(ix.kind.upper().startswith("IVF") for ix in indices)
    search = EvidenceSearch(store=eg.store, embedder=embedder, reranker=FeatureReranker())
    stages: dict[str, list[float]] = {n: [] for n in (*_STAGES, "rerank")}
    qs = synth.questions(corpus, queries + 10, seed=seed)
    warm, timed = qs[:10], qs[10:]
    for q in warm:
        search.search_evidence(q.text, q.scope, k=10)
    _instrument(eg.store, _STAGES, stages)
    _instrument(search.reranker, ("rerank",), stages)
    for v in stages.values():
        v.clear()
    per_query: dict[str, list[float]] = {n: [] for n in stages}
    e2e: list[float] = []
    emb: list[float] = []
    vec: list[float] = []
    lex: list[float] = []
    hits = 0
    for q in timed:
        for v in stages.values():
            v.clear()
        t = time.perf_counter()
        nodes = search.search_evidence(q.text, q.scope, k=10)
        e2e.append(time.perf_counter() - t)
        for n, v in stages.items():
            per_query[n].append(sum(v))
        t = time.perf_counter()
        qvec = embedder.embed_batch([q.text])[0]
        emb.append(time.perf_counter() - t)
        t = time.perf_counter()
        eg.store.vector_search(qvec, q.scope, k=DEPTH)
        vec.append(time.perf_counter() - t)
        t = time.perf_counter()
        eg.store.lexical_search(q.text, q.scope, k=DEPTH)
        lex.append(time.perf_counter() - t)
        want = q.answer_message_id
        hits += any(n.message_id == want for n in nodes)

    def ms(values: list[float], p: float) -> float:
        return round(percentile(values, p) * 1000, 1)

    out.update({
        "queries": len(timed),
        "search_p50_ms": ms(e2e, 50), "search_p95_ms": ms(e2e, 95),
        "search_max_ms": ms(e2e, 100),
        "embed_p50_ms": ms(emb, 50), "embed_p95_ms": ms(emb, 95),
        "lance_vector_p50_ms": ms(vec, 50), "lance_vector_p95_ms": ms(vec, 95),
        "tantivy_p50_ms": ms(lex, 50), "tantivy_p95_ms": ms(lex, 95),
        "hit_at_10": round(hits / max(1, len(timed)), 3),
        # Median time per question spent in each store call (all calls of that kind).
        "stages_p50_ms": {n: ms(v, 50) for n, v in per_query.items()},
        "rss_after_mb": round(rss_mb(), 0),
        "peak_rss_mb": round(peak_rss_mb(), 0),
        "data_mb": round(dir_mb(data), 1),
    })
    eg.close()
    return out


def run_size(n: int, *, seed: int, builder: str, data: Path | None, work: Path,
             embedder_kind: str, queries: int, pool: int,
             pool_from: Path | None, build_only: bool = False) -> dict[str, Any]:
    # The export mix (no edit/delete events), as bench_ingest builds by default.
    corpus = synth.generate(n, seed=seed, mix="export")
    embedder = make_embedder(embedder_kind)
    res: dict[str, Any] = {"size": n, "seed": seed, "builder": builder,
                           "embedder": embedder.name}
    if data is None:
        data = work / f"search_{n}"
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        t0 = time.perf_counter()
        if builder == "writer":
            import bench_ingest

            ing = bench_ingest.run_ingest(n, seed=seed, data_dir=data, embedder=embedder_kind)
            res["ingest_msgs_per_s"] = ing["msgs_per_s"]
        else:
            msgs = list(corpus.messages_only())
            vecs = pool_vectors(msgs, min(pool, len(msgs)), embedder, pool_from)
            store = open_store(uri=str(data / "lance"), lexical_dir=data / "lexical",
                               dim=embedder.dim)
            res.update(build_direct(store, corpus, vecs, seed=seed))
            store.close()
            res["pool"] = len(vecs)
        res["build_s"] = round(time.perf_counter() - t0, 1)
    res["data"] = str(data)
    if build_only:
        return res
    res.update(measure(data, corpus, embedder=embedder, queries=queries, seed=seed + 1))
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--builder", choices=("auto", "writer", "direct"), default="auto",
                    help="auto: the writer up to 100k nodes, direct above")
    ap.add_argument("--data", action="append", default=[],
                    help="N=DIR: use an existing data directory for size N")
    ap.add_argument("--work", type=Path, default=None, help="where to build stores")
    ap.add_argument("--keep", action="store_true", help="keep built stores under --work")
    ap.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--pool", type=int, default=100_000)
    ap.add_argument("--pool-from", type=Path, default=None,
                    help="a writer-built data dir of the same seed to take pool vectors from")
    ap.add_argument("--build-only", action="store_true",
                    help="build (and keep) the stores, measure nothing: measuring in a fresh "
                         "process keeps the build out of the RSS figures")
    ap.add_argument("--json", type=Path, default=None, help="append one JSON line per size")
    args = ap.parse_args(argv)
    if args.build_only:
        args.keep = True
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    for name in ("memory", "bot", "lancedb"):
        logging.getLogger(name).setLevel(logging.WARNING)
    given = {int(k): Path(v) for k, v in (d.split("=", 1) for d in args.data)}
    tmp = None
    work = args.work
    if work is None:
        tmp = tempfile.mkdtemp(prefix="egmem-search-")
        work = Path(tmp)
    try:
        for n in (int(s) for s in args.sizes.split(",") if s):
            builder = args.builder
            if builder == "auto":
                builder = "writer" if n <= 100_000 else "direct"
            res = run_size(n, seed=args.seed, builder=builder, data=given.get(n), work=work,
                           embedder_kind=args.embedder, queries=args.queries, pool=args.pool,
                           pool_from=args.pool_from, build_only=args.build_only)
            res["machine"] = benchutil.machine()
            line = json.dumps(res)
            print(line, flush=True)
            if args.json is not None:
                args.json.parent.mkdir(parents=True, exist_ok=True)
                with args.json.open("a") as fh:
                    fh.write(line + "\n")
            if not args.keep and n not in given:
                shutil.rmtree(work / f"search_{n}", ignore_errors=True)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
