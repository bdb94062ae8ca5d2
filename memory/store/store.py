"""MemoryStore: LanceDB tables plus the derived Tantivy index, behind one small API.

Scope is always applied inside the queries (SQL prefilter for LanceDB, must-clauses for
Tantivy); callers cannot get rows outside the scope they pass.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from memory.models import Channel, EvidenceNode, Scope
from memory.store.lexical import LexicalDoc, LexicalFilter, LexicalIndex
from memory.store.rows import (
    Row,
    channel_to_row,
    node_to_row,
    row_to_channel,
    row_to_node,
    to_epoch,
)
from memory.store.tables import Tables, sql_in, sql_str

logger = logging.getLogger(__name__)

NODE_META_COLUMNS = [
    "node_id", "seq", "platform", "space", "channel", "channel_name", "message_id",
    "thread_id", "reply_to", "reply_to_node", "speaker_id", "speaker", "ts", "text",
    "rewrite", "permalink", "topic", "state_id", "verdict", "value", "supersedes", "edited",
    "context_ids", "proposal_json", "verification_json",
]


@dataclass(frozen=True)
class Window:
    """Optional narrowing of a scoped query: participants and a time range."""

    speakers: tuple[str, ...] | None = None
    ts_from: datetime | None = None
    ts_to: datetime | None = None
    thread_id: str | None = None
    node_ids: tuple[str, ...] | None = None


def scope_sql(scope: Scope, window: Window | None = None) -> str:
    parts: list[str] = []
    if scope.platform is not None:
        parts.append(f"platform = {sql_str(scope.platform)}")
    if scope.space is not None:
        parts.append(f"space = {sql_str(scope.space)}")
    if scope.channels is not None:
        parts.append(sql_in("channel", scope.channels))
    thread = scope.thread_id or (window.thread_id if window else None)
    if thread is not None:
        parts.append(f"thread_id = {sql_str(thread)}")
    if window is not None:
        if window.speakers is not None:
            names = list(window.speakers)
            parts.append(f"({sql_in('speaker', names)} OR {sql_in('speaker_id', names)})")
        if window.ts_from is not None:
            parts.append(f"ts >= {to_epoch(window.ts_from)}")
        if window.ts_to is not None:
            parts.append(f"ts <= {to_epoch(window.ts_to)}")
        if window.node_ids is not None:
            parts.append(sql_in("node_id", window.node_ids))
    return " AND ".join(parts) if parts else "TRUE"


def scope_lexical(scope: Scope, window: Window | None = None) -> LexicalFilter:
    return LexicalFilter(
        space=scope.space,
        channels=scope.channels,
        thread=scope.thread_id or (window.thread_id if window else None),
        speakers=window.speakers if window else None,
        ts_from=int(to_epoch(window.ts_from)) if window and window.ts_from else None,
        ts_to=int(to_epoch(window.ts_to)) + 1 if window and window.ts_to else None,
        node_ids=window.node_ids if window else None,
    )


def lexical_doc(row: Row) -> LexicalDoc:
    body = row.get("rewrite") or ""
    text = row.get("text") or ""
    if text and text not in body:
        body = f"{body}\n{text}" if body else text
    return LexicalDoc(
        node_id=row["node_id"],
        space=row["space"],
        channel=row["channel"],
        thread=row.get("thread_id") or "",
        speakers=(row.get("speaker") or "", row.get("speaker_id") or ""),
        ts=int(row["ts"]),
        body=body,
    )


class MemoryStore:
    """The persistent memory of one deployment. ``uri`` may be a path or an object-store URI;
    the lexical index always lives on local disk at ``lexical_dir``."""

    def __init__(
        self,
        *,
        uri: str,
        lexical_dir: Path,
        dim: int,
        storage_options: dict[str, str] | None = None,
    ) -> None:
        self.tables = Tables(uri, dim=dim, storage_options=storage_options)
        self.lexical = LexicalIndex(lexical_dir)
        self.dim = dim
        self._seq = self.tables.max_seq()
        self.reconcile_lexical()

    # ---- lifecycle ----------------------------------------------------------------------
    def reconcile_lexical(self) -> int:
        """Make the lexical index hold exactly the nodes LanceDB holds (after a crash between
        the two writes, or an upgrade). Returns how many documents were fixed."""
        lance_ids = {
            r["node_id"] for r in self.tables.query_nodes("TRUE", columns=["node_id"])
        }
        lex_ids = self.lexical.all_ids() if self.lexical.count() else set()
        extra = lex_ids - lance_ids
        missing = lance_ids - lex_ids
        if extra:
            self.lexical.delete(extra)
        if missing:
            self._index_ids(sorted(missing))
        if extra or missing:
            logger.info("lexical index reconciled: %d added, %d removed", len(missing), len(extra))
        return len(extra) + len(missing)

    def reindex(self) -> int:
        """Rebuild the lexical index from LanceDB; returns the number of documents."""
        self.lexical.clear()
        self.lexical.purge_deleted()
        ids = [r["node_id"] for r in self.tables.query_nodes("TRUE", columns=["node_id"])]
        self._index_ids(ids)
        return len(ids)

    def _index_ids(self, ids: Sequence[str]) -> None:
        for i in range(0, len(ids), 2000):
            rows = self.tables.query_nodes(
                sql_in("node_id", ids[i : i + 2000]), columns=NODE_META_COLUMNS
            )
            self.lexical.upsert(lexical_doc(r) for r in rows)

    def close(self) -> None:
        self.lexical.close()

    def purge(self) -> None:
        """Remove deleted rows' bytes from disk: old LanceDB versions and dead index segments."""
        self.tables.compact(purge_history=True)
        self.lexical.purge_deleted()

    # ---- sequence -----------------------------------------------------------------------
    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # ---- nodes --------------------------------------------------------------------------
    def put_nodes(self, nodes: Sequence[EvidenceNode], vectors: np.ndarray) -> None:
        """Upsert nodes (LanceDB first, then the derived index)."""
        rows = [node_to_row(n, v) for n, v in zip(nodes, vectors, strict=True)]
        self.tables.upsert_nodes(rows)
        self.lexical.upsert(lexical_doc(r) for r in rows)

    def node_vectors(self, node_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not node_ids:
            return {}
        rows = self.tables.query_nodes(sql_in("node_id", node_ids), columns=["node_id", "vector"])
        return {r["node_id"]: np.asarray(r["vector"], dtype=np.float32) for r in rows}

    def get_nodes(self, node_ids: Iterable[str], scope: Scope | None = None) -> list[EvidenceNode]:
        ids = list(dict.fromkeys(node_ids))
        if not ids:
            return []
        where = sql_in("node_id", ids)
        if scope is not None:
            where = f"{where} AND {scope_sql(scope)}"
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS)
        by_id = {r["node_id"]: row_to_node(r) for r in rows}
        return [by_id[i] for i in ids if i in by_id]

    def find_nodes(
        self, scope: Scope, window: Window | None = None, *, limit: int | None = None
    ) -> list[EvidenceNode]:
        rows = self.tables.query_nodes(
            scope_sql(scope, window), columns=NODE_META_COLUMNS, limit=limit
        )
        return sorted((row_to_node(r) for r in rows), key=lambda n: (n.ts, n.seq))

    def find_message(
        self, *, channel: str, message_id: str, platform: str = "", space: str = ""
    ) -> EvidenceNode | None:
        where = f"channel = {sql_str(channel)} AND message_id = {sql_str(message_id)}"
        if platform:
            where += f" AND platform = {sql_str(platform)}"
        if space:
            where += f" AND space = {sql_str(space)}"
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS, limit=1)
        return row_to_node(rows[0]) if rows else None

    def state_nodes(self, state_ids: Iterable[str]) -> list[EvidenceNode]:
        ids = list(dict.fromkeys(state_ids))
        if not ids:
            return []
        rows = self.tables.query_nodes(sql_in("state_id", ids), columns=NODE_META_COLUMNS)
        return sorted((row_to_node(r) for r in rows), key=lambda n: n.seq)

    def neighbours(self, nodes: Sequence[EvidenceNode], scope: Scope) -> list[EvidenceNode]:
        """Reply/thread/chain neighbours of ``nodes`` inside ``scope`` (structure, not rank)."""
        if not nodes:
            return []
        ids = [n.node_id for n in nodes]
        ors = [sql_in("reply_to_node", ids), sql_in("node_id", [
            x for n in nodes for x in (n.reply_to_node, n.supersedes) if x
        ]), sql_in("supersedes", ids)]
        threads = [t for n in nodes for t in (n.thread_id, n.message_id) if t]
        if threads:
            ors.append(sql_in("thread_id", threads))
        states = [n.state_id for n in nodes if n.state_id]
        if states:
            ors.append(sql_in("state_id", states))
        where = f"({' OR '.join(ors)}) AND {scope_sql(scope)}"
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS, limit=2000)
        return [row_to_node(r) for r in rows]

    def delete_nodes(self, node_ids: Sequence[str]) -> None:
        self.tables.delete_nodes(node_ids)
        self.lexical.delete(node_ids)

    def rewrite_nodes(self, nodes: Sequence[EvidenceNode]) -> None:
        """Re-save nodes whose structure changed, keeping their stored vectors."""
        if not nodes:
            return
        vecs = self.node_vectors([n.node_id for n in nodes])
        keep = [n for n in nodes if n.node_id in vecs]
        self.put_nodes(keep, np.stack([vecs[n.node_id] for n in keep]) if keep else
                       np.zeros((0, self.dim), dtype=np.float32))

    # ---- search primitives --------------------------------------------------------------
    def vector_search(
        self, vector: np.ndarray, scope: Scope, k: int, window: Window | None = None
    ) -> list[tuple[str, float]]:
        rows = self.tables.vector_search(vector, scope_sql(scope, window), k)
        return [(r["node_id"], 1.0 - float(r["_distance"])) for r in rows]

    def lexical_search(
        self, query: str, scope: Scope, k: int, window: Window | None = None
    ) -> list[tuple[str, float]]:
        return self.lexical.search(query, scope_lexical(scope, window), k)

    def phrase_search(
        self, phrase: str, scope: Scope, k: int, window: Window | None = None
    ) -> list[EvidenceNode]:
        """Literal, case-insensitive substring match on source text and rewrite."""
        needle = " ".join(phrase.split()).lower()
        if not needle:
            return []
        like = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        pattern = sql_str(f"%{like}%")
        where = (
            f"(lower(text) LIKE {pattern} ESCAPE '\\' OR lower(rewrite) LIKE {pattern} "
            f"ESCAPE '\\') AND {scope_sql(scope, window)}"
        )
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS, limit=k)
        return sorted((row_to_node(r) for r in rows), key=lambda n: (n.ts, n.seq))

    # ---- channels -----------------------------------------------------------------------
    def put_channels(self, channels: Sequence[Channel]) -> None:
        self.tables.upsert_channels([channel_to_row(c) for c in channels])

    def channels(self, *, platform: str | None = None, space: str | None = None) -> list[Channel]:
        parts = []
        if platform:
            parts.append(f"platform = {sql_str(platform)}")
        if space:
            parts.append(f"space = {sql_str(space)}")
        return [row_to_channel(r) for r in self.tables.query_channels(" AND ".join(parts) or None)]

    # ---- stats --------------------------------------------------------------------------
    def count_nodes(self) -> int:
        return int(self.tables.nodes.count_rows())

    def distinct_channels(self, scope: Scope) -> list[tuple[str, str, str]]:
        rows = self.tables.query_nodes(
            scope_sql(scope), columns=["platform", "space", "channel"]
        )
        return sorted({(r["platform"], r["space"], r["channel"]) for r in rows})
