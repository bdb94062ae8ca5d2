"""Block Kit rendering of egmem answers and decision timelines.

Pure functions, shared by ``app_mention`` replies, DMs and ``/recall``. The layout puts the
answer first and the decision's chain right under it ("now *Friday 11 am* (Alice, Nov 6) ·
was *4 pm* (Carmen) · was *Thursday 3 pm* (Erin)"), then the quoted evidence, then the
buttons. All text that came from people or models is escaped (``&``, ``<``, ``>``) so it
cannot ping ``@channel`` or forge links; channels are channel links (``<#C…>``, shown with
their current name); every time is a Slack date token (``<!date^…>``, shown in each
reader's own time zone, linked to the message where known). No internal id is shown.
Slack's limits are respected: a section's text ≤ 3000 characters, a message ≤ 50 blocks,
a button value ≤ 2000 characters, a header ≤ 150 characters. Chains come from
:mod:`memory.timeline`, the timeline model every front end shares.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adapters.slack.normalize import escape_text
from memory.models import Answer, Citation, State
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
FEEDBACK_UP_ACTION_ID = "egmem_feedback_up"
FEEDBACK_DOWN_ACTION_ID = "egmem_feedback_down"

_SAFE_URL = re.compile(r"https?://[^\s<>|^]+")
_SLACK_ID = re.compile(r"[CGD][A-Z0-9]+")


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


def bold(text: str, limit: int = 200) -> str:
    """``*text*`` escaped; a ``*`` inside would end the bold early, so it is replaced."""
    return "*" + fit(one_line(text), limit).replace("*", "∗") + "*"


def topic_label(topic: str) -> str:
    """A state's topic as a label: one line, first letter capitalised (``Design review``)."""
    text = one_line(topic)
    return text[:1].upper() + text[1:] if text else "Decision"


def slack_date(ts: datetime, fmt: str = "{date_short_pretty} {time}", *,
               url: str | None = None) -> str:
    """A Slack date token rendered in the reader's time zone (linked to ``url`` when it is
    a plain http(s) URL), with a UTC fallback for clients that cannot render it."""
    epoch = int(ts.timestamp())
    day = f"{ts:%b} {ts.day}, {ts:%Y}"
    fallback = f"{day} {ts:%H:%M} UTC" if "{time}" in fmt else day
    target = f"^{url}" if url and _SAFE_URL.fullmatch(url) else ""
    return f"<!date^{epoch}^{fmt}{target}|{fallback}>"


def link(url: str | None, label: str) -> str:
    """``<url|label>`` for a plain http(s) URL; ``""`` for anything else (never injectable)."""
    if not url or not _SAFE_URL.fullmatch(url):
        return ""
    return f"<{url}|{escape(label)}>"


def channel_link(channel: str, name: str = "") -> str:
    """``<#C…>`` (Slack shows the channel's current name and links it); a DM is named as
    such; anything that is not a Slack id is shown as ``#name`` text."""
    if channel.startswith("D") and _SLACK_ID.fullmatch(channel):
        return "a direct message"
    if _SLACK_ID.fullmatch(channel):
        return f"<#{channel}>"
    return "#" + escape(one_line(name or channel))


def code(text: str, limit: int = 80) -> str:
    """``text`` as inline code (an id): escaped, backticks removed so it cannot end early."""
    return "`" + fit(one_line(text).replace("`", ""), limit) + "`"


def section_block(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:MAX_SECTION_TEXT]}}


def context_block(text: str) -> Block:
    return {"type": "context", "elements": [{"type": "mrkdwn", "text": text[:MAX_CONTEXT_TEXT]}]}


def header_block(text: str) -> Block:
    if len(text) > MAX_HEADER_TEXT:
        text = text[: MAX_HEADER_TEXT - 1] + "…"
    return {"type": "header", "text": {"type": "plain_text", "text": text, "emoji": True}}


def button(text: str, action_id: str, *, value: str, style: str | None = None) -> Block:
    out: Block = {"type": "button", "action_id": action_id,
                  "text": {"type": "plain_text", "text": text, "emoji": True}, "value": value}
    if style:
        out["style"] = style
    return out


def join_fitting(lines: Sequence[str], limit: int) -> str:
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


# --- chains ------------------------------------------------------------------------------
# Which value is current and which were superseded comes from memory.timeline, the model every
# front end shares; this module only escapes and formats its entries.


