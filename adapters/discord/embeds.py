"""Answers and decision timelines as Discord embeds.

Pure functions: domain objects in, :class:`discord.Embed` out, nothing sent. Every embed
stays inside Discord's limits (title 256, description 4096, 25 fields, field name 256,
field value 1024, footer 2048, 6000 characters in all); what does not fit is cut with an
ellipsis or counted in the footer, never rejected by the API. All chat and model text is
escaped (the description too), so a quote cannot break the surrounding markdown, mask a
link or mention anyone; times use Discord's ``<t:…>`` markup, which each reader's client
shows in their own time zone; channels are channel mentions (``<#…>``, shown with their
current name). An answer leads with the decision's chain ("now **Friday 10am** (Alice,
date) · was **4 pm** (Carmen)"), before the citations. Chains come from
:mod:`memory.timeline`, the timeline model every front end shares, so which value is
current is never re-derived here.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from datetime import datetime

import discord

from memory.models import Answer, Citation, State
from memory.timeline import build_timeline

logger = logging.getLogger(__name__)

TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
FIELD_COUNT_LIMIT = 25
FIELD_NAME_LIMIT = 256
FIELD_VALUE_LIMIT = 1024
FOOTER_LIMIT = 2048
TOTAL_LIMIT = 6000

QUOTE_LIMIT = 300
"""A citation quotes at most this much; the jump link leads to the rest."""

ANSWER_COLOUR = discord.Colour.blurple()
ABSTAIN_COLOUR = discord.Colour.greyple()
TIMELINE_COLOUR = discord.Colour.dark_teal()

_FOOTER_RESERVE = 120  # room kept for the footer while fields are added


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in ``…`` when cut."""
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"


def escape(text: str) -> str:
    """Chat text with markdown, masked links, mentions and ``<…>`` markup made inert
    (line breaks kept)."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(text)).replace(
        "<", "\\<")


def inline(text: str) -> str:
    """Chat text as one escaped line: whitespace collapsed, markdown and mentions inert."""
    return escape(" ".join(text.split()))


def topic_label(topic: str) -> str:
    """A state's topic as a label: one line, first letter capitalised."""
    text = " ".join(topic.split())
    return text[:1].upper() + text[1:] if text else "Decision"


def when(ts: datetime, style: discord.utils.TimestampStyle = "f") -> str:
    return discord.utils.format_dt(ts, style)


# A link target Discord's masked-link markdown cannot be broken out of: http(s) only, and
# none of the characters that end the target or start markup of their own.
_SAFE_URL = re.compile(r"https?://[^\s()\[\]<>\\`\"]+")


def jump(url: str | None, label: str = "jump") -> str:
    """``[label](url)`` for a plain http(s) URL; ``""`` for anything else (a permalink from
    an import is text anyone could have written)."""
    if not url or not _SAFE_URL.fullmatch(url):
        return ""
    return f"[{escape(label)}]({url})"


def channel_ref(channel_id: str, channel_name: str = "") -> str:
    """Discord's channel mention (a link showing the channel's current name); ``#name``
    for what is not a Discord channel id."""
    if channel_id.isdigit():
        return f"<#{channel_id}>"
    return "#" + inline(channel_name or channel_id)


def citation_field(index: int, citation: Citation) -> tuple[str, str]:
    """(name, value) of one citation: who; then where (a channel link, which a field name
    cannot hold), when, a jump link and what they said."""
    name = clip(f"[{index}] {inline(citation.speaker)}", FIELD_NAME_LIMIT)
    parts = (channel_ref(citation.channel, citation.channel_name), when(citation.ts),
             jump(citation.permalink))
    head = " · ".join(part for part in parts if part)
    quote = clip(inline(citation.quote), QUOTE_LIMIT) if citation.quote.strip() else ""
    value = head + (f"\n> {quote}" if quote else "")
    return name, clip(value, FIELD_VALUE_LIMIT)


def chain_lines(state: State) -> list[str]:
    """One line per entry of the state's timeline (:func:`memory.timeline.build_timeline`),
    oldest first: superseded values struck through (``~~old~~``), the current one in bold."""
    lines = []
    for entry in build_timeline(state):
        value = clip(inline(entry.value or entry.quote) or "(no value)", QUOTE_LIMIT)
        shown = f"**{value}**" if entry.current else f"~~{value}~~" if entry.superseded else value
        tail = " ".join(part for part in (when(entry.time, "d"), jump(entry.permalink, "↗"))
                        if part)
        lines.append(f"{shown} — {inline(entry.speaker)}, {tail}")
    return lines


def fit_lines(lines: Sequence[str], limit: int, *, head: str = "") -> str:
    """Join ``head`` and ``lines`` within ``limit`` characters, dropping the oldest (first)
    lines and saying how many were dropped; the newest line is always kept (clipped if it
    alone is too long)."""
    kept = list(lines)
    dropped = 0

    def render() -> str:
        body = ([f"… {dropped} earlier"] if dropped else []) + kept
        return "\n".join(([head] if head else []) + body)

    while len(kept) > 1 and len(render()) > limit:
        kept.pop(0)
        dropped += 1
    return clip(render(), limit)


