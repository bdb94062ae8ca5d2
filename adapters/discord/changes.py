"""Edits and deletes from Discord's raw events, queued under the key of their message.

Raw events name only a channel id, while a thread's messages are remembered under its
parent channel and a private thread's not at all (:mod:`adapters.discord.visibility`). A
channel discord.py caches answers both at once. One that left the cache (an archived
thread) takes a REST call to fetch, and the event does not wait for it: it is queued at
once under the channel's own id, then moved under the thread's parent, or withdrawn for a
private thread, when Discord answers (:meth:`memory.ports.IngestPort.amend`). Commits wait
for the corrections in flight (:meth:`Placing.wait` is a pre-write hook of the writer), so
nothing is committed under the provisional key; if Discord cannot say where the channel
is, the event stays keyed by the channel's own id.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import discord

from adapters.discord.normalize import normalize_discord_delete, normalize_discord_update
from adapters.discord.visibility import memory_channel_id, remembered
from memory.models import Delete, Edit, Message
from memory.ports import ChatService

logger = logging.getLogger(__name__)

Event = Message | Edit | Delete
# The events of one raw event, keyed with the thread parent given (None: the channel's own id).
Build = Callable[[str | None], list[Event | None]]
Place = tuple[bool, str | None]  # (remembered, the thread's parent if it is a thread)


class Placing:
    """The corrections in flight. :meth:`wait`, run before every commit, returns when each
    one open at that moment is done (or after ``wait_s``, with a warning: the event is
    then committed where it was queued)."""

    def __init__(self, *, wait_s: float = 30.0) -> None:
        self._wait_s = wait_s
        self._open: set[threading.Event] = set()
        self._lock = threading.Lock()

    @contextmanager
    def correcting(self) -> Iterator[None]:
        done = threading.Event()
        with self._lock:
            self._open.add(done)
        try:
            yield
        finally:
            done.set()
            with self._lock:
                self._open.discard(done)

    def wait(self) -> None:
        with self._lock:
            pending = list(self._open)
        for done in pending:
            if not done.wait(self._wait_s):
                logger.warning("a Discord channel lookup is taking long; committing its "
                               "event where it was queued")


class RawChanges(discord.Client):
    """The raw edit and delete listeners; the subclass sets :attr:`service` and
    :attr:`placing` (registered as a pre-write hook) and provides :meth:`submit`."""

    service: ChatService
    placing: Placing

    async def submit(self, events: list[Event]) -> int:
        raise NotImplementedError

    async def on_raw_message_edit(self, payload: discord.RawMessageUpdateEvent) -> None:
        if payload.guild_id is None:
            return
        guild = str(payload.guild_id)

        def edits(parent: str | None) -> list[Event | None]:
            return [normalize_discord_update(payload.data, guild_id=guild,
                                             thread_parent=parent)]

        await self._queue_where_remembered(payload.channel_id, edits)

    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        await self._deleted(payload.guild_id, payload.channel_id, [payload.message_id])

    async def on_raw_bulk_message_delete(
        self, payload: discord.RawBulkMessageDeleteEvent
    ) -> None:
        await self._deleted(payload.guild_id, payload.channel_id, sorted(payload.message_ids))

    async def _deleted(self, guild_id: int | None, channel_id: int, ids: list[int]) -> None:
        if guild_id is None:
            return

        def deletes(parent: str | None) -> list[Event | None]:
            return [normalize_discord_delete(
                {"id": str(message_id), "channel_id": str(channel_id), "guild_id": str(guild_id)},
                thread_parent=parent) for message_id in ids]

        await self._queue_where_remembered(channel_id, deletes)

    async def _queue_where_remembered(self, channel_id: int, build: Build) -> None:
        place = self._cached_place(channel_id)
        if place is not None:
            keep, parent = place
            if keep:
                await self.submit([e for e in build(parent) if e is not None])
            return
        # Opened before the submit, so no commit after it can miss the correction.
        with self.placing.correcting():
            queued = build(None)
            if not any(queued):
                return
            await self.submit([e for e in queued if e is not None])
            keep, parent = await self._fetch_place(channel_id)
            corrected = build(parent) if keep else [None] * len(queued)
            for old, new in zip(queued, corrected, strict=True):
                if old is None or new == old:
                    continue
                try:
                    await asyncio.to_thread(self.service.amend, old, new)
                except Exception:
                    logger.exception("could not move Discord %s %s to where its message is "
                                     "remembered", type(old).__name__.lower(), old.id)

    def _cached_place(self, channel_id: int) -> Place | None:
        """Where the events of ``channel_id`` go, from discord.py's cache (no REST call);
        ``None`` if the channel is not cached."""
        channel = self.get_channel(channel_id)
        return None if channel is None else _place(channel)

    async def _fetch_place(self, channel_id: int) -> Place:
        """:meth:`_cached_place` for a channel that left the cache, fetched from Discord."""
        try:
            channel = await self.fetch_channel(channel_id)
        except discord.HTTPException as exc:
            logger.warning("channel %s unknown (%s); keying its event by its own id",
                           channel_id, exc.status)
            return True, None
        return _place(channel)


def _place(channel: object) -> Place:
    if not remembered(channel):
        return False, None
    parent = memory_channel_id(channel)
    ident = getattr(channel, "id", None)
    return True, (parent if parent != str(ident) else None)