def _newest_first(entries: Sequence[TimelineEntry]) -> list[TimelineEntry]:
    """The current entry, then the superseded ones newest first."""
    return [e for e in entries if e.current] + [e for e in reversed(entries) if e.superseded]


def chain_line(state: State) -> str:
    """``now *4 pm* (Alice, <date>) · was *3 pm* (Alice) · was *2 pm* (Erin)``: the current
    value with who set it and when (the date links to the message), then the values it
    superseded, newest first; at most :data:`MAX_CHAIN_IN_ANSWER` entries (older ones
    counted)."""
    entries = _newest_first(build_timeline(state))
    if not entries:
        return ""
    now = entries[0]
    parts = [f"now {bold(now.value or now.quote)} ({escape(one_line(now.speaker))}, "
             f"{slack_date(now.time, '{date_short_pretty}', url=now.permalink)})"]
    parts += [f"was {bold(e.value or e.quote)} ({escape(one_line(e.speaker))})"
              for e in entries[1:MAX_CHAIN_IN_ANSWER]]
    hidden = len(entries) - MAX_CHAIN_IN_ANSWER
    if hidden > 0:
        parts.append(f"+{hidden} earlier")
    return " · ".join(parts)


def state_block(state: State, *, where: bool = False, label: bool = True) -> Block:
    """One decision: its label (and channel), then its chain; without ``label`` the chain
    alone (the line above already names the decision)."""
    if not label:
        return section_block(chain_line(state))
    head = f"*{fit(topic_label(state.topic), 150).replace('*', '∗')}*"
    if where:
        head += f" in {channel_link(state.channel)}"
    return section_block(f"{head}\n{chain_line(state)}")


def _revised(answer: Answer) -> list[State]:
    return [s for s in answer.states if len(s.chain) > 1][:MAX_STATES_IN_ANSWER]


def _named(answer: Answer) -> set[str]:
    """State ids whose label the headline shows (see :func:`headline`)."""
    states = {one_line(s.topic).lower(): s.state_id for s in _revised(answer)}
    named = set()
    for line in answer.answer.strip().splitlines():
        topic, sep, _ = line.partition(":")
        if sep and one_line(topic).lower() in states:
            named.add(states[one_line(topic).lower()])
    return named


def headline(answer: Answer) -> str:
    """The answer itself, one line per finding. A line the reader wrote about a revised
    decision (``topic: value (was …)``) becomes ``*Topic*: *value*``: the chain block
    right below says what it replaced, by whom and when, with date tokens."""
    text = answer.answer.strip()
    if not text:
        return "I couldn't find that in the channels you can read." if answer.abstained else ""
    states = {one_line(s.topic).lower(): s for s in _revised(answer) if s.topic.strip()}
    lines = []
    for line in text.splitlines():
        topic, sep, _ = line.partition(":")
        state = states.get(one_line(topic).lower()) if sep else None
        if state is not None:
            current = next((e for e in build_timeline(state) if e.current), None)
            value = current.value if current and current.value else state.value
            lines.append(f"*{fit(topic_label(state.topic), 150).replace('*', '∗')}*: "
                         f"{bold(value, 500)}")
        else:
            lines.append(fit(line, MAX_SECTION_TEXT))
    return "\n".join(lines)


# --- answers -----------------------------------------------------------------------------


def citation_text(citation: Citation) -> str:
    """A quoted piece of evidence: the quote, then speaker in #channel · date (linked)."""
    quote = fit(citation.quote.strip(), MAX_QUOTE_CHARS)
    quoted = "\n".join("> " + line for line in quote.splitlines() or [""])
    where = channel_link(citation.channel, citation.channel_name)
    when = slack_date(citation.ts, "{date_short_pretty} {time}", url=citation.permalink)
    return f"{quoted}\n— *{escape(one_line(citation.speaker))}* in {where} · {when}"


@dataclass(frozen=True)
class ShareOffer:
    """What the answer says about sharing: a button (``value``), or why not (``withheld``:
    channels of what it shows that not everyone here may read; ``missing``: shown messages
    gone since; ``private_scope``: it was looked up in conversations not everyone here may
    read; ``unverified``: who reads this channel is not known yet)."""

    value: str | None = None
    withheld: tuple[str, ...] = ()
    missing: int = 0
    private_scope: bool = False
    unverified: bool = False

    @property
    def refused(self) -> bool:
        return bool(self.withheld or self.missing or self.private_scope or self.unverified)


