"""Slack message events → domain events (:class:`Message`, :class:`Edit`, :class:`Delete`).

Pure functions: no I/O, no clock. The live bot and the workspace-export importer both go
through :func:`normalize_message_event`, so an imported message and the same message seen
live get the same key (``slack``, team id, channel id, message ``ts``) and the same text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Literal

import emoji

from adapters.errors import PayloadError
from adapters.jsonl import clean_str, clean_text, parse_ts
from adapters.slack.payloads import (
    SlackAttachment,
    SlackBlock,
    SlackBlockElement,
    SlackFile,
    SlackMessageEvent,
    message_event,
)
from memory.errors import InputError
from memory.models import Delete, Edit, Message

logger = logging.getLogger(__name__)

PLATFORM = "slack"

# Subtypes that are a person saying something; every other subtype (channel_join,
# channel_topic, bot_message, pinned_item, …) is a system notice and is ignored.
# ``file_comment`` (older exports) carries its author in ``comment.user``.
_CONTENT_SUBTYPES = frozenset({"", "file_share", "thread_broadcast", "me_message",
                               "file_comment"})

# One left-to-right pass: code spans first (kept verbatim), then Slack's <…> references,
# then the three entities Slack escapes. A single pass never unescapes twice ("&amp;lt;").
_TOKENS = re.compile(
    r"(?P<code>```.*?```|`[^`\n]*`)"
    r"|<(?P<ref>[^<>]*)>"
    r"|&(?P<ent>amp|lt|gt);",
    re.DOTALL,
)
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}
# Slack writes emoji as :shortcodes: in message text; people see the characters. Custom
# workspace emoji (:shipit:) have no character and stay as typed.
_SHORTCODE = re.compile(r":[a-z0-9_+\-']{1,60}:")
_ENTITY = re.compile(r"&(amp|lt|gt);")
_BROADCASTS = frozenset({"here", "channel", "everyone"})


def escape_text(text: str) -> str:
    """Escape ``&``, ``<`` and ``>`` the way Slack requires in message text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape_text(text: str) -> str:
    """Undo :func:`escape_text` (only Slack's three entities; nothing else is touched)."""
    return _ENTITY.sub(lambda m: _ENTITIES[m.group(1)], text)


def render_text(text: str, *, users: Mapping[str, str]) -> str:
    """Render Slack mrkdwn references as a person reads them.

    ``<@U1>`` → ``@Name`` (``users`` maps id → display name; falls back to a ``|label`` or
    the id), ``<#C1|general>`` → ``#general``, ``<!here>`` → ``@here``, ``<!subteam^S1|@eng>``
    → ``@eng``, ``<https://x|label>`` → ``label (https://x)``, ``<https://x>`` → the URL.
    ``&amp;``/``&lt;``/``&gt;`` are unescaped; emoji shortcodes (``:blush:``) become the
    emoji (``😊``). Inside code spans and fences only the entities are unescaped: the code
    stays as typed. ``render_text(escape_text(s)) == s`` for text without shortcodes.
    """
    out: list[str] = []
    pos = 0
    for m in _TOKENS.finditer(text):
        out.append(_emojize(text[pos:m.start()]))
        if m.group("code") is not None:
            out.append(unescape_text(m.group("code")))
        elif m.group("ent") is not None:
            out.append(_ENTITIES[m.group("ent")])
        else:
            out.append(_render_ref(m.group("ref"), users))
        pos = m.end()
    out.append(_emojize(text[pos:]))
    return "".join(out)


def _emojize(text: str) -> str:
    if ":" not in text:
        return text
    return _SHORTCODE.sub(lambda m: emoji.emojize(m.group(0), language="alias"), text)


def _render_ref(body: str, users: Mapping[str, str]) -> str:
    target, _, label = body.partition("|")
    label = unescape_text(label)
    if target.startswith("@"):
        uid = target[1:]
        return "@" + (users.get(uid) or label or uid)
    if target.startswith("#"):
        return "#" + (label or target[1:])
    if target.startswith("!"):
        command = target[1:]
        if command in _BROADCASTS:
            return "@" + command
        if command.startswith("subteam^"):
            return label or "@" + command.removeprefix("subteam^")
        if command.startswith("date^"):
            return label or command
        return label or "@" + command
    url = unescape_text(target)
    if not label or label == url or url == "mailto:" + label:
        return label or url
    return f"{label} ({url})"


def message_permalink(base: str, *, channel: str, ts: str, thread_ts: str | None = None) -> str:
    """Slack's web permalink for a message; replies carry their thread so it opens there."""
    link = f"{base.rstrip('/')}/archives/{channel}/p{ts.replace('.', '')}"
    if thread_ts and thread_ts != ts:
        link += f"?thread_ts={thread_ts}&cid={channel}"
    return link


