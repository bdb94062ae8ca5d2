"""The durable writer queue.

SQLite in WAL mode, not LanceDB: the inbox needs a transactional insert-if-absent on the
message key *before* the platform is acknowledged, many tiny writes and a status change per
message — exactly what an embedded OLTP store does well and what a columnar, versioned table
does badly (every write is a new version). It lives beside the data on local disk; with an
object-store data URI each worker keeps its own inbox for the channels it writes.

Events are keyed by ``(platform, space, channel, message id, kind, variant)``: a redelivered
message, a Slack retry or a re-ingested file is a no-op. Payloads are dropped once committed,
so message text is not kept twice.

Deleted and forgotten messages leave a *tombstone*: a hash of the message key (never of the
text). A message or edit whose key is buried is refused at submit, and the writer checks
again at commit, so no later delivery, retry, import or backfill brings it back. A delete
buries its message the moment it is submitted, whatever order the events then arrive in.

An edit of a message not in memory yet is *parked* (kept, not applied) and applied when the
message arrives.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from memory.models import Delete, Edit, Message, MessageKey
from memory.store.inspection import InboxInspection
from memory.store.sqlite_file import SqliteFile
from memory.store.store import tombstone_keys

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
CREATE INDEX IF NOT EXISTS inbox_message ON inbox(channel, message_id);
CREATE TABLE IF NOT EXISTS cursors (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tombstones (key TEXT PRIMARY KEY, buried REAL NOT NULL);
CREATE TABLE IF NOT EXISTS requests (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    kind     TEXT NOT NULL,
    arg      TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'pending',
    enqueued REAL NOT NULL,
    done_at  REAL,
    result   TEXT
);
"""

# Message times outside this range are refused (a year-1 or year-9999 stamp is a broken
# export, and one far in the future would never expire under retention).
EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
FUTURE_SLACK = timedelta(days=1)


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


@dataclass
class SubmitReport:
    """What :meth:`Inbox.submit_report` made of a batch of events."""

    new: int = 0
    # Message events whose key was already queued or committed (a retry, a re-import).
    duplicates: list[Message] = field(default_factory=list)
    # Messages and edits of buried (deleted or forgotten) messages: never stored.
    refused: int = 0
    # Events that cannot be stored, with the reason (e.g. a time outside the valid range).
    rejected: list[tuple[InboxEvent, str]] = field(default_factory=list)
    # Duplicates whose text differs from the stored message's (filled in by the service,
    # which can see committed messages): kept as they were, reported.
    conflicts: list[Message] = field(default_factory=list)


@dataclass(frozen=True)
class Request:
    """An operator request queued for the process that holds the data directory."""

    seq: int
    kind: str
    arg: dict[str, str | None]


def time_problem(ts: datetime | None, *, now: float | None = None) -> str | None:
    """Why ``ts`` cannot be a message's time (None when it can)."""
    if ts is None:
        return None
    if ts < EARLIEST:
        return f"time {ts.isoformat()} is before 1970: not a chat message's time"
    latest = datetime.fromtimestamp(time.time() if now is None else now, UTC) + FUTURE_SLACK
    if ts > latest:
        return (f"time {ts.isoformat()} is in the future: it would never expire under "
                "retention")
    return None


def _event_message_key(event: InboxEvent) -> MessageKey:
    return MessageKey(platform=event.platform, space=event.space, channel=event.channel,
                      message_id=event.id)


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


