"""A small, real :class:`memory.ports.MemoryService` for adapter tests.

In-process and deterministic: an idempotent queue, a dict store, the visibility rule of
:mod:`memory.access` itself (:func:`~memory.access.allowed_channels`: one space; public
channels plus the asking channel, with ``widen`` the private channels the asker is a member
of; a channel without a record is private) and word-overlap recall. Every
call is recorded, so tests can check what the platform adapter asked for.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.errors import DigestOwned
from memory.access import SpaceAccess, allowed_channels
from memory.models import (
    Answer,
    ChainEntry,
    Channel,
    Citation,
    Delete,
    Edit,
    Message,
    State,
    Verdict,
)
from memory.ports import FeedbackEntry, MessageStatus, ShareCheck
from tests.support.fake_worker import WorkerMixin

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset("a an the is are was what when who where how did do does we our to of in "
                  "on for it and or at by with".split())

Key = tuple[str, str, str, str]


def _ident(ev: Message | Edit | Delete) -> tuple[str, ...]:
    """The queue's idempotency key (an edit's includes its text, as the inbox's does)."""
    return (type(ev).__name__, ev.platform, ev.space, ev.channel, ev.id,
            ev.text if isinstance(ev, Edit) else "")


def words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


class _ChatExtras:
    """What :class:`memory.ports.ChatService` adds to the core service, kept in lists."""

    def pending_in(self: Any, *, platform: str, space: str, channel: str,
                    limit: int = 100) -> int:
        with self._lock:
            return min(limit, sum(1 for e in self._pending if e.space == space
                                  and e.channel == channel))

    def share_check(self: Any, answer: Any, *, platform: str, space: str, channel: str,
                     user: str, widen: bool) -> ShareCheck:
        return ShareCheck(ok=True, answer=answer)

    def message_status(self: Any, *, platform: str, space: str, channel: str,
                        message_id: str, user: str) -> MessageStatus:
        self.asks.append(dict(status=message_id, space=space, channel=channel, user=user))
        return self.statuses.get((channel, message_id), MessageStatus(role="unknown"))

    def recent_changes(self: Any, *, platform: str, space: str, user: str | None,
                        channel: str | None, since: datetime, widen: bool = True,
                        limit: int = 10) -> list[State]:
        return [s for s in self.recent if s.updated_at >= since and (
            channel is None or widen or s.channel == channel)][:limit]

    def record_feedback(self: Any, entry: FeedbackEntry) -> None:
        self.feedback.append(entry)

    def set_digest(self: Any, *, platform: str, space: str, channel: str, enabled: bool,
                    by: str, manager: bool = False) -> bool:
        had = (space, channel) in self.digests
        owner = self.digest_owners.get((space, channel))
        if not enabled and had and owner not in (None, by) and not manager:
            raise DigestOwned(owner)
        (self.digests.add if enabled else self.digests.discard)((space, channel))
        if enabled:
            self.digest_owners.setdefault((space, channel), by)
        else:
            self.digest_owners.pop((space, channel), None)
        return had != enabled

    def digest_channels(self: Any, *, platform: str) -> list[tuple[str, str]]:
        return sorted(self.digests)

    def mark_uninstalled(self: Any, *, platform: str, space: str, at: datetime) -> None:
        self.uninstalls[(platform, space)] = at  # a new uninstall restarts the grace

    def due_uninstalls(self: Any, *, now: datetime) -> list[tuple[str, str, datetime]]:
        return [(p, s, at) for (p, s), at in self.uninstalls.items()]

    def pending_uninstalls(self: Any, *, platform: str) -> list[tuple[str, datetime]]:
        return [(s, at) for (p, s), at in self.uninstalls.items() if p == platform]

    def cancel_uninstall(self: Any, *, platform: str, space: str) -> bool:
        return self.uninstalls.pop((platform, space), None) is not None

    def forget_space(self: Any, *, platform: str, space: str) -> int:
        with self._lock:
            gone = [k for k in self.messages if k[1] == space]
            for k in gone:
                del self.messages[k]
        self.forgotten_spaces.append(space)
        self.uninstalls.pop((platform, space), None)
        return len(gone)

    def space_access(self: Any, *, platform: str, space: str) -> SpaceAccess:
        return SpaceAccess(platform=platform, space=space)  # Discord has no guests

    def set_space_access(self: Any, access: SpaceAccess) -> None:
        pass

    def get_cursor(self: Any, name: str) -> str | None:
        return self.cursors.get(name)

    def set_cursor(self: Any, name: str, value: str) -> None:
        self.cursors[name] = value


