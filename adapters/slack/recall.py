"""``/recall`` parsing, button payloads, and the parts of ``/recall why`` and ``/recall
forget`` that talk to Slack.

``/recall <question>`` asks; ``/recall history <topic>`` shows a timeline; ``/recall why
<message link | state id>`` shows how egmem read a message or a decision; ``/recall forget
<message link>`` forgets one message; ``/recall digest on|off`` turns the channel's weekly
digest on or off; ``/recall backfill [since YYYY-MM-DD]`` (admins) imports the channel's
history inside the running bot; ``/recall help`` (or no text) shows help.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable
from urllib.parse import parse_qs, urlsplit

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from adapters.slack.webapi import call, error_code
from memory.models import EvidenceNode, MessageKey

logger = logging.getLogger(__name__)

RecallKind = Literal["ask", "history", "why", "forget", "digest", "backfill", "help", "usage"]

_SUBCOMMANDS = ("help", "history", "why", "forget", "digest", "backfill")
_SINCE = re.compile(r"(?:since\s+)?(\d{4}-\d{2}-\d{2})")
# What `/recall why` takes besides a link: egmem's node/state ids and bare Slack message ts.
_AUDIT_ID = re.compile(r"[ns]_[0-9a-f]{8,64}|\d{10}\.\d{6}")
_LINK_PATH = re.compile(r"/archives/(?P<channel>[A-Z0-9]+)/p(?P<sec>\d{10})(?P<micro>\d{6})$")
MAX_QUESTION_CHARS = 1000


@dataclass(frozen=True)
class RecallRequest:
    kind: RecallKind
    arg: str = ""
    usage: str = ""


def parse_recall(text: str) -> RecallRequest:
    """Split ``/recall`` text into a subcommand and its argument. Only an exact first word
    ``help``/``history``/``why``/``forget`` selects a subcommand; anything else is a
    question. ``why`` followed by more than a link or an id (``why did we move the
    deploy?``) is a question too."""
    text = text.strip()
    if not text:
        return RecallRequest("help")
    head, _, rest = text.partition(" ")
    word = head.lower()
    rest = rest.strip()
    if word == "why" and rest and not _is_audit_target(rest):
        word = ""  # an ordinary question that starts with "why"
    if word == "digest" and rest.lower() not in ("on", "off", ""):
        word = ""  # "digest of last week's decisions?" is a question
    if word == "backfill" and rest and not _SINCE.fullmatch(rest.strip()):
        word = ""
    if word not in _SUBCOMMANDS:
        if len(text) > MAX_QUESTION_CHARS:
            return RecallRequest("usage", usage=f"Please keep questions under "
                                                f"{MAX_QUESTION_CHARS} characters.")
        return RecallRequest("ask", text)
    if word == "help":
        return RecallRequest("help")
    if word == "backfill":
        m = _SINCE.fullmatch(rest.strip())
        return RecallRequest("backfill", m.group(1) if m else "")
    if not rest:
        what = {
            "history": "a topic, e.g. `/recall history deploy window`",
            "why": "a message link (⋯ → Copy link) or a state id from `/recall history`, e.g. "
                   "`/recall why https://acme.slack.com/archives/C123/p1712345678000200`",
            "forget": "a message link (⋯ → Copy link), e.g. `/recall forget "
                      "https://acme.slack.com/archives/C123/p1712345678000200`",
            "digest": "`on` or `off`, e.g. `/recall digest on`",
        }[word]
        return RecallRequest("usage", usage=f"`/recall {word}` needs {what}.")
    if word == "digest":
        return RecallRequest("digest", rest.lower())
    return RecallRequest(word, rest)  # type: ignore[arg-type]


def _is_audit_target(rest: str) -> bool:
    """One token that is a link (any; a wrong one gets a helpful reply) or an egmem id."""
    if len(rest.split()) != 1:
        return False
    return rest.lstrip("<").lower().startswith(("http://", "https://")) or bool(
        _AUDIT_ID.fullmatch(rest))


@runtime_checkable
class Auditor(Protocol):
    """The part of the memory service ``/recall why`` needs (``memory.ports.RecallPort.why``)."""

    def why(self, ident: str, *, platform: str, space: str, user: str | None,
            channel: str | None) -> list[EvidenceNode]: ...


def audit_ident(target: str, *, platform: str, space: str) -> str | None:
    """What to look up for ``/recall why <target>``: a message link becomes that message's
    node id (deterministic, see :meth:`MessageKey.node_id`); an id is used as given.
    ``None`` for a link that is not a Slack message link."""
    target = target.strip()
    if _AUDIT_ID.fullmatch(target):
        return target
    link = parse_permalink(target)
    if link is None:
        return None
    return MessageKey(platform=platform, space=space, channel=link.channel,
                      message_id=link.ts).node_id()


@dataclass(frozen=True)
class MessageLink:
    channel: str
    ts: str
    thread_ts: str | None = None


def parse_permalink(text: str) -> MessageLink | None:
    """``https://acme.slack.com/archives/C123/p1712345678000200[?thread_ts=…]`` (also wrapped
    as ``<url>`` or ``<url|label>``) → channel and message ``ts`` (``1712345678.000200``)."""
    raw = text.strip()
    if raw.startswith("<") and raw.endswith(">"):
        raw = raw[1:-1].partition("|")[0]
    try:
        parts = urlsplit(raw)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    m = _LINK_PATH.search(parts.path)
    if m is None:
        return None
    thread = parse_qs(parts.query).get("thread_ts", [None])[0]
    if thread is not None and not re.fullmatch(r"\d{10}\.\d{6}", thread):
        thread = None
    return MessageLink(channel=m["channel"], ts=f"{m['sec']}.{m['micro']}", thread_ts=thread)


def message_author(client: WebClient, link: MessageLink) -> str | None:
    """The user id that wrote the linked message, or ``None`` if Slack will not show it
    (deleted, or a conversation the bot cannot read). Never waits out rate limits long:
    a person is waiting for the reply."""
    try:
        if link.thread_ts and link.thread_ts != link.ts:
            response = call(client.conversations_replies, max_waits=1, channel=link.channel,
                            ts=link.thread_ts, latest=link.ts, oldest=link.ts, inclusive=True,
                            limit=2)
        else:
            response = call(client.conversations_history, max_waits=1, channel=link.channel,
                            latest=link.ts, oldest=link.ts, inclusive=True, limit=1)
    except SlackApiError as exc:
        logger.info("cannot look up message author in %s: %s", link.channel, error_code(exc))
        return None
    for msg in response.get("messages") or []:
        if isinstance(msg, dict) and msg.get("ts") == link.ts:
            user = msg.get("user")
            return user if isinstance(user, str) else None
    return None


@dataclass(frozen=True)
class FeedbackPayload:
    """What the 👍/👎 buttons carry (see :func:`adapters.slack.blocks.feedback_value`)."""

    question: str
    node_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    abstained: bool
    asker: str


def parse_feedback(value: str) -> FeedbackPayload | None:
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("q"), str):
        return None

    def ids(key: str) -> tuple[str, ...]:
        raw = data.get(key)
        return tuple(str(x) for x in raw if isinstance(x, str)) if isinstance(raw, list) else ()

    asker = data.get("u")
    return FeedbackPayload(question=data["q"], node_ids=ids("n"), message_ids=ids("m"),
                           abstained=bool(data.get("a")),
                           asker=asker if isinstance(asker, str) else "")


def mentions_user(text: str, user_id: str | None) -> bool:
    """Whether Slack message text mentions ``user_id`` (``<@U…>`` or ``<@U…|name>``)."""
    return bool(user_id) and re.search(rf"<@{re.escape(str(user_id))}(\|[^>]*)?>", text) is not None


def mention_question(text: str, *, bot_user_id: str | None) -> str:
    """The question in an ``@egmem …`` mention: the text with the bot's mention removed."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(\|[^>]*)?>", " ", text)
    return " ".join(text.split())
