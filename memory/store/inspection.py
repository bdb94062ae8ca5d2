"""What checks outside the store may look at, and the damage they may stage, in domain values.

Tests and benchmarks ask questions no port answers: every stored row, byte for byte (a probe
for forgotten text), which indexes a table has, which queries a search ran. They ask them
here, naming columns, nodes and files, never a filter; what the ports already answer (state
rows by scope, channel or id, a meta record) they read through the ports. The staging
methods leave a data directory as a crash or an older version would, so a test can show the
store repairs it; nothing in the running service calls them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memory.models import EvidenceNode
from memory.store.rows import Row, node_to_row
from memory.store.tables import Tables

# The LanceDB queries a search may run (the ``Tables`` methods that read nodes).
NODE_QUERIES = ("vector_search_with_vectors", "query_nodes_with_vectors", "query_nodes",
                "vector_search")


@dataclass(frozen=True)
class TableIndex:
    """One index of the nodes table: its name, kind (``BTree``, ``IvfHnswSq``, ...) and
    the columns it covers."""

    name: str
    kind: str
    columns: tuple[str, ...]


class StoreInspection:
    """A store's tables seen from outside it (see the module docstring)."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables

    # ---- reading --------------------------------------------------------------------------
    def node_rows(self, columns: Sequence[str] | None = None) -> list[Row]:
        """Every stored node row: only ``columns`` when given, else every column (text,
        rewrite, audit record, search card and vector), as a probe for lingering text needs."""
        return self._tables.query_nodes("TRUE", columns=None if columns is None
                                        else list(columns))

    def node_ids_lacking(self, column: str) -> list[str]:
        """The nodes whose ``column`` holds nothing (null): rows written before the column
        existed, not yet filled."""
        rows = self._tables.query_nodes("TRUE", columns=["node_id", column])
        return sorted(r["node_id"] for r in rows if r[column] is None)

    def node_indexes(self) -> list[TableIndex]:
        """The indexes the nodes table has (scalar and vector)."""
        return [TableIndex(name=str(ix.name), kind=str(ix.index_type),
                           columns=tuple(ix.columns))
                for ix in self._tables.nodes.list_indices()]

    @contextmanager
    def counting_queries(self) -> Iterator[list[str]]:
        """Record, in order, the name of every node query (:data:`NODE_QUERIES`) run while
        the block runs; each LanceDB query costs milliseconds before it reads a row."""
        calls: list[str] = []
        real = {name: getattr(self._tables, name) for name in NODE_QUERIES}

        def counted(name: str) -> Any:
            def run(*args: Any, **kwargs: Any) -> Any:
                calls.append(name)
                return real[name](*args, **kwargs)
            return run

        for name in NODE_QUERIES:
            setattr(self._tables, name, counted(name))
        try:
            yield calls
        finally:
            for name in NODE_QUERIES:
                delattr(self._tables, name)

    # ---- staging what a crash or an older version leaves -----------------------------------
    def put_nodes_unindexed(self, nodes: Sequence[EvidenceNode], vectors: np.ndarray) -> None:
        """Store ``nodes`` in the tables only: what a process that died after the table write
        and before the lexical index's leaves behind."""
        self._tables.upsert_nodes([node_to_row(n, None) for n in nodes],
                                  np.asarray(vectors, dtype=np.float32))

    def drop_node_columns(self, columns: Sequence[str]) -> None:
        """Remove ``columns`` from the nodes table: a data directory written before they
        existed (the next writing open adds them back, empty)."""
        self._tables.nodes.drop_columns(list(columns))


class InboxInspection:
    """An inbox file read on a connection of its own, as anything else on the machine
    could read it (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def rows(self) -> list[tuple[Any, ...]]:
        """Every column of every row of the inbox, done and pending alike."""
        return self._read("SELECT * FROM inbox")

    def tombstone_keys(self) -> list[str]:
        """The keys the inbox's tombstones record (hashes of message keys)."""
        return [str(key) for (key,) in self._read("SELECT key FROM tombstones")]

    def _read(self, statement: str) -> list[tuple[Any, ...]]:
        with closing(sqlite3.connect(str(self._path))) as db:
            rows: list[tuple[Any, ...]] = db.execute(statement).fetchall()
        return rows
