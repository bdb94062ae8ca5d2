"""Load test of the Slack HTTP endpoint: signed events at a sustained rate while /recall runs.

Everything is the production path except Slack itself: the real bolt app
(:func:`adapters.slack.app.build_slack_app`) behind :class:`adapters.slack.server.SlackHTTPServer`
on 127.0.0.1, over a real :class:`memory.service.Egmem` (``bot.app.build``; MiniLM by default,
``--embedder hashing`` for the lexical stand-in), with the fake Slack Web API of
``tests/support/fake_slack.py`` answering the app's outgoing calls (``users.info``,
``conversations.*``, slash-command ``response_url`` posts).

What one run does
    * a workspace of ``channels`` conversations (``private`` of them private) and 12 users;
    * ``events`` distinct ``message`` event_callbacks (decisions, revisions and chatter,
      round-robin over the channels), each signed with the signing secret, plus Slack's
      redeliveries: ``retry_fraction`` of them are re-posted with ``X-Slack-Retry-Num``
      (a quarter of those twice) and ``duplicate_fraction`` re-posted under a new
      ``event_id``. Deliveries are paced at ``rate`` per second by ``clients`` threads,
      each on its own keep-alive connection; a delivery that fails is redelivered the
      way Slack does (up to 3 attempts, ``X-Slack-Retry-Num``) and counted as an error;
    * meanwhile one thread posts ``/recall <question>`` every ``query_interval_s`` (or
      right after the previous answer, if that took longer) until the posting is done,
      waiting for each answer at the fake ``response_url``;
    * then it waits (bounded) until the app's own processing has emptied the inbox and
      checks: every distinct message is one evidence node (no duplicate message ids, none
      missing, none extra), the inbox holds each message once with nothing pending or
      dead, every delivery was acknowledged and every query answered.

Figures: acked deliveries/s and distinct events/s over the posting window, committed/s
from the first post until the inbox is empty, ack latency p50/p95/p99 (request sent →
HTTP 200, which bolt returns only after ``submit`` made the event durable), ``/recall``
answer latency p50/p95 (command posted → answer at the response_url). Client, server,
fake Slack and egmem share this machine's cores.

``--find-max`` then raises the rate from ``--start-rate`` by ``--step-factor`` in steps of
``--step-seconds`` of posting (a fresh deployment each), stopping at the first step that
is not sustained: achieved rate ≥ 95 % of the target, ack p99 under Slack's 3 s deadline,
no failed attempts, exactly once, all queries answered, and commits keeping up (the inbox
empty within 15 s, or a quarter of the posting window, of the last ack: a stable pipeline
needs about one drain cycle for that; a backlog that grows with the offered rate
overshoots it in proportion to the step's length).

The traffic (workspace, messages, deliveries, the posting and asking clients) is
``benchmarks/slack_traffic.py``. Run from the repository root (writes the ``load`` section
of benchmarks/RESULTS.md)::

    .venv/bin/python benchmarks/load_slack.py [--events 3000] [--rate 50] [--find-max]
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from adapters.slack.app import build_slack_app  # noqa: E402
from adapters.slack.server import SlackHTTPServer  # noqa: E402
from benchmarks.slack_traffic import (  # noqa: E402
    BOT,
    LONG_CHARS,
    LONG_SHAPES,
    SECRET,
    TEAM,
    Answers,
    Corpus,
    SignedPoster,
    Workspace,
    ask_repeatedly,
    corpus,
    long_message_deliveries,
    members,
    post_events,
    workspace,
)
from bot.app import build, build_embedder  # noqa: E402
from bot.settings import Settings  # noqa: E402
from memory.service import Egmem  # noqa: E402
from tests.support.fake_slack import FakeSlack  # noqa: E402

logger = logging.getLogger(__name__)

RESULTS = ROOT / "benchmarks" / "RESULTS.md"
START_MARK, END_MARK = "<!-- load:start -->", "<!-- load:end -->"
LONG_MARKS = ("<!-- load-long:start -->", "<!-- load-long:end -->")
SLACK_DEADLINE_MS = 3000.0
# Commits keep up when the inbox empties within this long (or a quarter of the posting
# window) after the last ack: a stable pipeline needs about one drain cycle for that, while a
# backlog that grows with the offered rate overshoots it in proportion to the step's length.
MAX_DRAIN_LAG_S = 15.0
DRAIN_LAG_FRACTION = 0.25


@dataclass(frozen=True)
class LoadConfig:
    """One load run. ``rate`` paces deliveries (first posts, retries and duplicates)."""

    events: int = 3000
    rate: float = 50.0
    channels: int = 6
    private: int = 2
    clients: int = 4
    retry_fraction: float = 0.03
    duplicate_fraction: float = 0.02
    query_interval_s: float = 0.5
    queries: int | None = None
    """How many ``/recall`` queries; ``None``: one every ``query_interval_s`` (or right
    after the previous answer, when that took longer) until the posting is done."""
    embedder: Literal["minilm", "hashing"] = "minilm"
    seed: int = 7
    query_timeout_s: float = 60.0
    drain_timeout_s: float = 600.0


@dataclass
class LoadResult:
    config: LoadConfig
    distinct: int = 0
    deliveries: int = 0
    retries: int = 0
    duplicates: int = 0
    acked: int = 0
    errors: int = 0
    """Attempts that did not get an HTTP 200 (each was redelivered, as Slack would)."""
    unacked: int = 0
    """Deliveries never acknowledged after every attempt."""
    post_s: float = 0.0
    commit_s: float = 0.0
    drain_lag_s: float = 0.0
    ack_ms: list[float] = field(default_factory=list)
    queries: int = 0
    answered: int = 0
    abstained: int = 0
    answer_ms: list[float] = field(default_factory=list)
    nodes: int = 0
    duplicate_nodes: int = 0
    missing: int = 0
    unexpected: int = 0
    inbox_messages: int = 0
    inbox_pending: int = 0
    inbox_dead: int = 0
    drained: bool = False

    @property
    def acked_per_s(self) -> float:
        return self.acked / self.post_s if self.post_s else 0.0

    @property
    def events_per_s(self) -> float:
        return self.distinct / self.post_s if self.post_s else 0.0

    @property
    def committed_per_s(self) -> float:
        committed = self.nodes - self.duplicate_nodes - self.unexpected
        return committed / self.commit_s if self.commit_s else 0.0

    def problems(self) -> list[str]:
        """Why this run broke the exactly-once / always-answered contract (empty: it did not)."""
        out = []
        if self.unacked:
            out.append(f"{self.unacked} deliveries never acknowledged")
        if not self.drained:
            out.append(f"inbox not drained: {self.inbox_pending} pending")
        if self.duplicate_nodes:
            out.append(f"{self.duplicate_nodes} messages committed more than once")
        if self.missing:
            out.append(f"{self.missing} messages never committed")
        if self.unexpected:
            out.append(f"{self.unexpected} nodes for messages that were never sent")
        if self.inbox_messages != self.distinct:
            out.append(f"inbox holds {self.inbox_messages} messages, {self.distinct} were sent")
        if self.inbox_dead:
            out.append(f"{self.inbox_dead} dead letters")
        if self.answered != self.queries:
            out.append(f"{self.queries - self.answered} of {self.queries} queries unanswered")
        return out

    def sustained(self) -> list[str]:
        """Why the offered rate was not sustained (empty: it was); see the module doc."""
        out = self.problems()
        if self.errors:
            out.append(f"{self.errors} failed attempts")
        achieved = self.deliveries / self.post_s if self.post_s else 0.0
        if achieved < 0.95 * self.config.rate:
            out.append(f"posted {achieved:.0f}/s of {self.config.rate:.0f}/s")
        if percentile(self.ack_ms, 99) >= SLACK_DEADLINE_MS:
            out.append(f"ack p99 {percentile(self.ack_ms, 99):.0f} ms")
        if self.drain_lag_s > max(MAX_DRAIN_LAG_S, DRAIN_LAG_FRACTION * self.post_s):
            out.append(f"commits {self.drain_lag_s:.0f} s behind the last ack")
        return out


# --- checks ------------------------------------------------------------------------------


def exactly_once(expected: Sequence[tuple[str, str]], committed: Sequence[tuple[str, str]]
                 ) -> tuple[int, int, int]:
    """``(duplicates, missing, unexpected)`` of committed (channel, message id) pairs
    against the distinct messages sent."""
    counts = Counter(committed)
    want = set(expected)
    duplicates = sum(n - 1 for n in counts.values() if n > 1)
    missing = len(want - counts.keys())
    unexpected = sum(n for k, n in counts.items() if k not in want)
    return duplicates, missing, unexpected


def wait_drained(service: Egmem, *, timeout_s: float) -> bool:
    """Wait until the app's own processing has emptied the inbox (no help from here)."""
    deadline = time.monotonic() + timeout_s
    while service.inbox.counts().get("pending", 0):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated ``q``-th percentile (0 for no values)."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# --- a run -------------------------------------------------------------------------------


