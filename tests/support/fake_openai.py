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
import json
import struct
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.support.endpoint_modes import MODES, EndpointMode, refusal, shape
from tests.support.fake_replies import (
    CREATED,
    EmbeddingsReply,
    ErrorReply,
    HangReply,
    Policy,
    Reply,
    TextReply,
    ToolCallsReply,
    completion_tokens_of,
    count_tokens,
    deterministic_vector,
    embeddings,
    error,
    hang,
    prompt_tokens_of,
    text,
    tool_calls,
)

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
        with self._lock:
            n = self._chat_count
            self._chat_count += 1
        refused = refusal(self.mode, body, n)
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
        return shape(self.mode, body, reply)

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
            prompt, completion = prompt_tokens_of(body), completion_tokens_of(reply)
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
