"""A decision's timeline, independent of where it is shown (web page, Slack, Discord, CLI).

A :class:`~memory.models.State` carries its supersession chain oldest first; this module turns
it into :class:`TimelineEntry` rows that say, for each value the channel ever agreed on, who
set it, when, with which words and where to find the message — and whether that value is the
current one or has been superseded. Renderers only format these rows; they never re-derive
which value is current.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from memory.models import State, Verdict

__all__ = ["TimelineEntry", "build_timeline", "short_date", "timeline_text"]


class TimelineEntry(BaseModel):
    """One value of a state's chain, as a person should see it."""

    model_config = ConfigDict(frozen=True)

    node_id: str
    message_id: str
    value: str
    speaker: str
    time: datetime
    quote: str
    permalink: str | None = None
    verdict: Verdict
    superseded: bool
    """A later entry of the chain replaced this value."""
    current: bool
    """This entry supports the state's active value (exactly one entry per non-empty chain)."""


def _current_index(state: State) -> int:
    for i, entry in enumerate(state.chain):
        if entry.node_id == state.active_node_id:
            return i
    # The registry row can briefly name a node the (filtered) chain no longer holds, e.g. an
    # ungrounded revision dropped at read time; the chain's last entry is then authoritative.
    return len(state.chain) - 1


def build_timeline(state: State) -> list[TimelineEntry]:
    """The state's chain as timeline entries, oldest first.

    Exactly one entry is ``current`` when the chain is non-empty: the one whose node is the
    state's active node (the last entry if the active node is not in the chain). Every entry
    before it is ``superseded``; entries after it (not expected from a consistent store) are
    neither.
    """
    cur = _current_index(state)
    return [
        TimelineEntry(
            node_id=e.node_id, message_id=e.message_id, value=e.value,
            speaker=e.speaker, time=e.ts, quote=e.quote, permalink=e.permalink,
            verdict=e.verdict, superseded=i < cur, current=i == cur,
        )
        for i, e in enumerate(state.chain)
    ]


def short_date(dt: datetime) -> str:
    """``Nov 3``: month abbreviation and day without a leading zero (UTC)."""
    return f"{dt:%b} {dt.day}"


def timeline_text(state: State, *, limit: int = 4) -> str:
    """A one-line summary, newest first: ``4 pm — Alice, Nov 3 · was 3 pm — Alice, Nov 2``.

    The current value comes first; superseded values follow, each prefixed with ``was``.
    At most ``limit`` entries are shown; older ones are summarised as ``(+N earlier)``.
    An empty chain yields the state's value alone (or an empty string).
    """
    entries = build_timeline(state)
    if not entries:
        return state.value
    ordered = [e for e in entries if e.current] + [
        e for e in reversed(entries) if e.superseded
    ]
    shown = ordered[: max(limit, 1)]
    parts = [
        ("" if e.current else "was ")
        + f"{e.value or '(no value)'} — {e.speaker}, {short_date(e.time)}"
        for e in shown
    ]
    hidden = len(ordered) - len(shown)
    if hidden:
        parts.append(f"(+{hidden} earlier)")
    return " · ".join(parts)
