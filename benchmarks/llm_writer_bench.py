"""Cost of the LLM writer on the shared LoCoMo dev conversations.

Replays every conversation of ``locomo_dev5.json`` through the real :class:`Writer` with an
:class:`LLMProposer` talking (through the real openai client) to a local
:class:`ScriptedOpenAIServer`. The server answers with :class:`PlausibleModel`, a policy that
reads each request like a model would — the pre-fetched states, recent context and messages —
and proposes with the offline proposer's rules; when a message carries a revision cue but no
shown state fits, it first calls ``search_registry`` (an inspection round).

Reported per arrival size (how many messages each ``Writer.write`` gets: an import/backfill
hands hundreds, a live channel a few): writer LLM calls per message, tokens per message,
messages per call, gated share, inspection rounds, verdict mix after verification.

Tokens: the fake server counts whitespace-separated words (its only notion of a token); the
``~tok`` columns estimate real BPE tokens as characters / 4 over what was sent and received.

Run from the repository root::

    .venv/bin/python benchmarks/llm_writer_bench.py [--embedder hashing|minilm]
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
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402
from memory.eval.datasets import load_dataset  # noqa: E402
from memory.llm import LLMClient, LLMSettings  # noqa: E402
from memory.llm.prompts import PROPOSE_TOOL, SEARCH_TOOL, parse_batch  # noqa: E402
from memory.llm.writer_agent import LLMProposer  # noqa: E402
from memory.models import EvidenceNode, Message, Proposal, Verdict  # noqa: E402
from memory.proposer import OfflineProposer, WriteItem  # noqa: E402
from memory.registry import RegistryHit, StateRecord  # noqa: E402
from memory.store import MemoryStore  # noqa: E402
from memory.text import content_terms, find_slots, has_revision_cue, overlap  # noqa: E402
from memory.writer import Writer  # noqa: E402
from tests.support.fake_openai import Reply, ScriptedOpenAIServer, text, tool_calls  # noqa: E402

DATA = Path("/work/shared/bench/locomo/locomo_dev5.json")
OUT = ROOT / "benchmarks" / "results" / "llm_writer.md"
_TIME_FORMAT = "%a %Y-%m-%d %H:%M UTC"
_MAX_SEARCHES = 3


# ---------------------------------------------------------------------------- the "model"


class ShownStates:
    """A RegistryTool over the states a request showed the model (lexical only)."""

    def __init__(self, states: Sequence[dict[str, Any]]) -> None:
        self.records: dict[str, StateRecord] = {}
        self.add(states)

    def add(self, states: Sequence[dict[str, Any]]) -> None:
        for s in states:
            value = str(s.get("value", ""))
            slots = find_slots(value)
            topic, desc = str(s.get("topic", "")), str(s.get("description", ""))
            self.records[str(s["state_id"])] = StateRecord(
                state_id=str(s["state_id"]), platform="", space="", channel="", topic=topic,
                description=desc, value=value, value_family=slots[0].family if slots else "",
                active_node_id="", revision_count=int(s.get("revisions", 0)), created_ts=0.0,
                updated_ts=0.0, vector=np.zeros(1, dtype=np.float32),
                terms=set(content_terms(f"{topic} {desc}")),
            )

    def search_registry(self, item: WriteItem, query: str, *, k: int = 5,
                        families: set[str] | None = None) -> list[RegistryHit]:
        q = set(content_terms(query))
        hits = []
        for rec in self.records.values():
            lex = overlap(q, rec.terms)
            bonus = 0.1 if families and rec.value_family in families else 0.0
            hits.append(RegistryHit(rec, 0.55 * lex + bonus, lex, 0.0))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:k]

    def get_state(self, item: WriteItem, state_id: str) -> StateRecord | None:
        return self.records.get(state_id)


def _node(view: dict[str, Any], ts: datetime) -> EvidenceNode:
    return EvidenceNode(
        node_id=f"n_{view['message_id']}", platform="eval", space="s", channel="conv",
        message_id=str(view["message_id"]), speaker_id=str(view.get("speaker", "?")),
        speaker=str(view.get("speaker", "?")), ts=ts, text=str(view.get("text", "")),
        state_id=view.get("state_id"),
    )


def _ts(view: dict[str, Any], default: datetime) -> datetime:
    try:
        return datetime.strptime(str(view.get("time", "")), _TIME_FORMAT)
    except ValueError:
        return default


class PlausibleModel:
    """Answers writer requests with the offline proposer's judgement of what it is shown."""

    def __init__(self) -> None:
        self.offline = OfflineProposer()

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        batch = parse_batch(next(m["content"] for m in messages if m["role"] == "user"))
        shown = ShownStates(batch["states"])
        proposed: set[str] = set()
        searched = False
        for m in messages:
            if m["role"] == "tool" and m["content"].startswith("{"):  # a search result
                searched = True
                shown.add(json.loads(m["content"]).get("states", []))
            for call in m.get("tool_calls") or []:
                if call["function"]["name"] == PROPOSE_TOOL:
                    proposed.add(json.loads(call["function"]["arguments"])["message_id"])
        can_search = SEARCH_TOOL in {t["function"]["name"] for t in body.get("tools", [])}

        items = self._items(batch)
        calls: list[tuple[str, dict[str, Any]]] = []
        for item in items:
            mid = item.message.id
            if mid in proposed:
                continue
            p = self.offline.propose([item], shown)[0]
            unsure = (p.verdict not in (Verdict.REVISE, Verdict.RESTATE)
                      and has_revision_cue(item.message.text))
            if unsure and can_search and not searched and len(calls) < _MAX_SEARCHES:
                calls.append((SEARCH_TOOL, {"query": item.message.text[:200]}))
                continue
            calls.append((PROPOSE_TOOL, _args(p)))
        return tool_calls(calls) if calls else text("All messages are proposed.")

    def _items(self, batch: dict[str, list[dict[str, Any]]]) -> list[WriteItem]:
        epoch = datetime(2000, 1, 1)
        recent = [_node(v, _ts(v, epoch)) for v in batch["recent"]]
        placeholders: dict[str, EvidenceNode] = {}
        items = []
        for view in batch["messages"]:
            ts = _ts(view, epoch)
            msg = Message(platform="eval", space="s", channel="conv", id=str(view["message_id"]),
                          user=str(view["speaker"]), user_name=str(view["speaker"]), ts=ts,
                          text=str(view["text"]))
            ref = view.get("reply_to")
            parent = (placeholders.get(ref) if isinstance(ref, str)
                      else _node(ref, ts) if isinstance(ref, dict) else None)
            items.append(WriteItem(message=msg, node_id=f"n_{msg.id}", parent=parent,
                                   recent=list(recent)))
            placeholders[msg.id] = _node(view, ts)
            recent.append(placeholders[msg.id])
        return items