def feedback_value(answer: Answer, *, question: str, asker: str) -> str:
    """The feedback buttons' payload: the question, the cited node and message ids, whether
    the answer abstained and who asked, within Slack's 2000 characters."""
    ids = [c.node_id for c in answer.citations][:MAX_CITATIONS]
    msgs = [c.message_id for c in answer.citations][:MAX_CITATIONS]
    q = question
    while True:
        value = json.dumps({"q": q, "n": ids, "m": msgs, "a": answer.abstained, "u": asker},
                           ensure_ascii=False)
        if len(value) <= MAX_BUTTON_VALUE or not q:
            return value
        q = q[: max(0, len(q) - (len(value) - MAX_BUTTON_VALUE) - 8)]


def answer_blocks(
    answer: Answer,
    *,
    question: str | None = None,
    share: ShareOffer | None = None,
    shared_by: str | None = None,
    pending: int = 0,
    feedback: str | None = None,
) -> list[Block]:
    """Blocks for an :class:`Answer`: the answer first, then the chain of each revised
    decision it used, a note when the asking channel still has messages being read
    (``pending``), the cited evidence, and the buttons: 👍/👎 (``feedback``, their value)
    and *Share in channel* (``share``; or a note saying what sharing would withhold).
    ``shared_by`` (a user id) marks a shared copy."""
    blocks: list[Block] = [section_block(headline(answer))]
    if question:
        blocks.append(context_block("*Q:* " + fit(one_line(question), 500)
                                    + (f" · shared by <@{shared_by}>" if shared_by else "")))
    named = _named(answer)
    blocks.extend(state_block(s, label=s.state_id not in named) for s in _revised(answer))
    if answer.abstained:
        blocks.append(context_block(
            "No supporting evidence in the channels this answer may read. Try "
            "`/recall history &lt;topic&gt;`, or ask in the channel where it was discussed."))
    if pending:
        more = "+" if pending >= 100 else ""
        blocks.append(context_block(
            f":hourglass_flowing_sand: {pending}{more} message{'s' if pending != 1 else ''} "
            "of this channel are still being read; this answer may not include them yet."))
    cites = answer.citations[:MAX_CITATIONS]
    if cites:
        blocks.append({"type": "divider"})
        label = "Evidence" if len(cites) == len(answer.citations) else (
            f"Evidence (top {len(cites)} of {len(answer.citations)})")
        blocks.append(context_block(label))
        blocks.extend(section_block(citation_text(c)) for c in cites)
    tail: list[Block] = []
    if share is not None and share.refused:
        tail.append(context_block(withheld_note(share)))
    elements: list[Block] = []
    if feedback is not None and len(feedback) <= MAX_BUTTON_VALUE:
        elements.append(button("👍 Helpful", FEEDBACK_UP_ACTION_ID, value=feedback))
        elements.append(button("👎 Not helpful", FEEDBACK_DOWN_ACTION_ID, value=feedback))
    if share is not None and share.value is not None and len(share.value) <= MAX_BUTTON_VALUE:
        elements.append(button("Share in channel", SHARE_ACTION_ID, value=share.value))
    if elements:
        tail.append({"type": "actions", "elements": elements})
    return blocks[: MAX_BLOCKS - len(tail)] + tail


def withheld_note(share: ShareOffer) -> str:
    """Why an answer cannot be shared here (and what to do instead)."""
    if share.withheld:
        where = ", ".join(channel_link(c) for c in share.withheld[:5])
        return (f":lock: Not shareable here: it quotes {where}, which not everyone in this "
                "channel can read. Ask again with `@egmem` in the channel for an answer "
                "from what everyone here can read.")
    if share.missing:
        return (":lock: Not shareable: some of the messages it quotes are no longer in "
                "egmem's memory. Ask again for a fresh answer.")
    if share.private_scope:
        return (":lock: Not shareable here: this answer was looked up in conversations not "
                "everyone in this channel can read (your private channels and direct "
                "messages), and its wording may draw on them. Ask with `@egmem` in the "
                "channel for an answer from what everyone here can read.")
    return (":lock: Not shareable yet: I'm still reading who is in this workspace (guests "
            "may be in this channel). Try again in a few minutes.")


