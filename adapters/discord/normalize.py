"""Discord messages → domain events, from gateway payloads or discord.py objects.

Pure functions. A message in a thread is keyed under the thread's *parent* channel (with
``thread_id`` = the thread's id) when the caller knows the parent, so a channel's memory
includes its threads; edits and deletes must then be given the same ``thread_parent`` to
reach the same key. Messages outside guilds use the space ``"@me"``, as Discord's own links do.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta

import discord

from adapters.discord.payloads import (
    DiscordMember,
    DiscordMessage,
    DiscordMessageDelete,
    DiscordUser,
    delete_payload,
    message_payload,
)
from adapters.errors import PayloadError
from adapters.jsonl import clean_str, clean_text, parse_ts
from memory.errors import InputError
from memory.models import Delete, Edit, Message

logger = logging.getLogger(__name__)

PLATFORM = "discord"
DM_SPACE = "@me"

_DISCORD_EPOCH = datetime(2015, 1, 1, tzinfo=UTC)
_CONTENT_TYPES = frozenset({0, 19})  # default, reply; the rest are system notices
_TOKENS = re.compile(
    r"(?P<code>```.*?```|`[^`\n]*`)"
    r"|<(?P<kind>@!?|@&|#)(?P<id>\d+)>"
    r"|<a?:(?P<emoji>\w+):\d+>"
    r"|<t:(?P<epoch>-?\d+)(?::[tTdDfFR])?>"
    r"|</(?P<command>[^:<>\n]+):\d+>",
    re.DOTALL,
)


def render_content(
    content: str,
    *,
    users: Mapping[str, str],
    channels: Mapping[str, str] | None = None,
    roles: Mapping[str, str] | None = None,
) -> str:
    """Render Discord markup as a person reads it.

    ``<@1>``/``<@!1>`` → ``@Name`` (``users`` maps id → display name, else the id),
    ``<#1>`` → ``#name`` (else ``#1``), ``<@&1>`` → ``@role`` (else ``@&1``),
    ``<:party:1>`` → ``:party:``, ``<t:1700000000:R>`` → an ISO 8601 UTC time,
    ``</recall:1>`` → ``/recall``. Code spans and fences are kept verbatim.
    """
    channels = channels or {}
    roles = roles or {}

    def sub(m: re.Match[str]) -> str:
        if m.group("code") is not None:
            return m.group(0)
        if m.group("emoji") is not None:
            return f":{m.group('emoji')}:"
        if m.group("command") is not None:
            return "/" + m.group("command")
        if m.group("epoch") is not None:
            try:
                return parse_ts(int(m.group("epoch"))).isoformat()
            except ValueError:
                return m.group(0)
        kind, ident = m.group("kind"), m.group("id")
        if kind == "#":
            return "#" + (channels.get(ident) or ident)
        if kind == "@&":
            return "@" + (roles.get(ident) or "&" + ident)
        return "@" + (users.get(ident) or ident)

    return _TOKENS.sub(sub, content)


def compose_text(rendered: str, filenames: Iterable[str]) -> str:
    """Message text plus one ``[file: name]`` line per attachment, cleaned for storage."""
    extras = [f"[file: {clean_str(name.strip())}]" for name in filenames if name.strip()]
    return clean_text("\n".join(part for part in (rendered, *extras) if part))


def jump_url(space: str, channel_id: str, *, message_id: str) -> str:
    return f"https://discord.com/channels/{space}/{channel_id}/{message_id}"


def snowflake_time(snowflake: str) -> datetime:
    """The creation time encoded in a snowflake id (milliseconds since 2015-01-01)."""
    if not snowflake.isdigit() or len(snowflake) > 20:
        raise PayloadError(f"not a snowflake: {snowflake[:24]!r}")
    return _DISCORD_EPOCH + timedelta(milliseconds=int(snowflake) >> 22)


def normalize_discord_message(
    payload: object,
    *,
    guild_id: str | None = None,
    channel_name: str | None = None,
    thread_parent: str | None = None,
    strict: bool = False,
) -> Message | None:
    """Normalize a ``MESSAGE_CREATE`` payload (or any full message object), as received:
    it is narrowed to a :class:`~adapters.discord.payloads.DiscordMessage` first.

    Returns ``None`` for bots, webhooks, system messages (joins, pins, thread starters, …)
    and messages with neither content nor attachments. ``space`` is the payload's
    ``guild_id``, else ``guild_id``, else ``"@me"``; ``reply_to`` is the replied-to message
    (forwards are not replies); with ``thread_parent`` (the parent of the thread
    ``channel_id`` names) ``channel`` = the parent and ``thread_id`` = the thread.
    ``timestamp`` falls back to the time in the snowflake id.

    A malformed payload returns ``None`` and is logged, or raises :class:`InputError` when
    ``strict``. Never raises anything else.
    """
    try:
        return _message(message_payload(payload), guild_id=guild_id,
                        channel_name=channel_name, thread_parent=thread_parent)
    except ValueError as exc:  # PayloadError, pydantic.ValidationError
        _malformed(exc, strict=strict)
        return None


def normalize_discord_update(
    payload: object,
    *,
    guild_id: str | None = None,
    thread_parent: str | None = None,
    strict: bool = False,
) -> Edit | None:
    """Normalize ``MESSAGE_UPDATE`` into an :class:`Edit`.

    ``None`` unless the update is a person's edit: it must carry ``content`` and an
    ``edited_timestamp`` (embed resolution sends updates without one) and not come from a
    bot. Malformed payloads: as :func:`normalize_discord_message`.
    """
    try:
        return _update(message_payload(payload), guild_id=guild_id,
                       thread_parent=thread_parent)
    except ValueError as exc:
        _malformed(exc, strict=strict)
        return None


def normalize_discord_delete(
    payload: object,
    *,
    guild_id: str | None = None,
    thread_parent: str | None = None,
    strict: bool = False,
) -> Delete | None:
    """Normalize ``MESSAGE_DELETE`` into a :class:`Delete` (``ts`` is unknown, so ``None``)."""
    try:
        ev = delete_payload(payload)
        space, channel, _ = _place(ev, guild_id=guild_id, thread_parent=thread_parent)
        return Delete(platform=PLATFORM, space=space, channel=channel,
                      id=_req_id(ev.get("id"), "id"))
    except ValueError as exc:
        _malformed(exc, strict=strict)
        return None


def normalize_discord_py_message(msg: discord.Message) -> Message | None:
    """Normalize a discord.py :class:`discord.Message` the same way as a gateway payload.

    Mentions are rendered from ``msg.mentions``/``channel_mentions``/``role_mentions``
    (display names, as the client shows them); a message in a :class:`discord.Thread` is
    keyed under ``thread.parent_id`` with ``thread_id`` = the thread.
    """
    if msg.author.bot or msg.webhook_id is not None:
        return None
    if msg.type not in (discord.MessageType.default, discord.MessageType.reply):
        return None
    text = compose_text(
        render_content(
            msg.content,
            users={str(u.id): u.display_name for u in msg.mentions},
            channels={str(c.id): c.name for c in msg.channel_mentions},
            roles={str(r.id): r.name for r in msg.role_mentions},
        ),
        (a.filename for a in msg.attachments),
    )
    if not text.strip():
        return None
    channel = msg.channel
    channel_id, thread_id = str(channel.id), None
    channel_name: str | None = getattr(channel, "name", None)
    if isinstance(channel, discord.Thread):
        channel_id, thread_id = str(channel.parent_id), str(channel.id)
        channel_name = channel.parent.name if channel.parent is not None else None
    ref = msg.reference
    reply_to = None
    if ref is not None and ref.message_id and ref.type is discord.MessageReferenceType.default:
        reply_to = str(ref.message_id)
    return Message(
        platform=PLATFORM,
        space=str(msg.guild.id) if msg.guild is not None else DM_SPACE,
        channel=channel_id,
        id=str(msg.id),
        user=str(msg.author.id),
        user_name=clean_str(msg.author.display_name),
        ts=msg.created_at,
        text=text,
        thread_id=thread_id,
        reply_to=reply_to,
        channel_name=channel_name,
        permalink=msg.jump_url,
        edited=msg.edited_at is not None,
    )


# --- payload internals -------------------------------------------------------------------


def _message(
    ev: DiscordMessage,
    *,
    guild_id: str | None,
    channel_name: str | None,
    thread_parent: str | None,
) -> Message | None:
    kind = ev.get("type")
    if kind is not None and kind not in _CONTENT_TYPES:
        return None
    author = ev.get("author")
    if author is None:
        raise PayloadError("author is not an object")
    if author.get("bot") is True or author.get("system") is True or ev.get("webhook_id"):
        return None
    msg_id = _req_id(ev.get("id"), "id")
    text = _text(ev)
    if not text.strip():
        return None
    space, channel, thread_id = _place(ev, guild_id=guild_id, thread_parent=thread_parent)
    stamp = ev.get("timestamp")
    return Message(
        platform=PLATFORM,
        space=space,
        channel=channel,
        id=msg_id,
        user=_req_id(author.get("id"), "id"),
        user_name=_display_name(author, ev.get("member")),
        ts=_ts(stamp) if stamp else snowflake_time(msg_id),
        text=text,
        thread_id=thread_id,
        reply_to=_reply_to(ev),
        channel_name=channel_name,
        permalink=jump_url(space, _req_id(ev.get("channel_id"), "channel_id"), message_id=msg_id),
        edited=ev.get("edited_timestamp") is not None,
    )


def _update(ev: DiscordMessage, *, guild_id: str | None, thread_parent: str | None
            ) -> Edit | None:
    if ev.get("author", {}).get("bot") is True:
        return None
    edited = ev.get("edited_timestamp")
    if edited is None or ev.get("content") is None:
        return None
    text = _text(ev)
    if not text.strip():
        return None
    space, channel, _ = _place(ev, guild_id=guild_id, thread_parent=thread_parent)
    return Edit(
        platform=PLATFORM,
        space=space,
        channel=channel,
        id=_req_id(ev.get("id"), "id"),
        text=text,
        ts=_ts(edited),
    )


def _place(
    ev: DiscordMessageDelete, *, guild_id: str | None, thread_parent: str | None
) -> tuple[str, str, str | None]:
    """(space, channel, thread_id) for a payload, applying the thread-parent mapping."""
    space = ev.get("guild_id") or guild_id or DM_SPACE
    channel = _req_id(ev.get("channel_id"), "channel_id")
    if thread_parent and thread_parent != channel:
        return space, thread_parent, channel
    return space, channel, None


def _text(ev: DiscordMessage) -> str:
    content = ev.get("content") or ""
    users: dict[str, str] = {}
    for user in ev.get("mentions", []):
        if "id" in user:
            name = _display_name(user, user.get("member"))
            if name:
                users[user["id"]] = name
    names = [a["filename"] for a in ev.get("attachments", []) if "filename" in a]
    return compose_text(render_content(content, users=users), names)


def _display_name(user: DiscordUser, member: DiscordMember | None) -> str:
    candidates = [member.get("nick")] if member is not None else []
    candidates += [user.get("global_name"), user.get("username")]
    for value in candidates:
        if value is not None and value.strip():
            return clean_str(value.strip())
    return ""


def _reply_to(ev: DiscordMessage) -> str | None:
    ref = ev.get("message_reference")
    if ref is None or ref.get("type", 0) != 0:
        return None  # type 1 is a forward: it quotes a message, it does not answer it
    return ref.get("message_id")


def _malformed(exc: ValueError, *, strict: bool) -> None:
    if strict:
        raise InputError(f"malformed Discord message: {exc}") from exc
    logger.warning("ignoring malformed Discord payload: %s", exc)


def _req_id(value: str | None, key: str) -> str:
    """A required id field (already narrowed to a string)."""
    if value is None:
        raise PayloadError(f"missing field {key!r}", field=key)
    return value


def _ts(value: str) -> datetime:
    try:
        return parse_ts(value)
    except ValueError as exc:
        raise PayloadError(f"bad timestamp: {exc}") from exc