def plan_for(config: LoadConfig) -> Corpus:
    """The workspace, messages and deliveries of ``config`` (deterministic)."""
    return corpus(events=config.events, channels=config.channels, private=config.private,
                  retry_fraction=config.retry_fraction,
                  duplicate_fraction=config.duplicate_fraction, seed=config.seed)


def run_load(config: LoadConfig, *, data_dir: Path) -> LoadResult:
    """One load run against a fresh deployment under ``data_dir``; see the module doc."""
    plan = plan_for(config)
    ws = plan.workspace
    result = LoadResult(config=config, distinct=len(plan.keys), deliveries=len(plan.deliveries),
                        retries=sum(d.kind == "retry" for d in plan.deliveries),
                        duplicates=sum(d.kind == "duplicate" for d in plan.deliveries))
    settings = Settings(data=str(data_dir), embedder=config.embedder)
    embedder = build_embedder(settings)
    embedder.embed_batch(["warm up"])  # load the model before the clock starts
    service = build(settings, embedder=embedder)
    executor = ThreadPoolExecutor(max_workers=5, thread_name_prefix="bolt-lazy")
    try:
        with FakeSlack(team_id=TEAM, bot_user_id=BOT) as slack:
            for k, user in enumerate(ws.users):
                slack.add_user(user, f"User {k}")
            for cid, name, private in ws.channels:
                slack.add_channel(cid, name, kind="group" if private else "channel",
                                  members=members(ws, private))
            app = build_slack_app(service=service, bot_token=slack.token, signing_secret=SECRET,
                                  api_url=slack.base_url, listener_executor=executor)
            server = SlackHTTPServer(app, port=0).start_background()
            try:
                _drive(config, plan, server.url, slack, service, result)
            finally:
                server.stop()
                executor.shutdown(wait=True)
        _check(plan, service, result)
    finally:
        executor.shutdown(wait=True)
        service.close()
    return result


