"""Who may read what: turns an asker into the Scope every read query is filtered by.

Rules: one space (workspace/guild) only. The default scope is the asking channel (when the
asker may read it) plus the space's public channels; ``widen`` adds the private channels,
DMs and group DMs the asker belongs to. A channel with no visibility record is treated as
private: readable only from inside itself (whoever asks there can see it) — never guessed public,
since a Slack private channel's id looks like a public one's. Imports should carry ``channel``
records; the live adapters always write one before the first message.
"""

from __future__ import annotations

from memory.models import Channel, Scope
from memory.store import MemoryStore


def readable_channels(
    store: MemoryStore, *, platform: str, space: str, user: str, channel: str | None,
    widen: bool = False,
) -> tuple[str, ...]:
    known = {c.id: c for c in store.channels(platform=platform, space=space)}
    seen = store.known_channels(platform=platform, space=space)
    allowed: list[str] = []
    for ch_id in sorted(set(known) | seen):
        rec = known.get(ch_id)
        if ch_id == channel and (rec is None or _may_read(rec, user)):
            allowed.append(ch_id)
        elif rec is not None and _may_read(rec, user) and (not rec.is_private or widen):
            allowed.append(ch_id)
    return tuple(allowed)


def _may_read(rec: Channel, user: str) -> bool:
    return not rec.is_private or user in rec.members


def scope_for(
    store: MemoryStore, *, platform: str, space: str, user: str | None, channel: str | None,
    widen: bool = False,
) -> Scope:
    """The permission scope of a question. ``user=None`` is the local operator (CLI without
    ``--as-user``): the whole space, or everything when no space is given."""
    if user is None:
        if channel is not None:
            return Scope(platform=platform or None, space=space or None, channels=(channel,))
        return Scope(platform=platform or None, space=space or None)
    return Scope(
        platform=platform,
        space=space,
        channels=readable_channels(store, platform=platform, space=space, user=user,
                                   channel=channel, widen=widen),
    )
