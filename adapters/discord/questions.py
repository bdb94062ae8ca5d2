"""Which Discord messages are questions to egmem (answered, never remembered).

One rule for every way a message reaches egmem: live on the gateway
(:mod:`adapters.discord.bot`) and read back from history (:mod:`adapters.discord.backfill`).
A message that names the bot in its text (``<@id>``, or its managed role) is a question;
a reply to the bot pings it without naming it in the text, which is conversation.
"""

from __future__ import annotations

import re

import discord

from adapters.discord.embeds import clip
from adapters.discord.normalize import render_content

QUESTION_LIMIT = 1000


def question_in(message: discord.Message, me: discord.abc.Snowflake | None) -> str | None:
    """The question ``message`` asks the bot ``me``, else ``None`` (an empty question is
    ``""``: still addressed to the bot)."""
    if me is None:
        return None
    role = message.guild.self_role if message.guild is not None else None
    named = me.id in message.raw_mentions or (
        role is not None and role.id in message.raw_role_mentions
    )
    if not named:
        return None
    content = re.sub(rf"<@!?{me.id}>", " ", message.content)
    if role is not None:
        content = content.replace(f"<@&{role.id}>", " ")
    rendered = render_content(
        content,
        users={str(u.id): u.display_name for u in message.mentions},
        channels={str(c.id): c.name for c in message.channel_mentions},
        roles={str(r.id): r.name for r in message.role_mentions},
    )
    return clip(" ".join(rendered.split()), QUESTION_LIMIT)
