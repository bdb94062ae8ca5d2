"""A local fake of the slice of Discord's REST API egmem uses, plus gateway payload builders.

Discord has no local server, so tests run the real discord.py stack against this one:
``discord.http.Route.BASE`` is pointed at an aiohttp server on 127.0.0.1 (every REST call,
interaction callbacks and webhook follow-ups included, is built on that base), and gateway
events are fed to ``client._connection.parse_*`` as the raw dicts the websocket would carry.
Responses follow Discord's documented JSON shapes; every request is recorded.

Routes (under ``/api/v10``)::

    GET  /users/@me                                  the bot user
    GET  /oauth2/applications/@me                    the application
    PUT  /applications/{app}/commands                echo with ids (command sync)
    PUT  /applications/{app}/guilds/{g}/commands     same, guild-scoped
    GET  /channels/{c}                               from ``channels`` (else 404 Unknown Channel)
    GET  /channels/{c}/messages                      history from ``history`` (after/before/limit)
    POST /channels/{c}/messages                      a new bot message in channel c
    POST /channels/{c}/messages/{m}/threads          a thread with the id of message m
    POST /channels/{c}/typing                        the typing indicator (204)
    GET  /channels/{c}/threads/archived/public       from ``archived``
    POST /interactions/{id}/{token}/callback         an interaction callback response
    POST /webhooks/{app}/{token}                     an interaction follow-up message
"""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
from aiohttp import web

API = "/api/v10"
APP_ID = "1180000000000000001"
BOT_ID = "1180000000000000002"
OWNER_ID = "1180000000000000003"
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
MEMBER_PERMISSIONS = (
    discord.Permissions.text() | discord.Permissions(view_channel=True)
).value

_T0 = datetime(2024, 4, 5, 19, 0, tzinfo=UTC)
_seq = itertools.count(1)

Json = dict[str, Any]


def snowflake(at: datetime | None = None) -> str:
    """A unique snowflake whose timestamp is ``at`` (default: shortly after 2024-04-05 19:00),
    increasing with every call so ids sort like Discord's."""
    n = next(_seq)
    when = at or (_T0 + timedelta(seconds=n))
    return str(discord.utils.time_snowflake(when) + (n % 4096))


def iso(ts: datetime) -> str:
    return ts.isoformat()


# --- gateway payload builders ------------------------------------------------------------


def user(uid: str, name: str, *, bot: bool = False, global_name: str | None = None) -> Json:
    out: Json = {
        "id": uid, "username": name, "global_name": global_name, "discriminator": "0",
        "avatar": None, "public_flags": 0,
    }
    if bot:
        out["bot"] = True
    return out


BOT_USER = user(BOT_ID, "egmem", bot=True)


def member(u: Json, *, roles: list[str] | None = None, nick: str | None = None) -> Json:
    return {
        "user": u, "roles": roles or [], "nick": nick, "joined_at": "2022-11-14T09:12:45+00:00",
        "deaf": False, "mute": False, "flags": 0, "avatar": None, "premium_since": None,
        "pending": False,
    }


def role(rid: str, name: str, *, permissions: int = 0, position: int = 1,
         bot_id: str | None = None) -> Json:
    out: Json = {
        "id": rid, "name": name, "permissions": str(permissions), "position": position,
        "color": 0, "hoist": False, "managed": bot_id is not None, "mentionable": False,
        "flags": 0, "icon": None, "unicode_emoji": None,
    }
    if bot_id is not None:
        out["tags"] = {"bot_id": bot_id}
    return out


def overwrite(target: str, *, kind: int = 0, allow: int = 0, deny: int = 0) -> Json:
    """A permission overwrite for a role (``kind`` 0) or a member (1)."""
    return {"id": target, "type": kind, "allow": str(allow), "deny": str(deny)}


def text_channel(cid: str, guild_id: str, name: str, *, position: int = 0,
                 overwrites: list[Json] | None = None, kind: int = 0) -> Json:
    return {
        "id": cid, "type": kind, "guild_id": guild_id, "name": name, "position": position,
        "permission_overwrites": overwrites or [], "parent_id": None, "topic": None,
        "nsfw": False, "rate_limit_per_user": 0, "last_message_id": None, "flags": 0,
    }


def forum_channel(cid: str, guild_id: str, name: str, *, position: int = 0) -> Json:
    return {
        **text_channel(cid, guild_id, name, position=position, kind=15),
        "available_tags": [], "default_reaction_emoji": None, "default_sort_order": None,
        "default_forum_layout": 0, "default_thread_rate_limit_per_user": 0,
    }


