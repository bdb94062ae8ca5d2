"""Abuse of the Discord adapter, on the real discord.py stack against the fake Discord:
a channel hidden from a role is not public, past questions to the bot read back from
history are not team knowledge, imported links cannot break out of a masked link, and a
guild's memory is deleted only on Discord's own word that the bot was removed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from adapters.discord.backfill import backfill_discord
from adapters.discord.bot import default_intents
from adapters.discord.embeds import citation_field, jump
from adapters.discord.visibility import guild_visibility
from memory.models import Citation, Message
from memory.store.inbox import Inbox
from tests.support import fake_discord as fd
from tests.support.fake_discord import FakeDiscord, connect
from tests.support.toy_memory import ToyMemory
from tests.test_discord_backfill import ANN, GENERAL, GUILD, World, world  # noqa: F401
from tests.test_discord_bot import Bot, run  # noqa: F401

pytestmark = pytest.mark.timeout(60)

INTERNAL = "1042338871967703099"
CONTRACTOR_ROLE = "1042339000000000077"
EMP = fd.user("175928847299117063", "emp")
CON = fd.user("175928847299117099", "contractor")


def _records(monkeypatch: pytest.MonkeyPatch, overwrite: fd.Json) -> tuple[Any, bool]:
    """The visibility records of a guild whose #internal carries ``overwrite``, and whether
    discord.py says the contractor can view #internal."""
    g = fd.guild(GUILD, "Acme",
                 roles=[fd.role(GUILD, "@everyone", permissions=fd.MEMBER_PERMISSIONS,
                                position=0),
                        fd.role(CONTRACTOR_ROLE, "contractors", permissions=0, position=1)],
                 channels=[fd.text_channel(INTERNAL, GUILD, "internal",
                                           overwrites=[overwrite])],
                 members=[fd.member(EMP), fd.member(CON, roles=[CONTRACTOR_ROLE]),
                          fd.member(fd.BOT_USER)])
    out: dict[str, Any] = {}

    async def main() -> None:
        async with FakeDiscord() as fake:
            monkeypatch.setattr(discord.http.Route, "BASE", fake.base_url)
            client = discord.Client(intents=default_intents(), guild_ready_timeout=0.01,
                                    chunk_guilds_at_startup=False)
            try:
                await connect(client, [g])
                guild = client.get_guild(int(GUILD))
                assert guild is not None
                channel = guild.get_channel(int(INTERNAL))
                member = guild.get_member(int(CON["id"]))
                assert channel is not None and member is not None
                out["can_view"] = channel.permissions_for(member).view_channel
                out["records"] = guild_visibility(guild)
            finally:
                await client.close()

    asyncio.run(main())
    return out["records"], bool(out["can_view"])


@pytest.mark.parametrize("target", ["role", "member"])
def test_a_channel_hidden_from_a_role_or_member_is_private(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, target: str) -> None:
    who = CONTRACTOR_ROLE if target == "role" else CON["id"]
    records, can_view = _records(monkeypatch, fd.overwrite(
        who, kind=0 if target == "role" else 1, deny=fd.VIEW_CHANNEL))
    assert can_view is False
    [internal] = records
    assert internal.is_private and internal.members == (EMP["id"],)

    from bot.app import build
    from bot.settings import Settings

    eg = build(Settings(data=str(tmp_path / "data"), embedder="hashing"))
    try:
        eg.upsert_channels(records)
        eg.submit([Message(platform="discord", space=GUILD, channel=INTERNAL, id="1",
                           user=EMP["id"], user_name="emp",
                           ts=datetime(2024, 4, 1, tzinfo=UTC),
                           text="Internal only: contractor rates get cut by 20% in May")])
        eg.process()
        # what a DM from the contractor reads
        contractor = eg.ask("contractor rates cut", platform="discord", space=GUILD,
                            user=CON["id"], channel=None, widen=True)
        employee = eg.ask("contractor rates cut", platform="discord", space=GUILD,
                          user=EMP["id"], channel=None, widen=True)
    finally:
        eg.close()
    assert contractor.citations == [] and employee.citations


def test_a_channel_everyone_can_view_stays_public(monkeypatch: pytest.MonkeyPatch) -> None:
    records, can_view = _records(monkeypatch, fd.overwrite(
        CONTRACTOR_ROLE, allow=discord.Permissions(send_messages=True).value))
    assert can_view
    [internal] = records
    assert not internal.is_private and internal.members == ()


def test_past_questions_to_the_bot_are_not_backfilled(
        world: Callable[..., None], tmp_path: Path) -> None:  # noqa: F811
    question = fd.message(GENERAL, GUILD, ANN, f"<@{fd.BOT_ID}> what severance does the "
                          "sales team get?", mentions=[fd.BOT_USER])
    fact = fd.message(GENERAL, GUILD, ANN, "Severance policy: four weeks per year")
    svc, cursors = ToyMemory(), Inbox(tmp_path / "inbox.sqlite3")

    async def scenario(w: World) -> None:
        await backfill_discord(w.client, svc, cursor_store=cursors, channel_id=GENERAL)

    world({GENERAL: [question, fact]}, scenario)
    texts = [m.text for m in svc.messages.values()]
    assert texts == ["Severance policy: four weeks per year"]
    assert cursors.get_cursor(f"discord:{GUILD}:{GENERAL}") == fact["id"]  # read past it


def test_an_imported_link_cannot_break_out_of_a_masked_link() -> None:
    evil = ("https://discord.com/channels/1/2/3) · [Re-authenticate with Discord]"
            "(https://evil.example/login")
    _, value = citation_field(1, Citation(node_id="n", message_id="3", channel="2",
                                          speaker="Ann", ts=datetime(2024, 1, 1, tzinfo=UTC),
                                          quote="deploy Friday", permalink=evil))
    assert "evil.example" not in value and "](" not in value
    assert jump("javascript:alert(1)") == "" and jump("https://x.test/a b") == ""
    assert jump("https://discord.com/channels/1/2/3") == "[jump](https://discord.com/channels/1/2/3)"


def test_a_guild_is_forgotten_only_on_discords_word(run: Callable[..., None]) -> None:  # noqa: F811
    from tests.test_discord_bot import GUILD as BOT_GUILD

    svc = ToyMemory()

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        bot._connection.parse_guild_delete({"id": BOT_GUILD})
        await fd.settle(bot)
        assert ("discord", BOT_GUILD) in svc.uninstalls
        fake.fail[("GET", f"/guilds/{BOT_GUILD}")] = 503  # Discord cannot say right now
        assert await bot.purge_uninstalled() == 0
        assert svc.forgotten_spaces == [] and ("discord", BOT_GUILD) in svc.uninstalls
        fake.fail.clear()
        fake.guilds[BOT_GUILD] = {"id": BOT_GUILD, "name": "Acme"}  # back in it
        assert await bot.purge_uninstalled() == 0
        assert svc.uninstalls == {}  # the mark is cancelled
        svc.mark_uninstalled(platform="discord", space=BOT_GUILD, at=bot.now())  # again
        del fake.guilds[BOT_GUILD]  # Discord: unknown guild, the bot was removed
        assert await bot.purge_uninstalled() == 1

    run(svc, scenario)
    assert svc.forgotten_spaces == [BOT_GUILD]
