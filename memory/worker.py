"""The writer worker: the one place that commits queued events, one run at a time.

Front ends make events durable in the inbox and :meth:`WriterWorker.kick` the worker; a
kick during a run causes one more run, so nothing submitted is left waiting for the next
event. Every write that must not interleave with a commit (forgets, retention, index
maintenance) holds :attr:`WriterWorker.lock`: the writer's per-channel order
depends on it. Hooks registered with :meth:`WriterWorker.before_write` run before each
commit run, inside it (queued requests of other processes, channel visibility a front end
learned of but has not recorded yet), so what they record is in place before any message
is written.

Runs started by kicks begin at most every ``window_s`` seconds: events arriving meanwhile
are committed together (one commit of many messages costs far less than many commits of
one, and the inbox already made each durable), so a busy workspace does not keep the CPU
from the people asking questions.

Questions come first: while one is being answered (:meth:`WriterWorker.answering`), no new
kicked run starts (one already running finishes); the kicks meanwhile are remembered and
run when the last answer is out. Answers never wait for commits, and commits never wait
longer than the answers in flight.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from memory.pipeline import DrainReport

logger = logging.getLogger(__name__)

Progress = Callable[[int], None]


class Drains(Protocol):
    """What the worker commits with (:class:`memory.pipeline.Pipeline`)."""

    def drain(self, *, on_progress: Progress | None = None) -> DrainReport: ...


class WriterWorker:
    """Drains ``pipeline``: now (:meth:`drain`) or soon, coalesced (:meth:`kick`)."""

    def __init__(self, pipeline: Drains, *, window_s: float = 0.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self._pipeline = pipeline
        self._window = window_s
        self._clock = clock
        self._sleep = sleep
        self._write = threading.Lock()  # one write at a time
        self._run = threading.Lock()  # one kicked loop at a time
        self._flag = threading.Lock()  # guards _dirty and _answering
        self._dirty = False
        self._answering = 0
        self._last = float("-inf")
        self._hooks: list[Callable[[], None]] = []

    def before_write(self, hook: Callable[[], None]) -> None:
        """Run ``hook`` at the start of every commit run, under the write lock."""
        self._hooks.append(hook)

    @property
    def lock(self) -> threading.Lock:
        """The write lock: held by every commit run; hold it and no commit runs."""
        return self._write

    def drain(self, *, on_progress: Progress | None = None) -> DrainReport:
        """Commit everything queued now, in the calling thread."""
        with self._write:
            for hook in self._hooks:
                hook()
            return self._pipeline.drain(on_progress=on_progress)

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Mark a question being answered: kicked runs wait until the last one is out."""
        with self._flag:
            self._answering += 1
        try:
            yield
        finally:
            with self._flag:
                self._answering -= 1
                resume = self._answering == 0 and self._dirty
            if resume:  # in the background: this thread still has an answer to post
                threading.Thread(target=self.kick, name="egmem-writer", daemon=True).start()

    def kick(self) -> None:
        """Commit what is queued soon. The caller whose kick finds no run in progress runs
        the loop in its own thread until nothing is left to do; the others return at once
        (their kick makes the running loop go round once more)."""
        with self._flag:
            self._dirty = True
        while self._run.acquire(blocking=False):
            try:
                self._loop()
            finally:
                self._run.release()
            with self._flag:
                if not self._dirty or self._answering:
                    return

    def _loop(self) -> None:
        while True:
            wait = self._last + self._window - self._clock()
            if wait > 0:
                self._sleep(wait)  # gather what arrives meanwhile into this run
            with self._flag:
                if not self._dirty or self._answering:
                    return
                self._dirty = False
            try:
                report = self.drain()
                logger.debug("writer worker committed %d event(s)", report.committed)
            except Exception:  # the inbox keeps the events; the next kick retries
                logger.exception("committing queued events failed; they stay queued")
            finally:
                self._last = self._clock()
