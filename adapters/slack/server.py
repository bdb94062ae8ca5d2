"""A small threaded HTTP front for a bolt :class:`App` (Events API, commands, actions).

Bolt's own ``app.start()`` is a single-threaded development server bound to every
interface. This one is the same few lines over :class:`ThreadingHTTPServer` so one slow
request (a ``users.info`` lookup, a disk sync) never holds up the next, with an explicit
bind address, a ``GET /healthz`` for load balancers, and the limits a server facing the
internet needs:

* every request must arrive whole within :attr:`SlackHTTPServer.request_deadline_s` (a
  watchdog closes connections that dribble their headers or body: slowloris cannot hold
  threads), and at most :attr:`SlackHTTPServer.max_connections` are served at once (more
  get a 503 at once, which Slack retries);
* a deep accept backlog, so a burst of connections waits to be accepted instead of being
  reset;
* bodies over :data:`MAX_BODY_BYTES`, or of no stated length, are refused from the headers
  alone; a malformed timestamp header gets a 400, not a traceback;
* slack-bolt logs the whole body of a request that fails the signature check at INFO:
  that record is kept without the body (unauthenticated bodies must not fill the log, and
  message text must never reach it).

Bolt does the signature check, URL verification and routing; this only moves bytes.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from slack_bolt import App, BoltRequest

logger = logging.getLogger(__name__)

DEFAULT_PATH = "/slack/events"
MAX_BODY_BYTES = 1_000_000  # Slack payloads are a few KB; refuse anything absurd.
# slack-bolt's logger for failed signature checks (see quiet_request_bodies).
BOLT_VERIFICATION_LOGGER = "slack_bolt.RequestVerification"


class _WithoutBody(logging.Filter):
    """Keeps bolt's failed-signature record but drops the request body from it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Invalid request signature"):
            record.msg = "Invalid request signature detected (request body not logged)"
            record.args = None
        return True


def quiet_request_bodies() -> None:
    """Make slack-bolt's failed-signature log carry no request body, whatever its level."""
    bolt = logging.getLogger(BOLT_VERIFICATION_LOGGER)
    if not any(isinstance(f, _WithoutBody) for f in bolt.filters):
        bolt.addFilter(_WithoutBody())


class SlackHTTPServer(ThreadingHTTPServer):
    """``SlackHTTPServer(app, host=, port=)``; ``port=0`` picks a free port (see
    :attr:`port`). Use :meth:`serve_forever` or :meth:`start_background`."""

    daemon_threads = True
    # Connections the kernel keeps waiting while the accept loop is busy (socketserver's
    # default of 5 resets a burst of Slack deliveries).
    request_queue_size = 256

    def __init__(self, app: App, *, host: str = "127.0.0.1", port: int = 3000,
                 path: str = DEFAULT_PATH, request_deadline_s: float = 10.0,
                 max_connections: int = 256) -> None:
        self.app = app
        self.path = path
        self.request_deadline_s = request_deadline_s
        self.max_connections = max_connections
        self._thread: threading.Thread | None = None
        self._open: dict[socket.socket, float] = {}  # connection -> deadline to be read by
        self._open_lock = threading.Lock()
        self._stopping = threading.Event()
        quiet_request_bodies()
        super().__init__((host, port), _Handler)
        self._watchdog = threading.Thread(target=self._watch, name="slack-http-watchdog",
                                          daemon=True)
        self._watchdog.start()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = str(self.server_address[0])
        return f"http://{host}:{self.port}{self.path}"

    @property
    def connections(self) -> int:
        """Connections being read or answered now."""
        with self._open_lock:
            return len(self._open)

    def start_background(self) -> SlackHTTPServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="slack-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    # ---- connection accounting and the read deadline -----------------------------------
    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            busy = len(self._open) >= self.max_connections
            if not busy:
                self._open[request] = time.monotonic() + self.request_deadline_s
        if busy:
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.pop(request, None)
        super().shutdown_request(request)

    def request_started(self, request: socket.socket) -> None:
        """A (next) request is awaited on this connection: it must arrive in time, so an
        idle keep-alive connection is closed after the deadline too."""
        with self._open_lock:
            if request in self._open:
                self._open[request] = time.monotonic() + self.request_deadline_s

    def request_read(self, request: socket.socket) -> None:
        """The request is read whole: the deadline no longer applies to its connection."""
        with self._open_lock:
            if request in self._open:
                self._open[request] = float("inf")

    def _watch(self) -> None:
        while not self._stopping.wait(min(0.25, self.request_deadline_s / 4)):
            now = time.monotonic()
            with self._open_lock:
                late = [c for c, deadline in self._open.items() if deadline < now]
            for conn in late:
                logger.info("closing a connection that did not send its request in %.0f s",
                            self.request_deadline_s)
                try:
                    conn.shutdown(socket.SHUT_RDWR)  # the handler's read ends at once
                except OSError:
                    pass


def _refuse_busy(request: socket.socket) -> None:
    try:
        request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n"
                        b"Connection: close\r\nRetry-After: 1\r\n\r\n")
    except OSError:
        pass


class _Handler(BaseHTTPRequestHandler):
    server: SlackHTTPServer
    protocol_version = "HTTP/1.1"
    # Each read waits at most this long (the server's watchdog bounds the whole request).
    timeout = 10

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

    def handle_one_request(self) -> None:
        self.server.request_started(self.connection)
        try:
            super().handle_one_request()
        except OSError:  # closed by the watchdog, or by the client mid-request
            self.close_connection = True

    def do_GET(self) -> None:
        self.server.request_read(self.connection)
        if self.path.partition("?")[0] == "/healthz":
            self._send(200, {"content-type": ["text/plain"]}, "ok")
        else:
            self._send(404, {}, "")

    def do_POST(self) -> None:
        path, _, query = self.path.partition("?")
        if path != self.server.path:
            self._refuse(404)
            return
        if self.headers.get("Transfer-Encoding"):
            self._refuse(411)  # a body of no stated length could be endless
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            self._refuse(413)
            return
        stamp = self.headers.get("X-Slack-Request-Timestamp")
        if stamp is not None and not stamp.strip().isdigit():
            self._refuse(400)  # bolt would raise on it (a 500 with a traceback)
            return
        raw = self.rfile.read(length)
        if len(raw) < length:
            self.close_connection = True  # the client gave up (or the deadline passed)
            return
        self.server.request_read(self.connection)
        body = raw.decode("utf-8", errors="replace")
        headers: dict[str, str | Sequence[str]] = {}
        for key, value in self.headers.items():
            previous = headers.get(key.lower())
            headers[key.lower()] = [*previous, value] if isinstance(previous, list) else [value]
        request = BoltRequest(body=body, query=query, headers=headers)
        try:
            response = self.server.app.dispatch(request)
        except Exception:  # noqa: BLE001 - a request must never take the server thread down
            logger.exception("dispatching a Slack request failed")
            self._send(500, {}, "")
            return
        self._send(response.status, response.headers, response.body)

    def _refuse(self, status: int) -> None:
        """Answer from the headers alone; the unread body must not be parsed as a request."""
        self.close_connection = True
        self._send(status, {"connection": ["close"]}, "")

    def _send(self, status: int, headers: dict[str, Any], body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        for key, value_s in headers.items():
            if key.lower() == "content-length":
                continue
            for value in value_s if isinstance(value_s, list | tuple) else [value_s]:
                self.send_header(key, str(value))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
