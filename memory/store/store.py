"""MemoryStore: LanceDB tables plus the derived Tantivy index, behind one small API.

Scope is always applied inside the queries (SQL prefilter for LanceDB, must-clauses for
Tantivy); callers cannot get rows outside the scope they pass.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from memory.errors import ConfigError
from memory.facets import project
from memory.faults import FaultPoints
from memory.models import Channel, EvidenceNode, MessageKey, Scope
from memory.store.filters import (
    INVISIBLE,
    SURROGATE,
    Span,
    Window,
    columns_sql,
    members_sql,
    neighbours_sql,
    phrase_sql,
    scope_lexical,
    scope_sql,
)
from memory.store.filters import (
    by_id as ids_filter,
)
from memory.store.inspection import StoreInspection
from memory.store.lexical import LexicalIndex
from memory.store.lookups import NODE_META_COLUMNS, NODE_SEARCH_COLUMNS, NodeLookups
from memory.store.rows import (
    Row,
    card_to_node,
    channel_to_row,
    lexical_doc,
    node_to_row,
    row_to_channel,
    row_to_node,
)
from memory.store.states import LanceMeta, LanceStates
from memory.store.tables import Tables, sql_in, sql_str

__all__ = ["MemoryStore", "Span", "Window", "open_store", "scope_lexical", "scope_sql",
           "tombstone_keys"]

logger = logging.getLogger(__name__)

# Search reads a node's card (its search fields in one column); its vector comes as a matrix.
_CARD_COLUMNS = ["node_id", "card"]
# Meta key set while deleted rows may still be on disk (cleared by a completed purge).
PURGE_PENDING = "purge_pending"
# The embedder whose vectors the store holds (Embedder.name).
EMBEDDER = "embedder"
# The most rows one query may ask for: LanceDB rejects limits past a 32-bit range.
MAX_K = 2**31 - 1


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


def open_store(*, uri: str, lexical_dir: Path, dim: int,
               storage_options: dict[str, str] | None = None,
               read_only: bool = False, faults: FaultPoints | None = None) -> MemoryStore:
    """A store opened (and, unless ``read_only``, reconciled): what a process that owns the
    data directory starts from."""
    store = MemoryStore(uri=uri, lexical_dir=lexical_dir, dim=dim,
                        storage_options=storage_options, read_only=read_only, faults=faults)
    store.open()
    if not read_only:
        store.reconcile()
    return store


class MemoryStore(NodeLookups):
    """The persistent memory of one deployment: the node and search ports here, the state
    and meta ports as :attr:`states` and :attr:`meta`. ``uri`` may be a path or an
    object-store URI; the lexical index always lives on local disk at ``lexical_dir``.

    Constructing touches nothing: :meth:`open` connects (and adds columns of later
    versions), :meth:`reconcile` repairs what a crash left (the writing process only).
    ``faults`` may kill the process between a node write's two halves (crash tests)."""

    def __init__(
        self,
        *,
        uri: str,
        lexical_dir: Path,
        dim: int,
        storage_options: dict[str, str] | None = None,
        read_only: bool = False,
        faults: FaultPoints | None = None,
    ) -> None:
        self.read_only = read_only
        self.faults = faults or FaultPoints()
        self.tables = Tables(uri, dim=dim, storage_options=storage_options,
                             read_only=read_only)
        self.lexical = LexicalIndex(lexical_dir, read_only=read_only)
        self.states = LanceStates(self.tables)
        self.meta = LanceMeta(self.tables)
        self.dim = dim
        self._seq = 0
        self._channels: set[tuple[str, str, str]] | None = None

    # ---- lifecycle ----------------------------------------------------------------------
    def open(self) -> None:
        """Connect to the tables and open the lexical index."""
        self.tables.open()
        self.lexical.open()
        self._seq = self.tables.opened_seq

    def reconcile(self) -> None:
        """Repair what an interrupted process left: index documents it committed to LanceDB
        only, and the purge an edit or forget owed. Never for a read-only opening."""
        self.reconcile_lexical()
        if self.tables.get_meta(PURGE_PENDING):
            # An edit or forget died before its purge: old versions may hold its old text.
            logger.info("finishing an interrupted purge")
            self.purge()

    def inspection(self) -> StoreInspection:
        """The tables as checks outside the store may see them (tests, benchmarks)."""
        return StoreInspection(self.tables)

    @property
    def shared(self) -> bool:
        """Whether the tables live on object storage other processes write too."""
        return self.tables.shared

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

    def reconcile_lexical(self, *, full: bool = False) -> int:
        """Make the lexical index hold the nodes LanceDB holds (after a crash between the
        two writes, or an upgrade). Returns how many documents were fixed.

        The index records the highest node seq it committed; nodes are committed in seq
        order, so only the nodes after it can be missing, and only they are read. When the
        counts then still differ, or the record is ahead of the tables (restored from a
        backup), every id is compared both ways, as ``full`` asks (and as an index without
        the record, or tables other processes write, need)."""
        mark = self.lexical.committed_seq()
        if full or mark is None or self.tables.shared or mark > self._seq:
            return self._reconcile_all()
        ids = [r["node_id"] for r in self.tables.query_nodes(f"seq > {mark}",
                                                             columns=["node_id"])]
        if ids:
            self._index_ids(ids)
            logger.info("lexical index reconciled: %d documents after seq %d", len(ids), mark)
        if self.lexical.count() != self.count_nodes():
            return len(ids) + self._reconcile_all()
        return len(ids)

    def _reconcile_all(self) -> int:
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
        self.lexical.record_seq(self.tables.max_seq())
        return len(extra) + len(missing)

    def reindex(self) -> int:
        """Rebuild the lexical index from LanceDB; returns the number of documents."""
        self.lexical.clear()
        self.lexical.purge_deleted()
        ids = [r["node_id"] for r in self.tables.query_nodes("TRUE", columns=["node_id"])]
        self._index_ids(ids)
        return len(ids)

    def reindex_nodes(self, node_ids: Sequence[str]) -> None:
        """Index ``node_ids`` again from their rows, after an interrupted rewrite (their seq
        did not move: :meth:`reconcile_lexical` cannot tell). Ids not stored are skipped."""
        self._index_ids(list(dict.fromkeys(node_ids)))

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

    def require_purge(self) -> None:
        """Record that rows about to be deleted or rewritten must leave the disk: until a
        purge completes, every writing open purges first."""
        self.tables.set_meta(PURGE_PENDING, "1")

    def maintain(self) -> None:
        """Fill search cards of rows from older versions, compact small fragments, build
        the ANN index once it pays."""
        self.fill_cards()
        self.tables.compact()
        self.tables.ensure_vector_index()

    def compact_if_fragmented(self) -> bool:
        """Fold the fragments recent writes left (see :meth:`Tables.compact_if_fragmented`)."""
        return self.tables.compact_if_fragmented()

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
        self.faults.reach("rows_written")
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
        ids, where = ids_filter(node_ids, scope)
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
        ids, where = ids_filter(node_ids, scope)
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
        linked = [*include, *(x for n in nodes for x in (n.reply_to_node, n.supersedes) if x)]
        threads = [t for n in nodes for t in (n.thread_id, n.message_id) if t]
        states = [n.state_id for n in nodes if n.state_id]
        where = f"{neighbours_sql(ids, linked, threads, states)} AND {scope_sql(scope)}"
        return self._search_rows(where, limit=2000)

    def delete_nodes(self, node_ids: Sequence[str]) -> None:
        """Delete nodes from the table and the index; their bytes stay on disk (old versions,
        deletion files) until :meth:`purge`, which the next open runs if a crash intervenes."""
        if node_ids:
            self.require_purge()
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
        needle = SURROGATE.sub("\ufffd", INVISIBLE.sub("", phrase))
        needle = " ".join(needle.split()).lower()
        if not needle or k <= 0:
            return []
        where = f"{phrase_sql(needle)} AND {scope_sql(scope, window)}"
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
        where = columns_sql(platform=platform, space=space)
        return [row_to_channel(r) for r in self.tables.query_channels(
            None if where == "TRUE" else where)]

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
