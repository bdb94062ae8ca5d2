"""Cost of the LLM reader per question, on LoCoMo dev conversations (or the bundled sample).

The corpus is ingested through the real offline write path (:class:`Writer` with the
:class:`OfflineProposer`, as ``memory/eval/harness.py`` does; the bundled sample goes
through the inbox and :class:`Pipeline`, as ``egmem ingest`` does, so its edit and delete
apply). Every question is then answered by the real :class:`LLMReader`, built like
``bot/app.py`` builds it (``build_llm(Settings(llm_base_url=...))``, ``max_rounds =
Settings.reader_rounds``), through the real openai client against a local
:class:`ScriptedOpenAIServer` whose policy, :class:`PlausibleReader`, reads each request
like a model would. Its rules (deterministic; "terms" are :func:`memory.text.content_terms`,
"match" of a passage is the overlap coefficient of its terms with the question's):

1. No observation yet: ``search_evidence`` with the question as the query.
2. After one tool round, at most one follow-up, the first rule that applies:

   a. *state*: the question asks for a present value ("when/what/which/where ... is/are",
      or a change cue: current, now, latest, still, before, changed, moved, next) and a
      shown passage carries a ``[topic: ...]`` tag (the writer tracks a state there):
      ``read_current_state`` with the question;
   b. *date*: the question names a date expression ("last Friday", "in June"):
      ``resolve_date`` of it relative to the day asked; or it asks when something
      happened and the best-matching passage holds a date expression: ``resolve_date``
      of that, relative to the passage's own day;
   c. *re-search*: the best match is below 0.5: ``search_evidence`` again with the
      question's content words only (a keyword reformulation).

3. Otherwise, or after the follow-up, or when no tools are offered: the final JSON answer.
   A state read answers with its current value, citing the chain's current and previous
   entries; a resolved date answers with the date, citing the passage it came from; else
   the best-matching passage's first 20 words, citing the passages that match at least
   half as well as the best (at most 2). It abstains when no passage matches 0.2.
   Citations are only ids the observations showed, so they validate.

With ``--rerank`` (default on), a second configuration plugs :class:`LLMReranker` into
:class:`EvidenceSearch` (every ``search_evidence`` then makes one ``rerank`` call); the
policy rates each passage ``round(10 * match)``. ``bot/app.py`` has no setting that turns
the LLM reranker on, so this configuration is library wiring only.

Tokens: the fake server counts whitespace-separated words (its only notion of a token); the
``~tok`` columns estimate real BPE tokens as characters / 4 over what was sent and received.

Run from the repository root::

    .venv/bin/python benchmarks/llm_reader_bench.py [--embedder hashing|minilm]
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
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
from memory.access import scope_for  # noqa: E402
from memory.embeddings import Embedder, HashingEmbedder, MiniLMEmbedder  # noqa: E402
from memory.eval.datasets import load_dataset  # noqa: E402
from memory.inbox import Inbox  # noqa: E402
from memory.llm.client import UsageMeter  # noqa: E402
from memory.models import Channel, Delete, Edit, Message, Scope  # noqa: E402
from memory.pipeline import Pipeline  # noqa: E402
from memory.proposer import OfflineProposer  # noqa: E402
from memory.reader.dates import find_date_expressions  # noqa: E402
from memory.reader.llm_reader import LLMReader  # noqa: E402
from memory.reader.search import RERANK_PROMPT_VERSION, EvidenceSearch, LLMReranker  # noqa: E402
from memory.reader.tools import ReaderTools  # noqa: E402
from memory.store import MemoryStore  # noqa: E402
from memory.text import STOPWORDS, content_terms, overlap, tokens  # noqa: E402
from memory.writer import Writer  # noqa: E402
from tests.support.fake_openai import Reply, ScriptedOpenAIServer, text, tool_calls  # noqa: E402

DATA = Path("/work/shared/bench/locomo/locomo_dev5.json")
SAMPLE_CHAT = ROOT / "bot" / "sample" / "team_chat.jsonl"
SAMPLE_QUESTIONS = ROOT / "bot" / "sample" / "questions.json"
OUT = ROOT / "benchmarks" / "results" / "llm_reader.md"

_PASSAGE = re.compile(r"^\[(?P<id>[^\]]+)\] (?P<day>\d{4}-\d{2}-\d{2}) \d{2}:\d{2} #\S+ "
                      r"(?P<rest>.*)$")
_TOPIC = re.compile(r" \[topic: [^\]]*\]$")
_STATE_NOW = re.compile(r"^state \S+ in #\S+ — .*?: now (?P<now>.*)$")
_CHAIN = re.compile(r"^\s+\d+\. .* \[(?P<id>[^\]]+)\] \(\w+\): ")
_PRESENT = re.compile(r"^\s*(when|what|which|where|who|how much|how many)\b[^?]*?\b(is|are)\b"
                      r"|\b(current|currently|now|latest|still|before|changed|moved|next)\b",
                      re.IGNORECASE)
_WHEN = re.compile(r"^\s*(when|what (day|date|year|month)|how long ago)\b", re.IGNORECASE)
_ABSTAIN_BELOW = 0.2
_RESEARCH_BELOW = 0.5


# ---------------------------------------------------------------------------- the "model"


@dataclass
class Passage:
    node_id: str
    day: str
    text: str
    topic: bool
    match: float = 0.0


@dataclass
class Seen:
    """What the observations of one reader request showed."""

    passages: list[Passage] = field(default_factory=list)
    state_now: str = ""  # the chosen state's current value, as the tool described it
    state_ids: list[str] = field(default_factory=list)  # its chain's node ids, oldest first
    date: str = ""
    date_from: str = ""  # node id the resolved expression came from ("" = the question)
    tools_used: list[str] = field(default_factory=list)


def _match(question: set[str], passage: str) -> float:
    return overlap(question, set(content_terms(passage)))


def read_observations(messages: Sequence[dict[str, Any]], question: str) -> Seen:
    """Parse the tool calls and tool outputs of a reader request, as a model reads them."""
    seen = Seen()
    calls: dict[str, tuple[str, dict[str, Any]]] = {}
    qterms = set(content_terms(question))
    for m in messages:
        for c in m.get("tool_calls") or []:
            calls[c["id"]] = (c["function"]["name"], json.loads(c["function"]["arguments"]))
        if m["role"] != "tool":
            continue
        name, args = calls.get(m["tool_call_id"], ("", {}))
        seen.tools_used.append(name)
        out = str(m.get("content") or "")
        if name in ("search_evidence", "lookup_phrase"):
            for line in out.splitlines():
                pm = _PASSAGE.match(line)
                if pm:
                    rest = _TOPIC.sub("", pm["rest"])
                    said = rest.partition(": ")[2] or rest  # without the "speaker: " prefix
                    seen.passages.append(Passage(pm["id"], pm["day"], said, rest != pm["rest"],
                                                 _match(qterms, said)))
        elif name == "read_current_state":
            # One block per state; the one whose header (topic, current value) matches the
            # question best is used, the tool's order breaking ties.
            blocks: list[tuple[float, str, list[str]]] = []
            for line in out.splitlines():
                sm, cm = _STATE_NOW.match(line), _CHAIN.match(line)
                if sm:
                    blocks.append((_match(qterms, line), sm["now"], []))
                elif cm and blocks:
                    blocks[-1][2].append(cm["id"])
            if blocks:
                _, seen.state_now, seen.state_ids = max(blocks, key=lambda b: b[0])
        elif name == "resolve_date" and " = " in out:
            seen.date = out.split(" = ", 1)[1].split(" (")[0]
            expr, ref = str(args.get("expression", "")), str(args.get("reference", ""))
            seen.date_from = next((p.node_id for p in seen.passages
                                   if p.day == ref and expr in p.text), "")
    return seen


def _best(seen: Seen) -> Passage | None:
    # Highest match; the earliest shown wins a tie (it was ranked higher or is older).
    return max(seen.passages, key=lambda p: p.match, default=None)


def keyword_query(question: str) -> str:
    return " ".join(t for t in tokens(question) if t not in STOPWORDS and len(t) > 1)


class PlausibleReader:
    """Answers reader and rerank requests by the rules in the module docstring."""

    def __init__(self) -> None:
        self.followups: Counter[str] = Counter()
        self.last_citations: list[str] = []

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        if RERANK_PROMPT_VERSION in str(messages[0].get("content", "")):
            return self.rerank(str(messages[1]["content"]))
        asked = json.loads(messages[1]["content"])
        question, asked_on = str(asked["question"]), str(asked["asked_on"])
        seen = read_observations(messages, question)
        rounds = sum(1 for m in messages if m["role"] == "assistant" and m.get("tool_calls"))
        if body.get("tools"):
            if rounds == 0:
                return tool_calls([("search_evidence", {"query": question})])
            if rounds == 1:
                follow = self.follow_up(question, asked_on, seen)
                if follow is not None:
                    self.followups[follow[0]] = self.followups[follow[0]] + 1
                    return tool_calls([follow])
        return self.final(seen)

    def follow_up(self, question: str, asked_on: str,
                  seen: Seen) -> tuple[str, dict[str, Any]] | None:
        best = _best(seen)
        if _PRESENT.search(question) and any(p.topic for p in seen.passages):
            return "read_current_state", {"query": question}
        named = find_date_expressions(question)
        if named:
            return "resolve_date", {"expression": named[0], "reference": asked_on}
        if _WHEN.search(question) and best is not None and best.match > 0:
            found = find_date_expressions(best.text)
            if found:
                return "resolve_date", {"expression": found[0], "reference": best.day}
        if best is None or best.match < _RESEARCH_BELOW:
            query = keyword_query(question)
            if query and query != question:
                return "search_evidence", {"query": query}
        return None

    def final(self, seen: Seen) -> Reply:
        best = _best(seen)
        cites: list[str] = []
        if seen.state_now and seen.state_ids:
            answer = f"Now {seen.state_now}"
            cites = seen.state_ids[-1:-3:-1]
        elif seen.date and best is not None:
            src = next((p for p in seen.passages if p.node_id == seen.date_from), best)
            answer = f"{seen.date} ({' '.join(src.text.split()[:12])})"
            cites = [src.node_id]
        elif best is not None and best.match >= _ABSTAIN_BELOW:
            answer = " ".join(best.text.split()[:20])
            ranked = sorted(seen.passages, key=lambda p: -p.match)
            cites = [p.node_id for p in ranked if p.match >= best.match / 2][:2]
        else:
            self.last_citations = []
            return text(json.dumps({"answer": "The retrieved messages do not say.",
                                    "citations": [], "abstain": True}))
        self.last_citations = cites
        return text(json.dumps({"answer": answer, "citations": cites, "abstain": False},
                               ensure_ascii=False))

    def rerank(self, user: str) -> Reply:
        payload, _, block = user.partition("\n\nPassages:\n")
        qterms = set(content_terms(str(json.loads(payload).get("question", ""))))
        passages: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            m = re.match(r"^(\d+)\. \d{4}-\d{2}-\d{2} ", line)
            if m:
                current = m.group(1)
                passages[current] = line[m.end():]
            elif current:  # a passage with a line break continues
                passages[current] += " " + line
        scores = {n: round(10 * _match(qterms, p)) for n, p in passages.items()}
        return text(json.dumps({"scores": scores}))


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
    writer = Writer(store=store, embedder=embedder, proposer=OfflineProposer())
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


def answer_all(corpus: Corpus, *, store: MemoryStore, embedder: Embedder,
               rerank: bool) -> dict[str, Any]:
    """Answer every question of ``corpus`` with the LLM reader; returns the measurements."""
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
    with ScriptedOpenAIServer(policy=policy) as server:
        settings = Settings(llm_base_url=server.base_url, llm_api_key="bench",
                            llm_model="plausible")
        client = build_llm(settings, meter)
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
            dropped += len(set(model.last_citations) - set(cited))
            found = {n.node_id for n in store.get_nodes(cited, q.scope)}
            per_q.append({"question": q.text, "answer": ans.answer, "rounds": ans.rounds,
                          "abstained": ans.abstained,
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
                   "failures": row["failures"]}
    rounds = [r["rounds"] for r in per_q]
    return {
        "config": "LLM reader + LLM reranker" if rerank else "LLM reader",
        "questions": len(per_q), "ops": ops, "per_question": per_q, "seconds": seconds,
        "rounds_mean": sum(rounds) / n, "rounds_max": max(rounds, default=0),
        "cited_share": sum(1 for r in per_q if r["cited"]) / n,
        "citations": sum(len(r["cited"]) for r in per_q),
        "citations_in_store": sum(len(r["cited_in_store"]) for r in per_q),
        "dropped": dropped, "abstained": sum(1 for r in per_q if r["abstained"]),
        "followups": dict(model.followups),
    }


def table(rows: Sequence[dict[str, Any]], corpus: Corpus, *, embedder: str) -> str:
    head = (
        f"# LLM reader cost per question on {corpus.name}\n\n"
        f"`benchmarks/llm_reader_bench.py`: {corpus.conversations} conversation(s), "
        f"{corpus.messages} messages ingested by the real offline write path (Writer + "
        f"OfflineProposer, {corpus.ingest_seconds:.1f} s), then {len(corpus.questions)} "
        "questions answered by the real `LLMReader` (built as `bot/app.py` builds it, "
        "max_rounds = 10) through the real openai client against ScriptedOpenAIServer "
        "answering with a plausible policy: round 1 `search_evidence` with the question; then "
        "at most one follow-up chosen from what the observations show (`read_current_state` "
        "for a present-value question when a shown passage belongs to a tracked state, "
        "`resolve_date` for a date in the question or in the best passage of a *when* "
        "question, a keyword re-search when nothing matches well); then a JSON answer citing "
        "only observed node ids (rules in the module docstring). The *+ LLM reranker* row "
        "plugs `LLMReranker` into `EvidenceSearch` (one `rerank` call per search; the policy "
        "rates passages by term overlap); `bot/app.py` has no setting for it, so that row is "
        f"library wiring only. Embedder: {embedder}. LanceDB + Tantivy in a temp dir.\n\n"
        f"Machine: {machine_line(machine())}.\n\n"
        "*tok* = the fake server's whitespace-word count; *~tok* = characters / 4, an estimate "
        "of real BPE tokens. Tokens are summed over both operations (reader rounds and "
        "rerank). *tool rounds* = tool-calling rounds before the answer (the answer request "
        "is one more reader call). *cited* = answers with ≥ 1 citation that passed the "
        "reader's validation (cited ids that a tool showed in that session); *in store* = "
        "those ids found again in the store within the question's scope.\n\n"
        "| configuration | questions | reader calls/q | rerank calls/q | prompt tok/q | "
        "completion tok/q | ~prompt tok/q | ~completion tok/q | tool rounds/q mean | max | "
        "follow-ups (state/date/re-search) | cited | citations in store | abstentions | "
        "wall s |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
    )
    lines = []
    for r in rows:
        ops = r["ops"]
        tot = {k: sum(o[k] for o in ops.values()) for k in (
            "prompt_tokens", "completion_tokens", "est_prompt_tokens", "est_completion_tokens")}
        f = r["followups"]
        mix = "/".join(str(f.get(k, 0)) for k in (
            "read_current_state", "resolve_date", "search_evidence"))
        lines.append(
            f"| {r['config']} | {r['questions']} | {ops.get('reader', {}).get('calls', 0):.2f} | "
            f"{ops.get('rerank', {}).get('calls', 0):.2f} | {tot['prompt_tokens']:.0f} | "
            f"{tot['completion_tokens']:.1f} | {tot['est_prompt_tokens']:.0f} | "
            f"{tot['est_completion_tokens']:.1f} | {r['rounds_mean']:.2f} | {r['rounds_max']} | "
            f"{mix} | {r['cited_share']:.0%} | {r['citations_in_store']}/{r['citations']} | "
            f"{r['abstained']} | {r['seconds']:.1f} |")
    by_op = ["", "Per operation (per question):", "",
             "| configuration | operation | calls | prompt tok | completion tok | ~prompt tok | "
             "~completion tok |", "|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        for op, o in sorted(r["ops"].items(), key=lambda kv: kv[0] != "reader"):
            by_op.append(f"| {r['config']} | {op} | {o['calls']:.2f} | {o['prompt_tokens']:.0f} | "
                         f"{o['completion_tokens']:.1f} | {o['est_prompt_tokens']:.0f} | "
                         f"{o['est_completion_tokens']:.1f} |")
    return head + "\n".join(lines) + "\n" + "\n".join(by_op) + "\n"


def run(data: Path, *, embedder_kind: str, conversations: int, questions: int, rerank: bool,
        work: Path | None = None) -> tuple[Corpus, list[dict[str, Any]], str]:
    """Ingest, answer (one or two configurations) and render. ``work`` keeps the store
    (``work/db``, ``work/lex``); default a temp dir, removed after."""
    embedder: Embedder = MiniLMEmbedder() if embedder_kind == "minilm" else HashingEmbedder()
    name = ("all-MiniLM-L6-v2 int8 (MiniLMEmbedder)" if embedder_kind == "minilm"
            else "HashingEmbedder (not semantic; faster)")
    with tempfile.TemporaryDirectory() as tmp:
        root = work or Path(tmp)
        store = MemoryStore(uri=str(root / "db"), lexical_dir=root / "lex", dim=embedder.dim)
        try:
            corpus = ingest(data, conversations=conversations, questions=questions,
                            store=store, embedder=embedder, work=root)
            rows = []
            for with_rerank in (False, True) if rerank else (False,):
                rows.append(answer_all(corpus, store=store, embedder=embedder,
                                       rerank=with_rerank))
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
    ap.add_argument("--no-rerank", dest="rerank", action="store_false",
                    help="skip the LLM-reranker configuration")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--keep", type=Path, default=None, help="keep the store in this folder")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    _, _, md = run(args.data, embedder_kind=args.embedder, conversations=args.conversations,
                   questions=args.questions, rerank=args.rerank, work=args.keep)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(md, encoding="utf-8")
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