def thread(tid: str, guild_id: str, parent_id: str, name: str, *, private: bool = False,
           archived: bool = False, owner_id: str = OWNER_ID) -> Json:
    return {
        "id": tid, "type": 12 if private else 11, "guild_id": guild_id, "parent_id": parent_id,
        "name": name, "owner_id": owner_id, "message_count": 0, "member_count": 1,
        "rate_limit_per_user": 0, "flags": 0, "last_message_id": None, "total_message_sent": 0,
        "thread_metadata": {
            "archived": archived, "auto_archive_duration": 1440,
            "archive_timestamp": iso(_T0), "locked": False,
        },
    }


def guild(gid: str, name: str, *, roles: list[Json], channels: list[Json],
          members: list[Json], threads: list[Json] | None = None) -> Json:
    """A ``GUILD_CREATE`` payload (roles must include ``@everyone``, whose id is ``gid``)."""
    return {
        "id": gid, "name": name, "icon": None, "splash": None, "discovery_splash": None,
        "owner_id": OWNER_ID, "afk_channel_id": None, "afk_timeout": 300,
        "verification_level": 0, "default_message_notifications": 0,
        "explicit_content_filter": 0, "roles": roles, "emojis": [], "stickers": [],
        "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
        "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
        "description": None, "banner": None, "premium_tier": 0,
        "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
        "premium_progress_bar_enabled": False, "joined_at": "2023-01-01T00:00:00+00:00",
        "large": False, "unavailable": False, "member_count": len(members),
        "voice_states": [], "members": members, "channels": channels,
        "threads": threads or [], "presences": [], "stage_instances": [],
        "guild_scheduled_events": [], "soundboard_sounds": [],
    }


def ready(guild_ids: list[str]) -> Json:
    """A ``READY`` payload announcing ``guild_ids`` as (not yet) unavailable guilds."""
    return {
        "v": 10, "user": {**BOT_USER, "verified": True, "mfa_enabled": False, "flags": 0},
        "guilds": [{"id": g, "unavailable": True} for g in guild_ids],
        "session_id": "fake-session", "resume_gateway_url": "wss://gateway.invalid",
        "application": {"id": APP_ID, "flags": 0}, "private_channels": [],
        "relationships": [],
    }


def message(channel_id: str, guild_id: str | None, author: Json, content: str, *,
            mid: str | None = None, mentions: list[Json] | None = None,
            mention_roles: list[str] | None = None, reply_to: str | None = None,
            author_member: Json | None = None) -> Json:
    """A ``MESSAGE_CREATE`` payload. ``message_reference`` is left out unless replying,
    as the gateway does (discord.py rejects an explicit ``None``)."""
    mid = mid or snowflake()
    out: Json = {
        "id": mid, "channel_id": channel_id, "author": author, "content": content,
        "timestamp": iso(discord.utils.snowflake_time(int(mid))), "edited_timestamp": None,
        "tts": False, "mention_everyone": False, "mentions": mentions or [],
        "mention_roles": mention_roles or [], "attachments": [], "embeds": [],
        "pinned": False, "type": 19 if reply_to else 0, "flags": 0, "components": [],
        "nonce": None,
    }
    if guild_id is not None:
        out["guild_id"] = guild_id
        out["member"] = {k: v for k, v in (author_member or member(author)).items() if k != "user"}
    if reply_to is not None:
        out["message_reference"] = {"type": 0, "message_id": reply_to, "channel_id": channel_id,
                                    "guild_id": guild_id}
    return out


def interaction(guild_id: str, channel: Json, invoker: Json, *, subcommand: str,
                options: dict[str, str]) -> Json:
    """An ``INTERACTION_CREATE`` for ``/recall <subcommand> option:value …``."""
    return {
        "id": snowflake(), "application_id": APP_ID, "type": 2, "token": "itoken-" + snowflake(),
        "version": 1, "guild_id": guild_id, "channel_id": channel["id"], "channel": channel,
        "member": {**invoker, "permissions": str(MEMBER_PERMISSIONS)},
        "app_permissions": str(MEMBER_PERMISSIONS), "locale": "en-US",
        "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": {"0": guild_id},
        "context": 0, "attachment_size_limit": 10485760,
        "data": {
            "id": "1180000000000000100", "name": "recall", "type": 1, "guild_id": guild_id,
            "options": [{
                "name": subcommand, "type": 1,
                "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()],
            }],
        },
    }


