"""What a chat call returns and what a request costs: :class:`ChatResult` with its
:class:`ToolCall` list, lenient argument parsing, a prompt-size estimate and the
:class:`UsageMeter` shared by every client."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["ChatResult", "ToolCall", "UsageMeter", "approx_tokens", "parse_tool_arguments"]


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, kw_only=True)
class ToolCall:
    """One tool call from the model. ``arguments`` is None exactly when ``error`` is set."""

    id: str
    name: str
    arguments_raw: str
    arguments: dict[str, Any] | None
    error: str | None = None
    #: The model wrote this call into its message content, not as a tool call.
    from_content: bool = False


@dataclass(frozen=True, kw_only=True)
class ChatResult:
    content: str | None
    tool_calls: list[ToolCall]
    prompt_tokens: int
    completion_tokens: int
    finish_reason: str | None

    @property
    def truncated(self) -> bool:
        """The reply was cut by the completion budget (``finish_reason == "length"``)."""
        return self.finish_reason == "length"

    def as_message(self) -> dict[str, Any]:
        """This reply as the assistant turn of the next request's conversation (calls
        recovered from the content stay in the content, as the model wrote them)."""
        native = [c for c in self.tool_calls if not c.from_content]
        message: dict[str, Any] = {"role": "assistant", "content": self.content}
        if native:
            message["tool_calls"] = [
                # Garbled arguments go back as {}: strict servers re-parse the history.
                {"id": c.id, "type": "function",
                 "function": {"name": c.name,
                              "arguments": c.arguments_raw if c.error is None else "{}"}}
                for c in native
            ]
        return message

    def followup(self, replies: Sequence[str]) -> list[dict[str, Any]]:
        """The turns answering this reply's calls (one reply per call, in order): a tool
        message per native call, and one user message for the calls written in the
        content (they have no call id to answer)."""
        out: list[dict[str, Any]] = []
        written: list[str] = []
        for call, reply in zip(self.tool_calls, replies, strict=True):
            if call.from_content:
                written.append(f"{call.name}: {reply}")
            else:
                out.append({"role": "tool", "tool_call_id": call.id, "content": reply})
        if written:
            out.append({"role": "user", "content": "Results of the calls in your reply:\n"
                        + "\n".join(written)})
        return out


# Whitespace around the fences is bounded: with unbounded runs the lazy body re-reads the
# trailing whitespace at every step (cubic on "```" followed by spaces).
_FENCE = re.compile(r"^\s{0,40}```(?:json)?\s{0,40}(.*?)\s{0,40}```\s{0,40}$", re.DOTALL)


def parse_tool_arguments(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """Parse a tool call's JSON arguments leniently; never raises.

    Accepts an empty string (no arguments), a code-fenced object, and an object surrounded
    by stray text. Returns ``(arguments, None)`` or ``(None, reason)``.
    """
    if not raw.strip():
        return {}, None
    candidates = [raw]
    fenced = _FENCE.match(raw)
    if fenced:
        candidates.append(fenced.group(1))
    start, end = raw.find("{"), raw.rfind("}")
    if 0 <= start < end:
        candidates.append(raw[start : end + 1])
    first_error = ""
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError as exc:
            first_error = first_error or f"invalid JSON arguments: {exc.msg} at char {exc.pos}"
            continue
        if isinstance(value, dict):
            return value, None
        first_error = first_error or f"arguments are a JSON {type(value).__name__}, not an object"
    return None, first_error


def approx_tokens(messages: Sequence[Mapping[str, Any]],
                  tools: Sequence[Mapping[str, Any]] | None = None) -> int:
    """A cautious estimate of a request's prompt tokens (characters / 4, which runs high
    for English chat and JSON): for staying inside a context the server reported."""
    chars = sum(len(str(m.get("content") or "")) + 16 for m in messages)
    chars += sum(len(json.dumps(c)) for m in messages for c in (m.get("tool_calls") or []))
    if tools:
        chars += len(json.dumps(list(tools)))
    return chars // 4


# --------------------------------------------------------------------------- usage


_COUNTERS = ("calls", "prompt_tokens", "completion_tokens", "retries", "failures")


class UsageMeter:
    """Thread-safe per-operation counters.

    ``calls`` counts logical calls (one per :meth:`LLMClient.chat`, whatever the retries),
    ``retries`` the extra HTTP attempts, ``failures`` the calls that ended in an error;
    tokens are what the endpoint reported for successful calls.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: dict[str, dict[str, int]] = {}

    def add(self, operation: str, **deltas: int) -> None:
        unknown = set(deltas) - set(_COUNTERS)
        if unknown:
            raise ValueError(f"unknown usage counters: {sorted(unknown)}")
        with self._lock:
            row = self._counts.setdefault(operation, dict.fromkeys(_COUNTERS, 0))
            for name, delta in deltas.items():
                row[name] += delta

    def snapshot(self) -> dict[str, dict[str, int]]:
        """A copy: ``{operation: {calls, prompt_tokens, completion_tokens, retries, failures}}``."""
        with self._lock:
            return {op: dict(row) for op, row in self._counts.items()}

    def totals(self) -> dict[str, int]:
        """The counters summed over all operations."""
        out = dict.fromkeys(_COUNTERS, 0)
        for row in self.snapshot().values():
            for name in _COUNTERS:
                out[name] += row[name]
        return out
