"""What the Discord client does beyond remembering and answering: "Is this still
current?", the 👍/👎 buttons, digests, backfills started from Discord and uninstalls.

:class:`DiscordDailyUse` is the base of :class:`adapters.discord.bot.EgmemDiscordClient`;
memory calls run in a worker thread (:func:`asyncio.to_thread`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime, timedelta
from typing import Any

import discord

from adapters.discord.views import FeedbackCache, digest_embed, parse_feedback_id
from memory.ports import ChatService, FeedbackEntry, MessageStatus

logger = logging.getLogger(__name__)

PLATFORM = "discord"
DIGEST_DAYS = 7
NO_ANSWER = "Sorry, I could not answer that just now. Please try again in a minute."


class DiscordDailyUse(discord.Client):
    """The daily-use features; the subclass sets :attr:`service`, :attr:`feedback_cache`
    and :attr:`now`, and provides :meth:`_spawn`."""

    service: ChatService
    feedback_cache: FeedbackCache
    now: Callable[[], datetime]

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        raise NotImplementedError

    async def message_status(self, *, space: str, channel: str, message_id: str,
                             user: str) -> MessageStatus:
        return await asyncio.to_thread(self.service.message_status, platform=PLATFORM,
                                       space=space, channel=channel, message_id=message_id,
                                       user=user)

    async def set_digest(self, *, space: str, channel: str, enabled: bool, by: str,
                         manager: bool = False) -> bool:
        return await asyncio.to_thread(self.service.set_digest, platform=PLATFORM,
                                       space=space, channel=channel, enabled=enabled, by=by,
                                       manager=manager)

    # ---- buttons -----------------------------------------------------------------------
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """👍/👎 under an answer: record the vote with the question and the cited ids."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        parsed = parse_feedback_id(str(data.get("custom_id") or ""))
        if parsed is None or interaction.response.is_done():
            return
        vote, token = parsed
        rated = self.feedback_cache.get(token)
        if rated is None:
            await interaction.response.send_message(
                "That answer is too old to rate; ask again and rate the new one.",
                ephemeral=True)
            return
        entry = FeedbackEntry(
            platform=PLATFORM, space=rated.space, channel=rated.channel, asker=rated.asker,
            rater=str(interaction.user.id), vote="up" if vote == "up" else "down",
            question=rated.question, node_ids=rated.node_ids, message_ids=rated.message_ids,
            abstained=rated.abstained, at=self.now())
        try:
            await asyncio.to_thread(self.service.record_feedback, entry)
        except Exception:
            logger.exception("recording feedback failed")
            await interaction.response.send_message(NO_ANSWER, ephemeral=True)
            return
        await interaction.response.send_message(
            "Thanks! Noted that this answer helped." if vote == "up" else
            "Thanks: noted that this answer missed. It will help egmem get better.",
            ephemeral=True)

    # ---- scheduled and background work ----------------------------------------------------
    def start_backfill(self, channel_id: int) -> None:
        """Backfill one channel in the background (the same resumable cursors as
        ``egmem backfill discord``)."""
        from adapters.discord.backfill import backfill_discord

        async def run() -> None:
            try:
                report = await backfill_discord(self, self.service, cursor_store=self.service,
                                                channel_id=channel_id)
                logger.info("backfill of Discord channel %s: %s", channel_id, report)
            except Exception:
                logger.exception("backfill of Discord channel %s failed", channel_id)

        self._spawn(run())

    async def post_digests(self, *, now: datetime | None = None) -> int:
        """Post each subscribed channel's weekly digest; returns how many were posted."""
        moment = now or self.now()
        since = moment - timedelta(days=DIGEST_DAYS)
        posted = 0
        subs = await asyncio.to_thread(self.service.digest_channels, platform=PLATFORM)
        for space, channel in subs:
            target = self.get_channel(int(channel)) if channel.isdigit() else None
            if not isinstance(target, discord.abc.Messageable):
                continue
            states = await asyncio.to_thread(
                self.service.recent_changes, platform=PLATFORM, space=space, user=None,
                channel=channel, since=since, widen=False, limit=20)
            if not states:
                continue
            try:
                await target.send(embed=digest_embed(states, since=since, until=moment),
                                  allowed_mentions=discord.AllowedMentions.none())
                posted += 1
            except discord.HTTPException as exc:
                logger.warning("digest for %s not posted (%s)", channel, exc.status)
        return posted

    async def purge_uninstalled(self, *, now: datetime | None = None) -> int:
        """Delete the memory of guilds that removed egmem more than the grace period ago,
        unless it is back in them. Only Discord's own word that the bot is not in the guild
        (``GET /guilds/{id}`` answering 403 or 404) deletes; anything else (not connected
        yet, a server error) leaves it for the next run."""
        if not self.is_ready():
            return 0
        deleted = 0
        due = await asyncio.to_thread(self.service.due_uninstalls, now=now or self.now())
        for platform, space, _ in due:
            if platform != PLATFORM or not space.isdigit():
                continue
            gone = await self._removed_from(int(space))
            if gone is None:
                continue
            if not gone:
                await asyncio.to_thread(self.service.cancel_uninstall, platform=platform,
                                        space=space)
                continue
            await asyncio.to_thread(self.service.forget_space, platform=platform, space=space)
            deleted += 1
        return deleted

    async def _removed_from(self, guild_id: int) -> bool | None:
        """Whether the bot is out of the guild: ``False`` when it is in it, ``None`` when
        Discord cannot say now."""
        if self.get_guild(guild_id) is not None:
            return False
        try:
            await self.fetch_guild(guild_id)
        except (discord.Forbidden, discord.NotFound):
            return True
        except discord.HTTPException as exc:
            logger.warning("cannot tell whether egmem is still in guild %s (%s); retrying "
                           "later", guild_id, exc.status)
            return None
        return False

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await asyncio.to_thread(self.service.mark_uninstalled, platform=PLATFORM,
                                space=str(guild.id), at=self.now())
