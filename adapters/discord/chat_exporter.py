"""DiscordChatExporter JSON exports: one channel per file, read as gateway messages.

A thread's messages are keyed under its parent channel (``categoryId``), like the live bot
does. Only a DM yields a :class:`~memory.models.Channel` event (private, members = its
authors): the export does not say who may read a guild channel, and an import must not mark
a channel public that the bot knows is private. Problems become error items naming the file
(and the entry's 1-based index); nothing here raises on bad input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from adapters.discord.normalize import DM_SPACE, normalize_discord_message
from adapters.discord.normalize import PLATFORM as DISCORD
from adapters.jsonl import JsonlItem, clean_str, decode_json
from memory.errors import InputError
from memory.models import Channel

_DCE_THREADS = frozenset({"GuildPublicThread", "GuildPrivateThread", "GuildNewsThread"})
_DCE_DIRECT = frozenset({"DirectTextChat", "DirectGroupTextChat"})
_DCE_MESSAGE_TYPES = {"Default": 0, "Reply": 19}
_SNIFF_BYTES = 64 * 1024


def looks_like_dce(path: Path) -> bool:
    """Whether a .json file is a DiscordChatExporter export.

    DiscordChatExporter writes ``guild`` and ``channel`` before ``messages``, so the head of
    the file settles it without parsing a possibly huge file; other layouts are parsed.
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError:
        return False
    if not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{"):
        return False
    if all(re.search(rb'"%s"\s*:' % key, head) for key in (b"guild", b"channel", b"messages")):
        return True
    try:
        value = decode_json(path.read_bytes())
    except (ValueError, OSError):
        return False
    return isinstance(value, dict) and {"guild", "channel", "messages"} <= value.keys()


def iter_discord_export(path: Path) -> Iterator[JsonlItem]:
    """Yield a DiscordChatExporter channel export's events (see the module docstring)."""
    source = str(path)
    try:
        root = decode_json(path.read_bytes())
    except (ValueError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else str(exc)
        yield JsonlItem(line=0, error=InputError(f"cannot read export: {reason}", source=source))
        return
    header = _dce_header(root)
    if isinstance(header, str):
        yield JsonlItem(line=0, error=InputError(header, source=source))
        return
    space, channel, messages = header
    channel_id = str(channel["id"])
    kind = channel.get("type")
    parent = channel.get("categoryId") if kind in _DCE_THREADS else None
    thread_parent = str(parent) if isinstance(parent, str | int) and str(parent) else None
    name_value = channel.get("category") if thread_parent else channel.get("name")
    channel_name = clean_str(name_value) if isinstance(name_value, str) and name_value else None

    if kind in _DCE_DIRECT:
        yield _dm_channel(space, channel_id, channel_name, messages)

    for index, entry in enumerate(messages, start=1):
        if not isinstance(entry, Mapping):
            error = InputError(f"entry {index}: not a message object", source=source)
            yield JsonlItem(line=index, error=error)
            continue
        try:
            event = normalize_discord_message(
                _dce_to_gateway(entry, channel_id=channel_id, space=space),
                guild_id=space,
                channel_name=channel_name,
                thread_parent=thread_parent,
                strict=True,
            )
        except InputError as exc:
            yield JsonlItem(line=index, error=InputError(f"entry {index}: {exc}", source=source))
            continue
        if event is not None:
            yield JsonlItem(line=index, event=event)
        else:
            yield JsonlItem(line=index, skipped="a bot's message, a system message or no text")


def _dm_channel(space: str, channel_id: str, channel_name: str | None,
                messages: list[object]) -> JsonlItem:
    """The channel event of an exported DM: private, its members the authors of its
    messages."""
    authors = {
        str(m["author"]["id"])
        for m in messages
        if isinstance(m, Mapping)
        and isinstance(m.get("author"), Mapping)
        and isinstance(m["author"].get("id"), str)
    }
    return JsonlItem(
        line=0,
        event=Channel(
            platform=DISCORD,
            space=space,
            id=channel_id,
            name=channel_name or "",
            is_private=True,
            members=tuple(sorted(authors)),
        ),
    )


def _dce_header(root: object) -> tuple[str, Mapping[str, object], list[object]] | str:
    """(space, channel object, messages) of an export, or why it is not one."""
    if not isinstance(root, Mapping):
        return "not a DiscordChatExporter export: expected a JSON object"
    guild, channel, messages = root.get("guild"), root.get("channel"), root.get("messages")
    if not isinstance(guild, Mapping) or not isinstance(channel, Mapping):
        return "not a DiscordChatExporter export: 'guild' and 'channel' must be objects"
    if not isinstance(messages, list):
        return "not a DiscordChatExporter export: 'messages' must be a list"
    gid, cid = guild.get("id"), channel.get("id")
    if not isinstance(cid, str | int) or isinstance(cid, bool) or not str(cid):
        return "channel has no 'id'"
    if not isinstance(gid, str | int) or isinstance(gid, bool) or not str(gid):
        return "guild has no 'id'"
    # DiscordChatExporter files DMs under a pseudo-guild with id 0.
    space = DM_SPACE if str(gid) == "0" else clean_str(str(gid))
    return space, channel, messages


def _dce_to_gateway(
    entry: Mapping[str, object], *, channel_id: str, space: str
) -> dict[str, object]:
    """Reshape an exported message as a gateway message so one normalizer handles both."""
    kind = entry.get("type", "Default")
    if isinstance(kind, str) and kind.isdigit():
        gateway_type: object = int(kind)
    else:
        gateway_type = _DCE_MESSAGE_TYPES.get(kind, -1) if isinstance(kind, str) else kind
    payload: dict[str, object] = {
        "id": entry.get("id"),
        "type": gateway_type,
        "channel_id": channel_id,
        "content": entry.get("content"),
        "timestamp": entry.get("timestamp"),
        "edited_timestamp": entry.get("timestampEdited"),
        "author": _dce_user(entry.get("author")),
        "mentions": [_dce_user(u) for u in _list(entry.get("mentions")) if isinstance(u, Mapping)],
        "attachments": [
            {"filename": a.get("fileName")}
            for a in _list(entry.get("attachments"))
            if isinstance(a, Mapping)
        ],
    }
    if space != DM_SPACE:
        payload["guild_id"] = space
    ref = entry.get("reference")
    if isinstance(ref, Mapping):
        payload["message_reference"] = {
            "type": 1 if ref.get("type") == "Forward" else 0,
            "message_id": ref.get("messageId"),
            "channel_id": ref.get("channelId"),
        }
    return payload


def _dce_user(user: object) -> object:
    if not isinstance(user, Mapping):
        return user  # the normalizer reports a missing or malformed author
    return {
        "id": user.get("id"),
        "username": user.get("name"),
        "global_name": user.get("nickname"),
        "bot": user.get("isBot") is True,
    }


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []
