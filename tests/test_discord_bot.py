"""The Discord bot, offline, on the real discord.py stack.

Gateway events are raw dicts (the captured fixtures and builders in
``tests/support/fake_discord.py``) fed to discord.py's connection state, which builds real
``discord.Message``/``Interaction`` objects and dispatches the bot's handlers. Everything the
bot sends goes through discord.py's real HTTP client to a local fake Discord REST API
(``Route.BASE`` points at it), which records the requests.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.bot import NO_ANSWER, EgmemDiscordClient, default_intents
from memory.errors import InputError
from memory.models import Delete, Edit, Message
from tests.support import fake_discord as fd
from tests.support.fake_discord import FakeDiscord, Recorded, connect, settle
from tests.support.toy_memory import ToyMemory

pytestmark = pytest.mark.timeout(60)

FIXTURES = Path(__file__).parent / "fixtures" / "payloads" / "discord"

# The ids of the captured fixtures: their guild, channel, thread and people.
GUILD = "1042338871355334656"
GENERAL = "1042338871967703080"
OPS = "1042338871967703081"
THREAD = "1225890300000000001"
OPS_ROLE = "1042339000000000001"
BOT_ROLE = "1042339000000000009"
CATEGORY = "1042338871967703070"
FORUM = "1042338871967703090"
FORUM_POST = "1042338871967703091"
SECRET_THREAD = "1042338871967703092"
ARCHIVED_THREAD = "1042338871967703093"

ANN = fd.user("175928847299117063", "ann.k", global_name="Ann K")
NELLY = fd.user("80351110224678912", "nelly", global_name="Nelly")
BOB = fd.user("80351110224678999", "bob")
OTHER_BOT = fd.user("80351110224670000", "ci-bot", bot=True)

PRIVATE_OPS = [
    fd.overwrite(GUILD, deny=fd.VIEW_CHANNEL),
    fd.overwrite(OPS_ROLE, allow=fd.VIEW_CHANNEL),
    fd.overwrite(BOT_ROLE, allow=fd.VIEW_CHANNEL),
]


def guild_payload() -> fd.Json:
    bot_perms = fd.MEMBER_PERMISSIONS | discord.Permissions(create_public_threads=True).value
    return fd.guild(
        GUILD, "Acme",
        roles=[
            fd.role(GUILD, "@everyone", permissions=fd.MEMBER_PERMISSIONS, position=0),
            fd.role(OPS_ROLE, "ops"),
            fd.role(BOT_ROLE, "egmem", permissions=bot_perms, position=2, bot_id=fd.BOT_ID),
        ],
        channels=[
            {**fd.text_channel(CATEGORY, GUILD, "Engineering"), "type": 4},
            fd.text_channel(GENERAL, GUILD, "general", position=1),
            fd.text_channel(OPS, GUILD, "ops", position=2, overwrites=PRIVATE_OPS),
            fd.forum_channel(FORUM, GUILD, "proposals", position=3),
        ],
        members=[
            fd.member(ANN, roles=[OPS_ROLE]), fd.member(NELLY, nick="Nel (ops)"),
            fd.member(BOB), fd.member(fd.BOT_USER, roles=[BOT_ROLE]),
        ],
        threads=[
            fd.thread(THREAD, GUILD, GENERAL, "rollback"),
            fd.thread(FORUM_POST, GUILD, FORUM, "Adopt Postgres 16?"),
            fd.thread(SECRET_THREAD, GUILD, GENERAL, "salaries", private=True),
        ],
    )


def envelope(name: str) -> fd.Json:
    data: fd.Json = json.loads((FIXTURES / name).read_text())
    return data


def feed(bot: discord.Client, event: str, data: fd.Json) -> None:
    """Hand a gateway dispatch (``t`` and ``d``) to discord.py, as its websocket would."""
    getattr(bot._connection, "parse_" + event.lower())(data)


def feed_fixture(bot: discord.Client, name: str) -> fd.Json:
    env = envelope(name)
    feed(bot, env["t"], env["d"])
    return env


def mention(text: str) -> str:
    return f"<@{fd.BOT_ID}> {text}"


class Bot(EgmemDiscordClient):
    """The real client, recording errors its handlers raise instead of only logging them."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.errors: list[tuple[str, BaseException | None]] = []
        self.seen: list[discord.Message] = []

        async def tree_error(interaction: discord.Interaction[Any], error: Exception) -> None:
            self.errors.append(("app command", error))

        self.tree.on_error = tree_error  # type: ignore[method-assign]

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        self.errors.append((event_method, sys.exc_info()[1]))

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(message)
        await super().on_message(message)