class Inbox(SqliteFile):
    def __init__(self, path: Path, *, max_attempts: int = 5) -> None:
        # Durable: an acknowledged message must survive power loss, not just a crash.
        super().__init__(path, schema=_SCHEMA, durable=True, lock=threading.RLock())
        self.max_attempts = max_attempts

    def inspection(self) -> InboxInspection:
        """The inbox file as checks outside the store may read it (tests)."""
        return InboxInspection(self.path)

    def submit(self, events: Iterable[InboxEvent]) -> int:
        """Persist events durably; returns how many were new (duplicates are no-ops)."""
        return self.submit_report(events).new

    def submit_report(self, events: Iterable[InboxEvent]) -> SubmitReport:
        """Persist events durably in one transaction and say what became of each: new,
        duplicate, refused (its message is buried) or rejected (with the reason).

        A delete buries its message at once and drops any queued text of it, so the
        message cannot be committed afterwards whatever order the events arrive in."""
        now = time.time()
        report = SubmitReport()
        with self._tx() as db:
            for ev in events:
                # A delete is honoured whatever its time says.
                problem = None if isinstance(ev, Delete) else time_problem(ev.ts, now=now)
                if problem is not None:
                    report.rejected.append((ev, problem))
                    continue
                mkey = _event_message_key(ev)
                if isinstance(ev, Delete):
                    self._bury(db, [mkey], now)
                    self._scrub(db, mkey)
                elif self._is_buried(db, mkey):
                    report.refused += 1
                    continue
                key, kind = event_key(ev)
                ts = ev.ts.timestamp() if ev.ts is not None else now
                cur = db.execute(
                    "INSERT OR IGNORE INTO inbox(key, platform, space, channel, message_id, "
                    "kind, ts, payload, enqueued) VALUES (?,?,?,?,?,?,?,?,?)",
                    (key, ev.platform, ev.space, ev.channel, ev.id, kind, ts, _encode(ev), now),
                )
                if cur.rowcount:
                    report.new += 1
                elif isinstance(ev, Message):
                    report.duplicates.append(ev)
        return report

    def amend(self, queued: InboxEvent, corrected: InboxEvent | None) -> bool:
        """Replace a still-pending event with ``corrected`` — the same platform event
        normalized again once what its acknowledgement could not look up is known (names,
        the channel it belongs to) — or withdraw it (``corrected`` is ``None``). The entry
        keeps its place in the queue. Returns False, changing nothing, when ``queued`` is
        not pending any more (committed, scrubbed, dead-lettered) or was never queued.

        ``corrected`` must be the same kind of event for the same message id, platform and
        space; its channel (and so its key) may differ. If its key is queued or committed
        already (a redelivery that came with what was missing), this entry is dropped
        instead: never two of the same event. A corrected delete buries its message at once,
        as :meth:`submit_report` does; a corrected message or edit of a buried message is
        dropped."""
        if corrected is not None and (
                type(corrected) is not type(queued) or corrected.id != queued.id
                or corrected.platform != queued.platform or corrected.space != queued.space):
            raise ValueError("an amendment must be the same kind of event for the same message")
        old_key, _ = event_key(queued)
        now = time.time()
        with self._tx() as db:
            row = db.execute("SELECT seq FROM inbox WHERE key=? AND status='pending' "
                             "AND payload IS NOT NULL", (old_key,)).fetchone()
            if row is None:
                return False
            seq = int(row[0])
            drop = ("UPDATE inbox SET status='done', payload=NULL, error=NULL, done_at=? "
                    "WHERE seq=?", (now, seq))
            if corrected is None:
                db.execute(*drop)
                return True
            new_key, _ = event_key(corrected)
            mkey = _event_message_key(corrected)
            if new_key != old_key:
                if isinstance(corrected, Delete):
                    self._bury(db, [mkey], now)
                    self._scrub(db, mkey)
                if (not isinstance(corrected, Delete) and self._is_buried(db, mkey)) or \
                        db.execute("SELECT 1 FROM inbox WHERE key=?", (new_key,)).fetchone():
                    db.execute(*drop)
                    return True
            db.execute("UPDATE inbox SET key=?, channel=?, payload=? WHERE seq=?",
                       (new_key, corrected.channel, _encode(corrected), seq))
        return True

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

    def scrub(self, *, platform: str, space: str, channel: str, message_id: str) -> None:
        """Drop any queued text of a message that is being forgotten (pending, parked or
        dead-lettered alike)."""
        with self._tx() as db:
            self._scrub(db, MessageKey(platform=platform, space=space, channel=channel,
                                       message_id=message_id))

    @staticmethod
    def _scrub(db: sqlite3.Connection, key: MessageKey) -> None:
        where = "channel=? AND message_id=? AND kind IN ('message','edit')"
        args: tuple[str, ...] = (key.channel, key.message_id)
        if key.platform and key.space:
            where += " AND platform=? AND space=?"
            args += (key.platform, key.space)
        db.execute(f"UPDATE inbox SET payload=NULL, error=NULL, status='done' WHERE {where}",
                   args)

    # ---- tombstones -------------------------------------------------------------------
    def bury(self, keys: Iterable[MessageKey]) -> None:
        """Record that these messages were deleted or forgotten, and drop their queued
        text: they are refused from now on."""
        with self._tx() as db:
            keys = list(keys)
            self._bury(db, keys, time.time())
            for key in keys:
                self._scrub(db, key)

    def buried(self, keys: Iterable[MessageKey]) -> set[MessageKey]:
        """Those of ``keys`` whose message was deleted or forgotten."""
        with self._lock:
            return {k for k in keys if self._is_buried(self._db, k)}

    @staticmethod
    def _bury(db: sqlite3.Connection, keys: Iterable[MessageKey], now: float) -> None:
        db.executemany("INSERT OR IGNORE INTO tombstones(key, buried) VALUES (?, ?)",
                       [(t, now) for k in keys for t in tombstone_keys(k)])

    @staticmethod
    def _is_buried(db: sqlite3.Connection, key: MessageKey) -> bool:
        forms = tombstone_keys(key)
        row = db.execute(
            f"SELECT 1 FROM tombstones WHERE key IN ({','.join('?' * len(forms))}) LIMIT 1",
            forms).fetchone()
        return row is not None

    def forget_user(self, user: str, *, platform: str | None = None,
                    space: str | None = None) -> list[MessageKey]:
        """Bury and scrub every message of ``user`` that still has text here — queued,
        parked or dead-lettered — and the edits of those messages. Returns their keys."""
        with self._tx() as db:
            rows = db.execute(
                "SELECT platform, space, channel, message_id FROM inbox WHERE kind='message' "
                "AND payload IS NOT NULL AND json_extract(payload, '$.user') = ? "
                "AND (? IS NULL OR platform = ?) AND (? IS NULL OR space = ?)",
                (user, platform, platform, space, space)).fetchall()
            keys = [MessageKey(platform=p, space=s, channel=c, message_id=m)
                    for p, s, c, m in rows]
            self._bury(db, keys, time.time())
            for key in keys:
                self._scrub(db, key)
        return keys

    # ---- parked edits -------------------------------------------------------------------
    def park(self, seq: int) -> None:
        """Keep an edit whose message is not in memory yet, until the message arrives."""
        with self._tx() as db:
            db.execute("UPDATE inbox SET status='parked' WHERE seq=? AND kind='edit'", (seq,))

    def parked_edits(self, keys: Iterable[MessageKey]) -> dict[MessageKey, tuple[int, Edit]]:
        """For each of ``keys`` with parked edits, the latest one (by time, then arrival)
        and the seqs of all of them (the caller marks them done once applied)."""
        out: dict[MessageKey, tuple[int, Edit]] = {}
        with self._lock:
            for key in keys:
                rows = self._db.execute(
                    "SELECT seq, payload FROM inbox WHERE status='parked' AND kind='edit' AND "
                    "platform=? AND space=? AND channel=? AND message_id=? "
                    "ORDER BY ts DESC, seq DESC",
                    (key.platform, key.space, key.channel, key.message_id)).fetchall()
                if rows:
                    edit = Edit.model_validate_json(rows[0][1])
                    out[key] = (int(rows[0][0]), edit)
                    for seq, _ in rows[1:]:
                        self._db.execute("UPDATE inbox SET status='done', payload=NULL "
                                         "WHERE seq=?", (seq,))
        return out

    def queued_text(self, key: MessageKey) -> str | None:
        """The text of a message still queued (pending or dead-lettered), if any."""
        raw, _ = event_key(Message(platform=key.platform, space=key.space, channel=key.channel,
                                   id=key.message_id, user="-", ts=EARLIEST, text=""))
        with self._lock:
            row = self._db.execute("SELECT payload FROM inbox WHERE key=? AND payload IS NOT "
                                   "NULL", (raw,)).fetchone()
        return Message.model_validate_json(row[0]).text if row else None

    # ---- operator requests ------------------------------------------------------------
    def request(self, kind: str, **arg: str | None) -> int:
        """Queue an operator request (e.g. a forget) for the process that writes."""
        with self._tx() as db:
            cur = db.execute("INSERT INTO requests(kind, arg, enqueued) VALUES (?, ?, ?)",
                             (kind, json.dumps(arg), time.time()))
            return int(cur.lastrowid or 0)

    def pending_requests(self) -> list[Request]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, kind, arg FROM requests WHERE status='pending' ORDER BY seq"
            ).fetchall()
        return [Request(int(s), str(k), json.loads(a)) for s, k, a in rows]

    def finish_request(self, seq: int, result: str) -> None:
        with self._tx() as db:
            db.execute("UPDATE requests SET status='done', done_at=?, result=? WHERE seq=?",
                       (time.time(), result, seq))

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

    def forget_space(self, *, platform: str, space: str) -> None:
        """Delete a forgotten workspace's rows (their text is scrubbed already; their ids
        remain) and its backfill cursors (``platform:…:space:…``); the freed pages are
        overwritten (``secure_delete``)."""
        with self._tx() as db:
            db.execute("DELETE FROM inbox WHERE platform=? AND space=?", (platform, space))
            names = [str(r[0]) for r in db.execute("SELECT name FROM cursors")]
            gone = [n for n in names if n.split(":")[0] == platform
                    and space in n.split(":")[1:3]]
            db.executemany("DELETE FROM cursors WHERE name=?", [(n,) for n in gone])

    def checkpoint(self) -> None:
        """Fold the WAL back into the database file so scrubbed text leaves no copy there."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
