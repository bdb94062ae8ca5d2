"""Tests for the Slack and Discord normalizers against captured-style payload fixtures."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.discord.normalize import (
    normalize_discord_delete,
    normalize_discord_message,
    normalize_discord_py_message,
    normalize_discord_update,
    render_content,
    snowflake_time,
)
from adapters.slack.normalize import (
    escape_text,
    message_permalink,
    normalize_message_event,
    render_text,
)
from memory.errors import InputError
from memory.models import Delete, Edit, Message

PAYLOADS = Path(__file__).parent / "fixtures" / "payloads"
SLACK_USERS = {"U024BE7LH": "ann", "U0G9QF9C6": "Bo Diaz"}
SLACK_BASE = "https://acme.slack.com"
GUILD = "1042338871355334656"
DEPLOYS = "1042338871967703080"
THREAD = "1225890300000000001"


def load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((PAYLOADS / name).read_text())
    return data


def slack(name: str, **kwargs: Any) -> Message | Edit | Delete | None:
    envelope = load(f"slack/{name}")
    return normalize_message_event(
        envelope["event"],
        team_id=envelope["team_id"],
        users=SLACK_USERS,
        channel_name="deploys",
        permalink_base=SLACK_BASE,
        **kwargs,
    )


def slack_event(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"type": "message", "channel": "C1", "user": "U1", "ts": "1.000100"}
    base.update(fields)
    return base


# --- Slack fixtures ------------------------------------------------------------------------


def test_slack_message_renders_references() -> None:
    msg = slack("message.json")
    assert msg == Message(
        platform="slack",
        space="T061EG9R6",
        channel="C0CJ9FJ4A",
        id="1712345678.000200",
        user="U024BE7LH",
        user_name="ann",
        ts=datetime(2024, 4, 5, 19, 34, 38, 200, tzinfo=UTC),
        text=(
            "Deploy window moves to *Thursday 14:00* <UTC> @Bo Diaz can you confirm? "
            "See runbook (https://wiki.acme.dev/deploys) & #ops. @here"
        ),
        channel_name="deploys",
        permalink="https://acme.slack.com/archives/C0CJ9FJ4A/p1712345678000200",
    )


def test_slack_thread_reply_keeps_code_verbatim_and_links_into_thread() -> None:
    msg = slack("thread_reply.json")
    assert isinstance(msg, Message)
    assert msg.id == "1712345790.000300"
    assert msg.thread_id == msg.reply_to == "1712345678.000200"
    assert msg.user_name == "Bo Diaz"
    assert msg.text == (
        "Confirmed. Run it with:\n"
        "```curl -X POST -H 'X-Token: <token>' https://deploy.acme.dev/run?env=prod&dry=0```\n"
        "and ping `<@U024BE7LH>` if it fails"
    )
    assert msg.permalink == (
        "https://acme.slack.com/archives/C0CJ9FJ4A/p1712345790000300"
        "?thread_ts=1712345678.000200&cid=C0CJ9FJ4A"
    )


def test_slack_message_changed_is_an_edit_at_edit_time() -> None:
    assert slack("message_changed.json") == Edit(
        platform="slack",
        space="T061EG9R6",
        channel="C0CJ9FJ4A",
        id="1712345678.000200",
        text="Deploy window moves to *Friday 10:00* UTC @Bo Diaz",
        ts=datetime(2024, 4, 5, 19, 40, tzinfo=UTC),
    )


def test_slack_message_deleted_is_a_delete() -> None:
    assert slack("message_deleted.json") == Delete(
        platform="slack",
        space="T061EG9R6",
        channel="C0CJ9FJ4A",
        id="1712345790.000300",
        ts=datetime(2024, 4, 5, 19, 41, 40, 600, tzinfo=UTC),
    )


@pytest.mark.parametrize("name", ["bot_message.json", "channel_join.json"])
def test_slack_bot_and_system_messages_are_ignored(name: str) -> None:
    assert slack(name) is None


def test_slack_file_share_appends_file_titles() -> None:
    msg = slack("file_share.json")
    assert isinstance(msg, Message)
    assert msg.text == "Here is the Q3 plan\n[file: Q3 plan (final)]\n[file: budget.xlsx]"


def test_slack_app_mention_is_a_message() -> None:
    msg = slack("app_mention.json")
    assert isinstance(msg, Message)
    assert msg.text == "@U0BOTUSER when is the deploy window?"  # unknown user: the id
    assert msg.user_name == "Bo Diaz"


# --- Slack edge cases ----------------------------------------------------------------------


def normalize(event: Any, **kwargs: Any) -> Message | Edit | Delete | None:
    return normalize_message_event(event, team_id="T1", users={"U1": "ann"}, **kwargs)


def test_slack_thread_parent_gets_its_own_ts_as_thread_and_no_reply_to() -> None:
    msg = normalize(slack_event(text="parent", thread_ts="1.000100", reply_count=2))
    assert isinstance(msg, Message)
    assert (msg.thread_id, msg.reply_to, msg.permalink) == ("1.000100", None, None)


def test_slack_unfurl_only_change_is_not_an_edit() -> None:
    event = slack_event(
        subtype="message_changed",
        ts="2.0",
        message={
            "type": "message",
            "user": "U1",
            "text": "see <https://x.io>",
            "ts": "1.0",
            "attachments": [{"from_url": "https://x.io", "title": "X"}],
        },
        previous_message={
            "type": "message",
            "user": "U1",
            "text": "see <https://x.io>",
            "ts": "1.0",
        },
    )
    assert normalize(event) is None


def test_slack_tombstoned_parent_is_a_delete() -> None:
    event = slack_event(
        subtype="message_changed",
        ts="3.0",
        message={
            "type": "message",
            "subtype": "tombstone",
            "text": "This message was deleted.",
            "ts": "1.0",
            "thread_ts": "1.0",
            "user": "USLACKBOT",
        },
    )
    assert normalize(event) == Delete(
        platform="slack",
        space="T1",
        channel="C1",
        id="1.0",
        ts=datetime(1970, 1, 1, 0, 0, 3, tzinfo=UTC),
    )


def test_slack_edit_without_edited_ts_uses_event_ts() -> None:
    event = slack_event(
        subtype="message_changed",
        ts="5.5",
        message={"type": "message", "user": "U1", "text": "new", "ts": "1.0"},
    )
    edit = normalize(event)
    assert isinstance(edit, Edit)
    assert edit.ts == datetime(1970, 1, 1, 0, 0, 5, 500000, tzinfo=UTC)


def test_slack_bot_edit_is_ignored() -> None:
    event = slack_event(
        subtype="message_changed",
        message={"type": "message", "bot_id": "B1", "text": "x", "ts": "1.0"},
    )
    assert normalize(event) is None


def test_slack_message_without_text_or_files_is_ignored() -> None:
    assert normalize(slack_event(text="")) is None
    assert normalize(slack_event()) is None


def test_slack_blocks_are_used_when_text_is_empty() -> None:
    blocks = [
        {
            "type": "rich_text",
            "elements": [
                {
                    "type": "rich_text_section",
                    "elements": [
                        {"type": "text", "text": "ping "},
                        {"type": "user", "user_id": "U1"},
                        {"type": "text", "text": " about "},
                        {"type": "link", "url": "https://x.io"},
                    ],
                }
            ],
        }
    ]
    msg = normalize(slack_event(text="", blocks=blocks))
    assert isinstance(msg, Message)
    assert msg.text == "ping @ann about https://x.io"


def test_slack_user_name_falls_back_to_event_profile() -> None:
    msg = normalize(
        slack_event(user="U9", text="hi", user_profile={"display_name": "", "real_name": "Zed"})
    )
    assert isinstance(msg, Message) and msg.user_name == "Zed"


def test_slack_edited_flag() -> None:
    msg = normalize(slack_event(text="hi", edited={"user": "U1", "ts": "2.0"}))
    assert isinstance(msg, Message) and msg.edited


@pytest.mark.parametrize(
    ("event", "reason"),
    [
        ("not an event", "event is not an object"),
        (slack_event(text="hi", ts=None), "missing field 'ts'"),
        (slack_event(text="hi", user=None), "missing field 'user'"),
        (slack_event(text="hi", channel=5), "field 'channel' must be a string"),
        (slack_event(text="hi", ts="yesterday"), "bad 'ts'"),
        (slack_event(subtype="message_deleted"), "without 'deleted_ts'"),
        (
            slack_event(subtype="message_changed", message="x"),
            "message_changed.message is not an object",
        ),
    ],
)
def test_slack_malformed_events(event: Any, reason: str) -> None:
    assert normalize(event) is None
    with pytest.raises(InputError, match=reason):
        normalize(event, strict=True)


@pytest.mark.parametrize(
    ("raw", "rendered"),
    [
        ("<@U1>", "@ann"),
        ("<@U2|bob>", "@bob"),
        ("<@U2>", "@U2"),
        ("<#C1>", "#C1"),
        ("<#C1|>", "#C1"),
        ("<!channel> <!everyone> <!here|here>", "@channel @everyone @here"),
        ("<!subteam^S1|@eng> <!subteam^S2>", "@eng @S2"),
        ("<!date^1392734382^{date_num}|2014-02-18>", "2014-02-18"),
        ("<mailto:a@b.io|a@b.io>", "a@b.io"),
        ("<https://x.io/?a=1&amp;b=2|x &amp; y>", "x & y (https://x.io/?a=1&b=2)"),
        ("<https://x.io|https://x.io>", "https://x.io"),
        ("&amp;lt; stays literal", "&lt; stays literal"),
        ("`<#C1>` and ```<!here>```", "`<#C1>` and ```<!here>```"),
    ],
)
def test_slack_render_text(raw: str, rendered: str) -> None:
    assert render_text(raw, users={"U1": "ann"}) == rendered


def test_slack_permalink_for_parent_and_reply() -> None:
    assert message_permalink("https://a.slack.com/", channel="C1", ts="1.5") == (
        "https://a.slack.com/archives/C1/p15"
    )
    assert message_permalink("https://a.slack.com", channel="C1", ts="2.5", thread_ts="1.5") == (
        "https://a.slack.com/archives/C1/p25?thread_ts=1.5&cid=C1"
    )


@given(
    st.text().filter(lambda s: "\x00" not in s and not any(0xD800 <= ord(c) <= 0xDFFF for c in s))
)
def test_slack_escape_then_render_round_trips(text: str) -> None:
    assert render_text(escape_text(text), users={}) == text


NAMES = st.text(min_size=1, max_size=20).filter(lambda s: s.strip() and "\x00" not in s)
SLACK_IDS = st.from_regex(r"U[A-Z0-9]{2,10}", fullmatch=True)


@given(uid=SLACK_IDS, name=NAMES, before=st.text(alphabet="abc &;.", max_size=10))
def test_slack_user_mention_renders_name(uid: str, name: str, before: str) -> None:
    rendered = render_text(escape_text(before) + f"<@{uid}>", users={uid: name})
    assert rendered == before + "@" + name


# --- Discord fixtures ----------------------------------------------------------------------


def test_discord_reply_with_mentions_emoji_channel_timestamp_and_attachment() -> None:
    msg = normalize_discord_message(
        load("discord/message_create_reply.json")["d"], channel_name="deploys"
    )
    assert msg == Message(
        platform="discord",
        space=GUILD,
        channel=DEPLOYS,
        id="1225891721850781701",
        user="175928847299117063",
        user_name="Ann K",
        ts=datetime(2024, 4, 5, 19, 36, 2, 456000, tzinfo=UTC),
        text=(
            "@Nel (ops) agreed, ship it :shipit: details in #1042338871967703081 at "
            "2024-04-05T19:00:00+00:00 `<@80351110224678912>` stays\n[file: rollout-plan.png]"
        ),
        reply_to="1225890201600131077",
        channel_name="deploys",
        permalink=f"https://discord.com/channels/{GUILD}/{DEPLOYS}/1225891721850781701",
    )


def test_discord_thread_message_is_keyed_under_parent() -> None:
    payload = load("discord/message_create_thread.json")["d"]
    msg = normalize_discord_message(payload, thread_parent=DEPLOYS)
    assert isinstance(msg, Message)
    assert (msg.channel, msg.thread_id) == (DEPLOYS, THREAD)
    assert msg.user_name == "Nel (ops)"  # guild nickname wins
    assert msg.text == "Rollback plan for @Ann K: keep v2.3 images for 48h"
    assert msg.permalink == f"https://discord.com/channels/{GUILD}/{THREAD}/1225891368132542469"
    plain = normalize_discord_message(payload)
    assert plain is not None and (plain.channel, plain.thread_id) == (THREAD, None)


def test_discord_update_and_delete() -> None:
    assert normalize_discord_update(load("discord/message_update.json")["d"]) == Edit(
        platform="discord",
        space=GUILD,
        channel=DEPLOYS,
        id="1225891721850781701",
        text="@Nel (ops) agreed, but ship it Friday 10:00 instead",
        ts=datetime(2024, 4, 5, 19, 40, 11, 789000, tzinfo=UTC),
    )
    assert normalize_discord_delete(load("discord/message_delete.json")["d"]) == Delete(
        platform="discord", space=GUILD, channel=DEPLOYS, id="1225891721850781701"
    )
    in_thread = normalize_discord_delete(
        {"id": "5", "channel_id": THREAD, "guild_id": GUILD}, thread_parent=DEPLOYS
    )
    assert in_thread is not None and in_thread.channel == DEPLOYS


# --- Discord edge cases --------------------------------------------------------------------


def discord_payload(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "1225891368132542469",
        "channel_id": "42",
        "type": 0,
        "content": "hello",
        "author": {"id": "7", "username": "ann"},
    }
    base.update(fields)
    return base


@pytest.mark.parametrize(
    "payload",
    [
        discord_payload(author={"id": "7", "username": "ci", "bot": True}),
        discord_payload(webhook_id="99"),
        discord_payload(type=7, content=""),  # member join
        discord_payload(type=21),  # thread starter duplicate
        discord_payload(content="", attachments=[]),
        discord_payload(content="", embeds=[{"type": "rich", "title": "link preview"}]),
    ],
)
def test_discord_ignored_messages(payload: dict[str, Any]) -> None:
    assert normalize_discord_message(payload) is None


def test_discord_dm_without_timestamp_uses_space_at_me_and_snowflake_time() -> None:
    msg = normalize_discord_message(discord_payload())
    assert isinstance(msg, Message)
    assert msg.space == "@me"
    assert msg.ts == datetime(2024, 4, 5, 19, 34, 38, 123000, tzinfo=UTC)
    assert msg.permalink == "https://discord.com/channels/@me/42/1225891368132542469"
    assert normalize_discord_message(discord_payload(), guild_id="9") == msg.model_copy(
        update={"space": "9", "permalink": "https://discord.com/channels/9/42/1225891368132542469"}
    )


def test_discord_forward_is_not_a_reply() -> None:
    msg = normalize_discord_message(
        discord_payload(message_reference={"type": 1, "message_id": "5", "channel_id": "6"})
    )
    assert msg is not None and msg.reply_to is None


def test_discord_update_without_edit_time_is_not_an_edit() -> None:
    assert normalize_discord_update({"id": "1", "channel_id": "2", "embeds": []}) is None
    assert normalize_discord_update({"id": "1", "channel_id": "2", "content": "x"}) is None
    bot = {
        "id": "1",
        "channel_id": "2",
        "content": "x",
        "edited_timestamp": "2024-01-01T00:00:00Z",
        "author": {"id": "3", "bot": True},
    }
    assert normalize_discord_update(bot) is None


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ([], "payload is not an object"),
        (discord_payload(author=None), "author is not an object"),
        (discord_payload(id=None), "missing field 'id'"),
        (discord_payload(id="not-a-snowflake"), "not a snowflake"),
        (discord_payload(type="0"), "'type' must be an integer"),
        (discord_payload(timestamp="later"), "bad timestamp"),
        (discord_payload(content=7), "'content' must be a string"),
    ],
)
def test_discord_malformed_payloads(payload: Any, reason: str) -> None:
    assert normalize_discord_message(payload) is None
    with pytest.raises(InputError, match=reason):
        normalize_discord_message(payload, strict=True)


@pytest.mark.parametrize(
    ("raw", "rendered"),
    [
        ("<@1> <@!1> <@2>", "@Ann @Ann @2"),
        ("<#3> <#4>", "#deploys #4"),
        ("<@&5> <@&6>", "@ops @&6"),
        ("<a:party:123> <:ok:9>", ":party: :ok:"),
        ("</recall:77>", "/recall"),
        ("<t:0> <t:0:R>", "1970-01-01T00:00:00+00:00 1970-01-01T00:00:00+00:00"),
        ("<t:99999999999999999999>", "<t:99999999999999999999>"),
        ("```<@1>``` `<#3>`", "```<@1>``` `<#3>`"),
        ("a < b > c", "a < b > c"),
    ],
)
def test_discord_render_content(raw: str, rendered: str) -> None:
    got = render_content(raw, users={"1": "Ann"}, channels={"3": "deploys"}, roles={"5": "ops"})
    assert got == rendered


def test_snowflake_time() -> None:
    assert snowflake_time("175928847299117063") == datetime(
        2016, 4, 30, 11, 18, 25, 796000, tzinfo=UTC
    )


@given(st.text().filter(lambda s: "<" not in s))
def test_discord_text_without_markup_is_unchanged(text: str) -> None:
    assert render_content(text, users={}) == text


@given(uid=st.integers(min_value=0, max_value=2**63).map(str), name=NAMES, bang=st.booleans())
def test_discord_user_mention_renders_name(uid: str, name: str, bang: bool) -> None:
    token = f"<@{'!' if bang else ''}{uid}>"
    assert render_content(f"hi {token}!", users={uid: name}) == f"hi @{name}!"


# --- never raise on arbitrary input --------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=15,
)
TEXTISH = st.text(alphabet=st.sampled_from(list("<>@!#&|:`t0123456789abcU ;amplg\n")), max_size=40)


def shaped(keys: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({}, optional={k: v | JSON for k, v in keys.items()})


SLACKISH = shaped(
    {
        "type": st.sampled_from(["message", "app_mention"]),
        "subtype": st.sampled_from(
            ["", "message_changed", "message_deleted", "file_share", "bot_message", "tombstone"]
        ),
        "channel": st.just("C1"),
        "user": st.just("U1"),
        "ts": st.sampled_from(["1.000100", "2.5", "x", ""]),
        "thread_ts": st.just("1.000100"),
        "text": TEXTISH,
        "deleted_ts": st.just("1.0"),
        "files": st.lists(
            st.fixed_dictionaries({}, optional={"title": JSON, "name": JSON, "mode": JSON})
        ),
        "blocks": st.lists(JSON),
        "edited": st.fixed_dictionaries({}, optional={"ts": JSON}),
    }
)
SLACKISH = SLACKISH | st.builds(
    lambda outer, inner: {**outer, "message": inner, "previous_message": inner}, SLACKISH, SLACKISH
)
DISCORDISH = shaped(
    {
        "id": st.sampled_from(["1225891368132542469", "12", "x"]),
        "channel_id": st.just("42"),
        "guild_id": st.just("9"),
        "type": st.sampled_from([0, 19, 7]),
        "content": TEXTISH,
        "timestamp": st.sampled_from(["2024-01-01T00:00:00Z", "nope"]),
        "edited_timestamp": st.sampled_from(["2024-01-01T00:00:00Z", "nope"]),
        "author": st.fixed_dictionaries(
            {"id": st.just("7")}, optional={"bot": JSON, "username": JSON}
        ),
        "mentions": st.lists(
            st.fixed_dictionaries({}, optional={"id": JSON, "username": JSON, "member": JSON})
        ),
        "attachments": st.lists(st.fixed_dictionaries({}, optional={"filename": JSON})),
        "message_reference": st.fixed_dictionaries({}, optional={"type": JSON, "message_id": JSON}),
    }
)


@given(JSON | SLACKISH)
def test_slack_normalizer_never_raises(event: Any) -> None:
    result = normalize(event, permalink_base="https://a.slack.com")
    assert result is None or isinstance(result, Message | Edit | Delete)
    try:
        normalize(event, strict=True)
    except InputError:
        pass


@given(JSON | DISCORDISH, st.sampled_from([None, "parent"]))
def test_discord_normalizers_never_raise(payload: Any, parent: str | None) -> None:
    for fn in (normalize_discord_message, normalize_discord_update, normalize_discord_delete):
        result = fn(payload, thread_parent=parent)
        assert result is None or isinstance(result, Message | Edit | Delete)
        try:
            fn(payload, thread_parent=parent, strict=True)
        except InputError:
            pass


# --- discord.py objects --------------------------------------------------------------------


@pytest.fixture
def dpy() -> tuple[discord.Client, discord.Guild]:
    """A real discord.py state and guild (no network: built from gateway-shaped dicts)."""
    client = discord.Client(intents=discord.Intents.default())
    state = client._connection
    data: Any = {
        "id": GUILD,
        "name": "Acme Eng",
        "unavailable": False,
        "member_count": 2,
        "roles": [
            {
                "id": GUILD,
                "name": "@everyone",
                "permissions": "0",
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
            }
        ],
        "channels": [
            {
                "id": DEPLOYS,
                "type": 0,
                "name": "deploys",
                "position": 0,
                "permission_overwrites": [],
                "guild_id": GUILD,
            },
            {
                "id": "1042338871967703081",
                "type": 0,
                "name": "incidents",
                "position": 1,
                "permission_overwrites": [],
                "guild_id": GUILD,
            },
        ],
        "threads": [
            {
                "id": THREAD,
                "type": 11,
                "name": "rollback",
                "parent_id": DEPLOYS,
                "guild_id": GUILD,
                "owner_id": "80351110224678912",
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2024-04-05T19:00:00+00:00",
                    "locked": False,
                },
                "message_count": 1,
                "member_count": 2,
            },
        ],
        "members": [],
        "emojis": [],
        "stickers": [],
        "features": [],
        "voice_states": [],
        "presences": [],
        "large": False,
        "joined_at": "2024-01-01T00:00:00+00:00",
    }
    guild = discord.Guild(state=state, data=data)
    return client, guild


def dpy_message(
    dpy: tuple[discord.Client, discord.Guild], channel_id: str, payload: dict[str, Any]
) -> discord.Message:
    client, guild = dpy
    channel = guild.get_channel_or_thread(int(channel_id))
    assert isinstance(channel, discord.TextChannel | discord.Thread)
    data: Any = {
        "tts": False,
        "pinned": False,
        "mention_roles": [],
        "mention_everyone": False,
        "embeds": [],
        "attachments": [],
        "mentions": [],
        "edited_timestamp": None,
        # discord.py consumes parts of the dict (e.g. pops mentions' member data).
        **copy.deepcopy(payload),
    }
    return discord.Message(state=client._connection, channel=channel, data=data)


def test_discord_py_reply_matches_gateway_normalization(
    dpy: tuple[discord.Client, discord.Guild],
) -> None:
    payload = load("discord/message_create_reply.json")["d"]
    msg = normalize_discord_py_message(dpy_message(dpy, DEPLOYS, payload))
    gateway = normalize_discord_message(payload, channel_name="deploys")
    assert msg is not None and gateway is not None
    # discord.py knows the channel's name, so <#…> renders as the name.
    assert msg == gateway.model_copy(
        update={"text": gateway.text.replace("#1042338871967703081", "#incidents")}
    )


def test_discord_py_thread_message_is_keyed_under_parent(
    dpy: tuple[discord.Client, discord.Guild],
) -> None:
    payload = load("discord/message_create_thread.json")["d"]
    msg = normalize_discord_py_message(dpy_message(dpy, THREAD, payload))
    assert msg is not None
    assert (msg.channel, msg.thread_id, msg.channel_name) == (DEPLOYS, THREAD, "deploys")
    assert msg.text == "Rollback plan for @Ann K: keep v2.3 images for 48h"
    assert msg.ts == datetime(2024, 4, 5, 19, 34, 38, 123000, tzinfo=UTC)
    assert msg.permalink == f"https://discord.com/channels/{GUILD}/{THREAD}/1225891368132542469"


def test_discord_py_ignores_bots_and_system_messages(
    dpy: tuple[discord.Client, discord.Guild],
) -> None:
    base = load("discord/message_create_thread.json")["d"]
    bot = {**base, "author": {**base["author"], "bot": True}}
    assert normalize_discord_py_message(dpy_message(dpy, DEPLOYS, bot)) is None
    join = {**base, "type": 7, "content": ""}
    assert normalize_discord_py_message(dpy_message(dpy, DEPLOYS, join)) is None
