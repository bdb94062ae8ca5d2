"""The filters the LanceDB implementation builds from domain values (scopes, windows, ids).

Every SQL string of the project is made here or in ``tables.py``: callers of the store pass
scopes, windows and ids, and user values reach a filter only quoted by :func:`sql_str`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.facets import facet_state_id, root_ids
from memory.models import Proposal, Scope
from memory.store.lexical import LexicalFilter
from memory.store.rows import Row, to_epoch
from memory.store.tables import sql_in, sql_str

# Zero-width and bidi controls (as memory.text.clean drops them), in Python and in the
# Rust regex syntax LanceDB's SQL functions use.
INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]")
_INVISIBLE_SQL = r"[\x{200B}-\x{200F}\x{202A}-\x{202E}\x{2060}\x{2066}-\x{2069}\x{FEFF}]"
SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Window:
    """Optional narrowing of a scoped query: participants and a time range."""

    speakers: tuple[str, ...] | None = None
    ts_from: datetime | None = None
    ts_to: datetime | None = None
    thread_id: str | None = None
    node_ids: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Span:
    """A stretch of one channel's history, in epoch seconds (both ends included)."""

    platform: str
    space: str
    channel: str
    ts_from: float
    ts_to: float


def _place_parts(scope: Scope) -> list[str]:
    """The conditions naming ``scope``'s platform, space and channels."""
    parts: list[str] = []
    if scope.platform is not None:
        parts.append(f"platform = {sql_str(scope.platform)}")
    if scope.space is not None:
        parts.append(f"space = {sql_str(scope.space)}")
    if scope.channels is not None:
        parts.append(sql_in("channel", scope.channels))
    return parts


def scope_sql(scope: Scope, window: Window | None = None) -> str:
    parts = _place_parts(scope)
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


def states_sql(scope: Scope) -> str:
    """``scope`` over the states table (states have no thread: a thread scope reads the
    states of its channels)."""
    parts = _place_parts(scope)
    return " AND ".join(parts) if parts else "TRUE"


def columns_sql(**cols: str | None) -> str:
    """Equality on each given (non-empty) column."""
    parts = [f"{k} = {sql_str(v)}" for k, v in cols.items() if v]
    return " AND ".join(parts) if parts else "TRUE"


def by_id(node_ids: Iterable[str], scope: Scope | None) -> tuple[list[str], str]:
    """``node_ids`` without repeats and the filter selecting them (inside ``scope``)."""
    ids = list(dict.fromkeys(node_ids))
    where = sql_in("node_id", ids) if ids else "FALSE"
    return ids, f"{where} AND {scope_sql(scope)}" if scope is not None else where


def _quoted(values: Iterable[str]) -> str:
    return ", ".join("'" + v.replace("'", "''") + "'" for v in values)


def members_sql(state_ids: Sequence[str]) -> str:
    """A node-table filter for every row that may be a member of ``state_ids``: its own
    state, the root of a facet state, or a node revising one as a facet."""
    ids = list(dict.fromkeys(state_ids))
    if not ids:
        return "FALSE"
    parts = [f"state_id IN ({_quoted(ids)})",
             f"array_has_any(context_ids, make_array({_quoted(ids)}))"]
    roots = root_ids(ids)
    if roots:
        parts.append(f"node_id IN ({_quoted(roots)})")
    return "(" + " OR ".join(parts) + ")"


def borrowing_sql(ids: Sequence[str]) -> str:
    """Rows whose passage borrowed from (``context_ids``) or replies to one of ``ids``."""
    return (f"array_has_any(context_ids, make_array({_quoted(ids)})) OR "
            f"{sql_in('reply_to_node', ids)}")


def dependants_sql(ids: Sequence[str]) -> str:
    """Rows that borrowed from, reply to or supersede one of ``ids``, and ``ids`` itself."""
    return (f"{borrowing_sql(ids)} OR {sql_in('supersedes', ids)} OR "
            f"{sql_in('node_id', ids)}")


def spans_sql(spans: Sequence[Span]) -> str:
    return " OR ".join(
        f"(platform = {sql_str(s.platform)} AND space = {sql_str(s.space)} AND "
        f"channel = {sql_str(s.channel)} AND ts >= {s.ts_from} AND ts <= {s.ts_to})"
        for s in spans)


def _normalized_sql(column: str) -> str:
    """``column`` lower-cased, without invisible controls, whitespace runs as one space."""
    bare = f"regexp_replace(lower({column}), '{_INVISIBLE_SQL}', '', 'g')"
    return f"regexp_replace({bare}, '\\s+', ' ', 'g')"


def phrase_sql(needle: str) -> str:
    """Rows whose text or rewrite contains ``needle`` (normalized, lower-case)."""
    like = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    pattern = sql_str(f"%{like}%")
    return (f"({_normalized_sql('text')} LIKE {pattern} ESCAPE '\\' OR "
            f"{_normalized_sql('rewrite')} LIKE {pattern} ESCAPE '\\')")


def neighbours_sql(ids: Sequence[str], linked: Sequence[str], threads: Sequence[str],
                   states: Sequence[str]) -> str:
    ors = [sql_in("reply_to_node", ids), sql_in("node_id", linked), sql_in("supersedes", ids)]
    if threads:
        ors.append(sql_in("thread_id", threads))
    if states:
        ors.append(sql_in("state_id", states))
    return f"({' OR '.join(ors)})"


def row_states(row: Row) -> list[str]:
    """The states a stored node row belongs to (its own and the facets it establishes)."""
    out = [str(row["state_id"])] if row.get("state_id") else []
    raw = row.get("proposal_json")
    if isinstance(raw, str) and raw:
        facets = Proposal.model_validate_json(raw).facets
        out += [facet_state_id(str(row["node_id"]), k) for k in range(1, len(facets) + 1)]
    return out


def _encodable(values: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if values is None else tuple(SURROGATE.sub("\ufffd", v) for v in values)


def scope_lexical(scope: Scope, window: Window | None = None) -> LexicalFilter:
    """The scope as index filter terms (lone surrogates, which Tantivy cannot take, become
    U+FFFD: they match nothing stored, as in the SQL filter)."""
    thread = scope.thread_id or (window.thread_id if window else None)
    return LexicalFilter(
        platform=scope.platform and SURROGATE.sub("\ufffd", scope.platform),
        space=scope.space and SURROGATE.sub("\ufffd", scope.space),
        channels=_encodable(scope.channels),
        thread=thread and SURROGATE.sub("\ufffd", thread),
        speakers=_encodable(window.speakers) if window else None,
        ts_from=int(to_epoch(window.ts_from)) if window and window.ts_from else None,
        ts_to=int(to_epoch(window.ts_to)) + 1 if window and window.ts_to else None,
        node_ids=window.node_ids if window else None,
    )
