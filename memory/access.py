"""Who may read what: turns an asker into the Scope every read query is filtered by.

Rules: one space (workspace/guild) only. The default scope is the asking channel (when the
asker may read it) plus the space's public channels; ``widen`` adds the private channels,
DMs and group DMs the asker belongs to. A channel with no visibility record is treated as
private: readable only from inside itself (whoever asks there can see it) — never guessed public,
since a Slack private channel's id looks like a public one's. Imports should carry ``channel``
records; the live adapters always write one before the first message.

Some people read less than the public channels (:class:`SpaceAccess`, kept by the chat
adapters): a *guest* (a Slack restricted or single-channel guest account) reads only the
conversations they are a member of; an *external* person (from another organization, in
a Slack Connect channel) reads only the shared channel they ask from. And an answer posted
in a channel (``widen`` false: an ``@egmem`` reply) is read by everyone there: in a channel
shared with another organization it reads that channel alone, and in a channel with guests
only the public channels every one of those guests is in.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from memory.models import Channel, Scope

if TYPE_CHECKING:  # the store pulls in LanceDB; front ends import SpaceAccess alone
    from memory.store.ports import Store

logger = logging.getLogger(__name__)



def access_key(platform: str, space: str) -> str:
    """Where a space's :class:`SpaceAccess` is kept (a key of the store's meta table)."""
    return f"access:{platform}:{space}"


class SpaceAccess(BaseModel):
    """The people of one space who read less than its public channels.

    ``guests`` maps each guest to the conversations they are a member of; ``external``
    lists people from other organizations; ``shared`` lists the channels shared with other
    organizations; ``complete`` says every guest of the space is listed (the adapter read
    the whole directory), which sharing into a channel needs before it trusts that no
    unknown guest reads along."""

    model_config = ConfigDict(frozen=True)

    platform: str
    space: str
    guests: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    external: tuple[str, ...] = ()
    shared: tuple[str, ...] = ()
    complete: bool = False

    def guests_in(self, channel: str, members: tuple[str, ...] = ()) -> list[str]:
        """The guests known to read ``channel`` (listed in it, or among its ``members``)."""
        return [g for g, chans in self.guests.items() if channel in chans or g in members]

    def is_mixed(self, channel: str, members: tuple[str, ...] = ()) -> bool:
        """Whether people of another organization read ``channel``."""
        return channel in self.shared or bool(set(members) & set(self.external))


def load_access(store: Store, *, platform: str, space: str) -> SpaceAccess:
    """The space's :class:`SpaceAccess` (empty when the adapters recorded none)."""
    raw = store.meta.get(access_key(platform, space))
    if raw:
        try:
            return SpaceAccess.model_validate(json.loads(raw))
        except (ValueError, ValidationError):
            logger.error("access record of %s/%s unreadable; treating it as empty",
                         platform, space)
    return SpaceAccess(platform=platform, space=space)


def save_access(store: Store, access: SpaceAccess) -> None:
    store.meta.set(access_key(access.platform, access.space), access.model_dump_json())


def readable_channels(
    store: Store, *, platform: str, space: str, user: str, channel: str | None,
    widen: bool = False,
) -> tuple[str, ...]:
    """:func:`allowed_channels` over what the store knows of the space."""
    return allowed_channels(
        {c.id: c for c in store.channels(platform=platform, space=space)},
        store.known_channels(platform=platform, space=space),
        access=load_access(store, platform=platform, space=space),
        user=user, channel=channel, widen=widen)


def allowed_channels(
    known: Mapping[str, Channel], seen: Iterable[str], *, access: SpaceAccess, user: str,
    channel: str | None, widen: bool = False,
) -> tuple[str, ...]:
    """The channels ``user`` asking from ``channel`` may read (the rules of this module):
    ``known`` maps channel ids to their records, ``seen`` lists channels holding evidence
    (a channel with no record is private); sorted."""
    here = known.get(channel) if channel is not None else None
    if user in access.external:
        inside = channel is not None and (here is None or _may_read(here, user))
        return (channel,) if inside and channel is not None else ()
    mine = access.guests.get(user)
    # An answer in a channel is read by everyone there (see the module docstring).
    public_answer = not widen and channel is not None
    members = here.members if here is not None else ()
    audience = access.guests_in(channel, members) if public_answer and channel else []
    mixed = public_answer and channel is not None and access.is_mixed(channel, members)
    allowed: list[str] = []
    for ch_id in sorted(set(known) | set(seen)):
        rec = known.get(ch_id)
        if ch_id == channel:
            if rec is None or _may_read(rec, user):
                allowed.append(ch_id)
            continue
        if rec is None or not _may_read(rec, user) or (rec.is_private and not widen):
            continue
        if mine is not None and ch_id not in mine:
            continue  # a guest reads only what they are a member of
        if mixed or any(ch_id not in access.guests[g] for g in audience):
            continue
        allowed.append(ch_id)
    return tuple(allowed)


def _may_read(rec: Channel, user: str) -> bool:
    return not rec.is_private or user in rec.members


def scope_for(
    store: Store, *, platform: str, space: str, user: str | None, channel: str | None,
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
