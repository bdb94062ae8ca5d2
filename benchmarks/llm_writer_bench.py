"""Cost of the LLM writer on the shared LoCoMo dev conversations, per endpoint behaviour.

Replays conversations of ``locomo_dev5.json`` through the real :class:`Writer` with an
:class:`LLMProposer` talking (through the real openai client) to a local
:class:`ScriptedOpenAIServer`. The server answers with
:class:`tests.support.llm_models.PlausibleWriter`, a policy that reads each request like a
model would — the states, recent context and messages it shows — and proposes with the
offline proposer's rules; when a message carries a revision cue but no shown state fits, it
first calls ``search_registry`` (an inspection round). The server runs in each
:class:`~tests.support.fake_openai.EndpointMode` of ``MODES`` (a context smaller than the
default batch, no tools, one call per reply — with a model that also puts one proposal in
each call —, calls written in the content, string booleans, replies cut at 60 tokens, slow
replies, 429 bursts), one row per mode and arrival size.

Reported: writer LLM calls per message, tokens per message, messages per call, repair turns,
the share of model-bound messages the model proposed and the share that fell back to the
offline proposer, overflows, cut replies, calls recovered from text, verdict mix after
verification, and whether every message was committed.

Tokens: the fake server counts whitespace-separated words (its only notion of a token); the
``~tok`` columns estimate real BPE tokens as characters / 4 over what was sent and received.

Run from the repository root::

    .venv/bin/python benchmarks/llm_writer_bench.py [--embedder hashing|minilm] [--modes ...]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "benchmarks"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from benchutil import machine, machine_line  # noqa: E402

from egmem_eval.datasets import load_dataset  # noqa: E402
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402
from memory.llm import LLMClient, LLMSettings  # noqa: E402
from memory.llm.profile import MemoryProfileStore  # noqa: E402
from memory.llm.writer_agent import LLMProposer  # noqa: E402
from memory.models import Message  # noqa: E402
from memory.store import open_store  # noqa: E402
from memory.writer import open_writer  # noqa: E402
from tests.support.fake_openai import MODES, Reply, ScriptedOpenAIServer  # noqa: E402
from tests.support.llm_models import PlausibleWriter  # noqa: E402

DATA = Path("/work/shared/bench/locomo/locomo_dev5.json")
OUT = ROOT / "benchmarks" / "results" / "llm_writer.md"


def _chars_sent(server: ScriptedOpenAIServer) -> int:
    """Characters of prompt (message contents, echoed tool calls, tool schemas) over every
    chat request."""
    prompt = 0
    for req in server.chat_requests():
        for m in req["messages"]:
            prompt += len(m.get("content") or "")
            for call in m.get("tool_calls") or []:
                prompt += len(call["function"]["arguments"])
        prompt += len(json.dumps(req.body.get("tools", []))) if req.body.get("tools") else 0
    return prompt


def replay(messages_by_conv: Sequence[Sequence[Message]], *, arrival: int, batch_size: int,
           embedder: Embedder, mode_name: str = "ideal") -> dict[str, Any]:
    mode = MODES[mode_name]
    model = PlausibleWriter(per_call=1 if mode.one_call else None)
    completion_chars = 0

    def policy(body: dict[str, Any]) -> Reply:
        nonlocal completion_chars
        reply = model(body)
        completion_chars += len(getattr(reply, "content", None) or "") + sum(
            len(a) for _, a in getattr(reply, "calls", ()))
        return reply

    with ScriptedOpenAIServer(policy=policy, mode=mode) as server, \
            tempfile.TemporaryDirectory() as tmp:
        # Backoff sleeps are skipped: a 429 costs a request, not wall time, here.
        client = LLMClient(settings=LLMSettings(base_url=server.base_url, api_key="bench",
                                                model="plausible"),
                           rng=random.Random(0), sleep=lambda _s: None,
                           profiles=MemoryProfileStore())
        store = open_store(uri=f"{tmp}/db", lexical_dir=Path(tmp) / "lex", dim=embedder.dim)
        proposer = LLMProposer(client, batch_size=batch_size)
        writer = open_writer(store=store, embedder=embedder, proposer=proposer)
        verdicts: Counter[str] = Counter()
        downgraded = committed = 0
        start = time.perf_counter()
        for msgs in messages_by_conv:
            for i in range(0, len(msgs), arrival):
                report = writer.write(msgs[i : i + arrival])
                verdicts.update(report.verdicts)
                downgraded += report.downgraded
                committed += report.committed
        elapsed = time.perf_counter() - start
        prompt_chars = _chars_sent(server)
        stats = proposer.stats.snapshot()
        meter = client.meter.snapshot().get("writer", {})
        profile = client.profile.get()
        client.close()
        store.close()
        if server.unscripted:
            raise RuntimeError(f"{server.unscripted} requests went unanswered")
    n = stats["messages"]
    return {
        "mode": mode_name, "arrival": arrival, "stats": stats, "meter": meter,
        "verdicts": dict(verdicts), "downgraded": downgraded, "seconds": elapsed,
        "committed": committed, "sent": sum(len(m) for m in messages_by_conv),
        "max_call_messages": profile.max_call_messages,
        "est_prompt_tokens_per_message": prompt_chars / 4 / n if n else 0.0,
        "est_completion_tokens_per_message": completion_chars / 4 / n if n else 0.0,
    }


def table(rows: Sequence[dict[str, Any]], *, batch_size: int, embedder: str,
          messages: int, conversations: int) -> str:
    head = (
        f"# LLM writer cost on LoCoMo dev ({conversations} conversation(s), {messages} "
        "messages), per endpoint behaviour\n\n"
        f"`benchmarks/llm_writer_bench.py`: real Writer + LLMProposer (batch_size={batch_size}, "
        f"window={4 * batch_size}, default gate, offline fallback) + real openai client against "
        "ScriptedOpenAIServer answering with a plausible policy (`tests/support/llm_models.py`: "
        "offline-proposer judgement of what each request shows; a `search_registry` round when "
        "a revision cue finds no shown state). Each row is one endpoint behaviour of "
        "`tests/support/fake_openai.py` (`MODES`): *small-context* = 1900-token context "
        "(smaller than a default 8-message call) with vLLM's overflow error; *no-tools* = "
        "Ollama's \"does not support tools\" (the writer switches to JSON replies); "
        "*one-call* = one tool call per reply, from a model that also puts one proposal in "
        "each call; *calls-in-content* = calls written as JSON text; *string-booleans*; "
        "*truncated* = replies cut at 60 tokens (`finish_reason=length`); *slow* = 20 ms per "
        "reply; *rate-limited* = 2 of every 4 requests get a 429 (backoff not slept). "
        f"Embedder: {embedder}. LanceDB + Tantivy in a temp dir.\n\n"
        f"Machine: {machine_line(machine())}.\n\n"
        "*arrival* = messages per `Writer.write` (import/backfill ≈ hundreds). *tok* = the fake "
        "server's whitespace-word count; *~tok* = characters / 4, an estimate of real BPE "
        "tokens. *model share* = messages sent to the model that it proposed for; *fallback* "
        "= those that got the offline proposal. *retries* = HTTP attempts repeated (429, 5xx). "
        "*committed* = messages committed / messages written.\n\n"
        "| endpoint | arrival | messages | committed | calls/msg | msgs/call | repairs | "
        "retries | prompt tok/msg | completion tok/msg | ~prompt tok/msg | ~completion tok/msg | "
        "model share | fallback share | overflows (msgs/call after) | cut replies | "
        "calls from text | verdicts after verify (est/rev/res/ctx) | wall s |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---:|\n"
    )
    lines = []
    for r in rows:
        s, v = r["stats"], r["verdicts"]
        mix = "/".join(str(v.get(k, 0)) for k in ("establish", "revise", "restate", "context"))
        after = f" ({r['max_call_messages']})" if r["max_call_messages"] else ""
        lines.append(
            f"| {r['mode']} | {r['arrival']} | {s['messages']} | "
            f"{r['committed']}/{r['sent']} | {s['calls_per_message']:.3f} | "
            f"{s['messages_per_call']:.2f} | {s['repairs']} | {r['meter'].get('retries', 0)} | "
            f"{s['prompt_tokens_per_message']:.0f} | {s['completion_tokens_per_message']:.1f} | "
            f"{r['est_prompt_tokens_per_message']:.0f} | "
            f"{r['est_completion_tokens_per_message']:.1f} | {s['model_share']:.1%} | "
            f"{s['fallback_share']:.1%} | {s['overflows']}{after} | {s['truncated']} | "
            f"{s['recovered_calls']} | {mix} | {r['seconds']:.1f} |"
        )
    return head + "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--embedder", choices=("hashing", "minilm"), default="minilm")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--arrivals", default="256",
                    help="comma-separated messages per Writer.write")
    ap.add_argument("--modes", default=",".join(MODES),
                    help=f"comma-separated endpoint modes (of {', '.join(MODES)})")
    ap.add_argument("--conversations", type=int, default=1, help="0 = all")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)

    ds = load_dataset("locomo", args.data)
    by_conv = [c.messages for c in ds.conversations[: args.conversations or None]]
    embedder: Embedder = (MiniLMEmbedder() if args.embedder == "minilm"
                          else HashingEmbedder())
    name = ("all-MiniLM-L6-v2 int8 (MiniLMEmbedder)" if args.embedder == "minilm"
            else "HashingEmbedder (not semantic; faster)")
    rows: list[dict[str, Any]] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    md = ""
    for mode_name in (m.strip() for m in args.modes.split(",") if m.strip()):
        for arrival in (int(a) for a in args.arrivals.split(",")):
            row = replay(by_conv, arrival=arrival, batch_size=args.batch_size,
                         embedder=embedder, mode_name=mode_name)
            rows.append(row)
            print(f"{mode_name} arrival {arrival}: {row['stats']['calls']} calls, "
                  f"{row['seconds']:.1f}s", file=sys.stderr)
            md = table(rows, batch_size=args.batch_size, embedder=name,
                       messages=sum(len(m) for m in by_conv), conversations=len(by_conv))
            args.out.write_text(md)  # after every row: a long run keeps what it measured
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
