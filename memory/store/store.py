"""MemoryStore: LanceDB tables plus the derived Tantivy index, behind one small API.

Scope is always applied inside the queries (SQL prefilter for LanceDB, must-clauses for
Tantivy); callers cannot get rows outside the scope they pass.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

from memory.errors import ConfigError
from memory.facets import members_sql, project
from memory.models import Channel, EvidenceNode, MessageKey, Scope
from memory.store.lexical import LexicalDoc, LexicalFilter, LexicalIndex
from memory.store.rows import (
    SEARCH_FIELDS,
    Row,
    card_to_node,
    channel_to_row,
    node_to_row,
    row_to_channel,
    row_to_node,
    to_epoch,
)
from memory.store.tables import Tables, sql_in, sql_str

logger = logging.getLogger(__name__)

NODE_SEARCH_COLUMNS = list(SEARCH_FIELDS)
NODE_META_COLUMNS = [*NODE_SEARCH_COLUMNS, "proposal_json", "verification_json"]
# Search reads a node's card (its search fields in one column); its vector comes as a matrix.
_CARD_COLUMNS = ["node_id", "card"]


def _by_id(node_ids: Iterable[str], scope: Scope | None) -> tuple[list[str], str]:
    """``node_ids`` without repeats and the filter selecting them (inside ``scope``)."""
    ids = list(dict.fromkeys(node_ids))
    where = sql_in("node_id", ids) if ids else "FALSE"
    return ids, f"{where} AND {scope_sql(scope)}" if scope is not None else where


def tombstone_keys(key: MessageKey) -> tuple[str, ...]:
    """The tombstone keys of a message: its node id, and a channel-and-id form for deletes
    that name no platform or space (export files may not). Hashes only: no text."""
    channel_form = "c_" + hashlib.sha256(
        f"{key.channel}\x1f{key.message_id}".encode()).hexdigest()[:20]
    if not key.platform or not key.space:
        return (channel_form,)
    return (key.node_id(), channel_form)


def _last_of_each(nodes: Sequence[EvidenceNode], vectors: np.ndarray
                  ) -> tuple[Sequence[EvidenceNode], np.ndarray]:
    """One copy of each node (the last given, with its vector): LanceDB refuses a merge in
    which two rows match the same stored row, and the write would fail as a whole."""
    last = {n.node_id: i for i, n in enumerate(nodes)}
    if len(last) == len(nodes):
        return nodes, vectors
    keep = sorted(last.values())
    return [nodes[i] for i in keep], vectors[keep]


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


# Meta key set while deleted rows may still be on disk (cleared by a completed purge).
PURGE_PENDING = "purge_pending"
# The embedder whose vectors the store holds (Embedder.name).
EMBEDDER = "embedder"
# The most rows one query may ask for: LanceDB rejects limits past a 32-bit range.
MAX_K = 2**31 - 1
# Zero-width and bidi controls (as memory.text.clean drops them), in Python and in the
# Rust regex syntax LanceDB's SQL functions use.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
_INVISIBLE_SQL = r"[\x{200B}-\x{200F}\x{202A}-\x{202E}\x{2060}\x{2066}-\x{2069}\x{FEFF}]"
_SURROGATE = re.compile("[\ud800-\udfff]")


def _normalized_sql(column: str) -> str:
    """``column`` lower-cased, without invisible controls, whitespace runs as one space."""
    bare = f"regexp_replace(lower({column}), '{_INVISIBLE_SQL}', '', 'g')"
    return f"regexp_replace({bare}, '\\s+', ' ', 'g')"


def _encodable(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(_SURROGATE.sub("\ufffd", v) for v in values)


def scope_lexical(scope: Scope, window: Window | None = None) -> LexicalFilter:
    """The scope as index filter terms (lone surrogates, which Tantivy cannot take, become
    U+FFFD: they match nothing stored, as in the SQL filter)."""
    thread = scope.thread_id or (window.thread_id if window else None)
    return LexicalFilter(
        platform=scope.platform and _SURROGATE.sub("\ufffd", scope.platform),
        space=scope.space and _SURROGATE.sub("\ufffd", scope.space),
        channels=_encodable(scope.channels),
        thread=thread and _SURROGATE.sub("\ufffd", thread),
        speakers=_encodable(window.speakers) if window else None,
        ts_from=int(to_epoch(window.ts_from)) if window and window.ts_from else None,
        ts_to=int(to_epoch(window.ts_to)) + 1 if window and window.ts_to else None,
        node_ids=window.node_ids if window else None,
    )


def lexical_doc(row: Row) -> LexicalDoc:
    body = row.get("rewrite") or ""
    text = row.get("text") or ""
    if text and text not in body:
        body = f"{body}\n{text}" if body else text
    if row.get("context"):
        body = f"{body}\n{row['context']}"
    return LexicalDoc(
        node_id=row["node_id"],
        platform=row["platform"],
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
        read_only: bool = False,
    ) -> None:
        self.read_only = read_only
        self.tables = Tables(uri, dim=dim, storage_options=storage_options,
                             read_only=read_only)
        self.lexical = LexicalIndex(lexical_dir, read_only=read_only)
        self.dim = dim
        self._seq = self.tables.opened_seq
        self._channels: set[tuple[str, str, str]] | None = None
        if read_only:
            # A reader repairs nothing: the process that writes does, when it opens.
            return
        self.reconcile_lexical()
        if self.tables.get_meta(PURGE_PENDING):
            # A forget was interrupted before its purge: old versions may still hold its text.
            logger.info("finishing an interrupted purge")
            self.purge()

    # ---- lifecycle ----------------------------------------------------------------------
    def claim_embedder(self, name: str) -> None:
        """Record that this store's vectors come from the embedder ``name``; ConfigError if
        they come from another one, whose vectors cannot be compared with its (a store
        written before names were recorded is taken to be in ``name``'s space)."""
        recorded = self.tables.get_meta(EMBEDDER)
        if not recorded:
            if not self.read_only:
                self.tables.set_meta(EMBEDDER, name)
        elif recorded != name:
            raise ConfigError(
                f"this data was embedded with {recorded}, and this configuration embeds with "
                f"{name}: their vectors cannot be compared. Set EGMEM_EMBEDDER to the embedder "
                "the data was written with, or use a new data directory (EGMEM_DATA) and "
                "import the history again.")

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
        """Remove deleted rows' bytes from disk: old LanceDB versions and dead index segments.

        A Tantivy segment keeps a deleted document's terms until it is merged away, which
        tantivy-py cannot request: an index holding deletions is rebuilt from LanceDB."""
        self.tables.compact(purge_history=True)
        if self.lexical.has_deleted():
            self.reindex()
        else:
            self.lexical.purge_deleted()
        self.tables.set_meta(PURGE_PENDING, "")

    # ---- sequence -----------------------------------------------------------------------
    def next_seq(self) -> int:
        self._seq += 1
        return self._seq

    # ---- nodes --------------------------------------------------------------------------
    def put_nodes(self, nodes: Sequence[EvidenceNode], vectors: np.ndarray, *,
                  fresh: bool = False) -> None:
        """Upsert nodes (LanceDB first, then the derived index).

        ``fresh`` says none of the nodes was stored before (a writer batch after its
        idempotency check): their index documents may then be committed with a later write
        or read, since a crash before that loses only documents ``reconcile_lexical`` adds
        back on the next open."""
        if len(nodes) != len(vectors):
            raise ValueError(f"{len(nodes)} nodes but {len(vectors)} vectors")
        nodes, vectors = _last_of_each(nodes, np.asarray(vectors, dtype=np.float32))
        rows = [node_to_row(n, None) for n in nodes]
        self.tables.upsert_nodes(rows, vectors, append=fresh)
        if self._channels is not None:
            self._channels.update((n.platform, n.space, n.channel) for n in nodes)
        self.lexical.upsert((lexical_doc(r) for r in rows), defer=fresh)

    def existing_ids(self, node_ids: Sequence[str]) -> set[str]:
        """Which of ``node_ids`` are stored (reads only the id column)."""
        if not node_ids:
            return set()
        rows = self.tables.query_nodes(sql_in("node_id", node_ids), columns=["node_id"])
        return {r["node_id"] for r in rows}

    def node_vectors(self, node_ids: Sequence[str]) -> dict[str, np.ndarray]:
        if not node_ids:
            return {}
        rows, matrix = self.tables.query_nodes_with_vectors(sql_in("node_id", node_ids),
                                                            columns=["node_id"])
        return {r["node_id"]: matrix[i] for i, r in enumerate(rows)}

    def search_nodes(self, node_ids: Iterable[str], scope: Scope
                     ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]:
        """Nodes in ``scope`` without their audit record (``proposal`` and ``verification``
        are None), with their vectors, in one query: what ranking needs. Input order."""
        ids, where = _by_id(node_ids, scope)
        if not ids:
            return [], {}
        found, vectors = self._search_rows(where)
        by_id = {n.node_id: n for n in found}
        return [by_id[i] for i in ids if i in by_id], vectors

    def _search_rows(self, where: str, *, limit: int | None = None
                     ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]:
        """Nodes matching ``where`` read from their cards, with their vectors."""
        rows, matrix = self.tables.query_nodes_with_vectors(where, columns=_CARD_COLUMNS,
                                                            limit=limit)
        return self._card_nodes(rows, matrix)

    def _card_nodes(self, rows: list[Row], matrix: np.ndarray
                    ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]:
        # Rows written before cards existed are read column by column (ids only: they
        # already passed ``where``) until ``fill_cards`` has rewritten them.
        old = [r["node_id"] for r in rows if not r["card"]]
        columns = {r["node_id"]: r for r in self.tables.query_nodes(
            sql_in("node_id", old), columns=NODE_SEARCH_COLUMNS)} if old else {}
        nodes: list[EvidenceNode] = []
        vectors: dict[str, np.ndarray] = {}
        for i, r in enumerate(rows):
            nid = r["node_id"]
            if r["card"]:
                nodes.append(card_to_node(r["card"]))
            elif nid in columns:
                nodes.append(row_to_node(columns[nid]))
            else:
                continue
            vectors[nid] = matrix[i]
        return nodes, vectors

    def fill_cards(self, *, batch: int = 5000) -> int:
        """Give rows written before the ``card`` column existed their card (an upgrade
        step, run by maintenance); returns how many rows were rewritten."""
        done = 0
        while True:
            rows, vectors = self.tables.query_nodes_with_vectors(
                "card IS NULL", columns=NODE_META_COLUMNS, limit=batch)
            if not rows:
                return done
            self.tables.upsert_nodes([node_to_row(row_to_node(r), None) for r in rows], vectors)
            done += len(rows)
            logger.info("filled search cards of %d rows", done)

    def get_nodes(self, node_ids: Iterable[str], scope: Scope | None = None) -> list[EvidenceNode]:
        """Nodes with their audit record (in ``scope``, when given), in input order."""
        ids, where = _by_id(node_ids, scope)
        if not ids:
            return []
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS)
        by_id = {r["node_id"]: r for r in rows}
        return [row_to_node(by_id[i]) for i in ids if i in by_id]

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
        """The members of ``state_ids``, each seen as a member of the state it is listed
        for (a message that opened several states appears once per state: memory.facets)."""
        ids = list(dict.fromkeys(state_ids))
        if not ids:
            return []
        rows = self.tables.query_nodes(members_sql(ids), columns=NODE_META_COLUMNS)
        nodes = sorted((row_to_node(r) for r in rows), key=lambda n: n.seq)
        return project(nodes, ids)

    def neighbours(self, nodes: Sequence[EvidenceNode], scope: Scope, *,
                   include: Sequence[str] = ()
                   ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]:
        """Reply/thread/chain neighbours of ``nodes`` inside ``scope`` (structure, not rank),
        with their vectors and without their audit record, as :meth:`search_nodes`: search
        ranks them without fetching them again. The nodes ``include`` names are read in the
        same query (each query costs ~4 ms before it reads a row)."""
        if not nodes and not include:
            return [], {}
        ids = [n.node_id for n in nodes]
        ors = [sql_in("reply_to_node", ids), sql_in("node_id", [
            *include, *(x for n in nodes for x in (n.reply_to_node, n.supersedes) if x)
        ]), sql_in("supersedes", ids)]
        threads = [t for n in nodes for t in (n.thread_id, n.message_id) if t]
        if threads:
            ors.append(sql_in("thread_id", threads))
        states = [n.state_id for n in nodes if n.state_id]
        if states:
            ors.append(sql_in("state_id", states))
        where = f"({' OR '.join(ors)}) AND {scope_sql(scope)}"
        return self._search_rows(where, limit=2000)

    def delete_nodes(self, node_ids: Sequence[str]) -> None:
        """Delete nodes from the table and the index; their bytes stay on disk (old versions,
        deletion files) until :meth:`purge`, which the next open runs if a crash intervenes."""
        if node_ids:
            self.tables.set_meta(PURGE_PENDING, "1")
        self.tables.delete_nodes(node_ids)
        self.lexical.delete(node_ids)

    def rewrite_nodes(self, nodes: Sequence[EvidenceNode]) -> None:
        """Re-save nodes whose structure changed, keeping their stored vectors."""
        if not nodes:
            return
        nodes = list({n.node_id: n for n in nodes}.values())
        vecs = self.node_vectors([n.node_id for n in nodes])
        keep = [n for n in nodes if n.node_id in vecs]
        self.put_nodes(keep, np.stack([vecs[n.node_id] for n in keep]) if keep else
                       np.zeros((0, self.dim), dtype=np.float32))

    # ---- search primitives --------------------------------------------------------------
    def vector_search_nodes(
        self, vector: np.ndarray, scope: Scope, *, k: int, window: Window | None = None
    ) -> tuple[list[tuple[str, float]], list[EvidenceNode], dict[str, np.ndarray]]:
        """:meth:`vector_search` with the hits read as :meth:`search_nodes` reads them."""
        if k <= 0:
            return [], [], {}
        rows, matrix = self.tables.vector_search_with_vectors(
            vector, scope_sql(scope, window), min(k, MAX_K), columns=_CARD_COLUMNS)
        ranking = [(r["node_id"], 1.0 - float(r["_distance"])) for r in rows]
        nodes, vectors = self._card_nodes(rows, matrix)
        return ranking, nodes, vectors

    def vector_search(
        self, vector: np.ndarray, scope: Scope, *, k: int, window: Window | None = None
    ) -> list[tuple[str, float]]:
        if k <= 0:
            return []
        rows = self.tables.vector_search(vector, scope_sql(scope, window), min(k, MAX_K))
        return [(r["node_id"], 1.0 - float(r["_distance"])) for r in rows]

    def lexical_search(
        self, query: str, scope: Scope, *, k: int, window: Window | None = None
    ) -> list[tuple[str, float]]:
        return self.lexical.search(query, scope_lexical(scope, window), k)

    def speaker_words(self, words: Iterable[str], scope: Scope) -> set[str]:
        """Those of ``words`` (lower-case) that are a speaker's first name (or only name,
        or id) in ``scope``."""
        return self.lexical.speaker_words(words, scope_lexical(scope))

    def phrase_search(
        self, phrase: str, scope: Scope, *, k: int, window: Window | None = None
    ) -> list[EvidenceNode]:
        """Literal substring match on source text and rewrite: case-insensitive, with runs of
        whitespace equal and zero-width/bidi controls ignored on both sides (a joiner inside
        a word must not hide it). Lone surrogates in ``phrase`` count as U+FFFD, as imports
        store them."""
        needle = _SURROGATE.sub("\ufffd", _INVISIBLE.sub("", phrase))
        needle = " ".join(needle.split()).lower()
        if not needle or k <= 0:
            return []
        like = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        pattern = sql_str(f"%{like}%")
        where = (
            f"({_normalized_sql('text')} LIKE {pattern} ESCAPE '\\' OR "
            f"{_normalized_sql('rewrite')} LIKE {pattern} ESCAPE '\\') "
            f"AND {scope_sql(scope, window)}"
        )
        rows = self.tables.query_nodes(where, columns=NODE_META_COLUMNS, limit=min(k, MAX_K))
        return sorted((row_to_node(r) for r in rows), key=lambda n: (n.ts, n.seq))

    # ---- tombstones ---------------------------------------------------------------------
    def bury(self, keys: Iterable[MessageKey]) -> None:
        """Record that these messages were deleted or forgotten (by a hash of their key):
        the writer refuses them from now on, whichever inbox they come through."""
        self.tables.add_tombstones([t for k in keys for t in tombstone_keys(k)], time.time())

    def buried(self, keys: Iterable[MessageKey]) -> set[MessageKey]:
        """Those of ``keys`` whose message was deleted or forgotten."""
        forms = {k: tombstone_keys(k) for k in keys}
        found = self.tables.find_tombstones([t for ts in forms.values() for t in ts])
        return {k for k, ts in forms.items() if found.intersection(ts)}

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

    def known_channels(self, *, platform: str, space: str) -> set[str]:
        """Channels of a space that hold evidence (cached; one scan per process)."""
        if self._channels is None:
            self._channels = set(self.distinct_channels(Scope()))
        return {c for p, s, c in self._channels if p == platform and s == space}

    def distinct_channels(self, scope: Scope) -> list[tuple[str, str, str]]:
        rows = self.tables.query_nodes(
            scope_sql(scope), columns=["platform", "space", "channel"]
        )
        return sorted({(r["platform"], r["space"], r["channel"]) for r in rows})
