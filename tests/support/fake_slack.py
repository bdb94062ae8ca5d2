"""A fake Slack Web API: a real HTTP server on 127.0.0.1 for the real ``slack_sdk`` client.

Implements the methods egmem uses, with Slack's shapes (``ok``/``error`` bodies, cursor
pagination in ``response_metadata.next_cursor``, HTTP 429 with ``Retry-After``)::

    auth.test  users.info  users.list  users.conversations (the bot's, or a ``user``'s)
    conversations.info  conversations.members  conversations.history  conversations.replies
    chat.postMessage  chat.postEphemeral  chat.update  views.publish
    POST /respond/<name>   a response_url (slash commands, interactive actions)

Workspace content is set up with :meth:`FakeSlack.add_user`, :meth:`add_channel` and
:meth:`add_message`. :meth:`rate_limit` and :meth:`fail` script the next responses of a
method. Every Web API call is recorded in :attr:`FakeSlack.calls` (method, merged params,
lower-cased headers) and every response_url post in :attr:`FakeSlack.responses`;
:meth:`wait_for` blocks (with a timeout) until a recorded call matches, for listeners that
run in background threads.

Usage::

    with FakeSlack() as slack:
        slack.add_channel("C1", "general", members=["U1"])
        client = WebClient(token=slack.token, base_url=slack.base_url)
"""

from __future__ import annotations

import base64
import json
import threading
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

__all__ = ["ApiCall", "FakeSlack", "ResponsePost"]


@dataclass(frozen=True)
class ApiCall:
    method: str
    params: dict[str, Any]
    headers: dict[str, str]


@dataclass(frozen=True)
class ResponsePost:
    name: str
    body: dict[str, Any]


@dataclass
class _Scripted:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Channel:
    id: str
    name: str
    kind: str  # channel | group | im | mpim
    members: list[str]
    im_user: str | None
    created: int
    ext_shared: bool = False
    messages: list[dict[str, Any]] = field(default_factory=list)  # oldest first, top level
    replies: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # thread_ts → replies


def _flag(value: Any) -> bool:
    return str(value).lower() in ("1", "true")


def _encode_cursor(offset: int) -> str:
    return base64.b64encode(f"next:{offset}".encode()).decode()


def _decode_cursor(cursor: Any) -> int:
    try:
        raw = base64.b64decode(str(cursor)).decode()
    except ValueError:
        return -1
    return int(raw.removeprefix("next:")) if raw.startswith("next:") else -1