def _args(p: Proposal) -> dict[str, Any]:
    return {"message_id": p.message_id, "topic": p.topic, "verdict": p.verdict.value,
            "source_quote": p.source_quote, "prior_state_id": p.prior_state_id, "rewrite": ""}


# ---------------------------------------------------------------------------- the replay


def _chars_sent(server: ScriptedOpenAIServer) -> tuple[int, int]:
    """Characters of prompt (message contents, echoed tool calls, tool schemas) and of
    completions (tool call arguments) over every chat request."""
    prompt = 0
    for req in server.chat_requests():
        for m in req["messages"]:
            prompt += len(m.get("content") or "")
            for call in m.get("tool_calls") or []:
                prompt += len(call["function"]["arguments"])
        prompt += len(json.dumps(req.body.get("tools", [])))
    return prompt, 0


def replay(messages_by_conv: Sequence[Sequence[Message]], *, arrival: int, batch_size: int,
           embedder: Embedder) -> dict[str, Any]:
    model = PlausibleModel()
    completion_chars = 0

    def policy(body: dict[str, Any]) -> Reply:
        nonlocal completion_chars
        reply = model(body)
        completion_chars += sum(len(a) for _, a in getattr(reply, "calls", ()))
        return reply

    with ScriptedOpenAIServer(policy=policy) as server, \
            tempfile.TemporaryDirectory() as tmp:
        client = LLMClient(settings=LLMSettings(base_url=server.base_url, api_key="bench",
                                                model="plausible", max_retries=0),
                           rng=random.Random(0), sleep=lambda _s: None)
        store = MemoryStore(uri=f"{tmp}/db", lexical_dir=Path(tmp) / "lex", dim=embedder.dim)
        proposer = LLMProposer(client, batch_size=batch_size)
        writer = Writer(store=store, embedder=embedder, proposer=proposer)
        verdicts: Counter[str] = Counter()
        downgraded = 0
        start = time.perf_counter()
        for msgs in messages_by_conv:
            for i in range(0, len(msgs), arrival):
                report = writer.write(msgs[i : i + arrival])
                verdicts.update(report.verdicts)
                downgraded += report.downgraded
        elapsed = time.perf_counter() - start
        prompt_chars, _ = _chars_sent(server)
        stats = proposer.stats.snapshot()
        meter = client.meter.snapshot().get("writer", {})
        client.close()
        store.close()
        if server.unscripted:
            raise RuntimeError(f"{server.unscripted} requests went unanswered")
    n = stats["messages"]
    return {
        "arrival": arrival, "stats": stats, "meter": meter, "verdicts": dict(verdicts),
        "downgraded": downgraded, "seconds": elapsed,
        "est_prompt_tokens_per_message": prompt_chars / 4 / n if n else 0.0,
        "est_completion_tokens_per_message": completion_chars / 4 / n if n else 0.0,
    }


