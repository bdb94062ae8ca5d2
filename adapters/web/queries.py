"""What the web view reads from the memory: channel listings, a channel's states, one state.

Read-only by construction: only the store's lookups and the reader's
``read_current_state``. The web view is an operator view, so nothing here narrows to what a
particular member may read; every channel of every space is listed (private ones marked).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from memory.models import Scope, State
from memory.reader.tools import read_current_state
from memory.registry import StateRecord, chain_of, to_state
from memory.service import Egmem
from memory.store.rows import Row, from_epoch

logger = logging.getLogger(__name__)

SpaceKey = tuple[str, str]
"""(platform, space)"""

MAX_STATES_LISTED = 300


@dataclass(frozen=True)
class ChannelSummary:
    platform: str
    space: str
    channel: str
    name: str
    is_private: bool
    states: int
    revised: int
    """States whose value changed at least once."""

    @property
    def label(self) -> str:
        return f"#{self.name}" if self.name else self.channel


@dataclass(frozen=True)
class StateSummary:
    state_id: str
    topic: str
    value: str
    revision_count: int
    updated_at: datetime


def _node_channel_name(eg: Egmem, platform: str, space: str, channel: str) -> str:
    label = eg.store.channel_label(platform=platform, space=space, channel=channel)
    return label[1] if label is not None else ""


def list_channels(eg: Egmem) -> dict[SpaceKey, list[ChannelSummary]]:
    """Every channel with messages or a visibility record, grouped by space, sorted by name."""
    counts: dict[tuple[str, str, str], tuple[int, int]] = {}
    for r in eg.store.states.listed():
        key = (r["platform"], r["space"], r["channel"])
        n, revised = counts.get(key, (0, 0))
        counts[key] = (n + 1, revised + (1 if r["revision_count"] else 0))
    known = {(c.platform, c.space, c.id): c for c in eg.store.channels()}
    keys = set(counts) | set(known) | set(eg.store.distinct_channels(Scope()))
    out: dict[SpaceKey, list[ChannelSummary]] = {}
    for platform, space, channel in keys:
        rec = known.get((platform, space, channel))
        name = rec.name if rec is not None and rec.name else _node_channel_name(
            eg, platform, space, channel)
        n, revised = counts.get((platform, space, channel), (0, 0))
        out.setdefault((platform, space), []).append(ChannelSummary(
            platform=platform, space=space, channel=channel, name=name,
            is_private=bool(rec and rec.is_private), states=n, revised=revised,
        ))
    for chans in out.values():
        chans.sort(key=lambda c: (c.name or c.channel).lower())
    return dict(sorted(out.items()))


def channel_info(eg: Egmem, *, space: str, channel: str) -> ChannelSummary | None:
    """The channel's summary, or None when the memory knows nothing of it."""
    rec = next((c for c in eg.store.channels(space=space) if c.id == channel), None)
    label = eg.store.channel_label(space=space, channel=channel)
    states = eg.store.states.listed(space=space, channel=channel)
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


def _matches(row: Row, words: list[str]) -> bool:
    hay = " ".join((row["topic"], row["description"], row["value"])).lower()
    return all(w in hay for w in words)


def channel_states(eg: Egmem, *, space: str, channel: str, q: str = "",
                   limit: int = MAX_STATES_LISTED) -> tuple[list[StateSummary], int]:
    """The channel's states, most recently changed first, and how many matched in all.

    ``q`` keeps the states whose topic, description or current value contains every word of
    it (case-insensitive substring match, so ids, numbers and partial words work).
    """
    rows = eg.store.states.listed(space=space, channel=channel)
    words = q.lower().split()
    hits = [r for r in rows if _matches(r, words)] if words else rows
    hits.sort(key=lambda r: (-float(r["updated_ts"]), r["state_id"]))
    return [
        StateSummary(state_id=r["state_id"], topic=r["topic"], value=r["value"],
                     revision_count=int(r["revision_count"]),
                     updated_at=from_epoch(float(r["updated_ts"])))
        for r in hits[:limit]
    ], len(hits)


def load_state(eg: Egmem, state_id: str) -> State | None:
    """One state with its chain, oldest first, as the reader sees it (a revision whose value
    is not grounded in its own message does not count); None when there is no such state."""
    row = eg.store.states.get(state_id)
    if row is None:
        return None
    scope = Scope(platform=row["platform"], space=row["space"], channels=(row["channel"],))
    # An empty query embeds nothing: the state is found through state_ids alone.
    found = read_current_state(eg.store, eg.writer.embedder, query="", scope=scope, k=1,
                               state_ids=[state_id])
    if found and found[0].state_id == state_id:
        return found[0]
    logger.debug("state %s has no authoritative chain; showing the registry's", state_id)
    return to_state(StateRecord.from_row(row), chain_of(eg.store.state_nodes([state_id])))