def _drive(config: LoadConfig, plan: Corpus, url: str, slack: FakeSlack, service: Egmem,
           result: LoadResult) -> None:
    answers: list[Answers] = []
    posted = threading.Event()
    asker = threading.Thread(
        target=lambda: answers.append(ask_repeatedly(
            url, slack, plan.questions, asker=plan.workspace.asker,
            channel=plan.workspace.channels[0][0], count=config.queries, stop=posted,
            interval_s=config.query_interval_s, timeout_s=config.query_timeout_s)),
        name="load-recall")
    asker.start()
    try:
        acks = post_events(url, plan.deliveries, rate=config.rate, clients=config.clients)
    finally:
        posted.set()
    result.drained = wait_drained(service, timeout_s=config.drain_timeout_s)
    drained_at = time.monotonic()
    asker.join()
    result.acked, result.errors, result.unacked = acks.acked, acks.errors, acks.unacked
    result.ack_ms = acks.latency_ms
    result.post_s = max(acks.last_end - acks.first_start, 1e-9)
    result.commit_s = max(drained_at - acks.first_start, 1e-9)
    result.drain_lag_s = max(drained_at - acks.last_end, 0.0)
    if answers:
        a = answers[0]
        result.queries, result.answered, result.abstained = a.asked, a.answered, a.abstained
        result.answer_ms = a.latency_ms
    else:  # the query thread died: count what it owed as unanswered
        result.queries = config.queries or 1


