"""Backfill Discord history into memory, resumable from per-channel cursors.

Each channel and thread is read oldest first from just after its cursor (the id of the last
message already queued), in batches; a batch is queued in memory *before* the cursor moves,
so a crash repeats at most one batch, which the service's idempotent inbox ignores. The live
bot and a backfill can therefore run side by side, and a scheduled run doubles as
reconciliation for anything the gateway missed while the bot was away.

Rate limits: discord.py's HTTP client keeps Discord's per-route buckets, waits when one is
exhausted and sleeps ``Retry-After`` on a 429 before retrying, so this module never sleeps
or retries itself; a long backfill is simply slow, and the progress callback shows it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime

import discord

from adapters.discord.normalize import normalize_discord_py_message
from adapters.discord.questions import question_in
from adapters.discord.visibility import guild_visibility, remembered
from memory.errors import InputError
from memory.models import Message
from memory.ports import Cursors, MemoryService

logger = logging.getLogger(__name__)

HistoryChannel = discord.TextChannel | discord.VoiceChannel | discord.StageChannel | discord.Thread


@dataclass(frozen=True)
class BackfillProgress:
    """Reported after every batch and once when a channel is finished."""

    guild_id: str
    channel_id: str
    channel_name: str
    fetched: int
    """Messages read from this channel (or thread) in this run."""
    queued: int
    """Of those, the ones memory keeps (people's messages with text or files)."""
    done: bool


@dataclass
class BackfillReport:
    channels: int = 0
    fetched: int = 0
    queued: int = 0
    new: int = 0
    """Queued messages the service had not seen before."""
    committed: int = 0
    skipped: list[str] = field(default_factory=list)
    """Ids of channels the bot may not read."""


def cursor_name(guild_id: int | str, channel_id: int | str) -> str:
    return f"discord:{guild_id}:{channel_id}"


async def backfill_discord(
    client: discord.Client,
    service: MemoryService,
    *,
    cursor_store: Cursors,
    channel_id: int | str | None = None,
    since: datetime | None = None,
    batch_size: int = 100,
    archived_threads: bool = True,
    process: bool = True,
    progress: Callable[[BackfillProgress], None] | None = None,
) -> BackfillReport:
    """Queue the history of one channel (``channel_id``, with its threads) or of every
    guild the client is in, and commit it (unless ``process`` is false).

    A channel with a stored cursor resumes after it; one without starts after ``since``
    (a time), else at its first message. Threads are channels of their own here (own
    cursors); their messages are keyed under the parent, as live ones are. Public archived
    threads are listed too unless ``archived_threads`` is false. Channel visibility of the
    guilds involved is recorded first, so recall is scoped from the start.

    The client must be logged in, with its guild cache filled (i.e. after ``on_ready``).
    Raises :class:`InputError` when ``channel_id`` is not a channel the bot can see.
    """
    if batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    report = BackfillReport()
    targets = await _targets(client, channel_id)
    for guild in {ch.guild for ch in targets}:
        await asyncio.to_thread(service.upsert_channels, guild_visibility(guild))
    for target in targets:
        async for ch in _with_threads(target, archived=archived_threads, report=report):
            await _backfill_one(ch, service, cursor_store, since=since, batch_size=batch_size,
                                progress=progress, report=report)
            if process:
                report.committed += await asyncio.to_thread(service.process)
    logger.info("Discord backfill: %d channel(s), %d fetched, %d queued (%d new), %d skipped",
                report.channels, report.fetched, report.queued, report.new, len(report.skipped))
    return report


async def _targets(
    client: discord.Client, channel_id: int | str | None
) -> list[discord.abc.GuildChannel | discord.Thread]:
    if channel_id is None:
        return [ch for g in client.guilds for ch in g.channels
                if not isinstance(ch, discord.CategoryChannel)]
    try:
        ident = int(channel_id)
    except ValueError:
        raise InputError(f"{channel_id!r} is not a Discord channel id") from None
    channel: object = client.get_channel(ident)
    if channel is None:
        try:
            channel = await client.fetch_channel(ident)
        except discord.HTTPException as exc:
            raise InputError(
                f"channel {ident} cannot be read by the bot ({exc.status}); check that the bot "
                "is in its server and can view it"
            ) from exc
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
        raise InputError(f"channel {ident} is not a server channel")
    return [channel]


async def _with_threads(
    channel: discord.abc.GuildChannel | discord.Thread, *, archived: bool, report: BackfillReport
) -> AsyncIterator[HistoryChannel]:
    """The channel itself (if it has messages of its own) and its remembered threads."""
    if not _readable(channel):
        report.skipped.append(str(channel.id))
        return
    if isinstance(channel, discord.Thread):
        if remembered(channel):
            yield channel
        return
    if isinstance(channel, discord.TextChannel | discord.VoiceChannel | discord.StageChannel):
        yield channel
    if not isinstance(channel, discord.TextChannel | discord.ForumChannel):
        return
    seen: set[int] = set()
    for thread in list(channel.threads):
        seen.add(thread.id)
        if remembered(thread):
            yield thread
    if not archived:
        return
    try:
        async for thread in channel.archived_threads(limit=None):
            if thread.id not in seen and remembered(thread):
                seen.add(thread.id)
                yield thread
    except discord.Forbidden:
        logger.warning("no access to archived threads of channel %s", channel.id)


def _readable(channel: discord.abc.GuildChannel | discord.Thread) -> bool:
    me = channel.guild.me
    perms = channel.permissions_for(me)
    return perms.view_channel and perms.read_message_history


async def _backfill_one(
    channel: HistoryChannel,
    service: MemoryService,
    cursors: Cursors,
    *,
    since: datetime | None,
    batch_size: int,
    progress: Callable[[BackfillProgress], None] | None,
    report: BackfillReport,
) -> None:
    name = cursor_name(channel.guild.id, channel.id)
    cursor = await asyncio.to_thread(cursors.get_cursor, name)
    after: discord.abc.Snowflake | datetime | None = since
    if cursor is not None and cursor.isdigit():
        after = discord.Object(id=int(cursor))
    fetched = queued = unflushed = 0
    batch: list[Message] = []
    last_id: int | None = None

    def report_progress(done: bool) -> None:
        if progress is not None:
            progress(BackfillProgress(
                guild_id=str(channel.guild.id), channel_id=str(channel.id),
                channel_name=channel.name, fetched=fetched, queued=queued, done=done,
            ))

    async def flush() -> None:
        nonlocal batch, unflushed
        if batch:
            report.new += await asyncio.to_thread(service.submit, batch)
        if last_id is not None:
            await asyncio.to_thread(cursors.set_cursor, name, str(last_id))
        batch, unflushed = [], 0

    report.channels += 1
    try:
        async for raw in channel.history(limit=None, after=after, oldest_first=True):
            fetched += 1
            unflushed += 1
            report.fetched += 1
            last_id = raw.id
            # A past question to egmem is not team knowledge, as it is not when live.
            asked = question_in(raw, channel.guild.me) is not None
            msg = None if asked else normalize_discord_py_message(raw)
            if msg is not None:
                batch.append(msg)
                queued += 1
                report.queued += 1
            if unflushed >= batch_size:
                await flush()
                report_progress(False)
    except discord.Forbidden:
        logger.warning("no access to the history of channel %s", channel.id)
        report.skipped.append(str(channel.id))
    await flush()
    report_progress(True)
