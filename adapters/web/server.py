"""The web view's HTTP server: stdlib ``ThreadingHTTPServer``, GET/HEAD only, no build step.

Access rules:

* Bound to a loopback address (the default, 127.0.0.1) a token is optional. Without one,
  requests whose ``Host`` header is not a loopback name are refused, so a web page the
  operator visits cannot read the memory through DNS rebinding.
* Bound to any other address a token is required: :func:`make_server` refuses to start
  without one. Every request must then carry it, either once as ``?token=`` (answered with a
  redirect that drops it from the URL and sets an HttpOnly cookie holding a keyed digest of
  it, never the token itself) or as ``Authorization: Bearer <token>``.

Every response carries a strict Content-Security-Policy (no scripts at all, styles only from
this origin), ``nosniff``, ``no-referrer`` and ``no-store``. Request lines are logged at
DEBUG without their query (it holds questions and tokens).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import socket
import threading
from collections.abc import Callable, Mapping
from http.cookies import CookieError, SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlencode, urlsplit

from adapters.web import views
from memory.errors import ConfigError
from memory.ports import WebView

logger = logging.getLogger(__name__)

COOKIE = "egmem_web"
CSP = ("default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
       "base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
MAX_QUERY_CHARS = 4096

Route = Callable[[WebView, Mapping[str, str]], views.Page]
ROUTES: dict[str, Route] = {
    "/": lambda eg, _params: views.index_page(eg),
    "/channel": views.channel_page,
    "/state": views.state_page,
    "/ask": views.ask_page,
}


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP literals (127.0.0.0/8, ::1)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def session_value(token: str) -> str:
    """What the cookie holds: a digest keyed by the token, so the cookie is not the token."""
    return hmac.new(token.encode(), b"egmem-web-session", hashlib.sha256).hexdigest()


def _host_name(header: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8080`` → ``::1``)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def make_handler(eg: WebView, token: str | None,
                 *, bind_host: str = "127.0.0.1") -> type[BaseHTTPRequestHandler]:
    """A request handler class serving the web view of ``eg``.

    With ``token`` set every page needs it (see module docstring); without it only requests
    addressed to a loopback name (or to ``bind_host`` itself) are served.
    """
    attrs = {
        "eg": eg,
        "token": token,
        "cookie_value": session_value(token) if token else None,
        "allowed_hosts": LOOPBACK_NAMES | {bind_host.strip("[]").lower()},
        "lock": threading.Lock(),
    }
    return type("Handler", (WebHandler,), attrs)


class WebHandler(BaseHTTPRequestHandler):
    """The web view's requests; :func:`make_handler` binds it to one memory and token."""

    server_version = "egmem-web"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    eg: WebView
    token: str | None
    cookie_value: str | None
    allowed_hosts: frozenset[str]
    lock: threading.Lock  # one memory read at a time: the store is shared with the bot
    _head = False

    # ---- methods ------------------------------------------------------------------------
    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        self._serve(head=False)

    def do_HEAD(self) -> None:  # noqa: N802
        self._serve(head=True)

    def _refuse_method(self) -> None:
        self._send(405, b"read-only: GET only\n", "text/plain; charset=utf-8",
                   extra={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = _refuse_method  # noqa: N815

    # ---- dispatch -----------------------------------------------------------------------
    def _serve(self, *, head: bool) -> None:
        self._head = head
        parts = urlsplit(self.path)
        if len(parts.query) > MAX_QUERY_CHARS:
            self._page(views.error_page(414, "Request too long", "Shorten the question."))
            return
        params = dict(parse_qsl(parts.query, keep_blank_values=True))
        if not self._authorized(parts.path, params):
            return
        if parts.path == "/static/web.css":
            self._send(200, views.stylesheet(), "text/css; charset=utf-8")
            return
        route = ROUTES.get(parts.path)
        if route is None:
            self._page(views.not_found("There is no such page."))
            return
        try:
            with self.lock:
                page = route(self.eg, params)
        except Exception:
            logger.exception("web view failed on %s", parts.path)
            page = views.error_page(500, "Something went wrong",
                                    "The page could not be built; see the server log.")
        self._page(page)

    def _authorized(self, path: str, params: dict[str, str]) -> bool:
        if self.cookie_value is None or self.token is None:
            return self._loopback_host()
        token, cookie_value = self.token, self.cookie_value
        if "token" in params:
            if hmac.compare_digest(params["token"].encode(), token.encode()):
                rest = {k: v for k, v in params.items() if k != "token"}
                target = path + (f"?{urlencode(rest)}" if rest else "")
                self._send(303, b"", "text/plain; charset=utf-8", extra={
                    "Location": target,
                    "Set-Cookie": f"{COOKIE}={cookie_value}; HttpOnly; SameSite=Strict; "
                                  "Path=/",
                })
                return False
            self._unauthorized("That token is not valid.")
            return False
        auth = self.headers.get("Authorization", "")
        if auth.startswith("Bearer ") and hmac.compare_digest(
                auth.removeprefix("Bearer ").strip().encode(), token.encode()):
            return True
        if self._cookie() is not None and hmac.compare_digest(
                self._cookie() or "", cookie_value):
            return True
        self._unauthorized("Open this view with ?token=… once, or send "
                           "Authorization: Bearer ….")
        return False

    def _loopback_host(self) -> bool:
        """Without a token: serve only requests addressed to a loopback name."""
        host = _host_name(self.headers.get("Host", ""))
        if host not in self.allowed_hosts:
            self._page(views.error_page(
                421, "Wrong host", "This view answers only on its own loopback "
                "address."))
            return False
        return True

    def _cookie(self) -> str | None:
        raw = self.headers.get("Cookie")
        if not raw:
            return None
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(raw)
        except CookieError:
            return None
        morsel = jar.get(COOKIE)
        return morsel.value if morsel is not None else None

    def _unauthorized(self, message: str) -> None:
        page = views.error_page(401, "Token required", message)
        self._send(401, views.render(page).encode(), "text/html; charset=utf-8",
                   extra={"WWW-Authenticate": 'Bearer realm="egmem"'})

    # ---- responses ----------------------------------------------------------------------
    def _page(self, page: views.Page) -> None:
        self._send(page.status, views.render(page).encode(), "text/html; charset=utf-8")

    def _send(self, status: int, body: bytes, content_type: str,
              *, extra: Mapping[str, str] | None = None) -> None:
        self.send_response(status)
        for k, v in {**SECURITY_HEADERS, **(extra or {})}.items():
            self.send_header(k, v)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not self._head:
            self.wfile.write(body)

    # ---- logging: never the query string --------------------------------------------------
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        logger.debug("%s %s -> %s", self.command, urlsplit(self.path or "").path, code)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        logger.debug("web: " + format, *args)


def make_server(eg: WebView, *, host: str = "127.0.0.1", port: int = 8080,
                token: str | None = None) -> ThreadingHTTPServer:
    """A bound (not yet serving) web-view server. ``port=0`` picks a free port.

    Raises :class:`~memory.errors.ConfigError` when ``host`` is not a loopback address and no
    token is given: the view shows every channel, private ones included.
    """
    if not is_loopback(host) and not token:
        raise ConfigError(
            f"the web view shows every channel's history, private ones included: binding it "
            f"to {host or 'all interfaces'!s} needs a token. Set EGMEM_WEB_TOKEN to a long "
            "random string (e.g. `openssl rand -hex 24`), or bind to 127.0.0.1."
        )
    cls = _ThreadingHTTPServer6 if ":" in host else ThreadingHTTPServer
    server = cls((host.strip("[]"), port), make_handler(eg, token, bind_host=host))
    server.daemon_threads = True
    return server


class _ThreadingHTTPServer6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


def serve_web(eg: WebView, *, host: str = "127.0.0.1", port: int = 8080,
              token: str | None = None) -> None:
    """Serve the read-only web view until interrupted (Ctrl-C). See :func:`make_server`."""
    server = make_server(eg, host=host, port=port, token=token)
    bound_host, bound_port = str(server.server_address[0]), int(server.server_address[1])
    logger.info("egmem web view on http://%s:%s/ (%s)", bound_host, bound_port,
                   "token required" if token else "loopback only")
    print(f"egmem web view: http://{bound_host}:{bound_port}/"
          + ("  (open once with ?token=…)" if token else ""), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
