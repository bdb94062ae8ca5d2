"""LanceDB tables, the source of truth: evidence nodes (with vectors), states, channels.

Rows are plain dicts at this layer; conversion to the domain models lives in ``rows.py``.
Writes are upserts keyed by deterministic ids, so replaying a commit never duplicates.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import Any

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.background_loop import LOOP

from memory.errors import StoreError

logger = logging.getLogger(__name__)

Row = dict[str, Any]
_SURROGATE = re.compile("[\ud800-\udfff]")


def node_schema(dim: int) -> pa.Schema:
    s = pa.string()
    return pa.schema(
        [
            ("node_id", s), ("seq", pa.int64()), ("platform", s), ("space", s), ("channel", s),
            ("channel_name", s), ("message_id", s), ("thread_id", s), ("reply_to", s),
            ("reply_to_node", s), ("speaker_id", s), ("speaker", s), ("ts", pa.float64()),
            ("text", s), ("rewrite", s), ("permalink", s), ("topic", s), ("state_id", s),
            ("verdict", s), ("value", s), ("supersedes", s), ("edited", pa.bool_()),
            ("context_ids", pa.list_(s)), ("proposal_json", s), ("verification_json", s),
            ("vector", pa.list_(pa.float32(), dim)), ("context", s), ("card", s),
        ]
    )


def state_schema(dim: int) -> pa.Schema:
    s = pa.string()
    return pa.schema(
        [
            ("state_id", s), ("platform", s), ("space", s), ("channel", s), ("topic", s),
            ("description", s), ("value", s), ("value_family", s), ("active_node_id", s),
            ("revision_count", pa.int64()), ("created_ts", pa.float64()),
            ("updated_ts", pa.float64()), ("vector", pa.list_(pa.float32(), dim)),
        ]
    )


CHANNEL_SCHEMA = pa.schema(
    [
        ("key", pa.string()), ("platform", pa.string()), ("space", pa.string()),
        ("id", pa.string()), ("name", pa.string()), ("is_private", pa.bool_()),
        ("members", pa.list_(pa.string())),
    ]
)


META_SCHEMA = pa.schema([("key", pa.string()), ("value", pa.string())])
# Deleted and forgotten messages, by a hash of their key (never their text).
TOMBSTONE_SCHEMA = pa.schema([("key", pa.string()), ("buried", pa.float64())])

# Columns that point lookups filter nodes by (ids, replies, threads, chains): BTREE indexes
# keep those queries off full scans once the table is large.
SCALAR_INDEXES = ("node_id", "message_id", "thread_id", "state_id", "reply_to_node",
                  "supersedes")
# Columns every scope filters by, with few distinct values: bitmap indexes turn the scope
# prefilter of a vector query from a scan into a lookup (193 → 41 ms at 1M rows).
SCOPE_INDEXES = ("platform", "space", "channel")


def sql_str(value: str) -> str:
    """Quote a string literal for a LanceDB filter (user values never form SQL otherwise).
    Lone surrogates, which cannot be encoded, become U+FFFD (as imports store them)."""
    return "'" + _SURROGATE.sub("\ufffd", value).replace("'", "''") + "'"


def sql_in(column: str, values: Iterable[str]) -> str:
    vals = list(dict.fromkeys(values))
    if not vals:
        return "FALSE"
    return f"{column} IN ({', '.join(sql_str(v) for v in vals)})"


def _collect(query: Any) -> list[Row]:
    """:func:`_collect_arrow` as row dicts."""
    rows: list[Row] = _collect_arrow(query).to_pylist()
    return rows


def _collect_arrow(query: Any) -> pa.Table:
    """Run a query built on a table's async handle in one round trip to LanceDB's event
    loop. The sync builder makes about six (schema checks for blob columns, execution, one
    per batch): 3.6 → 2.0 ms for a point lookup, 11 → 8 ms for a vector query at 10k rows,
    and a search makes several of each. The async handle is the one the sync table wraps,
    so it sees every write made through it."""

    async def run() -> pa.Table:
        return await query.to_arrow()

    table: pa.Table = LOOP.run(run())  # type: ignore[no-untyped-call]
    return table


def _has_deleted_rows(tbl: Any) -> bool:
    """Whether a fragment may still hold deleted rows. Lance marks deletions in a side file
    and compaction rewrites a fragment only past a share of deleted rows, so the bytes of a
    few deleted rows stay in the data file. Statistics give exact row counts only for a
    single fragment; with several, assume deletions."""
    frags = tbl.stats()["fragment_stats"]
    if frags["num_fragments"] == 0:
        return False
    return bool(frags["num_fragments"] > 1 or frags["lengths"]["max"] != tbl.count_rows())


def _rewrite(tbl: Any, key: str) -> None:
    """Rewrite every live row in one commit: the old fragments, deleted rows and all, are
    left wholly deleted, so cleanup removes their files."""
    rows = tbl.search().limit(None).to_arrow()
    if rows.num_rows:
        tbl.merge_insert(key).when_matched_update_all().when_not_matched_insert_all().execute(
            rows)


class Tables:
    """The tables under ``uri`` (a local path or an object-store URI), opened (or created)
    by :meth:`open`; constructing touches nothing."""

    def __init__(self, uri: str, *, dim: int, storage_options: dict[str, str] | None = None,
                 read_only: bool = False):
        self.uri = uri
        self.dim = dim
        self.read_only = read_only
        self._storage_options = storage_options
        self._lock = threading.RLock()
        # Shared object storage has other writers: see their commits within seconds, and never
        # delete files another process may still be writing.
        self.shared = "://" in uri and not uri.startswith("file://")
        # Writes to the nodes table since the last compaction: each leaves a fragment.
        self.node_writes = 0
        self.opened_seq = 0
        self._compacted_seq = 0

    def open(self) -> None:
        """Connect, create missing tables and add the columns later versions introduced
        (a read-only opening refuses a table that lacks them)."""
        # A reader beside a writer reads the latest version at every query: the writer's
        # purge deletes the files of older versions.
        interval = (timedelta(0) if self.read_only else timedelta(seconds=5) if self.shared
                    else None)
        try:
            self.db = lancedb.connect(
                self.uri, storage_options=self._storage_options,
                read_consistency_interval=interval,
            )
        except Exception as exc:  # lancedb raises several unrelated types for a bad URI
            raise StoreError(f"cannot open the data store at {self.uri!r}: {exc}") from exc
        existing = set(self.db.list_tables().tables)
        self.nodes = self._table("nodes", node_schema(self.dim), existing)
        self.states = self._table("states", state_schema(self.dim), existing)
        self.channels = self._table("channels", CHANNEL_SCHEMA, existing)
        self.meta = self._table("meta", META_SCHEMA, existing)
        self.tombstones = self._table("tombstones", TOMBSTONE_SCHEMA, existing)
        self._check_dim()
        # Read once: every `.schema` access is a round trip through LanceDB's event loop.
        self._node_schema: pa.Schema = self.nodes.schema
        self._state_schema: pa.Schema = self.states.schema
        # The highest seq when the tables were opened (one scan of the column, shared with
        # MemoryStore's sequence); rows up to _compacted_seq were there at the last full
        # compaction (or at open).
        self.opened_seq = self.max_seq()
        self._compacted_seq = self.opened_seq

    def _table(self, name: str, schema: pa.Schema, existing: set[str]) -> Any:
        if name not in existing:
            if self.read_only:
                # Nothing written yet: read an empty table that lives in memory only.
                return lancedb.connect("memory://").create_table(name, schema=schema)
            return self.db.create_table(name, schema=schema)
        tbl = self.db.open_table(name)
        # Columns added by later versions arrive empty (null) in older data directories;
        # readers treat a null string as "".
        have = set(tbl.schema.names)
        missing = [f for f in schema if f.name not in have]
        if missing and self.read_only:
            raise StoreError(
                f"table {name} was written by an older egmem: run a writing command once "
                "(for example `egmem reindex`) to upgrade it, then read it")
        if missing:
            logger.info("adding columns %s to table %s", [f.name for f in missing], name)
            tbl.add_columns(missing)
        return tbl

    def _check_dim(self) -> None:
        field = self.nodes.schema.field("vector")
        have = field.type.list_size
        if have != self.dim:
            raise StoreError(
                f"this data directory holds {have}-dim vectors but the embedder gives {self.dim}; "
                "use the embedder it was built with, or start a new --data directory"
            )

    # ---- nodes --------------------------------------------------------------------------
    def upsert_nodes(self, rows: Sequence[Row], vectors: np.ndarray | None = None, *,
                     append: bool = False) -> None:
        """Upsert node rows; ``vectors`` (one row per node) replaces the rows' ``vector``
        values, which then may be left out (building the column from the array directly is
        far cheaper than from Python floats). ``append`` promises that no row exists yet
        (checked by the caller under the writer's lock): a plain append, about 4× cheaper
        than the merge, whose join reads every stored id."""
        if not rows:
            return
        if vectors is None:
            data = pa.Table.from_pylist(list(rows), schema=self._node_schema)
        else:
            schema = self._node_schema
            col = schema.get_field_index("vector")
            meta = pa.Table.from_pylist(list(rows), schema=schema.remove(col))
            flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
            data = meta.add_column(col, schema.field(col),
                                   pa.FixedSizeListArray.from_arrays(flat, self.dim))
        with self._lock:
            if append:
                self.nodes.add(data)
            else:
                (
                    self.nodes.merge_insert("node_id")
                    .when_matched_update_all()
                    .when_not_matched_insert_all()
                    .execute(data)
                )
            self.node_writes += 1

    def delete_nodes(self, node_ids: Sequence[str]) -> None:
        if node_ids:
            with self._lock:
                self.nodes.delete(sql_in("node_id", node_ids))
                self.node_writes += 1

    def query_nodes(
        self, where: str, *, columns: Sequence[str] | None = None, limit: int | None = None
    ) -> list[Row]:
        q = self.nodes._table.query().where(where)
        if columns is not None:
            q = q.select(list(columns))
        if limit is not None:
            q = q.limit(limit)
        return _collect(q)

    def query_nodes_with_vectors(
        self, where: str, *, columns: Sequence[str], limit: int | None = None
    ) -> tuple[list[Row], np.ndarray]:
        """Rows of ``columns`` matching ``where`` and their vectors as one float32 matrix
        (row i's vector is row i). The vectors skip Python lists: converting 384 floats a
        row to Python and back costs ~20 µs a row, 2 ms a search."""
        q = self.nodes._table.query().where(where).select([*columns, "vector"])
        if limit is not None:
            q = q.limit(limit)
        return self._with_matrix(_collect_arrow(q))

    def vector_search_with_vectors(
        self, vector: np.ndarray, where: str, k: int, *, columns: Sequence[str]
    ) -> tuple[list[Row], np.ndarray]:
        """:meth:`vector_search` returning ``columns`` and the hits' vectors (as
        :meth:`query_nodes_with_vectors`): reading them with the hits costs ~2 ms at 100k
        rows, a second query for them ~7."""
        return self._with_matrix(_collect_arrow(
            self._nearest(vector, where, k, [*columns, "vector", "_distance"])))

    def _with_matrix(self, table: pa.Table) -> tuple[list[Row], np.ndarray]:
        column = table.column("vector").combine_chunks()
        if column.null_count:  # never written so, but a matrix needs every row
            raise StoreError("a stored evidence node has no vector; run `egmem reindex`")
        flat = column.flatten().to_numpy(zero_copy_only=False)
        matrix = np.asarray(flat, dtype=np.float32).reshape(len(table), self.dim)
        rows: list[Row] = table.drop_columns(["vector"]).to_pylist()
        return rows, matrix

    def max_seq(self) -> int:
        if self.nodes.count_rows() == 0:
            return 0
        col = self.nodes.search().select(["seq"]).limit(None).to_arrow().column("seq")
        return int(pa.compute.max(col).as_py() or 0)

    def vector_search(
        self, vector: np.ndarray, where: str, k: int, *, columns: Sequence[str] = ("node_id",)
    ) -> list[Row]:
        return _collect(self._nearest(vector, where, k, [*columns, "_distance"]))

    def _nearest(self, vector: np.ndarray, where: str, k: int, select: list[str]) -> Any:
        return (
            self.nodes._table.query()
            .nearest_to(vector.astype(np.float32))
            .column("vector")
            .distance_type("cosine")
            .where(where)  # a prefilter, as async vector queries filter by default
            .select(select)
            .limit(k)
        )

    # ---- states -------------------------------------------------------------------------
    def upsert_states(self, rows: Sequence[Row]) -> None:
        if not rows:
            return
        with self._lock:
            (
                self.states.merge_insert("state_id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(pa.Table.from_pylist(list(rows), schema=self._state_schema))
            )

    def delete_states(self, state_ids: Sequence[str]) -> None:
        if state_ids:
            with self._lock:
                self.states.delete(sql_in("state_id", state_ids))

    def query_states(self, where: str, *, limit: int | None = None) -> list[Row]:
        q = self.states.search().where(where).limit(limit)
        result: list[Row] = q.to_arrow().to_pylist()
        return result

    # ---- channels -----------------------------------------------------------------------
    def upsert_channels(self, rows: Sequence[Row]) -> None:
        if not rows:
            return
        with self._lock:
            (
                self.channels.merge_insert("key")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(pa.Table.from_pylist(list(rows), schema=CHANNEL_SCHEMA))
            )

    def query_channels(self, where: str | None = None) -> list[Row]:
        q = self.channels.search()
        if where:
            q = q.where(where)
        result: list[Row] = q.limit(None).to_arrow().to_pylist()
        return result

    # ---- meta ---------------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.meta.search().where(f"key = {sql_str(key)}").limit(1).to_arrow().to_pylist()
        return str(rows[0]["value"]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            (
                self.meta.merge_insert("key")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(pa.Table.from_pylist([{"key": key, "value": value}], schema=META_SCHEMA))
            )

    # ---- tombstones ---------------------------------------------------------------------
    def add_tombstones(self, keys: Sequence[str], at: float) -> None:
        if not keys:
            return
        rows = [{"key": k, "buried": at} for k in dict.fromkeys(keys)]
        with self._lock:
            (
                self.tombstones.merge_insert("key")
                .when_not_matched_insert_all()
                .execute(pa.Table.from_pylist(rows, schema=TOMBSTONE_SCHEMA))
            )

    def find_tombstones(self, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        q = self.tombstones._table.query().where(sql_in("key", keys)).select(["key"])
        return {r["key"] for r in _collect(q)}

    # ---- maintenance --------------------------------------------------------------------
    def compact(self, *, purge_history: bool = False) -> None:
        """Merge small fragments; with ``purge_history`` also delete every old version, so
        rows deleted (or overwritten) earlier cannot be recovered from the data directory."""
        with self._lock:
            self.node_writes = 0
            self._compacted_seq = self.max_seq()
            for tbl, key in ((self.nodes, "node_id"), (self.states, "state_id"),
                             (self.channels, "key"), (self.meta, "key"),
                             (self.tombstones, "key")):
                tbl.optimize()
                if purge_history:
                    if _has_deleted_rows(tbl):
                        _rewrite(tbl, key)
                    tbl.optimize(cleanup_older_than=timedelta(0),
                                 delete_unverified=not self.shared)

    def compact_if_fragmented(self, *, every: int = 16, tail_rows: int = 50_000,
                              max_fragments: int = 64) -> bool:
        """Called by the writer's drain after each batch: once ``every`` node writes have
        landed, fold the fragments they left back together (and build the scalar indexes
        once they pay). Each write leaves a fragment and a filtered scan pays ~0.5 ms of
        CPU per fragment, so a drain that never compacts slows down quadratically.

        Full compaction rewrites every fragment under a million rows (~1 s of CPU per 100k
        rows), too dear to repeat at scale; so while the rows appended since the last full
        compaction are at most ``tail_rows``, only they are rewritten, by merging them onto
        themselves: one atomic commit after which their old fragments hold no live row and
        are dropped. A full compaction runs when the tail is larger or the table still has
        more than ``max_fragments`` fragments (rewrites of old rows by edits). Shared
        object storage has other writers: there only ``Egmem.maintain`` compacts."""
        if self.node_writes < every or self.shared:
            return False
        with self._lock:
            self.node_writes = 0
            tail = self.nodes.search().where(f"seq > {self._compacted_seq}").limit(
                tail_rows + 1).to_arrow()
            if 0 < tail.num_rows <= tail_rows:
                (
                    self.nodes.merge_insert("node_id")
                    .when_matched_update_all()
                    .when_not_matched_insert_all()
                    .execute(tail)
                )
            frags = self.nodes.stats()["fragment_stats"]["num_fragments"]
            if tail.num_rows > tail_rows or frags > max_fragments:
                self.compact()
        self.ensure_scalar_indexes()
        return True

    def ensure_scalar_indexes(self, *, min_rows: int = 10_000) -> int:
        """Build the missing :data:`SCALAR_INDEXES`, :data:`SCOPE_INDEXES` and a label-list
        index on ``context_ids`` once the table holds ``min_rows``; compaction folds later
        rows into them. Returns how many were built."""
        with self._lock:
            if self.nodes.count_rows() < min_rows:
                return 0
            from lancedb.index import Bitmap, BTree, LabelList

            have = {c for idx in self.nodes.list_indices() for c in idx.columns}
            built = 0
            for col in SCALAR_INDEXES:
                if col not in have:
                    self.nodes.create_index(col, config=BTree())
                    built += 1
            for col in SCOPE_INDEXES:
                if col not in have:
                    self.nodes.create_index(col, config=Bitmap())
                    built += 1
            if "context_ids" not in have:
                self.nodes.create_index("context_ids", config=LabelList())
                built += 1
            return built

    def ensure_vector_index(self, *, min_rows: int = 50_000) -> bool:
        """Build an ANN index once the table is big enough that brute force is too slow
        (and the scalar indexes, see :meth:`ensure_scalar_indexes`)."""
        self.ensure_scalar_indexes()
        with self._lock:
            n = self.nodes.count_rows()
            if n < min_rows:
                return False
            if any(idx.name.startswith("vector") for idx in self.nodes.list_indices()):
                return False
            from lancedb.index import IvfHnswSq

            self.nodes.create_index("vector", config=IvfHnswSq(distance_type="cosine"))
            return True
