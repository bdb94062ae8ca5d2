"""A scripted OpenAI-compatible HTTP server for tests and benchmarks.

It is a real ``http.server`` listening on 127.0.0.1 in a background thread, so the real
``openai`` client (and its HTTP stack) is exercised end to end.

Endpoints::

    POST /v1/chat/completions   answered from the script queue, else the policy, else HTTP 500
    POST /v1/embeddings         answered from the embeddings queue, else deterministic vectors

Replies are built with the helpers :func:`text`, :func:`tool_calls`, :func:`error` and
:func:`hang`; :func:`embeddings` scripts explicit vectors. An :class:`EndpointMode` makes the
server behave like a real local or hosted endpoint (see :data:`MODES`): a small context
(vLLM's 400 wording), no tools (Ollama's), one tool call per reply (Llama 3.x), calls written
as JSON in the content, string booleans, replies cut at a completion budget
(``finish_reason="length"``), slow replies, and 429 bursts with ``Retry-After``. Every
request is recorded in :attr:`ScriptedOpenAIServer.requests` (path, lower-cased headers,
parsed JSON body).

Token usage is deterministic: ``prompt_tokens`` is :func:`count_tokens` over the message
contents, the arguments of earlier tool calls and the JSON of the tool schemas;
``completion_tokens`` is :func:`count_tokens` over the reply content plus each tool call's name
and raw arguments. Tests can compute the same numbers with :func:`prompt_tokens_of`.

Usage::

    with ScriptedOpenAIServer() as srv:
        srv.enqueue(text("hello"))
        client = OpenAI(base_url=srv.base_url, api_key="x")
        ...
        srv.stop()  # from now on the port refuses connections
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = [
    "MODES",
    "EmbeddingsReply",
    "EndpointMode",
    "ErrorReply",
    "HangReply",
    "RecordedRequest",
    "Reply",
    "ScriptedOpenAIServer",
    "TextReply",
    "ToolCallsReply",
    "count_tokens",
    "deterministic_vector",
    "embeddings",
    "error",
    "hang",
    "iter_tool_names",
    "prompt_tokens_of",
    "text",
    "tool_calls",
]

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


# --------------------------------------------------------------------------- endpoint modes


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
    "small-context": EndpointMode(name="small-context", context_tokens=1900),
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
    if _completion_tokens_of(reply) <= budget:
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


def _completion_tokens_of(reply: TextReply | ToolCallsReply) -> int:
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


# --------------------------------------------------------------------------- server


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server saw it."""

    path: str
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any]

    def __getitem__(self, key: str) -> Any:
        """Shortcut into the JSON body: ``req["tools"]``."""
        return self.body[key]


