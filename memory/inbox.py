"""The durable writer queue.

SQLite in WAL mode, not LanceDB: the inbox needs a transactional insert-if-absent on the
message key *before* the platform is acknowledged, many tiny writes and a status change per
message — exactly what an embedded OLTP store does well and what a columnar, versioned table
does badly (every write is a new version). It lives beside the data on local disk; with an
object-store data URI each worker keeps its own inbox for the channels it writes.

Events are keyed by ``(platform, space, channel, message id, kind, variant)``: a redelivered
message, a Slack retry or a re-ingested file is a no-op. Payloads are dropped once committed,
so message text is not kept twice.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memory.models import Delete, Edit, Message

logger = logging.getLogger(__name__)

Kind = Literal["message", "edit", "delete"]
InboxEvent = Message | Edit | Delete

_SCHEMA = """
CREATE TABLE IF NOT EXISTS inbox (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT NOT NULL UNIQUE,
    platform   TEXT NOT NULL,
    space      TEXT NOT NULL,
    channel    TEXT NOT NULL,
    message_id TEXT NOT NULL,
    kind       TEXT NOT NULL,
    ts         REAL NOT NULL,
    payload    TEXT,
    status     TEXT NOT NULL DEFAULT 'pending',
    attempts   INTEGER NOT NULL DEFAULT 0,
    error      TEXT,
    enqueued   REAL NOT NULL,
    done_at    REAL
);
CREATE INDEX IF NOT EXISTS inbox_pending ON inbox(status, platform, space, channel, ts);
CREATE TABLE IF NOT EXISTS cursors (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Pending:
    seq: int
    kind: Kind
    event: InboxEvent
    attempts: int


@dataclass(frozen=True)
class DeadLetter:
    seq: int
    key: str
    kind: str
    channel: str
    message_id: str
    attempts: int
    error: str


def event_key(event: InboxEvent) -> tuple[str, Kind]:
    if isinstance(event, Message):
        kind: Kind = "message"
        variant = ""
    elif isinstance(event, Edit):
        kind = "edit"
        variant = hashlib.sha256(event.text.encode()).hexdigest()[:16]
    else:
        kind = "delete"
        variant = ""
    mid = event.id
    raw = "\x1f".join((event.platform, event.space, event.channel, mid, kind, variant))
    return raw, kind


def _encode(event: InboxEvent) -> str:
    return event.model_dump_json()


def _decode(kind: str, payload: str) -> InboxEvent:
    if kind == "message":
        return Message.model_validate_json(payload)
    if kind == "edit":
        return Edit.model_validate_json(payload)
    return Delete.model_validate_json(payload)


class Inbox:
    def __init__(self, path: Path, *, max_attempts: int = 5) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.max_attempts = max_attempts
        self._lock = threading.RLock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: an acknowledged message must survive power loss, not just a process crash.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA secure_delete=ON")
        self._db.executescript(_SCHEMA)

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

    def submit(self, events: Iterable[InboxEvent]) -> int:
        """Persist events durably; returns how many were new (duplicates are no-ops)."""
        now = time.time()
        rows = []
        for ev in events:
            key, kind = event_key(ev)
            ts = ev.ts.timestamp() if ev.ts is not None else now
            rows.append((key, ev.platform, ev.space, ev.channel, ev.id, kind, ts, _encode(ev), now))
        if not rows:
            return 0
        with self._tx() as db:
            before = db.total_changes
            db.executemany(
                "INSERT OR IGNORE INTO inbox(key, platform, space, channel, message_id, kind, ts,"
                " payload, enqueued) VALUES (?,?,?,?,?,?,?,?,?)",
                rows,
            )
            return db.total_changes - before

    def channels_with_work(self) -> list[tuple[str, str, str]]:
        with self._lock:
            cur = self._db.execute(
                "SELECT DISTINCT platform, space, channel FROM inbox WHERE status='pending'"
            )
            return [(str(a), str(b), str(c)) for a, b, c in cur.fetchall()]

    def pending(self, channel: tuple[str, str, str], *, limit: int = 256) -> list[Pending]:
        """The channel's pending events in timestamp order (then arrival order)."""
        with self._lock:
            cur = self._db.execute(
                "SELECT seq, kind, payload, attempts FROM inbox WHERE status='pending' AND "
                "platform=? AND space=? AND channel=? ORDER BY ts, seq LIMIT ?",
                (*channel, limit),
            )
            rows = cur.fetchall()
        return [Pending(seq, kind, _decode(kind, payload), attempts)
                for seq, kind, payload, attempts in rows]

    def mark_done(self, seqs: Iterable[int]) -> None:
        ids = [(time.time(), s) for s in seqs]
        with self._tx() as db:
            db.executemany(
                "UPDATE inbox SET status='done', payload=NULL, error=NULL, done_at=? WHERE seq=?",
                ids,
            )

    def mark_failed(self, seqs: Iterable[int], error: str) -> list[int]:
        """Count a failed attempt; events past ``max_attempts`` go to the dead-letter state.
        Returns the seqs that were dead-lettered."""
        dead: list[int] = []
        with self._tx() as db:
            for s in seqs:
                db.execute("UPDATE inbox SET attempts=attempts+1, error=? WHERE seq=?",
                           (error[:500], s))
                (attempts,) = db.execute("SELECT attempts FROM inbox WHERE seq=?", (s,)).fetchone()
                if attempts >= self.max_attempts:
                    db.execute("UPDATE inbox SET status='dead' WHERE seq=?", (s,))
                    dead.append(s)
        return dead

    def dead_letters(self) -> list[DeadLetter]:
        with self._lock:
            cur = self._db.execute(
                "SELECT seq, key, kind, channel, message_id, attempts, COALESCE(error,'') "
                "FROM inbox WHERE status='dead' ORDER BY seq"
            )
            return [DeadLetter(*r) for r in cur.fetchall()]

    def retry_dead(self, seqs: Iterable[int] | None = None) -> int:
        with self._tx() as db:
            if seqs is None:
                cur = db.execute(
                    "UPDATE inbox SET status='pending', attempts=0 WHERE status='dead'")
            else:
                cur = db.executemany(
                    "UPDATE inbox SET status='pending', attempts=0 WHERE status='dead' AND seq=?",
                    [(s,) for s in seqs],
                )
            return int(cur.rowcount)

    def update_pending_message(self, event: Edit) -> bool:
        """Apply an edit to a message that is queued but not yet committed."""
        key = "\x1f".join((event.platform, event.space, event.channel, event.id, "message", ""))
        with self._tx() as db:
            row = db.execute(
                "SELECT seq, payload FROM inbox WHERE key=? AND status='pending'", (key,)
            ).fetchone()
            if row is None:
                return False
            msg = Message.model_validate_json(row[1])
            edited = msg.model_copy(update={"text": event.text, "edited": True})
            db.execute("UPDATE inbox SET payload=? WHERE seq=?", (edited.model_dump_json(), row[0]))
            return True

    def scrub(self, *, platform: str, space: str, channel: str, message_id: str) -> None:
        """Drop any queued text of a message that is being forgotten."""
        with self._tx() as db:
            db.execute(
                "UPDATE inbox SET payload=NULL, status='done' WHERE platform=? AND space=? AND "
                "channel=? AND message_id=? AND kind IN ('message','edit')",
                (platform, space, channel, message_id),
            )

    def locate(self, *, channel: str, message_id: str) -> tuple[str, str] | None:
        """(platform, space) of a queued message, for edits/deletes that name only a channel."""
        with self._lock:
            row = self._db.execute(
                "SELECT platform, space FROM inbox WHERE channel=? AND message_id=? "
                "AND kind='message' ORDER BY seq LIMIT 1",
                (channel, message_id),
            ).fetchone()
        return (str(row[0]), str(row[1])) if row else None

    def count(self, *, kind: str | None = None, status: str | None = None) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT COUNT(*) FROM inbox"
                " WHERE (? IS NULL OR kind=?) AND (? IS NULL OR status=?)",
                (kind, kind, status, status),
            ).fetchone()
        return int(row[0])

    def counts(self) -> dict[str, int]:
        with self._lock:
            cur = self._db.execute("SELECT status, COUNT(*) FROM inbox GROUP BY status")
            return {status: n for status, n in cur.fetchall()}

    def get_cursor(self, name: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM cursors WHERE name=?", (name,)).fetchone()
            return str(row[0]) if row else None

    def set_cursor(self, name: str, value: str) -> None:
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO cursors(name, value) VALUES (?, ?)", (name, value))

    def checkpoint(self) -> None:
        """Fold the WAL back into the database file so scrubbed text leaves no copy there."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
