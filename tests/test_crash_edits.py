"""SIGKILL a real ingest process while it applies an edit, resume, and find no trace of the
replaced text: not in the lexical index, any table, or any byte under the data directory.

An edit rewrites its node's row in LanceDB, then its lexical document, then the nodes that
quoted it; the drain purges old table versions and dead index segments after its last
channel. Each kill lands at a named step (``EGMEM_FAULT=STEP:N``, memory/faults.py) and the
test checks that it did.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.app import build
from bot.settings import Settings
from memory.models import Scope
from tests.support.probe import files_containing, leaks

ROOT = Path(__file__).resolve().parents[1]
T0 = 1_730_710_800  # 2024-11-04 09:00 UTC
OLD = "zanzibarhall"  # the word the edit replaces
NEW = "quokkaroom"


def _line(kind: str, ts: int, mid: str, **fields: Any) -> str:
    return json.dumps({"type": kind, "platform": "slack", "space": "T1", "channel": "C1",
                       "id": mid, "ts": ts, **fields}) + "\n"


def _message(ts: int, mid: str, text: str, **fields: Any) -> str:
    return _line("message", ts, mid, user="U1", user_name="alice", text=text, **fields)


def _ingest(chat: Path, data: Path, fault: str | None = None
            ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EGMEM_DATA": str(data), "EGMEM_EMBEDDER": "hashing",
           "PYTHONPATH": str(ROOT)}
    env.pop("EGMEM_FAULT", None)
    if fault is not None:
        env["EGMEM_FAULT"] = fault
    return subprocess.run([sys.executable, "-m", "bot.cli", "ingest", str(chat)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def _killed_at(done: subprocess.CompletedProcess[str], fault: str) -> None:
    step, _, count = fault.partition(":")
    assert done.returncode == -signal.SIGKILL, done.stderr[-2000:]
    assert f"egmem fault: killed at {step} #{count}" in done.stderr, done.stderr[-2000:]


def _remembered(tmp_path: Path) -> Path:
    """A memory holding the message the edit will change, and a reply that quotes it."""
    first = tmp_path / "first.jsonl"
    first.write_text(
        _message(T0, "1.000100", f"the design review is Thursday at 3 pm in the {OLD}")
        + _message(T0 + 60, "1.000200", "ok, see you there", thread_id="1.000100",
                   reply_to="1.000100"))
    data = tmp_path / "data"
    done = _ingest(first, data)
    assert done.returncode == 0, done.stderr[-2000:]
    assert files_containing(data, OLD), "precondition: the old text was stored"
    return data


def _assert_no_trace(data: Path) -> None:
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        node = eg.store.find_message(channel="C1", message_id="1.000100")
        assert node is not None and NEW in node.text and node.edited
        # The probe sees the new text where it lives (it would see the old one there).
        assert {"nodes table", "lexical terms"} <= set(leaks(eg, data, NEW, files=False))
        assert eg.store.lexical_search(NEW, Scope(), k=5)
        assert leaks(eg, data, OLD) == []
    finally:
        eg.close()


def test_an_edit_killed_before_the_drain_purges_leaves_no_trace(tmp_path: Path) -> None:
    """The edit is applied and done in the inbox; the drain dies committing the next
    message, before its purge. The next open purges what the edit replaced: nothing in
    the inbox would make that drain purge again."""
    data = _remembered(tmp_path)
    second = tmp_path / "second.jsonl"
    second.write_text(
        _line("edit", T0 + 120, "1.000100",
              text=f"the design review is Thursday at 3 pm in the {NEW}")
        + _message(T0 + 180, "1.000300", "I'll book the projector"))
    _killed_at(_ingest(second, data, "proposed:1"), "proposed:1")
    done = _ingest(second, data)
    assert done.returncode == 0, done.stderr[-2000:]
    _assert_no_trace(data)


def _hits(data: Path, word: str, *, read_only: bool) -> set[str]:
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=read_only)
    try:
        node = eg.store.find_message(channel="C1", message_id="1.000100")
        assert node is not None and NEW in node.text
        return {i for i, _ in eg.store.lexical_search(word, Scope(), k=10)}
    finally:
        eg.close()


def test_an_edit_killed_between_its_row_and_its_index_document_is_finished_at_open(
        tmp_path: Path) -> None:
    """The edited row is in LanceDB, its lexical document still holds the old words; the
    edit keeps its node's seq and the counts agree, so only the edit's recorded intent can
    tell. The writing open rewrites the document before anything searches it."""
    data = _remembered(tmp_path)
    edit = tmp_path / "edit.jsonl"
    edit.write_text(_line("edit", T0 + 120, "1.000100",
                          text=f"the design review is Thursday at 3 pm in the {NEW}"))
    _killed_at(_ingest(edit, data, "rows_written:1"), "rows_written:1")
    left = _hits(data, OLD, read_only=True)
    assert left, "the kill left the old words in the index"
    assert _hits(data, OLD, read_only=False) == set()  # a writing open recovers
    assert _hits(data, NEW, read_only=True) >= left
    done = _ingest(edit, data)
    assert done.returncode == 0, done.stderr[-2000:]
    _assert_no_trace(data)