def answer_text(answer: Answer) -> str:
    """Plain fallback text (notifications, screen readers) for an answer message."""
    return fit(answer.answer.strip() or "I couldn't find that.", MAX_FALLBACK_TEXT)


# --- timelines ---------------------------------------------------------------------------


def _entry_label(entry: TimelineEntry) -> str:
    value = fit(one_line(entry.value or entry.quote), 200)
    # A marker character inside the value would end the strike/bold early.
    if entry.superseded:
        value = "~" + value.replace("~", "∼") + "~"
    elif entry.current:
        value = "*" + value.replace("*", "∗") + "*"
    when = slack_date(entry.time, "{date_short_pretty}", url=entry.permalink)
    return f"{value} — {escape(one_line(entry.speaker))}, {when}"


def timeline_blocks(states: Sequence[State], *, topic: str) -> list[Block]:
    """Decision timelines, in the order given (the decision the topic names first): per
    state its label, channel and current value, then its chain oldest → newest, superseded
    values struck through (``~x~``), each date linked to its message."""
    blocks: list[Block] = [header_block(f"History: {one_line(topic)}")]
    if not states:
        blocks.append(section_block(f"No decisions about _{fit(one_line(topic), 200)}_ found "
                                    "in the channels you can read."))
        return blocks
    # header + per state (section + context + divider) + a possible "more" note
    room = (MAX_BLOCKS - 2) // 3
    for state in states[:room]:
        entries = build_timeline(state)
        # The timeline's current entry, so the headline never disagrees with the chain.
        now = next((e.value for e in entries if e.current and e.value), state.value)
        revisions = (f" · {state.revision_count} revision"
                     f"{'s' if state.revision_count != 1 else ''}"
                     if state.revision_count else "")
        blocks.append(section_block(
            f"*{fit(topic_label(state.topic), 200).replace('*', '∗')}* in "
            f"{channel_link(state.channel)} — now {bold(now, 500)}{revisions}"))
        lines = [_entry_label(e) for e in entries]
        if lines:  # Slack rejects an empty context element
            blocks.append(context_block(join_fitting(lines, MAX_CONTEXT_TEXT)))
        blocks.append({"type": "divider"})
    if len(states) > room:
        blocks.append(context_block(f"{len(states) - room} more not shown; narrow the topic."))
    return blocks[:MAX_BLOCKS]


def timeline_text(states: Sequence[State], *, topic: str) -> str:
    """Plain fallback text for a timeline message: a count, then one line per state with
    its current value and what it replaced (``memory.timeline.timeline_text``)."""
    lines = [f"History of {one_line(topic)}: {len(states)} decision(s)"]
    lines += [f"{one_line(s.topic)}: {one_line(chain_summary(s))}" for s in states]
    return fit("\n".join(lines), MAX_FALLBACK_TEXT)


# --- help and notices --------------------------------------------------------------------

HELP_TEXT = (
    "*egmem* remembers what this team decided, with the messages that say so.\n"
    "• `/recall &lt;question&gt;` — ask; only you see the answer until you press *Share in"
    " channel*\n"
    "• `/recall history &lt;topic&gt;` — how a decision changed over time\n"
    "• `/recall digest on` / `off` — a weekly post here of the decisions that changed (off:"
    " whoever turned it on, or an admin)\n"
    "• `/recall why &lt;message link&gt;` — how egmem read a message: the proposal, its"
    " verification and the evidence\n"
    "• `/recall forget &lt;message link&gt;` — remove one of your messages from egmem's memory"
    " (admins: any message)\n"
    "• On any message, ⋯ → *Is this still current?* — whether what it says still holds\n"
    "• Mention me (`@egmem &lt;question&gt;`) for an answer in the thread, or send me a direct"
    " message. Questions to me are never remembered as team knowledge."
)

MENTION_HINT = ("Ask me something after the mention, e.g. `@egmem when is the design review?` "
                "(only you can see this). `/recall help` lists everything I do.")


def help_blocks() -> list[Block]:
    return [section_block(HELP_TEXT)]


def notice_blocks(text: str) -> list[Block]:
    """A single section of plain (escaped) text."""
    return [section_block(fit(text, MAX_SECTION_TEXT))]


def searching_blocks(question: str) -> list[Block]:
    """The placeholder shown at once while an answer is being looked up."""
    return [context_block(f":mag: Searching… _{fit(one_line(question), 300)}_")]
