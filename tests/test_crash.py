"""SIGKILL a real ingest process inside commits, resume, and check nothing is lost or doubled.

Each kill lands at a named step of a commit (``EGMEM_FAULT=STEP:N``, memory/faults.py), and
the test checks that it did: the process died by SIGKILL and reported the step it died at.
A kill that missed (the run ended first, or died elsewhere) fails the test."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.app import build
from bot.settings import Settings

N_MESSAGES = 900
# (step, the how-many-th time a run reaches it): one kill per run, in each part of a commit
# (a run commits each of the six channels in one batch; each kill leaves channels untouched).
KILLS = (("proposed", 1), ("nodes_written", 1), ("registry_flushed", 1), ("committed", 1))


def _write_chat(path: Path) -> None:
    rng = random.Random(7)
    topics = ["deploy window", "design review", "release version", "lunch place", "budget"]
    values = ["3 pm", "4 pm", "Friday 10am", "2.3", "2.4", "$8,000", "eu-west-1"]
    with path.open("w") as fh:
        for i in range(N_MESSAGES):
            ch = f"C{i % 6}"
            topic = rng.choice(topics)
            cue = rng.choice(["", "actually ", "moved to ", "let's go with "])
            text = f"{topic}: {cue}{rng.choice(values)} (note {i})"
            fh.write(json.dumps({
                "type": "message", "platform": "slack", "space": "T1", "channel": ch,
                "id": f"{1700000000 + i}.000100", "user": f"U{i % 7}", "user_name": f"user{i % 7}",
                "ts": 1700000000 + i * 60, "text": text,
            }) + "\n")


def _env(data: Path, fault: str | None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("EGMEM_FAULT", None)
    env.update({"EGMEM_DATA": str(data), "EGMEM_EMBEDDER": "hashing"})
    if fault is not None:
        env["EGMEM_FAULT"] = fault
    return env


def _ingest(chat: Path, data: Path, fault: str | None = None
            ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "ingest", str(chat)], env=_env(data, fault),
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=500,
    )


@pytest.mark.timeout(600)
def test_sigkill_during_ingest_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    chat = tmp_path / "chat.jsonl"
    _write_chat(chat)
    data = tmp_path / "data"
    for step, count in KILLS:
        killed = _ingest(chat, data, f"{step}:{count}")
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr[-2000:])
        assert f"egmem fault: killed at {step} #{count}" in killed.stderr, step
    kills = len(KILLS)
    final = _ingest(chat, data)
    assert final.returncode == 0, final.stderr[-2000:]

    eg = build(Settings(data=str(data), embedder="hashing"))
    try:
        rows = eg.store.inspection().node_rows(["message_id", "channel"])
        keys = [(r["channel"], r["message_id"]) for r in rows]
        assert len(keys) == N_MESSAGES, f"after {kills} kills"
        assert len(set(keys)) == N_MESSAGES
        assert eg.inbox.count(status="pending") == 0
        assert eg.inbox.count(kind="message") == N_MESSAGES
        assert eg.store.lexical.count() == N_MESSAGES
        # Every state points at a node that exists.
        ids = {r["node_id"] for r in eg.store.inspection().node_rows(["node_id"])}
        for st in eg.store.states.listed():
            assert st["active_node_id"] in ids
    finally:
        eg.close()