def normalize_message_event(
    event: object,
    *,
    team_id: str,
    users: Mapping[str, str],
    channel_name: str | None = None,
    permalink_base: str | None = None,
    strict: bool = False,
) -> Message | Edit | Delete | None:
    """Normalize one Slack ``message`` (or ``app_mention``) event, as received: it is
    narrowed to a :class:`~adapters.slack.payloads.SlackMessageEvent` first.

    Returns a :class:`Message` for a person's message, an :class:`Edit` for a
    ``message_changed`` whose rendered text changed, a :class:`Delete` for
    ``message_deleted`` (or a thread parent turned into a tombstone), and ``None`` for bot
    messages, system subtypes (joins, topic changes, …), unfurl-only changes and messages
    with neither text nor files.

    The message id is its ``ts`` string; ``thread_id`` is ``thread_ts`` when present;
    ``reply_to`` is ``thread_ts`` for replies (``thread_ts != ts``). ``users`` maps user id →
    display name. With ``permalink_base`` (``https://acme.slack.com``) a permalink is built.

    A malformed event (not an object, missing ``channel``/``ts``/``user``, bad types) returns
    ``None`` and is logged, or raises :class:`InputError` when ``strict``. Never raises
    anything else.
    """
    try:
        return _normalize(
            message_event(event),
            team_id=team_id,
            users=users,
            channel_name=channel_name,
            permalink_base=permalink_base,
        )
    except ValueError as exc:  # PayloadError
        if strict:
            raise InputError(f"malformed Slack message: {exc}") from exc
        logger.warning("ignoring malformed Slack message event: %s", exc)
        return None


def _normalize(
    ev: SlackMessageEvent,
    *,
    team_id: str,
    users: Mapping[str, str],
    channel_name: str | None,
    permalink_base: str | None,
) -> Message | Edit | Delete | None:
    kind = ev.get("type")
    if kind not in (None, "message", "app_mention"):
        return None
    subtype = ev.get("subtype") or ""
    if subtype == "message_changed":
        return _changed(ev, team_id=team_id, users=users)
    if subtype == "message_deleted":
        return _deleted(ev, team_id=team_id)
    if subtype not in _CONTENT_SUBTYPES or _is_bot(ev):
        return None

    channel = _req_str(ev, "channel")
    ts = _req_str(ev, "ts")
    if subtype == "file_comment":
        ev = _file_comment(ev)
        if not ev.get("user"):
            return None  # a comment whose author the export does not name
    user = _req_str(ev, "user")
    text = _content(ev, users)
    if not text.strip():
        return None
    thread_ts = ev.get("thread_ts")
    is_reply = thread_ts is not None and thread_ts != ts
    permalink = None
    if permalink_base:
        permalink = message_permalink(permalink_base, channel=channel, ts=ts, thread_ts=thread_ts)
    return Message(
        platform=PLATFORM,
        space=team_id,
        channel=channel,
        id=ts,
        user=user,
        user_name=_user_name(ev, user, users),
        ts=_ts(ts),
        text=text,
        thread_id=thread_ts,
        reply_to=thread_ts if is_reply else None,
        channel_name=channel_name,
        permalink=permalink,
        edited="edited" in ev,
    )


def _file_comment(ev: SlackMessageEvent) -> SlackMessageEvent:
    """A comment on a file as a message by its commenter: the comment's author and words
    (the message text also names the file, which the comment alone does not)."""
    comment = ev.get("comment")
    if comment is None:
        return ev
    out = ev.copy()
    user = comment.get("user")
    if user and not ev.get("user"):
        out["user"] = user
    words = comment.get("comment")
    if words is not None and words.strip() and not ev.get("text"):
        out["text"] = words
    return out


def skip_reason(event: SlackMessageEvent) -> str:
    """Why :func:`normalize_message_event` returned ``None`` for ``event`` (for import
    reports: every record is counted somewhere)."""
    subtype = event.get("subtype") or ""
    if subtype == "message_changed":
        return "an edit that changes no text (link preview or reply count)"
    if _is_bot(event):
        return "a bot's message"
    if subtype == "file_comment":
        return "a file comment without its author"
    if subtype not in _CONTENT_SUBTYPES:
        return f"a system notice ({subtype})"
    return "a message without text or files"


def _changed(
    ev: SlackMessageEvent, *, team_id: str, users: Mapping[str, str]
) -> Edit | Delete | None:
    channel = _req_str(ev, "channel")
    new = ev.get("message")
    if new is None:
        raise PayloadError("message_changed.message is not an object")
    msg_id = _req_str(new, "ts")
    if new.get("subtype") == "tombstone":
        # A thread parent deleted while replies remain arrives as a change to a tombstone.
        return Delete(
            platform=PLATFORM, space=team_id, channel=channel, id=msg_id, ts=_ts(_req_str(ev, "ts"))
        )
    if _is_bot(new) or (new.get("subtype") or "") not in _CONTENT_SUBTYPES:
        return None
    text = _content(new, users)
    if not text.strip():
        return None
    previous = ev.get("previous_message")
    if previous is not None and _content(previous, users) == text:
        return None  # unfurls and reply-count updates also arrive as message_changed
    edited_ts = new.get("edited", {}).get("ts")
    return Edit(
        platform=PLATFORM,
        space=team_id,
        channel=channel,
        id=msg_id,
        text=text,
        ts=_ts(edited_ts or _req_str(ev, "ts")),
    )


