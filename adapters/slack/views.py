"""Block Kit for the decision views: "Is this still current?", the App Home tab and the
weekly digest. Pure functions over :mod:`memory.ports` values; the same escaping and date
tokens as :mod:`adapters.slack.blocks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from adapters.slack.blocks import (
    Block,
    bold,
    channel_link,
    context_block,
    escape,
    fit,
    header_block,
    one_line,
    section_block,
    slack_date,
    state_block,
    topic_label,
)
from memory.models import State
from memory.ports import MessageStatus

MAX_HOME_BLOCKS = 100  # a Home tab view holds up to 100 blocks
HOME_DAYS = 14
DIGEST_DAYS = 7
CURRENT_CALLBACK_ID = "egmem_still_current"


def _who_when(speaker: str, ts: datetime, url: str | None) -> str:
    return f"{escape(one_line(speaker))} on {slack_date(ts, '{date_short_pretty}', url=url)}"


def status_text(status: MessageStatus) -> str:
    """One paragraph answering "Is this still current?" for a message."""
    state = status.state
    if status.role == "unknown" or state is None:
        if status.role == "none":
            return ("This message doesn't set or change any decision I know of, so there is "
                    "nothing that could have replaced it.")
        return ("I have no record of this message in the channels you can read (it may "
                "predate egmem, or be in a conversation I'm not in).")
    label = f"*{fit(topic_label(state.topic), 150).replace('*', '∗')}*"
    where = channel_link(state.channel)
    if status.role == "set":
        what = (f"This message set {label} in {where} to {bold(status.value)}."
                if status.value else f"This message set {label} in {where}.")
    elif status.value:
        what = (f"This message talks about {label} in {where}, which was "
                f"{bold(status.value)} when it was written.")
    else:
        what = f"This message talks about {label} in {where}, decided after it was written."
    if status.current:
        return f":white_check_mark: *Still current.* {what} Nothing has replaced it since."
    last = status.since[-1]
    changes = len(status.since)
    change = "once" if changes == 1 else f"{changes} times"
    verb = "Decided" if status.role == "mentions" and not status.value else "Changed"
    by = _who_when(last.speaker, last.ts, last.permalink)
    return (f":warning: *No longer current.* {what} {verb} {change} since: now "
            f"{bold(last.value or last.quote)}, by {by}.")


def status_blocks(status: MessageStatus) -> list[Block]:
    """The ephemeral reply to the message shortcut: the verdict, then the chain."""
    blocks = [section_block(status_text(status))]
    if status.state is not None and len(status.state.chain) > 1:
        blocks.append(state_block(status.state))
    return blocks


def home_view(states: Sequence[State], *, days: int = HOME_DAYS) -> dict[str, Any]:
    """The App Home tab: decisions changed in the last ``days`` days, in channels the
    viewer can read, each with its chain."""
    blocks: list[Block] = [
        header_block("Decisions that changed recently"),
        context_block(f"Revised in the last {days} days, in channels you can read. "
                      "Ask with `/recall &lt;question&gt;`, or send me a message here."),
        {"type": "divider"},
    ]
    if not states:
        blocks.append(section_block("No decision you can see has changed lately. When one "
                                    "does, it shows up here with who changed it and when."))
    for state in states:
        if len(blocks) + 2 > MAX_HOME_BLOCKS:
            break
        blocks.append(state_block(state, where=True))
    return {"type": "home", "blocks": blocks}


def digest_blocks(states: Sequence[State], *, channel: str, since: datetime,
                  until: datetime) -> list[Block]:
    """The weekly digest of one channel: each decision revised in the week, with its chain
    and links to the messages."""
    head = (f"Decisions that changed in {channel_link(channel)} from "
            f"{slack_date(since, '{date_short_pretty}')} to "
            f"{slack_date(until, '{date_short_pretty}')}")
    blocks: list[Block] = [header_block("Weekly decision digest"), context_block(head)]
    blocks.extend(state_block(s) for s in states[:40])
    blocks.append(context_block("Turn this off with `/recall digest off`."))
    return blocks


def digest_text(states: Sequence[State]) -> str:
    n = len(states)
    return f"Weekly decision digest: {n} decision{'s' if n != 1 else ''} changed this week"