def context_menu(guild_id: str, channel: Json, invoker: Json, *, target: Json,
                 name: str = "Is this still current?") -> Json:
    """An ``INTERACTION_CREATE`` for a message context-menu command on ``target``."""
    return {
        "id": snowflake(), "application_id": APP_ID, "type": 2, "token": "itoken-" + snowflake(),
        "version": 1, "guild_id": guild_id, "channel_id": channel["id"], "channel": channel,
        "member": {**invoker, "permissions": str(MEMBER_PERMISSIONS)},
        "app_permissions": str(MEMBER_PERMISSIONS), "locale": "en-US",
        "guild_locale": "en-US", "entitlements": [],
        "authorizing_integration_owners": {"0": guild_id}, "context": 0,
        "attachment_size_limit": 10485760,
        "data": {"id": "1180000000000000101", "name": name, "type": 3, "guild_id": guild_id,
                 "target_id": target["id"], "resolved": {"messages": {target["id"]: target}}},
    }


def button_click(guild_id: str, channel: Json, invoker: Json, *, custom_id: str,
                 message: Json) -> Json:
    """An ``INTERACTION_CREATE`` for a click on a button of ``message``."""
    return {
        "id": snowflake(), "application_id": APP_ID, "type": 3, "token": "itoken-" + snowflake(),
        "version": 1, "guild_id": guild_id, "channel_id": channel["id"], "channel": channel,
        "member": {**invoker, "permissions": str(MEMBER_PERMISSIONS)},
        "app_permissions": str(MEMBER_PERMISSIONS), "locale": "en-US",
        "guild_locale": "en-US", "entitlements": [], "message": message,
        "authorizing_integration_owners": {"0": guild_id}, "context": 0,
        "attachment_size_limit": 10485760,
        "data": {"custom_id": custom_id, "component_type": 2},
    }


# --- the server ------------------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    body: Any


