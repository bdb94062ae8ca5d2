"""The base of the store's small SQLite files (the inbox, the feedback log, the workspace
ledger): write-ahead logging, freed pages overwritten (``secure_delete``, so forgotten text
does not linger in the file), and one writing transaction at a time."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path


class SqliteFile:
    def __init__(self, path: Path, *, schema: str, durable: bool = False,
                 lock: AbstractContextManager[bool] | None = None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = lock if lock is not None else threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        if durable:
            # FULL: an acknowledged write must survive power loss, not just a process crash.
            self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA secure_delete=ON")
        self._db.executescript(schema)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
