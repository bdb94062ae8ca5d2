"""What the chat front ends need day to day, on top of the core memory service.

:class:`DailyUse` is mixed into :class:`memory.service.Egmem` and implements the small
Protocols of :mod:`memory.ports` beyond ``MemoryService``: pending work of a channel, the
share check, "is this still current?", recent decision changes (App Home, digests),
feedback, digest subscriptions and uninstalls (:meth:`DailyUse.forget_space`). It only
composes the store, inbox, writer and reader tools the runtime already holds; its own
records live in two small SQLite files beside the inbox (:mod:`memory.store.feedback`,
:mod:`memory.store.workspaces`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import cached_property

from memory.access import SpaceAccess, access_key, load_access, save_access, scope_for
from memory.models import Answer, Channel, EvidenceNode, Scope, State, Verdict
from memory.pipeline import Pipeline
from memory.ports import FeedbackEntry, MessageStatus, ShareCheck
from memory.reader.tools import ReaderTools
from memory.store import feedback as feedback_file
from memory.store import workspaces as workspaces_file
from memory.store.feedback import FeedbackLog
from memory.store.inbox import Inbox
from memory.store.ports import Store
from memory.store.workspaces import WorkspaceLedger
from memory.text import content_terms
from memory.writer import Writer

logger = logging.getLogger(__name__)

_FORGET_BATCH = 1000
_KEY_SEP = "\x1f"  # between the parts of an inbox key: platform, space, channel, id, …


class DailyUse:
    """Mixin for :class:`memory.service.Egmem` (which provides these attributes)."""

    store: Store
    inbox: Inbox
    writer: Writer
    pipeline: Pipeline
    tools: ReaderTools
    _drain_lock: threading.Lock

    # ---- own records ------------------------------------------------------------------
    @cached_property
    def feedback_log(self) -> FeedbackLog:
        return FeedbackLog(self.inbox.path.parent / feedback_file.FILENAME)

    @cached_property
    def workspace_ledger(self) -> WorkspaceLedger:
        return WorkspaceLedger(self.inbox.path.parent / workspaces_file.FILENAME)

    def close_daily_use(self) -> None:
        for name in ("feedback_log", "workspace_ledger"):
            opened = self.__dict__.pop(name, None)
            if opened is not None:
                opened.close()

    # ---- backfill cursors (a backfill running inside ``serve``) -------------------------
    def get_cursor(self, name: str) -> str | None:
        return self.inbox.get_cursor(name)

    def set_cursor(self, name: str, value: str) -> None:
        self.inbox.set_cursor(name, value)

    # ---- pending work -----------------------------------------------------------------
    def pending_in(self, *, platform: str, space: str, channel: str, limit: int = 100) -> int:
        return len(self.inbox.pending((platform, space, channel), limit=limit))

    # ---- sharing ----------------------------------------------------------------------
    def share_check(self, answer: Answer, *, platform: str, space: str, channel: str,
                    user: str, widen: bool) -> ShareCheck:
        """Whether ``answer`` may be posted into ``channel``: the asker's scope it was
        composed from (an answer's wording may come from anything it read, and a model's
        wording from anything it was shown; a conversation with nothing in memory adds
        nothing) and everything the post shows must be readable by everyone in
        ``channel``. What it shows is looked up in memory, not taken from the answer:
        every cited message, every decision and every entry of its chain, with its
        channel and link. Anything shown that memory no longer holds, or holds
        differently, counts as ``missing``. The checked answer holds only the checked
        parts."""
        scope = self._scope(platform=platform, space=space, user=user, channel=channel,
                            widen=widen)
        unknown: set[str] = set()
        readable = self._readable_by_all(platform=platform, space=space, channel=channel,
                                         unknown=unknown)
        refused = [c for c in scope.channels or () if not readable(c)]
        shown, missing = self._shown_channels(answer, platform=platform, space=space)
        withheld_all = [c for c in dict.fromkeys(shown) if not readable(c)]
        # ``unknown``: refused only because who reads this channel is not known yet. A
        # conversation with nothing in memory cannot have shaped the answer.
        private_scope = any(c not in unknown and self._holds_evidence(platform, space, c)
                            for c in refused)
        withheld = tuple(c for c in withheld_all if c not in unknown)
        ok = not withheld and not missing and not private_scope and not unknown
        checked = Answer(answer=answer.answer, abstained=answer.abstained,
                         citations=list(answer.citations), states=list(answer.states))
        return ShareCheck(ok=ok, withheld=withheld, missing=missing,
                          private_scope=private_scope, unverified=bool(unknown),
                          answer=checked if ok else None)

    def _holds_evidence(self, platform: str, space: str, channel: str) -> bool:
        return self.store.holds_evidence(Scope(platform=platform, space=space,
                                               channels=(channel,)))

    def _readable_by_all(self, *, platform: str, space: str, channel: str,
                         unknown: set[str]) -> Callable[[str], bool]:
        """A predicate: may everyone in ``channel`` read a given channel? Its own messages;
        a private conversation's whose members include every member of ``channel`` (which
        must then be private too, with known members); a public channel's when no guest
        of ``channel`` lacks it, once every guest of the space is known. Nothing but its
        own messages in a channel shared with another organization. Anything else, or a
        conversation egmem has no record of, is not. A public channel refused only because
        the space's guests are not all known yet is added to ``unknown``."""
        records = {c.id: c for c in self.store.channels(platform=platform, space=space)}
        target = records.get(channel)
        access = load_access(self.store, platform=platform, space=space)
        members = target.members if target is not None else ()
        mixed = access.is_mixed(channel, members)
        guests = access.guests_in(channel, members)

        def readable(cid: str) -> bool:
            if cid == channel:
                return True
            rec = records.get(cid)
            if mixed or not _readable_by_all(rec, cid, target, channel) or rec is None:
                return False
            if rec.is_private:  # all of the channel's members are in it, guests too
                return True
            if not all(cid in access.guests[g] for g in guests):
                return False
            if not access.complete:
                unknown.add(cid)
            return access.complete

        return readable

    # ---- who reads less than the public channels ----------------------------------------
    def space_access(self, *, platform: str, space: str) -> SpaceAccess:
        return load_access(self.store, platform=platform, space=space)

    def set_space_access(self, access: SpaceAccess) -> None:
        if access != self.space_access(platform=access.platform, space=access.space):
            save_access(self.store, access)

    def _shown_channels(self, answer: Answer, *, platform: str, space: str
                        ) -> tuple[list[str], int]:
        """The channels of everything ``answer`` shows, as memory records them, and how
        many shown items memory does not hold as shown."""
        wanted = [c.node_id for c in answer.citations]
        wanted += [e.node_id for s in answer.states for e in s.chain]
        nodes = {n.node_id: n for n in self.store.get_nodes(list(dict.fromkeys(wanted)),
                                                            Scope(platform=platform,
                                                                  space=space))}
        state_ids = list(dict.fromkeys(s.state_id for s in answer.states))
        stored = {str(r["state_id"]): r for r in self.store.states.find(
            Scope(platform=platform, space=space), state_ids=state_ids)} if state_ids else {}
        channels: list[str] = []
        missing = 0
        for cite in answer.citations:
            node = nodes.get(cite.node_id)
            if node is None or not _same_place(node, channel=cite.channel,
                                               message_id=cite.message_id,
                                               permalink=cite.permalink) \
                    or cite.channel_name not in ("", node.channel_name):
                missing += 1
            if node is not None:
                channels.append(node.channel)
            channels.append(cite.channel)
        for state in answer.states:
            row = stored.get(state.state_id)
            if row is None or str(row["channel"]) != state.channel:
                missing += 1
            else:
                channels.append(str(row["channel"]))
            channels.append(state.channel)
            for entry in state.chain:
                node = nodes.get(entry.node_id)
                if node is None or not _same_place(node, channel=state.channel,
                                                   message_id=entry.message_id,
                                                   permalink=entry.permalink):
                    missing += 1
                if node is not None:
                    channels.append(node.channel)
        return channels, missing

    # ---- decisions --------------------------------------------------------------------
    def _scope(self, *, platform: str, space: str, user: str | None, channel: str | None,
               widen: bool) -> Scope:
        return scope_for(self.store, platform=platform, space=space, user=user,
                         channel=channel, widen=widen)

    def _states(self, scope: Scope, query: str, *, ids: Sequence[str] = (),
                k: int = 1) -> list[State]:
        session = self.tools.session(scope)
        found = session.read_current_state(query, k=max(k, len(ids)), state_ids=list(ids))
        if ids:
            wanted = set(ids)
            found = [s for s in found if s.state_id in wanted]
        return found

    def message_status(self, *, platform: str, space: str, channel: str, message_id: str,
                       user: str) -> MessageStatus:
        scope = self._scope(platform=platform, space=space, user=user, channel=channel,
                            widen=True)
        node = self.store.find_message(channel=channel, message_id=message_id,
                                       platform=platform, space=space)
        if node is None or (scope.channels is not None and node.channel not in scope.channels):
            return MessageStatus(role="unknown")
        if node.state_id and node.verdict in (Verdict.ESTABLISH, Verdict.REVISE):
            states = self._states(scope, "", ids=[node.state_id])
            if states:
                return _status_of_setter(node, states[0])
        # A message that set nothing: the decision of its own channel it talks about.
        own = Scope(platform=platform, space=space, channels=(node.channel,))
        ids = [node.state_id] if node.state_id else []
        states = self._states(own, node.text, ids=ids) if ids else self._states(own, node.text)
        if not states:
            return MessageStatus(role="none")
        return _status_of_mention(node, states[0])

    def recent_changes(self, *, platform: str, space: str, user: str | None,
                       channel: str | None, since: datetime, widen: bool = True,
                       limit: int = 10) -> list[State]:
        scope = self._scope(platform=platform, space=space, user=user, channel=channel,
                            widen=widen)
        if not widen and channel is not None:
            scope = scope.model_copy(update={"channels": (channel,)
                                             if scope.channels is None or channel in
                                             scope.channels else ()})
        rows = self.store.states.find(scope, revised_since=since)
        rows.sort(key=lambda r: -float(r["updated_ts"]))
        ids = [str(r["state_id"]) for r in rows[: limit * 2]]
        if not ids:
            return []
        states = [s for s in self._states(scope, "", ids=ids)
                  if len(s.chain) > 1 and s.chain[-1].ts >= since]
        states.sort(key=lambda s: s.updated_at, reverse=True)
        return states[:limit]

    # ---- feedback ---------------------------------------------------------------------
    def record_feedback(self, entry: FeedbackEntry) -> None:
        self.feedback_log.record(entry)
        logger.info("feedback %s on %d cited node(s) in %s/%s", entry.vote,
                    len(entry.node_ids), entry.space, entry.channel)

    def feedback_entries(self, *, node_id: str | None = None) -> list[FeedbackEntry]:
        return self.feedback_log.entries(node_id=node_id)

    # ---- workspaces -------------------------------------------------------------------
    def set_digest(self, *, platform: str, space: str, channel: str, enabled: bool,
                   by: str, manager: bool = False) -> bool:
        return self.workspace_ledger.set_digest(platform=platform, space=space,
                                                channel=channel, enabled=enabled, by=by,
                                                manager=manager)

    def digest_channels(self, *, platform: str) -> list[tuple[str, str]]:
        return self.workspace_ledger.digest_channels(platform=platform)

    def mark_uninstalled(self, *, platform: str, space: str, at: datetime) -> None:
        self.workspace_ledger.mark_uninstalled(platform=platform, space=space, at=at)
        logger.warning("%s workspace %s uninstalled egmem; its memory will be deleted after "
                       "the grace period unless it reinstalls", platform, space)

    def due_uninstalls(self, *, now: datetime,
                       grace: timedelta = workspaces_file.UNINSTALL_GRACE
                       ) -> list[tuple[str, str, datetime]]:
        return self.workspace_ledger.due_uninstalls(now=now, grace=grace)

    def pending_uninstalls(self, *, platform: str) -> list[tuple[str, datetime]]:
        return self.workspace_ledger.pending_uninstalls(platform=platform)

    def cancel_uninstall(self, *, platform: str, space: str) -> bool:
        cancelled = self.workspace_ledger.cancel_uninstall(platform=platform, space=space)
        if cancelled:
            logger.warning("%s workspace %s is back: its memory is kept", platform, space)
        return cancelled

    def forget_space(self, *, platform: str, space: str) -> int:
        """Everything of one workspace/guild leaves every table, index and file: queued and
        dead-lettered messages are scrubbed from the inbox (``egmem retry`` cannot bring
        them back), committed ones go through the writer's forget (as ``forget --user``),
        its channel records and access record are deleted, then old versions are purged;
        last, the feedback and digest records, the inbox rows and backfill cursors that
        still name it are deleted, and each SQLite file's write-ahead log folded back."""
        with self._drain_lock:
            for key in self.inbox.channels_with_work():
                if key[:2] == (platform, space):
                    for item in self.inbox.pending(key, limit=1_000_000):
                        self.inbox.scrub(platform=platform, space=space, channel=key[2],
                                         message_id=item.event.id)
            for dead in self.inbox.dead_letters():
                if dead.key.split(_KEY_SEP)[:2] == [platform, space]:
                    self.inbox.scrub(platform=platform, space=space, channel=dead.channel,
                                     message_id=dead.message_id)
            nodes = self.store.find_nodes(Scope(platform=platform, space=space))
            for n in nodes:
                self.inbox.scrub(platform=platform, space=space, channel=n.channel,
                                 message_id=n.message_id)
            count = 0
            ids = [n.node_id for n in nodes]
            for i in range(0, len(ids), _FORGET_BATCH):
                count += self.writer.forget(ids[i:i + _FORGET_BATCH])
            # No record reads the same as a private one: readable only from inside it.
            self.store.meta.drop_space(platform=platform, space=space,
                                       keys=[access_key(platform, space)])
            self.pipeline.purge()
            self.inbox.forget_space(platform=platform, space=space)
            self.inbox.checkpoint()
        self.feedback_log.forget_space(platform=platform, space=space)
        self.workspace_ledger.forget_space(platform=platform, space=space)
        logger.warning("forgot %s workspace %s: %d message(s)", platform, space, count)
        return count