@dataclass
class ToyMemory(_ChatExtras, WorkerMixin):
    messages: dict[Key, Message] = field(default_factory=dict)
    channels: dict[tuple[str, str], Channel] = field(default_factory=dict)
    submitted: list[Message | Edit | Delete] = field(default_factory=list)
    """Every event queued, once each (a correction replaces what it corrects)."""
    amends: list[tuple[Message | Edit | Delete, Message | Edit | Delete | None]] = field(
        default_factory=list)
    asks: list[dict[str, Any]] = field(default_factory=list)
    histories: list[dict[str, Any]] = field(default_factory=list)
    upserts: list[list[Channel]] = field(default_factory=list)
    forgotten: list[Key] = field(default_factory=list)
    ask_error: Exception | None = None
    fail_submit_after: int | None = None
    """Raise on the submit call after this many successful ones (a crash mid-backfill)."""
    feedback: list[FeedbackEntry] = field(default_factory=list)
    statuses: dict[tuple[str, str], MessageStatus] = field(default_factory=dict)
    recent: list[State] = field(default_factory=list)
    digests: set[tuple[str, str]] = field(default_factory=set)
    uninstalls: dict[tuple[str, str], datetime] = field(default_factory=dict)
    digest_owners: dict[tuple[str, str], str] = field(default_factory=dict)
    forgotten_spaces: list[str] = field(default_factory=list)
    cursors: dict[str, str] = field(default_factory=dict)
    _pending: list[Message | Edit | Delete] = field(default_factory=list)
    _seen: set[tuple[str, ...]] = field(default_factory=set)
    _submit_calls: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # ---- writes -------------------------------------------------------------------------
    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        with self._lock:
            if self.fail_submit_after is not None and self._submit_calls >= self.fail_submit_after:
                raise OSError("disk full")
            self._submit_calls += 1
            new = 0
            for ev in events:
                ident = _ident(ev)
                if ident in self._seen:
                    continue
                self._seen.add(ident)
                self.submitted.append(ev)
                self._pending.append(ev)
                new += 1
            return new

    def amend(self, queued: Message | Edit | Delete,
              corrected: Message | Edit | Delete | None) -> bool:
        """As the inbox: a pending event is replaced in place (or withdrawn); once
        committed, nothing changes; a correction already queued drops the entry."""
        with self._lock:
            self.amends.append((queued, corrected))
            at = next((i for i, ev in enumerate(self._pending) if ev == queued), None)
            if at is None:
                return False
            old = self._pending.pop(at)
            index = self.submitted.index(old)
            del self.submitted[index]
            ident = _ident(corrected) if corrected is not None else None
            if corrected is not None and ident is not None and (
                    ident == _ident(queued) or ident not in self._seen):
                self._seen.add(ident)
                self._pending.insert(at, corrected)
                self.submitted.insert(index, corrected)
            return True

    def commit_queued(self) -> int:
        with self._lock:
            done, self._pending = self._pending, []
            for ev in done:
                key = (ev.platform, ev.space, ev.channel, ev.id)
                if isinstance(ev, Message):
                    self.messages[key] = ev
                elif isinstance(ev, Edit) and key in self.messages:
                    self.messages[key] = self.messages[key].model_copy(
                        update={"text": ev.text, "edited": True})
                elif isinstance(ev, Delete):
                    self.messages.pop(key, None)
            return len(done)

    def upsert_channels(self, channels: Iterable[Channel]) -> None:
        batch = list(channels)
        with self._lock:
            self.upserts.append(batch)
            for ch in batch:
                self.channels[(ch.space, ch.id)] = ch

    def forget_message(self, *, platform: str, space: str, channel: str, message_id: str) -> bool:
        key = (platform, space, channel, message_id)
        with self._lock:
            self.forgotten.append(key)
            return self.messages.pop(key, None) is not None

    # ---- reads --------------------------------------------------------------------------
    def readable(self, *, space: str, user: str, channel: str, widen: bool) -> set[str]:
        """The real rule (:func:`memory.access.allowed_channels`) over these lists."""
        known = {cid: ch for (sp, cid), ch in self.channels.items() if sp == space}
        seen = {k[2] for k in self.messages if k[1] == space}
        return set(allowed_channels(known, seen, access=SpaceAccess(platform="", space=space),
                                    user=user, channel=channel, widen=widen))

    def _matches(self, text: str, *, space: str, user: str, channel: str,
                 widen: bool) -> list[Message]:
        allowed = self.readable(space=space, user=user, channel=channel, widen=widen)
        want = words(text)
        scored = []
        for m in self.messages.values():
            if m.space == space and m.channel in allowed:
                overlap = len(want & words(m.text))
                if overlap:
                    scored.append((-overlap, m.ts, m))
        return [m for _, _, m in sorted(scored, key=lambda t: (t[0], t[1]))]

    def ask(self, question: str, *, platform: str, space: str, user: str, channel: str,
            widen: bool = False) -> Answer:
        with self._lock:
            self.asks.append(dict(question=question, platform=platform, space=space, user=user,
                                  channel=channel, widen=widen))
            if self.ask_error is not None:
                raise self.ask_error
            found = self._matches(question, space=space, user=user, channel=channel,
                                  widen=widen)[:3]
            if not found:
                return Answer(answer="I found nothing about that.", abstained=True)
            states = self._states(question, space=space, user=user, channel=channel,
                                  widen=widen)
            latest = max(found, key=lambda m: m.ts)
            return Answer(answer=latest.text, citations=[_cite(m) for m in found],
                          states=states)

    def history(self, topic: str, *, platform: str, space: str, user: str, channel: str,
                widen: bool = False) -> list[State]:
        with self._lock:
            self.histories.append(dict(topic=topic, platform=platform, space=space, user=user,
                                       channel=channel, widen=widen))
            return self._states(topic, space=space, user=user, channel=channel, widen=widen)

    def _states(self, topic: str, *, space: str, user: str, channel: str,
                widen: bool) -> list[State]:
        """One state per channel: its matching messages, oldest first, form the chain."""
        by_channel: dict[str, list[Message]] = {}
        for m in self._matches(topic, space=space, user=user, channel=channel, widen=widen):
            by_channel.setdefault(m.channel, []).append(m)
        states = []
        for cid, msgs in sorted(by_channel.items()):
            msgs.sort(key=lambda m: m.ts)
            chain = [
                ChainEntry(node_id="n" + m.id, message_id=m.id, value=m.text, speaker=m.speaker,
                           ts=m.ts, quote=m.text, permalink=m.permalink,
                           verdict=Verdict.ESTABLISH if i == 0 else Verdict.REVISE)
                for i, m in enumerate(msgs)
            ]
            states.append(State(
                state_id="s" + cid, platform=msgs[0].platform, space=space, channel=cid,
                topic=" ".join(sorted(words(topic))), value=msgs[-1].text,
                active_node_id=chain[-1].node_id, revision_count=len(chain) - 1,
                updated_at=msgs[-1].ts, chain=chain,
            ))
        return states


def _cite(m: Message) -> Citation:
    return Citation(node_id="n" + m.id, message_id=m.id, channel=m.channel,
                    channel_name=m.channel_name or "", speaker=m.speaker, ts=m.ts,
                    quote=m.text, permalink=m.permalink)
