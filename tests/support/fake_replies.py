"""Replies the scripted OpenAI-compatible server sends, and its notion of a token."""

from __future__ import annotations

import hashlib
import json
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# A fixed timestamp keeps responses byte-identical across runs.
CREATED = 1_700_000_000

# --------------------------------------------------------------------------- replies


@dataclass(frozen=True, kw_only=True)
class TextReply:
    """An assistant message with plain content."""

    content: str
    finish_reason: str = "stop"
    usage: tuple[int, int] | None = None  # (prompt, completion) override


@dataclass(frozen=True, kw_only=True)
class ToolCallsReply:
    """An assistant message carrying tool calls; ``arguments`` are sent verbatim."""

    calls: tuple[tuple[str, str], ...]  # (name, raw JSON arguments string)
    content: str | None = None
    finish_reason: str = "tool_calls"
    usage: tuple[int, int] | None = None


@dataclass(frozen=True, kw_only=True)
class ErrorReply:
    """An HTTP error response; answers either endpoint."""

    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class HangReply:
    """Wait ``seconds`` before sending ``then`` (for client timeout tests)."""

    seconds: float
    then: Reply


@dataclass(frozen=True, kw_only=True)
class EmbeddingsReply:
    """Explicit vectors for one embeddings request (one per input)."""

    vectors: tuple[tuple[float, ...], ...]


Reply = TextReply | ToolCallsReply | ErrorReply | HangReply | EmbeddingsReply
Policy = Callable[[dict[str, Any]], Reply]


def text(content: str, *, finish_reason: str = "stop",
         usage: tuple[int, int] | None = None) -> TextReply:
    """A plain assistant reply."""
    return TextReply(content=content, finish_reason=finish_reason, usage=usage)


def tool_calls(
    calls: Sequence[tuple[str, Mapping[str, Any] | str]],
    *,
    content: str | None = None,
    usage: tuple[int, int] | None = None,
) -> ToolCallsReply:
    """A reply with tool calls; dict arguments are JSON-encoded, strings pass through raw
    (so malformed JSON can be scripted)."""
    encoded = tuple(
        (name, args if isinstance(args, str) else json.dumps(args)) for name, args in calls
    )
    return ToolCallsReply(calls=encoded, content=content, usage=usage)


def error(status: int, body: Any = None, headers: Mapping[str, str] | None = None) -> ErrorReply:
    """An HTTP error. ``body`` defaults to an OpenAI-style ``{"error": {...}}`` object."""
    if body is None:
        body = {"error": {"message": f"scripted HTTP {status}", "type": "scripted_error",
                          "param": None, "code": str(status)}}
    return ErrorReply(status=status, body=body, headers=dict(headers or {}))


def hang(seconds: float, then: Reply | None = None) -> HangReply:
    """Delay the reply by ``seconds`` (the client normally times out first)."""
    return HangReply(seconds=seconds, then=then if then is not None else text("late"))


def embeddings(vectors: Sequence[Sequence[float]]) -> EmbeddingsReply:
    """Explicit vectors for the next embeddings request."""
    return EmbeddingsReply(vectors=tuple(tuple(float(x) for x in v) for v in vectors))


# --------------------------------------------------------------------------- token counting


def count_tokens(value: str | None) -> int:
    """Whitespace-separated token count; the server's only notion of a token."""
    return len(value.split()) if value else 0


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: [{"type": "text", "text": ...}, ...]
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return ""


def prompt_tokens_of(body: Mapping[str, Any]) -> int:
    """The ``prompt_tokens`` the server reports for a chat request body."""
    total = 0
    for msg in body.get("messages") or []:
        if not isinstance(msg, dict):
            continue
        total += count_tokens(_content_text(msg.get("content")))
        for call in msg.get("tool_calls") or []:
            fn = call.get("function") if isinstance(call, dict) else None
            if isinstance(fn, dict):
                total += count_tokens(str(fn.get("arguments", "")))
    if body.get("tools"):
        total += count_tokens(json.dumps(body["tools"], sort_keys=True))
    return total


def completion_tokens_of(reply: TextReply | ToolCallsReply) -> int:
    if isinstance(reply, TextReply):
        return count_tokens(reply.content)
    return count_tokens(reply.content) + sum(
        count_tokens(name) + count_tokens(args) for name, args in reply.calls
    )


def deterministic_vector(text_: str, dim: int) -> list[float]:
    """A unit vector derived from sha256 of the text: same text, same vector."""
    values: list[float] = []
    counter = 0
    while len(values) < dim:
        digest = hashlib.sha256(f"{counter}:{text_}".encode()).digest()
        for i in range(0, len(digest), 4):
            (n,) = struct.unpack("<I", digest[i : i + 4])
            values.append(n / 0xFFFFFFFF * 2.0 - 1.0)
        counter += 1
    values = values[:dim]
    norm = math.sqrt(sum(v * v for v in values)) or 1.0
    # Round-trip through float32 so float and base64 encodings decode to the same numbers.
    return [struct.unpack("<f", struct.pack("<f", v / norm))[0] for v in values]
