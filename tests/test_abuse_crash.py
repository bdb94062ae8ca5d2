"""kill -9 inside commits, resume, and get the same memory as a run that was never killed:
the same states (topic, value, active node, revisions), the same chains (node ids in order),
the same verdicts, values, topics and rewrites of every node — not just the same counts.

A child process ingests a corpus (several channels; edits and deletes between runs of
messages, so a drain makes dozens of commits) with ``EGMEM_FAULT=STEP:N``: it SIGKILLs
itself the N-th time a commit reaches STEP and says so on stderr, so every kill provably
lands inside a commit (between two of its writes). The test asserts each kill landed where
asked, resumes, and compares with an uninterrupted ingest of the same corpus.

Before, the writer loaded a channel's "recent nodes" with a row limit before sorting them,
so after a restart it could take an old message for the latest turn: 394-397 revisions
against 399. The quick variant (3 kills) runs in ``make test``; the 12-kill one is marked
slow and runs with ``make crash``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.app import build
from bot.ingest import ingest_path
from bot.settings import Settings
from memory.models import Scope
from memory.registry import chain_of

ROOT = Path(__file__).resolve().parents[1]
T0 = 1_730_710_800  # 2024-11-04 09:00 UTC
TOPICS = ["deploy window", "design review", "release version", "lunch place", "budget",
          "standup time"]
VALUES = ["3 pm", "4 pm", "Friday 10am", "2.3", "2.4", "$8,000", "$9,500", "eu-west-1",
          "Taqueria Luna", "Monday 9am"]
CUES = ["", "actually ", "moved to ", "let's go with ", "switching to ", "+1 ", "ok so "]
BUSY = 560


def write_corpus(path: Path, *, channels: int = 5, per_channel: int = 48) -> None:
    """Messages in several channels with replies, and edits and deletes among them: each
    change event ends a run of messages, so every channel commits several times."""
    rng = random.Random(13)
    lines: list[dict[str, Any]] = []
    for c in range(channels):
        ch = f"C{c}"
        lines.append({"type": "channel", "platform": "slack", "space": "T1", "id": ch,
                      "name": f"team-{c}", "is_private": False})
        for i in range(per_channel):
            ts = T0 + c * 7 + i * 300
            topic = rng.choice(TOPICS)
            text = f"{topic}: {rng.choice(CUES)}{rng.choice(VALUES)}"
            if i % 7 == 3:
                text = rng.choice(["sounds good", "+1 works for me", "ok", "thanks!"])
            msg = {"type": "message", "platform": "slack", "space": "T1", "channel": ch,
                   "id": f"{ts}.{c:03d}{i:03d}", "user": f"U{(i + c) % 5}",
                   "user_name": f"user{(i + c) % 5}", "ts": ts, "text": text}
            if i % 7 == 3 and i:
                prev = lines[-1]
                msg["thread_id"] = msg["reply_to"] = prev["id"]
            lines.append(msg)
            if i in (15, 31):  # an edit of an earlier message: its value changes
                target = lines[-9]
                lines.append({"type": "edit", "platform": "slack", "space": "T1",
                              "channel": ch, "id": target["id"], "ts": ts + 1,
                              "text": f"{rng.choice(TOPICS)}: {rng.choice(VALUES)}"})
            if i == 40:  # a delete of an earlier message
                lines.append({"type": "delete", "platform": "slack", "space": "T1",
                              "channel": ch, "id": lines[-12]["id"], "ts": ts + 1})
    # A busy channel: more turns in three days than the writer ever read back with a row
    # limit, and a delete late in it (of its first message), so it commits twice.
    big = "B0"
    lines.insert(0, {"type": "channel", "platform": "slack", "space": "T1", "id": big,
                     "name": "busy", "is_private": False})
    for i in range(BUSY):
        ts = T0 + i * 240
        lines.append({"type": "message", "platform": "slack", "space": "T1", "channel": big,
                      "id": f"{ts}.9{i:05d}", "user": f"U{i % 3}", "user_name": f"busy{i % 3}",
                      "ts": ts, "text": f"{TOPICS[i % len(TOPICS)]} note {i}: "
                                        f"{VALUES[i % len(VALUES)]}"})
        if i == BUSY - 10:
            lines.append({"type": "delete", "platform": "slack", "space": "T1",
                          "channel": big, "id": f"{T0}.900000", "ts": ts + 1})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def snapshot(data: Path) -> dict[str, Any]:
    """What a memory holds, in terms that do not depend on commit timing."""
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        nodes = eg.store.find_nodes(Scope())
        by_id = {n.node_id: n for n in nodes}
        states = {}
        for row in eg.store.states.listed():
            chain = chain_of(eg.store.state_nodes([row["state_id"]]))
            states[row["state_id"]] = {
                "topic": row["topic"], "value": row["value"],
                "active": by_id[row["active_node_id"]].message_id,
                "revisions": row["revision_count"], "description": row["description"],
                "updated": row["updated_ts"], "chain": [n.message_id for n in chain],
            }
        return {
            "nodes": {n.message_id: {
                "verdict": n.verdict.value, "state": n.state_id, "value": n.value,
                "topic": n.topic, "rewrite": n.rewrite, "context": n.context,
                "supersedes": by_id[n.supersedes].message_id if n.supersedes else None,
                "edited": n.edited, "text": n.text} for n in nodes},
            "states": states,
            "lexical": eg.store.lexical.count(),
            "pending": eg.inbox.count(status="pending"),
        }
    finally:
        eg.close()


def _child(chat: Path, data: Path, fault: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EGMEM_DATA": str(data), "EGMEM_EMBEDDER": "hashing",
           "PYTHONPATH": str(ROOT)}
    env.pop("EGMEM_FAULT", None)
    if fault:
        env["EGMEM_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "bot.cli", "ingest", str(chat)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def _crash_and_compare(tmp_path: Path, faults: list[str]) -> None:
    chat = tmp_path / "chat.jsonl"
    write_corpus(chat)
    calm = tmp_path / "calm"
    eg = build(Settings(data=str(calm), embedder="hashing"))
    try:
        ingest_path(eg, chat)
    finally:
        eg.close()
    expected = snapshot(calm)
    assert expected["pending"] == 0
    assert sum(len(s["chain"]) > 1 for s in expected["states"].values()) >= 5
    assert any(n["edited"] for n in expected["nodes"].values())

    data = tmp_path / "killed"
    for fault in faults:
        done = _child(chat, data, fault)
        step, _, count = fault.partition(":")
        assert done.returncode == -signal.SIGKILL, (fault, done.stderr[-2000:])
        assert f"egmem fault: killed at {step} #{count}" in done.stderr, fault
    done = _child(chat, data, None)
    assert done.returncode == 0, done.stderr[-2000:]

    got = snapshot(data)
    assert got["pending"] == 0
    assert got["lexical"] == expected["lexical"]
    assert set(got["nodes"]) == set(expected["nodes"])
    for mid, want in expected["nodes"].items():
        assert got["nodes"][mid] == want, mid
    assert set(got["states"]) == set(expected["states"])
    for sid, want in expected["states"].items():
        have = got["states"][sid]
        assert have == want, (sid, {k: (have[k], v) for k, v in want.items() if have[k] != v})


# The first kill lands in the busy channel's commit after its edit, before anything of it
# is written: the resumed process proposes it again, with the recent turns it reads back.
QUICK = ["proposed:2", "registry_flushed:3", "rederived:1"]
LONG = ["proposed:2", "nodes_written:2", "registry_flushed:3", "committed:2", "rederived:1",
        "nodes_written:3", "proposed:3", "committed:4", "registry_flushed:2", "rederived:2",
        "nodes_written:1", "committed:1"]


@pytest.mark.timeout(600)
def test_kill_inside_commits_then_resume_gives_the_same_memory(tmp_path: Path) -> None:
    _crash_and_compare(tmp_path, QUICK)


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_twelve_kills_inside_commits_give_the_same_memory(tmp_path: Path) -> None:
    _crash_and_compare(tmp_path, LONG)