def _check(plan: Corpus, service: Egmem, result: LoadResult) -> None:
    rows = service.store.inspection().node_rows(["channel", "message_id"])
    committed = [(str(r["channel"]), str(r["message_id"])) for r in rows]
    result.nodes = len(committed)
    result.duplicate_nodes, result.missing, result.unexpected = exactly_once(plan.keys,
                                                                             committed)
    counts = service.inbox.counts()
    result.inbox_messages = service.inbox.count(kind="message")
    result.inbox_pending = counts.get("pending", 0)
    result.inbox_dead = counts.get("dead", 0)


def find_max(config: LoadConfig, *, start_rate: float, factor: float, step_s: float,
             max_rate: float, work: Path) -> list[LoadResult]:
    """Raise the rate from ``start_rate`` by ``factor`` until a step is not sustained (or
    past ``max_rate``); each step posts for about ``step_s`` seconds."""
    steps: list[LoadResult] = []
    rate = start_rate
    k = 0
    while rate <= max_rate:
        events = max(1, int(rate * step_s / (1 + config.retry_fraction * 1.25
                                             + config.duplicate_fraction)))
        step = replace(config, rate=rate, events=events, queries=None)
        res = run_load(step, data_dir=work / f"step-{k}")
        steps.append(res)
        logger.warning("step %.0f/s: %s", rate, "; ".join(res.sustained()) or "sustained")
        if res.sustained():
            break
        rate = round(rate * factor)
        k += 1
    return steps


# --- one long message ----------------------------------------------------------------------


@dataclass
class LongMessageResult:
    """A 40,000-character message posted, then ordinary events every quarter second while
    the app commits it."""

    shape: str
    embedder: str
    chars: int = 0
    long_ack_ms: float = 0.0
    next_ack_ms: list[float] = field(default_factory=list)
    failed: int = 0
    committed_s: float = 0.0
    stored_whole: bool = False
    next_committed: bool = False

    @property
    def ok(self) -> bool:
        return (not self.failed and bool(self.next_ack_ms)
                and max(self.next_ack_ms) < SLACK_DEADLINE_MS and self.stored_whole
                and self.next_committed)


def run_long_messages(*, data_dir: Path, embedder: Literal["minilm", "hashing"],
                      shapes: Sequence[str] = tuple(LONG_SHAPES)) -> list[LongMessageResult]:
    """For each shape: post a ``LONG_CHARS``-character message, then (while the app
    commits it, right after its ack) the next ordinary event; time both acks, and the
    commit of the long one. Slack gives each delivery 3 s."""
    ws = workspace(channels=2, private=0)
    settings = Settings(data=str(data_dir), embedder=embedder)
    emb = build_embedder(settings)
    emb.embed_batch(["warm up"])
    service = build(settings, embedder=emb)
    executor = ThreadPoolExecutor(max_workers=5, thread_name_prefix="bolt-lazy")
    out: list[LongMessageResult] = []
    try:
        with FakeSlack(team_id=TEAM, bot_user_id=BOT) as slack:
            for k, user in enumerate(ws.users):
                slack.add_user(user, f"User {k}")
            for cid, name, private in ws.channels:
                slack.add_channel(cid, name, members=members(ws, private))
            app = build_slack_app(service=service, bot_token=slack.token, signing_secret=SECRET,
                                  api_url=slack.base_url, listener_executor=executor)
            server = SlackHTTPServer(app, port=0).start_background()
            long_poster, next_poster = SignedPoster(server.url), SignedPoster(server.url)
            try:
                for k, shape in enumerate(shapes):
                    out.append(_one_long(service, long_poster, next_poster, ws, shape, k,
                                         embedder))
                    logger.warning("long message (%s): next acks max %.0f ms, committed in "
                                   "%.1f s", shape, max(out[-1].next_ack_ms, default=0),
                                   out[-1].committed_s)
            finally:
                long_poster.close()
                next_poster.close()
                server.stop()
                executor.shutdown(wait=True)
    finally:
        executor.shutdown(wait=True)
        service.close()
    return out


