"""Block Kit for ``/recall why``: how egmem read a message or a decision.

Unlike answers, an audit shows egmem's own ids (node and state ids): they are what the
audit is about, and what an operator passes to ``egmem why``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adapters.slack.blocks import (
    MAX_BLOCKS,
    MAX_CONTEXT_TEXT,
    MAX_FALLBACK_TEXT,
    MAX_QUOTE_CHARS,
    Block,
    code,
    context_block,
    escape,
    fit,
    header_block,
    join_fitting,
    link,
    one_line,
    section_block,
    slack_date,
)
from memory.models import EvidenceNode


def evidence_text(node: EvidenceNode) -> str:
    """The message behind a node, quoted, then speaker · #channel · time · link."""
    quote = fit(node.text.strip(), MAX_QUOTE_CHARS)
    quoted = "\n".join("> " + line for line in quote.splitlines() or [""])
    meta = [f"*{escape(one_line(node.speaker))}*"]
    meta.append("#" + escape(one_line(node.channel_name)) if node.channel_name
                else f"<#{node.channel}>" if re.fullmatch(r"[A-Z0-9]+", node.channel)
                else escape(node.channel))
    meta.append(slack_date(node.ts))
    opened = link(node.permalink, "open")
    if opened:
        meta.append(opened)
    return f"{quoted}\n— " + " · ".join(meta)


def audit_lines(node: EvidenceNode) -> list[str]:
    """What the writer proposed for ``node``, what verification made of it (with the
    reasons for any downgrade) and what was committed, one mrkdwn line each."""
    lines: list[str] = []
    prop = node.proposal
    if prop is None:
        lines.append("*Proposed:* no proposal recorded")
    else:
        parts = [f"*Proposed* by {escape(one_line(prop.proposer))}: {prop.verdict.value}"]
        if prop.topic:
            parts.append(f"topic _{fit(one_line(prop.topic), 150)}_")
        if prop.source_quote:
            parts.append(f"quote “{fit(one_line(prop.source_quote), 300)}”")
        if prop.prior_state_id:
            parts.append(f"prior {code(prop.prior_state_id)}")
        lines.append(" · ".join(parts))
    ver = node.verification
    if ver is None:
        lines.append("*Verified:* not verified")
    else:
        line = f"*Verified:* {ver.outcome.value} as {ver.verdict.value}"
        if ver.reasons:
            line += " — " + "; ".join(fit(one_line(r), 300) for r in ver.reasons)
        lines.append(line)
    committed = f"*Committed:* {node.verdict.value}"
    if node.state_id:
        committed += f" in {code(node.state_id)}"
    if node.value:
        committed += f" · value *{fit(one_line(node.value), 200).replace('*', '∗')}*"
    if node.supersedes:
        committed += f" · supersedes {code(node.supersedes)}"
    lines.append(committed)
    if node.rewrite and one_line(node.rewrite) != one_line(node.text):
        lines.append(f"*Indexed as:* {fit(one_line(node.rewrite), 500)}")
    return lines


def audit_blocks(nodes: Sequence[EvidenceNode], *, ident: str) -> list[Block]:
    """``/recall why``: per node the evidence (the message, linked) and its audit trail —
    proposal, verification outcome with downgrade reasons, commit. ``nodes`` must already
    be limited to what the asker may read; none gives the same reply as an unknown id, so
    the reply never reveals that an unreadable message exists."""
    blocks: list[Block] = [header_block("Why egmem remembers this"),
                           context_block(code(ident, 300))]
    if not nodes:
        blocks.append(section_block("I have no record of that in the channels you can read."))
        return blocks
    room = (MAX_BLOCKS - 3) // 3
    for node in nodes[:room]:
        blocks.append(section_block(evidence_text(node)))
        blocks.append(context_block(join_fitting(audit_lines(node), MAX_CONTEXT_TEXT)))
        blocks.append({"type": "divider"})
    if len(nodes) > room:
        blocks.append(context_block(f"{len(nodes) - room} more messages not shown."))
    return blocks[:MAX_BLOCKS]


def audit_text(nodes: Sequence[EvidenceNode], *, ident: str) -> str:
    """Plain fallback text for an audit message."""
    if not nodes:
        return "I have no record of that in the channels you can read."
    n = len(nodes)
    return fit(f"Audit of {one_line(ident)}: {n} message{'s' if n != 1 else ''}",
               MAX_FALLBACK_TEXT)


