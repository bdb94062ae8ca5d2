"""The operator's view of the memory (:class:`memory.ports.Browse`): channel listings, a
channel's states, one state.

Read-only by construction: only the store's lookups and the reader's
``read_current_state``. It is an operator view, so nothing here narrows to what a particular
member may read; every channel of every space is listed (private ones marked).
"""

from __future__ import annotations

import logging

from memory.embeddings import Embedder
from memory.models import Scope, State
from memory.ports import MAX_STATES_LISTED, ChannelSummary, SpaceKey, StateSummary
from memory.reader.tools import read_current_state
from memory.registry import StateRecord, chain_of, to_state
from memory.store.ports import Store
from memory.store.rows import Row, from_epoch

logger = logging.getLogger(__name__)


class Browser:
    """:class:`memory.ports.Browse` over one store."""

    def __init__(self, *, store: Store, embedder: Embedder) -> None:
        self.store = store
        self.embedder = embedder

    def _node_channel_name(self, platform: str, space: str, channel: str) -> str:
        label = self.store.channel_label(platform=platform, space=space, channel=channel)
        return label[1] if label is not None else ""

    def list_channels(self) -> dict[SpaceKey, list[ChannelSummary]]:
        counts: dict[tuple[str, str, str], tuple[int, int]] = {}
        for r in self.store.states.listed():
            key = (r["platform"], r["space"], r["channel"])
            n, revised = counts.get(key, (0, 0))
            counts[key] = (n + 1, revised + (1 if r["revision_count"] else 0))
        known = {(c.platform, c.space, c.id): c for c in self.store.channels()}
        keys = set(counts) | set(known) | set(self.store.distinct_channels(Scope()))
        out: dict[SpaceKey, list[ChannelSummary]] = {}
        for platform, space, channel in keys:
            rec = known.get((platform, space, channel))
            name = rec.name if rec is not None and rec.name else self._node_channel_name(
                platform, space, channel)
            n, revised = counts.get((platform, space, channel), (0, 0))
            out.setdefault((platform, space), []).append(ChannelSummary(
                platform=platform, space=space, channel=channel, name=name,
                is_private=bool(rec and rec.is_private), states=n, revised=revised,
            ))
        for chans in out.values():
            chans.sort(key=lambda c: (c.name or c.channel).lower())
        return dict(sorted(out.items()))

    def channel_info(self, *, space: str, channel: str) -> ChannelSummary | None:
        rec = next((c for c in self.store.channels(space=space) if c.id == channel), None)
        label = self.store.channel_label(space=space, channel=channel)
        states = self.store.states.listed(space=space, channel=channel)
        if rec is None and label is None and not states:
            return None
        platform = rec.platform if rec is not None else (
            label[0] if label is not None else states[0]["platform"])
        name = rec.name if rec is not None and rec.name else (
            label[1] if label is not None else "")
        return ChannelSummary(
            platform=platform, space=space, channel=channel, name=name,
            is_private=bool(rec and rec.is_private), states=len(states),
            revised=sum(1 for r in states if r["revision_count"]),
        )

    def channel_states(self, *, space: str, channel: str, q: str = "",
                       limit: int = MAX_STATES_LISTED) -> tuple[list[StateSummary], int]:
        """``q`` matches as a case-insensitive substring per word, so ids, numbers and
        partial words work."""
        rows = self.store.states.listed(space=space, channel=channel)
        words = q.lower().split()
        hits = [r for r in rows if _matches(r, words)] if words else rows
        hits.sort(key=lambda r: (-float(r["updated_ts"]), r["state_id"]))
        return [
            StateSummary(state_id=r["state_id"], topic=r["topic"], value=r["value"],
                         revision_count=int(r["revision_count"]),
                         updated_at=from_epoch(float(r["updated_ts"])))
            for r in hits[:limit]
        ], len(hits)

    def load_state(self, state_id: str) -> State | None:
        """A revision whose value is not grounded in its own message does not count in the
        chain, as for the reader."""
        row = self.store.states.get(state_id)
        if row is None:
            return None
        scope = Scope(platform=row["platform"], space=row["space"], channels=(row["channel"],))
        # An empty query embeds nothing: the state is found through state_ids alone.
        found = read_current_state(self.store, self.embedder, query="", scope=scope, k=1,
                                   state_ids=[state_id])
        if found and found[0].state_id == state_id:
            return found[0]
        logger.debug("state %s has no authoritative chain; showing the registry's", state_id)
        return to_state(StateRecord.from_row(row), chain_of(self.store.state_nodes([state_id])))


def _matches(row: Row, words: list[str]) -> bool:
    hay = " ".join((row["topic"], row["description"], row["value"])).lower()
    return all(w in hay for w in words)
