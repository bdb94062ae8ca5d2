"""A small threaded HTTP front for a bolt :class:`App` (Events API, commands, actions).

Bolt's own ``app.start()`` is a single-threaded development server bound to every
interface. This one is the same few lines over :class:`ThreadingHTTPServer` so one slow
request (a ``users.info`` lookup, a disk sync) never holds up the next, with an explicit
bind address, a body-size cap and a ``GET /healthz`` for load balancers. Bolt does the
signature check, URL verification and routing; this only moves bytes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from slack_bolt import App, BoltRequest

logger = logging.getLogger(__name__)

DEFAULT_PATH = "/slack/events"
MAX_BODY_BYTES = 1_000_000  # Slack payloads are a few KB; refuse anything absurd.


class SlackHTTPServer(ThreadingHTTPServer):
    """``SlackHTTPServer(app, host=, port=)``; ``port=0`` picks a free port (see
    :attr:`port`). Use :meth:`serve_forever` or :meth:`start_background`."""

    daemon_threads = True

    def __init__(self, app: App, *, host: str = "127.0.0.1", port: int = 3000,
                 path: str = DEFAULT_PATH) -> None:
        self.app = app
        self.path = path
        self._thread: threading.Thread | None = None
        super().__init__((host, port), _Handler)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        host = str(self.server_address[0])
        return f"http://{host}:{self.port}{self.path}"

    def start_background(self) -> SlackHTTPServer:
        self._thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="slack-http", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    server: SlackHTTPServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:
        if self.path.partition("?")[0] == "/healthz":
            self._send(200, {"content-type": ["text/plain"]}, "ok")
        else:
            self._send(404, {}, "")

    def do_POST(self) -> None:
        path, _, query = self.path.partition("?")
        if path != self.server.path:
            self._send(404, {}, "")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY_BYTES:
            self.close_connection = True  # the unread body must not be parsed as a request
            self._send(413, {"connection": ["close"]}, "")
            return
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        headers: dict[str, str | Sequence[str]] = {}
        for key, value in self.headers.items():
            previous = headers.get(key.lower())
            headers[key.lower()] = [*previous, value] if isinstance(previous, list) else [value]
        request = BoltRequest(body=body, query=query, headers=headers)
        response = self.server.app.dispatch(request)
        self._send(response.status, response.headers, response.body)

    def _send(self, status: int, headers: dict[str, Any], body: str) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        for key, values in headers.items():
            if key.lower() == "content-length":
                continue
            for value in values if isinstance(values, list | tuple) else [values]:
                self.send_header(key, str(value))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
