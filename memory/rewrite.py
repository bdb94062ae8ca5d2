"""Context-resolved rewrites: what a message means, readable without its neighbours.

Search, reranking and presentation use the rewrite (paper A.1). It names the speaker and
channel, resolves relative dates against the message's own time, and spells out what a short
reply or a revision refers to. Every node whose text is borrowed is recorded, so forgetting
that node can rewrite its dependants.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.reader.dates import Prefer, find_date_expressions, resolve_date
from memory.registry import StateRecord
from memory.text import is_agreement, shorten, tokens

_SHORT = 8


@dataclass
class Rewrite:
    text: str
    context_ids: list[str] = field(default_factory=list)


_FUTURE = re.compile(
    r"\b(will|won't|'ll|shall|going to|gonna|let's|lets|plan|planning|next|upcoming|"
    r"tomorrow|schedul\w*|moved? to|slips? to|push\w* to|postpon\w*|is on|are on|"
    r"see you|until|by|due|deadline|review|meeting|launch|release)\b",
    re.IGNORECASE,
)


def date_notes(text: str, message: Message) -> list[str]:
    """Resolve relative dates against the message's own time; plans point forward."""
    notes = []
    prefer: Prefer = "future" if _FUTURE.search(text) else "past"
    for expr in find_date_expressions(text)[:4]:
        res = resolve_date(expr, message.ts, prefer=prefer)
        if res is not None:
            notes.append(f"{expr} = {res.iso()}")
    return notes


def pre_rewrite(message: Message, parent: EvidenceNode | None) -> Rewrite:
    """The rewrite before a proposal exists: used for the message's vector."""
    where = f" in #{message.channel_name}" if message.channel_name else ""
    parts = [f"{message.speaker}{where}: {message.text.strip()}"]
    ctx: list[str] = []
    if parent is not None and (len(tokens(message.text)) <= _SHORT or is_agreement(message.text)):
        parts.append(f'(replying to {parent.speaker}: "{shorten(parent.text, 140)}")')
        ctx.append(parent.node_id)
    notes = date_notes(message.text, message)
    if notes:
        parts.append("[" + "; ".join(notes) + "]")
    return Rewrite(" ".join(parts), ctx)


def final_rewrite(
    base: Rewrite,
    proposal: Proposal,
    prior: StateRecord | None,
    *,
    llm_rewrite: str = "",
) -> Rewrite:
    """Add the verified state relation to the base rewrite (and the LLM's own, if any)."""
    text = base.text
    ctx = list(base.context_ids)
    if llm_rewrite and llm_rewrite.strip() and llm_rewrite.strip() not in text:
        text = f"{text} — {shorten(llm_rewrite, 300)}"
    if proposal.verdict is Verdict.REVISE and prior is not None:
        text += f" [revises {prior.topic}: {prior.value} → {proposal.source_quote}]"
        ctx.append(prior.active_node_id)
    elif proposal.verdict is Verdict.RESTATE and prior is not None:
        text += f" [confirms {prior.topic}: {prior.value}]"
        ctx.append(prior.active_node_id)
    elif proposal.verdict is Verdict.ESTABLISH and proposal.source_quote:
        text += f" [{proposal.topic}: {proposal.source_quote}]"
    return Rewrite(text, list(dict.fromkeys(ctx)))