class ScriptedOpenAIServer:
    """A real HTTP server speaking enough of the OpenAI API for egmem.

    Chat requests take the next reply from :meth:`enqueue`'s queue, else ask ``policy``,
    else get HTTP 500 (and :attr:`unscripted` counts them, so a test can assert none
    happened). Thread-safe: many clients may call it concurrently.
    """

    def __init__(self, *, policy: Policy | None = None, embedding_dim: int = 16,
                 mode: EndpointMode | None = None) -> None:
        self.policy = policy
        self.embedding_dim = embedding_dim
        self.mode = mode or EndpointMode()
        self._chat_count = 0
        self.unscripted = 0
        self._lock = threading.Lock()
        self._chat_queue: deque[Reply] = deque()
        self._embed_queue: deque[Reply] = deque()
        self._requests: list[RecordedRequest] = []
        self._seq = 0
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None

    # -- lifecycle

    def start(self) -> ScriptedOpenAIServer:
        """Start listening; reuses the previous port after a :meth:`stop` when possible."""
        if self._httpd is not None:
            return self
        httpd = ThreadingHTTPServer(("127.0.0.1", self._port or 0), _make_handler(self))
        httpd.daemon_threads = True
        self._httpd = httpd
        self._port = int(httpd.server_address[1])
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
            name=f"fake-openai-{self._port}", daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening and close the socket: later connections are refused."""
        httpd, self._httpd = self._httpd, None
        if httpd is None:
            return
        httpd.shutdown()
        httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("server not started")
        return self._port

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``, what ``OpenAI(base_url=...)`` expects."""
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting

    def enqueue(self, *replies: Reply) -> None:
        """Queue replies for the next chat requests, in order."""
        with self._lock:
            self._chat_queue.extend(replies)

    def enqueue_embeddings(self, *replies: Reply) -> None:
        """Queue replies (:func:`embeddings` or :func:`error`) for the next embeddings requests."""
        with self._lock:
            self._embed_queue.extend(replies)

    @property
    def pending(self) -> int:
        """Chat replies queued but not yet served."""
        with self._lock:
            return len(self._chat_queue)

    @property
    def requests(self) -> list[RecordedRequest]:
        """A copy of every request received so far, oldest first."""
        with self._lock:
            return list(self._requests)

    def chat_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def embedding_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path.endswith("/embeddings")]

    # -- request handling (called from handler threads)

    def _record(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> int:
        with self._lock:
            self._requests.append(RecordedRequest(path=path, headers=headers, body=body))
            self._seq += 1
            return self._seq

    def _next(self, queue: deque[Reply]) -> Reply | None:
        with self._lock:
            return queue.popleft() if queue else None

    def _chat_reply(self, body: dict[str, Any]) -> Reply:
        refused = self._refusal(body)
        if refused is not None:
            return refused
        reply = self._next(self._chat_queue)
        if reply is None and self.policy is not None:
            reply = self.policy(body)
        if reply is None:
            with self._lock:
                self.unscripted += 1
            return error(500, {"error": {"message": "fake server: no scripted reply left",
                                         "type": "server_error", "param": None, "code": None}})
        return self._shape(body, reply)

    def _refusal(self, body: dict[str, Any]) -> ErrorReply | None:
        """The error this mode answers ``body`` with before any model runs, if any."""
        mode = self.mode
        with self._lock:
            n = self._chat_count
            self._chat_count += 1
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

    def _shape(self, body: dict[str, Any], reply: Reply) -> Reply:
        """``reply`` as this mode's server would send it."""
        mode = self.mode
        if isinstance(reply, HangReply):
            return HangReply(seconds=reply.seconds, then=self._shape(body, reply.then))
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

    def _chat_payload(self, seq: int, body: dict[str, Any],
                      reply: TextReply | ToolCallsReply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant"}
        if isinstance(reply, TextReply):
            message["content"] = reply.content
        else:
            message["content"] = reply.content
            message["tool_calls"] = [
                {"id": f"call_{seq}_{i}", "type": "function",
                 "function": {"name": name, "arguments": args}}
                for i, (name, args) in enumerate(reply.calls)
            ]
        if reply.usage is not None:
            prompt, completion = reply.usage
        else:
            prompt, completion = prompt_tokens_of(body), _completion_tokens_of(reply)
        return {
            "id": f"chatcmpl-{seq}",
            "object": "chat.completion",
            "created": CREATED,
            "model": str(body.get("model", "fake-model")),
            "choices": [{"index": 0, "message": message, "logprobs": None,
                         "finish_reason": reply.finish_reason}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                      "total_tokens": prompt + completion},
        }

    def _embeddings_payload(self, body: dict[str, Any], reply: Reply | None) -> dict[str, Any]:
        raw_input = body.get("input", [])
        inputs: list[Any] = raw_input if isinstance(raw_input, list) else [raw_input]
        if isinstance(reply, EmbeddingsReply):
            vectors = [list(v) for v in reply.vectors]
        else:
            vectors = [deterministic_vector(str(x), self.embedding_dim) for x in inputs]
        as_base64 = body.get("encoding_format") == "base64"
        data = []
        for i, vec in enumerate(vectors):
            encoded: Any = (
                base64.b64encode(struct.pack(f"<{len(vec)}f", *vec)).decode("ascii")
                if as_base64 else vec
            )
            data.append({"object": "embedding", "index": i, "embedding": encoded})
        prompt = sum(count_tokens(str(x)) for x in inputs)
        return {"object": "list", "data": data, "model": str(body.get("model", "fake-embed")),
                "usage": {"prompt_tokens": prompt, "total_tokens": prompt}}

    def _handle(self, path: str, headers: dict[str, str],
                body: dict[str, Any]) -> tuple[int, Any, Mapping[str, str]]:
        seq = self._record(path, headers, body)
        if path.rstrip("/").endswith("/chat/completions"):
            reply: Reply | None = self._chat_reply(body)
        elif path.rstrip("/").endswith("/embeddings"):
            reply = self._next(self._embed_queue)
        else:
            return 404, {"error": {"message": f"unknown path {path}", "type": "not_found"}}, {}
        while isinstance(reply, HangReply):
            time.sleep(reply.seconds)
            reply = reply.then
        if isinstance(reply, ErrorReply):
            return reply.status, reply.body, reply.headers
        if path.rstrip("/").endswith("/embeddings"):
            return 200, self._embeddings_payload(body, reply), {}
        if isinstance(reply, TextReply | ToolCallsReply):
            return 200, self._chat_payload(seq, body, reply), {}
        return 500, {"error": {"message": f"reply {type(reply).__name__} does not fit {path}"}}, {}


def _make_handler(server: ScriptedOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        # HTTP/1.0 closes every connection, so after stop() no kept-alive socket can still
        # reach a handler thread: "down" really means down.
        protocol_version = "HTTP/1.0"

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = None
            if not isinstance(body, dict):
                self._send(400, {"error": {"message": "body is not a JSON object"}}, {})
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, payload, extra = server._handle(self.path, headers, body)
            self._send(status, payload, extra)

        def _send(self, status: int, payload: Any, extra: Mapping[str, str]) -> None:
            data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in extra.items():
                self.send_header(k, v)
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test); nothing to do

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet

    return Handler


def iter_tool_names(req: RecordedRequest) -> Iterator[str]:
    """Names of the function tools a chat request offered."""
    for tool in req.body.get("tools") or []:
        fn = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(fn, dict) and "name" in fn:
            yield str(fn["name"])
