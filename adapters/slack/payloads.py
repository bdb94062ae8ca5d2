"""Slack message payloads, as the Events API, the Web API and exports carry them, and the
one function that narrows a raw payload to them (:func:`message_event`).

The TypedDicts hold the fields the normalizer reads, nothing else. Narrowing keeps those
fields and checks their types once, so the normalizer reads typed values:

* the fields that say what a message is (``type``, ``subtype``, ``channel``, ``user``,
  ``ts``, ``thread_ts``, ``deleted_ts``, ``text``, ``bot_id``) must be strings; any other
  value makes the payload malformed (:class:`~adapters.errors.PayloadError`);
* what decorates a message (its edit mark, files, attachments, rich-text blocks, the
  author's profile, a file comment) is kept where it has the shape below and left out
  where it does not: Slack adds kinds of blocks and attachments freely, and one of an
  unexpected shape never costs the message.

A ``null`` field counts as a missing one; strings are cleaned (no NULs, no lone surrogates).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from adapters.jsonl import as_mapping, clean_str, opt_str

# Rich-text elements nest (sections, lists, quotes); deeper levels are not read.
MAX_BLOCK_DEPTH = 20


class SlackEdited(TypedDict, total=False):
    ts: str


class SlackFile(TypedDict, total=False):
    title: str
    name: str
    mode: str  # "hidden_by_limit" and "tombstone" carry no usable title


class SlackAttachment(TypedDict, total=False):
    """A legacy attachment; unfurls carry ``from_url``/``original_url``, shares ``is_share``."""

    title: str
    from_url: str
    original_url: str
    is_share: bool
    mode: str


class SlackBlockElement(TypedDict, total=False):
    """A rich-text element; containers hold ``elements``, leaves hold text or a reference."""

    type: str
    text: str
    url: str
    user_id: str
    channel_id: str
    range: str  # broadcast: "here" | "channel" | "everyone"
    name: str  # emoji
    elements: list[SlackBlockElement]


class SlackBlock(TypedDict, total=False):
    type: str
    elements: list[SlackBlockElement]


class SlackUserProfile(TypedDict, total=False):
    display_name: str
    real_name: str
    name: str


class SlackFileComment(TypedDict, total=False):
    """The comment of a ``file_comment`` message (older exports)."""

    user: str
    comment: str


class SlackMessageEvent(TypedDict, total=False):
    """A ``message`` or ``app_mention`` event, a message of the Web API's histories or of an
    export.

    ``subtype`` is absent for ordinary messages; ``message_changed`` carries the new version
    in ``message`` and the old one in ``previous_message``; ``message_deleted`` names the
    removed message in ``deleted_ts``. Export messages have no ``channel`` key.
    """

    type: str  # "message" | "app_mention"; the normalizer ignores any other
    subtype: str
    channel: str
    user: str
    bot_id: str
    text: str
    ts: str
    thread_ts: str
    deleted_ts: str
    edited: SlackEdited
    files: list[SlackFile]
    attachments: list[SlackAttachment]
    blocks: list[SlackBlock]
    user_profile: SlackUserProfile
    comment: SlackFileComment
    message: SlackMessageEvent
    previous_message: SlackMessageEvent


def message_event(raw: object, *, what: str = "event") -> SlackMessageEvent:
    """``raw`` narrowed to a :class:`SlackMessageEvent` (see the module docstring), or a
    :class:`~adapters.errors.PayloadError` when it is not an object or a field saying what
    it is has the wrong type. The two versions a ``message_changed`` carries are narrowed
    the same way (and left out when they are not objects)."""
    ev = as_mapping(raw, what)
    out = _message(ev)
    if isinstance(new := ev.get("message"), Mapping):
        out["message"] = _message(new)
    if isinstance(old := ev.get("previous_message"), Mapping):
        out["previous_message"] = _message(old)
    return out


def _message(ev: Mapping[str, object]) -> SlackMessageEvent:
    out: SlackMessageEvent = {}
    if (value := opt_str(ev, "type")) is not None:
        out["type"] = value
    if (value := opt_str(ev, "subtype")) is not None:
        out["subtype"] = value
    if (value := opt_str(ev, "channel")) is not None:
        out["channel"] = value
    if (value := opt_str(ev, "user")) is not None:
        out["user"] = value
    if (value := opt_str(ev, "bot_id")) is not None:
        out["bot_id"] = value
    if (value := opt_str(ev, "text")) is not None:
        out["text"] = value
    if (value := opt_str(ev, "ts")) is not None:
        out["ts"] = value
    if (value := opt_str(ev, "thread_ts")) is not None:
        out["thread_ts"] = value
    if (value := opt_str(ev, "deleted_ts")) is not None:
        out["deleted_ts"] = value
    if isinstance(edited := ev.get("edited"), Mapping):
        out["edited"] = {} if (ts := _str(edited, "ts")) is None else {"ts": ts}
    if isinstance(files := ev.get("files"), list):
        out["files"] = [_file(f) for f in files if isinstance(f, Mapping)]
    if isinstance(attachments := ev.get("attachments"), list):
        out["attachments"] = [_attachment(a) for a in attachments if isinstance(a, Mapping)]
    if isinstance(blocks := ev.get("blocks"), list):
        out["blocks"] = [_block(b) for b in blocks if isinstance(b, Mapping)]
    if isinstance(profile := ev.get("user_profile"), Mapping):
        out["user_profile"] = _profile(profile)
    if isinstance(comment := ev.get("comment"), Mapping):
        out["comment"] = _comment(comment)
    return out


def _str(item: Mapping[str, object], key: str) -> str | None:
    """A decoration's string field, cleaned; None when missing or not a string."""
    value = item.get(key)
    return clean_str(value) if isinstance(value, str) else None


