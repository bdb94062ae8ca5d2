"""What the LLM reader shows the model and how it reads the model's arguments.

Passages and states are rendered one line each, named by aliases (E1, S1) when a table is
given; arguments are read leniently (a string for a list, "5" for 5, a bare ISO date for the
whole day) and a :class:`ToolArgumentError` says what is wrong in words the model can act on;
:func:`boolean` reads a model's boolean, :func:`declines` a prose refusal to answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time
from typing import Any

from memory.errors import ToolArgumentError
from memory.llm.aliases import AliasTable
from memory.llm.reader_prompts import ABSTAIN_PHRASES, MAX_CHAIN_ENTRIES, MAX_PASSAGE_CHARS
from memory.models import EvidenceNode, State
from memory.reader.answer import describe_state
from memory.text import shorten

__all__ = ["ToolArgumentError", "boolean", "day_arg", "declines", "int_arg", "render_nodes",
           "render_states", "strings_arg", "text_arg"]

_TRUE = frozenset({"true", "yes", "1", "y"})





def render_nodes(nodes: Sequence[EvidenceNode], passages: AliasTable | None = None) -> str:
    """Passages with their provenance, one per line: name, time, channel, speaker."""
    if not nodes:
        return "no new passages"
    lines = []
    for n in nodes:
        name = passages.name(n.node_id) if passages is not None else n.node_id
        where = f"#{n.channel_name or n.channel}"
        extra = f" [topic: {n.topic}]" if n.topic else ""
        lines.append(f"[{name}] {n.ts:%Y-%m-%d %H:%M} {where} {n.speaker}: "
                     f"{shorten(n.passage, MAX_PASSAGE_CHARS)}{extra}")
    return "\n".join(lines)


def render_states(states: Sequence[State], passages: AliasTable | None = None, *,
                  names: AliasTable | None = None) -> str:
    if not states:
        return "no tracked state matches"
    blocks = []
    for s in states:
        name = names.name(s.state_id) if names is not None else s.state_id
        lines = [f"state {name} in #{s.channel} — {s.topic}: now {describe_state(s)}"]
        shown = s.chain[-MAX_CHAIN_ENTRIES:]
        start = len(s.chain) - len(shown) + 1
        for i, e in enumerate(shown, start=start):
            ref = passages.name(e.node_id) if passages is not None else e.node_id
            lines.append(f"  {i}. {e.value!r} by {e.speaker} on {e.ts:%Y-%m-%d %H:%M} "
                         f"[{ref}] ({e.verdict.value}): {shorten(e.quote, 200)}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def declines(text: str) -> bool:
    lowered = text.lower().replace("’", "'")
    return any(p in lowered for p in ABSTAIN_PHRASES)


def boolean(value: Any) -> bool:
    """A model's boolean: true/false, "true"/"false", "yes"/"no", 1/0; anything else False."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value != 0
    if isinstance(value, str):
        return value.strip().lower() in _TRUE
    return False


def text_arg(args: dict[str, Any], key: str) -> str:
    value = args.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ToolArgumentError(f"{key!r} must be a non-empty string")
    return value


def strings_arg(args: dict[str, Any], key: str) -> list[str] | None:
    value = args.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ToolArgumentError(f"{key!r} must be a list of strings")
    return [v for v in value if v.strip()] or None


def int_arg(args: dict[str, Any], key: str, *, default: int, lo: int, hi: int) -> int:
    value = args.get(key, default)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ToolArgumentError(f"{key!r} must be an integer")
    return max(lo, min(hi, int(value)))


def day_arg(value: Any, *, end: bool) -> datetime | None:
    """An ISO date or datetime; a bare date spans the whole day (UTC)."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ToolArgumentError("dates must be ISO strings such as 2024-11-04")
    try:
        if len(value.strip()) == 10:
            d = date.fromisoformat(value.strip())
            return datetime.combine(d, time.max if end else time.min, tzinfo=UTC)
        dt = datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ToolArgumentError(f"not an ISO date: {value!r}") from exc
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)
