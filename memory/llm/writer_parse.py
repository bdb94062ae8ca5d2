"""Reading the writer model's proposals: aliases back to ids, lenient types, strict meaning.

Only what cannot be verified later is rejected here (which message, which verdict, unusable
types); a missing topic or an ungrounded quote is left to verification, which records the
downgrade on the node. Variants small models produce are accepted: a verdict written as a
past participle ("revised") or as the speech act itself ("decision"), ``null`` as a string,
numbers for strings, the older field names (``message_id``, ``source_quote``,
``prior_state_id``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memory.analysis.definitions import SpeechAct
from memory.llm.aliases import AliasTable
from memory.llm.client import parse_tool_arguments
from memory.llm.content_calls import salvage_items
from memory.llm.prompts import VERDICT_OF_ACT, VERDICTS
from memory.models import Proposal, Verdict
from memory.text import shorten

__all__ = ["CallAliases", "items_of", "parse_item"]

_MAX_REWRITE = 500
_NULLS = frozenset({"", "null", "none", "nil", "n/a", "-"})
_VERDICT_VARIANTS = {
    "established": "establish", "new": "establish", "set": "establish",
    "revised": "revise", "revision": "revise", "update": "revise", "updated": "revise",
    "change": "revise", "changed": "revise",
    "restated": "restate", "confirm": "restate", "confirmed": "restate", "same": "restate",
    "none": "context", "other": "context", "ignore": "context", "no_change": "context",
}
_ALIASES_OF = {"message": ("message", "message_id", "id", "msg"),
               "quote": ("quote", "source_quote", "value"),
               "state": ("state", "prior_state_id", "prior_state", "state_id")}


@dataclass
class CallAliases:
    """The aliases of one writer conversation: S<n> for states (an id, or ``msg:<id>`` for a
    state an earlier message of the window establishes), M<n> for the new messages."""

    states: AliasTable = field(default_factory=lambda: AliasTable("S"))
    messages: AliasTable = field(default_factory=lambda: AliasTable("M"))


def items_of(arguments: Mapping[str, Any]) -> list[Any]:
    """The proposal items of one proposal-tool call (or JSON reply): the ``proposals`` list,
    or the arguments themselves when they are one proposal."""
    items = arguments.get("proposals")
    if isinstance(items, list):
        return items
    if isinstance(items, dict):
        return [items]
    if any(k in arguments for k in ("verdict", "message", "message_id")):
        return [dict(arguments)]
    return []


def _field(item: Mapping[str, Any], name: str) -> Any:
    for key in _ALIASES_OF.get(name, (name,)):
        if key in item:
            return item[key]
    return None


def _text(value: Any) -> str | None:
    if value is None:
        return ""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return "" if value.strip().lower() in ("null", "none") else value.strip()
    return None


def _verdict(raw: Any, has_state: bool) -> str | None:
    if not isinstance(raw, str):
        return None
    word = raw.strip().lower().replace(" ", "_")
    if word in VERDICTS:
        return word
    if word in _VERDICT_VARIANTS:
        return _VERDICT_VARIANTS[word]
    try:
        act = SpeechAct(word)
    except ValueError:
        return None
    verdict = VERDICT_OF_ACT[act]
    if verdict == "establish|revise":
        return "revise" if has_state else "establish"
    return verdict


def parse_item(item: Any, aliases: CallAliases, *, order: Mapping[str, int],
               taken: Mapping[str, Proposal]) -> tuple[Proposal | None, str, str]:
    """One proposal item → ``(proposal, "", name)`` or ``(None, why, name)``, where
    ``name`` is the message alias the item is about ("" if unknown).

    ``order`` gives the position of every message of the window so far (earlier windows'
    calls and this one), ``taken`` the proposals already recorded in this conversation."""
    if not isinstance(item, Mapping):
        return None, "a proposal must be an object", ""
    raw_message = _field(item, "message")
    mid = aliases.messages.resolve(raw_message)
    if mid is None:
        shown = shorten(str(raw_message), 40) if raw_message is not None else "nothing"
        return None, f"{shown!r} is not a message of this batch", ""
    name = aliases.messages.name(mid)
    if mid in taken:
        return None, "already has a proposal", name
    raw_state = _field(item, "state")
    state: str | None = None
    if isinstance(raw_state, str | int) and not isinstance(raw_state, bool):
        text = str(raw_state).strip()
        if text.lower() not in _NULLS:
            state = aliases.states.resolve(text)
            if state is None:
                earlier = aliases.messages.resolve(text)
                if earlier is not None and order.get(earlier, 1 << 30) < order.get(mid, 0):
                    state = f"msg:{earlier}"
            if state is None:
                # Unknown: kept as written, so verification records why it failed.
                state = shorten(text, 40)
    elif raw_state not in (None, False):
        return None, "state must be a name such as S1, or null", name
    verdict = _verdict(item.get("verdict"), state is not None)
    if verdict is None:
        raw = item.get("verdict")
        return None, (f"invalid verdict {shorten(str(raw), 30)!r}" if raw is not None
                      else "verdict missing"), name
    fields: dict[str, str] = {}
    for key in ("topic", "quote", "rewrite"):
        value = _text(_field(item, key))
        if value is None:
            return None, f"{key} must be a string", name
        fields[key] = value
    return Proposal(
        message_id=mid, topic=fields["topic"], verdict=Verdict(verdict),
        source_quote=fields["quote"], prior_state_id=state,
        rewrite=fields["rewrite"][:_MAX_REWRITE], proposer="llm",
    ), "", name


def json_items(content: str, *, truncated: bool) -> list[Any]:
    """Proposal items of a JSON reply: an object, a bare list, or what survives of a reply
    cut short."""
    parsed, _ = parse_tool_arguments(content)
    if parsed is not None and items_of(parsed):
        return items_of(parsed)
    try:
        value = json.loads(content.strip())
    except ValueError:
        value = None
    if isinstance(value, list):
        return value
    return salvage_items(content, "proposals") if truncated or "proposals" in content else []
