"""The data directory's writer lock: one process writes a data directory, any number read.

Readers (``ask``, ``history``, ``stats``, ``why``, the web view) never take it: they open the
tables read-only. A process that writes (``serve``, ``ingest``, ``forget``, ``backfill``,
``retry``, ``reindex``) takes it for as long as it runs; a second one gets
:class:`DataDirBusy`, which names the holder (pid, host, command, since when).

The lock is an advisory ``flock`` on ``egmem.lock`` in the local data directory, so the
kernel releases it when its holder dies, however it dies: a lock left by a killed process
is simply taken over (the holder record in the file is overwritten). ``flock`` works
between processes of one host; on a network file system shared by several hosts each host
must use its own local directory (``EGMEM_LOCAL_DIR``).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from memory.errors import UserFacingError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

LOCK_FILE = "egmem.lock"


@dataclass(frozen=True)
class LockHolder:
    """Who holds a data directory's writer lock."""

    pid: int
    host: str
    command: str
    since: float

    def describe(self) -> str:
        when = datetime.fromtimestamp(self.since, UTC).strftime("%Y-%m-%d %H:%M UTC")
        return f"`{self.command}` (pid {self.pid} on {self.host}, since {when})"


class DataDirBusy(UserFacingError):
    """Another process writes this data directory."""

    def __init__(self, directory: Path, holder: LockHolder | None) -> None:
        self.directory = directory
        self.holder = holder
        who = holder.describe() if holder is not None else "another egmem process"
        super().__init__(
            f"{who} is writing the data directory {directory}; only one process may write "
            "it at a time. Reading commands (ask, history, stats, why) work meanwhile; stop "
            "that process, or wait for it to finish, before running this one.")


class _Held:
    """One flock this process holds, shared by every DataLock on the same directory."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.users = 0


# The lock excludes other processes; within one process several services may open the
# same directory (a reader beside the bot, a test's second view), as before the lock.
# flock belongs to an open file, so the process keeps one per directory.
_HELD: dict[str, _Held] = {}
_HELD_LOCK = threading.Lock()


class DataLock:
    """A hold on the writer lock of one data directory; :meth:`release` (or process exit)
    frees it. Build with :meth:`acquire`."""

    def __init__(self, directory: Path, key: str) -> None:
        self.directory = directory
        self._key: str | None = key

    @classmethod
    def acquire(cls, directory: Path, *, command: str) -> DataLock:
        """Take the writer lock of ``directory`` (created if missing) for ``command`` (shown
        to anyone who finds it taken). Raises :class:`DataDirBusy` naming the holder."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / LOCK_FILE
        key = str(path.resolve())
        with _HELD_LOCK:
            held = _HELD.get(key)
            if held is None:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
                if fcntl is not None:
                    try:
                        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        os.close(fd)
                        raise DataDirBusy(directory, _read_holder(path)) from None
                me = LockHolder(pid=os.getpid(), host=socket.gethostname(),
                                command=command[:200], since=time.time())
                os.ftruncate(fd, 0)
                os.pwrite(fd, json.dumps(asdict(me)).encode(), 0)
                held = _HELD[key] = _Held(fd)
            held.users += 1
        return cls(directory, key)

    @staticmethod
    def holder(directory: Path) -> LockHolder | None:
        """Who writes ``directory`` now (None when nobody does)."""
        path = directory / LOCK_FILE
        if fcntl is None or not path.exists():
            return None
        fd = os.open(path, os.O_RDONLY)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return _read_holder(path) or LockHolder(pid=0, host="?", command="egmem",
                                                        since=0.0)
            fcntl.flock(fd, fcntl.LOCK_UN)
            return None
        finally:
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._key is not None

    def release(self) -> None:
        if self._key is None:
            return
        key, self._key = self._key, None
        with _HELD_LOCK:
            held = _HELD[key]
            held.users -= 1
            if held.users:
                return
            del _HELD[key]
            try:
                os.ftruncate(held.fd, 0)
            finally:
                os.close(held.fd)  # closing the descriptor releases the flock


def _read_holder(path: Path) -> LockHolder | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8") or "null")
        if not isinstance(raw, dict):
            return None
        return LockHolder(pid=int(raw["pid"]), host=str(raw["host"]),
                          command=str(raw["command"]), since=float(raw["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