class FakeDiscord:
    """The fake REST API; use as ``async with FakeDiscord() as fake:`` and point
    ``discord.http.Route.BASE`` at :attr:`base_url`."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.channels: dict[str, Json] = {}
        self.history: dict[str, list[Json]] = {}
        self.archived: dict[str, list[Json]] = {}
        self.guild_of: dict[str, str] = {}
        self.guilds: dict[str, Json] = {}
        """Guilds ``GET /guilds/{id}`` finds (the bot is in them); others answer 404."""
        self.fail: dict[tuple[str, str], int] = {}
        """(method, path under /api/v10) → HTTP status to answer with instead."""
        self.hold: dict[tuple[str, str], asyncio.Event] = {}
        """(method, path under /api/v10) → answered only once the event is set (a slow
        Discord); the request is recorded when it arrives."""
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    async def __aenter__(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_route("*", API + "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}{API}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def add_channel(self, payload: Json) -> None:
        self.channels[payload["id"]] = payload
        if payload.get("guild_id"):
            self.guild_of[payload["id"]] = payload["guild_id"]

    def calls(self, method: str, prefix: str) -> list[Recorded]:
        return [r for r in self.requests if r.method == method and r.path.startswith(prefix)]

    # ---- dispatch -----------------------------------------------------------------------
    async def _handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body: Any = None
        if request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        self.requests.append(Recorded(request.method, path, dict(request.query), body))
        hold = self.hold.get((request.method, path))
        if hold is not None:
            await hold.wait()
        status = self.fail.get((request.method, path))
        if status is not None:
            return _error(status, 50001, "Missing Access")
        parts = path.strip("/").split("/")
        route = (request.method, *parts)
        match route:
            case ("GET", "users", "@me"):
                return _json(BOT_USER)
            case ("GET", "oauth2", "applications", "@me"):
                return _json(_application())
            case ("PUT", "applications", _, "commands"):
                return _json(_commands(body, None))
            case ("PUT", "applications", _, "guilds", gid, "commands"):
                return _json(_commands(body, gid))
            case ("GET", "guilds", gid):
                if gid in self.guilds:
                    return _json(self.guilds[gid])
                return _error(404, 10004, "Unknown Guild")  # the bot is not in it
            case ("GET", "channels", cid):
                if cid in self.channels:
                    return _json(self.channels[cid])
                return _error(404, 10003, "Unknown Channel")
            case ("GET", "channels", cid, "messages"):
                return _json(self._history(cid, request.query))
            case ("POST", "channels", cid, "messages"):
                return _json(self._bot_message(cid, body))
            case ("POST", "channels", _, "typing"):
                return web.Response(status=204)
            case ("POST", "channels", cid, "messages", mid, "threads"):
                return _json(self._start_thread(cid, mid, body), status=201)
            case ("GET", "channels", cid, "threads", "archived", "public"):
                return _json({"threads": self.archived.get(cid, []), "members": [],
                              "has_more": False})
            case ("POST", "interactions", iid, _, "callback"):
                return _json(_callback(iid, body))
            case ("POST", "webhooks", _, _):
                return _json(self._bot_message("0", body, flags=(body or {}).get("flags", 0)))
        return _error(404, 0, f"fake Discord has no route {request.method} {path}")

    def _history(self, cid: str, query: Any) -> list[Json]:
        msgs = sorted(self.history.get(cid, []), key=lambda m: int(m["id"]))
        limit = int(query.get("limit", 50))
        if "after" in query:
            after = int(query["after"])
            picked = [m for m in msgs if int(m["id"]) > after][:limit]
        elif "before" in query:
            before = int(query["before"])
            picked = [m for m in msgs if int(m["id"]) < before][-limit:]
        else:
            picked = msgs[-limit:]
        return sorted(picked, key=lambda m: int(m["id"]), reverse=True)  # newest first

    def _bot_message(self, cid: str, body: Any, *, flags: int = 0) -> Json:
        body = body or {}
        out = message(cid, self.guild_of.get(cid), BOT_USER, body.get("content") or "")
        out["embeds"] = body.get("embeds") or []
        out["components"] = body.get("components") or []
        out["flags"] = flags
        if body.get("message_reference"):
            out["message_reference"] = body["message_reference"]
            out["type"] = 19
        return out

    def _start_thread(self, cid: str, mid: str, body: Any) -> Json:
        gid = self.guild_of.get(cid, "0")
        out = thread(mid, gid, cid, (body or {}).get("name", "thread"), owner_id=BOT_ID)
        out["thread_metadata"]["auto_archive_duration"] = (body or {}).get(
            "auto_archive_duration", 1440)
        out["member"] = {"id": mid, "user_id": BOT_ID, "join_timestamp": iso(_T0), "flags": 0}
        self.add_channel(out)
        return out


def _json(data: Any, *, status: int = 200) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py compares the header
    # verbatim and treats anything else (e.g. "; charset=utf-8") as plain text.
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


def _error(status: int, code: int, text: str) -> web.Response:
    return _json({"message": text, "code": code}, status=status)


def _application() -> Json:
    return {
        "id": APP_ID, "name": "egmem", "icon": None, "description": "", "rpc_origins": [],
        "bot_public": True, "bot_require_code_grant": False,
        "owner": user(OWNER_ID, "owner"), "summary": "", "verify_key": "00" * 32,
        "team": None, "flags": 0, "bot": BOT_USER, "interactions_endpoint_url": None,
        "redirect_uris": [], "tags": [], "approximate_guild_count": 1,
    }


def _commands(body: Any, guild_id: str | None) -> list[Json]:
    out = []
    for i, cmd in enumerate(body or []):
        out.append({
            "description": "", **cmd, "id": str(1180000000000000100 + i),
            "application_id": APP_ID,
            "version": "1180000000000000200", "default_member_permissions": None,
            "guild_id": guild_id, "nsfw": cmd.get("nsfw", False),
        })
    return out


def _callback(iid: str, body: Any) -> Json:
    kind = (body or {}).get("type", 4)
    flags = ((body or {}).get("data") or {}).get("flags", 0)
    return {
        "interaction": {
            "id": iid, "type": 2, "activity_instance_id": None, "response_message_id": None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & 64),
        },
        "resource": {"type": kind},
    }


# --- driving a client ------------------------------------------------------------------


async def connect(client: discord.Client, guilds: list[Json]) -> None:
    """Log ``client`` in against the fake (the caller has pointed ``Route.BASE`` at it) and
    replay a gateway start: ``READY`` then one ``GUILD_CREATE`` per guild. Returns once
    discord.py has dispatched ``ready``.

    The client must be built with ``chunk_guilds_at_startup=False`` (there is no websocket
    to request member chunks over) and a small ``guild_ready_timeout``: discord.py waits
    that long after the last ``GUILD_CREATE`` before it declares itself ready.
    """
    await client.login("fake-token")
    state = client._connection
    state.parse_ready(ready([g["id"] for g in guilds]))  # type: ignore[arg-type]
    for g in guilds:
        state.parse_guild_create(g)
    await client.wait_until_ready()


_DISCORD_TASKS = ("discord.py:", "CommandTree-invoker")  # names discord.py gives its tasks


async def settle(client: discord.Client) -> None:
    """Wait until every event handler and app command discord.py started has finished,
    then (for egmem's client) the work those handlers queued, until nothing is left."""
    me = asyncio.current_task()

    def busy() -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(_DISCORD_TASKS)]

    while True:
        await asyncio.sleep(0)  # let just-dispatched events start
        pending = busy()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
            continue
        wait_idle = getattr(client, "wait_idle", None)
        if wait_idle is None:
            return
        await wait_idle()
        await asyncio.sleep(0)
        if not busy():
            return
