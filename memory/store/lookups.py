"""Node lookups by domain value (a scope, a window, ids, a message): the queries callers
outside the store used to write as filters themselves."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory.facets import project
from memory.models import EvidenceNode, MessageKey, Scope
from memory.store.filters import (
    Span,
    Window,
    borrowing_sql,
    columns_sql,
    dependants_sql,
    members_sql,
    row_states,
    scope_sql,
    spans_sql,
)
from memory.store.rows import SEARCH_FIELDS, row_to_node
from memory.store.tables import Tables, sql_str

NODE_SEARCH_COLUMNS = list(SEARCH_FIELDS)
NODE_META_COLUMNS = [*NODE_SEARCH_COLUMNS, "proposal_json", "verification_json"]
# What a message's removal needs to know of its node.
_KEY_COLUMNS = ["node_id", "platform", "space", "channel", "message_id"]


@dataclass(frozen=True)
class NodeStats:
    """What ``egmem stats`` shows of the nodes."""

    nodes: int
    chains_with_revisions: int
    edited: int
    verdicts: dict[str, int]


class NodeLookups:
    """The lookups of :class:`~memory.store.store.MemoryStore` over its ``tables``."""

    tables: Tables

    def message_keys(self, scope: Scope, window: Window | None = None, *,
                     speaker_id: str | None = None) -> list[tuple[str, MessageKey]]:
        """(node id, message key) of the nodes in ``scope`` and ``window`` (only those
        ``speaker_id`` said, when given)."""
        where = scope_sql(scope, window)
        if speaker_id is not None:
            where = f"speaker_id = {sql_str(speaker_id)} AND {where}"
        return [(r["node_id"], MessageKey(platform=r["platform"], space=r["space"],
                                          channel=r["channel"], message_id=r["message_id"]))
                for r in self.tables.query_nodes(where, columns=_KEY_COLUMNS)]

    def message_node_ids(self, message_id: str, scope: Scope) -> list[str]:
        """The nodes in ``scope`` of the message ``message_id`` (of any channel)."""
        rows = self.tables.query_nodes(
            f"message_id = {sql_str(message_id)} AND {scope_sql(scope)}", columns=["node_id"])
        return [r["node_id"] for r in rows]

    def holds_evidence(self, scope: Scope) -> bool:
        """Whether any node lies in ``scope``."""
        return bool(self.tables.query_nodes(scope_sql(scope), columns=["node_id"], limit=1))

    def channel_named(self, name: str, scope: Scope) -> str | None:
        """The channel in ``scope`` whose messages carry the name ``name`` (lower-case)."""
        rows = self.tables.query_nodes(
            f"({scope_sql(scope)}) AND lower(channel_name) = {sql_str(name)}",
            columns=["channel"], limit=1)
        return str(rows[0]["channel"]) if rows else None

    def channel_label(self, *, space: str, channel: str, platform: str | None = None
                      ) -> tuple[str, str] | None:
        """(platform, channel name) as a message of the channel records them; None when the
        channel holds no message."""
        rows = self.tables.query_nodes(
            columns_sql(platform=platform, space=space, channel=channel),
            columns=["platform", "channel_name"], limit=1)
        return (str(rows[0]["platform"]), str(rows[0]["channel_name"] or "")) if rows else None

    def answers_to(self, node_ids: Sequence[str], scope: Scope) -> list[EvidenceNode]:
        """The nodes in ``scope`` that reply to one of ``node_ids`` or borrowed from one."""
        rows = self.tables.query_nodes(f"({borrowing_sql(node_ids)}) AND {scope_sql(scope)}",
                                       columns=NODE_META_COLUMNS)
        return [row_to_node(r) for r in rows]

    def state_members(self, state_ids: Sequence[str], scope: Scope) -> list[EvidenceNode]:
        """:meth:`state_nodes` inside ``scope``, in the order the table returns them."""
        ids = list(state_ids)
        rows = self.tables.query_nodes(f"{members_sql(ids)} AND {scope_sql(scope)}",
                                       columns=NODE_META_COLUMNS)
        return project([row_to_node(r) for r in rows], ids)

    def states_touched_after(self, seq: int) -> list[str]:
        """The states of the nodes committed after ``seq`` (their own, and those their
        facets open), sorted."""
        rows = self.tables.query_nodes(f"seq > {seq}",
                                       columns=["node_id", "state_id", "proposal_json"])
        return sorted({sid for r in rows for sid in row_states(r)})

    def max_seq(self) -> int:
        """The highest committed node seq (0 for an empty store)."""
        return self.tables.max_seq()

    def turn_marks(self, scope: Scope, window: Window | None = None
                   ) -> list[tuple[str, float, int]]:
        """(node id, epoch ts, seq) of the nodes in ``scope`` and ``window``."""
        rows = self.tables.query_nodes(scope_sql(scope, window),
                                       columns=["node_id", "ts", "seq"])
        return [(r["node_id"], r["ts"], r["seq"]) for r in rows]

    def dependants(self, node_ids: Sequence[str]) -> list[str]:
        """``node_ids`` and the nodes that borrowed from, reply to or supersede one."""
        rows = self.tables.query_nodes(dependants_sql(node_ids), columns=["node_id"])
        return [r["node_id"] for r in rows]

    def nodes_in_spans(self, spans: Sequence[Span]) -> list[EvidenceNode]:
        """The nodes inside any of ``spans``, without their audit record."""
        if not spans:
            return []
        rows = self.tables.query_nodes(spans_sql(spans), columns=NODE_SEARCH_COLUMNS)
        return [row_to_node(r) for r in rows]

    def node_stats(self) -> NodeStats:
        rows = self.tables.query_nodes("TRUE", columns=["state_id", "verdict", "edited"])
        chains: dict[str, int] = {}
        verdicts: dict[str, int] = {}
        for r in rows:
            if r["state_id"] and r["verdict"] in ("establish", "revise"):
                chains[r["state_id"]] = chains.get(r["state_id"], 0) + 1
            verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
        return NodeStats(nodes=len(rows),
                         chains_with_revisions=sum(1 for v in chains.values() if v >= 2),
                         edited=sum(1 for r in rows if r["edited"]), verdicts=verdicts)
