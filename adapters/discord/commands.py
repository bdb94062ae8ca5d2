"""egmem's Discord application commands: ``/recall ask|history|digest|backfill`` and the
"Is this still current?" message context-menu command.

Every command defers at once (Discord shows "egmem is thinking…" to the person), then
answers ephemerally from what that person may read; memory calls run in a worker thread.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from adapters.chat_errors import chat_error_text
from adapters.discord.embeds import answer_embed, clip, timeline_embed
from adapters.discord.views import CURRENT_COMMAND, feedback_view, status_embed
from adapters.discord.visibility import memory_channel_id

if TYPE_CHECKING:
    from adapters.discord.bot import EgmemDiscordClient

logger = logging.getLogger(__name__)

PLATFORM = "discord"
QUESTION_LIMIT = 1000
NO_ANSWER = "Sorry, I could not answer that just now. Please try again in a minute."


def interaction_place(interaction: discord.Interaction[Any]) -> tuple[str, str]:
    """(space, memory channel) of an interaction in a guild."""
    channel: object = interaction.channel
    if channel is None:
        return str(interaction.guild_id), str(interaction.channel_id)
    return str(interaction.guild_id), memory_channel_id(channel)


async def _fail(interaction: discord.Interaction[Any], exc: Exception, what: str) -> None:
    text = chat_error_text(exc, fallback=NO_ANSWER,
                           where=f"{what} in channel {interaction.channel_id}")
    await interaction.followup.send(clip(text, 2000), ephemeral=True)


class RecallCommands(app_commands.Group):
    """``/recall ask question:…``, ``/recall history topic:…``, ``/recall digest
    on|off`` and ``/recall backfill`` (Manage Server), guild-only, answered ephemerally
    after a deferral (memory may take longer than Discord's 3 s)."""

    def __init__(self, *, bot: EgmemDiscordClient) -> None:
        super().__init__(
            name="recall",
            description="Ask egmem what your team said or decided",
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
        )
        self._bot = bot

    @app_commands.command(name="ask", description="Answer from the channels you can read")
    @app_commands.describe(question="What do you want to know?")
    async def ask(
        self, interaction: discord.Interaction[Any],
        question: app_commands.Range[str, 1, QUESTION_LIMIT],
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            answer, pending = await self._bot.ask_for(interaction, question)
        except Exception as exc:
            await _fail(interaction, exc, "/recall ask")
            return
        space, channel = interaction_place(interaction)
        view = feedback_view(self._bot.feedback_cache, answer, question=question,
                             asker=str(interaction.user.id), space=space, channel=channel)
        await interaction.followup.send(
            embed=answer_embed(answer, question=question, pending=pending), view=view,
            ephemeral=True)

    @app_commands.command(name="history", description="How a decision changed over time")
    @app_commands.describe(topic="The decision or topic, e.g. 'deploy window'")
    async def history(
        self, interaction: discord.Interaction[Any],
        topic: app_commands.Range[str, 1, 200],
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            states = await self._bot.history_for(interaction, topic)
        except Exception as exc:
            await _fail(interaction, exc, "/recall history")
            return
        await interaction.followup.send(embed=timeline_embed(states, topic=topic), ephemeral=True)

    @app_commands.command(name="digest",
                          description="A weekly post here of the decisions that changed")
    @app_commands.describe(state="on or off")
    async def digest(self, interaction: discord.Interaction[Any],
                     state: Literal["on", "off"]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        space, channel = interaction_place(interaction)
        perms = getattr(interaction, "permissions", None)
        manager = perms is not None and (perms.manage_guild or perms.manage_channels)
        try:
            changed = await self._bot.set_digest(space=space, channel=channel,
                                                 enabled=state == "on",
                                                 by=str(interaction.user.id),
                                                 manager=bool(manager))
        except Exception as exc:
            await _fail(interaction, exc, "/recall digest")
            return
        if state == "on":
            text = (f"The weekly digest {'is now' if changed else 'was already'} on for "
                    f"<#{channel}>: every Monday at 09:00 UTC I post the decisions that "
                    "changed here that week.")
        else:
            text = f"The weekly digest is {'now' if changed else 'already'} off for <#{channel}>."
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name="backfill",
                          description="Read this channel's history into memory (admins)")
    @app_commands.default_permissions(manage_guild=True)
    async def backfill(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        perms = getattr(interaction, "permissions", None)
        if perms is None or not perms.manage_guild:
            await interaction.followup.send("Only members who can manage this server can "
                                            "start a backfill.", ephemeral=True)
            return
        channel_id = interaction.channel_id or 0
        self._bot.start_backfill(channel_id)
        await interaction.followup.send(
            f"Reading the history of <#{channel_id}> in the background (resumable).",
            ephemeral=True)


def still_current_menu(bot: EgmemDiscordClient) -> app_commands.ContextMenu:
    """The message context-menu command "Is this still current?": which decision the
    message set or talks about, and whether it has been replaced since (ephemeral)."""

    async def still_current(interaction: discord.Interaction[Any],
                            message: discord.Message) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        space = str(interaction.guild_id)
        try:
            status = await bot.message_status(space=space,
                                              channel=memory_channel_id(message.channel),
                                              message_id=str(message.id),
                                              user=str(interaction.user.id))
        except Exception as exc:
            await _fail(interaction, exc, "message status")
            return
        await interaction.followup.send(embed=status_embed(status), ephemeral=True)

    return app_commands.ContextMenu(
        name=CURRENT_COMMAND, callback=still_current,
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False,
                                                        private_channel=False))
