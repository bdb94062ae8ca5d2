"""Both Slack app manifests (HTTP and Socket Mode) against the rules of Slack's app manifest
reference (docs.slack.dev/reference/app-manifest), as a JSON Schema plus the cross-field
rules the schema cannot say: URLs exactly when Socket Mode is off, the scope each event and
Web API call needs, and agreement with what the app actually registers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from adapters.slack.views import CURRENT_CALLBACK_ID

DEPLOY = Path(__file__).parent.parent / "deploy"
HTTP, SOCKET = DEPLOY / "slack-manifest.yml", DEPLOY / "slack-manifest.socket.yml"

_URL = {"type": "string", "pattern": r"^https://[^\s]+$", "maxLength": 2048}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["display_information"],
    "additionalProperties": False,
    "properties": {
        "_metadata": {"type": "object"},
        "display_information": {
            "type": "object", "required": ["name"], "additionalProperties": False,
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 35},
                "description": {"type": "string", "maxLength": 140},
                "long_description": {"type": "string", "minLength": 174, "maxLength": 4000},
                "background_color": {"type": "string",
                                     "pattern": r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"},
            },
        },
        "features": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "app_home": {"type": "object", "additionalProperties": False, "properties": {
                    "home_tab_enabled": {"type": "boolean"},
                    "messages_tab_enabled": {"type": "boolean"},
                    "messages_tab_read_only_enabled": {"type": "boolean"}}},
                "bot_user": {"type": "object", "required": ["display_name"],
                             "additionalProperties": False, "properties": {
                                 "display_name": {"type": "string", "minLength": 1,
                                                  "maxLength": 80},
                                 "always_online": {"type": "boolean"}}},
                "shortcuts": {"type": "array", "maxItems": 10, "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["name", "type", "callback_id", "description"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 24},
                        "type": {"enum": ["message", "global"]},
                        "callback_id": {"type": "string", "minLength": 1, "maxLength": 255},
                        "description": {"type": "string", "minLength": 1, "maxLength": 150}}}},
                "slash_commands": {"type": "array", "maxItems": 50, "items": {
                    "type": "object", "additionalProperties": False,
                    "required": ["command", "description"],
                    "properties": {
                        "command": {"type": "string", "pattern": r"^/[a-z0-9_\-]{1,31}$"},
                        "url": _URL,
                        "description": {"type": "string", "minLength": 1, "maxLength": 2000},
                        "usage_hint": {"type": "string", "maxLength": 1000},
                        "should_escape": {"type": "boolean"}}}},
                "unfurl_domains": {"type": "array", "maxItems": 5},
            },
        },
        "oauth_config": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "redirect_urls": {"type": "array", "maxItems": 1000, "items": _URL},
                "scopes": {"type": "object", "additionalProperties": False, "properties": {
                    "bot": {"type": "array", "maxItems": 255, "uniqueItems": True,
                            "items": {"type": "string",
                                      "pattern": r"^[a-z_]+:[a-z_.]+$|^commands$"}},
                    "user": {"type": "array", "maxItems": 255, "uniqueItems": True}}},
            },
        },
        "settings": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "allowed_ip_address_ranges": {"type": "array", "maxItems": 10},
                "event_subscriptions": {"type": "object", "additionalProperties": False,
                                        "properties": {
                    "request_url": _URL,
                    "bot_events": {"type": "array", "maxItems": 100, "uniqueItems": True,
                                   "items": {"type": "string", "pattern": r"^[a-z_.]+$"}},
                    "user_events": {"type": "array", "maxItems": 100}}},
                "interactivity": {"type": "object", "required": ["is_enabled"],
                                  "additionalProperties": False, "properties": {
                    "is_enabled": {"type": "boolean"}, "request_url": _URL,
                    "message_menu_options_url": _URL}},
                "org_deploy_enabled": {"type": "boolean"},
                "socket_mode_enabled": {"type": "boolean"},
                "token_rotation_enabled": {"type": "boolean"},
            },
        },
    },
}

# Event → the bot scope Slack requires to subscribe to it (events API reference).
EVENT_SCOPES = {
    "app_home_opened": None, "app_uninstalled": None, "tokens_revoked": None,
    "app_mention": "app_mentions:read",
    "message.channels": "channels:history", "message.groups": "groups:history",
    "message.im": "im:history", "message.mpim": "mpim:history",
    "member_joined_channel": "channels:read", "member_left_channel": "channels:read",
    "channel_left": "channels:read", "channel_rename": "channels:read",
    "group_left": "groups:read", "group_rename": "groups:read", "user_change": "users:read",
}
# Web API methods egmem calls → the bot scope each needs.
METHOD_SCOPES = {
    "chat.postMessage": "chat:write", "chat.update": "chat:write",
    "chat.postEphemeral": "chat:write", "conversations.info": "channels:read",
    "conversations.members": "channels:read", "users.conversations": "channels:read",
    "conversations.history": "channels:history", "conversations.replies": "channels:history",
    "users.info": "users:read", "users.list": "users:read", "views.publish": None,
    "auth.test": None,
    "private channels": "groups:read", "private history": "groups:history",
    "dm info": "im:read", "group dm info": "mpim:read",
    "slash commands and shortcuts": "commands",
}
# What the bolt app registers (adapters/slack/app.py), as manifest event names.
REGISTERED_EVENTS = set(EVENT_SCOPES)


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text())
    return data


@pytest.mark.parametrize("path", [HTTP, SOCKET], ids=["http", "socket"])
def test_manifest_follows_slacks_reference(path: Path) -> None:
    manifest = load(path)
    jsonschema.validate(manifest, SCHEMA)
    settings = manifest["settings"]
    socket = settings["socket_mode_enabled"]
    urls = [settings["event_subscriptions"].get("request_url"),
            settings["interactivity"].get("request_url"),
            *[c.get("url") for c in manifest["features"]["slash_commands"]]]
    if socket:  # Socket Mode: everything arrives over the WebSocket
        assert urls == [None] * len(urls)
    else:  # HTTP: events, interactivity and every command need the public URL
        assert all(u and u.endswith("/slack/events") for u in urls), urls
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    events = set(settings["event_subscriptions"]["bot_events"])
    needed = {EVENT_SCOPES[e] for e in events} | set(METHOD_SCOPES.values())
    assert scopes == needed - {None}  # every scope used, none missing
    assert events == REGISTERED_EVENTS
    features = manifest["features"]
    assert features["app_home"]["messages_tab_enabled"] is True  # DMs to egmem
    assert features["app_home"]["home_tab_enabled"] is True
    assert features["app_home"]["messages_tab_read_only_enabled"] is False
    [shortcut] = features["shortcuts"]
    assert (shortcut["type"], shortcut["callback_id"]) == ("message", CURRENT_CALLBACK_ID)
    assert [c["command"] for c in features["slash_commands"]] == ["/recall"]
    assert settings["interactivity"]["is_enabled"] is True


def test_the_two_manifests_differ_only_in_how_slack_reaches_egmem() -> None:
    http, socket = load(HTTP), load(SOCKET)
    http["settings"]["socket_mode_enabled"] = True
    del http["settings"]["event_subscriptions"]["request_url"]
    del http["settings"]["interactivity"]["request_url"]
    for command in http["features"]["slash_commands"]:
        del command["url"]
    assert http == socket


def test_the_app_registers_what_the_manifest_subscribes() -> None:
    """Every subscribed event has a listener in the app (``message.*`` all go to
    ``message``), so nothing Slack sends is dropped unhandled."""
    from adapters.slack import app as app_module

    source = Path(app_module.__file__).read_text()
    subscribed = set(load(HTTP)["settings"]["event_subscriptions"]["bot_events"])
    for event in {"message" if e.startswith("message.") else e for e in subscribed}:
        assert f'"{event}"' in source, event