def rank_history(states: Sequence[State], topic: str) -> list[State]:
    """``/recall history TOPIC``: the decisions whose label names the topic first (most of
    its words in the label), revised chains before single values, then the search order."""
    wanted = set(content_terms(topic))

    def key(item: tuple[int, State]) -> tuple[float, int, int, int]:
        index, state = item
        named = len(wanted & set(content_terms(state.topic))) / len(wanted) if wanted else 0.0
        return (-named, -int(len(state.chain) > 1), -state.revision_count, index)

    return [s for _, s in sorted(enumerate(states), key=key)]


def _same_place(node: EvidenceNode, *, channel: str, message_id: str,
                permalink: str | None) -> bool:
    """Whether a shown item names ``node`` where memory has it: its channel, its message
    and (when a link is shown) its own link."""
    return (node.channel == channel and node.message_id == message_id
            and permalink in (None, node.permalink))


def _readable_by_all(rec: Channel | None, cited: str, target: Channel | None,
                     target_id: str) -> bool:
    if cited == target_id:
        return True
    if rec is None:
        return False
    if not rec.is_private:
        return True
    if target is None or not target.is_private or not target.members:
        return False
    return set(target.members) <= set(rec.members)


def _status_of_setter(node: EvidenceNode, state: State) -> MessageStatus:
    ids = [e.node_id for e in state.chain]
    if node.node_id in ids:
        since = tuple(state.chain[ids.index(node.node_id) + 1:])
    else:  # a revision read as ungrounded: judge by time
        since = tuple(e for e in state.chain if e.ts > node.ts)
    return MessageStatus(role="set", state=state, current=not since, since=since,
                         value=node.value or (state.value if not since else ""))


def _status_of_mention(node: EvidenceNode, state: State) -> MessageStatus:
    before = [e for e in state.chain if e.ts <= node.ts]
    since = tuple(e for e in state.chain if e.ts > node.ts)
    value = before[-1].value if before else ""
    return MessageStatus(role="mentions", state=state, current=not since, since=since,
                         value=value)
