"""Discord renderings of the decision views ("Is this still current?", weekly digests) and
the 👍/👎 buttons under every answer.

The buttons' ``custom_id`` (100 characters at most) carries a short token; the question
and the cited ids it stands for are kept in :class:`FeedbackCache` (in memory, bounded),
so a vote on an answer from before a restart is politely refused rather than misfiled.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

import discord

from adapters.discord.embeds import (
    ANSWER_COLOUR,
    DESCRIPTION_LIMIT,
    TIMELINE_COLOUR,
    add_fields,
    chain_field,
    channel_ref,
    clip,
    inline,
    jump,
    topic_label,
    when,
)
from memory.models import Answer, State
from memory.ports import MessageStatus

FEEDBACK_PREFIX = "egmem:fb:"
CURRENT_COMMAND = "Is this still current?"
STALE_COLOUR = discord.Colour.orange()


@dataclass(frozen=True)
class Rated:
    """What a feedback button stands for."""

    question: str
    node_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    abstained: bool
    asker: str
    space: str
    channel: str


class FeedbackCache:
    def __init__(self, *, size: int = 5000, ttl_s: float = 7 * 24 * 3600.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._items: OrderedDict[str, tuple[float, Rated]] = OrderedDict()
        self._size = size
        self._ttl = ttl_s
        self._clock = clock
        self._lock = threading.Lock()

    def put(self, rated: Rated) -> str:
        token = secrets.token_urlsafe(12)
        with self._lock:
            self._items[token] = (self._clock() + self._ttl, rated)
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return token

    def get(self, token: str) -> Rated | None:
        with self._lock:
            hit = self._items.get(token)
        if hit is None or hit[0] < self._clock():
            return None
        return hit[1]


def feedback_view(cache: FeedbackCache, answer: Answer, *, question: str, asker: str,
                  space: str, channel: str) -> discord.ui.View:
    """Two buttons, 👍 and 👎, under an answer; their clicks reach the client's
    ``on_interaction`` (see :func:`parse_feedback_id`)."""
    token = cache.put(Rated(
        question=question, node_ids=tuple(c.node_id for c in answer.citations[:10]),
        message_ids=tuple(c.message_id for c in answer.citations[:10]),
        abstained=answer.abstained, asker=asker, space=space, channel=channel))
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Helpful", emoji="👍",
                                    custom_id=f"{FEEDBACK_PREFIX}up:{token}",
                                    style=discord.ButtonStyle.secondary))
    view.add_item(discord.ui.Button(label="Not helpful", emoji="👎",
                                    custom_id=f"{FEEDBACK_PREFIX}down:{token}",
                                    style=discord.ButtonStyle.secondary))
    return view


def parse_feedback_id(custom_id: str) -> tuple[str, str] | None:
    """(vote, token) of a feedback button's ``custom_id``."""
    if not custom_id.startswith(FEEDBACK_PREFIX):
        return None
    vote, _, token = custom_id.removeprefix(FEEDBACK_PREFIX).partition(":")
    return (vote, token) if vote in ("up", "down") and token else None


def status_embed(status: MessageStatus) -> discord.Embed:
    """The ephemeral reply to "Is this still current?"."""
    state = status.state
    if status.role in ("unknown", "none") or state is None:
        text = ("This message doesn't set or change any decision I know of, so nothing has "
                "replaced it." if status.role == "none" else
                "I have no record of this message in the channels you can read.")
        return discord.Embed(title=CURRENT_COMMAND, description=text,
                             colour=discord.Colour.greyple())
    label = f"**{topic_label(inline(state.topic))}** in {channel_ref(state.channel)}"
    value = f"**{inline(status.value)}**" if status.value else ""
    if status.role == "set":
        what = f"This message set {label}" + (f" to {value}." if value else ".")
    elif value:
        what = f"This message talks about {label}, which was {value} when it was written."
    else:
        what = f"This message talks about {label}, decided after it was written."
    if status.current:
        text = f"✅ **Still current.** {what} Nothing has replaced it since."
        colour = ANSWER_COLOUR
    else:
        last = status.since[-1]
        n = len(status.since)
        text = (f"⚠️ **No longer current.** {what} Changed {'once' if n == 1 else f'{n} times'}"
                f" since: now **{inline(last.value or last.quote)}**, by {inline(last.speaker)} "
                f"on {when(last.ts, 'd')} {jump(last.permalink, '↗')}").rstrip()
        colour = STALE_COLOUR
    embed = discord.Embed(title=CURRENT_COMMAND, description=clip(text, DESCRIPTION_LIMIT),
                          colour=colour)
    if len(state.chain) > 1:
        add_fields(embed, [chain_field(state)])
    return embed


def digest_embed(states: Sequence[State], *, since: datetime, until: datetime) -> discord.Embed:
    """The weekly digest of one channel: each decision revised in the week, with its chain."""
    embed = discord.Embed(
        title="Weekly decision digest",
        description=f"Decisions that changed here from {when(since, 'd')} to "
                    f"{when(until, 'd')}. `/recall digest off` stops this.",
        colour=TIMELINE_COLOUR)
    add_fields(embed, (chain_field(s) for s in states))
    return embed