FOLLOW_EVERY_S = 0.25
MIN_FOLLOWERS = 8


def _one_long(service: Egmem, long_poster: SignedPoster, next_poster: SignedPoster,
              ws: Workspace, shape: str, k: int, embedder: str) -> LongMessageResult:
    long_key, long_delivery, followers = long_message_deliveries(ws, shape, k)
    res = LongMessageResult(shape=shape, embedder=embedder)
    t0 = time.perf_counter()
    status = long_poster.post(long_delivery.body, content_type="application/json")
    res.long_ack_ms = (time.perf_counter() - t0) * 1000
    res.failed += status != 200
    # The app commits the long message after its ack; ordinary events keep arriving every
    # quarter second until it is committed (at least MIN_FOLLOWERS of them).
    sent: list[tuple[str, str]] = []
    committed = False
    for key, delivery in followers:
        t1 = time.perf_counter()
        status = next_poster.post(delivery.body, content_type="application/json")
        res.next_ack_ms.append((time.perf_counter() - t1) * 1000)
        res.failed += status != 200
        sent.append(key)
        committed = committed or _committed(service, long_key, timeout_s=0)
        if committed and not res.committed_s:
            res.committed_s = time.perf_counter() - t0
        if committed and len(sent) >= MIN_FOLLOWERS:
            break
        time.sleep(max(0.0, FOLLOW_EVERY_S - (time.perf_counter() - t1)))
    if not committed:
        committed = _committed(service, long_key, timeout_s=600)
        res.committed_s = time.perf_counter() - t0
    res.next_committed = all(_committed(service, key, timeout_s=600) for key in sent)
    if committed:
        node = service.store.find_message(channel=long_key[0], message_id=long_key[1])
        res.chars = len(node.text) if node is not None else 0
        res.stored_whole = res.chars == LONG_CHARS
    return res


def _committed(service: Egmem, key: tuple[str, str], *, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while service.store.find_message(channel=key[0], message_id=key[1]) is None:
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)
    return True


def long_section(results: Sequence[LongMessageResult], *, machine: str, command: str) -> str:
    lines = [
        "### One 40,000-character message (`benchmarks/load_slack.py --long-message`)",
        "",
        f"Machine: {machine}. Command: `{command}`",
        "",
        f"A {LONG_CHARS:,}-character message event (Slack's own limit) is posted to the live "
        "endpoint; from its acknowledgement on, an ordinary event is posted every "
        f"{FOLLOW_EVERY_S:g} s until the long one is committed (at least {MIN_FOLLOWERS}), "
        "so events arrive while the app analyses and commits it. Slack gives each delivery "
        "3 s. Shapes are the ones that made text analysis quadratic (an unbroken word, "
        "capitals, capitalised words, digit-comma runs, a whitespace run) and prose.",
        "",
        "| shape | embedder | long message ack ms | following events | their ack p50 / max ms "
        "(limit 3000) | long message committed after s | stored whole | all within 3 s |",
        "|---|---|--:|--:|--:|--:|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.shape} | {r.embedder} | {r.long_ack_ms:.0f} | {len(r.next_ack_ms)} | "
            f"{percentile(r.next_ack_ms, 50):.0f} / {max(r.next_ack_ms, default=0):.0f} | "
            f"{r.committed_s:.2f} | {'yes' if r.stored_whole else 'NO'} | "
            f"{'yes' if r.ok else 'NO'} |")
    return "\n".join(lines) + "\n"


# --- report ------------------------------------------------------------------------------

_HEADER = ("| run | embedder | target/s | events (+ retries, dups) | acked/s | events/s "
           "| committed/s | inbox empty after last ack | ack p50 / p95 / p99 ms "
           "| /recall answered | answer p50 / p95 ms | errors | exactly once |\n"
           "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")


