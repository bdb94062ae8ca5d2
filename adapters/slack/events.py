"""Slack events that change what egmem remembers or who may read it.

Messages (all conversation kinds, edits, deletes) are normalized and submitted durably
before the ack; questions addressed to the bot are never submitted: a message mentioning
the bot is a question (answered by :mod:`adapters.slack.interactions`), and so is every
message in the bot's own DM. The ack touches only the inbox: the conversation's visibility
(and, for private conversations, its members) is read from the Web API right after it and
upserted before any of its messages is committed (the writer worker runs
:meth:`SlackEvents.sync_pending` first), so recall never treats a private conversation as
public. Names come from the directory's caches alone on the ack path; a message normalized
without one (its author's or a mentioned person's name, the channel name, the workspace's
permalink base) is queued as it is, then normalized again with the Web API in the same
sync and its queued entry corrected, before it is committed.

Visibility is cached per conversation for a TTL, but the event is trusted over the cache:
a message whose ``channel_type`` says private in a conversation recorded public (a channel
converted to private) is re-synced at once and recorded private even if Slack's API still
says public; ``channel_convert_to_private`` re-syncs too. When the bot leaves or is removed
from a conversation, its visibility is re-read (a private channel the bot cannot see any
more is recorded private to nobody: it can no longer watch it change).
``channel_rename``/``group_rename`` and ``user_change`` drop the cached names so new
messages and answers use the new ones (answers show channels as ``<#C…>`` links, which
Slack renders with the current name). ``app_uninstalled``/``tokens_revoked`` schedule the
workspace's memory for deletion after a grace period (:mod:`memory.store.workspaces`); a message
written after it (the app is back) cancels that.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from adapters.slack.access import SlackAccess
from adapters.slack.directory import ChannelInfo, SlackDirectory
from adapters.slack.membership import fetch_channel
from adapters.slack.normalize import PLATFORM, normalize_message_event
from adapters.slack.recall import mentions_user
from memory.models import Channel, Delete, Edit, Message
from memory.ports import ChatService

logger = logging.getLogger(__name__)

# Slack's channel_type on message events; member_joined_channel uses "C"/"G".
PRIVATE_TYPES = frozenset({"group", "im", "mpim", "G"})
KNOWN_TYPES = PRIVATE_TYPES | {"channel", "C"}
CONVERSION_SUBTYPES = {"channel_convert_to_private": True, "channel_convert_to_public": False}
# How long a correction waits for the submit it corrects (a local write) to return.
SUBMIT_WAIT_S = 30.0


def team_id(body: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str:
    candidates: list[object] = [context.get("team_id") if context else None, body.get("team_id")]
    for key in ("team", "user"):
        part = body.get(key)
        if isinstance(part, Mapping):
            candidates.append(part.get("id") if key == "team" else part.get("team_id"))
    for value in candidates:
        if isinstance(value, str) and value:
            return value
    return ""


def is_question(event: Mapping[str, Any], bot_user_id: str | None) -> bool:
    """A message addressed to the bot: in its DM, or mentioning it (an edit counts by its
    new text). Deletes are never questions: they must still reach memory."""
    if event.get("subtype") == "message_deleted":
        return False
    if event.get("channel_type") == "im":
        return True
    inner = event.get("message")
    text = inner.get("text") if isinstance(inner, Mapping) else event.get("text")
    return isinstance(text, str) and mentions_user(text, bot_user_id)


class SlackEvents:
    """Event listeners that feed memory (bolt injects their arguments by name)."""

    def __init__(self, *, service: ChatService, directory: SlackDirectory,
                 membership_ttl_s: float = 6 * 3600.0,
                 clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], datetime] = lambda: datetime.now(UTC),
                 access: SlackAccess | None = None) -> None:
        self.service = service
        self.directory = directory
        self.access = access
        self._synced: dict[tuple[str, str], float] = {}
        self._leaving: dict[str, float] = {}  # team → when this process saw it uninstall
        self._private: dict[tuple[str, str], bool] = {}  # what was last recorded
        self._lock = threading.Lock()
        # Visibility to record, queued by the ack path: one syncer at a time, in order.
        self._todo: list[Callable[[], None]] = []
        # Messages to normalize again with the Web API, queued by the ack path: each one on
        # its own, whatever becomes of the visibility syncs.
        self._corrections: list[Callable[[], None]] = []
        self._syncing = threading.Lock()
        self._ttl = membership_ttl_s
        self._clock = clock
        self._now = now
        self.on_bot_joined: Callable[[str, str], None] | None = None
        """Called with (team, channel) when the bot is added to a conversation."""

    # --- messages -------------------------------------------------------------------------

    def ingest(self, team: str, event: Mapping[str, Any], *, bot_user_id: str | None) -> None:
        """Runs before the ack and touches only the inbox: normalize from the directory's
        caches and submit durably. The conversation's visibility is only queued here, and
        so is, when the caches lacked a name, the channel name or the permalink base, the
        event's correction (:meth:`sync_pending` runs both, before any commit)."""
        channel = event.get("channel")
        if not team or not isinstance(channel, str):
            return
        self._back(team, event.get("ts"))
        subtype = event.get("subtype")
        if isinstance(subtype, str) and subtype in CONVERSION_SUBTYPES:
            private = CONVERSION_SUBTYPES[subtype]
            self._queue(lambda: self.resync(team, channel, private=private))
            return
        ctype = event.get("channel_type")
        author = event.get("user")
        kind = ctype if isinstance(ctype, str) else None
        who = author if isinstance(author, str) else None
        self._queue(lambda: self.ensure_channel(team, channel, channel_type=kind, author=who))
        question = is_question(event, bot_user_id)
        if question and subtype != "message_changed":
            return  # answered, never remembered as team knowledge
        cached = self.directory.cache_only()
        item = normalize_message_event(
            event, team_id=team, users=cached.names,
            channel_name=cached.channel_name(channel),
            permalink_base=cached.permalink_base(),
        )
        if item is None:
            return
        if question and isinstance(item, Edit):
            # Edited into a question to egmem: it is no longer team knowledge, and its old
            # text must not stay behind either.
            item = Delete(platform=item.platform, space=item.space, channel=item.channel,
                          id=item.id, ts=item.ts)
        submitted: threading.Event | None = None
        if not cached.complete and not isinstance(item, Delete):
            # Queued before the submit, so no commit after it can miss the correction.
            submitted = threading.Event()
            queued, done = item, submitted
            with self._lock:
                self._corrections.append(
                    lambda: self.complete(team, event, queued, submitted=done))
            logger.debug("slack %s/%s normalized without %s; completed after the ack",
                         channel, item.id, ", ".join(sorted(cached.missed)))
        try:
            new = self.service.submit([item])
        finally:
            if submitted is not None:
                submitted.set()
        logger.debug("slack %s %s/%s submitted (new=%d)", type(item).__name__, channel,
                     item.id, new)

    def complete(self, team: str, event: Mapping[str, Any], queued: Message | Edit, *,
                 submitted: threading.Event | None = None) -> None:
        """Normalize ``event`` again with the Web API (names, channel name, permalink the
        ack path's caches did not hold) and correct its still-pending inbox entry; once it
        is committed or gone, nothing changes. Runs in :meth:`sync_pending`, so before the
        commit; ``submitted`` is set when the ack path's submit has returned."""
        if submitted is not None and not submitted.wait(SUBMIT_WAIT_S):
            logger.warning("Slack message %s/%s: its submit is taking long; correcting "
                           "what is queued now", queued.channel, queued.id)
        full = normalize_message_event(
            event, team_id=team, users=self.directory.names(),
            channel_name=self.directory.channel_name(queued.channel),
            permalink_base=self.directory.permalink_base(),
        )
        if full is None or type(full) is not type(queued) or full == queued:
            return
        amended = self.service.amend(queued, full)
        logger.debug("slack %s/%s completed after the ack (amended=%s)", queued.channel,
                     queued.id, amended)

    # --- visibility -----------------------------------------------------------------------

    def _queue(self, sync: Callable[[], None]) -> None:
        with self._lock:
            self._todo.append(sync)

    def sync_pending(self) -> None:
        """Complete the messages the ack path queued without some name, and record the
        visibility it queued (in order), with the Web API. Runs right after the ack and,
        through the writer worker's pre-write hook, before every commit: a message is never
        written before its names are looked up and its conversation's visibility is
        recorded (if recording fails, the conversation stays unrecorded, which reads as
        private to nobody; what failed is tried again before the next commit)."""
        with self._syncing:  # a commit waits for a sync in progress elsewhere
            with self._lock:
                todo, self._todo = self._todo, []
                corrections, self._corrections = self._corrections, []
            for correct in corrections:
                try:
                    correct()
                except Exception:
                    logger.exception("completing a Slack message after the ack failed; it "
                                     "is tried again before the next commit")
                    with self._lock:
                        self._corrections.append(correct)
            for i, sync in enumerate(todo):
                try:
                    sync()
                except Exception:
                    logger.exception("recording a Slack conversation's visibility failed; "
                                     "it is tried again before the next commit")
                    with self._lock:
                        self._todo[:0] = todo[i:]
                    return

    def ensure_channel(self, team: str, channel: str, *, channel_type: str | None,
                       author: str | None, patient: bool = False) -> None:
        """Upsert the conversation's visibility once per TTL, and at once when the event's
        channel type contradicts what was recorded. If a private conversation's members
        cannot be read now, record it as private to the author alone (never as public) and
        try again on the next event."""
        key = (team, channel)
        now = self._clock()
        event_private = channel_type in PRIVATE_TYPES if channel_type in KNOWN_TYPES else None
        with self._lock:
            fresh = self._synced.get(key, float("-inf")) > now
            recorded = self._private.get(key)
        if fresh and not (event_private and recorded is False):
            return
        if event_private and recorded is False:
            logger.warning("Slack channel %s is now private; re-reading its members", channel)
            self.directory.forget_channel(channel)
        info = self.directory.channel(channel)
        if info is not None and self.access is not None:
            self.access.channel_seen(team, info)
        if info is None:
            if event_private is None:
                logger.warning("visibility of Slack channel %s unknown; not recorded", channel)
                return
            info = ChannelInfo(id=channel, name="", is_private=event_private,
                               is_im=channel_type == "im", is_mpim=channel_type == "mpim")
        elif event_private and not info.is_private:
            info = replace(info, is_private=True)  # the event is newer than Slack's cache
        self._record(team, info, author=author, patient=patient)

    def resync(self, team: str, channel: str, *, private: bool | None = None,
               author: str | None = None) -> None:
        """Forget what is cached about a conversation and record its visibility now
        (``private``: what the triggering event says, trusted over the API)."""
        self.directory.forget_channel(channel)
        with self._lock:
            self._synced.pop((team, channel), None)
        info = self.directory.channel(channel)
        if info is None:
            # Not readable any more (the bot left a private channel, or it was deleted):
            # fail closed, readable by nobody, until the bot can see it again.
            self._upsert(team, Channel(platform=PLATFORM, space=team, id=channel,
                                       is_private=True, members=(author,) if author else ()),
                         synced=False)
            return
        if self.access is not None:
            self.access.channel_seen(team, info)
        if private is not None and private != info.is_private:
            info = replace(info, is_private=private)
        self._record(team, info, author=author, patient=True)

    def _record(self, team: str, info: ChannelInfo, *, author: str | None,
                patient: bool) -> None:
        record: Channel | None
        try:
            record = fetch_channel(self.directory.client, info.id, team_id=team, info=info,
                                   max_waits=3 if patient else 0)
        except Exception as exc:
            logger.warning("members of Slack channel %s unavailable: %s", info.id,
                           type(exc).__name__)
            record = None
        synced = record is not None
        if record is None:
            if not info.is_private:
                record = Channel(platform=PLATFORM, space=team, id=info.id, name=info.name)
                synced = True
            else:
                record = Channel(platform=PLATFORM, space=team, id=info.id, name=info.name,
                                 is_private=True, members=(author,) if author else ())
        self._upsert(team, record, synced=synced)

    def _upsert(self, team: str, record: Channel, *, synced: bool) -> None:
        self.service.upsert_channels([record])
        key = (team, record.id)
        with self._lock:
            self._private[key] = record.is_private
            if synced:
                self._synced[key] = self._clock() + self._ttl
            else:
                self._synced.pop(key, None)

    def refresh_membership(self, body: dict[str, Any], event: dict[str, Any],
                           context: Mapping[str, Any]) -> None:
        """``member_joined_channel``/``member_left_channel``: re-read the members now.
        The bot itself joining may start a backfill of the conversation."""
        channel = event.get("channel")
        if not isinstance(channel, str):
            return
        team = team_id(body, context)
        ctype = event.get("channel_type")
        self.directory.forget_channel(channel)
        with self._lock:
            self._synced.pop((team, channel), None)
        self.ensure_channel(team, channel, channel_type=ctype if isinstance(ctype, str) else None,
                            author=None, patient=True)
        user = event.get("user")
        if self.access is not None and isinstance(user, str):
            self.access.member_changed(team, user, channel=channel)
        bot = context.get("bot_user_id")
        if (event.get("type") == "member_joined_channel" and bot and event.get("user") == bot
                and self.on_bot_joined is not None):
            self.on_bot_joined(team, channel)

    def bot_left(self, body: dict[str, Any], event: dict[str, Any],
                 context: Mapping[str, Any]) -> None:
        """``channel_left``/``group_left``: the bot was removed from a conversation."""
        channel = event.get("channel")
        if isinstance(channel, str):
            self.resync(team_id(body, context), channel)

    def renamed(self, body: dict[str, Any], event: dict[str, Any],
                context: Mapping[str, Any]) -> None:
        """``channel_rename``/``group_rename``: record the new name."""
        raw = event.get("channel")
        channel = raw.get("id") if isinstance(raw, Mapping) else raw
        if isinstance(channel, str):
            self.resync(team_id(body, context), channel)

    def user_changed(self, event: dict[str, Any], *, team: str = "") -> None:
        """``user_change``: the next message or answer looks the person up again, and a
        guest promoted to member (or the reverse) reads accordingly at once."""
        user = event.get("user")
        uid = user.get("id") if isinstance(user, Mapping) else None
        if isinstance(uid, str):
            self.directory.forget_user(uid)
            if self.access is not None and team:
                self.access.user_changed(team, uid)

    # --- lifecycle ------------------------------------------------------------------------

    def uninstalled(self, body: dict[str, Any], event: dict[str, Any],
                    context: Mapping[str, Any]) -> None:
        """``app_uninstalled``, or ``tokens_revoked`` naming bot tokens: the workspace's
        memory is deleted after the grace period unless the app comes back."""
        if event.get("type") == "tokens_revoked":
            tokens = event.get("tokens")
            bots = tokens.get("bot") if isinstance(tokens, Mapping) else None
            if not bots:
                return  # only user tokens: the bot still works
        team = team_id(body, context)
        if team:
            at = self._now()
            self.service.mark_uninstalled(platform=PLATFORM, space=team, at=at)
            with self._lock:
                self._leaving[team] = at.timestamp()

    def _back(self, team: str, ts: object) -> None:
        """A message written after the uninstall reached us: the app is installed again,
        so the pending deletion is cancelled."""
        with self._lock:
            at = self._leaving.get(team)
        try:
            written = float(ts) if isinstance(ts, str) else None
        except ValueError:
            written = None
        if at is None or written is None or written <= at:
            return
        with self._lock:
            self._leaving.pop(team, None)
        self.service.cancel_uninstall(platform=PLATFORM, space=team)
