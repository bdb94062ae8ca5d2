"""A small, real :class:`memory.ports.MemoryService` that keeps everything in lists.

For adapter tests that are about the platform side (what reaches the service, in which
order, and how answers are rendered), not about memory quality. It behaves like the real
service where adapters can tell: ``submit`` is idempotent on the same key as the inbox
(:func:`memory.store.inbox.event_key`) and returns how many events were new; ``process`` commits
pending events in order, applying edits and deletes; ``ask`` answers extractively from
committed messages within the permission scope the real service computes
(:func:`memory.access.allowed_channels`, the real rule).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from bot.errors import DigestOwned
from memory.access import SpaceAccess, allowed_channels
from memory.models import Answer, Channel, Citation, Delete, Edit, Message, State
from memory.ports import FeedbackEntry, MessageStatus, ShareCheck
from memory.store.inbox import event_key
from tests.support.fake_worker import WorkerMixin

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"the", "a", "an", "is", "are", "what", "when", "who", "was", "to", "of",
                   "and", "in", "on", "for", "we", "did", "does", "do", "our"})


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


class ListService(WorkerMixin):
    def __init__(self, *, states: list[State] | None = None) -> None:
        self.events: list[Message | Edit | Delete] = []  # everything submitted, once each
        self.committed: dict[tuple[str, str, str, str], Message] = {}
        self.channels: dict[str, Channel] = {}
        self.log: list[tuple[str, str]] = []  # ("upsert", channel) / ("submit"|"commit", id)
        self.asks: list[dict[str, Any]] = []
        self.history_calls: list[dict[str, Any]] = []
        self.forgotten: list[tuple[str, str, str, str]] = []
        self.states = states or []
        self.fail_submits = 0  # the next N submits raise (a full disk, say)
        self.processed = threading.Event()
        self.process_calls = 0
        self.feedback: list[FeedbackEntry] = []
        self.digests: set[tuple[str, str, str]] = set()
        self.digest_owners: dict[tuple[str, str, str], str] = {}
        self.uninstalls: dict[tuple[str, str], datetime] = {}
        self.forgotten_spaces: list[tuple[str, str]] = []
        self.cursors: dict[str, str] = {}
        self.access: dict[tuple[str, str], SpaceAccess] = {}
        self.statuses: dict[tuple[str, str], MessageStatus] = {}
        self._keys: set[str] = set()
        self._pending: list[Message | Edit | Delete] = []
        self._lock = threading.Lock()

    # --- writes ---------------------------------------------------------------------------

    def submit(self, events: Iterable[Message | Edit | Delete]) -> int:
        with self._lock:
            if self.fail_submits:
                self.fail_submits -= 1
                raise OSError("disk full")
            new = 0
            for ev in events:
                key, _ = event_key(ev)
                self.log.append(("submit", ev.id))
                if key in self._keys:
                    continue
                self._keys.add(key)
                self.events.append(ev)
                self._pending.append(ev)
                new += 1
            return new

    def amend(self, queued: Message | Edit | Delete,
              corrected: Message | Edit | Delete | None) -> bool:
        """As the inbox: a pending event is replaced in place (or withdrawn); once
        committed, nothing changes; a correction already queued drops the entry."""
        with self._lock:
            key, _ = event_key(queued)
            at = next((i for i, ev in enumerate(self._pending) if event_key(ev)[0] == key),
                      None)
            if at is None:
                return False
            self.log.append(("amend", queued.id))
            old = self._pending.pop(at)
            index = self.events.index(old)
            del self.events[index]
            new_key = event_key(corrected)[0] if corrected is not None else None
            if corrected is not None and new_key is not None and (
                    new_key == key or new_key not in self._keys):
                self._keys.add(new_key)
                self._pending.insert(at, corrected)
                self.events.insert(index, corrected)
            return True

    def commit_queued(self) -> int:
        with self._lock:
            done = 0
            for ev in self._pending:
                k = (ev.platform, ev.space, ev.channel, ev.id)
                self.log.append(("commit", ev.id))
                if isinstance(ev, Message):
                    self.committed[k] = ev
                elif isinstance(ev, Edit) and k in self.committed:
                    self.committed[k] = self.committed[k].model_copy(
                        update={"text": ev.text, "edited": True})
                elif isinstance(ev, Delete):
                    self.committed.pop(k, None)
                done += 1
            self._pending.clear()
            self.process_calls += 1
        self.processed.set()
        return done

    def upsert_channels(self, channels: Iterable[Channel]) -> None:
        with self._lock:
            for ch in channels:
                self.channels[ch.id] = ch
                self.log.append(("upsert", ch.id))

    def forget_message(self, *, platform: str, space: str, channel: str,
                       message_id: str) -> bool:
        with self._lock:
            key = (platform, space, channel, message_id)
            self.forgotten.append(key)
            return self.committed.pop(key, None) is not None

    # --- reads ----------------------------------------------------------------------------

    def readable(self, *, user: str, channel: str, widen: bool) -> set[str]:
        """The real rule (:func:`memory.access.allowed_channels`) over these lists."""
        seen = {k[2] for k in self.committed}
        return set(allowed_channels(self.channels, seen, access=SpaceAccess(platform="", space=""),
                                    user=user, channel=channel, widen=widen))

    def ask(self, question: str, *, platform: str, space: str, user: str, channel: str,
            widen: bool = False) -> Answer:
        self.asks.append({"question": question, "platform": platform, "space": space,
                          "user": user, "channel": channel, "widen": widen})
        allowed = self.readable(user=user, channel=channel, widen=widen)
        q = _words(question)
        with self._lock:
            scored = [(len(q & _words(m.text)), m.ts, m) for k, m in self.committed.items()
                      if k[0] == platform and k[1] == space and k[2] in allowed]
        hits = sorted((s for s in scored if s[0] > 0), key=lambda s: (-s[0], -s[1].timestamp()))
        if not hits:
            return Answer(answer="I couldn't find that in what you can read.", abstained=True)
        cites = [Citation(node_id="n_" + m.id, message_id=m.id, channel=m.channel,
                          channel_name=m.channel_name or "", speaker=m.speaker, ts=m.ts,
                          quote=m.text, permalink=m.permalink) for _, _, m in hits[:3]]
        states = [s for s in self.states if s.channel in allowed]
        return Answer(answer=hits[0][2].text, citations=cites, states=states, rounds=1)

    def history(self, topic: str, *, platform: str, space: str, user: str, channel: str,
                widen: bool = False) -> list[State]:
        self.history_calls.append({"topic": topic, "user": user, "channel": channel,
                                   "widen": widen})
        allowed = self.readable(user=user, channel=channel, widen=widen)
        t = _words(topic)
        return [s for s in self.states if s.channel in allowed and t & _words(s.topic)]

    # --- day-to-day features (memory.ports.ChatService) -------------------------------------

    def pending_in(self, *, platform: str, space: str, channel: str, limit: int = 100) -> int:
        with self._lock:
            return min(limit, sum(1 for ev in self._pending if ev.channel == channel))

    def share_check(self, answer: Answer, *, platform: str, space: str, channel: str,
                    user: str, widen: bool) -> ShareCheck:
        """The real rule, on these lists: the asker's scope and every shown message and
        decision must be readable by everyone in ``channel``."""
        with self._lock:
            by_node = {"n_" + k[3]: k for k in self.committed}
        target = self.channels.get(channel)

        def readable(cid: str) -> bool:
            rec = self.channels.get(cid)
            if cid == channel or (rec is not None and not rec.is_private):
                return True
            return rec is not None and target is not None and target.is_private \
                and bool(target.members) and set(target.members) <= set(rec.members)

        private_scope = not all(readable(c) for c in self.readable(
            user=user, channel=channel, widen=widen))
        shown: list[str] = [s.channel for s in answer.states]
        missing = 0
        for cite in answer.citations:
            key = by_node.get(cite.node_id)
            if key is None:
                missing += 1
            else:
                shown.append(key[2])
        withheld = tuple(c for c in dict.fromkeys(shown) if not readable(c))
        ok = not withheld and not missing and not private_scope
        return ShareCheck(ok=ok, withheld=withheld, missing=missing,
                          private_scope=private_scope, answer=answer if ok else None)

    def message_status(self, *, platform: str, space: str, channel: str, message_id: str,
                       user: str) -> MessageStatus:
        return self.statuses.get((channel, message_id), MessageStatus(role="unknown"))

    def recent_changes(self, *, platform: str, space: str, user: str | None,
                       channel: str | None, since: datetime, widen: bool = True,
                       limit: int = 10) -> list[State]:
        if user is None:
            allowed = {channel} if channel else {s.channel for s in self.states}
        else:
            allowed = self.readable(user=user, channel=channel or "", widen=widen)
        return [s for s in self.states if s.channel in allowed and s.updated_at >= since
                and len(s.chain) > 1][:limit]

    def record_feedback(self, entry: FeedbackEntry) -> None:
        self.feedback.append(entry)

    def set_digest(self, *, platform: str, space: str, channel: str, enabled: bool,
                   by: str, manager: bool = False) -> bool:
        key = (platform, space, channel)
        had = key in self.digests
        if enabled:
            self.digests.add(key)
            self.digest_owners.setdefault(key, by)
        else:
            owner = self.digest_owners.get(key)
            if had and owner is not None and owner != by and not manager:
                raise DigestOwned(owner)
            self.digests.discard(key)
            self.digest_owners.pop(key, None)
        return had != enabled

    def digest_channels(self, *, platform: str) -> list[tuple[str, str]]:
        return sorted((s, c) for p, s, c in self.digests if p == platform)

    def mark_uninstalled(self, *, platform: str, space: str, at: datetime) -> None:
        self.uninstalls[(platform, space)] = at  # a new uninstall restarts the grace

    def pending_uninstalls(self, *, platform: str) -> list[tuple[str, datetime]]:
        return [(s, at) for (p, s), at in self.uninstalls.items() if p == platform]

    def due_uninstalls(self, *, now: datetime) -> list[tuple[str, str, datetime]]:
        return [(p, s, at) for (p, s), at in self.uninstalls.items()]

    def cancel_uninstall(self, *, platform: str, space: str) -> bool:
        return self.uninstalls.pop((platform, space), None) is not None

    def forget_space(self, *, platform: str, space: str) -> int:
        with self._lock:
            gone = [k for k in self.committed if k[0] == platform and k[1] == space]
            for k in gone:
                del self.committed[k]
        self.forgotten_spaces.append((platform, space))
        self.uninstalls.pop((platform, space), None)
        return len(gone)

    def space_access(self, *, platform: str, space: str) -> SpaceAccess:
        return self.access.get((platform, space)) or SpaceAccess(platform=platform,
                                                                 space=space)

    def set_space_access(self, access: SpaceAccess) -> None:
        self.access[(access.platform, access.space)] = access

    def get_cursor(self, name: str) -> str | None:
        return self.cursors.get(name)

    def set_cursor(self, name: str, value: str) -> None:
        self.cursors[name] = value
