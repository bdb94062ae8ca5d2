"""Synthetic Slack traffic for the load test: a workspace, signed ``message`` event
deliveries (with Slack's retries and duplicate deliveries), and the clients that post them
and ``/recall`` commands to a Slack endpoint on loopback.

Deterministic: the same arguments give the same messages and deliveries on every machine
(``random.Random(seed)`` only). Used by ``benchmarks/load_slack.py`` and its tests.
"""

from __future__ import annotations

import http.client
import itertools
import json
import logging
import math
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode, urlsplit

from slack_sdk.signature import SignatureVerifier

from adapters.slack.app import RECALL_COMMAND, SORRY
from tests.support.fake_slack import FakeSlack

logger = logging.getLogger(__name__)

TEAM = "T0LOAD001"
BOT = "U0LOADBOT"
SECRET = "load-test-signing-secret-0123456789"
MAX_ATTEMPTS = 3

COMPONENTS = ("billing service", "search indexer", "mobile client", "auth gateway",
              "export pipeline", "web dashboard", "rate limiter", "audit log")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
STATUS = ("is green again", "needs one more review", "is blocked on infra", "passed QA",
          "has a flaky test", "is waiting for design", "shipped to staging")

DeliveryKind = Literal["first", "retry", "duplicate"]


@dataclass(frozen=True)
class Delivery:
    event: int
    kind: DeliveryKind
    body: str
    retry_num: int | None = None


@dataclass(frozen=True)
class Workspace:
    channels: tuple[tuple[str, str, bool], ...]  # (id, name, private)
    users: tuple[str, ...]
    asker: str


@dataclass(frozen=True)
class Corpus:
    workspace: Workspace
    keys: tuple[tuple[str, str], ...]  # (channel, ts) of each distinct message, in order
    deliveries: tuple[Delivery, ...]
    questions: tuple[str, ...]


# --- corpus ------------------------------------------------------------------------------


def workspace(*, channels: int, private: int) -> Workspace:
    """``channels`` conversations, the last ``private`` of them private (4 members), and
    12 users; the asker is a member of every conversation."""
    users = tuple(f"U0LOAD{i:03d}" for i in range(1, 13))
    chans = []
    for i in range(channels):
        is_private = i >= channels - private
        chans.append((f"C0LOAD{i:03d}", f"{'priv' if is_private else 'team'}-{i}", is_private))
    return Workspace(channels=tuple(chans), users=users, asker=users[0])


