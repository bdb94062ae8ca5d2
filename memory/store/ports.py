"""The store's ports: what the rest of the memory asks of storage, in domain values.

Every method takes scopes, windows, spans, ids or message keys, never a query string; the
LanceDB + Tantivy implementation (:class:`~memory.store.store.MemoryStore`) is one way to
satisfy them, and ``tests/test_store_contract.py`` is what any other must pass.
:class:`Store` is the whole: what the writer, the registry, the repair, the pipeline, the
reader and the service are given (each typed with the narrowest port it uses).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

import numpy as np

from memory.models import Channel, EvidenceNode, MessageKey, Scope
from memory.store.filters import Span, Window
from memory.store.rows import Row

if TYPE_CHECKING:
    from memory.store.lookups import NodeStats


class NodeStore(Protocol):
    """Evidence nodes: the source of truth, keyed by node id, ordered by commit seq."""

    dim: int

    def next_seq(self) -> int: ...

    def max_seq(self) -> int: ...

    def put_nodes(self, nodes: Sequence[EvidenceNode], vectors: np.ndarray, *,
                  fresh: bool = False) -> None: ...

    def rewrite_nodes(self, nodes: Sequence[EvidenceNode]) -> None: ...

    def delete_nodes(self, node_ids: Sequence[str]) -> None: ...

    def existing_ids(self, node_ids: Sequence[str]) -> set[str]: ...

    def node_vectors(self, node_ids: Sequence[str]) -> dict[str, np.ndarray]: ...

    def get_nodes(self, node_ids: Iterable[str],
                  scope: Scope | None = None) -> list[EvidenceNode]: ...

    def find_nodes(self, scope: Scope, window: Window | None = None, *,
                   limit: int | None = None) -> list[EvidenceNode]: ...

    def find_message(self, *, channel: str, message_id: str, platform: str = "",
                     space: str = "") -> EvidenceNode | None: ...

    def state_nodes(self, state_ids: Iterable[str]) -> list[EvidenceNode]: ...

    def state_members(self, state_ids: Sequence[str], scope: Scope) -> list[EvidenceNode]: ...

    def answers_to(self, node_ids: Sequence[str], scope: Scope) -> list[EvidenceNode]: ...

    def dependants(self, node_ids: Sequence[str]) -> list[str]: ...

    def nodes_in_spans(self, spans: Sequence[Span]) -> list[EvidenceNode]: ...

    def turn_marks(self, scope: Scope, window: Window | None = None
                   ) -> list[tuple[str, float, int]]: ...

    def states_touched_after(self, seq: int) -> list[str]: ...

    def message_keys(self, scope: Scope, window: Window | None = None, *,
                     speaker_id: str | None = None) -> list[tuple[str, MessageKey]]: ...

    def message_node_ids(self, message_id: str, scope: Scope) -> list[str]: ...

    def holds_evidence(self, scope: Scope) -> bool: ...

    def channel_named(self, name: str, scope: Scope) -> str | None: ...

    def count_nodes(self) -> int: ...

    def node_stats(self) -> NodeStats: ...

    def distinct_channels(self, scope: Scope) -> list[tuple[str, str, str]]:
        """(platform, space, channel) of the channels in ``scope`` holding evidence, sorted."""
        ...

    def known_channels(self, *, platform: str, space: str) -> set[str]:
        """Channels of a space that hold evidence (may be cached for the process)."""
        ...

    def channel_label(self, *, space: str, channel: str, platform: str | None = None
                      ) -> tuple[str, str] | None:
        """(platform, channel name) as a message of the channel records them; None when the
        channel holds no message."""
        ...

    def bury(self, keys: Iterable[MessageKey]) -> None: ...

    def buried(self, keys: Iterable[MessageKey]) -> set[MessageKey]: ...


class SearchStore(Protocol):
    """Ranked and structural retrieval inside a scope (scope is part of every query)."""

    def vector_search(self, vector: np.ndarray, scope: Scope, *, k: int,
                      window: Window | None = None) -> list[tuple[str, float]]: ...

    def vector_search_nodes(
        self, vector: np.ndarray, scope: Scope, *, k: int, window: Window | None = None
    ) -> tuple[list[tuple[str, float]], list[EvidenceNode], dict[str, np.ndarray]]: ...

    def lexical_search(self, query: str, scope: Scope, *, k: int,
                       window: Window | None = None) -> list[tuple[str, float]]: ...

    def phrase_search(self, phrase: str, scope: Scope, *, k: int,
                      window: Window | None = None) -> list[EvidenceNode]: ...

    def speaker_words(self, words: Iterable[str], scope: Scope) -> set[str]: ...

    def search_nodes(self, node_ids: Iterable[str], scope: Scope
                     ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]: ...

    def neighbours(self, nodes: Sequence[EvidenceNode], scope: Scope, *,
                   include: Sequence[str] = ()
                   ) -> tuple[list[EvidenceNode], dict[str, np.ndarray]]: ...


class StateStore(Protocol):
    """State rows (the registry's persisted form; rebuildable from the nodes)."""

    def find(self, scope: Scope, *, state_ids: Sequence[str] | None = None,
             revised_since: datetime | None = None) -> list[Row]: ...

    def in_channel(self, *, platform: str, space: str, channel: str) -> list[Row]: ...

    def listed(self, *, space: str | None = None, channel: str | None = None) -> list[Row]: ...

    def get(self, state_id: str) -> Row | None: ...

    def put(self, rows: Sequence[Row]) -> None: ...

    def delete(self, state_ids: Sequence[str]) -> None: ...

    def count(self) -> int: ...


class MetaStore(Protocol):
    """Small named records (markers, access directories) and a space's records."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...

    def drop_space(self, *, platform: str, space: str, keys: Sequence[str]) -> None: ...


class ChannelStore(Protocol):
    """What the platforms said of their channels (names, privacy, members)."""

    def put_channels(self, channels: Sequence[Channel]) -> None: ...

    def channels(self, *, platform: str | None = None,
                 space: str | None = None) -> list[Channel]: ...


class Upkeep(Protocol):
    """The store's own housekeeping: repairs of the derived index, compaction, purges."""

    @property
    def read_only(self) -> bool: ...

    @property
    def shared(self) -> bool:
        """Whether the tables live on object storage other processes write too."""
        ...

    def reconcile_lexical(self, *, full: bool = False) -> int: ...

    def reindex(self) -> int: ...

    def purge(self) -> None:
        """Remove deleted rows' bytes from disk (after a forget)."""
        ...

    def require_purge(self) -> None:
        """Record that rows about to be deleted or rewritten must leave the disk (every
        writing open purges first until a purge completes)."""
        ...

    def reindex_nodes(self, node_ids: Sequence[str]) -> None:
        """Index ``node_ids`` again from their rows (after an interrupted rewrite)."""
        ...

    def maintain(self) -> None: ...

    def compact_if_fragmented(self) -> bool: ...

    def close(self) -> None: ...


class Store(NodeStore, SearchStore, ChannelStore, Upkeep, Protocol):
    """All of the store: the node, search and channel ports, with the state and meta ports
    as :attr:`states` and :attr:`meta`."""

    @property
    def states(self) -> StateStore: ...

    @property
    def meta(self) -> MetaStore: ...
