"""Offline ingest throughput, end to end: inbox → writer (offline proposer) → LanceDB + Tantivy.

For each size a deterministic synthetic corpus (``synth.generate``: multi-channel, threads,
fact revisions, edits, deletes) is submitted to a fresh ``bot.app.build`` deployment through
``Egmem.submit`` in chunks of 1000 (as ``egmem ingest`` does) and drained with
``Egmem.drain``. Throughput is messages / (submit + drain) wall time, MiniLM embedding
included; the model is loaded before the clock starts. One size per process, so the RSS
figures are that size's own.

Run from the repository root::

    .venv/bin/python benchmarks/bench_ingest.py --sizes 10000,100000 [--profile DIR]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import pstats
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchutil  # noqa: E402
import synth  # noqa: E402
from benchutil import ROOT, TimedEmbedder, dir_mb, peak_rss_mb, rss_mb  # noqa: E402

from bot.app import build  # noqa: E402
from bot.settings import Settings  # noqa: E402
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402

logger = logging.getLogger(__name__)

RESULTS = ROOT / "benchmarks" / "results"
_SUBMIT_CHUNK = 1000


def make_embedder(kind: str) -> Embedder:
    if kind == "hashing":
        return HashingEmbedder()
    emb = MiniLMEmbedder()
    emb.load()
    return emb


def embed_alone(embedder: Embedder, corpus: synth.Corpus, n: int = 1000) -> float:
    """Texts/s of the embedder alone on ``n`` rewrites of this corpus, right now: the
    ceiling for ingest on this machine at this moment (other load included)."""
    texts = [f"{m.speaker} in #{m.channel_name}: {m.text}"
             for _, m in zip(range(n), corpus.messages_only(), strict=False)]
    t0 = time.perf_counter()
    embedder.embed_batch(texts)
    return len(texts) / (time.perf_counter() - t0)


def run_ingest(
    n: int, *, seed: int, data_dir: Path, embedder: str = "minilm",
    profile: Path | None = None, mix: str = "export",
) -> dict[str, Any]:
    """Ingest ``n`` synthetic messages into ``data_dir`` (must be empty); returns figures."""
    t_gen = time.perf_counter()
    corpus = synth.generate(n, seed=seed, mix=mix)
    gen_s = time.perf_counter() - t_gen
    timed = TimedEmbedder(make_embedder(embedder))
    alone = embed_alone(timed.inner, corpus)
    eg = build(Settings(data=str(data_dir)), embedder=timed)
    rss_before = rss_mb()

    load_start = os.getloadavg()[0]
    cpu0 = time.process_time()
    t0 = time.perf_counter()
    eg.upsert_channels(corpus.channels)
    for i in range(0, len(corpus.events), _SUBMIT_CHUNK):
        eg.submit(corpus.events[i : i + _SUBMIT_CHUNK])
    submit_s = time.perf_counter() - t0

    prof = cProfile.Profile() if profile is not None else None
    t1 = time.perf_counter()
    if prof is not None:
        prof.enable()
    report = eg.drain()
    if prof is not None:
        prof.disable()
    drain_s = time.perf_counter() - t1
    total_s = submit_s + drain_s
    cpu_s = time.process_time() - cpu0

    stats = eg.stats()
    out: dict[str, Any] = {
        "messages": corpus.messages,
        "mix": mix,
        "edits": corpus.edits,
        "deletes": corpus.deletes,
        "replies": corpus.replies,
        "revisions_in_corpus": corpus.revisions,
        "channels": len(corpus.channels),
        "seed": seed,
        "embedder": timed.name,
        "generate_s": round(gen_s, 2),
        "submit_s": round(submit_s, 2),
        "drain_s": round(drain_s, 2),
        "total_s": round(total_s, 2),
        "msgs_per_s": round(corpus.messages / total_s, 1),
        "embed_s": round(timed.seconds, 2),
        "embed_texts": timed.texts,
        "embed_share": round(timed.seconds / total_s, 3),
        "cpu_s": round(cpu_s, 1),
        "embedder_alone_per_s": round(alone, 1),
        "load1_start": round(load_start, 1),
        "load1_end": round(os.getloadavg()[0], 1),
        "committed": report.committed,
        "failed": report.failed,
        "evidence_nodes": stats["evidence_nodes"],
        "states": stats["states"],
        "chains_with_revisions": stats["chains_with_revisions"],
        "verdicts": stats["verdicts"],
        "rss_before_mb": round(rss_before, 0),
        "rss_after_mb": round(rss_mb(), 0),
        "peak_rss_mb": round(peak_rss_mb(), 0),
        "data_mb": round(dir_mb(data_dir), 1),
    }
    eg.close()
    if prof is not None and profile is not None:
        profile.mkdir(parents=True, exist_ok=True)
        path = profile / f"ingest_{n}.prof"
        prof.dump_stats(str(path))
        with (profile / f"ingest_{n}.txt").open("w") as fh:
            pstats.Stats(prof, stream=fh).sort_stats("cumulative").print_stats(60)
            pstats.Stats(prof, stream=fh).sort_stats("tottime").print_stats(40)
        out["profile"] = str(path)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated message counts")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--embedder", choices=("minilm", "hashing"), default="minilm")
    ap.add_argument("--mix", choices=tuple(synth.MIXES), default="export",
                    help="export: messages only (as in an export file); live: with edits "
                         "and deletes")
    ap.add_argument("--keep", type=Path, default=None,
                    help="keep each size's data under KEEP/ingest_<n>[_live] (for "
                         "bench_search)")
    ap.add_argument("--profile", type=Path, default=None, help="write cProfile output here")
    ap.add_argument("--json", type=Path, default=None, help="append one JSON line per size")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    for n in (int(s) for s in args.sizes.split(",") if s):
        if args.keep is not None:
            data = args.keep / (f"ingest_{n}" + ("" if args.mix == "export" else "_live"))
            shutil.rmtree(data, ignore_errors=True)
            data.mkdir(parents=True)
            tmp = None
        else:
            tmp = tempfile.mkdtemp(prefix=f"egmem-ingest-{n}-")
            data = Path(tmp)
        try:
            res = run_ingest(n, seed=args.seed, data_dir=data, embedder=args.embedder,
                             profile=args.profile, mix=args.mix)
        finally:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
        res["machine"] = benchutil.machine()
        line = json.dumps(res)
        print(line)
        if args.json is not None:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            with args.json.open("a") as fh:
                fh.write(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
