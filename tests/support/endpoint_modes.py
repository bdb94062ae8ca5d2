"""Endpoint modes of the scripted server: how real servers differ from an ideal one.

See :class:`EndpointMode` and :data:`MODES`; :func:`refusal` and :func:`shape` are what the
server applies to every chat request and reply.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.support.fake_replies import (
    ErrorReply,
    HangReply,
    Reply,
    TextReply,
    ToolCallsReply,
    completion_tokens_of,
    count_tokens,
    error,
    prompt_tokens_of,
)


@dataclass(frozen=True, kw_only=True)
class EndpointMode:
    """How the server behaves besides its script/policy; the default is an ideal endpoint.

    Errors are worded as the servers word them: the context overflow as vLLM's
    ``serving_chat`` 400 (OpenAI's wording and code with ``context_flavor="openai"``,
    llama.cpp's ``exceed_context_size_error`` with ``"llamacpp"``), no tools as Ollama's
    ``<model> does not support tools`` 400, a refused ``response_format`` as a 400 naming it,
    the rate limit as OpenAI's ``rate_limit_exceeded`` 429 with a ``Retry-After`` header."""

    name: str = "ideal"
    #: Context in the server's tokens (:func:`count_tokens`); prompt + max_tokens above it
    #: is refused.
    context_tokens: int | None = None
    context_flavor: str = "vllm"
    #: False: any request with ``tools`` is refused.
    tools: bool = True
    #: False: any request with ``response_format`` is refused.
    json_mode: bool = True
    #: Only the first tool call of each reply is sent.
    one_call: bool = False
    #: Tool calls are written into the content as JSON (``finish_reason="stop"``).
    calls_in_content: bool = False
    #: JSON booleans in tool arguments (and JSON content) are sent as "true"/"false".
    string_booleans: bool = False
    #: Replies longer than this many tokens are cut (also the request's ``max_tokens``).
    completion_limit: int | None = None
    #: Each reply waits this long, through ``sleep`` (a test's fake clock, or real time).
    delay_s: float = 0.0
    sleep: Callable[[float], None] | None = None
    #: (every, burst): of every ``every`` chat requests the first ``burst`` get a 429.
    rate_limit: tuple[int, int] | None = None
    retry_after_s: float = 1.0


MODES: dict[str, EndpointMode] = {
    "ideal": EndpointMode(),
    # (2048: llama.cpp's old default window)
    "small-context": EndpointMode(name="small-context", context_tokens=2048),
    "no-tools": EndpointMode(name="no-tools", tools=False),
    "one-call": EndpointMode(name="one-call", one_call=True),
    "calls-in-content": EndpointMode(name="calls-in-content", calls_in_content=True),
    "string-booleans": EndpointMode(name="string-booleans", string_booleans=True),
    "truncated": EndpointMode(name="truncated", completion_limit=60),
    "slow": EndpointMode(name="slow", delay_s=0.02),
    "rate-limited": EndpointMode(name="rate-limited", rate_limit=(4, 2)),
}


def _overflow_body(flavor: str, limit: int, prompt: int, completion: int) -> Any:
    asked = prompt + completion
    if flavor == "llamacpp":
        return {"error": {"code": 400, "message": "the request exceeds the available context "
                          "size, try increasing it", "type": "exceed_context_size_error",
                          "n_prompt_tokens": prompt, "n_ctx": limit}}
    if flavor == "openai":
        return {"error": {"message": f"This model's maximum context length is {limit} tokens. "
                          f"However, your messages resulted in {asked} tokens. Please reduce "
                          "the length of the messages.", "type": "invalid_request_error",
                          "param": "messages", "code": "context_length_exceeded"}}
    return {"object": "error", "message": f"This model's maximum context length is {limit} "
            f"tokens. However, you requested {asked} tokens ({prompt} in the messages, "
            f"{completion} in the completion). Please reduce the length of the messages or "
            "completion.", "type": "BadRequestError", "param": None, "code": 400}


def _stringify_booleans(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return [_stringify_booleans(v) for v in value]
    if isinstance(value, dict):
        return {k: _stringify_booleans(v) for k, v in value.items()}
    return value


def _map_json(raw: str, fn: Callable[[Any], Any]) -> str:
    try:
        return json.dumps(fn(json.loads(raw)))
    except ValueError:
        return raw


def _cut(text_: str, tokens: int) -> str:
    """The prefix of ``text_`` holding its first ``tokens`` whitespace-separated tokens."""
    count, i, n = 0, 0, len(text_)
    while i < n:
        while i < n and text_[i].isspace():
            i += 1
        if i >= n:
            break
        if count == tokens:
            return text_[:i].rstrip()
        while i < n and not text_[i].isspace():
            i += 1
        count += 1
    return text_


def _truncate(reply: TextReply | ToolCallsReply, budget: int) -> TextReply | ToolCallsReply:
    if completion_tokens_of(reply) <= budget:
        return reply
    if isinstance(reply, TextReply):
        return TextReply(content=_cut(reply.content, budget), finish_reason="length",
                         usage=reply.usage)
    calls, left = [], budget - count_tokens(reply.content)
    for name, args in reply.calls:
        if left <= 0:
            break
        left -= count_tokens(name)
        cost = count_tokens(args)
        calls.append((name, args if cost <= left else _cut(args, max(left, 0))))
        left -= cost
    return ToolCallsReply(calls=tuple(calls), content=reply.content, finish_reason="length",
                          usage=reply.usage)


def _in_content(reply: ToolCallsReply) -> TextReply:
    """Tool calls as a local model writes them when the server does not parse them."""
    written = [{"name": name, "arguments": json.loads(args) if _is_json(args) else args}
               for name, args in reply.calls]
    body = written[0] if len(written) == 1 else written
    return TextReply(content=json.dumps(body), usage=reply.usage)


def _is_json(raw: str) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def refusal(mode: EndpointMode, body: dict[str, Any], n: int) -> ErrorReply | None:
    """The error ``mode`` answers ``body`` (the ``n``-th chat request, from 0) with before
    any model runs, if any."""
    if mode.rate_limit is not None and n % mode.rate_limit[0] < mode.rate_limit[1]:
        return error(429, {"error": {
            "message": "Rate limit reached for requests per min (RPM): Limit 3, Used 3. "
                       "Please try again in 1s.", "type": "requests", "param": None,
            "code": "rate_limit_exceeded"}},
            headers={"retry-after": f"{mode.retry_after_s:g}"})
    if not mode.tools and body.get("tools"):
        model = body.get("model", "model")
        return error(400, {"error": {"message": f"registry.ollama.ai/library/{model} does "
                                     "not support tools", "type": "api_error",
                                     "param": None, "code": None}})
    if not mode.json_mode and body.get("response_format"):
        return error(400, {"error": {"message": "response_format is not supported by this "
                                     "server", "type": "invalid_request_error",
                                     "param": "response_format", "code": None}})
    if mode.context_tokens is not None:
        prompt = prompt_tokens_of(body)
        completion = int(body.get("max_tokens") or body.get("max_completion_tokens") or 0)
        if prompt + completion > mode.context_tokens:
            return error(400, _overflow_body(mode.context_flavor, mode.context_tokens,
                                             prompt, completion))
    return None

def shape(mode: EndpointMode, body: dict[str, Any], reply: Reply) -> Reply:
    """``reply`` as a server in ``mode`` would send it."""
    if isinstance(reply, HangReply):
        return HangReply(seconds=reply.seconds, then=shape(mode, body, reply.then))
    if not isinstance(reply, TextReply | ToolCallsReply):
        return reply
    if isinstance(reply, ToolCallsReply) and not body.get("tools"):
        # No tools offered (a JSON-mode request): the model writes the object asked for.
        first = reply.calls[0][1] if reply.calls else "{}"
        reply = TextReply(content=first, usage=reply.usage)
    if isinstance(reply, ToolCallsReply):
        if mode.one_call and len(reply.calls) > 1:
            reply = ToolCallsReply(calls=reply.calls[:1], content=reply.content,
                                   usage=reply.usage)
        if mode.string_booleans:
            reply = ToolCallsReply(
                calls=tuple((n, _map_json(a, _stringify_booleans)) for n, a in reply.calls),
                content=reply.content, usage=reply.usage)
        if mode.calls_in_content:
            reply = _in_content(reply)
    elif mode.string_booleans:
        reply = TextReply(content=_map_json(reply.content, _stringify_booleans),
                          finish_reason=reply.finish_reason, usage=reply.usage)
    limits = [x for x in (mode.completion_limit, body.get("max_tokens"),
                          body.get("max_completion_tokens")) if isinstance(x, int)]
    if limits:
        reply = _truncate(reply, min(limits))
    if mode.delay_s > 0:
        (mode.sleep or time.sleep)(mode.delay_s)
    return reply
