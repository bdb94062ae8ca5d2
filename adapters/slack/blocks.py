"""Block Kit rendering of egmem answers and decision timelines.

Pure functions, shared by ``app_mention`` replies and ``/recall``. All text that came from
people or models is escaped (``&``, ``<``, ``>``) so it cannot ping ``@channel`` or forge
links; times are Slack date tokens (``<!date^…>``), shown in each reader's own time zone,
with a UTC fallback. Slack's limits are respected: a section's text ≤ 3000 characters, a
message ≤ 50 blocks, a button value ≤ 2000 characters, a header ≤ 150 characters. Chains
come from :mod:`memory.timeline`, the timeline model every front end shares.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from adapters.slack.normalize import escape_text
from memory.models import Answer, Citation, EvidenceNode, State
from memory.timeline import TimelineEntry, build_timeline
from memory.timeline import timeline_text as chain_summary

Block = dict[str, Any]

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_CONTEXT_TEXT = 2000
MAX_HEADER_TEXT = 150
MAX_BUTTON_VALUE = 2000
MAX_CITATIONS = 10
MAX_QUOTE_CHARS = 600
MAX_CHAIN_IN_ANSWER = 3
MAX_STATES_IN_ANSWER = 5
MAX_FALLBACK_TEXT = 3000

SHARE_ACTION_ID = "egmem_share"

_SAFE_URL = re.compile(r"https?://[^\s<>|]+")


# --- text helpers ------------------------------------------------------------------------


def escape(text: str) -> str:
    """Escape user or model text for mrkdwn (``&``, ``<``, ``>`` only)."""
    return escape_text(text)


def fit(raw: str, limit: int) -> str:
    """Escape ``raw`` and shorten it (ending in ``…``) so the *escaped* text fits ``limit``
    characters, never cutting an entity in half."""
    text = escape(raw)
    while len(text) > limit and raw:
        raw = raw[: max(0, len(raw) - (len(text) - limit) - 1)].rstrip()
        text = escape(raw) + "…"
    return text


def one_line(text: str) -> str:
    return " ".join(text.split())


def slack_date(ts: datetime, fmt: str = "{date_short_pretty} {time}") -> str:
    """A Slack date token rendered in the reader's time zone, with a UTC fallback."""
    epoch = int(ts.timestamp())
    day = f"{ts:%b} {ts.day}, {ts:%Y}"
    fallback = f"{day} {ts:%H:%M} UTC" if "{time}" in fmt else day
    return f"<!date^{epoch}^{fmt}|{fallback}>"


def link(url: str | None, label: str) -> str:
    """``<url|label>`` for a plain http(s) URL; ``""`` for anything else (never injectable)."""
    if not url or not _SAFE_URL.fullmatch(url):
        return ""
    return f"<{url}|{escape(label)}>"


def code(text: str, limit: int = 80) -> str:
    """``text`` as inline code (an id): escaped, backticks removed so it cannot end early."""
    return "`" + fit(one_line(text).replace("`", ""), limit) + "`"


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:MAX_SECTION_TEXT]}}


def _context(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text[:MAX_CONTEXT_TEXT]}]}


def _header(text: str) -> Block:
    if len(text) > MAX_HEADER_TEXT:
        text = text[: MAX_HEADER_TEXT - 1] + "…"
    return {"type": "header", "text": {"type": "plain_text", "text": text, "emoji": False}}


# --- chains ------------------------------------------------------------------------------
# Which value is current and which were superseded comes from memory.timeline, the model every
# front end shares; this module only escapes and formats its entries.


def _entry_label(entry: TimelineEntry, *, strike: bool = False, bold: bool = False) -> str:
    value = fit(one_line(entry.value or entry.quote), 200)
    # A marker character inside the value would end the strike/bold early.
    if strike:
        value = "~" + value.replace("~", "∼") + "~"
    elif bold:
        value = "*" + value.replace("*", "∗") + "*"
    return f"{value} — {escape(one_line(entry.speaker))}, {slack_date(entry.time, '{date_short}')}"