def corpus(*, events: int, channels: int = 6, private: int = 2, retry_fraction: float = 0.03,
           duplicate_fraction: float = 0.02, seed: int = 7) -> Corpus:
    """``events`` distinct messages, round-robin over the channels (decisions, revisions
    and chatter), and their deliveries in posting order: each message once, plus
    ``retry_fraction`` of them redelivered with ``X-Slack-Retry-Num`` 1 (a quarter of
    those with 2 as well) and ``duplicate_fraction`` redelivered under a new event id,
    each a few to sixty positions after the first delivery."""
    rng = random.Random(seed)
    ws = workspace(channels=channels, private=private)
    facts: dict[tuple[str, str], str] = {}
    keys: list[tuple[str, str]] = []
    scheduled: list[tuple[float, int, Delivery]] = []
    order = itertools.count()
    for i in range(events):
        channel, _, private = ws.channels[i % len(ws.channels)]
        who = members(ws, private)
        user = who[(i // len(ws.channels)) % len(who)]
        ts = f"{1712000000 + i}.{i % 1_000_000:06d}"
        event = {"type": "message", "text": _text(rng, facts, channel), "user": user, "ts": ts,
                 "channel": channel, "channel_type": "group" if private else "channel",
                 "team": TEAM, "event_ts": ts}
        keys.append((channel, ts))
        scheduled.append((i, next(order), Delivery(i, "first", _envelope(event, f"Ev{i:08d}"))))
        roll = rng.random()
        if roll < retry_fraction:
            first_retry = i + rng.uniform(5, 60)
            body = _envelope(event, f"Ev{i:08d}")
            scheduled.append((first_retry, next(order), Delivery(i, "retry", body, 1)))
            if rng.random() < 0.25:
                scheduled.append((first_retry + rng.uniform(5, 60), next(order),
                                  Delivery(i, "retry", body, 2)))
        elif roll < retry_fraction + duplicate_fraction:
            scheduled.append((i + rng.uniform(1, 30), next(order),
                              Delivery(i, "duplicate", _envelope(event, f"EvDup{i:08d}"))))
    scheduled.sort(key=lambda s: (s[0], s[1]))
    used = sorted({c for (_, c) in facts})
    questions = tuple(f"when is the {c} release?" for c in used) or ("what did we decide?",)
    return Corpus(workspace=ws, keys=tuple(keys), deliveries=tuple(d for *_, d in scheduled),
                  questions=questions)


# Message shapes of LONG_CHARS characters that made text analysis quadratic or worse: an
# unbroken word, capitals, capitalised words, digit-comma runs, whitespace runs; and prose.
LONG_CHARS = 40_000
LONG_SHAPES: dict[str, str] = {
    "unbroken word": "A" + "b",
    "capitals": "A",
    "capitalised words": "Ab ",
    "digits and commas": "1,",
    "whitespace run": " ",
    "prose": "Status: the billing service passed QA (ticket ENG-1234), review Friday 3 pm. ",
}


def long_text(shape: str, chars: int = LONG_CHARS) -> str:
    """``chars`` characters of ``shape`` (see :data:`LONG_SHAPES`), starting and ending
    with a word so Slack would accept it."""
    unit = LONG_SHAPES[shape]
    head, repeated = (unit[0], unit[1:]) if shape == "unbroken word" else ("x", unit)
    return (head + repeated * (chars // len(repeated) + 1))[: chars - 1] + "x"


def long_message_deliveries(ws: Workspace, shape: str, k: int, *, followers: int = 40
                            ) -> tuple[tuple[str, str], Delivery,
                                       list[tuple[tuple[str, str], Delivery]]]:
    """A long message of ``shape`` and the ordinary events that follow it (key and signed
    delivery of each); ``k`` keeps ids apart between shapes."""
    channel = ws.channels[0][0]
    out: list[tuple[tuple[str, str], Delivery]] = []
    texts = [long_text(shape)] + [f"Status: the search indexer is green again ({j})."
                                  for j in range(followers)]
    for j, text in enumerate(texts):
        ts = f"{1713000000 + 100 * k + j}.{k:03d}{j:03d}"
        event = {"type": "message", "text": text, "user": ws.users[1 + j % 2], "ts": ts,
                 "channel": channel, "channel_type": "channel", "team": TEAM, "event_ts": ts}
        out.append(((channel, ts), Delivery(k, "first", _envelope(event, f"EvLong{k}x{j}"))))
    (long_key, long_delivery), *rest = out
    return long_key, long_delivery, rest


def members(ws: Workspace, private: bool) -> tuple[str, ...]:
    """Who is in a conversation: everyone, or the first four users (asker included)."""
    return ws.users[:4] if private else ws.users


def _text(rng: random.Random, facts: dict[tuple[str, str], str], channel: str) -> str:
    comp = rng.choice(COMPONENTS)
    roll = rng.random()
    if roll < 0.18:
        day = f"{rng.choice(WEEKDAYS)} {rng.randint(9, 17)}:00 UTC"
        before = facts.get((channel, comp))
        facts[(channel, comp)] = day
        if before is None:
            return f"Decision: the {comp} release is on {day}."
        return f"Change of plan: the {comp} release moves from {before} to {day}."
    if roll < 0.55:
        return f"Status: the {comp} {rng.choice(STATUS)} (ticket ENG-{rng.randint(100, 9999)})."
    if roll < 0.8:
        return f"Reviewing PR #{rng.randint(1000, 99999)} for the {comp} now."
    return rng.choice(("thanks!", "sounds good", "on it", "+1", "will check after lunch"))


def _envelope(event: dict[str, Any], event_id: str) -> str:
    return json.dumps({
        "token": "load", "team_id": TEAM, "api_app_id": "A0LOAD", "event": event,
        "type": "event_callback", "event_id": event_id, "event_time": int(float(event["ts"])),
        "authorizations": [{"team_id": TEAM, "user_id": BOT, "is_bot": True}],
    })


# --- HTTP --------------------------------------------------------------------------------


class SignedPoster:
    """Posts signed requests to the endpoint on one keep-alive connection (one per thread)."""

    def __init__(self, url: str, *, secret: str = SECRET, timeout_s: float = 30.0) -> None:
        parts = urlsplit(url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._path = parts.path
        self._signer = SignatureVerifier(secret)
        self._timeout = timeout_s
        self._conn: http.client.HTTPConnection | None = None

    def post(self, body: str, *, content_type: str, retry_num: int | None = None) -> int:
        """The HTTP status, or 0 when the connection failed."""
        ts = str(int(time.time()))
        signature = self._signer.generate_signature(timestamp=ts, body=body)
        headers = {"Content-Type": content_type, "X-Slack-Request-Timestamp": ts,
                   "X-Slack-Signature": signature or ""}
        if retry_num is not None:
            headers["X-Slack-Retry-Num"] = str(retry_num)
            headers["X-Slack-Retry-Reason"] = "http_timeout"
        for attempt in (1, 2):
            reused = self._conn is not None
            try:
                if self._conn is None:
                    self._conn = http.client.HTTPConnection(self._host, self._port,
                                                            timeout=self._timeout)
                self._conn.request("POST", self._path, body=body.encode(), headers=headers)
                resp = self._conn.getresponse()
                resp.read()
                if resp.getheader("connection", "").lower() == "close":
                    self.close()
                return resp.status
            except (OSError, http.client.HTTPException) as exc:
                self.close()
                if reused and attempt == 1:
                    continue  # the server closed an idle keep-alive connection: reconnect
                logger.warning("post failed: %s", type(exc).__name__)
                return 0
        return 0

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


@dataclass
class Acks:
    """What :func:`post_events` saw: per-200 latency, the posting window, failures."""

    latency_ms: list[float] = field(default_factory=list)
    first_start: float = math.inf
    last_end: float = 0.0
    acked: int = 0
    errors: int = 0
    unacked: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def post_events(url: str, deliveries: Sequence[Delivery], *, rate: float, clients: int) -> Acks:
    """Post every delivery, the j-th due ``j / rate`` seconds after the start (open loop:
    a client behind schedule posts at once), from ``clients`` threads."""
    acks = Acks()
    cursor = itertools.count()  # next() on a C iterator is atomic: each j is posted once
    t0 = time.monotonic()

    def work() -> None:
        poster = SignedPoster(url)
        try:
            while (j := next(cursor)) < len(deliveries):
                d = deliveries[j]
                delay = t0 + j / rate - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                retry_num = d.retry_num
                for attempt in range(MAX_ATTEMPTS):
                    start = time.monotonic()
                    status = poster.post(d.body, content_type="application/json",
                                         retry_num=retry_num)
                    end = time.monotonic()
                    with acks.lock:
                        acks.first_start = min(acks.first_start, start)
                        acks.last_end = max(acks.last_end, end)
                        if status == 200:
                            acks.acked += 1
                            acks.latency_ms.append((end - start) * 1000)
                        else:
                            acks.errors += 1
                            if attempt == MAX_ATTEMPTS - 1:
                                acks.unacked += 1
                    if status == 200:
                        break
                    retry_num = (retry_num or 0) + 1  # Slack redelivers, saying so
        finally:
            poster.close()

    threads = [threading.Thread(target=work, name=f"load-client-{k}") for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return acks


@dataclass
class Answers:
    """What :func:`ask_repeatedly` saw: per-answer latency and how many were answered."""

    latency_ms: list[float] = field(default_factory=list)
    asked: int = 0
    answered: int = 0
    abstained: int = 0


def ask_repeatedly(url: str, slack: FakeSlack, questions: Sequence[str], *, asker: str,
                   channel: str, count: int | None, stop: threading.Event, interval_s: float,
                   timeout_s: float) -> Answers:
    """Post ``/recall <question>`` every ``interval_s`` (or right after the previous answer
    when that took longer), waiting for each answer at its own response_url: ``count``
    times, or (``count=None``) until ``stop`` is set, at least once."""
    out = Answers()
    poster = SignedPoster(url)
    t0 = time.monotonic()
    try:
        for k in itertools.count():
            if (k >= count) if count is not None else (k > 0 and stop.is_set()):
                break
            delay = t0 + k * interval_s - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            name = f"load-q{k}"
            form = {"token": "load", "team_id": TEAM, "team_domain": "load", "user_id": asker,
                    "channel_id": channel, "channel_name": "team-0", "user_name": "asker",
                    "command": RECALL_COMMAND, "text": questions[k % len(questions)],
                    "api_app_id": "A0LOAD", "response_url": slack.response_url(name),
                    "trigger_id": f"{k}.1.2"}
            out.asked += 1
            start = time.monotonic()
            status = poster.post(urlencode(form),
                                 content_type="application/x-www-form-urlencoded")
            body = await_response(slack, name, timeout_s=timeout_s) if status == 200 else None
            if body is None:
                continue
            out.latency_ms.append((time.monotonic() - start) * 1000)
            text = str(body.get("text") or "")
            if text and text != SORRY:
                out.answered += 1
                if "No supporting evidence" in json.dumps(body.get("blocks") or []):
                    out.abstained += 1
    finally:
        poster.close()
    return out


def await_response(slack: FakeSlack, name: str, *, timeout_s: float) -> dict[str, Any] | None:
    """The body posted to response_url ``name``, waiting at most ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        posts = list(slack.responses)
        for p in posts:
            if p.name == name:
                return p.body
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        try:
            slack.wait_for_responses(count=len(posts) + 1, timeout=remaining)
        except TimeoutError:
            return None