def chain_summary(state: State, *, shown: int = 3) -> str:
    """``now **4 pm** (Alice, <date>) · was **3 pm** (Alice) · was **2 pm** (Erin)``: the
    current value with who set it and when, then the values it replaced, newest first."""
    entries = build_timeline(state)
    ordered = [e for e in entries if e.current] + [e for e in reversed(entries)
                                                   if e.superseded]
    if not ordered:
        return ""
    now = ordered[0]
    parts = [f"now **{clip(inline(now.value or now.quote), QUOTE_LIMIT)}** "
             f"({inline(now.speaker)}, {when(now.time, 'd')})"]
    parts += [f"was **{clip(inline(e.value or e.quote), QUOTE_LIMIT)}** ({inline(e.speaker)})"
              for e in ordered[1:shown]]
    if len(ordered) > shown:
        parts.append(f"+{len(ordered) - shown} earlier")
    link = jump(now.permalink, "↗")
    return " · ".join(parts) + (f" {link}" if link else "")


def chain_field(state: State) -> tuple[str, str]:
    """(name, value) of a revised state: its label, then its chain, current value first."""
    name = clip(topic_label(inline(state.topic)), FIELD_NAME_LIMIT)
    return name, clip(chain_summary(state), FIELD_VALUE_LIMIT)


def headline(answer: Answer) -> str:
    """The answer, escaped; a line the reader wrote about a revised decision
    (``topic: value (was …)``) becomes ``**Topic**: **value**``, its chain field says the
    rest with Discord timestamps."""
    text = answer.answer.strip()
    if not text:
        return "(no answer)"
    states = {" ".join(s.topic.split()).lower(): s for s in answer.states
              if len(s.chain) > 1 and s.topic.strip()}
    lines = []
    for line in text.splitlines():
        topic, sep, _ = line.partition(":")
        state = states.get(" ".join(topic.split()).lower()) if sep else None
        if state is None:
            lines.append(escape(line))
            continue
        current = next((e for e in build_timeline(state) if e.current), None)
        value = current.value if current and current.value else state.value
        lines.append(f"**{topic_label(inline(state.topic))}**: **{inline(value)}**")
    return "\n".join(lines)


def state_field(state: State) -> tuple[str, str]:
    """(name, value) of one state in a timeline: where and when, then its chain."""
    name = clip(topic_label(inline(state.topic)), FIELD_NAME_LIMIT)
    revisions = f"{state.revision_count} revision{'s' if state.revision_count != 1 else ''}"
    head = f"in {channel_ref(state.channel)} · {revisions} · updated {when(state.updated_at, 'R')}"
    lines = chain_lines(state)
    if not lines:
        value = clip(inline(state.value or state.description), QUOTE_LIMIT) or "(no value)"
        lines = [f"**{value}**"]
    return name, fit_lines(lines, FIELD_VALUE_LIMIT, head=head)


def add_fields(embed: discord.Embed, fields: Iterable[tuple[str, str]]) -> int:
    """Add fields in order while the embed stays within the field count and the total
    size (keeping room for a footer); returns how many were added."""
    added = 0
    for name, value in fields:
        if len(embed.fields) >= FIELD_COUNT_LIMIT:
            break
        if len(embed) + len(name) + len(value) > TOTAL_LIMIT - _FOOTER_RESERVE:
            break
        embed.add_field(name=name, value=value, inline=False)
        added += 1
    return added


def answer_embed(
    answer: Answer, *, question: str | None = None, max_citations: int = 10,
    pending: int = 0,
) -> discord.Embed:
    """The embed for an answer: the answer (escaped), then for every revised decision it
    used its chain, then up to ``max_citations`` citations (one field each). ``pending``
    (messages of the asking channel not read yet) is said in the footer."""
    embed = discord.Embed(
        title=clip(inline(question) if question else "egmem", TITLE_LIMIT),
        description=clip(headline(answer), DESCRIPTION_LIMIT),
        colour=ABSTAIN_COLOUR if answer.abstained else ANSWER_COLOUR,
    )
    chains = [chain_field(s) for s in answer.states if len(s.chain) >= 2]
    cites = [citation_field(i, c) for i, c in enumerate(answer.citations[:max_citations], 1)]
    add_fields(embed, chains)
    shown = add_fields(embed, cites)
    total = len(answer.citations)
    if total == 0:
        footer = "No supporting messages found in channels you can read."
    else:
        footer = f"{total} source{'s' if total != 1 else ''}"
        if shown < total:
            footer += f" ({total - shown} not shown)"
    if pending:
        footer += (f" · {pending}{'+' if pending >= 100 else ''} message"
                   f"{'s' if pending != 1 else ''} of this channel still being read")
    embed.set_footer(text=clip(footer, FOOTER_LIMIT))
    return embed


def timeline_embed(states: Sequence[State], *, topic: str) -> discord.Embed:
    """The embed for ``/recall history``: one field per state, each with its chain
    (superseded values struck through, the current one in bold)."""
    embed = discord.Embed(
        title=clip(f"History: {inline(topic)}", TITLE_LIMIT), colour=TIMELINE_COLOUR
    )
    if not states:
        embed.description = clip(
            f"Nothing recorded about “{inline(topic)}” in channels you can read.",
            DESCRIPTION_LIMIT,
        )
        return embed
    embed.description = "Oldest first; ~~struck through~~ = superseded, **bold** = current."
    shown = add_fields(embed, (state_field(s) for s in states))
    footer = f"{len(states)} decision{'s' if len(states) != 1 else ''}"
    if shown < len(states):
        footer += f" ({len(states) - shown} not shown)"
    embed.set_footer(text=footer)
    return embed