def _newest_first(entries: Sequence[TimelineEntry]) -> list[TimelineEntry]:
    """The current entry, then the superseded ones newest first (as ``timeline_text``)."""
    return [e for e in entries if e.current] + [e for e in reversed(entries) if e.superseded]


def chain_line(state: State) -> str:
    """``*4 pm* — Alice, Nov 3 · was 3 pm — Alice, Nov 2``: the current value first, then
    the values it superseded, newest first; at most :data:`MAX_CHAIN_IN_ANSWER` entries
    (older ones counted)."""
    entries = _newest_first(build_timeline(state))
    if not entries:
        return ""
    parts = [_entry_label(entries[0], bold=True)]
    parts += ["was " + _entry_label(e) for e in entries[1:MAX_CHAIN_IN_ANSWER]]
    hidden = len(entries) - MAX_CHAIN_IN_ANSWER
    if hidden > 0:
        parts.append(f"+{hidden} earlier")
    return " · ".join(parts)


# --- answers -----------------------------------------------------------------------------


def citation_text(citation: Citation) -> str:
    """A quoted piece of evidence: the quote, then speaker · #channel · time · link."""
    quote = fit(citation.quote.strip(), MAX_QUOTE_CHARS)
    quoted = "\n".join("> " + line for line in quote.splitlines() or [""])
    meta = [f"*{escape(one_line(citation.speaker))}*"]
    if citation.channel_name:
        meta.append("#" + escape(one_line(citation.channel_name)))
    meta.append(slack_date(citation.ts))
    opened = link(citation.permalink, "open")
    if opened:
        meta.append(opened)
    return f"{quoted}\n— " + " · ".join(meta)


def answer_blocks(
    answer: Answer,
    *,
    question: str | None = None,
    share_value: str | None = None,
    shared_by: str | None = None,
) -> list[Block]:
    """Blocks for an :class:`Answer`: the answer, the chain of each revised state it used,
    the cited evidence, and (with ``share_value``) a "Share in channel" button whose value
    is ``share_value``. ``shared_by`` (a user id) adds "shared by" attribution."""
    blocks: list[Block] = []
    if question:
        blocks.append(_context("*Q:* " + fit(one_line(question), 500)))
    text = answer.answer.strip() or ("I couldn't find that." if answer.abstained else "")
    blocks.append(_section(fit(text, MAX_SECTION_TEXT)))
    if answer.abstained:
        blocks.append(_context("No supporting evidence in the channels this answer may read."))
    for state in [s for s in answer.states if len(s.chain) > 1][:MAX_STATES_IN_ANSWER]:
        topic = fit(one_line(state.topic), 150)
        blocks.append(_context(f"*{topic}*: {chain_line(state)}"))
    cites = answer.citations[:MAX_CITATIONS]
    if cites:
        blocks.append({"type": "divider"})
        label = "Evidence" if len(cites) == len(answer.citations) else (
            f"Evidence (top {len(cites)} of {len(answer.citations)})"
        )
        blocks.append(_context(label))
        blocks.extend(_section(citation_text(c)) for c in cites)
    if shared_by:
        blocks.append(_context(f"Shared by <@{shared_by}> via /recall"))
    tail: list[Block] = []
    if share_value is not None and len(share_value) <= MAX_BUTTON_VALUE:
        tail.append({
            "type": "actions",
            "elements": [{
                "type": "button",
                "action_id": SHARE_ACTION_ID,
                "text": {"type": "plain_text", "text": "Share in channel"},
                "value": share_value,
            }],
        })
    return blocks[: MAX_BLOCKS - len(tail)] + tail


def answer_text(answer: Answer) -> str:
    """Plain fallback text (notifications, screen readers) for an answer message."""
    return fit(answer.answer.strip() or "I couldn't find that.", MAX_FALLBACK_TEXT)


# --- timelines ---------------------------------------------------------------------------


