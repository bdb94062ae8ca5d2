"""👍/👎 on answers, kept so real misses can become evaluation cases.

Its own SQLite file beside the inbox (``feedback.sqlite3``): one row per vote with the
question, the cited node and message ids, who asked and who rated. No message text is
copied here (only ids), so forgetting a message leaves nothing of it in this file; the
question is the asker's own words, deleted with their workspace (:meth:`forget_space`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory.ports import FeedbackEntry
from memory.store.sqlite_file import SqliteFile

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          REAL NOT NULL,
    platform    TEXT NOT NULL,
    space       TEXT NOT NULL,
    channel     TEXT NOT NULL,
    asker       TEXT NOT NULL,
    rater       TEXT NOT NULL,
    vote        TEXT NOT NULL CHECK (vote IN ('up', 'down')),
    question    TEXT NOT NULL,
    node_ids    TEXT NOT NULL,
    message_ids TEXT NOT NULL,
    abstained   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_space ON feedback(platform, space);
"""

FILENAME = "feedback.sqlite3"


class FeedbackLog(SqliteFile):
    """Append-only feedback records; a rater's second vote on the same question and
    citations replaces the first (a changed mind, not a second opinion)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, schema=_SCHEMA)

    def record(self, entry: FeedbackEntry) -> None:
        nodes = json.dumps(list(entry.node_ids))
        with self._tx() as db:
            db.execute(
                "DELETE FROM feedback WHERE platform=? AND space=? AND rater=? AND question=? "
                "AND node_ids=?", (entry.platform, entry.space, entry.rater, entry.question,
                                   nodes))
            db.execute(
                "INSERT INTO feedback(at, platform, space, channel, asker, rater, vote, question,"
                " node_ids, message_ids, abstained) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (entry.at.timestamp(), entry.platform, entry.space, entry.channel, entry.asker,
                 entry.rater, entry.vote, entry.question, nodes,
                 json.dumps(list(entry.message_ids)), int(entry.abstained)))

    def entries(self, *, node_id: str | None = None) -> list[FeedbackEntry]:
        """Every record, oldest first; with ``node_id`` only those citing that node."""
        with self._lock:
            rows = self._db.execute(
                "SELECT at, platform, space, channel, asker, rater, vote, question, node_ids,"
                " message_ids, abstained FROM feedback ORDER BY at, id").fetchall()
        out = [_entry(row) for row in rows]
        if node_id is not None:
            out = [e for e in out if node_id in e.node_ids]
        return out

    def forget_space(self, *, platform: str, space: str) -> int:
        with self._tx() as db:
            cur = db.execute("DELETE FROM feedback WHERE platform=? AND space=?",
                             (platform, space))
            count = int(cur.rowcount)
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return count

    def forget_user(self, user: str) -> int:
        """Delete the votes a person gave or got (their questions are their words)."""
        with self._tx() as db:
            cur = db.execute("DELETE FROM feedback WHERE asker=? OR rater=?", (user, user))
            count = int(cur.rowcount)
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return count

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _entry(row: tuple[Any, ...]) -> FeedbackEntry:
    (at, platform, space, channel, asker, rater, vote, question, nodes, messages,
     abstained) = row
    return FeedbackEntry(
        at=datetime.fromtimestamp(at, UTC), platform=platform, space=space, channel=channel,
        asker=asker, rater=rater, vote=vote, question=question,
        node_ids=tuple(json.loads(nodes)), message_ids=tuple(json.loads(messages)),
        abstained=bool(abstained))
