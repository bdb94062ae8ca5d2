"""Discord backfill over discord.py's real ``channel.history`` against the fake REST API,
with the real SQLite inbox as the cursor store."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.backfill import BackfillProgress, backfill_discord, cursor_name
from adapters.discord.bot import default_intents
from memory.errors import InputError
from memory.models import Message
from memory.store.inbox import Inbox
from tests.support import fake_discord as fd
from tests.support.fake_discord import FakeDiscord, connect
from tests.support.toy_memory import ToyMemory

pytestmark = pytest.mark.timeout(60)

GUILD = "1042338871355334656"
GENERAL = "1042338871967703080"
OPS = "1042338871967703081"
HIDDEN = "1042338871967703082"
FORUM = "1042338871967703090"
THREAD = "1225890300000000001"
ARCHIVED = "1225890300000000002"
PRIVATE_THREAD = "1225890300000000003"
POST = "1225890300000000004"
BOT_ROLE = "1042339000000000009"

ANN = fd.user("175928847299117063", "ann.k", global_name="Ann K")
CI = fd.user("80351110224670000", "ci-bot", bot=True)


def guild_payload() -> fd.Json:
    return fd.guild(
        GUILD, "Acme",
        roles=[fd.role(GUILD, "@everyone", permissions=fd.MEMBER_PERMISSIONS, position=0),
               fd.role(BOT_ROLE, "egmem", permissions=fd.MEMBER_PERMISSIONS, bot_id=fd.BOT_ID)],
        channels=[
            fd.text_channel(GENERAL, GUILD, "general"),
            fd.text_channel(OPS, GUILD, "ops", overwrites=[
                fd.overwrite(GUILD, deny=fd.VIEW_CHANNEL),
                fd.overwrite(BOT_ROLE, allow=fd.VIEW_CHANNEL)]),
            fd.text_channel(HIDDEN, GUILD, "hr", overwrites=[
                fd.overwrite(GUILD, deny=fd.VIEW_CHANNEL)]),  # the bot cannot read it
            fd.forum_channel(FORUM, GUILD, "proposals"),
        ],
        members=[fd.member(ANN), fd.member(fd.BOT_USER, roles=[BOT_ROLE])],
        threads=[fd.thread(THREAD, GUILD, GENERAL, "rollback"),
                 fd.thread(PRIVATE_THREAD, GUILD, GENERAL, "salaries", private=True),
                 fd.thread(POST, GUILD, FORUM, "Adopt Postgres 16?")],
    )


def say(channel: str, n: int, *, author: fd.Json = ANN, prefix: str = "msg") -> list[fd.Json]:
    return [fd.message(channel, GUILD, author, f"{prefix} {i} in {channel[-3:]}") for i in range(n)]


class World:
    """The fake Discord with history in it, and a logged-in plain discord.py client."""

    def __init__(self, fake: FakeDiscord, client: discord.Client) -> None:
        self.fake = fake
        self.client = client

    def fetches(self, channel: str) -> list[dict[str, str]]:
        return [r.query for r in self.fake.calls("GET", f"/channels/{channel}/messages")]


History = dict[str, list[fd.Json]]


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """``world(history, scenario)`` runs ``scenario(World)`` with ``history`` served."""

    def go(history: History, scenario: Callable[[World], Coroutine[Any, Any, None]],
           archived: dict[str, list[fd.Json]] | None = None) -> None:
        async def main() -> None:
            g = guild_payload()
            async with FakeDiscord() as fake:
                monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
                for ch in g["channels"] + g["threads"]:
                    fake.add_channel(ch)
                fake.history.update(history)
                fake.archived.update(archived or {})
                client = discord.Client(intents=default_intents(), guild_ready_timeout=0.01,
                                        chunk_guilds_at_startup=False)
                try:
                    await connect(client, [g])
                    await scenario(World(fake, client))
                finally:
                    await client.close()

        asyncio.run(main())

    return go


def test_backfill_reads_channels_threads_and_posts_oldest_first(
    world: Callable[..., None], tmp_path: Path,
) -> None:
    general = say(GENERAL, 230) + say(GENERAL, 20, author=CI, prefix="build")
    history: History = {
        GENERAL: general, OPS: say(OPS, 3), HIDDEN: say(HIDDEN, 2), THREAD: say(THREAD, 4),
        ARCHIVED: say(ARCHIVED, 2), PRIVATE_THREAD: say(PRIVATE_THREAD, 2), POST: say(POST, 1),
    }
    archived = {GENERAL: [fd.thread(ARCHIVED, GUILD, GENERAL, "old", archived=True)]}
    svc, cursors = ToyMemory(), Inbox(tmp_path / "inbox.sqlite3")
    progress: list[BackfillProgress] = []

    async def scenario(w: World) -> None:
        report = await backfill_discord(w.client, svc, cursor_store=cursors, batch_size=100,
                                        progress=progress.append)
        assert (report.channels, report.fetched, report.queued, report.new) == (
            5, 250 + 3 + 4 + 2 + 1, 230 + 3 + 4 + 2 + 1, 240)
        assert report.committed == 240 and report.skipped == [HIDDEN]
        assert w.fetches(HIDDEN) == [] and w.fetches(PRIVATE_THREAD) == []
        # discord.py pages forward from the oldest message, 100 at a time
        assert [q["after"] for q in w.fetches(GENERAL)] == [
            "0", general[99]["id"], general[199]["id"]]

    world(history, scenario, archived)
    assert svc.upserts and svc.upserts[0][0].id == GENERAL  # visibility before any message
    stored = {m.id: m for m in svc.messages.values()}
    assert len(stored) == 240
    assert {m.id for m in stored.values() if m.text.startswith("build")} == set()
    keys = {(m.channel, m.thread_id) for m in stored.values()}
    assert keys == {(GENERAL, None), (OPS, None), (GENERAL, THREAD), (GENERAL, ARCHIVED),
                    (FORUM, POST)}
    queued = [e for e in svc.submitted if isinstance(e, Message) and e.channel == GENERAL
              and e.thread_id is None]
    assert [m.id for m in queued] == [m["id"] for m in general[:230]]  # oldest first
    assert cursors.get_cursor(cursor_name(GUILD, GENERAL)) == general[-1]["id"]  # bots too
    assert cursors.get_cursor(cursor_name(GUILD, ARCHIVED)) == history[ARCHIVED][-1]["id"]
    mine = [p for p in progress if p.channel_id == GENERAL]
    assert [(p.fetched, p.queued, p.done) for p in mine] == [
        (100, 100, False), (200, 200, False), (250, 230, True)]


def test_backfill_resumes_from_the_cursor_after_a_crash(
    world: Callable[..., None], tmp_path: Path,
) -> None:
    general = say(GENERAL, 250)
    svc, cursors = ToyMemory(fail_submit_after=1), Inbox(tmp_path / "inbox.sqlite3")

    async def scenario(w: World) -> None:
        with pytest.raises(OSError, match="disk full"):
            await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=GENERAL,
                                   batch_size=100,
                                   archived_threads=False)
        # the first batch was queued, so the cursor moved past it; the second was not
        assert cursors.get_cursor(cursor_name(GUILD, GENERAL)) == general[99]["id"]
        svc.fail_submit_after = None
        before = len(w.fetches(GENERAL))
        report = await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=GENERAL,
                                        batch_size=100, archived_threads=False)
        resumed = w.fetches(GENERAL)[before:]
        assert resumed[0]["after"] == general[99]["id"]
        assert (report.fetched, report.new) == (150, 150)  # nothing read twice
        again = await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=GENERAL,
                                       archived_threads=False)
        assert (again.fetched, again.new) == (0, 0)

    world({GENERAL: general}, scenario)
    assert [m.id for m in svc.messages.values()] == [m["id"] for m in general]


def test_backfill_of_one_thread_from_a_time(world: Callable[..., None], tmp_path: Path) -> None:
    thread_msgs = say(THREAD, 6)
    since = discord.utils.snowflake_time(int(thread_msgs[2]["id"]))
    svc, cursors = ToyMemory(), Inbox(tmp_path / "inbox.sqlite3")

    async def scenario(w: World) -> None:
        report = await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=THREAD,
                                        since=since)
        assert report.channels == 1 and w.fetches(GENERAL) == []

    world({THREAD: thread_msgs, GENERAL: say(GENERAL, 2)}, scenario)
    assert [m.id for m in svc.messages.values()] == [m["id"] for m in thread_msgs[3:]]
    assert all((m.channel, m.thread_id) == (GENERAL, THREAD) for m in svc.messages.values())


def test_backfill_rejects_a_channel_it_cannot_see(
    world: Callable[..., None], tmp_path: Path,
) -> None:
    cursors = Inbox(tmp_path / "inbox.sqlite3")

    async def scenario(w: World) -> None:
        with pytest.raises(InputError, match="cannot be read by the bot"):
            await backfill_discord(w.client, ToyMemory(), cursor_store=cursors, channel_id="999")
        with pytest.raises(InputError, match="not a Discord channel id"):
            await backfill_discord(w.client, ToyMemory(), cursor_store=cursors,
                                   channel_id="general")

    world({}, scenario)


def test_since_is_a_time(world: Callable[..., None], tmp_path: Path) -> None:
    msgs = say(OPS, 3)
    svc, cursors = ToyMemory(), Inbox(tmp_path / "inbox.sqlite3")

    async def scenario(w: World) -> None:
        late = datetime(2100, 1, 1, tzinfo=discord.utils.utcnow().tzinfo)
        report = await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=OPS,
                                        since=late)
        assert report.fetched == 0
        assert w.fetches(OPS)[0]["after"] == str(discord.utils.time_snowflake(late, high=True))

    world({OPS: msgs}, scenario)
    assert svc.messages == {}
