"""Who may read what: turns an asker into the Scope every read query is filtered by.

Rules: one space (workspace/guild) only. The default scope is the asking channel (when the
asker may read it) plus the space's public channels; ``widen`` adds the private channels,
DMs and group DMs the asker belongs to. A channel with no visibility record is public unless
its id marks it as a DM (Slack ``D…``) — imports without ``channel`` records stay usable.
"""

from __future__ import annotations

from memory.models import Channel, Scope
from memory.store import MemoryStore


def _implicitly_private(channel_id: str, platform: str) -> bool:
    return platform == "slack" and channel_id.startswith(("D", "G"))


def readable_channels(
    store: MemoryStore, *, platform: str, space: str, user: str, channel: str | None,
    widen: bool = False,
) -> tuple[str, ...]:
    known = {c.id: c for c in store.channels(platform=platform, space=space)}
    seen = {ch for _, _, ch in store.distinct_channels(Scope(platform=platform, space=space))}
    allowed: list[str] = []
    for ch_id in sorted(set(known) | seen):
        rec = known.get(ch_id)
        if _may_read(rec, ch_id, platform, user):
            public = rec is None and not _implicitly_private(ch_id, platform) or (
                rec is not None and not rec.is_private
            )
            if public or widen or ch_id == channel:
                allowed.append(ch_id)
    return tuple(allowed)


def _may_read(rec: Channel | None, ch_id: str, platform: str, user: str) -> bool:
    if rec is None:
        return not _implicitly_private(ch_id, platform)
    if not rec.is_private:
        return True
    return user in rec.members


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
