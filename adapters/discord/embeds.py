"""Answers and decision timelines as Discord embeds.

Pure functions: domain objects in, :class:`discord.Embed` out, nothing sent. Every embed
stays inside Discord's limits (title 256, description 4096, 25 fields, field name 256,
field value 1024, footer 2048, 6000 characters in all); what does not fit is cut with an
ellipsis or counted in the footer, never rejected by the API. Chat text is escaped, so a
quote cannot break the surrounding markdown; times use Discord's ``<t:…>`` markup, which each
reader's client shows in their own time zone. Chains come from :mod:`memory.timeline`, the
timeline model every front end shares, so which value is current is never re-derived here.
"""

from __future__ import annotations

import logging
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


def inline(text: str) -> str:
    """Chat text as one escaped line: whitespace collapsed, markdown and mentions inert."""
    flat = " ".join(text.split())
    return discord.utils.escape_markdown(discord.utils.escape_mentions(flat))


def when(ts: datetime, style: discord.utils.TimestampStyle = "f") -> str:
    return discord.utils.format_dt(ts, style)


def jump(url: str | None, label: str = "jump") -> str:
    return f"[{label}]({url})" if url else ""


def channel_ref(channel_id: str, channel_name: str = "") -> str:
    """``#name`` when known, else Discord's channel mention (rendered as a link)."""
    if channel_name:
        return "#" + inline(channel_name)
    return f"<#{channel_id}>" if channel_id.isdigit() else "#" + inline(channel_id)


def citation_field(index: int, citation: Citation) -> tuple[str, str]:
    """(name, value) of one citation: who, where, when, what they said and a jump link."""
    name = clip(
        f"[{index}] {inline(citation.speaker)} in "
        f"{channel_ref(citation.channel, citation.channel_name)}",
        FIELD_NAME_LIMIT,
    )
    head = " · ".join(part for part in (when(citation.ts), jump(citation.permalink)) if part)
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


def chain_field(state: State) -> tuple[str, str]:
    """(name, value) of a revised state: how the value changed, oldest first."""
    name = clip(f"Changed: {inline(state.topic) or 'decision'}", FIELD_NAME_LIMIT)
    return name, fit_lines(chain_lines(state), FIELD_VALUE_LIMIT)


def state_field(state: State) -> tuple[str, str]:
    """(name, value) of one state in a timeline: where and when, then its chain."""
    name = clip(inline(state.topic) or "decision", FIELD_NAME_LIMIT)
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
    answer: Answer, *, question: str | None = None, max_citations: int = 10
) -> discord.Embed:
    """The embed for an answer: the answer text, up to ``max_citations`` citations (one
    field each) and, for every state the answer used that was revised, its chain."""
    embed = discord.Embed(
        title=clip(inline(question) if question else "egmem", TITLE_LIMIT),
        description=clip(answer.answer.strip() or "(no answer)", DESCRIPTION_LIMIT),
        colour=ABSTAIN_COLOUR if answer.abstained else ANSWER_COLOUR,
    )
    cites = [citation_field(i, c) for i, c in enumerate(answer.citations[:max_citations], 1)]
    chains = [chain_field(s) for s in answer.states if len(s.chain) >= 2]
    shown = add_fields(embed, cites)
    add_fields(embed, chains)
    total = len(answer.citations)
    if total == 0:
        footer = "No supporting messages found in channels you can read."
    else:
        footer = f"{total} source{'s' if total != 1 else ''}"
        if shown < total:
            footer += f" ({total - shown} not shown)"
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
