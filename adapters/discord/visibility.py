"""Where a Discord message lives in memory, and who may read that place.

Pure functions over discord.py's cache. A thread's messages are remembered under its parent
channel (see :mod:`adapters.discord.normalize`), so a thread is as visible as its parent.
Private threads are the exception: only their invited members can read them, which a
parent-channel scope cannot express, so the adapter does not remember them (see
:func:`remembered`).
"""

from __future__ import annotations

import logging

import discord

from adapters.discord.normalize import PLATFORM
from adapters.errors import PayloadError
from memory.models import Channel

logger = logging.getLogger(__name__)

def memory_channel_id(channel: object) -> str:
    """The memory channel key of a Discord channel: a thread's parent, else its own id."""
    if isinstance(channel, discord.Thread):
        return str(channel.parent_id)
    ident = getattr(channel, "id", None)
    if ident is None:
        raise PayloadError(f"channel without an id: {type(channel).__name__}")
    return str(ident)


def is_private_thread(channel: object) -> bool:
    return (
        isinstance(channel, discord.Thread)
        and channel.type is discord.ChannelType.private_thread
    )


def remembered(channel: object) -> bool:
    """Whether messages in ``channel`` go to memory: guild channels and public threads.

    DMs have no guild to scope them to; private threads have a membership their parent
    channel does not share (remembering them under the parent would leak them).
    """
    if is_private_thread(channel):
        return False
    return isinstance(channel, discord.abc.GuildChannel | discord.Thread)


def channel_visibility(channel: discord.abc.GuildChannel) -> Channel:
    """The visibility record of one guild channel.

    A channel is public only when every member of the guild can view it: ``@everyone`` can,
    no permission overwrite denies *View Channel* to a role or a member, and every member
    the cache knows can (``permissions_for``, which applies roles, overwrites and
    administrators as Discord does). Otherwise it is private, and its ``members`` are the
    human guild members the cache knows who can view it (with the members intent, that is
    everyone; without it, only the few members seen recently, so recall of private channels
    fails closed). Public channels list no members: everyone in the guild may read them,
    which is what an empty, non-private record means to memory.
    """
    guild = channel.guild
    humans = [m for m in guild.members if not m.bot]
    viewers = [m for m in humans if channel.permissions_for(m).view_channel]
    denied = any(
        overwrite.view_channel is False
        for target, overwrite in channel.overwrites.items()
        if getattr(target, "id", None) != guild.default_role.id
    )
    private = (not channel.permissions_for(guild.default_role).view_channel or denied
               or len(viewers) < len(humans))
    members: tuple[str, ...] = ()
    if private:
        members = tuple(sorted(str(m.id) for m in viewers))
    return Channel(
        platform=PLATFORM,
        space=str(guild.id),
        id=str(channel.id),
        name=channel.name,
        is_private=private,
        members=members,
    )


def guild_visibility(guild: discord.Guild) -> list[Channel]:
    """Visibility records for every channel of ``guild`` that can hold messages or threads
    (categories only carry permissions, which their channels already reflect)."""
    return [
        channel_visibility(ch) for ch in guild.channels
        if not isinstance(ch, discord.CategoryChannel)
    ]