def table(rows: Sequence[dict[str, Any]], *, batch_size: int, embedder: str,
          messages: int, conversations: int) -> str:
    head = (
        f"# LLM writer cost on LoCoMo dev ({conversations} conversations, {messages} messages)\n\n"
        f"`benchmarks/llm_writer_bench.py`: real Writer + LLMProposer (batch_size={batch_size}, "
        f"window={4 * batch_size}, default gate, offline fallback) + real openai client against "
        f"ScriptedOpenAIServer answering with a plausible policy (offline-proposer judgement of "
        f"what each request shows; a `search_registry` round when a revision cue finds no shown "
        f"state). Embedder: {embedder}. LanceDB + Tantivy in a temp dir.\n\n"
        "*arrival* = messages per `Writer.write` (import/backfill ≈ hundreds, a live channel "
        "drained often ≈ a few); arrivals below 32 replay only the first conversation(s) "
        "(*messages* column), since every write is a full commit. *tok* = the fake server's "
        "whitespace-word count; *~tok* = characters / 4, an estimate of real BPE tokens.\n\n"
        "| arrival | messages | calls/msg | msgs/call | gated share | inspection rounds | "
        "prompt tok/msg | completion tok/msg | ~prompt tok/msg | ~completion tok/msg | fallbacks | "
        "verdicts after verify (est/rev/res/ctx) | downgraded | wall s |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|\n"
    )
    lines = []
    for r in rows:
        s, v = r["stats"], r["verdicts"]
        mix = "/".join(str(v.get(k, 0)) for k in ("establish", "revise", "restate", "context"))
        lines.append(
            f"| {r['arrival']} | {s['messages']} | {s['calls_per_message']:.3f} | "
            f"{s['messages_per_call']:.2f} | "
            f"{s['gated_share']:.3f} | {s['inspection_rounds']} | "
            f"{s['prompt_tokens_per_message']:.0f} | {s['completion_tokens_per_message']:.1f} | "
            f"{r['est_prompt_tokens_per_message']:.0f} | "
            f"{r['est_completion_tokens_per_message']:.1f} | {s['fallbacks']} | {mix} | "
            f"{r['downgraded']} | {r['seconds']:.1f} |"
        )
    return head + "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--embedder", choices=("hashing", "minilm"), default="minilm")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--arrivals", default="256,32,8,1",
                    help="comma-separated messages per Writer.write")
    ap.add_argument("--conversations", type=int, default=0, help="0 = all")
    ap.add_argument("--trickle-conversations", type=int, default=1,
                    help="arrivals below 32 replay only this many conversations (each write "
                         "is a full commit, so they are slow); 0 = all")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)

    ds = load_dataset("locomo", args.data)
    convs = ds.conversations[: args.conversations or None]
    by_conv = [c.messages for c in convs]
    embedder: Embedder = (MiniLMEmbedder() if args.embedder == "minilm"
                          else HashingEmbedder())
    name = ("all-MiniLM-L6-v2 int8 (MiniLMEmbedder)" if args.embedder == "minilm"
            else "HashingEmbedder (not semantic; faster)")
    rows: list[dict[str, Any]] = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    md = ""
    for arrival in (int(a) for a in args.arrivals.split(",")):
        convs_used = by_conv
        if arrival < 32 and args.trickle_conversations:
            convs_used = by_conv[: args.trickle_conversations]
        row = replay(convs_used, arrival=arrival, batch_size=args.batch_size,
                     embedder=embedder)
        rows.append(row)
        print(f"arrival {arrival}: {row['stats']['calls']} calls, "
              f"{row['seconds']:.1f}s", file=sys.stderr)
        md = table(rows, batch_size=args.batch_size, embedder=name,
                   messages=sum(len(m) for m in by_conv), conversations=len(by_conv))
        args.out.write_text(md)  # after every row: a long run keeps what it measured
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
