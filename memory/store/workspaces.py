"""Per-workspace bookkeeping of the chat front ends: weekly digest subscriptions and
pending uninstalls, in their own SQLite file beside the inbox (``workspaces.sqlite3``).

Uninstalling the app (Slack ``app_uninstalled``/``tokens_revoked``, a Discord guild
removing the bot) does not delete the workspace's memory at once: a reinstall within the
grace period (:data:`UNINSTALL_GRACE`) keeps it, and a later uninstall starts the grace
period again. The scheduler deletes what is due.

A channel's digest may be turned on by anyone in it; only the person who turned it on or
someone who manages the workspace may turn it off (:class:`DigestOwned` otherwise).
Deleted rows are overwritten on disk (``secure_delete``) and the write-ahead log is folded
back after a workspace is forgotten, so no id of it stays in either file.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memory.errors import DigestOwned
from memory.store.sqlite_file import SqliteFile

FILENAME = "workspaces.sqlite3"
UNINSTALL_GRACE = timedelta(hours=72)
"""How long a workspace's memory outlives an uninstall (a mistaken removal can be undone)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS digests (
    platform TEXT NOT NULL, space TEXT NOT NULL, channel TEXT NOT NULL,
    enabled_by TEXT NOT NULL, enabled_at REAL NOT NULL,
    PRIMARY KEY (platform, space, channel)
);
CREATE TABLE IF NOT EXISTS uninstalls (
    platform TEXT NOT NULL, space TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (platform, space)
);
"""


class WorkspaceLedger(SqliteFile):
    def __init__(self, path: Path) -> None:
        super().__init__(path, schema=_SCHEMA)

    # ---- digests ------------------------------------------------------------------------
    def set_digest(self, *, platform: str, space: str, channel: str, enabled: bool, by: str,
                   manager: bool = False, now: datetime | None = None) -> bool:
        """Turn a channel's digest on or off; returns whether it changed. Turning it off
        is for whoever turned it on, or a ``manager``: :class:`DigestOwned` otherwise."""
        at = (now or datetime.now(UTC)).timestamp()
        with self._tx() as db:
            if enabled:
                cur = db.execute(
                    "INSERT OR IGNORE INTO digests(platform, space, channel, enabled_by, "
                    "enabled_at) VALUES (?,?,?,?,?)", (platform, space, channel, by, at))
            else:
                row = db.execute("SELECT enabled_by FROM digests WHERE platform=? AND "
                                 "space=? AND channel=?", (platform, space, channel)).fetchone()
                if row is not None and row[0] != by and not manager:
                    raise DigestOwned(str(row[0]))
                cur = db.execute("DELETE FROM digests WHERE platform=? AND space=? AND channel=?",
                                 (platform, space, channel))
            return bool(cur.rowcount)

    def digest_channels(self, *, platform: str) -> list[tuple[str, str]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT space, channel FROM digests WHERE platform=? ORDER BY space, channel",
                (platform,)).fetchall()
        return [(str(s), str(c)) for s, c in rows]

    # ---- uninstalls ---------------------------------------------------------------------
    def mark_uninstalled(self, *, platform: str, space: str, at: datetime) -> None:
        """Record an uninstall; a later one restarts the grace period."""
        with self._tx() as db:
            db.execute("INSERT OR REPLACE INTO uninstalls(platform, space, at) VALUES (?,?,?)",
                       (platform, space, at.timestamp()))

    def pending_uninstalls(self, *, platform: str) -> list[tuple[str, datetime]]:
        """(space, uninstalled at) of every uninstall not yet cancelled or carried out."""
        with self._lock:
            rows = self._db.execute("SELECT space, at FROM uninstalls WHERE platform=? "
                                    "ORDER BY at", (platform,)).fetchall()
        return [(str(s), datetime.fromtimestamp(a, UTC)) for s, a in rows]

    def cancel_uninstall(self, *, platform: str, space: str) -> bool:
        with self._tx() as db:
            cur = db.execute("DELETE FROM uninstalls WHERE platform=? AND space=?",
                             (platform, space))
            return bool(cur.rowcount)

    def due_uninstalls(self, *, now: datetime,
                       grace: timedelta = UNINSTALL_GRACE) -> list[tuple[str, str, datetime]]:
        """(platform, space, uninstalled at) of every uninstall older than ``grace``."""
        cutoff = (now - grace).timestamp()
        with self._lock:
            rows = self._db.execute(
                "SELECT platform, space, at FROM uninstalls WHERE at <= ? ORDER BY at",
                (cutoff,)).fetchall()
        return [(str(p), str(s), datetime.fromtimestamp(a, UTC)) for p, s, a in rows]

    def forget_space(self, *, platform: str, space: str) -> None:
        """Drop the workspace's digests and its uninstall marker (its memory is gone)."""
        with self._tx() as db:
            db.execute("DELETE FROM digests WHERE platform=? AND space=?", (platform, space))
            db.execute("DELETE FROM uninstalls WHERE platform=? AND space=?", (platform, space))
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        with self._lock:
            self._db.close()
