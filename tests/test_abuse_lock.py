"""One process writes a data directory; readers run beside it; a second writer is told who
holds it; `forget` while the bot serves is handed to the bot; a dead holder's lock is taken
over.

A child process plays `egmem serve`: it holds the directory as a writer, has just committed
messages whose lexical documents are still uncommitted (as a busy bot has), and drains every
0.2 s. Before, every CLI open rebuilt the lexical index and took Tantivy's writer lock, so
`ask`, `stats` and `forget` died with a raw LockBusy traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import build
from bot.cli import main
from bot.settings import Settings
from memory.models import Channel, Message, Scope
from memory.store.lock import DataDirBusy, DataLock
from tests.support.memory import T0
from tests.support.probe import files_containing

ROOT = Path(__file__).resolve().parents[1]
SPACE = "T1"
MARKER = "wallabyqz"

_SERVER = """
import sys, time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from bot.app import build
from bot.settings import Settings
from memory.models import Message

data = Path(sys.argv[1])
eg = build(Settings(data=str(data), embedder="hashing"), command="egmem serve slack")
t0 = datetime(2024, 11, 4, 9, 0, tzinfo=UTC)
# Committed while serving: their lexical documents wait, uncommitted, for the next write.
eg.submit([Message(platform="slack", space="T1", channel="C1", id=f"live{i}", user="Ubob",
                   user_name="bob", ts=t0 + timedelta(hours=1, minutes=i),
                   text=f"live note {i} about the deploy") for i in range(5)])
eg.drain()
(data / "serving").write_text("ready")
while not (data / "stop").exists():
    eg.drain()
    time.sleep(0.2)
eg.close()
"""


def _m(i: int, user: str, text: str) -> Message:
    return Message(platform="slack", space=SPACE, channel="C1", id=str(i), user=f"U{user}",
                   user_name=user, ts=T0 + timedelta(minutes=i), text=text)


@pytest.fixture(autouse=True)
def _offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EGMEM_EMBEDDER", "hashing")
    for var in ("EGMEM_LLM_BASE_URL", "OPENAI_API_KEY", "EGMEM_LLM_API_KEY", "EGMEM_DATA"):
        monkeypatch.delenv(var, raising=False)


def _memory(data: Path) -> Path:
    eg = build(Settings(data=str(data), embedder="hashing"))
    eg.upsert_channels([Channel(platform="slack", space=SPACE, id="C1", name="dev")])
    eg.submit([_m(1, "alice", "the design review is Thursday 3 pm"),
               _m(2, "carol", f"{MARKER} says the budget is $5k"),
               _m(3, "carol", f"{MARKER} will host the demo on Friday")])
    eg.drain()
    eg.close()
    return data


@pytest.fixture(scope="module")
def serving(tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[Path, subprocess.Popen[bytes]]]:
    """One serving child for the module; the test that forgets runs last."""
    env = _memory(tmp_path_factory.mktemp("served") / "data")
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, str(env)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT),
                                 "EGMEM_EMBEDDER": "hashing"},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not (env / "serving").exists():
        assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
        assert time.monotonic() < deadline, "the serving child never became ready"
        time.sleep(0.1)
    try:
        yield env, proc
    finally:
        (env / "stop").write_text("stop")
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _snapshot(data: Path) -> dict[str, tuple[int, int]]:
    """The tables' files (the lexical directory changes under the writer's own background
    merges, so readers are checked there by never opening a Tantivy writer)."""
    return {str(p.relative_to(data)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in (data / "lance").rglob("*") if p.is_file()}


def test_readers_run_beside_a_serving_writer_and_write_nothing(
        serving: tuple[Path, subprocess.Popen[bytes]],
        capsys: pytest.CaptureFixture[str]) -> None:
    data, _ = serving
    before = _snapshot(data)
    code, out, err = _cli(capsys, "ask", "when is the design review?", "--data", str(data),
                          "--json")
    assert code == 0, err
    assert "Thursday 3 pm" in json.loads(out)["answer"]
    code, out, err = _cli(capsys, "stats", "--data", str(data), "--json")
    assert code == 0, err
    assert json.loads(out)["evidence_nodes"] == 8
    code, out, err = _cli(capsys, "history", "design review", "--data", str(data), "--json")
    assert code == 0 and json.loads(out), err
    code, out, err = _cli(capsys, "why", "1", "--data", str(data), "--json")
    assert code == 0, err
    assert "Traceback" not in err and "LockBusy" not in err
    assert _snapshot(data) == before, "a reader changed the data directory"
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        assert eg.ask("deploy notes?", platform="slack", space=SPACE, user=None,
                      channel=None).citations
        assert eg.store.lexical._writer is None, "a reader opened a Tantivy writer"
    finally:
        eg.close()


def test_a_second_writer_is_told_who_holds_the_directory(
        serving: tuple[Path, subprocess.Popen[bytes]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    data, proc = serving
    chat = tmp_path / "more.jsonl"
    chat.write_text(json.dumps({
        "type": "message", "platform": "slack", "space": SPACE, "channel": "C1", "id": "9",
        "user": "Udan", "user_name": "dan", "ts": T0.isoformat(), "text": "hello"}) + "\n")
    code, out, err = _cli(capsys, "ingest", str(chat), "--data", str(data))
    assert code == 2 and not out
    assert "egmem serve slack" in err and f"pid {proc.pid}" in err
    assert "Traceback" not in err
    with pytest.raises(DataDirBusy) as busy:
        build(Settings(data=str(data), embedder="hashing"), command="egmem serve slack")
    assert busy.value.holder is not None and busy.value.holder.pid == proc.pid
    holder = DataLock.holder(data)
    assert holder is not None and holder.command == "egmem serve slack"


def test_forget_while_serving_is_queued_and_applied_by_the_server(
        serving: tuple[Path, subprocess.Popen[bytes]],
        capsys: pytest.CaptureFixture[str]) -> None:
    data, _ = serving
    code, out, err = _cli(capsys, "forget", "--user", "Ucarol", "--data", str(data))
    assert code == 0, err
    assert "queued" in out and "egmem serve slack" in out
    deadline = time.monotonic() + 60
    while True:
        eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
        try:
            left = [n for n in eg.store.find_nodes(Scope()) if n.speaker_id == "Ucarol"]
            pending = eg.stats()["requests_pending"]
        finally:
            eg.close()
        if not left and not pending:
            break
        assert time.monotonic() < deadline, "the server never applied the queued forget"
        time.sleep(0.2)
    assert files_containing(data, MARKER) == []
    # Nothing of Carol's is accepted any more, even through the serving process's inbox.
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        assert eg.submit([_m(2, "carol", f"{MARKER} says the budget is $5k")]) == 0
    finally:
        eg.close()


def test_a_dead_holders_lock_is_taken_over(tmp_path: Path) -> None:
    env = tmp_path / "data"
    env.mkdir()
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, time; from pathlib import Path; from memory.store.lock import DataLock;"
         "DataLock.acquire(Path(sys.argv[1]), command='egmem ingest');"
         "print('held', flush=True); time.sleep(600)", str(env)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdout.readline().strip() == b"held"
    holder = DataLock.holder(env)
    assert holder is not None and holder.pid == child.pid and holder.command == "egmem ingest"
    with pytest.raises(DataDirBusy, match="egmem ingest"):
        DataLock.acquire(env, command="egmem serve slack")
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert DataLock.holder(env) is None
    lock = DataLock.acquire(env, command="egmem serve slack")
    try:
        holder = DataLock.holder(env)
        assert holder is None or holder.pid == os.getpid()  # our own flock is shared
        raw = json.loads((env / "egmem.lock").read_text())
        assert raw["pid"] == os.getpid() and raw["command"] == "egmem serve slack"
    finally:
        lock.release()


def test_a_queued_forget_is_applied_by_the_next_writer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A forget queued while some other writer (an ingest, say) held the directory is
    applied by the next process that writes, and is never lost."""
    data = _memory(tmp_path / "data")
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        assert eg.queue_forget_user("Ucarol") == 2
    finally:
        eg.close()
    assert main(["forget", "--user", "Unobody", "--data", str(data)]) == 0
    capsys.readouterr()
    eg = build(Settings(data=str(data), embedder="hashing"), read_only=True)
    try:
        assert not [n for n in eg.store.find_nodes(Scope()) if n.speaker_id == "Ucarol"]
        assert eg.stats()["requests_pending"] == 0
    finally:
        eg.close()
    assert files_containing(data, MARKER) == []
