"""Cost of the LLM reader per question, for each endpoint behaviour, on LoCoMo dev
conversations (or the bundled sample).

The corpus is ingested through the real offline write path (:class:`Writer` with the
:class:`OfflineProposer`, as ``egmem_eval/harness.py`` does; the bundled sample goes
through the inbox and :class:`Pipeline`, as ``egmem ingest`` does, so its edit and delete
apply). Every question is then answered by the real :class:`LLMReader`, built like
``bot/app.py`` builds it (``build_llm(Settings(llm_base_url=...))``, ``max_rounds =
Settings.reader_rounds``), through the real openai client against a local
:class:`ScriptedOpenAIServer` whose policy, :class:`tests.support.llm_models.PlausibleReader`,
reads each request like a model would (its rules are in that module's docstring). The server
runs in each :class:`~tests.support.fake_openai.EndpointMode` of ``MODES`` (small context, no
tools, one call per reply, calls in content, string booleans, cut replies, slow replies,
429 bursts), one row per mode; the 429 bursts ask for 10 ms so the run stays short.

With ``--rerank`` (default on), the ideal endpoint also runs with :class:`LLMReranker` in
:class:`EvidenceSearch` (every ``search_evidence`` then makes one ``rerank`` call); the
policy rates each passage ``round(10 * match)``. ``bot/app.py`` builds it with
``EGMEM_RERANK=llm``.

Tokens: the fake server counts whitespace-separated words (its only notion of a token); the
``~tok`` columns estimate real BPE tokens as characters / 4 over what was sent and received.

Run from the repository root::

    .venv/bin/python benchmarks/llm_reader_bench.py [--embedder hashing|minilm] [--modes ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _p in (ROOT, ROOT / "benchmarks"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from benchutil import machine, machine_line  # noqa: E402

from adapters.exports import iter_events  # noqa: E402
from bot.app import build_llm  # noqa: E402
from bot.settings import Settings  # noqa: E402
from egmem_eval.datasets import load_dataset  # noqa: E402
from memory.access import scope_for  # noqa: E402
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402
from memory.llm.client import UsageMeter  # noqa: E402
from memory.llm.profile import MemoryProfileStore  # noqa: E402
from memory.models import Channel, Delete, Edit, Message, Scope  # noqa: E402
from memory.pipeline import Pipeline  # noqa: E402
from memory.proposer import OfflineProposer  # noqa: E402
from memory.reader.llm_reader import FALLBACK_NOTICE, LLMReader  # noqa: E402
from memory.reader.rerank import RERANK_PROMPT_VERSION, LLMReranker  # noqa: E402
from memory.reader.search import EvidenceSearch  # noqa: E402
from memory.reader.tools import ReaderTools  # noqa: E402
from memory.store import MemoryStore, open_store  # noqa: E402
from memory.store.inbox import Inbox  # noqa: E402
from memory.writer import open_writer  # noqa: E402
from tests.support.fake_openai import MODES, EndpointMode, Reply, ScriptedOpenAIServer  # noqa: E402
from tests.support.llm_models import PlausibleReader  # noqa: E402

DATA = Path("/work/shared/bench/locomo/locomo_dev5.json")
SAMPLE_CHAT = ROOT / "bot" / "sample" / "team_chat.jsonl"
SAMPLE_QUESTIONS = ROOT / "bot" / "sample" / "questions.json"
OUT = ROOT / "benchmarks" / "results" / "llm_reader.md"

# ---------------------------------------------------------------------------- the corpus


@dataclass
class Question:
    text: str
    reference: datetime | None
    scope: Scope | None = None
    asker: tuple[str, str, str | None, str | None] | None = None  # platform, space, user, chan


@dataclass
class Corpus:
    name: str
    questions: list[Question]
    messages: int = 0
    conversations: int = 0
    ingest_seconds: float = 0.0


def ingest(data: Path, *, conversations: int, questions: int, store: MemoryStore,
           embedder: Embedder, work: Path) -> Corpus:
    """Write the corpus into ``store`` with the offline writer; return its questions."""
    writer = open_writer(store=store, embedder=embedder, proposer=OfflineProposer())
    start = time.perf_counter()
    if data.exists():
        ds = load_dataset("locomo", data)
        convs = ds.conversations[: conversations or None]
        per_conv = -(-questions // len(convs)) if questions else 0
        qs: list[Question] = []
        for conv in convs:
            writer.write(conv.messages)
            scope = Scope(platform=conv.messages[0].platform if conv.messages else None,
                          space=conv.space)
            picked = conv.questions[:per_conv] if per_conv else conv.questions
            qs += [Question(q.question, q.reference_date, scope=scope) for q in picked]
        corpus = Corpus(f"LoCoMo dev (`{data.name}`)", qs[: questions or None],
                        messages=sum(len(c.messages) for c in convs), conversations=len(convs))
    else:
        inbox = Inbox(work / "inbox.sqlite3")
        pipeline = Pipeline(inbox=inbox, writer=writer, store=store)
        events: list[Message | Edit | Delete] = []
        channels: list[Channel] = []
        for item in iter_events(SAMPLE_CHAT):
            if item.error is not None:
                raise item.error
            if isinstance(item.event, Channel):
                channels.append(item.event)
            elif item.event is not None:
                events.append(item.event)
        store.put_channels(channels)
        inbox.submit(events)
        pipeline.drain()
        inbox.close()
        msgs = [e for e in events if isinstance(e, Message)]
        # Asked right after the last message, so relative dates resolve the same every run.
        asked = max(m.ts for m in msgs)
        raw = json.loads(SAMPLE_QUESTIONS.read_text(encoding="utf-8"))[: questions or None]
        qs = [Question(q["question"], asked, asker=(msgs[0].platform, msgs[0].space,
                                                    q.get("as_user"), q.get("channel")))
              for q in raw]
        corpus = Corpus("the bundled sample chat (`bot/sample/team_chat.jsonl`)", qs,
                        messages=len(msgs), conversations=1)
    corpus.ingest_seconds = time.perf_counter() - start
    for q in corpus.questions:
        if q.asker is not None:
            platform, space, user, channel = q.asker
            q.scope = scope_for(store, platform=platform, space=space, user=user,
                                channel=channel)
    return corpus


# ---------------------------------------------------------------------------- the run


def _prompt_chars(body: dict[str, Any]) -> int:
    """Characters of message contents, echoed tool calls and tool schemas of one request."""
    n = len(json.dumps(body.get("tools", []))) if body.get("tools") else 0
    for m in body["messages"]:
        n += len(m.get("content") or "")
        for call in m.get("tool_calls") or []:
            n += len(call["function"]["arguments"])
    return n


def answer_all(corpus: Corpus, *, store: MemoryStore, embedder: Embedder, rerank: bool,
               mode: EndpointMode | None = None) -> dict[str, Any]:
    """Answer every question of ``corpus`` with the LLM reader against an endpoint behaving
    as ``mode``; returns the measurements."""
    mode = mode or MODES["ideal"]
    if mode.rate_limit is not None:
        mode = dataclasses.replace(mode, retry_after_s=0.01)
    model = PlausibleReader()
    completion_chars: Counter[str] = Counter()

    def policy(body: dict[str, Any]) -> Reply:
        reply = model(body)
        op = "rerank" if RERANK_PROMPT_VERSION in str(body["messages"][0]["content"]) else (
            "reader")
        completion_chars[op] += len(getattr(reply, "content", None) or "") + sum(
            len(a) for _, a in getattr(reply, "calls", ()))
        return reply

    meter = UsageMeter()
    with ScriptedOpenAIServer(policy=policy, mode=mode) as server:
        settings = Settings(llm_base_url=server.base_url, llm_api_key="bench",
                            llm_model="plausible")
        client = build_llm(settings, meter, profiles=MemoryProfileStore())
        assert client is not None
        search = EvidenceSearch(store=store, embedder=embedder,
                                reranker=LLMReranker(client=client) if rerank else None)
        reader = LLMReader(client=client, tools=ReaderTools(store=store, embedder=embedder,
                                                            search=search),
                           max_rounds=settings.reader_rounds)
        per_q: list[dict[str, Any]] = []
        dropped = 0
        start = time.perf_counter()
        for q in corpus.questions:
            assert q.scope is not None
            ans = reader.answer(q.text, scope=q.scope, reference=q.reference)
            cited = [c.node_id for c in ans.citations]
            found = {n.node_id for n in store.get_nodes(cited, q.scope)}
            per_q.append({"question": q.text, "answer": ans.answer, "rounds": ans.rounds,
                          "abstained": ans.abstained,
                          "fallback": FALLBACK_NOTICE in ans.answer,
                          "cited": cited, "cited_in_store": [c for c in cited if c in found]})
        seconds = time.perf_counter() - start
        prompt_chars: Counter[str] = Counter()
        for req in server.chat_requests():
            op = "rerank" if RERANK_PROMPT_VERSION in str(req["messages"][0]["content"]) else (
                "reader")
            prompt_chars[op] += _prompt_chars(req.body)
        client.close()
        if server.unscripted:
            raise RuntimeError(f"{server.unscripted} requests went unanswered")
    n = len(per_q) or 1
    ops: dict[str, dict[str, float]] = {}
    for op, row in meter.snapshot().items():
        ops[op] = {"calls": row["calls"] / n, "prompt_tokens": row["prompt_tokens"] / n,
                   "completion_tokens": row["completion_tokens"] / n,
                   "est_prompt_tokens": prompt_chars[op] / 4 / n,
                   "est_completion_tokens": completion_chars[op] / 4 / n,
                   "retries": row["retries"], "failures": row["failures"]}
    rounds = [r["rounds"] for r in per_q]
    name = mode.name if mode.name != "ideal" else "ideal"
    return {
        "config": f"{name}{' + LLM reranker' if rerank else ''}", "mode": mode.name,
        "questions": len(per_q), "ops": ops, "per_question": per_q, "seconds": seconds,
        "rounds_mean": sum(rounds) / n, "rounds_max": max(rounds, default=0),
        "cited_share": sum(1 for r in per_q if r["cited"]) / n,
        "citations": sum(len(r["cited"]) for r in per_q),
        "citations_in_store": sum(len(r["cited_in_store"]) for r in per_q),
        "dropped": dropped, "abstained": sum(1 for r in per_q if r["abstained"]),
        "fallbacks": sum(1 for r in per_q if r["fallback"]),
        "followups": dict(model.followups),
    }


def table(rows: Sequence[dict[str, Any]], corpus: Corpus, *, embedder: str) -> str:
    head = (
        f"# LLM reader cost per question on {corpus.name}, per endpoint behaviour\n\n"
        f"`benchmarks/llm_reader_bench.py`: {corpus.conversations} conversation(s), "
        f"{corpus.messages} messages ingested by the real offline write path (Writer + "
        f"OfflineProposer, {corpus.ingest_seconds:.1f} s), then {len(corpus.questions)} "
        "questions answered by the real `LLMReader` (built as `bot/app.py` builds it, "
        "max_rounds = 10) through the real openai client against ScriptedOpenAIServer "
        "answering with a plausible policy (`tests/support/llm_models.py`: round 1 "
        "`search_evidence` with the question; at most one follow-up chosen from what the "
        "observations show; then the `answer` tool citing passage names it was shown). Each "
        "row is one endpoint behaviour of `tests/support/fake_openai.py` (`MODES`): "
        "*small-context* = 1900-token context with vLLM's overflow error; *no-tools* = "
        "Ollama's \"does not support tools\"; *one-call* = one tool call per reply; "
        "*calls-in-content* = calls written as JSON text; *string-booleans*; *truncated* = "
        "replies cut at 60 tokens (`finish_reason=length`); *slow* = 20 ms per reply; "
        "*rate-limited* = 2 of every 4 requests get a 429 (Retry-After 10 ms). The "
        "*+ LLM reranker* row plugs `LLMReranker` into `EvidenceSearch` (one `rerank` call "
        f"per search). Embedder: {embedder}. LanceDB + Tantivy in a temp dir.\n\n"
        f"Machine: {machine_line(machine())}.\n\n"
        "*tok* = the fake server's whitespace-word count; *~tok* = characters / 4, an estimate "
        "of real BPE tokens; tokens are summed over both operations (reader rounds and "
        "rerank). *retries* = HTTP attempts repeated (429, 5xx). *tool rounds* = tool-calling "
        "rounds before the answer. *cited* = answers with ≥ 1 citation that passed the "
        "reader's validation; *in store* = those ids found again in the store within the "
        "question's scope. *offline fallback* = questions the offline reader answered "
        "because the endpoint failed (context overflow, deadline).\n\n"
        "| endpoint | questions | reader calls/q | rerank calls/q | retries/q | prompt tok/q | "
        "completion tok/q | ~prompt tok/q | ~completion tok/q | tool rounds/q mean | max | "
        "follow-ups (state/date/re-search) | cited | citations in store | abstentions | "
        "offline fallback | wall s |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n"
    )
    lines = []
    for r in rows:
        ops = r["ops"]
        tot = {k: sum(o[k] for o in ops.values()) for k in (
            "prompt_tokens", "completion_tokens", "est_prompt_tokens", "est_completion_tokens")}
        retries = sum(o["retries"] for o in ops.values()) / (r["questions"] or 1)
        f = r["followups"]
        mix = "/".join(str(f.get(k, 0)) for k in (
            "read_current_state", "resolve_date", "search_evidence"))
        lines.append(
            f"| {r['config']} | {r['questions']} | {ops.get('reader', {}).get('calls', 0):.2f} | "
            f"{ops.get('rerank', {}).get('calls', 0):.2f} | {retries:.2f} | "
            f"{tot['prompt_tokens']:.0f} | "
            f"{tot['completion_tokens']:.1f} | {tot['est_prompt_tokens']:.0f} | "
            f"{tot['est_completion_tokens']:.1f} | {r['rounds_mean']:.2f} | {r['rounds_max']} | "
            f"{mix} | {r['cited_share']:.0%} | {r['citations_in_store']}/{r['citations']} | "
            f"{r['abstained']} | {r['fallbacks']} | {r['seconds']:.1f} |")
    by_op = ["", "Per operation (per question):", "",
             "| endpoint | operation | calls | prompt tok | completion tok | ~prompt tok | "
             "~completion tok |", "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        for op, o in sorted(r["ops"].items(), key=lambda kv: kv[0] != "reader"):
            by_op.append(f"| {r['config']} | {op} | {o['calls']:.2f} | {o['prompt_tokens']:.0f} | "
                         f"{o['completion_tokens']:.1f} | {o['est_prompt_tokens']:.0f} | "
                         f"{o['est_completion_tokens']:.1f} |")
    return head + "\n".join(lines) + "\n" + "\n".join(by_op) + "\n"


def run(data: Path, *, embedder_kind: str, conversations: int, questions: int, rerank: bool,
        work: Path | None = None, modes: Sequence[str] = ("ideal",)
        ) -> tuple[Corpus, list[dict[str, Any]], str]:
    """Ingest, answer (one row per endpoint mode, plus the reranker on the ideal endpoint)
    and render. ``work`` keeps the store (``work/db``, ``work/lex``); default a temp dir."""
    embedder: Embedder = MiniLMEmbedder() if embedder_kind == "minilm" else HashingEmbedder()
    name = ("all-MiniLM-L6-v2 int8 (MiniLMEmbedder)" if embedder_kind == "minilm"
            else "HashingEmbedder (not semantic; faster)")
    with tempfile.TemporaryDirectory() as tmp:
        root = work or Path(tmp)
        store = open_store(uri=str(root / "db"), lexical_dir=root / "lex", dim=embedder.dim)
        try:
            corpus = ingest(data, conversations=conversations, questions=questions,
                            store=store, embedder=embedder, work=root)
            rows = []
            configs = [(m, False) for m in modes]
            if rerank and "ideal" in modes:
                configs.insert(modes.index("ideal") + 1, ("ideal", True))
            for mode_name, with_rerank in configs:
                rows.append(answer_all(corpus, store=store, embedder=embedder,
                                       rerank=with_rerank, mode=MODES[mode_name]))
                print(f"{rows[-1]['config']}: {rows[-1]['questions']} questions, "
                      f"{rows[-1]['seconds']:.1f}s", file=sys.stderr)
        finally:
            store.close()
    return corpus, rows, table(rows, corpus, embedder=name)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA,
                    help="LoCoMo file; when absent, the bundled sample chat is used")
    ap.add_argument("--embedder", choices=("hashing", "minilm"), default="minilm")
    ap.add_argument("--conversations", type=int, default=2, help="0 = all")
    ap.add_argument("--questions", type=int, default=100,
                    help="at most this many, split evenly over the conversations; 0 = all")
    ap.add_argument("--modes", default=",".join(MODES),
                    help=f"comma-separated endpoint modes (of {', '.join(MODES)})")
    ap.add_argument("--no-rerank", dest="rerank", action="store_false",
                    help="skip the LLM-reranker configuration")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--keep", type=Path, default=None, help="keep the store in this folder")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    _, _, md = run(args.data, embedder_kind=args.embedder, conversations=args.conversations,
                   questions=args.questions, rerank=args.rerank, work=args.keep, modes=modes)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(md, encoding="utf-8")
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
