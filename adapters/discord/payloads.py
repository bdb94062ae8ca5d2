"""Discord gateway message payloads (``MESSAGE_CREATE``/``UPDATE``/``DELETE``) and the
functions that narrow a raw payload to them (:func:`message_payload`,
:func:`delete_payload`).

The TypedDicts hold the fields the normalizer reads, nothing else. Narrowing keeps those
fields and checks their types once, so the normalizer reads typed values:

* the fields that say what a message is (the ids, ``type``, ``content``, the timestamps,
  the author) must have their types; any other value makes the payload malformed
  (:class:`~adapters.errors.PayloadError`). Ids (snowflakes) arrive as strings, or as
  numbers from some exports, and are kept as strings;
* what decorates a message (the author's names and flags, the member's nick, mentions,
  attachments, the message it replies to) is kept where it has the shape below and left out
  where it does not.

A ``null`` field counts as a missing one; strings are cleaned (no NULs, no lone surrogates).
Partial updates omit most keys, so every field may be missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from adapters.errors import PayloadError
from adapters.jsonl import as_mapping, clean_str, opt_str


class DiscordUser(TypedDict, total=False):
    id: str
    username: str
    global_name: str
    bot: bool
    system: bool


class DiscordMember(TypedDict, total=False):
    """The partial guild member sent beside an author or a mention."""

    nick: str


class DiscordMentionedUser(DiscordUser, total=False):
    member: DiscordMember


class DiscordAttachment(TypedDict, total=False):
    filename: str


class DiscordMessageReference(TypedDict, total=False):
    type: int  # 0 reply (default), 1 forward
    message_id: str


class DiscordMessageDelete(TypedDict, total=False):
    id: str
    channel_id: str
    guild_id: str


class DiscordMessage(DiscordMessageDelete, total=False):
    """``MESSAGE_CREATE`` (a full message object plus ``guild_id``/``member``) or
    ``MESSAGE_UPDATE`` (``id`` and ``channel_id`` always, the rest when it changed; embed
    resolution also sends updates, and only those with ``edited_timestamp`` are edits).

    In a thread, ``channel_id`` is the thread's id; the gateway does not say which channel
    the thread belongs to, so callers pass ``thread_parent`` from their channel cache.
    """

    type: int  # 0 default, 19 reply, 21 thread starter; others are system notices
    author: DiscordUser
    member: DiscordMember
    webhook_id: str
    content: str
    timestamp: str
    edited_timestamp: str
    mentions: list[DiscordMentionedUser]
    attachments: list[DiscordAttachment]
    message_reference: DiscordMessageReference


def message_payload(raw: object) -> DiscordMessage:
    """``raw`` narrowed to a :class:`DiscordMessage` (see the module docstring), or a
    :class:`PayloadError` when it is not an object or a field saying what it is has the
    wrong type."""
    ev = as_mapping(raw, "payload")
    out: DiscordMessage = {}
    _ids(ev, out)
    kind = ev.get("type")
    if kind is not None:
        if isinstance(kind, bool) or not isinstance(kind, int):
            raise PayloadError("field 'type' must be an integer", field="type")
        out["type"] = kind
    author = ev.get("author")
    if author is not None:
        out["author"] = _author(as_mapping(author, "author"))
    if (value := _opt_id(ev, "webhook_id")) is not None:
        out["webhook_id"] = value
    if (value := opt_str(ev, "content")) is not None:
        out["content"] = value
    if (value := opt_str(ev, "timestamp")) is not None:
        out["timestamp"] = value
    if (value := opt_str(ev, "edited_timestamp")) is not None:
        out["edited_timestamp"] = value
    if isinstance(member := ev.get("member"), Mapping):
        out["member"] = _member(member)
    if isinstance(mentions := ev.get("mentions"), list):
        out["mentions"] = [_mentioned(m) for m in mentions if isinstance(m, Mapping)]
    if isinstance(attachments := ev.get("attachments"), list):
        out["attachments"] = [_attachment(a) for a in attachments if isinstance(a, Mapping)]
    if isinstance(ref := ev.get("message_reference"), Mapping):
        out["message_reference"] = _reference(ref)
    return out


def delete_payload(raw: object) -> DiscordMessageDelete:
    """``raw`` narrowed to a :class:`DiscordMessageDelete`: ids of the wrong type are a
    :class:`PayloadError`."""
    out: DiscordMessageDelete = {}
    _ids(as_mapping(raw, "payload"), out)
    return out


def _ids(ev: Mapping[str, object], out: DiscordMessageDelete) -> None:
    if (value := _opt_id(ev, "id")) is not None:
        out["id"] = value
    if (value := _opt_id(ev, "channel_id")) is not None:
        out["channel_id"] = value
    if (value := _opt_id(ev, "guild_id")) is not None:
        out["guild_id"] = value


def _opt_id(ev: Mapping[str, object], key: str) -> str | None:
    """An id field as a cleaned string; None when missing or empty."""
    value = ev.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise PayloadError(f"field {key!r} must be an id string, not {type(value).__name__}",
                           field=key)
    text = clean_str(str(value)).strip()
    return text or None


def _str(item: Mapping[str, object], key: str) -> str | None:
    """A decoration's string field, cleaned; None when missing or not a string."""
    value = item.get(key)
    return clean_str(value) if isinstance(value, str) else None


def _names(item: Mapping[str, object], out: DiscordUser) -> None:
    if (value := _str(item, "username")) is not None:
        out["username"] = value
    if (value := _str(item, "global_name")) is not None:
        out["global_name"] = value
    if isinstance(bot := item.get("bot"), bool):
        out["bot"] = bot
    if isinstance(system := item.get("system"), bool):
        out["system"] = system


def _author(item: Mapping[str, object]) -> DiscordUser:
    out: DiscordUser = {}
    if (value := _opt_id(item, "id")) is not None:
        out["id"] = value
    _names(item, out)
    return out


def _mentioned(item: Mapping[str, object]) -> DiscordMentionedUser:
    out: DiscordMentionedUser = {}
    ident = item.get("id")
    if isinstance(ident, str | int) and not isinstance(ident, bool):
        out["id"] = clean_str(str(ident))
    _names(item, out)
    if isinstance(member := item.get("member"), Mapping):
        out["member"] = _member(member)
    return out


def _member(item: Mapping[str, object]) -> DiscordMember:
    nick = _str(item, "nick")
    return {} if nick is None else {"nick": nick}


def _attachment(item: Mapping[str, object]) -> DiscordAttachment:
    filename = _str(item, "filename")
    return {} if filename is None else {"filename": filename}


def _reference(item: Mapping[str, object]) -> DiscordMessageReference:
    out: DiscordMessageReference = {}
    kind = item.get("type")
    if kind is not None:
        # Anything but a reply (0) quotes a message without answering it.
        out["type"] = kind if isinstance(kind, int) and not isinstance(kind, bool) else -1
    ident = item.get("message_id")
    if isinstance(ident, str | int) and not isinstance(ident, bool):
        if text := clean_str(str(ident)).strip():
            out["message_id"] = text
    return out
