"""The writer worker: one commit run at a time, a kick during a run causes one more,
answers first, pre-write hooks inside every run."""

from __future__ import annotations

import threading

from memory.pipeline import DrainReport
from memory.worker import Progress, WriterWorker


class Queue:
    """A pipeline over a list: each drain commits what is queued."""

    def __init__(self) -> None:
        self.queued: list[str] = []
        self.committed: list[list[str]] = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()
        self.log: list[str] = []

    def drain(self, *, on_progress: Progress | None = None) -> DrainReport:
        batch, self.queued = self.queued, []
        self.entered.set()
        self.release.wait(10)
        self.committed.append(batch)
        self.log.append("drain")
        return DrainReport(committed=len(batch))


def test_a_kick_during_a_run_causes_one_more_run() -> None:
    q = Queue()
    worker = WriterWorker(q)
    q.queued.append("a")
    q.release.clear()
    first = threading.Thread(target=worker.kick)
    first.start()
    assert q.entered.wait(10)
    q.queued.append("b")
    worker.kick()  # a run is in progress: returns at once, the running loop goes round again
    q.release.set()
    first.join(10)
    assert q.committed == [["a"], ["b"]]


def test_no_kicked_run_starts_while_a_question_is_answered() -> None:
    q = Queue()
    worker = WriterWorker(q)
    q.queued.append("a")
    with worker.answering():
        worker.kick()
        assert q.committed == []
    for _ in range(100):  # resumed in the background once the answer is out
        if q.committed:
            break
        threading.Event().wait(0.05)
    assert q.committed == [["a"]]


def test_hooks_run_before_every_commit_run_and_the_lock_holds_commits_back() -> None:
    q = Queue()
    worker = WriterWorker(q)
    worker.before_write(lambda: q.log.append("hook"))
    assert worker.drain().committed == 0
    worker.kick()
    assert q.log == ["hook", "drain", "hook", "drain"]
    with worker.lock:
        t = threading.Thread(target=worker.drain)
        t.start()
        t.join(0.2)
        assert t.is_alive()  # waits while the lock is held
    t.join(10)
    assert q.log[-1] == "drain"


def test_a_failed_run_keeps_the_worker_going() -> None:
    q = Queue()
    worker = WriterWorker(q)
    calls = []

    def flaky() -> None:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("disk full")

    worker.before_write(flaky)
    worker.kick()  # logged, not raised
    q.queued.append("a")
    worker.kick()
    assert q.committed == [["a"]]
