"""``/recall`` parsing and the parts of ``/recall forget`` that talk to Slack.

``/recall <question>`` asks; ``/recall history <topic>`` shows a timeline; ``/recall forget
<message link>`` forgets one message; ``/recall help`` (or no text) shows help.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from slack_sdk.errors import SlackApiError
from slack_sdk.web import WebClient

from adapters.slack.webapi import call, error_code

logger = logging.getLogger(__name__)

RecallKind = Literal["ask", "history", "forget", "help", "usage"]

_SUBCOMMANDS = ("help", "history", "forget")
_LINK_PATH = re.compile(r"/archives/(?P<channel>[A-Z0-9]+)/p(?P<sec>\d{10})(?P<micro>\d{6})$")
MAX_QUESTION_CHARS = 1000


@dataclass(frozen=True)
class RecallRequest:
    kind: RecallKind
    arg: str = ""
    usage: str = ""


def parse_recall(text: str) -> RecallRequest:
    """Split ``/recall`` text into a subcommand and its argument. Only an exact first word
    ``help``/``history``/``forget`` selects a subcommand; anything else is a question."""
    text = text.strip()
    if not text:
        return RecallRequest("help")
    head, _, rest = text.partition(" ")
    word = head.lower()
    rest = rest.strip()
    if word not in _SUBCOMMANDS:
        if len(text) > MAX_QUESTION_CHARS:
            return RecallRequest("usage", usage=f"Please keep questions under "
                                                f"{MAX_QUESTION_CHARS} characters.")
        return RecallRequest("ask", text)
    if word == "help":
        return RecallRequest("help")
    if not rest:
        what = "a topic, e.g. `/recall history deploy window`" if word == "history" else (
            "a message link (⋯ → Copy link), e.g. `/recall forget https://acme.slack.com/"
            "archives/C123/p1712345678000200`"
        )
        return RecallRequest("usage", usage=f"`/recall {word}` needs {what}.")
    return RecallRequest(word, rest)  # type: ignore[arg-type]


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


def share_value(question: str) -> str:
    """The Share button's payload: the question, re-asked when the button is pressed."""
    return json.dumps({"q": question}, ensure_ascii=False)


def shared_question(value: str) -> str | None:
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return None
    q = data.get("q") if isinstance(data, dict) else None
    return q if isinstance(q, str) and q.strip() else None


def mention_question(text: str, *, bot_user_id: str | None) -> str:
    """The question in an ``@egmem …`` mention: the text with the bot's mention removed."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(\|[^>]*)?>", " ", text)
    return " ".join(text.split())