def _deleted(ev: SlackMessageEvent, *, team_id: str) -> Delete:
    channel = _req_str(ev, "channel")
    msg_id = ev.get("deleted_ts")
    if msg_id is None:
        previous = ev.get("previous_message")
        if previous is not None:
            msg_id = previous.get("ts")
    if not msg_id:
        raise PayloadError("message_deleted without 'deleted_ts'")
    return Delete(
        platform=PLATFORM, space=team_id, channel=channel, id=msg_id, ts=_ts(_req_str(ev, "ts"))
    )


def _is_bot(ev: SlackMessageEvent) -> bool:
    return bool(ev.get("bot_id")) or ev.get("subtype") == "bot_message"


def _content(ev: SlackMessageEvent, users: Mapping[str, str]) -> str:
    """The rendered text plus one ``[file: …]``/``[attachment: …]`` line per titled item."""
    raw = ev.get("text") or ""
    text = render_text(raw, users=users)
    if not text.strip():
        text = _blocks_text(ev.get("blocks", []), users)
    extras = [f"[file: {t}]" for t in _file_titles(ev.get("files", []))]
    extras += [f"[attachment: {t}]" for t in _attachment_titles(ev.get("attachments", []))]
    return clean_text("\n".join(part for part in (text, *extras) if part))


# Hidden (over the plan's limit) and tombstoned files have no title.
_UNTITLED = ("hidden_by_limit", "tombstone")


def _file_titles(files: list[SlackFile]) -> list[str]:
    titles = []
    for f in files:
        if f.get("mode") in _UNTITLED:
            continue
        title = _first_text(f.get("title"), f.get("name"))
        if title:
            titles.append(title)
    return titles


def _attachment_titles(attachments: list[SlackAttachment]) -> list[str]:
    titles = []
    for a in attachments:
        # Link previews repeat the URL already in the text.
        if a.get("from_url") or a.get("original_url") or a.get("is_share"):
            continue
        if a.get("mode") in _UNTITLED:
            continue
        title = _first_text(a.get("title"))
        if title:
            titles.append(title)
    return titles


def _first_text(*values: str | None) -> str:
    """The first of ``values`` with text in it, stripped and cleaned ("" when none has)."""
    for value in values:
        if value is not None and value.strip():
            return clean_str(value.strip())
    return ""


def _blocks_text(blocks: list[SlackBlock], users: Mapping[str, str]) -> str:
    """Plain text of ``rich_text`` blocks, for clients that send blocks with empty ``text``."""
    out: list[str] = []

    def walk(elements: list[SlackBlockElement]) -> None:
        # The narrowed payload holds MAX_BLOCK_DEPTH levels at most.
        for el in elements:
            kind = el.get("type")
            if kind in ("text", "link"):
                out.append(el.get("text") or el.get("url") or "")
            elif kind == "user" and "user_id" in el:
                uid = el["user_id"]
                out.append("@" + (users.get(uid) or uid))
            elif kind == "channel" and "channel_id" in el:
                out.append("#" + el["channel_id"])
            elif kind == "broadcast" and "range" in el:
                out.append("@" + el["range"])
            elif kind == "emoji" and "name" in el:
                out.append(f":{el['name']}:")
            else:
                walk(el.get("elements", []))
                if kind in ("rich_text_section", "rich_text_preformatted", "rich_text_quote"):
                    out.append("\n")

    for block in blocks:
        if block.get("type") == "rich_text":
            walk(block.get("elements", []))
    return "".join(out).strip()


def _user_name(ev: SlackMessageEvent, user: str, users: Mapping[str, str]) -> str:
    if users.get(user):
        return users[user]
    profile = ev.get("user_profile", {})
    return _first_text(profile.get("display_name"), profile.get("real_name"),
                       profile.get("name"))


# --- required fields -------------------------------------------------------------------------


def _req_str(ev: SlackMessageEvent, key: Literal["channel", "ts", "user"]) -> str:
    value = ev.get(key)
    if not value or not value.strip():
        raise PayloadError(f"missing field {key!r}", field=key)
    return value


def _ts(ts: str) -> datetime:
    try:
        return parse_ts(ts)
    except ValueError as exc:
        raise PayloadError(f"bad 'ts': {exc}") from exc
