"""Raw Discord gateway payload shapes (``MESSAGE_CREATE``/``UPDATE``/``DELETE``).

Snowflakes arrive as strings. These describe what we read; normalizers still check each
field, since partial updates omit most keys.
"""

from __future__ import annotations

from typing import TypedDict

# --- gateway -----------------------------------------------------------------------------


class DiscordUser(TypedDict, total=False):
    id: str
    username: str
    global_name: str | None
    discriminator: str
    avatar: str | None
    bot: bool
    system: bool


class DiscordMember(TypedDict, total=False):
    """The partial guild member sent beside an author or a mention."""

    nick: str | None
    roles: list[str]
    joined_at: str


class DiscordMentionedUser(DiscordUser, total=False):
    member: DiscordMember


class DiscordAttachment(TypedDict, total=False):
    id: str
    filename: str
    title: str
    description: str
    content_type: str
    size: int
    url: str
    proxy_url: str


class DiscordEmbed(TypedDict, total=False):
    type: str
    title: str
    description: str
    url: str


class DiscordMessageReference(TypedDict, total=False):
    type: int  # 0 reply (default), 1 forward
    message_id: str
    channel_id: str
    guild_id: str
    fail_if_not_exists: bool


class DiscordThreadMetadata(TypedDict, total=False):
    archived: bool
    auto_archive_duration: int
    archive_timestamp: str
    locked: bool


class DiscordThread(TypedDict, total=False):
    """A thread channel; on a message it is the thread that message started."""

    id: str
    type: int  # 10 announcement thread, 11 public thread, 12 private thread
    guild_id: str
    parent_id: str
    name: str
    owner_id: str
    message_count: int
    thread_metadata: DiscordThreadMetadata


class DiscordMessageCreate(TypedDict, total=False):
    """``MESSAGE_CREATE`` (a full message object plus ``guild_id``/``member``).

    In a thread, ``channel_id`` is the thread's id; the gateway does not say which channel
    the thread belongs to, so callers pass ``thread_parent`` from their channel cache.
    """

    id: str
    channel_id: str
    guild_id: str
    author: DiscordUser
    member: DiscordMember
    content: str
    timestamp: str
    edited_timestamp: str | None
    tts: bool
    mention_everyone: bool
    mentions: list[DiscordMentionedUser]
    mention_roles: list[str]
    attachments: list[DiscordAttachment]
    embeds: list[DiscordEmbed]
    pinned: bool
    webhook_id: str
    type: int  # 0 default, 19 reply, 21 thread starter; others are system notices
    flags: int
    message_reference: DiscordMessageReference
    referenced_message: DiscordMessageCreate | None
    thread: DiscordThread
    position: int
    nonce: str | int


class DiscordMessageUpdate(DiscordMessageCreate, total=False):
    """``MESSAGE_UPDATE``: ``id`` and ``channel_id`` always; the rest may be missing.

    Embed resolution also sends updates; only those with ``edited_timestamp`` are edits.
    """


class DiscordMessageDelete(TypedDict, total=False):
    id: str
    channel_id: str
    guild_id: str
