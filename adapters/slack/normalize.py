"""Slack message events → domain events (:class:`Message`, :class:`Edit`, :class:`Delete`).

Pure functions: no I/O, no clock. The live bot and the workspace-export importer both go
through :func:`normalize_message_event`, so an imported message and the same message seen
live get the same key (``slack``, team id, channel id, message ``ts``) and the same text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

import emoji

from adapters.errors import PayloadError
from adapters.jsonl import as_mapping, clean_str, clean_text, opt_str, parse_ts
from adapters.slack.payloads import SlackAppMentionEvent, SlackMessageEvent
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
    event: SlackMessageEvent | SlackAppMentionEvent | Mapping[str, object],
    *,
    team_id: str,
    users: Mapping[str, str],
    channel_name: str | None = None,
    permalink_base: str | None = None,
    strict: bool = False,
) -> Message | Edit | Delete | None:
    """Normalize one Slack ``message`` (or ``app_mention``) event.

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
            event,
            team_id=team_id,
            users=users,
            channel_name=channel_name,
            permalink_base=permalink_base,
        )
    except ValueError as exc:  # includes pydantic.ValidationError
        if strict:
            raise InputError(f"malformed Slack message: {exc}") from exc
        logger.warning("ignoring malformed Slack message event: %s", exc)
        return None


def _normalize(
    event: object,
    *,
    team_id: str,
    users: Mapping[str, str],
    channel_name: str | None,
    permalink_base: str | None,
) -> Message | Edit | Delete | None:
    ev = as_mapping(event, "event")
    kind = opt_str(ev, "type")
    if kind not in (None, "message", "app_mention"):
        return None
    subtype = opt_str(ev, "subtype") or ""
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
        if not opt_str(ev, "user"):
            return None  # a comment whose author the export does not name
    user = _req_str(ev, "user")
    text = _content(ev, users)
    if not text.strip():
        return None
    thread_ts = opt_str(ev, "thread_ts")
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
        edited=isinstance(ev.get("edited"), Mapping),
    )


def _file_comment(ev: Mapping[str, object]) -> Mapping[str, object]:
    """A comment on a file as a message by its commenter: the comment's author and words
    (the message text also names the file, which the comment alone does not)."""
    comment = ev.get("comment")
    if not isinstance(comment, Mapping):
        return ev
    out = dict(ev)
    user = comment.get("user")
    if isinstance(user, str) and user and not opt_str(ev, "user"):
        out["user"] = user
    words = comment.get("comment")
    if isinstance(words, str) and words.strip() and not opt_str(ev, "text"):
        out["text"] = words
    return out


def skip_reason(event: Mapping[str, object]) -> str:
    """Why :func:`normalize_message_event` returned ``None`` for ``event`` (for import
    reports: every record is counted somewhere)."""
    subtype = opt_str(event, "subtype") or ""
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
    ev: Mapping[str, object], *, team_id: str, users: Mapping[str, str]
) -> Edit | Delete | None:
    channel = _req_str(ev, "channel")
    new = as_mapping(ev.get("message"), "message_changed.message")
    msg_id = _req_str(new, "ts")
    if opt_str(new, "subtype") == "tombstone":
        # A thread parent deleted while replies remain arrives as a change to a tombstone.
        return Delete(
            platform=PLATFORM, space=team_id, channel=channel, id=msg_id, ts=_ts(_req_str(ev, "ts"))
        )
    if _is_bot(new) or (opt_str(new, "subtype") or "") not in _CONTENT_SUBTYPES:
        return None
    text = _content(new, users)
    if not text.strip():
        return None
    previous = ev.get("previous_message")
    if isinstance(previous, Mapping) and _content(previous, users) == text:
        return None  # unfurls and reply-count updates also arrive as message_changed
    edited = new.get("edited")
    edited_ts = opt_str(edited, "ts") if isinstance(edited, Mapping) else None
    return Edit(
        platform=PLATFORM,
        space=team_id,
        channel=channel,
        id=msg_id,
        text=text,
        ts=_ts(edited_ts or _req_str(ev, "ts")),
    )


