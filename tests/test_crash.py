"""SIGKILL a real ingest process at random points, resume, and check nothing is lost or doubled."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings

N_MESSAGES = 900


def _write_chat(path: Path) -> None:
    rng = random.Random(7)
    topics = ["deploy window", "design review", "release version", "lunch place", "budget"]
    values = ["3 pm", "4 pm", "Friday 10am", "2.3", "2.4", "$8,000", "eu-west-1"]
    with path.open("w") as fh:
        for i in range(N_MESSAGES):
            ch = f"C{i % 3}"
            topic = rng.choice(topics)
            cue = rng.choice(["", "actually ", "moved to ", "let's go with "])
            text = f"{topic}: {cue}{rng.choice(values)} (note {i})"
            fh.write(json.dumps({
                "type": "message", "platform": "slack", "space": "T1", "channel": ch,
                "id": f"{1700000000 + i}.000100", "user": f"U{i % 7}", "user_name": f"user{i % 7}",
                "ts": 1700000000 + i * 60, "text": text,
            }) + "\n")


def _env(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update({"EGMEM_DATA": str(data), "EGMEM_EMBEDDER": "hashing"})
    return env


def _ingest(chat: Path, data: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "ingest", str(chat)], env=_env(data),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


@pytest.mark.timeout(600)
def test_sigkill_during_ingest_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    _write_chat(chat)
    data = tmp_path / "data"
    rng = random.Random(1234)
    kills = 0
    for _ in range(4):
        proc = _ingest(chat, data)
        time.sleep(rng.uniform(1.5, 6.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait()
    final = _ingest(chat, data)
    _, err = final.communicate(timeout=500)
    assert final.returncode == 0, err.decode()[-2000:]

    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        rows = eg.store.tables.query_nodes("TRUE", columns=["message_id", "channel"])
        keys = [(r["channel"], r["message_id"]) for r in rows]
        assert len(keys) == N_MESSAGES, f"after {kills} kills"
        assert len(set(keys)) == N_MESSAGES
        assert eg.inbox.count(status="pending") == 0
        assert eg.inbox.count(kind="message") == N_MESSAGES
        assert eg.store.lexical.count() == N_MESSAGES
        # Every state points at a node that exists.
        ids = {r["node_id"] for r in eg.store.tables.query_nodes("TRUE", columns=["node_id"])}
        for st in eg.store.tables.query_states("TRUE"):
            assert st["active_node_id"] in ids
    finally:
        eg.close()
