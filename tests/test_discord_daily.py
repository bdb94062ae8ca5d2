"""Discord in daily use, on the real discord.py stack against the fake Discord REST API:
DMs, the "Is this still current?" context menu, feedback buttons, digests, uninstalls and
the invite URL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord

from adapters.discord.bot import INVITE_PERMISSIONS, invite_url
from memory.models import ChainEntry, State, Verdict
from memory.ports import MessageStatus
from tests.support import fake_discord as fd
from tests.support.fake_discord import FakeDiscord, Recorded
from tests.support.toy_memory import ToyMemory
from tests.test_discord_bot import (
    ANN,
    BOB,
    GENERAL,
    GUILD,
    NELLY,
    OPS,
    OPS_ROLE,
    Bot,
    feed,
    posts,
    run,  # noqa: F401 - the fixture
    typing,
)

NOW = datetime(2024, 4, 15, 9, 0, tzinfo=UTC)
README = Path(__file__).parent.parent / "README.md"


def chain_state(channel: str = GENERAL) -> State:
    t1, t2 = NOW - timedelta(days=4), NOW - timedelta(days=2)
    return State(
        state_id="s1", platform="discord", space=GUILD, channel=channel, topic="deploy freeze",
        value="Tuesday", active_node_id="n2", revision_count=1, updated_at=t2,
        chain=[ChainEntry(node_id="n1", message_id="101", value="Monday", speaker="Nelly",
                          ts=t1, quote="Deploy freeze starts Monday", verdict=Verdict.ESTABLISH),
               ChainEntry(node_id="n2", message_id="102", value="Tuesday", speaker="Ann K",
                          ts=t2, quote="Correction: deploy freeze starts Tuesday",
                          verdict=Verdict.REVISE)])


def test_invite_url_asks_for_exactly_the_permissions_egmem_uses() -> None:
    expected = discord.Permissions(
        view_channel=True, read_message_history=True, send_messages=True,
        send_messages_in_threads=True, create_public_threads=True, embed_links=True)
    assert INVITE_PERMISSIONS.value == expected.value == 309237730304
    url = invite_url(fd.APP_ID)
    assert url == (f"https://discord.com/oauth2/authorize?client_id={fd.APP_ID}"
                   f"&scope=bot+applications.commands&permissions={expected.value}")
    # the README's invite URL carries the same integer
    found = re.findall(r"permissions=(\d+)", README.read_text())
    assert found and set(found) == {str(expected.value)}


def test_a_dm_is_answered_from_the_shared_server_and_not_remembered(
    run: Callable[..., None],  # noqa: F811
) -> None:
    svc = ToyMemory()
    dm_channel = "1190000000000000001"
    question = fd.message(dm_channel, None, ANN, "when does the deploy freeze start?")
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed(bot, "MESSAGE_CREATE", fd.message(OPS, GUILD, ANN,
                                               "ops: deploy freeze moved to Wednesday"))
        feed(bot, "MESSAGE_CREATE", fd.message(GENERAL, GUILD, NELLY,
                                               "Deploy freeze starts Monday"))
        await fd.settle(bot)
        feed(bot, "MESSAGE_CREATE", question)
        await fd.settle(bot)
        sent.extend(posts(fake))
        assert typing(fake) == [f"/channels/{dm_channel}/typing"]

    run(svc, scenario)
    (ask,) = [a for a in svc.asks if "question" in a]
    assert (ask["space"], ask["user"], ask["channel"], ask["widen"]) == (
        GUILD, ANN["id"], None, True)  # Ann's own scope, #ops included
    assert question["id"] not in {e.id for e in svc.submitted}
    (reply,) = sent
    assert reply.path == f"/channels/{dm_channel}/messages"
    assert "Wednesday" in json.dumps(reply.body["embeds"])


def test_still_current_context_menu_on_a_superseded_and_a_current_message(
    run: Callable[..., None],  # noqa: F811
) -> None:
    svc = ToyMemory()
    state = chain_state()
    svc.statuses[(GENERAL, "101")] = MessageStatus(role="set", state=state, current=False,
                                                   since=(state.chain[1],), value="Monday")
    svc.statuses[(GENERAL, "102")] = MessageStatus(role="set", state=state, current=True,
                                                   value="Tuesday")
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    old = fd.message(GENERAL, GUILD, NELLY, "Deploy freeze starts Monday", mid="101")
    new = fd.message(GENERAL, GUILD, ANN, "Correction: deploy freeze starts Tuesday", mid="102")
    clicks = [fd.context_menu(GUILD, general, fd.member(BOB), target=m) for m in (old, new)]
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        for click in clicks:
            feed(bot, "INTERACTION_CREATE", click)
            await fd.settle(bot)
        sent.extend(posts(fake))

    run(svc, scenario)
    defer_old, reply_old, defer_new, reply_new = sent
    assert defer_old.body == {"type": 5, "data": {"flags": 64}}  # thinking, ephemeral
    assert reply_old.body["flags"] & 64
    old_embed = reply_old.body["embeds"][0]
    assert old_embed["title"] == "Is this still current?"
    assert "No longer current" in old_embed["description"]
    assert "now **Tuesday**, by Ann K on <t:" in old_embed["description"]
    assert old_embed["fields"][0]["value"].startswith("now **Tuesday** (Ann K, <t:")
    assert "Still current" in reply_new.body["embeds"][0]["description"]
    assert [a["user"] for a in svc.asks if "status" in a] == [BOB["id"], BOB["id"]]


def test_feedback_buttons_record_the_vote(run: Callable[..., None]) -> None:  # noqa: F811
    svc = ToyMemory()
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    ask = fd.interaction(GUILD, general, fd.member(ANN, roles=[OPS_ROLE]), subcommand="ask",
                         options={"question": "deploy freeze"})
    replies: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        feed(bot, "MESSAGE_CREATE", fd.message(GENERAL, GUILD, NELLY,
                                               "Deploy freeze starts Monday"))
        await fd.settle(bot)
        feed(bot, "INTERACTION_CREATE", ask)
        await fd.settle(bot)
        answer = posts(fake)[-1]
        down = answer.body["components"][0]["components"][1]["custom_id"]
        message = {**fd.message(GENERAL, GUILD, fd.BOT_USER, ""),
                   "components": answer.body["components"]}
        feed(bot, "INTERACTION_CREATE", fd.button_click(GUILD, general, fd.member(BOB),
                                                        custom_id=down, message=message))
        await fd.settle(bot)
        replies.append(posts(fake)[-1])

    run(svc, scenario)
    (entry,) = svc.feedback
    assert (entry.vote, entry.asker, entry.rater) == ("down", ANN["id"], BOB["id"])
    assert entry.question == "deploy freeze" and entry.space == GUILD
    assert entry.node_ids and entry.message_ids
    assert replies[0].body["type"] == 4 and replies[0].body["data"]["flags"] & 64


def test_weekly_digest_and_uninstall_with_a_frozen_clock(
    run: Callable[..., None],  # noqa: F811
) -> None:
    svc = ToyMemory()
    svc.recent = [chain_state()]
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    on = fd.interaction(GUILD, general, fd.member(NELLY), subcommand="digest",
                        options={"state": "on"})
    sent: list[Recorded] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        bot.now = lambda: NOW
        feed(bot, "INTERACTION_CREATE", on)
        await fd.settle(bot)
        assert await bot.post_digests() == 1
        sent.extend(posts(fake))
        # the bot is removed from the server: its memory goes after the grace period
        bot._connection.parse_guild_delete({"id": GUILD})
        await fd.settle(bot)
        assert ("discord", GUILD) in svc.uninstalls
        assert await bot.purge_uninstalled() == 1

    run(svc, scenario)
    assert ("1042338871355334656", GENERAL) in svc.digests
    digest = sent[-1]
    assert digest.path == f"/channels/{GENERAL}/messages"
    (embed,) = digest.body["embeds"]
    assert embed["title"] == "Weekly decision digest"
    assert embed["fields"][0]["value"].startswith("now **Tuesday** (Ann K, <t:")
    assert svc.forgotten_spaces == [GUILD]


def test_recall_backfill_runs_inside_the_bot_for_server_managers(
    run: Callable[..., None],  # noqa: F811
) -> None:
    svc = ToyMemory()
    general = fd.text_channel(GENERAL, GUILD, "general", position=1)
    old = fd.message(GENERAL, GUILD, NELLY, "old decision: ship on Tuesdays")
    by_member = fd.interaction(GUILD, general, fd.member(BOB), subcommand="backfill",
                               options={})
    by_admin = fd.interaction(GUILD, general, fd.member(ANN), subcommand="backfill",
                              options={})
    manage = discord.Permissions(manage_guild=True).value | fd.MEMBER_PERMISSIONS
    by_admin["member"]["permissions"] = str(manage)
    replies: list[str] = []

    async def scenario(bot: Bot, fake: FakeDiscord) -> None:
        fake.history[GENERAL] = [old]
        feed(bot, "INTERACTION_CREATE", by_member)
        await fd.settle(bot)
        assert svc.submitted == []
        feed(bot, "INTERACTION_CREATE", by_admin)
        await fd.settle(bot)
        replies.extend(r.body.get("content") or "" for r in posts(fake)
                       if r.path.startswith("/webhooks/"))

    run(svc, scenario)
    assert "Only members who can manage this server" in replies[0]
    assert "in the background" in replies[1]
    assert [getattr(e, "text", "") for e in svc.submitted] == ["old decision: ship on Tuesdays"]
    assert svc.cursors  # resumable, like `egmem backfill discord`
