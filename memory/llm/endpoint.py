"""What OpenAI-compatible servers say, and how to show where they live.

:func:`redact_url` is the only way an endpoint URL is shown or logged: credentials in the
user-info part and the values of query parameters are replaced by ``***``.

:func:`classify` sorts an error response by what it means, from the status and the body's
wording. The wordings are data (:data:`CONTEXT_OVERFLOW`, :data:`NO_TOOLS`): they are
how vLLM, Ollama, llama.cpp and OpenAI phrase these refusals, e.g.

* vLLM / OpenAI: ``This model's maximum context length is 8192 tokens. However, you
  requested 8203 tokens (7691 in the messages, 512 in the completion)...`` (400);
  OpenAI adds ``"code": "context_length_exceeded"``;
* llama.cpp: ``{"type": "exceed_context_size_error", "n_prompt_tokens": 1407, "n_ctx":
  256, "message": "the request exceeds the available context size..."}`` (400, or 500 in
  older builds);
* Ollama: ``registry.ollama.ai/library/gemma3:4b does not support tools`` (400);
  vLLM without ``--enable-auto-tool-choice``: ``"auto" tool choice requires
  --enable-auto-tool-choice and --tool-call-parser to be set`` (400); llama.cpp without
  ``--jinja``: ``Unsupported param: tools`` (500);
* OpenAI reasoning models: ``Unsupported parameter: 'temperature' is not supported with
  this model.`` with ``"param": "temperature"`` (400).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["Refusal", "classify", "redact_text", "redact_url"]

# Query parameters that are never secrets and help an operator recognise the endpoint.
_PUBLIC_QUERY = frozenset({"api-version", "api_version"})

CONTEXT_OVERFLOW = (
    "maximum context length",
    "context_length_exceeded",
    "exceed_context_size_error",
    "exceeds the available context size",
    "context window",
    "too long to fit into the model",
    "prompt is too long",
    "input is too long",
    "reduce the length of the messages",
    "requested tokens",
)

NO_TOOLS = (
    "does not support tools",
    "does not support tool",
    "unsupported param: tools",
    "tools are not supported",
    "tool use is not supported",
    "tool calling is not supported",
    "function calling is not supported",
    "--enable-auto-tool-choice",
)

# Request fields a server may name when it refuses one of them.
PARAMS = ("temperature", "max_completion_tokens", "max_tokens", "parallel_tool_calls",
          "tool_choice", "response_format", "top_p", "seed")

_LIMIT = (re.compile(r"maximum context length is (\d+)"),
          re.compile(r"context length (?:is |of )?(\d+)"),
          re.compile(r"context (?:window|size) of (\d+)"),
          re.compile(r"\(context length (\d+)\)"))
_REQUESTED = (re.compile(r"you requested (\d+) tokens"),
              re.compile(r"resulted in (\d+) tokens"),
              re.compile(r"total length (\d+)"),
              re.compile(r"requested tokens \((\d+)\)"))
_QUOTED_PARAM = re.compile(r"parameter:? '([a-z_]+)'|'([a-z_]+)' is not supported"
                           r"|unsupported param(?:eter)?:? ([a-z_]+)")


Kind = Literal["overflow", "no-tools", "param", "other"]


@dataclass(frozen=True)
class Refusal:
    """What an error response means. ``limit``/``requested`` are context token counts."""

    kind: Kind
    message: str
    param: str | None = None
    limit: int | None = None
    requested: int | None = None


def redact_url(url: str) -> str:
    """``url`` without secrets: user info and query values become ``***``.

    ``https://user:pw@host/v1?key=abc&api-version=2024-02-01`` →
    ``https://***@host/v1?key=***&api-version=2024-02-01``. Never raises."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return "<unparsable URL>"
    netloc = parts.netloc
    if "@" in netloc:
        port = f":{parts.port}" if _has_port(parts) else ""
        netloc = f"***@{host}{port}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, v if k.lower() in _PUBLIC_QUERY else "***") for k, v in pairs],
                          safe="*")
    fragment = "***" if parts.fragment else ""
    return urlunsplit((parts.scheme, netloc, parts.path, query, fragment))


def _has_port(parts: Any) -> bool:
    try:
        return parts.port is not None
    except ValueError:
        return False


def redact_text(text: str, *, url: str, secrets: tuple[str | None, ...] = ()) -> str:
    """``text`` with ``url`` shown redacted and every secret (API key, URL password, query
    values) replaced by ``***``."""
    out = text.replace(url, redact_url(url)) if url else text
    hidden = [s for s in secrets if s]
    try:
        parts = urlsplit(url)
        hidden += [p for p in (parts.password, parts.username) if p]
        hidden += [v for k, v in parse_qsl(parts.query) if v and k.lower() not in _PUBLIC_QUERY]
    except ValueError:
        pass
    for secret in sorted(set(hidden), key=len, reverse=True):
        if len(secret) >= 3:
            out = out.replace(secret, "***")
    return out


def _body_message(body: object) -> tuple[str, dict[str, Any]]:
    """The human message of an error body and the dict that carried it."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            msg = inner.get("message")
            return (msg if isinstance(msg, str) else ""), inner
        if isinstance(inner, str):
            return inner, body
        msg = body.get("message")
        return (msg if isinstance(msg, str) else ""), body
    if isinstance(body, str):
        return body, {}
    return "", {}


def _first_int(patterns: tuple[re.Pattern[str], ...], text: str) -> int | None:
    for pattern in patterns:
        m = pattern.search(text)
        if m:
            return int(m.group(1))
    return None


def classify(status: int, body: object) -> Refusal:
    """What an error response means (see the module docstring for the wordings).

    A context overflow or a "no tools" refusal is recognised whatever the status (llama.cpp
    answered both with 500 in some builds), so it is never retried as a server fault."""
    message, fields = _body_message(body)
    lowered = message.lower()
    kind_field = str(fields.get("type", "") or "").lower()
    code_field = str(fields.get("code", "") or "").lower()
    if ("exceed_context_size" in kind_field or code_field == "context_length_exceeded"
            or any(w in lowered for w in CONTEXT_OVERFLOW)):
        limit = fields.get("n_ctx")
        requested = fields.get("n_prompt_tokens")
        return Refusal(
            "overflow", message,
            limit=int(limit) if isinstance(limit, int) else _first_int(_LIMIT, lowered),
            requested=int(requested) if isinstance(requested, int)
            else _first_int(_REQUESTED, lowered))
    if any(w in lowered for w in NO_TOOLS):
        return Refusal("no-tools", message, param="tools")
    param = fields.get("param")
    if not isinstance(param, str) or param not in PARAMS:
        param = None
        m = _QUOTED_PARAM.search(lowered)
        named = next((g for g in m.groups() if g), None) if m else None
        if named in PARAMS:
            param = named
        elif 400 <= status < 500:
            param = next((p for p in PARAMS if p in lowered), None)
    if param is not None and 400 <= status < 500:
        return Refusal("param", message, param=param)
    return Refusal("other", message)