def _deleted(ev: Mapping[str, object], *, team_id: str) -> Delete:
    channel = _req_str(ev, "channel")
    msg_id = opt_str(ev, "deleted_ts")
    if msg_id is None:
        previous = ev.get("previous_message")
        if isinstance(previous, Mapping):
            msg_id = opt_str(previous, "ts")
    if not msg_id:
        raise PayloadError("message_deleted without 'deleted_ts'")
    return Delete(
        platform=PLATFORM, space=team_id, channel=channel, id=msg_id, ts=_ts(_req_str(ev, "ts"))
    )


def _is_bot(ev: Mapping[str, object]) -> bool:
    return bool(ev.get("bot_id")) or ev.get("subtype") == "bot_message"


def _content(ev: Mapping[str, object], users: Mapping[str, str]) -> str:
    """The rendered text plus one ``[file: …]``/``[attachment: …]`` line per titled item."""
    raw = opt_str(ev, "text") or ""
    text = render_text(raw, users=users)
    if not text.strip():
        text = _blocks_text(ev.get("blocks"), users)
    extras = [
        f"[file: {t}]" for t in _titles(ev.get("files"), ("title", "name"), skip_unfurls=False)
    ]
    extras += [
        f"[attachment: {t}]" for t in _titles(ev.get("attachments"), ("title",), skip_unfurls=True)
    ]
    return clean_text("\n".join(part for part in (text, *extras) if part))


def _titles(items: object, keys: Sequence[str], *, skip_unfurls: bool) -> list[str]:
    if not isinstance(items, list):
        return []
    titles = []
    for item in items:
        if not isinstance(item, Mapping):
            continue
        # Link previews repeat the URL already in the text; hidden/tombstoned files have no title.
        if skip_unfurls and (
            item.get("from_url") or item.get("original_url") or item.get("is_share")
        ):
            continue
        if item.get("mode") in ("hidden_by_limit", "tombstone"):
            continue
        for key in keys:
            value = item.get(key)
            if isinstance(value, str) and value.strip():
                titles.append(clean_str(value.strip()))
                break
    return titles


def _blocks_text(blocks: object, users: Mapping[str, str]) -> str:
    """Plain text of ``rich_text`` blocks, for clients that send blocks with empty ``text``."""
    out: list[str] = []

    def walk(elements: object, depth: int) -> None:
        if not isinstance(elements, list) or depth > 20:
            return
        for el in elements:
            if not isinstance(el, Mapping):
                continue
            kind = el.get("type")
            if kind in ("text", "link"):
                value = el.get("text") or el.get("url")
                out.append(value if isinstance(value, str) else "")
            elif kind == "user" and isinstance(el.get("user_id"), str):
                uid = str(el["user_id"])
                out.append("@" + (users.get(uid) or uid))
            elif kind == "channel" and isinstance(el.get("channel_id"), str):
                out.append("#" + str(el["channel_id"]))
            elif kind == "broadcast" and isinstance(el.get("range"), str):
                out.append("@" + str(el["range"]))
            elif kind == "emoji" and isinstance(el.get("name"), str):
                out.append(f":{el['name']}:")
            else:
                walk(el.get("elements"), depth + 1)
                if kind in ("rich_text_section", "rich_text_preformatted", "rich_text_quote"):
                    out.append("\n")

    if isinstance(blocks, list):
        for block in blocks:
            if isinstance(block, Mapping) and block.get("type") == "rich_text":
                walk(block.get("elements"), 0)
    return "".join(out).strip()


def _user_name(ev: Mapping[str, object], user: str, users: Mapping[str, str]) -> str:
    if users.get(user):
        return users[user]
    profile = ev.get("user_profile")
    if isinstance(profile, Mapping):
        for key in ("display_name", "real_name", "name"):
            value = profile.get(key)
            if isinstance(value, str) and value.strip():
                return clean_str(value.strip())
    return ""


# --- field access that reports, rather than raises on, surprising shapes -------------------


def _req_str(ev: Mapping[str, object], key: str) -> str:
    value = opt_str(ev, key)
    if not value or not value.strip():
        raise PayloadError(f"missing field {key!r}", field=key)
    return value


def _ts(ts: str) -> datetime:
    try:
        return parse_ts(ts)
    except ValueError as exc:
        raise PayloadError(f"bad 'ts': {exc}") from exc