def timeline_blocks(states: Sequence[State], *, topic: str) -> list[Block]:
    """Decision timelines: per state its current value and its chain oldest → newest,
    superseded values struck through (``~x~``), each entry linked to its message."""
    blocks: list[Block] = [_header(f"History: {one_line(topic)}")]
    if not states:
        blocks.append(_section(f"No decisions about _{fit(one_line(topic), 200)}_ found in "
                               "the channels you can read."))
        return blocks
    # header + per state (section + context + divider) + a possible "more" note
    room = (MAX_BLOCKS - 2) // 3
    for state in states[:room]:
        entries = build_timeline(state)
        # The timeline's current entry, so the headline never disagrees with the chain.
        now = next((e.value for e in entries if e.current and e.value), state.value)
        where = f" in <#{state.channel}>" if re.fullmatch(r"[A-Z0-9]+", state.channel) else ""
        blocks.append(_section(
            f"*{fit(one_line(state.topic), 200)}*{where} — now *{fit(one_line(now), 500)}*"
            + (f" ({state.revision_count} revision{'s' if state.revision_count != 1 else ''})"
               if state.revision_count else "")
            + f" · {code(state.state_id)}"
        ))
        lines = []
        for entry in entries:
            line = _entry_label(entry, strike=entry.superseded, bold=entry.current)
            opened = link(entry.permalink, "↗")
            lines.append(f"{line} {opened}".rstrip())
        if lines:  # Slack rejects an empty context element
            blocks.append(_context(_join_fitting(lines, MAX_CONTEXT_TEXT)))
        blocks.append({"type": "divider"})
    if len(states) > room:
        blocks.append(_context(f"{len(states) - room} more not shown; narrow the topic."))
    return blocks[:MAX_BLOCKS]


def _join_fitting(lines: Sequence[str], limit: int) -> str:
    """Join lines with newlines, keeping the newest (last) ones when over ``limit``."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > limit - 20:
            kept.append(f"… {len(lines) - len(kept)} earlier")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(reversed(kept))


def timeline_text(states: Sequence[State], *, topic: str) -> str:
    """Plain fallback text for a timeline message: a count, then one line per state with
    its current value and what it replaced (``memory.timeline.timeline_text``)."""
    lines = [f"History of {one_line(topic)}: {len(states)} decision(s)"]
    lines += [f"{one_line(s.topic)}: {one_line(chain_summary(s))}" for s in states]
    return fit("\n".join(lines), MAX_FALLBACK_TEXT)


# --- audits (/recall why) ------------------------------------------------------------------


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
    blocks: list[Block] = [_header("Why egmem remembers this"), _context(code(ident, 300))]
    if not nodes:
        blocks.append(_section("I have no record of that in the channels you can read."))
        return blocks
    room = (MAX_BLOCKS - 3) // 3
    for node in nodes[:room]:
        blocks.append(_section(evidence_text(node)))
        blocks.append(_context(_join_fitting(audit_lines(node), MAX_CONTEXT_TEXT)))
        blocks.append({"type": "divider"})
    if len(nodes) > room:
        blocks.append(_context(f"{len(nodes) - room} more messages not shown."))
    return blocks[:MAX_BLOCKS]


def audit_text(nodes: Sequence[EvidenceNode], *, ident: str) -> str:
    """Plain fallback text for an audit message."""
    if not nodes:
        return "I have no record of that in the channels you can read."
    n = len(nodes)
    return fit(f"Audit of {one_line(ident)}: {n} message{'s' if n != 1 else ''}",
               MAX_FALLBACK_TEXT)


# --- help and notices --------------------------------------------------------------------

HELP_TEXT = (
    "*egmem* remembers what this team decided, with the messages that say so.\n"
    "• `/recall <question>` — ask; the answer cites its evidence (only you see it until you"
    " press *Share in channel*)\n"
    "• `/recall history <topic>` — how a decision changed over time\n"
    "• `/recall why <message link | state id>` — how egmem read a message or a decision:"
    " the proposal, its verification and the evidence\n"
    "• `/recall forget <message link>` — remove one of your messages from egmem's memory"
    " (admins: any message)\n"
    "• `/recall help` — this text\n"
    "Mention me (`@egmem <question>`) to get an answer in the thread."
)


def help_blocks() -> list[Block]:
    return [_section(HELP_TEXT)]


def notice_blocks(text: str) -> list[Block]:
    """A single section of plain (escaped) text."""
    return [_section(fit(text, MAX_SECTION_TEXT))]
