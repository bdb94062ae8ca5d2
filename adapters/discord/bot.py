"""egmem's Discord bot (discord.py 2.x).

What it does:

* remembers what people write in guild text channels, voice-channel chats, public threads
  and forum posts (bots, DMs and private threads are not remembered; see
  :mod:`adapters.discord.visibility`); edits and deletes reach memory through the *raw*
  events, so messages that left discord.py's cache are still updated or forgotten (see
  :mod:`adapters.discord.changes`);
* answers ``@egmem <question>`` in a thread started from the question (or in the thread
  it was asked in) with an embed of the answer, how revised decisions changed and its
  citations, showing the typing indicator while it looks; questions are never remembered;
* answers direct messages from what the asker may read in the server they share;
* offers ``/recall ask|history|digest|backfill`` and the "Is this still current?" message
  command (ephemeral, so the asker's private channels may be searched too), 👍/👎 on
  every answer, and a weekly digest per channel;
* keeps channel visibility (private or not, who can read it) in memory, so recall is
  scoped to what the asker may read.

Memory calls are synchronous and may be slow (an LLM writer or reader), so each one runs in
a worker thread (:func:`asyncio.to_thread`); committing queued messages runs in one
background task at a time, re-run while new messages keep arriving. The service's inbox is
durable, so nothing is lost if the bot stops while messages wait to be committed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from adapters.chat_errors import chat_error_text
from adapters.discord.changes import Placing, RawChanges
from adapters.discord.commands import RecallCommands, interaction_place, still_current_menu
from adapters.discord.daily import DiscordDailyUse
from adapters.discord.embeds import answer_embed, clip
from adapters.discord.normalize import normalize_discord_py_message
from adapters.discord.questions import QUESTION_LIMIT, question_in
from adapters.discord.views import (
    FeedbackCache,
    feedback_view,
)
from adapters.discord.visibility import (
    channel_visibility,
    guild_visibility,
    memory_channel_id,
    remembered,
)
from memory.models import Answer, Delete, Edit, Message, State
from memory.ports import ChatService

if TYPE_CHECKING:  # discord.types cannot be imported at run time on its own (import cycle)
    from discord.types.threads import ThreadArchiveDuration

logger = logging.getLogger(__name__)

PLATFORM = "discord"
THREAD_NAME_LIMIT = 100
NO_ANSWER = "Sorry, I could not answer that just now. Please try again in a minute."
USAGE = "Ask me something after the mention, e.g. `@egmem when is the deploy window?`"
DIGEST_DAYS = 7

INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,  # see the channels it remembers
    read_message_history=True,  # backfill
    send_messages=True,  # answers (and the typing indicator)
    send_messages_in_threads=True,  # answers in threads
    create_public_threads=True,  # a thread per @egmem question
    embed_links=True,  # answers are embeds: without it Discord drops them silently
)
"""What egmem needs in a server; :func:`invite_url` asks for exactly this."""


def invite_url(application_id: int | str) -> str:
    """The OAuth2 URL that adds the bot with the ``bot`` and ``applications.commands``
    scopes and :data:`INVITE_PERMISSIONS`."""
    return discord.utils.oauth_url(int(application_id), permissions=INVITE_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


def default_intents() -> discord.Intents:
    """Guild, message and member events, with message content.

    ``message_content`` and ``members`` are privileged: enable both for the application
    in the Discord developer portal. Without ``members`` the bot still works, but it only
    knows the members it has seen, so private channels are searched for fewer people.
    """
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True
    return intents


class EgmemDiscordClient(DiscordDailyUse, RawChanges):
    """The Discord front end of a :class:`~memory.ports.MemoryService`.

    ``sync_commands`` registers ``/recall`` with Discord at start (globally, or only in
    ``command_guild``, where changes show at once). ``visibility_debounce`` is how long
    to wait after a role or member change before recomputing a guild's channel
    visibility, so a burst of changes costs one pass. Other keyword ``options`` go to
    :class:`discord.Client`.
    """

    def __init__(
        self,
        *,
        service: ChatService,
        intents: discord.Intents | None = None,
        sync_commands: bool = True,
        command_guild: int | None = None,
        visibility_debounce: float = 2.0,
        thread_archive_minutes: ThreadArchiveDuration = 1440,
        **options: Any,
    ) -> None:
        super().__init__(intents=intents or default_intents(), **options)
        self.service = service
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(RecallCommands(bot=self))
        self.tree.add_command(still_current_menu(self))
        self.feedback_cache = FeedbackCache()
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)
        self._sync_commands = sync_commands
        self._command_guild = command_guild
        self._visibility_debounce = visibility_debounce
        self._thread_archive_minutes: ThreadArchiveDuration = thread_archive_minutes
        self._refresh_pending: set[int] = set()
        self._background: set[asyncio.Task[Any]] = set()
        # Edits and deletes queued before their channel was looked up are corrected
        # before any commit.
        self.placing = Placing()
        service.before_write(self.placing.wait)

    # ---- lifecycle ---------------------------------------------------------------------
    async def setup_hook(self) -> None:
        if not self._sync_commands:
            return
        if self._command_guild is not None:
            guild = discord.Object(id=self._command_guild)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        logger.info("registered %d application command(s)", len(synced))

    async def on_ready(self) -> None:
        logger.info("connected to Discord as %s in %d guild(s)",
                    self.user.id if self.user else "?", len(self.guilds))

    async def wait_idle(self) -> None:
        """Wait until queued commits and visibility refreshes this client started are done
        (for shutdown and tests)."""
        while True:
            pending = [t for t in self._background if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # ---- writes ------------------------------------------------------------------------
    async def submit(self, events: list[Message | Edit | Delete]) -> int:
        """Queue events in memory (in a worker thread), then schedule a commit.

        Failures are logged, not raised: an event handler has no one to report to, and a
        backfill reconciles what was missed."""
        if not events:
            return 0
        try:
            new = await asyncio.to_thread(self.service.submit, events)
        except Exception:
            logger.exception("could not queue %d Discord event(s) (first id %s)",
                             len(events), events[0].id)
            return 0
        self.schedule_processing()
        return new

    def schedule_processing(self) -> None:
        """Commit queued events soon: kick the service's writer worker (off the event loop;
        at most one commit runs at a time, and a kick during a commit causes one more)."""
        self._spawn(asyncio.to_thread(self.service.kick))

    async def on_message(self, message: discord.Message) -> None:
        if message.author.bot or message.webhook_id is not None:
            return
        if message.guild is None:
            if isinstance(message.channel, discord.DMChannel):
                await self.answer_dm(message)
            return
        question = self._question_in(message)
        if question is not None:
            # A question to the bot is not team knowledge: answer it, do not remember it.
            await self.answer_mention(message, question)
            return
        if not remembered(message.channel):
            return
        msg = normalize_discord_py_message(message)
        if msg is not None:
            await self.submit([msg])

    # ---- questions ---------------------------------------------------------------------
    def _question_in(self, message: discord.Message) -> str | None:
        """The question of a message addressed to the bot, else ``None``
        (:func:`adapters.discord.questions.question_in`)."""
        return question_in(message, self.user)

    async def answer_mention(self, message: discord.Message, question: str) -> None:
        """Answer ``question`` in a thread: the one it was asked in, else a new thread
        started from the message; where no thread can be made, as a reply."""
        none = discord.AllowedMentions.none()
        if not question:
            await message.reply(USAGE, mention_author=False, allowed_mentions=none)
            return
        thread = await self._answer_thread(message, question)
        guild = message.guild
        assert guild is not None  # on_message only passes guild messages
        space, channel = str(guild.id), memory_channel_id(message.channel)
        where: Any = thread if thread is not None else message.channel
        try:
            async with where.typing():  # a sign of life while memory looks
                answer, pending = await self._ask(
                    question, space=space, user=str(message.author.id), channel=channel,
                    widen=False)  # the answer is public: only what the whole channel may read
        except Exception as exc:
            text = chat_error_text(exc, fallback=NO_ANSWER,
                                   where=f"answering in channel {message.channel.id}")
            await self._deliver(message, thread, content=clip(text, 2000))
            return
        view = feedback_view(self.feedback_cache, answer, question=question,
                             asker=str(message.author.id), space=space, channel=channel)
        await self._deliver(message, thread, view=view,
                            embed=answer_embed(answer, question=question, pending=pending))

    async def _ask(self, question: str, *, space: str, user: str, channel: str | None,
                   widen: bool) -> tuple[Answer, int]:
        """The answer from what is committed, and how many messages of the asking channel
        are still waiting (the answer says so instead of waiting for them)."""
        answer = await asyncio.to_thread(self.service.ask, question, platform=PLATFORM,
                                         space=space, user=user, channel=channel, widen=widen)
        pending = 0
        if channel is not None:
            pending = await asyncio.to_thread(self.service.pending_in, platform=PLATFORM,
                                              space=space, channel=channel)
        return answer, pending

    async def answer_dm(self, message: discord.Message) -> None:
        """A direct message is a question, answered from what its author may read in the
        server they share with egmem (never remembered)."""
        question = clip(" ".join(message.content.split()), QUESTION_LIMIT)
        if not question:
            return
        shared = [g for g in self.guilds if g.get_member(message.author.id) is not None]
        none = discord.AllowedMentions.none()
        if len(shared) != 1:
            text = ("We share several servers: ask with `/recall ask` in the one you mean."
                    if shared else "I can only answer from a server we are both in.")
            await message.channel.send(text, allowed_mentions=none)
            return
        space = str(shared[0].id)
        try:
            async with message.channel.typing():
                answer, _ = await self._ask(question, space=space, user=str(message.author.id),
                                            channel=None, widen=True)
        except Exception as exc:
            text = chat_error_text(exc, fallback=NO_ANSWER, where="answering a direct message")
            await message.channel.send(clip(text, 2000), allowed_mentions=none)
            return
        view = feedback_view(self.feedback_cache, answer, question=question,
                             asker=str(message.author.id), space=space,
                             channel=str(message.channel.id))
        await message.channel.send(embed=answer_embed(answer, question=question), view=view,
                                   allowed_mentions=none)

    async def _answer_thread(
        self, message: discord.Message, question: str
    ) -> discord.Thread | None:
        if isinstance(message.channel, discord.Thread):
            return message.channel
        if not isinstance(message.channel, discord.TextChannel):
            return None  # voice/stage chats have no threads
        try:
            return await message.create_thread(
                name=clip(question, THREAD_NAME_LIMIT),
                auto_archive_duration=self._thread_archive_minutes,
            )
        except discord.HTTPException as exc:
            logger.warning("could not start a thread in channel %s (%s); replying inline",
                           message.channel.id, exc.status)
            return None

    async def _deliver(
        self, message: discord.Message, thread: discord.Thread | None, *,
        content: str | None = None, embed: discord.Embed | None = None,
        view: discord.ui.View | None = None,
    ) -> None:
        none = discord.AllowedMentions.none()
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            if thread is not None and embed is not None:
                await thread.send(embed=embed, allowed_mentions=none, **extra)
            elif thread is not None:
                await thread.send(content or "", allowed_mentions=none)
            elif embed is not None:
                await message.reply(embed=embed, mention_author=False, allowed_mentions=none,
                                    **extra)
            else:
                await message.reply(content or "", mention_author=False, allowed_mentions=none)
        except discord.HTTPException as exc:
            logger.warning("could not post an answer in channel %s (%s)",
                           message.channel.id, exc.status)

    async def ask_for(self, interaction: discord.Interaction[Any],
                      question: str) -> tuple[Answer, int]:
        """Answer for the person behind ``interaction``, including the private channels
        they belong to (the reply is ephemeral: only they see it), with the count of the
        channel's messages still being read."""
        space, channel = interaction_place(interaction)
        return await self._ask(question, space=space, user=str(interaction.user.id),
                               channel=channel, widen=True)

    async def history_for(self, interaction: discord.Interaction[Any], topic: str) -> list[State]:
        space, channel = interaction_place(interaction)
        return await asyncio.to_thread(
            self.service.history, topic, platform=PLATFORM, space=space,
            user=str(interaction.user.id), channel=channel, widen=True,
        )

    # ---- visibility --------------------------------------------------------------------
    async def refresh_visibility(self, guild: discord.Guild) -> None:
        """Record the visibility of every channel of ``guild`` in memory."""
        channels = guild_visibility(guild)
        try:
            await asyncio.to_thread(self.service.upsert_channels, channels)
            logger.info("recorded visibility of %d channel(s) in guild %s", len(channels), guild.id)
        except Exception:
            logger.exception("recording channel visibility of guild %s failed", guild.id)

    def schedule_visibility_refresh(self, guild: discord.Guild) -> None:
        """Refresh ``guild``'s visibility after the debounce, once per burst of changes."""
        if guild.id in self._refresh_pending:
            return
        self._refresh_pending.add(guild.id)
        self._spawn(self._refresh_later(guild.id))

    async def _refresh_later(self, guild_id: int) -> None:
        await asyncio.sleep(self._visibility_debounce)
        self._refresh_pending.discard(guild_id)
        guild = self.get_guild(guild_id)
        if guild is not None:
            await self.refresh_visibility(guild)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        # Reachable at start or after an outage: egmem is in it, so its memory stays.
        await asyncio.to_thread(self.service.cancel_uninstall, platform=PLATFORM,
                                space=str(guild.id))
        await self.refresh_visibility(guild)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await asyncio.to_thread(self.service.cancel_uninstall, platform=PLATFORM,
                                space=str(guild.id))
        await self.refresh_visibility(guild)

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        await self._channel_changed(channel)

    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        await self._channel_changed(after)

    async def _channel_changed(self, channel: discord.abc.GuildChannel) -> None:
        if isinstance(channel, discord.CategoryChannel):
            # Its permissions flow into the channels synced with it.
            self.schedule_visibility_refresh(channel.guild)
            return
        try:
            await asyncio.to_thread(self.service.upsert_channels, [channel_visibility(channel)])
        except Exception:
            logger.exception("recording visibility of channel %s failed", channel.id)

    async def on_guild_role_create(self, role: discord.Role) -> None:
        self.schedule_visibility_refresh(role.guild)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        if before.permissions != after.permissions:
            self.schedule_visibility_refresh(after.guild)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        self.schedule_visibility_refresh(role.guild)

    async def on_member_join(self, member: discord.Member) -> None:
        self.schedule_visibility_refresh(member.guild)

    async def on_member_remove(self, member: discord.Member) -> None:
        self.schedule_visibility_refresh(member.guild)

    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        if before.roles != after.roles:
            self.schedule_visibility_refresh(after.guild)


def serve_discord(
    service: ChatService,
    token: str,
    *,
    intents: discord.Intents | None = None,
    sync_commands: bool = True,
    command_guild: int | None = None,
    scheduler: Any = None,
) -> None:
    """Run the bot until it is stopped (blocking; discord.py reconnects by itself). With
    ``scheduler`` (apscheduler) the weekly digests and the deletion of guilds that removed
    the bot are scheduled on it.

    Logging is left to the application (no handler is installed)."""
    client = EgmemDiscordClient(
        service=service, intents=intents, sync_commands=sync_commands,
        command_guild=command_guild,
    )
    if scheduler is not None:
        from adapters.scheduling import add_chat_jobs

        def on_loop(make: Callable[[], Coroutine[Any, Any, int]]) -> Callable[[], int]:
            def run() -> int:
                return asyncio.run_coroutine_threadsafe(make(), client.loop).result(600)
            return run

        add_chat_jobs(scheduler, digest=on_loop(client.post_digests),
                      uninstalls=on_loop(client.purge_uninstalled))
    client.run(token, log_handler=None)
