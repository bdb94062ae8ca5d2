"""The real :class:`memory.worker.WriterWorker` around a fake service's own commit, so
adapter tests kick, prioritize answers and run pre-write hooks exactly as production."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import cached_property

from memory.pipeline import DrainReport
from memory.worker import Progress, WriterWorker


class _Commits:
    def __init__(self, commit: Callable[[], int]) -> None:
        self._commit = commit

    def drain(self, *, on_progress: Progress | None = None) -> DrainReport:
        return DrainReport(committed=self._commit())


class WorkerMixin:
    """``process``/``kick``/``answering``/``before_write`` over ``commit_queued``."""

    def commit_queued(self) -> int:
        raise NotImplementedError

    @cached_property
    def worker(self) -> WriterWorker:
        return WriterWorker(_Commits(self.commit_queued))

    def process(self) -> int:
        return self.worker.drain().committed

    def kick(self) -> None:
        self.worker.kick()

    def answering(self) -> AbstractContextManager[None]:
        return self.worker.answering()

    def before_write(self, hook: Callable[[], None]) -> None:
        self.worker.before_write(hook)