def table_row(label: str, r: LoadResult) -> str:
    ok = "yes" if not r.problems() else "NO: " + "; ".join(r.problems())
    return (f"| {label} | {r.config.embedder} | {r.config.rate:.0f} | {r.distinct} "
            f"(+{r.retries}, {r.duplicates}) | {r.acked_per_s:.1f} | {r.events_per_s:.1f} | "
            f"{r.committed_per_s:.1f} | {r.drain_lag_s:.1f} s | {percentile(r.ack_ms, 50):.0f} / "
            f"{percentile(r.ack_ms, 95):.0f} / {percentile(r.ack_ms, 99):.0f} | "
            f"{r.answered}/{r.queries} | {percentile(r.answer_ms, 50):.0f} / "
            f"{percentile(r.answer_ms, 95):.0f} | {r.errors} | {ok} |")


def section(runs: Sequence[LoadResult], steps: Sequence[LoadResult], *, machine: str,
            command: str) -> str:
    main = runs[0]
    lines = [
        "## Slack endpoint under load (`benchmarks/load_slack.py`)",
        "",
        f"Machine: {machine}. Client threads, the bolt app behind `SlackHTTPServer`, the fake "
        "Slack Web API and egmem all run on this machine (loopback).",
        f"Command: `{command}`",
        "",
        f"Signed `message` event_callbacks over {main.config.channels} channels "
        f"({main.config.private} private) from {main.config.clients} client threads, paced at "
        "the target deliveries/s, including Slack retries (`X-Slack-Retry-Num`) and duplicate "
        f"deliveries, while `/recall` asks every {main.config.query_interval_s:g} s. acked/s = "
        "HTTP 200s per second of posting; events/s = distinct messages per second of posting; "
        "committed/s = distinct messages committed per second from the first post until the "
        "inbox was empty. Ack latency is request → 200 (bolt acks only after the event is "
        "durable in the inbox); answer latency is `/recall` posted → answer at the "
        "response_url. Exactly once = one evidence node per distinct message, no duplicate "
        "message ids, inbox empty with no dead letters, every query answered.",
        "",
        _HEADER,
        *(table_row("main", r) for r in runs),
        "",
    ]
    lines += [f"Main run ({r.config.embedder}): {r.abstained} of {r.answered} answers "
              "abstained." for r in runs]
    if steps:
        ok = [s for s in steps if not s.sustained()]
        best = max((s.config.rate for s in ok), default=None)
        lines += ["", "Rate steps (a fresh deployment each; sustained = posted ≥ 95 % of the "
                  "target, ack p99 < 3 s, no failed attempts, exactly once, all queries "
                  "answered, and the inbox empty within max(15 s, 25 % of the posting window) "
                  "of the last ack):", "", _HEADER]
        lines += [table_row(f"step {s.config.rate:.0f}/s", s) for s in steps]
        failed = [s for s in steps if s.sustained()]
        why = f" ({failed[-1].config.rate:.0f}/s: {'; '.join(failed[-1].sustained())})" \
            if failed else ""
        lines.append("")
        lines.append(f"**Max sustained rate: {best:.0f} deliveries/s**{why}." if best
                     else f"**No step was sustained**{why}.")
    return "\n".join(lines) + "\n"