class FakeSlack:
    def __init__(
        self,
        *,
        token: str = "xoxb-test-token",
        team_id: str = "T0TEST",
        domain: str = "acme",
        bot_user_id: str = "U0BOT",
        bot_id: str = "B0BOT",
        page_cap: int | None = None,
    ) -> None:
        self.token = token
        self.team_id = team_id
        self.domain = domain
        self.bot_user_id = bot_user_id
        self.bot_id = bot_id
        self.page_cap = page_cap  # e.g. 15: Slack's cap for non-Marketplace apps
        self.users: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, _Channel] = {}
        self.calls: list[ApiCall] = []
        self.responses: list[ResponsePost] = []
        self.refuse_responses: set[str] = set()  # response_url names answered with 404
        self.posted: dict[str, dict[str, Any]] = {}  # ts → the message as last posted/updated
        self._script: dict[str, deque[_Scripted]] = defaultdict(deque)
        self._cond = threading.Condition()
        self._ts_counter = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None
        self.add_user(bot_user_id, "egmem", bot=True)

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    @property
    def workspace_url(self) -> str:
        return f"https://{self.domain}.slack.com/"

    def response_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/respond/{name}"

    def start(self) -> FakeSlack:
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeSlack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- workspace content ----------------------------------------------------------------

    def add_user(self, user_id: str, name: str, *, display_name: str | None = None,
                 admin: bool = False, owner: bool = False, bot: bool = False,
                 guest: bool = False, single_channel: bool = False,
                 team_id: str | None = None) -> None:
        """``guest``: a multi-channel guest (``is_restricted``); ``single_channel``: a
        single-channel guest (``is_ultra_restricted``); ``team_id``: another organization's
        person (Slack Connect)."""
        self.users[user_id] = {
            "id": user_id, "team_id": team_id or self.team_id, "name": name.lower(),
            "real_name": name, "is_admin": admin, "is_owner": owner, "is_bot": bot,
            "is_restricted": guest or single_channel, "is_ultra_restricted": single_channel,
            "profile": {"display_name": display_name if display_name is not None else name,
                        "real_name": name},
        }

    def add_channel(self, channel_id: str, name: str = "", *, kind: str = "channel",
                    members: Iterable[str] = (), bot_member: bool = True,
                    im_user: str | None = None, created: int = 1_700_000_000,
                    ext_shared: bool = False) -> None:
        """``kind``: channel (public), group (private), im or mpim; ``ext_shared``: a Slack
        Connect channel (shared with another organization)."""
        member_list = list(members)
        if bot_member and self.bot_user_id not in member_list:
            member_list.append(self.bot_user_id)
        self.channels[channel_id] = _Channel(id=channel_id, name=name, kind=kind,
                                             members=member_list, im_user=im_user,
                                             created=created, ext_shared=ext_shared)

    def add_message(self, channel: str, *, user: str, text: str, ts: str | None = None,
                    thread_ts: str | None = None, edited_ts: str | None = None,
                    subtype: str | None = None, bot_id: str | None = None) -> dict[str, Any]:
        """Add a message (a thread reply when ``thread_ts`` names a parent); returns it."""
        ch = self.channels[channel]
        if ts is None:
            ts = self._next_ts(1_712_000_000)
        msg: dict[str, Any] = {"type": "message", "user": user, "text": text, "ts": ts,
                               "team": self.team_id}
        if subtype:
            msg["subtype"] = subtype
        if bot_id:
            msg["bot_id"] = bot_id
        if edited_ts:
            msg["edited"] = {"user": user, "ts": edited_ts}
        if thread_ts and thread_ts != ts:
            msg["thread_ts"] = thread_ts
            msg["parent_user_id"] = self._find(ch, thread_ts)["user"]
            ch.replies.setdefault(thread_ts, []).append(msg)
            ch.replies[thread_ts].sort(key=lambda m: float(m["ts"]))
            parent = self._find(ch, thread_ts)
            parent["thread_ts"] = thread_ts
            parent["reply_count"] = len(ch.replies[thread_ts])
            parent["latest_reply"] = ch.replies[thread_ts][-1]["ts"]
        else:
            ch.messages.append(msg)
            ch.messages.sort(key=lambda m: float(m["ts"]))
        return msg

    @staticmethod
    def _find(ch: _Channel, ts: str) -> dict[str, Any]:
        for m in ch.messages:
            if m["ts"] == ts:
                return m
        raise KeyError(f"no top-level message {ts} in {ch.id}")

    # --- scripting ------------------------------------------------------------------------

    def rate_limit(self, method: str, *, retry_after: int = 1, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` get HTTP 429 with ``Retry-After``."""
        for _ in range(times):
            self._script[method].append(_Scripted(
                429, {"ok": False, "error": "ratelimited"}, {"Retry-After": str(retry_after)}))

    def fail(self, method: str, error: str, *, times: int = 1) -> None:
        """The next ``times`` calls of ``method`` answer ``{"ok": false, "error": error}``."""
        for _ in range(times):
            self._script[method].append(_Scripted(200, {"ok": False, "error": error}))

    # --- inspection -----------------------------------------------------------------------

    def calls_to(self, method: str) -> list[ApiCall]:
        with self._cond:
            return [c for c in self.calls if c.method == method]

    def wait_for(self, method: str, *, count: int = 1, timeout: float = 10.0) -> list[ApiCall]:
        """Block until ``method`` was called ``count`` times; raises ``TimeoutError``."""
        return self._wait(lambda: [c for c in self.calls if c.method == method], count, timeout)

    def wait_for_responses(self, *, count: int = 1, timeout: float = 10.0) -> list[ResponsePost]:
        return self._wait(lambda: list(self.responses), count, timeout)

    def _wait(self, get: Callable[[], list[Any]], count: int, timeout: float) -> list[Any]:
        with self._cond:
            if not self._cond.wait_for(lambda: len(get()) >= count, timeout=timeout):
                raise TimeoutError(f"only {len(get())} of {count} expected calls arrived")
            return get()

    # --- API ------------------------------------------------------------------------------

    def _dispatch(self, method: str, params: dict[str, Any], headers: dict[str, str]
                  ) -> _Scripted:
        with self._cond:
            self.calls.append(ApiCall(method, params, headers))
            self._cond.notify_all()
            if self._script[method]:
                return self._script[method].popleft()
        if headers.get("authorization") != f"Bearer {self.token}":
            return _Scripted(200, {"ok": False, "error": "invalid_auth"})
        handler = getattr(self, "_api_" + method.replace(".", "_"), None)
        if handler is None:
            return _Scripted(200, {"ok": False, "error": "unknown_method"})
        body: dict[str, Any] = handler(params)
        return _Scripted(200, body)

    def _respond_post(self, name: str, body: dict[str, Any]) -> None:
        with self._cond:
            self.responses.append(ResponsePost(name, body))
            self._cond.notify_all()

    def _api_auth_test(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": self.workspace_url, "team": "Acme", "user": "egmem",
                "team_id": self.team_id, "user_id": self.bot_user_id, "bot_id": self.bot_id,
                "is_enterprise_install": False}

    def _api_users_info(self, p: dict[str, Any]) -> dict[str, Any]:
        user = self.users.get(str(p.get("user")))
        return {"ok": True, "user": user} if user else {"ok": False, "error": "user_not_found"}

    def _channel_obj(self, ch: _Channel) -> dict[str, Any]:
        obj: dict[str, Any] = {
            "id": ch.id, "created": ch.created,
            "is_channel": ch.kind == "channel", "is_group": ch.kind == "group",
            "is_im": ch.kind == "im", "is_mpim": ch.kind == "mpim",
            "is_private": ch.kind in ("group", "mpim"), "is_archived": False,
            "is_member": self.bot_user_id in ch.members,
            "is_ext_shared": ch.ext_shared, "is_shared": ch.ext_shared,
        }
        if ch.kind == "im":
            obj["user"] = ch.im_user
        else:
            obj["name"] = ch.name
        return obj

    def _api_conversations_info(self, p: dict[str, Any]) -> dict[str, Any]:
        ch = self.channels.get(str(p.get("channel")))
        if ch is None:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": self._channel_obj(ch)}

    def _page(self, items: list[Any], p: dict[str, Any], default: int = 100
              ) -> tuple[list[Any], str]:
        limit = int(p.get("limit") or default)
        if self.page_cap is not None:
            limit = min(limit, self.page_cap)
        start = _decode_cursor(p["cursor"]) if p.get("cursor") else 0
        if start < 0:
            raise ValueError("invalid_cursor")
        page = items[start:start + limit]
        nxt = _encode_cursor(start + limit) if start + limit < len(items) else ""
        return page, nxt

    def _paged(self, key: str, items: list[Any], p: dict[str, Any]) -> dict[str, Any]:
        try:
            page, nxt = self._page(items, p)
        except ValueError:
            return {"ok": False, "error": "invalid_cursor"}
        return {"ok": True, key: page, "has_more": bool(nxt),
                "response_metadata": {"next_cursor": nxt}}

    def _api_conversations_members(self, p: dict[str, Any]) -> dict[str, Any]:
        ch = self.channels.get(str(p.get("channel")))
        if ch is None:
            return {"ok": False, "error": "channel_not_found"}
        return self._paged("members", list(ch.members), p)

    def _api_users_list(self, p: dict[str, Any]) -> dict[str, Any]:
        return self._paged("members", list(self.users.values()), p)

    def _api_users_conversations(self, p: dict[str, Any]) -> dict[str, Any]:
        """The bot's conversations, or with ``user`` another member's (Slack lists a
        private one only when the bot is in it too)."""
        wanted = set(str(p.get("types") or "public_channel").split(","))
        kinds = {"public_channel": "channel", "private_channel": "group", "im": "im",
                 "mpim": "mpim"}
        allowed = {kinds[t] for t in wanted if t in kinds}
        who = str(p.get("user") or self.bot_user_id)
        mine = [self._channel_obj(ch) for ch in self.channels.values()
                if who in ch.members and ch.kind in allowed and (
                    ch.kind == "channel" or self.bot_user_id in ch.members)]
        return self._paged("channels", mine, p)

    def _readable(self, p: dict[str, Any]) -> _Channel | dict[str, Any]:
        ch = self.channels.get(str(p.get("channel")))
        if ch is None:
            return {"ok": False, "error": "channel_not_found"}
        if self.bot_user_id not in ch.members:
            return {"ok": False, "error": "not_in_channel"}
        return ch

    @staticmethod
    def _window(msgs: list[dict[str, Any]], p: dict[str, Any]) -> list[dict[str, Any]]:
        inclusive = _flag(p.get("inclusive"))
        out = msgs
        if p.get("oldest") is not None:
            lo = float(p["oldest"])
            out = [m for m in out if float(m["ts"]) > lo or (inclusive and float(m["ts"]) == lo)]
        if p.get("latest") is not None:
            hi = float(p["latest"])
            out = [m for m in out if float(m["ts"]) < hi or (inclusive and float(m["ts"]) == hi)]
        return out

    def _api_conversations_history(self, p: dict[str, Any]) -> dict[str, Any]:
        ch = self._readable(p)
        if isinstance(ch, dict):
            return ch
        newest_first = list(reversed(self._window(ch.messages, p)))
        return self._paged("messages", [dict(m) for m in newest_first], p)

    def _api_conversations_replies(self, p: dict[str, Any]) -> dict[str, Any]:
        ch = self._readable(p)
        if isinstance(ch, dict):
            return ch
        ts = str(p.get("ts"))
        try:
            parent = self._find(ch, ts)
        except KeyError:
            return {"ok": False, "error": "thread_not_found"}
        replies = self._window(ch.replies.get(ts, []), p)
        body = self._paged("messages", [dict(m) for m in replies], p)
        if body.get("ok"):
            # Slack repeats the parent at the top of every page.
            body["messages"] = [dict(parent), *body["messages"]]
        return body

    def _next_ts(self, base: int) -> str:
        with self._cond:
            self._ts_counter += 1
            return f"{base + self._ts_counter}.000100"

    def _api_chat_postMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        ts = self._next_ts(1_800_000_000)
        with self._cond:
            self.posted[ts] = dict(p)
        return {"ok": True, "channel": p.get("channel"), "ts": ts,
                "message": {"text": p.get("text"), "ts": ts, "bot_id": self.bot_id}}

    def _api_chat_update(self, p: dict[str, Any]) -> dict[str, Any]:
        ts = str(p.get("ts"))
        with self._cond:
            if ts not in self.posted:
                return {"ok": False, "error": "message_not_found"}
            self.posted[ts] = {**self.posted[ts], **p}
        return {"ok": True, "channel": p.get("channel"), "ts": ts, "text": p.get("text")}

    def _api_views_publish(self, p: dict[str, Any]) -> dict[str, Any]:
        view = p.get("view")
        if isinstance(view, str):
            view = json.loads(view)
        if not isinstance(view, dict) or view.get("type") != "home" or not p.get("user_id"):
            return {"ok": False, "error": "invalid_arguments"}
        return {"ok": True, "view": {**view, "id": "V" + self._next_ts(0).replace(".", "")}}

    def _api_chat_postEphemeral(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "message_ts": self._next_ts(1_800_000_000)}

    # --- HTTP -----------------------------------------------------------------------------

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                self._handle(b"")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self._handle(self.rfile.read(length))

            def _handle(self, raw: bytes) -> None:
                parts = urlsplit(self.path)
                headers = {k.lower(): v for k, v in self.headers.items()}
                if parts.path.startswith("/respond/"):
                    body = json.loads(raw or b"{}")
                    name = parts.path.removeprefix("/respond/")
                    fake._respond_post(name, body)
                    if name in fake.refuse_responses:
                        self._send(404, "expired_url", {"Content-Type": "text/plain"})
                    else:
                        self._send(200, "ok", {"Content-Type": "text/plain"})
                    return
                if not parts.path.startswith("/api/"):
                    self._send(404, "", {})
                    return
                params: dict[str, Any] = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                ctype = headers.get("content-type", "")
                if raw and "json" in ctype:
                    params.update(json.loads(raw))
                elif raw:
                    params.update({k: v[-1] for k, v in parse_qs(raw.decode()).items()})
                for key in ("blocks", "attachments", "view"):
                    if isinstance(params.get(key), str):
                        params[key] = json.loads(params[key])
                result = fake._dispatch(parts.path.removeprefix("/api/"), params, headers)
                self._send(result.status, json.dumps(result.body),
                           {"Content-Type": "application/json; charset=utf-8", **result.headers})

            def _send(self, status: int, body: str, headers: dict[str, str]) -> None:
                data = body.encode()
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