Scenario = Callable[[Bot, FakeDiscord], Coroutine[Any, Any, None]]


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``run(service, scenario, **client_options)``: start the fake Discord, point
    discord.py at it, connect a bot to the fixture guild and run ``scenario(bot, fake)``."""

    def go(service: Any, scenario: Scenario, **options: Any) -> None:
        async def main() -> None:
            async with running(monkeypatch, service, **options) as (bot, fake):
                await scenario(bot, fake)
                await settle(bot)
                assert bot.errors == []

        asyncio.run(main())

    return go


@asynccontextmanager
async def running(
    monkeypatch: pytest.MonkeyPatch, service: Any, **options: Any
) -> AsyncIterator[tuple[Bot, FakeDiscord]]:
    g = guild_payload()
    async with FakeDiscord() as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
        for ch in g["channels"] + g["threads"]:
            fake.add_channel(ch)
        bot = Bot(service=service, chunk_guilds_at_startup=False, guild_ready_timeout=0.01,
                  visibility_debounce=0.0, **options)
        try:
            await connect(bot, [g])
            await settle(bot)
            yield bot, fake
        finally:
            await bot.close()


def posts(fake: FakeDiscord) -> list[Recorded]:
    """What the bot sent, without the typing indicators."""
    return [r for r in fake.requests if r.method == "POST" and not r.path.endswith("/typing")]


def typing(fake: FakeDiscord) -> list[str]:
    return [r.path for r in fake.requests if r.method == "POST" and r.path.endswith("/typing")]


# --- messages ---------------------------------------------------------------------------


def test_default_intents_ask_for_what_the_bot_reads() -> None:
    intents = default_intents()
    assert intents.message_content and intents.members  # both privileged: portal toggles
    assert intents.guild_messages and intents.guilds and not intents.presences


def test_gateway_messages_become_memory_with_reply_thread_and_forum_keys(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    forum_msg = fd.message(FORUM_POST, GUILD, BOB, "Proposal: adopt Postgres 16 in Q3")

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed_fixture(bot, "message_create_reply.json")
        feed_fixture(bot, "message_create_thread.json")
        feed(bot, "MESSAGE_CREATE", forum_msg)
        feed(bot, "MESSAGE_CREATE", fd.message(GENERAL, GUILD, OTHER_BOT, "build #812 passed"))
        feed(bot, "MESSAGE_CREATE", fd.message(SECRET_THREAD, GUILD, ANN, "raise for Bob"))
        await settle(bot)

        # discord.py built real objects from the raw payloads
        assert [type(m.channel) for m in bot.seen] == [
            discord.TextChannel, discord.Thread, discord.Thread, discord.TextChannel,
            discord.Thread]
        reply = bot.seen[0]
        assert reply.reference is not None and reply.reference.message_id == 1225890201600131077
        assert reply.author.display_name == "Ann K"

    run(svc, scenario)
    stored = {m.id: m for m in svc.messages.values()}  # only process() fills this
    assert set(stored) == {"1225891721850781701", "1225891368132542469", forum_msg["id"]}
    reply_msg = stored["1225891721850781701"]
    assert reply_msg.channel == GENERAL and reply_msg.space == GUILD
    assert reply_msg.reply_to == "1225890201600131077"
    assert reply_msg.user == ANN["id"] and reply_msg.user_name == "Ann K"
    assert reply_msg.text.startswith("@Nel (ops) agreed, ship it :shipit:")
    assert reply_msg.text.endswith("[file: rollout-plan.png]")
    assert reply_msg.permalink == (
        f"https://discord.com/channels/{GUILD}/{GENERAL}/1225891721850781701")
    in_thread = stored["1225891368132542469"]
    assert (in_thread.channel, in_thread.thread_id) == (GENERAL, THREAD)
    assert in_thread.channel_name == "general"
    post = stored[forum_msg["id"]]
    assert (post.channel, post.thread_id, post.channel_name) == (FORUM, FORUM_POST, "proposals")


def test_a_mention_is_answered_in_a_new_thread_with_citations_and_the_chain(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    first = fd.message(GENERAL, GUILD, NELLY, "Deploy window is Thursday 14:00 UTC")
    second = fd.message(GENERAL, GUILD, ANN, "Update: deploy window moved to Friday 10:00 UTC",
                        reply_to=first["id"])
    secret = fd.message(OPS, GUILD, ANN, "ops only: deploy window for the hotfix is tonight")
    question = fd.message(GENERAL, GUILD, BOB, mention("when is the deploy window?"),
                          mentions=[fd.BOT_USER])
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        for m in (first, second, secret):
            feed(bot, "MESSAGE_CREATE", m)
        await settle(bot)
        feed(bot, "MESSAGE_CREATE", question)
        await settle(bot)
        sent.extend(posts(fake))
        # the typing indicator shows in the new thread while memory looks
        assert typing(fake) == [f"/channels/{question['id']}/typing"]
        order = [r.path for r in fake.requests if r.method == "POST"]
        assert order.index(f"/channels/{question['id']}/typing") < order.index(
            f"/channels/{question['id']}/messages")

    run(svc, scenario)
    assert svc.asks == [dict(question="when is the deploy window?", platform="discord",
                             space=GUILD, user=BOB["id"], channel=GENERAL, widen=False)]
    assert question["id"] not in {e.id for e in svc.submitted}  # questions are not memory
    assert [r.path for r in sent] == [
        f"/channels/{GENERAL}/messages/{question['id']}/threads",
        f"/channels/{question['id']}/messages",  # a thread started from a message has its id
    ]
    assert sent[0].body["name"] == "when is the deploy window?"
    body = sent[1].body
    assert body["allowed_mentions"] == {"parse": []}
    (embed,) = body["embeds"]
    assert embed["title"] == "when is the deploy window?"
    assert embed["description"] == "Update: deploy window moved to Friday 10:00 UTC"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    # the chain first, then the citations
    assert list(fields) == ["Deploy window", "[1] Nelly", "[2] Ann K"]
    cite = fields["[2] Ann K"]
    assert cite.startswith(f"<#{GENERAL}> · ")  # a channel link
    assert f"[jump](https://discord.com/channels/{GUILD}/{GENERAL}/{second['id']})" in cite
    assert "> Update: deploy window moved to Friday 10:00 UTC" in cite
    assert f"<t:{int(discord.utils.snowflake_time(int(second['id'])).timestamp())}:f>" in cite
    chain = fields["Deploy window"]
    assert chain.startswith("now **Update: deploy window moved to Friday 10:00 UTC** (Ann K, <t:")
    assert "was **Deploy window is Thursday 14:00 UTC** (Nelly)" in chain
    assert "hotfix" not in json.dumps(embed)  # a public answer never reads #ops
    buttons = [c["custom_id"] for row in body["components"] for c in row["components"]]
    assert [b.split(":")[2] for b in buttons] == ["up", "down"]  # 👍/👎 under every answer


def test_a_mention_inside_a_thread_is_answered_there(run: Callable[..., None]) -> None:
    svc = ToyMemory()
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed_fixture(bot, "message_create_thread.json")
        await settle(bot)
        feed(bot, "MESSAGE_CREATE", fd.message(
            THREAD, GUILD, ANN, f"<@!{fd.BOT_ID}> how long do we keep the v2.3 images?",
            mentions=[fd.BOT_USER]))
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    assert [r.path for r in sent] == [f"/channels/{THREAD}/messages"]
    assert "keep v2.3 images for 48h" in sent[0].body["embeds"][0]["description"]
    assert svc.asks[0]["channel"] == GENERAL  # asked from the thread's channel scope


def test_only_a_mention_in_the_text_or_of_the_bot_role_is_a_question(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    ping_only = fd.message(GENERAL, GUILD, ANN, "thanks, that helped", mentions=[fd.BOT_USER])
    by_role = fd.message(GENERAL, GUILD, ANN, f"<@&{BOT_ROLE}> deploy window?",
                         mention_roles=[BOT_ROLE])
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed(bot, "MESSAGE_CREATE", ping_only)  # a reply to the bot pings it: not a question
        await settle(bot)
        assert posts(fake) == []
        feed(bot, "MESSAGE_CREATE", by_role)
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    assert ping_only["id"] in {m.id for m in svc.messages.values()}
    assert [a["question"] for a in svc.asks] == ["deploy window?"]
    assert sent[0].path.endswith(f"/messages/{by_role['id']}/threads")


def test_an_empty_mention_gets_usage_and_failures_get_a_short_reply(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    empty = fd.message(GENERAL, GUILD, ANN, mention(""), mentions=[fd.BOT_USER])
    broken = fd.message(THREAD, GUILD, ANN, mention("deploy?"), mentions=[fd.BOT_USER])
    refused = fd.message(THREAD, GUILD, ANN, mention("deploy??"), mentions=[fd.BOT_USER])
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed(bot, "MESSAGE_CREATE", empty)
        await settle(bot)
        svc.ask_error = RuntimeError("index corrupt")
        feed(bot, "MESSAGE_CREATE", broken)
        await settle(bot)
        svc.ask_error = InputError("That question is too vague: name a topic.")
        feed(bot, "MESSAGE_CREATE", refused)
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    usage, apology, advice = sent
    assert usage.path == f"/channels/{GENERAL}/messages"
    assert usage.body["message_reference"]["message_id"] == int(empty["id"])
    assert "@egmem" in usage.body["content"]
    assert apology.body["content"] == NO_ANSWER  # internals are not shown
    assert advice.body["content"] == "That question is too vague: name a topic."


def test_when_a_thread_cannot_be_started_the_answer_is_a_reply(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    question = fd.message(GENERAL, GUILD, ANN, mention("anything?"), mentions=[fd.BOT_USER])
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        fake.fail[("POST", f"/channels/{GENERAL}/messages/{question['id']}/threads")] = 403
        feed(bot, "MESSAGE_CREATE", question)
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    assert [r.path for r in sent] == [
        f"/channels/{GENERAL}/messages/{question['id']}/threads", f"/channels/{GENERAL}/messages"]
    assert sent[1].body["message_reference"]["message_id"] == int(question["id"])
    assert sent[1].body["embeds"][0]["description"] == "I found nothing about that."


# --- edits and deletes ------------------------------------------------------------------


def test_raw_edits_and_deletes_reach_memory_without_the_message_cache(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    in_thread = fd.message(THREAD, GUILD, NELLY, "keep images for 24h")
    bulk = [fd.message(GENERAL, GUILD, BOB, f"spam {i}") for i in range(3)]

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        assert list(bot.cached_messages) == []
        feed_fixture(bot, "message_create_reply.json")
        for m in (in_thread, *bulk):
            feed(bot, "MESSAGE_CREATE", m)
        await settle(bot)
        feed_fixture(bot, "message_update.json")
        edit = {**in_thread, "content": "keep images for 48h",
                "edited_timestamp": "2024-04-05T20:00:00+00:00"}
        feed(bot, "MESSAGE_UPDATE", edit)
        # an embed unfurl is an update without edited_timestamp: not an edit
        feed(bot, "MESSAGE_UPDATE", {**bulk[0], "embeds": [{"type": "link"}]})
        await settle(bot)
        feed_fixture(bot, "message_delete.json")
        feed(bot, "MESSAGE_DELETE_BULK", {"ids": [m["id"] for m in bulk],
                                          "channel_id": GENERAL, "guild_id": GUILD})
        await settle(bot)
        assert list(bot.cached_messages) == []  # everything above went through the raw events

    run(svc, scenario, max_messages=None)
    edits = [e for e in svc.submitted if isinstance(e, Edit)]
    assert [(e.channel, e.id, e.text) for e in edits] == [
        (GENERAL, "1225891721850781701", "@Nel (ops) agreed, but ship it Friday 10:00 instead"),
        (GENERAL, in_thread["id"], "keep images for 48h"),  # keyed under the thread's parent
    ]
    deletes = [e for e in svc.submitted if isinstance(e, Delete)]
    assert [(d.space, d.channel, d.id) for d in deletes] == [
        (GUILD, GENERAL, "1225891721850781701"), *[(GUILD, GENERAL, m["id"]) for m in bulk]]
    remaining = {m.id: m for m in svc.messages.values()}
    assert set(remaining) == {in_thread["id"]}
    assert remaining[in_thread["id"]].text == "keep images for 48h"
    assert remaining[in_thread["id"]].edited


def test_an_edit_in_a_thread_missing_from_the_cache_is_keyed_under_its_parent(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    archived = fd.thread(ARCHIVED_THREAD, GUILD, GENERAL, "old", archived=True)
    update = {**fd.message(ARCHIVED_THREAD, GUILD, ANN, "freeze moved to May"),
              "edited_timestamp": "2024-04-06T08:00:00+00:00"}
    fetched: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        fake.add_channel(archived)  # known to Discord, not to the gateway cache
        feed(bot, "MESSAGE_UPDATE", update)
        feed(bot, "MESSAGE_DELETE", {"id": "1", "channel_id": ARCHIVED_THREAD, "guild_id": GUILD})
        await settle(bot)
        fetched.extend(fake.calls("GET", f"/channels/{ARCHIVED_THREAD}"))

    run(svc, scenario)
    assert fetched
    assert [(type(e).__name__, e.channel) for e in svc.submitted] == [
        ("Edit", GENERAL), ("Delete", GENERAL)]


def test_an_edit_is_queued_before_its_thread_is_fetched_and_moved_before_the_commit(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    archived = fd.thread(ARCHIVED_THREAD, GUILD, GENERAL, "old", archived=True)
    said = fd.message(ARCHIVED_THREAD, GUILD, ANN, "freeze in April")
    update = {**said, "content": "freeze moved to May",
              "edited_timestamp": "2024-04-06T08:00:00+00:00"}
    key = ("discord", GUILD, GENERAL, said["id"])

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        svc.submit([Message(platform="discord", space=GUILD, channel=GENERAL, id=said["id"],
                            user=ANN["id"], ts=datetime(2024, 4, 5, 19, tzinfo=UTC),
                            text="freeze in April", thread_id=ARCHIVED_THREAD)])
        await asyncio.to_thread(svc.process)
        fake.add_channel(archived)  # known to Discord, not to the gateway cache
        lookup = fake.hold[("GET", f"/channels/{ARCHIVED_THREAD}")] = asyncio.Event()
        feed(bot, "MESSAGE_UPDATE", update)
        try:
            while not fake.calls("GET", f"/channels/{ARCHIVED_THREAD}"):
                await asyncio.sleep(0.01)
            # durable before Discord is asked where the thread is: under its own id for now
            assert [(type(e).__name__, e.channel) for e in svc.submitted] == [
                ("Message", GENERAL), ("Edit", ARCHIVED_THREAD)]
            commit = asyncio.ensure_future(asyncio.to_thread(svc.process))
            done, _ = await asyncio.wait({commit}, timeout=1.0)
            assert not done  # a commit waits for the correction in flight
        finally:
            lookup.set()
        await commit

    run(svc, scenario)
    assert [(type(e).__name__, e.channel) for e in svc.submitted] == [
        ("Message", GENERAL), ("Edit", GENERAL)]
    assert svc.messages[key].text == "freeze moved to May" and svc.messages[key].edited


def test_an_edit_in_a_private_thread_missing_from_the_cache_is_withdrawn(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    hidden = fd.thread(ARCHIVED_THREAD, GUILD, GENERAL, "pay", private=True, archived=True)
    update = {**fd.message(ARCHIVED_THREAD, GUILD, ANN, "raise for Bob"),
              "content": "no raise", "edited_timestamp": "2024-04-06T08:00:00+00:00"}

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        fake.add_channel(hidden)
        feed(bot, "MESSAGE_UPDATE", update)
        feed(bot, "MESSAGE_DELETE", {"id": update["id"], "channel_id": ARCHIVED_THREAD,
                                     "guild_id": GUILD})
        await settle(bot)
        await asyncio.to_thread(svc.process)

    run(svc, scenario)
    assert svc.submitted == [] and svc.messages == {}
    assert sorted((type(old).__name__, new) for old, new in svc.amends) == [
        ("Delete", None), ("Edit", None)]  # queued at once, withdrawn when fetched


def test_private_threads_are_neither_remembered_nor_edited(run: Callable[..., None]) -> None:
    svc = ToyMemory()

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        msg = fd.message(SECRET_THREAD, GUILD, ANN, "raise for Bob")
        feed(bot, "MESSAGE_CREATE", msg)
        feed(bot, "MESSAGE_UPDATE", {**msg, "content": "no raise",
                                     "edited_timestamp": "2024-04-06T08:00:00+00:00"})
        feed(bot, "MESSAGE_DELETE", {"id": msg["id"], "channel_id": SECRET_THREAD,
                                     "guild_id": GUILD})

    run(svc, scenario)
    assert svc.submitted == []


# --- visibility -------------------------------------------------------------------------


def test_channel_visibility_follows_permissions(run: Callable[..., None]) -> None:
    svc = ToyMemory()

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        (first,) = svc.upserts  # on guild available, one batch for the whole guild
        assert {c.id: (c.name, c.is_private, c.members) for c in first} == {
            GENERAL: ("general", False, ()),
            OPS: ("ops", True, (ANN["id"],)),  # the bot can view it too, but is no reader
            FORUM: ("proposals", False, ()),
        }
        # #general becomes private, readable by Nelly (a member overwrite) only
        closed = fd.text_channel(GENERAL, GUILD, "general", position=1, overwrites=[
            fd.overwrite(GUILD, deny=fd.VIEW_CHANNEL),
            fd.overwrite(NELLY["id"], kind=1, allow=fd.VIEW_CHANNEL)])
        feed(bot, "CHANNEL_UPDATE", closed)
        await settle(bot)
        assert svc.upserts[-1] == [svc.channels[(GUILD, GENERAL)]]
        assert svc.channels[(GUILD, GENERAL)].is_private
        assert svc.channels[(GUILD, GENERAL)].members == (NELLY["id"],)
        # Bob joins the ops role: #ops gains a reader after the debounced refresh
        feed(bot, "GUILD_MEMBER_UPDATE", {**fd.member(BOB, roles=[OPS_ROLE]),
                                          "guild_id": GUILD})
        await settle(bot)
        assert svc.channels[(GUILD, OPS)].members == tuple(sorted([ANN["id"], BOB["id"]]))
        # a new channel is recorded as it appears
        feed(bot, "CHANNEL_CREATE", fd.text_channel("1042338871967703099", GUILD, "random"))
        await settle(bot)
        assert not svc.channels[(GUILD, "1042338871967703099")].is_private

    run(svc, scenario)


# --- /recall ----------------------------------------------------------------------------


def test_recall_is_registered_with_discord_as_a_guild_only_group(
    run: Callable[..., None],
) -> None:
    synced: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        synced.extend(fake.calls("PUT", "/applications/"))

    run(ToyMemory(), scenario)
    (put,) = synced
    assert put.path == f"/applications/{fd.APP_ID}/commands"
    recall, current = put.body
    assert recall["name"] == "recall"
    assert recall["contexts"] == [0] and recall["dm_permission"] is False  # 0 = guild
    subs = {o["name"]: o for o in recall["options"]}
    assert {name: o["type"] for name, o in subs.items()} == {
        "ask": 1, "history": 1, "digest": 1, "backfill": 1}
    assert [c["value"] for c in subs["digest"]["options"][0]["choices"]] == ["on", "off"]
    # the message context-menu command (type 3), in servers only
    assert (current["name"], current["type"], current["contexts"]) == (
        "Is this still current?", 3, [0])
    assert [(o["name"], o["type"], o["required"]) for o in subs["ask"]["options"]] == [
        ("question", 3, True)]
    assert [o["name"] for o in subs["history"]["options"]] == ["topic"]


def _seed_private_and_public(bot: Bot) -> None:
    feed(bot, "MESSAGE_CREATE", fd.message(
        GENERAL, GUILD, NELLY, "Deploy freeze starts Monday"))
    feed(bot, "MESSAGE_CREATE", fd.message(
        OPS, GUILD, ANN, "ops: deploy freeze is moved to Wednesday for the hotfix"))


def test_recall_ask_is_ephemeral_and_searches_the_askers_private_channels(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    by_ann = fd.interaction(GUILD, general, fd.member(ANN, roles=[OPS_ROLE]),
                            subcommand="ask", options={"question": "deploy freeze hotfix"})
    by_bob = fd.interaction(GUILD, general, fd.member(BOB),
                            subcommand="ask", options={"question": "deploy freeze hotfix"})
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        _seed_private_and_public(bot)
        await settle(bot)
        feed(bot, "INTERACTION_CREATE", by_ann)
        await settle(bot)
        feed(bot, "INTERACTION_CREATE", by_bob)
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    ann_defer, ann_answer, bob_defer, bob_answer = sent
    assert ann_defer.path == f"/interactions/{by_ann['id']}/{by_ann['token']}/callback"
    assert ann_defer.body == {"type": 5, "data": {"flags": 64}}  # deferred, ephemeral
    assert ann_answer.path == f"/webhooks/{fd.APP_ID}/{by_ann['token']}"
    assert ann_answer.body["flags"] & 64
    ann_text = json.dumps(ann_answer.body["embeds"])
    assert "moved to Wednesday for the hotfix" in ann_text and f"<#{OPS}>" in ann_text
    assert bob_answer.body["flags"] & 64
    assert "Wednesday" not in json.dumps(bob_answer.body["embeds"])  # Bob cannot read #ops
    assert [(a["user"], a["channel"], a["widen"]) for a in svc.asks] == [
        (ANN["id"], GENERAL, True), (BOB["id"], GENERAL, True)]


def test_recall_history_shows_the_timeline_with_superseded_values_struck(
    run: Callable[..., None],
) -> None:
    svc = ToyMemory()
    thread_ch = fd.thread(THREAD, GUILD, GENERAL, "rollback")
    ask = fd.interaction(GUILD, thread_ch, fd.member(NELLY), subcommand="history",
                         options={"topic": "deploy freeze"})
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        _seed_private_and_public(bot)
        feed(bot, "MESSAGE_CREATE", fd.message(
            GENERAL, GUILD, ANN, "Correction: deploy freeze starts Tuesday"))
        await settle(bot)
        feed(bot, "INTERACTION_CREATE", ask)
        await settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    assert svc.histories == [dict(topic="deploy freeze", platform="discord", space=GUILD,
                                  user=NELLY["id"], channel=GENERAL, widen=True)]
    _, followup = sent
    (embed,) = followup.body["embeds"]
    assert embed["title"] == "History: deploy freeze"
    (field,) = embed["fields"]  # Nelly cannot read #ops: one state, in #general
    assert f"in <#{GENERAL}>" in field["value"]
    assert field["value"].index("~~Deploy freeze starts Monday~~") < field["value"].index(
        "**Correction: deploy freeze starts Tuesday**")


def test_submit_failure_is_logged_not_raised_and_later_messages_still_flow(
    run: Callable[..., None], caplog: pytest.LogCaptureFixture,
) -> None:
    svc = ToyMemory(fail_submit_after=0)
    later = fd.message(GENERAL, GUILD, ANN, "second")

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed(bot, "MESSAGE_CREATE", fd.message(GENERAL, GUILD, ANN, "zebra crossing"))
        await settle(bot)
        svc.fail_submit_after = None
        feed(bot, "MESSAGE_CREATE", later)

    run(svc, scenario)
    assert "could not queue 1 Discord event(s)" in caplog.text
    assert "zebra" not in caplog.text  # ids are logged, never message text
    assert [m.id for m in svc.messages.values()] == [later["id"]]


def test_messages_are_normalized_once_per_event(run: Callable[..., None]) -> None:
    svc = ToyMemory()

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        env = envelope("message_create_reply.json")
        feed(bot, "MESSAGE_CREATE", env["d"])
        feed(bot, "MESSAGE_CREATE", env["d"])  # a gateway redelivery
        await settle(bot)

    run(svc, scenario)
    assert [type(e) for e in svc.submitted] == [Message]


# --- end to end with the real memory service -------------------------------------------


def test_end_to_end_with_the_service_from_bot_app_build(
    run: Callable[..., None], tmp_path: Path,
) -> None:
    from bot.app import build
    from bot.settings import Settings

    svc = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    first = fd.message(GENERAL, GUILD, NELLY, "The deploy window is Thursday 14:00 UTC.")
    second = fd.message(GENERAL, GUILD, ANN, "Update: the deploy window moved to Friday 10:00 UTC.",
                        reply_to=first["id"])
    secret = fd.message(OPS, GUILD, ANN, "ops note: the deploy window for the hotfix is tonight")
    question = fd.message(GENERAL, GUILD, BOB, mention("when is the deploy window?"),
                          mentions=[fd.BOT_USER])
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    history = fd.interaction(GUILD, general, fd.member(ANN, roles=[OPS_ROLE]),
                             subcommand="history", options={"topic": "deploy window"})
    sent: list[Recorded] = []

    def stored(mid: str) -> Any:
        return svc.store.find_message(channel=GENERAL, message_id=mid, platform="discord",
                                      space=GUILD)

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        for m in (first, second, secret):
            feed(bot, "MESSAGE_CREATE", m)
        await settle(bot)
        feed(bot, "MESSAGE_CREATE", question)
        await settle(bot)
        feed(bot, "MESSAGE_UPDATE", {
            **second, "content": "Update: the deploy window moved to Friday 11:00 UTC.",
            "edited_timestamp": "2024-04-06T08:00:00+00:00"})
        await settle(bot)
        node = stored(second["id"])
        assert node is not None and node.edited and "Friday 11:00" in node.text
        feed(bot, "INTERACTION_CREATE", history)
        await settle(bot)
        feed(bot, "MESSAGE_DELETE", {"id": second["id"], "channel_id": GENERAL,
                                     "guild_id": GUILD})
        await settle(bot)
        assert stored(second["id"]) is None
        sent.extend(posts(fake))

    try:
        run(svc, scenario)
        ops = [c for c in svc.store.channels(platform="discord", space=GUILD) if c.id == OPS]
        assert [(c.is_private, c.members) for c in ops] == [(True, (ANN["id"],))]
    finally:
        svc.close()
    _thread, answer, _defer, timeline = sent
    # The exact wording of values is the memory's business; the adapter's is that the
    # current value leads, the superseded one is struck through, and sources are cited.
    (embed,) = answer.body["embeds"]
    assert "10:00" in embed["description"]
    names = [f["name"] for f in embed["fields"]]
    assert "[1] Ann K" in names and "hotfix" not in json.dumps(embed)
    chain = next(f["value"] for f in embed["fields"] if not f["name"].startswith("["))
    now, was = chain.split(" · ")[:2]
    assert now.startswith("now **") and "10:00" in now and "(Ann K, <t:" in now
    assert was.startswith("was **") and "14:00" in was and "(Nelly)" in was
    (hist,) = timeline.body["embeds"]
    current = hist["fields"][0]["value"].splitlines()[-1]
    assert current.startswith("**") and "11:00" in current.split("**")[1]  # after the edit