def write_section(path: Path, body: str, *,
                  marks: tuple[str, str] = (START_MARK, END_MARK)) -> None:
    """Replace the text between the ``marks`` of ``path`` (creating the file or the
    markers if missing); every other section is left as it is."""
    start_mark, end_mark = marks
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    block = f"{start_mark}\n{body.rstrip()}\n{end_mark}"
    start, end = text.find(start_mark), text.find(end_mark)
    if 0 <= start < end:
        text = text[:start] + block + text[end + len(end_mark):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def embed_rate(embedder: Literal["minilm", "hashing"], n: int = 256) -> float:
    """Texts/s of the embedder alone, right now: how much of the machine this run had
    (MiniLM does ~450/s on an idle 2-core machine, FINDINGS.md)."""
    emb = build_embedder(Settings(embedder=embedder))
    emb.embed_batch(["warm up"])
    texts = [f"Status: the billing service passed QA (ticket ENG-{i})." for i in range(n)]
    t0 = time.perf_counter()
    for i in range(0, n, 32):
        emb.embed_batch(texts[i:i + 32])
    return n / (time.perf_counter() - t0)


def _machine() -> str:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import benchutil

    return str(benchutil.machine_line(benchutil.machine()))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--events", type=int, default=3000)
    ap.add_argument("--rate", type=float, default=50.0, help="target deliveries per second")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--channels", type=int, default=6)
    ap.add_argument("--embedder", default="minilm",
                    help="minilm, hashing, or both comma-separated (steps use the first)")
    ap.add_argument("--query-interval", type=float, default=0.5)
    ap.add_argument("--find-max", action="store_true", help="also step the rate up")
    ap.add_argument("--start-rate", type=float, default=10.0)
    ap.add_argument("--step-factor", type=float, default=1.5)
    ap.add_argument("--step-seconds", type=float, default=30.0)
    ap.add_argument("--max-rate", type=float, default=1600.0)
    ap.add_argument("--long-message", action="store_true",
                    help=f"only the {LONG_CHARS:,}-character message run (its own section)")
    ap.add_argument("--no-write", action="store_true", help="print, do not edit RESULTS.md")
    ap.add_argument("--results", type=Path, default=RESULTS)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    embedders: list[Literal["minilm", "hashing"]] = []
    for name in args.embedder.split(","):
        if name not in ("minilm", "hashing"):
            ap.error(f"unknown embedder {name!r}")
        embedders.append("minilm" if name == "minilm" else "hashing")
    config = LoadConfig(events=args.events, rate=args.rate, clients=args.clients,
                        channels=args.channels, embedder=embedders[0],
                        query_interval_s=args.query_interval)
    load_avg = os.getloadavg()[0]
    if args.long_message:
        return _long_main(args, embedders, argv, load_avg)
    minilm_rate = embed_rate("minilm") if "minilm" in embedders else None
    runs: list[LoadResult] = []
    with tempfile.TemporaryDirectory(prefix="egmem-load-") as tmp:
        work = Path(tmp)
        for k, emb in enumerate(embedders):
            runs.append(run_load(replace(config, embedder=emb), data_dir=work / f"main-{k}"))
            print(table_row("main", runs[-1]), flush=True)
        steps = find_max(config, start_rate=args.start_rate, factor=args.step_factor,
                         step_s=args.step_seconds, max_rate=args.max_rate,
                         work=work) if args.find_max else []
    command = "python benchmarks/load_slack.py " + " ".join(argv if argv is not None
                                                             else sys.argv[1:])
    machine = f"{_machine()}; 1-min load average {load_avg:.1f} at the start" + (
        f", MiniLM alone {minilm_rate:.0f} texts/s (about 450 on an idle machine)"
        if minilm_rate is not None else "")
    body = section(runs, steps, machine=machine, command=command.strip())
    print(body)
    if not args.no_write:
        write_section(args.results, body)
    return 1 if any(r.problems() for r in runs) else 0


def _long_main(args: argparse.Namespace, embedders: Sequence[Literal["minilm", "hashing"]],
               argv: Sequence[str] | None, load_avg: float) -> int:
    results: list[LongMessageResult] = []
    with tempfile.TemporaryDirectory(prefix="egmem-long-") as tmp:
        for k, emb in enumerate(embedders):
            results += run_long_messages(data_dir=Path(tmp) / f"long-{k}", embedder=emb)
    command = "python benchmarks/load_slack.py " + " ".join(argv if argv is not None
                                                             else sys.argv[1:])
    machine = f"{_machine()}; 1-min load average {load_avg:.1f} at the start"
    body = long_section(results, machine=machine, command=command.strip())
    print(body)
    if not args.no_write:
        write_section(args.results, body, marks=LONG_MARKS)
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
