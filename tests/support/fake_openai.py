"""A scripted OpenAI-compatible HTTP server for tests and benchmarks.

It is a real ``http.server`` listening on 127.0.0.1 in a background thread, so the real
``openai`` client (and its HTTP stack) is exercised end to end.

Endpoints::

    POST /v1/chat/completions   answered from the script queue, else the policy, else HTTP 500
    POST /v1/embeddings         answered from the embeddings queue, else deterministic vectors

Replies are built with the helpers :func:`text`, :func:`tool_calls`, :func:`error` and
:func:`hang`; :func:`embeddings` scripts explicit vectors. Every request is recorded in
:attr:`ScriptedOpenAIServer.requests` (path, lower-cased headers, parsed JSON body).

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
    "EmbeddingsReply",
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

    def __init__(self, *, policy: Policy | None = None, embedding_dim: int = 16) -> None:
        self.policy = policy
        self.embedding_dim = embedding_dim
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
        reply = self._next(self._chat_queue)
        if reply is None and self.policy is not None:
            reply = self.policy(body)
        if reply is None:
            with self._lock:
                self.unscripted += 1
            return error(500, {"error": {"message": "fake server: no scripted reply left",
                                         "type": "server_error", "param": None, "code": None}})
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
