"""How the writer shows a batch to the model: JSON-able views with aliases, never raw ids.

Message text is cut to a budget (a whole message up to ``MAX_TEXT`` characters, context
lines to ``MAX_CONTEXT_TEXT``); ``compact`` views are smaller still, for a message that does
not fit the model's context otherwise.
"""

from __future__ import annotations

from typing import Any

from memory.llm.writer_parse import CallAliases
from memory.models import EvidenceNode, Message, Proposal, Verdict
from memory.proposer import WriteItem
from memory.registry import RegistryHit
from memory.text import shorten

__all__ = ["channel_label", "earlier_view", "message_view", "recent_view"]

MAX_TEXT = 1500
MAX_COMPACT_TEXT = 500
MAX_CONTEXT_TEXT = 160


def channel_label(m: Message) -> str:
    return f"#{m.channel_name}" if m.channel_name else m.channel


def _when(m: Message | EvidenceNode) -> str:
    return m.ts.strftime("%a %Y-%m-%d %H:%M UTC")


def recent_view(node: EvidenceNode, aliases: CallAliases) -> dict[str, Any]:
    """A committed message shown as context; its state by alias when that state is shown."""
    view: dict[str, Any] = {"speaker": node.speaker, "time": _when(node),
                            "text": shorten(node.text, MAX_CONTEXT_TEXT)}
    alias = aliases.states.peek(node.state_id) if node.state_id else None
    if alias is not None:
        view.update(state=alias, verdict=node.verdict.value)
    return view


def earlier_view(item: WriteItem, proposal: Proposal | None, *,
                 aliases: CallAliases) -> dict[str, Any]:
    """A message of this window that an earlier call already proposed for."""
    m = item.message
    view: dict[str, Any] = {"speaker": m.speaker, "time": _when(m),
                            "text": shorten(m.text, MAX_CONTEXT_TEXT)}
    if proposal is not None and proposal.verdict is not Verdict.CONTEXT:
        view.update(proposed=proposal.verdict.value, topic=proposal.topic)
        alias = aliases.states.peek(f"msg:{m.id}")
        if alias is not None:
            view["state"] = alias
    return view


def message_view(item: WriteItem, aliases: CallAliases, *, compact: bool = False) -> dict[str, Any]:
    """A new message: its alias, speaker, time, text and what it replies to."""
    m = item.message
    limit = MAX_COMPACT_TEXT if compact else MAX_TEXT
    view: dict[str, Any] = {"message": aliases.messages.name(m.id), "speaker": m.speaker,
                            "time": _when(m),
                            "text": m.text if len(m.text) <= limit else m.text[:limit] + "…"}
    parent = item.parent
    if parent is not None:
        named = aliases.messages.peek(parent.message_id)
        if named is not None:
            view["reply_to"] = named
        else:
            ref: dict[str, Any] = {"speaker": parent.speaker,
                                   "text": shorten(parent.text, MAX_CONTEXT_TEXT)}
            alias = aliases.states.peek(parent.state_id) if parent.state_id else None
            if alias is not None:
                ref.update(state=alias, topic=parent.topic)
            view["reply_to"] = ref
    return view


def state_view(hit: RegistryHit, aliases: CallAliases) -> dict[str, Any]:
    s = hit.state
    return {"state": aliases.states.name(s.state_id), "topic": s.topic, "value": s.value,
            "description": shorten(s.description, 200), "revisions": s.revision_count}


def pending_view(p: Proposal, aliases: CallAliases) -> dict[str, Any]:
    return {"state": aliases.states.name(f"msg:{p.message_id}"), "topic": p.topic,
            "value": p.source_quote, "description": "proposed by an earlier message of this "
            "batch (not yet committed)", "revisions": 0}