def _file(item: Mapping[str, object]) -> SlackFile:
    out: SlackFile = {}
    if (value := _str(item, "title")) is not None:
        out["title"] = value
    if (value := _str(item, "name")) is not None:
        out["name"] = value
    if (value := _str(item, "mode")) is not None:
        out["mode"] = value
    return out


def _attachment(item: Mapping[str, object]) -> SlackAttachment:
    out: SlackAttachment = {}
    if (value := _str(item, "title")) is not None:
        out["title"] = value
    if (value := _str(item, "from_url")) is not None:
        out["from_url"] = value
    if (value := _str(item, "original_url")) is not None:
        out["original_url"] = value
    if isinstance(share := item.get("is_share"), bool):
        out["is_share"] = share
    if (value := _str(item, "mode")) is not None:
        out["mode"] = value
    return out


def _block(item: Mapping[str, object]) -> SlackBlock:
    out: SlackBlock = {}
    if (value := _str(item, "type")) is not None:
        out["type"] = value
    if isinstance(elements := item.get("elements"), list):
        out["elements"] = _elements(elements, 0)
    return out


def _elements(items: list[object], depth: int) -> list[SlackBlockElement]:
    if depth > MAX_BLOCK_DEPTH:
        return []
    out: list[SlackBlockElement] = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        el: SlackBlockElement = {}
        if (value := _str(item, "type")) is not None:
            el["type"] = value
        if (value := _str(item, "text")) is not None:
            el["text"] = value
        if (value := _str(item, "url")) is not None:
            el["url"] = value
        if (value := _str(item, "user_id")) is not None:
            el["user_id"] = value
        if (value := _str(item, "channel_id")) is not None:
            el["channel_id"] = value
        if (value := _str(item, "range")) is not None:
            el["range"] = value
        if (value := _str(item, "name")) is not None:
            el["name"] = value
        if isinstance(elements := item.get("elements"), list):
            el["elements"] = _elements(elements, depth + 1)
        out.append(el)
    return out


def _profile(item: Mapping[str, object]) -> SlackUserProfile:
    out: SlackUserProfile = {}
    if (value := _str(item, "display_name")) is not None:
        out["display_name"] = value
    if (value := _str(item, "real_name")) is not None:
        out["real_name"] = value
    if (value := _str(item, "name")) is not None:
        out["name"] = value
    return out


def _comment(item: Mapping[str, object]) -> SlackFileComment:
    out: SlackFileComment = {}
    if (value := _str(item, "user")) is not None:
        out["user"] = value
    if (value := _str(item, "comment")) is not None:
        out["comment"] = value
    return out

