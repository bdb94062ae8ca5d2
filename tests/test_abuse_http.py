"""The Slack HTTP endpoint under abuse: slowloris, bursts, too many connections, oversized
and malformed requests, and unauthenticated bodies that must not reach the log.

A real bolt ``App`` behind ``SlackHTTPServer`` on 127.0.0.1, driven with raw sockets.
Nothing here asserts a duration: deadlines are set small and the tests wait (generously)
for what the server must do — close a connection, accept a burst, answer.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from slack_bolt import App
from slack_sdk.signature import SignatureVerifier

from adapters.slack.server import BOLT_VERIFICATION_LOGGER, SlackHTTPServer

SECRET = "test-signing-secret"
MARKER = "numbatqzsecret"


def _app() -> App:
    app = App(signing_secret=SECRET, token="xoxb-test", token_verification_enabled=False)

    @app.event("app_mention")
    def _mention(ack: Callable[[], None]) -> None:
        ack()

    return app


@pytest.fixture
def server() -> Iterator[SlackHTTPServer]:
    srv = SlackHTTPServer(_app(), port=0, request_deadline_s=0.5, max_connections=32)
    srv.start_background()
    try:
        yield srv
    finally:
        srv.stop()


def _wait_for(what: Callable[[], bool], *, within: float = 30.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(0.05)
    return what()


def _healthy(srv: SlackHTTPServer) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    try:
        conn.request("GET", "/healthz")
        return conn.getresponse().status == 200
    finally:
        conn.close()


def _closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(30)
    try:
        return sock.recv(1024) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True


def test_slowloris_connections_are_closed_and_free_their_threads(
        server: SlackHTTPServer) -> None:
    slow = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        s.sendall(b"POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n")
        slow.append(s)
    assert _wait_for(lambda: server.connections >= 20)
    assert _healthy(server), "the server stays reachable during the attack"
    assert all(_closed_by_server(s) for s in slow)
    assert _wait_for(lambda: server.connections == 0)
    for s in slow:
        s.close()


def test_a_request_dribbled_byte_by_byte_is_cut_off(server: SlackHTTPServer) -> None:
    """Each byte arrives well within the per-read timeout; the request as a whole does
    not arrive within the deadline, so the connection is closed."""
    s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    head = b"POST /slack/events HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 400
    cut = threading.Event()

    def dribble() -> None:
        for byte in head:
            try:
                s.sendall(bytes([byte]))
            except OSError:
                cut.set()
                return
            time.sleep(0.02)

    t = threading.Thread(target=dribble, daemon=True)
    t.start()
    assert _closed_by_server(s) or cut.is_set()
    t.join(timeout=30)
    assert _wait_for(lambda: server.connections == 0)
    s.close()


def test_a_burst_waits_in_the_backlog_instead_of_being_reset() -> None:
    srv = SlackHTTPServer(_app(), port=0)  # not accepting yet: a busy accept loop
    conns = []
    try:
        for _ in range(100):
            conns.append(socket.create_connection(("127.0.0.1", srv.port), timeout=3))
        srv.start_background()
        for c in conns:
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        for c in conns:
            c.settimeout(30)
            assert c.recv(64).startswith(b"HTTP/1.1 200"), "a burst connection was dropped"
    finally:
        for c in conns:
            c.close()
        srv.stop()


def test_past_the_connection_cap_a_request_gets_503_at_once() -> None:
    srv = SlackHTTPServer(_app(), port=0, request_deadline_s=30, max_connections=4)
    srv.start_background()
    held = []
    try:
        for _ in range(4):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
            s.sendall(b"POST /slack/events HTTP/1.1\r\n")
            held.append(s)
        assert _wait_for(lambda: srv.connections == 4)
        extra = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
        extra.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        extra.settimeout(30)
        assert extra.recv(64).startswith(b"HTTP/1.1 503")
        extra.close()
    finally:
        for s in held:
            s.close()
        srv.stop()


def _post(srv: SlackHTTPServer, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    try:
        conn.request("POST", "/slack/events", body=body, headers=headers)
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def test_a_non_numeric_timestamp_gets_400_without_a_traceback(
        server: SlackHTTPServer, caplog: pytest.LogCaptureFixture,
        capfd: pytest.CaptureFixture[str]) -> None:
    caplog.set_level(logging.DEBUG)
    body = json.dumps({"type": "event_callback", "event": {"type": "app_mention"}}).encode()
    status, answer = _post(server, body, {
        "Content-Type": "application/json", "X-Slack-Request-Timestamp": "not-a-number",
        "X-Slack-Signature": "v0=" + "0" * 64})
    assert status == 400 and b"Traceback" not in answer
    assert "Traceback" not in caplog.text and "Traceback" not in capfd.readouterr().err


def test_oversized_and_unsized_bodies_are_refused_from_the_headers(
        server: SlackHTTPServer) -> None:
    for headers, want in (({"Content-Length": str(2_000_000)}, 413),
                          ({"Transfer-Encoding": "chunked"}, 411),
                          ({"Content-Length": "-5"}, 413)):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        s.sendall(f"POST /slack/events HTTP/1.1\r\nHost: x\r\n{head}\r\n".encode())
        s.settimeout(30)
        assert s.recv(64).startswith(f"HTTP/1.1 {want}".encode()), headers
        s.close()


def test_a_signed_request_still_goes_through(server: SlackHTTPServer) -> None:
    """The limits refuse abuse only: a well-formed signed request is answered."""
    body = json.dumps({"type": "url_verification", "challenge": "abc"})
    ts = str(int(time.time()))
    signature = SignatureVerifier(SECRET).generate_signature(timestamp=ts, body=body)
    assert signature is not None
    status, answer = _post(server, body.encode(), {
        "Content-Type": "application/json", "X-Slack-Request-Timestamp": ts,
        "X-Slack-Signature": signature})
    assert status == 200 and b"abc" in answer


def test_an_unauthenticated_body_never_reaches_the_log(
        caplog: pytest.LogCaptureFixture) -> None:
    """Even with the root logger at INFO when the app is built (bolt copies its level),
    the failed-signature record is kept without the body."""
    caplog.set_level(logging.INFO)
    srv = SlackHTTPServer(_app(), port=0)
    srv.start_background()
    try:
        body = json.dumps({"type": "event_callback", "event": {
            "type": "message", "text": f"the {MARKER} is hunter2"}}).encode()
        status, _ = _post(srv, body, {
            "Content-Type": "application/json",
            "X-Slack-Request-Timestamp": str(int(time.time())),
            "X-Slack-Signature": "v0=" + "0" * 64})
    finally:
        srv.stop()
    assert status == 401
    assert MARKER not in caplog.text
    assert any(r.name == BOLT_VERIFICATION_LOGGER for r in caplog.records), \
        "the failed check is still logged (a control: the test would pass if nothing logged)"


def test_serve_leaves_library_loggers_below_info() -> None:
    """`egmem serve` turns on INFO for egmem's own loggers only: libraries take their
    level from the root logger when they are built, and some log bodies at INFO."""
    from bot.serve import service_logging

    root = logging.getLogger()
    saved = root.level, {n: logging.getLogger(n).level for n in ("bot", "memory", "adapters")}
    try:
        root.setLevel(logging.WARNING)  # what `egmem` configures at start
        service_logging()
        _app()
        assert not logging.getLogger(BOLT_VERIFICATION_LOGGER).isEnabledFor(logging.INFO)
        assert not logging.getLogger("slack_bolt.App").isEnabledFor(logging.INFO)
        assert logging.getLogger("adapters.slack.app").isEnabledFor(logging.INFO)
        assert logging.getLogger("memory.pipeline").isEnabledFor(logging.INFO)
    finally:
        root.setLevel(saved[0])
        for name, level in saved[1].items():
            logging.getLogger(name).setLevel(level)
