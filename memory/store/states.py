"""The LanceDB implementation of the state and meta ports: rows of the ``states``, ``meta``
and ``channels`` tables, read and written through domain values."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memory.models import Scope
from memory.store.filters import columns_sql, states_sql
from memory.store.rows import Row, to_epoch
from memory.store.tables import Tables, sql_in, sql_str


class LanceStates:
    """The ``states`` table: one row per conversational state (see ``memory.registry``)."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables

    def find(self, scope: Scope, *, state_ids: Sequence[str] | None = None,
             revised_since: datetime | None = None) -> list[Row]:
        """The state rows in ``scope`` (a thread scope reads its channels' states); only
        ``state_ids`` when given, only states revised at least once and updated since
        ``revised_since`` when given."""
        parts = [states_sql(scope)]
        if state_ids is not None:
            parts.insert(0, sql_in("state_id", state_ids))
        if revised_since is not None:
            parts.append(f"revision_count >= 1 AND updated_ts >= {to_epoch(revised_since)}")
        return self._tables.query_states(" AND ".join(p for p in parts if p != "TRUE")
                                         or "TRUE")

    def in_channel(self, *, platform: str, space: str, channel: str) -> list[Row]:
        """One channel's state rows."""
        return self._tables.query_states(
            f"platform = {sql_str(platform)} AND space = {sql_str(space)} "
            f"AND channel = {sql_str(channel)}")

    def listed(self, *, space: str | None = None, channel: str | None = None) -> list[Row]:
        """Every state row (of ``space`` and ``channel`` when given): the operator's view."""
        return self._tables.query_states(columns_sql(space=space, channel=channel))

    def get(self, state_id: str) -> Row | None:
        rows = self._tables.query_states(f"state_id = {sql_str(state_id)}", limit=1)
        return rows[0] if rows else None

    def put(self, rows: Sequence[Row]) -> None:
        self._tables.upsert_states(rows)

    def delete(self, state_ids: Sequence[str]) -> None:
        self._tables.delete_states(state_ids)

    def count(self) -> int:
        return int(self._tables.states.count_rows())


class LanceMeta:
    """The ``meta`` table (small named records) and a space's records there and in
    ``channels``."""

    def __init__(self, tables: Tables) -> None:
        self._tables = tables

    def get(self, key: str) -> str | None:
        return self._tables.get_meta(key)

    def set(self, key: str, value: str) -> None:
        self._tables.set_meta(key, value)

    def drop_space(self, *, platform: str, space: str, keys: Sequence[str]) -> None:
        """Remove a space's channel records and the meta records ``keys``, each table
        rewritten in one overwrite: unlike a delete, whose filter (naming what it deletes)
        is kept in the table's log, an overwrite records no filter, and the purge that
        follows removes the versions before it."""
        ours = f"platform = {sql_str(platform)} AND space = {sql_str(space)}"
        _keep_only(self._tables.channels, f"NOT ({ours})")
        _keep_only(self._tables.meta,
                   " AND ".join(f"key != {sql_str(k)}" for k in keys) or "TRUE")


def _keep_only(table: Any, keep: str) -> None:
    """Rewrite a small LanceDB table with only the rows matching ``keep``."""
    rows = table.search().where(keep).limit(None).to_arrow()
    table.add(rows, mode="overwrite")
